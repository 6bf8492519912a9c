package qa

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"The Pacific Ocean":          "pacific ocean",
		"  a   cat,  an apple!  ":    "cat apple",
		"Theory of the U.S.A.":       "theory of usa",
		"Thea's  house":              "theas house",
		"$1,000":                     "1000",
		"anthem":                     "anthem", // articles only as whole words
		"«Le Monde» — the newspaper": "le monde newspaper",
		"":                           "",
		"The":                        "",
	} {
		assert.Equal(t, want, Normalize(in), "Normalize(%q)", in)
	}
}

func TestExactMatch(t *testing.T) {
	golds := []string{"the Pacific Ocean", "Pacific"}
	assert.Equal(t, 1.0, ExactMatch("pacific ocean.", golds))
	assert.Equal(t, 1.0, ExactMatch("PACIFIC", golds))
	assert.Equal(t, 0.0, ExactMatch("the Atlantic Ocean", golds))
	assert.Equal(t, 0.0, ExactMatch("Pacific Ocean, I think", golds))
	assert.Equal(t, 0.0, ExactMatch("", golds))
	assert.Equal(t, 1.0, ExactMatch("the", []string{"a"})) // both normalise to empty
}

func TestF1(t *testing.T) {
	cases := []struct {
		pred  string
		golds []string
		want  float64
	}{
		{"Pacific Ocean", []string{"the Pacific Ocean"}, 1},
		// pred {pacific}, gold {pacific, ocean}: p=1, r=1/2, F1=2/3
		{"Pacific", []string{"Pacific Ocean"}, 2.0 / 3},
		// pred {big, pacific, ocean, water}, gold {pacific, ocean}: p=1/2, r=1, F1=2/3
		{"big Pacific Ocean water", []string{"Pacific Ocean"}, 2.0 / 3},
		// best of two golds: vs "Albert Einstein" p=1/2 r=1/2 -> 1/2; vs "Einstein" p=1/2 r=1 -> 2/3
		{"Einstein physicist", []string{"Albert Einstein", "Einstein"}, 2.0 / 3},
		// multiplicity: pred {a1 a1 b}, gold {a1 b b}: common = 2, p=r=2/3
		{"x x y", []string{"x y y"}, 2.0 / 3},
		{"Atlantic", []string{"Pacific"}, 0},
		{"", []string{"Pacific"}, 0},
		{"the", []string{"an"}, 1},
	}
	for _, c := range cases {
		assert.InDelta(t, c.want, F1(c.pred, c.golds), 1e-12, "F1(%q, %q)", c.pred, c.golds)
	}
}
