package mcptask

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
)

// checkResult is one check's outcome: its label, and why it failed ("" when
// it held).
type checkResult struct {
	label string
	fail  string
}

// maxCheckedFile is the most of a file a check reads; a longer file fails
// any content check.
const maxCheckedFile = 4 << 20

// checkFiles runs the files checks of t on the tree at dir. It reads
// through an os.Root, so that no symbolic link the tree may hold leads a
// check outside it.
func checkFiles(t *Task, dir string) ([]checkResult, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("mcp task %s: open the episode's files: %w", t.Name, err)
	}
	defer root.Close()
	out := make([]checkResult, len(t.Spec.Checks))
	for i, c := range t.Spec.Checks {
		out[i] = checkResult{label: c.label()}
		if err := checkPath(t, root, c); err != nil {
			out[i].fail = err.Error()
		}
	}
	return out, nil
}

// checkPath evaluates one files check.
func checkPath(t *Task, root *os.Root, c Check) error {
	fi, err := root.Lstat(c.Path)
	exists := err == nil
	if c.Exists != nil && *c.Exists != exists {
		if exists {
			return errors.New("exists, and should not")
		}
		return errors.New("does not exist")
	}
	if !exists {
		if c.Exists != nil && !*c.Exists {
			return nil
		}
		return errors.New("does not exist")
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return errors.New("is a symbolic link")
	}
	if c.Dir && !fi.IsDir() {
		return errors.New("is not a directory")
	}
	if c.Entries != nil {
		if !fi.IsDir() {
			return errors.New("is not a directory")
		}
		f, err := root.Open(c.Path)
		if err != nil {
			return err
		}
		names, err := f.Readdirnames(-1)
		f.Close()
		if err != nil {
			return err
		}
		slices.Sort(names)
		want := slices.Sorted(slices.Values(c.Entries))
		if !slices.Equal(names, want) {
			return fmt.Errorf("holds %q, want %q", names, want)
		}
	}
	if c.Equals == nil && len(c.Contains) == 0 && len(c.NotContains) == 0 && c.Matches == "" && c.Lines == nil && c.JSON == nil && c.SameAs == "" {
		return nil
	}
	if !fi.Mode().IsRegular() {
		return errors.New("is not a regular file")
	}
	f, err := root.Open(c.Path)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxCheckedFile+1))
	f.Close()
	if err != nil {
		return err
	}
	if len(data) > maxCheckedFile {
		return fmt.Errorf("is larger than %d bytes", maxCheckedFile)
	}
	s := string(data)
	if c.Equals != nil && s != *c.Equals {
		return fmt.Errorf("content %s, want %s", clip(s), clip(*c.Equals))
	}
	if c.SameAs != "" && !bytes.Equal(data, t.Files[c.SameAs]) {
		return fmt.Errorf("content differs from the original %s", c.SameAs)
	}
	for _, sub := range c.Contains {
		if !strings.Contains(s, sub) {
			return fmt.Errorf("lacks %q", sub)
		}
	}
	for _, sub := range c.NotContains {
		if strings.Contains(s, sub) {
			return fmt.Errorf("holds %q", sub)
		}
	}
	if c.Matches != "" && !regexp.MustCompile(c.Matches).MatchString(s) {
		return fmt.Errorf("does not match %q", c.Matches)
	}
	if c.Lines != nil {
		got := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
		if s == "" {
			got = []string{}
		}
		if !slices.Equal(got, c.Lines) {
			return fmt.Errorf("lines %q, want %q", clipLines(got), clipLines(c.Lines))
		}
	}
	if c.JSON != nil {
		var got any
		if err := json.Unmarshal(data, &got); err != nil {
			return fmt.Errorf("is not JSON: %v", err)
		}
		if !reflect.DeepEqual(got, normalJSON(c.JSON)) {
			return fmt.Errorf("JSON %s differs from the expected value", clip(s))
		}
	}
	return nil
}

// normalJSON is v (a value decoded from YAML) as JSON would decode it.
func normalJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func clip(s string) string {
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return fmt.Sprintf("%q", s)
}

func clipLines(l []string) []string {
	if len(l) > 8 {
		return append(slices.Clone(l[:8]), "…")
	}
	return l
}
