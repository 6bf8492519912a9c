package wordle

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Worked out by hand: greens first, then yellows left to right while the
// answer has unmatched copies of the letter.
func TestFeedbackTable(t *testing.T) {
	for _, tc := range []struct{ answer, guess, want string }{
		{"abbey", "babes", "YYGGX"}, // B twice in both: one green, one yellow
		{"crane", "eerie", "XXYXG"}, // three Es, one in the answer: only the green one counts
		{"eerie", "crane", "XYXXG"},
		{"speed", "erase", "YXXYY"}, // two Es in both, neither green: both yellow
		{"abbey", "kebab", "XYGYY"}, // second B yellow: the answer's other B is unmatched
		{"abbey", "bobby", "YXGXG"}, // three Bs guessed, two in the answer (one green)
		{"hello", "level", "YGXXY"}, // the answer's only E is green: the second E is gray
		{"cat", "tat", "XGG"},       // the only T is green: the first T is gray
		{"crane", "crane", "GGGGG"},
		{"crane", "moist", "XXXXX"},
		{"aaaab", "baaaa", "YGGGY"},
		{"otter", "tttto", "XGGXY"}, // both Ts of the answer are green: the other Ts are gray
	} {
		got := make([]byte, len(tc.answer))
		Feedback(got, tc.answer, tc.guess)
		assert.Equal(t, tc.want, string(got), "answer %s guess %s", tc.answer, tc.guess)
	}
}

// For every letter, the marked (G or Y) copies in the guess are
// min(copies in guess, copies in answer), and greens are exactly the
// matching positions.
func TestFeedbackCountsProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abcde" // few letters: many repeats
	for range 5000 {
		n := 1 + r.IntN(7)
		a, g := make([]byte, n), make([]byte, n)
		for i := range n {
			a[i] = alphabet[r.IntN(len(alphabet))]
			g[i] = alphabet[r.IntN(len(alphabet))]
		}
		marks := make([]byte, n)
		Feedback(marks, string(a), string(g))
		for i := range n {
			require.Equal(t, a[i] == g[i], marks[i] == Green, "answer %s guess %s marks %s", a, g, marks)
		}
		for _, c := range alphabet {
			marked := 0
			for i := range n {
				if rune(g[i]) == c && marks[i] != Gray {
					marked++
				}
			}
			want := min(strings.Count(string(g), string(c)), strings.Count(string(a), string(c)))
			require.Equal(t, want, marked, "letter %c answer %s guess %s marks %s", c, a, g, marks)
		}
	}
}
