package logic

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/task"
)

func TestProverHandWritten(t *testing.T) {
	th := Theory{
		Facts: []Fact{{"Bob", "big"}, {"Anne", "young"}, {"Anne", "big"}},
		Rules: []Rule{
			{If: []string{"big"}, Then: "red"},
			{If: []string{"red"}, Then: "kind"},
			{If: []string{"kind", "big"}, Then: "nice"},        // depth max(2, 0) + 1 = 3
			{If: []string{"nice", "young"}, Then: "smart"},     // Anne only: 4
			{If: []string{"big"}, Then: "cold", Entity: "Bob"}, // Bob only
			{If: []string{"quiet"}, Then: "white"},             // never fires
			{If: []string{"white"}, Then: "quiet"},             // cycle, never fires
		},
	}
	want := map[Fact]int{
		{"Bob", "big"}: 0, {"Bob", "red"}: 1, {"Bob", "kind"}: 2, {"Bob", "nice"}: 3, {"Bob", "cold"}: 1,
		{"Anne", "big"}: 0, {"Anne", "young"}: 0, {"Anne", "red"}: 1, {"Anne", "kind"}: 2, {"Anne", "nice"}: 3,
		{"Anne", "smart"}: 4,
	}
	assert.Equal(t, want, th.Closure())
	assert.Equal(t, 4, th.MaxDepth())
	_, ok := th.Prove(Fact{"Bob", "smart"}) // Bob is not young
	assert.False(t, ok)
	_, ok = th.Prove(Fact{"Anne", "cold"}) // the rule is about Bob
	assert.False(t, ok)
	_, ok = th.Prove(Fact{"Bob", "white"})
	assert.False(t, ok)
}

func TestProverShortestProof(t *testing.T) {
	th := Theory{
		Facts: []Fact{{"Erin", "cold"}},
		Rules: []Rule{
			{If: []string{"cold"}, Then: "blue"},
			{If: []string{"blue"}, Then: "green"},
			{If: []string{"green"}, Then: "red"}, // long way: 3
			{If: []string{"cold"}, Then: "red"},  // short way: 1
			{If: []string{"red"}, Then: "cold"},  // cycle back to a given fact
		},
	}
	d, ok := th.Prove(Fact{"Erin", "red"})
	require.True(t, ok)
	assert.Equal(t, 1, d)
	d, _ = th.Prove(Fact{"Erin", "cold"})
	assert.Equal(t, 0, d)
	assert.Equal(t, 2, th.MaxDepth())
}

func TestProverNoRules(t *testing.T) {
	th := Theory{Facts: []Fact{{"Gary", "round"}}}
	assert.Equal(t, map[Fact]int{{"Gary", "round"}: 0}, th.Closure())
	assert.Equal(t, 0, th.MaxDepth())
}

func TestParseAnswer(t *testing.T) {
	for in, want := range map[string]bool{"True": true, "true.": true, "YES": true, `\text{True}`: true, "False": false, " no ": false, "F": false} {
		v, ok := ParseAnswer(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, v, in)
	}
	for _, bad := range []string{"", "maybe", "truth", "not true", "1"} {
		_, ok := ParseAnswer(bad)
		assert.False(t, ok, bad)
	}
}

