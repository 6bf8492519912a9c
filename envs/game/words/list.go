package words

import (
	"slices"
)

// List is an immutable set of lowercase a–z words, sorted and without
// duplicates, indexed by length. The zero value is an empty list.
type List struct {
	all   []string
	byLen map[int][]string
	set   map[string]struct{}
}

// NewList returns the list of the usable words in ws: entries that are not
// lowercase a–z are skipped, duplicates are dropped.
func NewList(ws []string) *List {
	clean := make([]string, 0, len(ws))
	for _, w := range ws {
		if IsWord(w) {
			clean = append(clean, w)
		}
	}
	slices.Sort(clean)
	clean = slices.Compact(clean)
	l := &List{all: clean, byLen: map[int][]string{}, set: make(map[string]struct{}, len(clean))}
	for _, w := range clean {
		l.byLen[len(w)] = append(l.byLen[len(w)], w)
		l.set[w] = struct{}{}
	}
	return l
}

// IsWord reports whether w is a non-empty run of the letters a–z.
func IsWord(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// Len returns the number of words.
func (l *List) Len() int { return len(l.all) }

// Words returns every word in sorted order. The slice is shared: do not
// modify it.
func (l *List) Words() []string { return l.all }

// OfLength returns the words of n letters in sorted order (nil when there
// are none). The slice is shared: do not modify it.
func (l *List) OfLength(n int) []string { return l.byLen[n] }

// Contains reports whether w is in the list.
func (l *List) Contains(w string) bool {
	_, ok := l.set[w]
	return ok
}

// Union returns a new list holding the words of l and o.
func (l *List) Union(o *List) *List {
	return NewList(append(slices.Clip(l.all), o.all...))
}

// Filter returns a new list of the words of l for which keep is true.
func (l *List) Filter(keep func(string) bool) *List {
	var out []string
	for _, w := range l.all {
		if keep(w) {
			out = append(out, w)
		}
	}
	return NewList(out)
}
