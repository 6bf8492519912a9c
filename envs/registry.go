package envs

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
)

// Factory makes a new env from its options. It reads every option it
// accepts through o's getters (so unknown options can be reported) and
// returns an error only for a failure that is not an option error (a
// missing file, a missing python3, ...).
type Factory func(o *Options) (Env, error)

// Registry maps env ids (GEM's form, "category:Name-v0-level") to factories.
// It is safe for concurrent use.
type Registry struct {
	mu    sync.RWMutex
	envs  map[string]Factory
	descs map[string]string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{envs: map[string]Factory{}, descs: map[string]string{}}
}

// Register adds the factory f under id. Registering an id twice is an error.
func (r *Registry) Register(id string, f Factory) error {
	return r.RegisterDesc(id, "", f)
}

// RegisterDesc is Register with a one-line description (shown by play -list).
func (r *Registry) RegisterDesc(id, desc string, f Factory) error {
	if id == "" || strings.TrimSpace(id) != id {
		return fmt.Errorf("register %q: an env id must be non-empty with no surrounding spaces", id)
	}
	if f == nil {
		return fmt.Errorf("register %s: nil factory", id)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.envs[id]; dup {
		return fmt.Errorf("register %s: id already registered", id)
	}
	r.envs[id] = f
	r.descs[id] = desc
	return nil
}

// Make builds a new env by id. An unknown id is an error that suggests the
// closest registered ids; an invalid option is an error that names the
// option and its allowed range.
func (r *Registry) Make(id string, opts ...Option) (Env, error) { return r.make(id, nil, opts) }

// make is Make under the client policy p (nil: the operator's options).
func (r *Registry) make(id string, p *ClientPolicy, opts []Option) (Env, error) {
	r.mu.RLock()
	f, ok := r.envs[id]
	r.mu.RUnlock()
	if !ok {
		return nil, r.unknown(id)
	}
	o := NewOptions(id, opts...)
	o.client = p
	env, err := f(o)
	if oerr := o.Err(); oerr != nil {
		if c, isCloser := env.(io.Closer); isCloser && env != nil {
			_ = c.Close()
		}
		return nil, oerr
	}
	if err != nil {
		return nil, fmt.Errorf("make %s: %w", id, err)
	}
	return env, nil
}

// IDs returns every registered id, sorted.
func (r *Registry) IDs() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	ids := make([]string, 0, len(r.envs))
	for id := range r.envs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Description returns the one-line description registered with id.
func (r *Registry) Description(id string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.descs[id]
}

// maxSuggestID is the longest id that gets did-you-mean suggestions: the
// edit distance costs len(id) × len(candidate) per registered id, and no
// real id is anywhere near this long.
const maxSuggestID = 256

func (r *Registry) unknown(id string) error {
	if len(id) > maxSuggestID {
		return fmt.Errorf("unknown env id %s: ids are short names such as game:GuessTheNumber-v0-easy (play -list prints every id)", Excerpt(id))
	}
	ids := r.IDs()
	type scored struct {
		id string
		d  int
	}
	var cands []scored
	low := strings.ToLower(id)
	for _, c := range ids {
		d := editDistance(low, strings.ToLower(c))
		if low != "" && strings.Contains(strings.ToLower(c), low) {
			d = 1 // a fragment of a real id ("Mastermind") is a close match
		}
		cands = append(cands, scored{c, d})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].d < cands[j].d })
	var close []string
	for _, c := range cands {
		if len(close) == 5 || (len(close) > 0 && c.d > cands[0].d+3) {
			break
		}
		close = append(close, c.id)
	}
	if len(close) == 0 {
		return fmt.Errorf("unknown env id %q: no envs are registered", id)
	}
	return fmt.Errorf("unknown env id %q: did you mean %s? (play -list prints every id)", id, strings.Join(close, ", "))
}

// editDistance is the Levenshtein distance between a and b, over bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
