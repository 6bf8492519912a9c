package logic

import (
	"fmt"
	"strings"
)

// Fact states that Entity has Attr ("Bob is big").
type Fact struct {
	Entity, Attr string
}

func (f Fact) String() string { return fmt.Sprintf("%s is %s", f.Entity, f.Attr) }

// Rule derives Then for an entity that has every attribute of If. Entity ""
// means any entity ("If someone is ..."); otherwise the rule is about that
// entity only ("If Bob is ... then Bob is ...").
type Rule struct {
	If     []string
	Then   string
	Entity string
}

// Theory is a set of facts and rules over some entities.
type Theory struct {
	Facts []Fact
	Rules []Rule
}

// entities lists every entity named by a fact or a rule, in first-seen order.
func (t Theory) entities() []string {
	var out []string
	seen := map[string]bool{}
	add := func(e string) {
		if e != "" && !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	for _, f := range t.Facts {
		add(f.Entity)
	}
	for _, r := range t.Rules {
		add(r.Entity)
	}
	return out
}

// Closure forward-chains the rules to a fixed point and returns every
// provable fact with its depth: 0 for a given fact, k for a fact first
// derived in round k from facts of depth < k.
func (t Theory) Closure() map[Fact]int {
	depth := map[Fact]int{}
	for _, f := range t.Facts {
		depth[f] = 0
	}
	ents := t.entities()
	for round := 1; ; round++ {
		var added []Fact
		for _, r := range t.Rules {
			for _, e := range ents {
				if r.Entity != "" && r.Entity != e {
					continue
				}
				c := Fact{e, r.Then}
				if _, known := depth[c]; known {
					continue
				}
				fires := true
				for _, a := range r.If {
					d, ok := depth[Fact{e, a}]
					if !ok || d >= round {
						fires = false
						break
					}
				}
				if fires {
					added = append(added, c)
				}
			}
		}
		if len(added) == 0 {
			return depth
		}
		for _, c := range added {
			if _, known := depth[c]; !known {
				depth[c] = round
			}
		}
	}
}

// Prove reports whether q follows from t and the depth of its shortest proof.
func (t Theory) Prove(q Fact) (depth int, ok bool) {
	depth, ok = t.Closure()[q]
	return depth, ok
}

// MaxDepth is the depth of the deepest provable fact (0 when no rule fires).
func (t Theory) MaxDepth() int {
	m := 0
	for _, d := range t.Closure() {
		m = max(m, d)
	}
	return m
}

// capital upper-cases the first letter of s.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Sentence writes r in English, in one of a few phrasings (variant).
func (r Rule) Sentence(variant int) string {
	prem := strings.Join(r.If, " and ")
	if r.Entity != "" {
		return fmt.Sprintf("If %s is %s then %s is %s.", r.Entity, prem, r.Entity, r.Then)
	}
	switch variant % 3 {
	case 1:
		return fmt.Sprintf("%s people are %s.", capital(strings.Join(r.If, ", ")), r.Then)
	case 2:
		return fmt.Sprintf("All %s things are %s.", strings.Join(r.If, ", "), r.Then)
	default:
		return fmt.Sprintf("If someone is %s then they are %s.", prem, r.Then)
	}
}
