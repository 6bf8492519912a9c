package policy_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/policy"
)

// tokenTexts returns the text of each token of s.
func tokenTexts(tok *policy.Tokenizer, s string) []string {
	var out []string
	for _, id := range tok.Encode(s) {
		out = append(out, tok.TokenString(id))
	}
	return out
}

func TestTokenizerDigitRuns(t *testing.T) {
	corpus := []string{"12 34 5 12 34 5 678 678 9012 9012", `\boxed{42}`, `\boxed{42}`}
	two := policy.BuildTokenizerDigits(corpus, 100, 2)
	require.Equal(t, 2, two.Digits())
	// Runs split from the left into pieces of at most 2 digits; learned ones
	// are one token each ("67", "8", "90", "12" were in the corpus).
	assert.Equal(t, []string{"12", "34", "5"}, tokenTexts(two, "12345"))
	assert.Equal(t, []string{`\boxed{`, "42", "}"}, tokenTexts(two, `\boxed{42}`))
	assert.Equal(t, []string{"67", "8", " ", "90", "12"}, tokenTexts(two, "678 9012"))
	// An unseen pair falls back to one byte a digit.
	assert.Equal(t, []string{"9", "9"}, tokenTexts(two, "99"))

	three := policy.BuildTokenizerDigits(corpus, 100, 3)
	assert.Equal(t, []string{"678", " ", "901", "2"}, tokenTexts(three, "678 9012"))

	// Digits 1 is BuildTokenizer: every digit a token; out-of-range values clamp.
	one := policy.BuildTokenizerDigits(corpus, 100, 0)
	assert.Equal(t, 1, one.Digits())
	assert.Equal(t, []string{"1", "2", "3"}, tokenTexts(one, "123"))
	assert.Equal(t, policy.MaxDigits, policy.BuildTokenizerDigits(corpus, 100, 99).Digits())
}

func TestTokenizerDigitsRoundTripProperty(t *testing.T) {
	for digits := 1; digits <= 4; digits++ {
		rng := rand.New(rand.NewPCG(uint64(digits), 11))
		tok := policy.BuildTokenizerDigits(append(randomCorpus(rng, 300), briefCorpus...), 120, digits)
		for range 1000 {
			s := randomText(rng)
			ids := tok.Encode(s)
			require.Equal(t, s, tok.Decode(ids), "digits %d", digits)
			for _, id := range ids {
				text := tok.Decode([]int{id})
				n := strings.Count(text, "") - 1
				d := len(text) - len(strings.Trim(text, "0123456789"))
				if d > 0 && (d != len(text) || d > digits) {
					t.Fatalf("digits %d: Encode(%q) has token %q (%d runes): digits mixed with other text or too many", digits, s, text, n)
				}
			}
		}
	}
}

func TestTokenizerDigitsJSON(t *testing.T) {
	one := policy.BuildTokenizer(briefCorpus, 40)
	data, err := json.Marshal(one)
	require.NoError(t, err)
	assert.NotContains(t, string(data), "digits", "single digits are written as before the field existed")

	two := policy.BuildTokenizerDigits(briefCorpus, 40, 2)
	data, err = json.Marshal(two)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"digits":2`)
	var back policy.Tokenizer
	require.NoError(t, json.Unmarshal(data, &back))
	assert.Equal(t, 2, back.Digits())
	assert.Equal(t, two.Encode("25: higher 1234"), back.Encode("25: higher 1234"))

	good := `{"format":"gemgo-tokenizer","version":1,"special":["<pad>","<bos>","<eos>","<sep>"],"bytes":256,"pieces":[" ab","12"],"digits":2}`
	require.NoError(t, json.Unmarshal([]byte(good), &back))
	for _, tc := range []struct{ old, new, want string }{
		{`"digits":2`, `"digits":1`, "digits = 1"},
		{`"digits":2`, `"digits":9`, "digits = 9"},
		{`"digits":2`, `"digits":-1`, "digits = -1"},
		{`"12"]`, `"123"]`, "run of up to 2 digits"},
		{`,"digits":2`, ``, "run of up to 1 digits"},
	} {
		bad := strings.Replace(good, tc.old, tc.new, 1)
		require.NotEqual(t, good, bad, tc.old)
		err := back.UnmarshalJSON([]byte(bad))
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), tc.want, bad)
	}
}