// parseQuestion reads a generated question back into a theory and a query,
// independently of the generator's data structures.
func parseQuestion(t *testing.T, q string) (Theory, Fact) {
	t.Helper()
	parts := strings.SplitN(q, "\n", 2)
	require.Len(t, parts, 2)
	var th Theory
	reFact := regexp.MustCompile(`^([A-Z][a-z]+) is ([a-z]+)$`)
	reEnt := regexp.MustCompile(`^If ([A-Z][a-z]+) is (.+) then ([A-Z][a-z]+) is ([a-z]+)$`)
	reSome := regexp.MustCompile(`^If someone is (.+) then they are ([a-z]+)$`)
	rePeople := regexp.MustCompile(`^([A-Z][a-z, ]+) people are ([a-z]+)$`)
	reAll := regexp.MustCompile(`^All ([a-z, ]+) things are ([a-z]+)$`)
	split := func(s string) []string {
		return strings.FieldsFunc(strings.ReplaceAll(strings.ToLower(s), " and ", ","), func(r rune) bool { return r == ',' || r == ' ' })
	}
	for _, s := range strings.Split(strings.TrimSpace(parts[0]), ". ") {
		s = strings.TrimSuffix(s, ".")
		if m := reEnt.FindStringSubmatch(s); m != nil {
			require.Equal(t, m[1], m[3])
			th.Rules = append(th.Rules, Rule{If: split(m[2]), Then: m[4], Entity: m[1]})
		} else if m := reSome.FindStringSubmatch(s); m != nil {
			th.Rules = append(th.Rules, Rule{If: split(m[1]), Then: m[2]})
		} else if m := rePeople.FindStringSubmatch(s); m != nil {
			th.Rules = append(th.Rules, Rule{If: split(m[1]), Then: m[2]})
		} else if m := reAll.FindStringSubmatch(s); m != nil {
			th.Rules = append(th.Rules, Rule{If: split(m[1]), Then: m[2]})
		} else if m := reFact.FindStringSubmatch(s); m != nil {
			th.Facts = append(th.Facts, Fact{m[1], m[2]})
		} else {
			t.Fatalf("unparsed sentence %q in %q", s, q)
		}
	}
	m := regexp.MustCompile(`False\? ([A-Z][a-z]+) is ([a-z]+)\.$`).FindStringSubmatch(parts[1])
	require.NotNil(t, m, parts[1])
	return th, Fact{m[1], m[2]}
}

// Over many seeds and every depth: the chain fact has depth exactly d, the
// theory's deepest fact has depth d, True statements are that fact, False
// statements are unprovable, the text read back gives the same answer, and
// True and False are balanced.
func TestGeneratedDepthIsExact(t *testing.T) {
	trues, total := 0, 0
	for d := 0; d <= MaxDepth; d++ {
		for seed := range uint64(120) {
			r := task.Seeded(seed)
			p := Generate(r, Params{Depth: d, Entities: 3, Distractor: 3})
			got, ok := p.Theory.Prove(Fact{p.Target, p.Chain})
			require.True(t, ok)
			require.Equal(t, d, got, "seed %d", seed)
			require.Equal(t, d, p.Theory.MaxDepth(), "seed %d", seed)
			qd, provable := p.Theory.Prove(p.Query)
			require.Equal(t, p.Label, provable, "seed %d", seed)
			if p.Label {
				require.Equal(t, d, qd)
				require.Equal(t, Fact{p.Target, p.Chain}, p.Query)
			}
			th, q := parseQuestion(t, p.Question(r))
			require.Equal(t, p.Query, q)
			_, provable2 := th.Prove(q)
			require.Equal(t, p.Label, provable2, "seed %d: %s", seed, p.Question(r))
			if p.Label {
				trues++
			}
			total++
		}
	}
	frac := float64(trues) / float64(total)
	assert.InDelta(t, 0.5, frac, 0.06, "True fraction %v", frac)
}

// For d ≥ 1, a True statement needs every chain rule: dropping any rule
// that concludes an attribute on the target's proof breaks it or lengthens
// nothing below d (the proof cannot get shorter than d).
func TestNoShortcut(t *testing.T) {
	for d := 1; d <= MaxDepth; d++ {
		for seed := range uint64(60) {
			p := Generate(task.Seeded(seed), Params{Depth: d, Entities: 4, Distractor: 6})
			goal := Fact{p.Target, p.Chain}
			for i := range p.Theory.Rules {
				cut := Theory{Facts: p.Theory.Facts, Rules: append(append([]Rule(nil), p.Theory.Rules[:i]...), p.Theory.Rules[i+1:]...)}
				if dd, ok := cut.Prove(goal); ok {
					require.GreaterOrEqual(t, dd, d, "seed %d: removing rule %d shortened the proof", seed, i)
				}
			}
		}
	}
}
