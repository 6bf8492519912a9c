package logic

import (
	"math/rand/v2"
	"slices"
)

var (
	names = []string{"Anne", "Bob", "Charlie", "Dave", "Erin", "Fiona", "Gary", "Harry"}
	attrs = []string{"big", "blue", "cold", "furry", "green", "kind", "nice", "quiet",
		"red", "rough", "round", "smart", "white", "young"}
)

// MaxDepth is the deepest problem the generator makes.
const MaxDepth = 5

// Params are the generator's knobs.
type Params struct {
	Depth      int // proof depth of the problem, 0..MaxDepth
	Entities   int // entities in the theory, 2..len(names)
	Distractor int // rules that are not on the proof chain, 0..8
}

// Problem is a generated theory with a statement and its truth value.
type Problem struct {
	Theory Theory
	Query  Fact
	Label  bool // the statement's truth under the closed-world assumption
	Depth  int  // see the package doc
	// Target and Chain are the entity and the attribute the depth-d chain
	// proves (Fact{Target, Chain} has depth Depth).
	Target, Chain string
}

// maxAttempts bounds the rejection sampling before the generator falls back
// to a theory without distractor rules (which always succeeds).
const maxAttempts = 200

// Generate draws a problem of depth p.Depth whose label is drawn first
// (True or False with equal odds).
func Generate(r *rand.Rand, p Params) Problem {
	label := r.IntN(2) == 0
	for attempt := 0; ; attempt++ {
		distractors := p.Distractor
		if attempt >= maxAttempts {
			distractors = 0
		}
		if prob, ok := try(r, p, distractors, label); ok {
			return prob
		}
	}
}

// try builds one candidate and checks it with the prover.
func try(r *rand.Rand, p Params, distractors int, label bool) (Problem, bool) {
	ents := slices.Clone(names)
	r.Shuffle(len(ents), func(i, j int) { ents[i], ents[j] = ents[j], ents[i] })
	ents = ents[:p.Entities]
	as := slices.Clone(attrs)
	r.Shuffle(len(as), func(i, j int) { as[i], as[j] = as[j], as[i] })
	chain, pool := as[:p.Depth+1], as[p.Depth+1:]
	target := ents[0]

	var t Theory
	base := map[string][]string{}
	addFact := func(e, a string) {
		if !slices.Contains(base[e], a) {
			base[e] = append(base[e], a)
			t.Facts = append(t.Facts, Fact{e, a})
		}
	}
	addFact(target, chain[0])
	for _, e := range ents {
		for range 1 + r.IntN(2) {
			addFact(e, pool[r.IntN(len(pool))])
		}
		if e != target && r.IntN(3) == 0 {
			addFact(e, chain[0])
		}
	}
	// The chain: chain[i] (and maybe a base attribute of the target) gives chain[i+1].
	for i := range p.Depth {
		rule := Rule{If: []string{chain[i]}, Then: chain[i+1]}
		if r.IntN(3) == 0 {
			extra := base[target][r.IntN(len(base[target]))]
			if extra != chain[i] {
				rule.If = append(rule.If, extra)
			}
		}
		if r.IntN(6) == 0 {
			rule.Entity = target
		}
		t.Rules = append(t.Rules, rule)
	}
	// Distractors: rules among the other attributes.
	for range distractors {
		rule := Rule{If: []string{pool[r.IntN(len(pool))]}, Then: pool[r.IntN(len(pool))]}
		if r.IntN(2) == 0 {
			rule.If = append(rule.If, append(pool, chain[0])[r.IntN(len(pool)+1)])
		}
		if slices.Contains(rule.If, rule.Then) || (len(rule.If) == 2 && rule.If[0] == rule.If[1]) {
			continue
		}
		t.Rules = append(t.Rules, rule)
	}
	r.Shuffle(len(t.Facts), func(i, j int) { t.Facts[i], t.Facts[j] = t.Facts[j], t.Facts[i] })
	r.Shuffle(len(t.Rules), func(i, j int) { t.Rules[i], t.Rules[j] = t.Rules[j], t.Rules[i] })

	closure := t.Closure()
	maxD := 0
	for _, d := range closure {
		maxD = max(maxD, d)
	}
	goal := Fact{target, chain[p.Depth]}
	if d, ok := closure[goal]; !ok || d != p.Depth || maxD != p.Depth {
		return Problem{}, false
	}
	prob := Problem{Theory: t, Label: label, Depth: p.Depth, Target: target, Chain: chain[p.Depth]}
	if label {
		prob.Query = goal
		return prob, true
	}
	// False: the chain's attribute for another entity, or an attribute the
	// target cannot get.
	var cands []Fact
	if r.IntN(2) == 0 {
		for _, e := range ents[1:] {
			cands = append(cands, Fact{e, chain[p.Depth]})
		}
	} else {
		for _, a := range as {
			cands = append(cands, Fact{target, a})
		}
	}
	r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	for _, c := range cands {
		if _, ok := closure[c]; !ok {
			prob.Query = c
			return prob, true
		}
	}
	return Problem{}, false
}
