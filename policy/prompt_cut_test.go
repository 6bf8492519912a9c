package policy

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// cutAlphabet mixes every kind of piece, and the bytes around which pieces
// are hard to tell apart.
var cutAlphabet = []string{
	"a", "b", "Z", "word", "higher", " ", "  ", "\n", "\t", "\r\n", "1", "23", "4567",
	`\boxed{`, `\boxed{7}`, `\`, "{", "}", ".", ",", ":", "é", "ß", "日本", "\u00a0", "\u2003",
	"\xff", "\xc3", "x", " lower", "Guess", "\x00",
}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(cutAlphabet[r.IntN(len(cutAlphabet))])
	}
	return b.String()
}

// EncodePromptCut is CutPrompt(EncodePrompt) token for token: for texts that
// fit and texts far longer than the window it tokenizes, with learned pieces
// of one and of several digits.
func TestEncodePromptCutEqualsCutPrompt(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var corpus []string
	for range 200 {
		corpus = append(corpus, randomText(r, 200))
	}
	for _, tok := range []*Tokenizer{BuildTokenizer(corpus, 300), BuildTokenizerDigits(corpus, 300, 3), BuildTokenizer(nil, 0)} {
		fit, cut, skipped := 0, 0, 0
		for i := range 400 {
			n := 2 + r.IntN(120)
			size := r.IntN(4 * n)
			if i%2 == 1 {
				size = n*tok.maxLen + cutSearch + r.IntN(20000) // the bounded path
			} else if i%4 == 0 {
				size = r.IntN(n + 1) // fits
			}
			obs := randomText(r, size)
			want := CutPrompt(tok.EncodePrompt(obs), n)
			got := tok.EncodePromptCut(obs, n)
			if !slices.Equal(got, want) {
				t.Fatalf("n = %d, %d bytes: got %d tokens %v…, want %d tokens %v…", n, len(obs), len(got), got[:min(8, len(got))], len(want), want[:min(8, len(want))])
			}
			switch {
			case len(tok.EncodePrompt(obs)) <= n:
				fit++
			case len(obs) > (n-2)*max(tok.maxLen, 1)+cutSearch:
				cut++
			default:
				skipped++
			}
		}
		if fit == 0 || cut == 0 {
			t.Fatalf("fit %d, cut by the bounded path %d, other %d: both kinds must occur", fit, cut, skipped)
		}
	}
}

// Past a run of letters longer than cutSearch there is no sure boundary:
// the prompt still has n tokens, BOS first and SEP last, and its end
// matches the whole text's.
func TestEncodePromptCutLongRun(t *testing.T) {
	tok := BuildTokenizer([]string{"aaaa bbb aaaaaaaa"}, 10)
	obs := "start " + strings.Repeat("a", 3*cutSearch) + " end."
	const n = 40
	got := tok.EncodePromptCut(obs, n)
	want := CutPrompt(tok.EncodePrompt(obs), n)
	if len(got) != n || got[0] != BOSID || got[n-1] != SepID {
		t.Fatalf("got %v", got)
	}
	if !slices.Equal(got[n-4:], want[n-4:]) {
		t.Fatalf("the end differs: %v vs %v", got[n-4:], want[n-4:])
	}
}

// The bounded path reads no more than the window before the cut: a 3 MB
// text costs about what a 30 KB one does.
func BenchmarkEncodePromptCut3MB(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	tok := BuildTokenizer([]string{randomText(r, 5000)}, 200)
	obs := randomText(r, 3<<20)
	b.ReportAllocs()
	for b.Loop() {
		_ = tok.EncodePromptCut(obs, 64)
	}
}

// Every place sureBoundary names is a boundary of the whole text's pieces,
// whatever the digits per piece; and such places are common in text.
func TestSureBoundary(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, digits := range []int{1, 3} {
		sure, total := 0, 0
		for range 2000 {
			s := randomText(r, 1+r.IntN(60))
			breaks := map[int]bool{}
			for i := 0; i < len(s); {
				i = pieceEnd(s, i, digits)
				breaks[i] = true
			}
			for p := 1; p < len(s); p++ {
				total++
				if sureBoundary(s, p) {
					sure++
					if !breaks[p] {
						t.Fatalf("digits %d: %q: no piece boundary before byte %d (%q|%q)", digits, s, p, s[:p], s[p:])
					}
				}
			}
		}
		if sure*10 < total {
			t.Fatalf("digits %d: %d sure places of %d", digits, sure, total)
		}
	}
}
