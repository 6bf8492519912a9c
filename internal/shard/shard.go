package shard

import (
	"fmt"
	"strconv"
	"strings"
)

// EnvCount is the variable that gives the shard count next to
// JOB_COMPLETION_INDEX (Kubernetes sets the index but not the count);
// a -shards flag overrides it.
const EnvCount = "GEMGO_SHARDS"

// Shard is task Index (0-based) of Count. The zero value, Count 0, is no
// sharding: the process does everything.
type Shard struct {
	Index, Count int
}

// On reports whether s splits the work.
func (s Shard) On() bool { return s.Count > 0 }

// Mine reports whether item j (its position in the full, deterministic
// list of items) belongs to s: every item when s is off.
func (s Shard) Mine(j int) bool { return !s.On() || j%s.Count == s.Index }

// Of is the shard of item j among n.
func Of(j, n int) int { return j % n }

// String is the flag form, "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Name is the form for file and directory names, "i-of-n".
func (s Shard) Name() string { return fmt.Sprintf("%d-of-%d", s.Index, s.Count) }

// Parse reads "i/n": 0 <= i < n.
func Parse(v string) (Shard, error) {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("-shard %q: want i/n, the 0-based index i of n shards, e.g. 0/4", v)
	}
	return check(i, n, "-shard "+v)
}

func check(i, n int, what string) (Shard, error) {
	if n < 1 {
		return Shard{}, fmt.Errorf("%s: the shard count must be at least 1", what)
	}
	if i < 0 || i >= n {
		return Shard{}, fmt.Errorf("%s: the index must be in 0..%d (0-based)", what, n-1)
	}
	return Shard{Index: i, Count: n}, nil
}

// Resolve picks the shard of this process: flag ("i/n", "" when not
// given) first; else Slurm's SLURM_ARRAY_TASK_ID: with count (-shards)
// the id is the index; without, the index is id - SLURM_ARRAY_TASK_MIN
// (0 when unset) of SLURM_ARRAY_TASK_COUNT, or of max-min+1 from
// SLURM_ARRAY_TASK_MIN and _MAX (a resubmission of some ids needs
// -shards, which the emitted scripts pass); else
// Kubernetes' JOB_COMPLETION_INDEX with count (a -shards flag; 0 when
// not given) or else EnvCount. None of them: no sharding. getenv is
// os.Getenv in the commands.
func Resolve(flag string, count int, getenv func(string) string) (Shard, error) {
	if flag != "" {
		return Parse(flag)
	}
	num := func(name string) (int, bool, error) {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			return 0, false, nil
		}
		x, err := strconv.Atoi(v)
		if err != nil {
			return 0, false, fmt.Errorf("%s=%q is not a number", name, v)
		}
		return x, true, nil
	}
	if id, ok, err := num("SLURM_ARRAY_TASK_ID"); err != nil || ok {
		if err != nil {
			return Shard{}, err
		}
		lo, hasLo, err := num("SLURM_ARRAY_TASK_MIN")
		if err != nil {
			return Shard{}, err
		}
		hi, hasHi, err := num("SLURM_ARRAY_TASK_MAX")
		if err != nil {
			return Shard{}, err
		}
		if count > 0 { // the array's ids are the shard indexes, however few are resubmitted
			return check(id, count, fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d of -shards %d", id, count))
		}
		n, hasN, err := num("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return Shard{}, err
		}
		switch {
		case hasN:
		case hasLo && hasHi:
			n = hi - lo + 1
		default:
			return Shard{}, fmt.Errorf("SLURM_ARRAY_TASK_ID=%d without SLURM_ARRAY_TASK_COUNT or _MIN/_MAX: give -shard i/n or -shards n", id)
		}
		return check(id-lo, n, fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d (min %d, count %d)", id, lo, n))
	}
	if idx, ok, err := num("JOB_COMPLETION_INDEX"); err != nil || ok {
		if err != nil {
			return Shard{}, err
		}
		n := count
		if n == 0 {
			c, hasC, err := num(EnvCount)
			if err != nil {
				return Shard{}, err
			}
			if !hasC {
				return Shard{}, fmt.Errorf("JOB_COMPLETION_INDEX=%d without a count: give -shards N (the Job's completions) or set %s", idx, EnvCount)
			}
			n = c
		}
		return check(idx, n, fmt.Sprintf("JOB_COMPLETION_INDEX=%d of %d", idx, n))
	}
	if count > 0 {
		return Shard{}, fmt.Errorf("-shards %d without an index: give -shard i/%d, or run as a Slurm array or an Indexed Job", count, count)
	}
	return Shard{}, nil
}

// ArrayList renders the shards that still have work, idx sorted, as a
// Slurm --array list ("0,2-3").
func ArrayList(idx []int) string {
	var parts []string
	for k := 0; k < len(idx); {
		j := k
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if j == k {
			parts = append(parts, strconv.Itoa(idx[k]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", idx[k], idx[j]))
		}
		k = j + 1
	}
	return strings.Join(parts, ",")
}

// Command is the command line that runs shard s of the same work: name,
// then args without -shard, -shards and -merge, then -shard i/n. Words
// with characters a shell reads are quoted.
func Command(name string, args []string, s Shard) string {
	words := []string{name}
	words = append(words, Strip(args)...)
	words = append(words, "-shard", s.String())
	for i, w := range words {
		words[i] = quote(w)
	}
	return strings.Join(words, " ")
}

// MergeCommand is the command line that merges the same work.
func MergeCommand(name string, args []string) string {
	return PlainCommand(name, args) + " -merge"
}

// PlainCommand is the command line that does the same work in one
// process.
func PlainCommand(name string, args []string) string {
	words := append([]string{name}, Strip(args)...)
	for i, w := range words {
		words[i] = quote(w)
	}
	return strings.Join(words, " ")
}

// Strip drops -shard, -shards, -merge, -emit and -emit-* (with their
// values) from args.
func Strip(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name := strings.TrimLeft(a, "-")
		base, _, hasValue := strings.Cut(name, "=")
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
			continue
		}
		switch {
		case base == "merge":
			continue
		case base == "shard" || base == "shards" || base == "emit" || strings.HasPrefix(base, "emit-"):
			if !hasValue {
				i++ // the value is the next word
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

func quote(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@,+%") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
