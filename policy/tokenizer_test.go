package policy_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/policy"
)

// briefCorpus is text in the manner of GuessTheNumber's brief style.
var briefCorpus = []string{
	"Guess the number between 1 and 10 in 4 turns. Answer \\boxed{n}.\n5: higher\n8: lower\n7: correct",
	"Guess the number between 1 and 10 in 4 turns. Answer \\boxed{n}.\n3: higher\n9: lower",
	"Guess the number between 1 and 50 in 7 turns. Answer \\boxed{n}.\n25: lower\n12: higher\n0: out of range 1-50",
	"\\boxed{5}", "\\boxed{7}", "\\boxed{10}", "\\boxed{42}",
}

func TestPieces(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Guess the number", []string{"Guess", " the", " number"}},
		{"between 1 and 10.", []string{"between", " ", "1", " and", " ", "1", "0", "."}},
		{"Answer \\boxed{123}", []string{"Answer", " ", `\boxed{`, "1", "2", "3", "}"}},
		{"\\boxe", []string{"\\", "boxe"}},
		{"a  b\n\nc", []string{"a", " ", " b", "\n\n", "c"}},
		{"x \n y", []string{"x", " \n", " y"}},
		{"  ", []string{"  "}},
		{"café au lait", []string{"café", " au", " lait"}},
		{"naïve—ok", []string{"naïve", "—", "ok"}},
		{"\xff\xfeab", []string{"\xff", "\xfe", "ab"}},
		{"a\xc3", []string{"a", "\xc3"}},
		{"8: higher\n", []string{"8", ":", " higher", "\n"}},
		{"-3", []string{"-", "3"}},
		{"\u00a0x", []string{"\u00a0", "x"}},
	} {
		assert.Equal(t, tc.want, policy.Pieces(tc.in), "Pieces(%q)", tc.in)
	}
}

func TestBuildTokenizerExact(t *testing.T) {
	// Counts: " ab" 2, " cd" 2, " x" 1, "ab" 1; single bytes are never learned.
	tok := policy.BuildTokenizer([]string{"ab ab ab cd cd x."}, 10)
	require.Equal(t, policy.FirstPieceID+4, tok.VocabSize())
	var got []string
	for id := policy.FirstPieceID; id < tok.VocabSize(); id++ {
		got = append(got, tok.TokenString(id))
	}
	assert.Equal(t, []string{" ab", " cd", " x", "ab"}, got)

	// maxVocab keeps the most frequent pieces, ties in byte order.
	tok = policy.BuildTokenizer([]string{"ab ab ab cd cd x."}, 2)
	assert.Equal(t, policy.FirstPieceID+2, tok.VocabSize())
	assert.Equal(t, " cd", tok.TokenString(policy.FirstPieceID+1))
	assert.Equal(t, policy.FirstPieceID, policy.BuildTokenizer([]string{"ab ab"}, 0).VocabSize())
	assert.Equal(t, policy.FirstPieceID, policy.BuildTokenizer(nil, 100).VocabSize())

	// Encoding: learned pieces are one token, the rest falls back to bytes.
	ids := tok.Encode("ab cd zz")
	b := func(c byte) int { return policy.ByteBase + int(c) }
	assert.Equal(t, []int{b('a'), b('b'), policy.FirstPieceID + 1, b(' '), b('z'), b('z')}, ids)
}

func TestEncodeLongestMatch(t *testing.T) {
	tok := policy.BuildTokenizer([]string{"go high higher", "go high higher"}, 10)
	high, higher := id(t, tok, " high"), id(t, tok, " higher")
	b := func(c byte) int { return policy.ByteBase + int(c) }
	assert.Equal(t, []int{higher}, tok.Encode(" higher"))
	assert.Equal(t, []int{higher, b('s')}, tok.Encode(" highers"))
	assert.Equal(t, []int{high, b('e'), b('s'), b('t')}, tok.Encode(" highest"))
	assert.Equal(t, []int{high, b('l'), b('y')}, tok.Encode(" highly"))
	// A token never spans two pieces: "high" without its space is unseen.
	assert.Equal(t, []int{b('h'), b('i'), b('g'), b('h')}, tok.Encode("high"))
}

// id finds the token whose text is piece.
func id(t *testing.T, tok *policy.Tokenizer, piece string) int {
	t.Helper()
	for i := 0; i < tok.VocabSize(); i++ {
		if tok.TokenString(i) == piece {
			return i
		}
	}
	t.Fatalf("piece %q not in the vocabulary", piece)
	return -1
}

func TestBuildTokenizerDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	corpus := randomCorpus(rng, 300)
	want, err := json.Marshal(policy.BuildTokenizer(corpus, 50))
	require.NoError(t, err)
	for range 5 {
		rng.Shuffle(len(corpus), func(i, j int) { corpus[i], corpus[j] = corpus[j], corpus[i] })
		got, err := json.Marshal(policy.BuildTokenizer(corpus, 50))
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	}
}

func TestSpecialTokens(t *testing.T) {
	tok := policy.BuildTokenizer(briefCorpus, 100)
	assert.Equal(t, []int{0, 1, 2, 3}, []int{tok.PAD(), tok.BOS(), tok.EOS(), tok.SEP()})
	obs, act := "5: higher", `\boxed{7}`
	p := tok.EncodePrompt(obs)
	assert.Equal(t, append(append([]int{policy.BOSID}, tok.Encode(obs)...), policy.SepID), p)
	r := tok.EncodeResponse(act)
	assert.Equal(t, append(tok.Encode(act), policy.EOSID), r)
	// Special tokens decode to nothing; a bad id is visible.
	assert.Equal(t, obs+act, tok.Decode(append(p, r...)))
	assert.Equal(t, "a\uFFFDb\uFFFD", tok.Decode([]int{policy.ByteBase + 'a', -1, policy.ByteBase + 'b', tok.VocabSize()}))
	assert.Equal(t, "<pad><bos><eos><sep><0x0A>7<0xFF><bad:-1>", strings.Join([]string{
		tok.TokenString(0), tok.TokenString(1), tok.TokenString(2), tok.TokenString(3),
		tok.TokenString(policy.ByteBase + '\n'), tok.TokenString(policy.ByteBase + '7'),
		tok.TokenString(policy.ByteBase + 0xff), tok.TokenString(-1)}, ""))
}

func TestTokenizerRoundTripProperty(t *testing.T) {
	tok := policy.BuildTokenizer(briefCorpus, 40)
	for seed := range uint64(2000) {
		rng := rand.New(rand.NewPCG(seed, 7))
		s := randomText(rng)
		checkEncoding(t, tok, s)
	}
}

// checkEncoding asserts the tokenizer's contract on s: exact round trip, ids
// in range, no special tokens, each digit a token of its own, determinism.
func checkEncoding(t testing.TB, tok *policy.Tokenizer, s string) {
	ids := tok.Encode(s)
	if got := tok.Decode(ids); got != s {
		t.Fatalf("Decode(Encode(%q)) = %q", s, got)
	}
	for _, id := range ids {
		if id < policy.ByteBase || id >= tok.VocabSize() {
			t.Fatalf("Encode(%q) has id %d outside [%d, %d)", s, id, policy.ByteBase, tok.VocabSize())
		}
		text := tok.Decode([]int{id})
		if strings.ContainsAny(text, "0123456789") && len(text) != 1 {
			t.Fatalf("Encode(%q): token %q holds a digit and more", s, text)
		}
	}
	if again := tok.Encode(s); len(again) != len(ids) {
		t.Fatalf("Encode(%q) is not deterministic", s)
	}
	if len(ids) > len(s) {
		t.Fatalf("Encode(%q) has %d tokens for %d bytes", s, len(ids), len(s))
	}
}

// randomText mixes corpus fragments, random bytes (often invalid UTF-8),
// random runes and white space.
func randomText(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(12) {
		switch rng.IntN(5) {
		case 0:
			s := briefCorpus[rng.IntN(len(briefCorpus))]
			i := rng.IntN(len(s) + 1)
			b.WriteString(s[i:min(len(s), i+rng.IntN(20))])
		case 1:
			for range rng.IntN(6) {
				b.WriteByte(byte(rng.IntN(256)))
			}
		case 2:
			b.WriteRune(rune(rng.IntN(0x11000)))
		case 3:
			b.WriteString([]string{" ", "  ", "\n", "\t", "\u00a0", "\\boxed{", "\\box", "}"}[rng.IntN(8)])
		default:
			for range rng.IntN(8) {
				b.WriteByte("abcXYZ0123 .:"[rng.IntN(13)])
			}
		}
	}
	return b.String()
}

func randomCorpus(rng *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = randomText(rng)
	}
	return out
}

func TestTokenizerJSONRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	corpus := append(randomCorpus(rng, 200), briefCorpus...)
	tok := policy.BuildTokenizer(corpus, 80)
	data, err := json.Marshal(tok)
	require.NoError(t, err)
	var back policy.Tokenizer
	require.NoError(t, json.Unmarshal(data, &back))
	require.Equal(t, tok.VocabSize(), back.VocabSize())
	for i := range tok.VocabSize() {
		require.Equal(t, tok.TokenString(i), back.TokenString(i))
	}
	for range 200 {
		s := randomText(rng)
		require.Equal(t, tok.Encode(s), back.Encode(s))
	}
	again, err := json.Marshal(&back)
	require.NoError(t, err)
	assert.Equal(t, string(data), string(again))

	// The zero Tokenizer is a byte-level tokenizer.
	var zero policy.Tokenizer
	data, err = json.Marshal(&zero)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"pieces":[]`)
	assert.Equal(t, "ab\xff", zero.Decode(zero.Encode("ab\xff")))
}

func TestTokenizerJSONCorrupt(t *testing.T) {
	good := `{"format":"gemgo-tokenizer","version":1,"special":["<pad>","<bos>","<eos>","<sep>"],"bytes":256,"pieces":[" ab","cd"]}`
	var tok policy.Tokenizer
	require.NoError(t, json.Unmarshal([]byte(good), &tok))
	require.Equal(t, policy.FirstPieceID+2, tok.VocabSize())
	for _, tc := range []struct{ old, new, want string }{
		{`"gemgo-tokenizer"`, `"bpe"`, `format "bpe"`},
		{`"version":1`, `"version":2`, "version 2"},
		{`"bytes":256`, `"bytes":255`, "bytes = 255"},
		{`"<sep>"]`, `"<sep>","<x>"]`, "5 special tokens"},
		{`"<bos>"`, `"<BOS>"`, `special token 1 is "<BOS>"`},
		{`"cd"]`, `"cd"," ab"]`, "listed twice"},
		{`"cd"]`, `"c"]`, "length 1 bytes"},
		{`"cd"]`, `"c d"]`, "not a single piece"},
		{`"cd"]`, `"12"]`, "not a single piece"},
		{`"cd"]`, `"\ud800x"]`, "not a single piece"},
		{`"pieces"`, `"piece"`, "unknown field"},
		{`]}`, `]`, "invalid JSON"},
	} {
		bad := strings.Replace(good, tc.old, tc.new, 1)
		require.NotEqual(t, good, bad, tc.old)
		err := tok.UnmarshalJSON([]byte(bad))
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), tc.want, bad)
	}
	err := (&tok).UnmarshalJSON([]byte(good + `{}`))
	require.ErrorContains(t, err, "data after")
}

func ExampleBuildTokenizer() {
	tok := policy.BuildTokenizer([]string{"5: higher", "8: higher", "3: lower", `\boxed{7}`}, 10)
	var shown []string
	for _, id := range tok.EncodePrompt(`12: higher \boxed{3}.`) {
		shown = append(shown, strconv.Quote(tok.TokenString(id)))
	}
	fmt.Println(strings.Join(shown, " "))
	fmt.Println(tok.VocabSize(), tok.Decode(tok.EncodeResponse(`\boxed{7}`)))
	// Output:
	// "<bos>" "1" "2" ":" " higher" " " "\\boxed{" "3" "}" "." "<sep>"
	// 263 \boxed{7}
}

func FuzzTokenizerRoundTrip(f *testing.F) {
	tok := policy.BuildTokenizer(briefCorpus, 40)
	for _, s := range append([]string{"", "\xff", "a\xc3", " \u00a0 x", "\\boxed{\\boxed{"}, briefCorpus...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkEncoding(t, tok, s)
	})
}

func FuzzTokenizerUnmarshal(f *testing.F) {
	good, err := json.Marshal(policy.BuildTokenizer(briefCorpus, 20))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"format":"gemgo-tokenizer","version":1,"special":["<pad>","<bos>","<eos>","<sep>"],"bytes":256,"pieces":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var tok policy.Tokenizer
		if err := json.Unmarshal(data, &tok); err != nil {
			return
		}
		// Whatever loads is a working tokenizer that saves to the same pieces.
		checkEncoding(t, &tok, "Guess 12 \\boxed{5} \xff")
		again, err := json.Marshal(&tok)
		require.NoError(t, err)
		var back policy.Tokenizer
		require.NoError(t, json.Unmarshal(again, &back))
		require.Equal(t, tok.VocabSize(), back.VocabSize())
		for i := policy.FirstPieceID; i < tok.VocabSize(); i++ {
			require.True(t, utf8.ValidString(tok.TokenString(i)))
			require.Equal(t, tok.TokenString(i), back.TokenString(i))
		}
	})
}

func BenchmarkEncode(b *testing.B) {
	tok := policy.BuildTokenizer(briefCorpus, 100)
	text := briefCorpus[0] + "\n" + briefCorpus[2]
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	dst := make([]int, 0, len(text))
	b.Run("Encode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			_ = tok.Encode(text)
		}
	})
	b.Run("AppendEncode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			dst = tok.AppendEncode(dst[:0], text)
		}
	})
}
