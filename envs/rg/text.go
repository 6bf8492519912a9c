package rg

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

func textSpecs() []spec {
	return []spec{
		{"letter_counting", "count a letter in a text; exact; knob words [1,20]", hintNumber, buildLetterCounting},
		{"word_counting", "count the words of a text that have a given length; exact; knob words [1,30]", hintNumber, buildWordCounting},
		{"spell_backward", "spell a word backward; exact (case and spaces ignored); no knobs", "Give the reversed word.", buildSpellBackward},
		{"caesar_cipher", "decrypt a Caesar-shifted text; partial: matching word positions / max(len); knobs words [1,12], max_shift [1,25]",
			"Give the decrypted text.", buildCaesar},
		{"string_manipulation", "apply a sequence of string operations (reverse, upper/lower case, drop vowels, rotate) to a word; exact, case-sensitive; knob steps [1,6]",
			"Give the resulting string exactly.", buildStringManipulation},
		{"reverse_words", "reverse the order of the words of a text; partial: matching word positions / max(len); knob words [2,15]",
			"Give the words separated by spaces.", buildReverseWords},
	}
}

// pickWords draws n words from the list (repeats allowed).
func pickWords(r *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = words[r.IntN(len(words))]
	}
	return out
}

func buildLetterCounting(o *envs.Options) task.Generator {
	n := o.Int("words", 5, 1, 20)
	return func(r *rand.Rand) task.Problem {
		text := strings.Join(pickWords(r, n), " ")
		letter := byte('a' + r.IntN(26))
		if r.IntN(5) != 0 { // usually a letter of the text
			for letter == ' ' || !strings.ContainsRune(text, rune(letter)) {
				letter = text[r.IntN(len(text))]
			}
		}
		ans := fmt.Sprint(strings.Count(text, string(letter)))
		return task.Problem{
			Question: fmt.Sprintf("How many times does the letter %q appear in the text %q?", string(letter), text),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(0, 10),
		}
	}
}

func buildWordCounting(o *envs.Options) task.Generator {
	n := o.Int("words", 8, 1, 30)
	return func(r *rand.Rand) task.Problem {
		ws := pickWords(r, n)
		k := len(ws[r.IntN(len(ws))])
		if r.IntN(5) == 0 {
			k = intIn(r, 3, 8)
		}
		c := 0
		for _, w := range ws {
			if len(w) == k {
				c++
			}
		}
		ans := fmt.Sprint(c)
		return task.Problem{
			Question: fmt.Sprintf("How many words with exactly %d letters are in the text %q?", k, strings.Join(ws, " ")),
			Answer:   ans, Score: numeric(ans), Sample: sampleInt(0, n),
		}
	}
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

func buildSpellBackward(_ *envs.Options) task.Generator {
	return func(r *rand.Rand) task.Problem {
		w := words[r.IntN(len(words))]
		ans := reverse(w)
		return task.Problem{
			Question: fmt.Sprintf("Spell the word %q backward.", w),
			Answer:   ans,
			Score: func(a string) float64 {
				if strings.ToLower(strings.Join(strings.Fields(a), "")) == ans {
					return 1
				}
				return 0
			},
			Sample: func(r *rand.Rand) string { return reverse(words[r.IntN(len(words))]) },
		}
	}
}

// shift moves every letter of s forward by k places, upper-casing it.
func shift(s string, k int) string {
	b := []byte(strings.ToUpper(s))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = 'A' + (c-'A'+byte(k))%26
		}
	}
	return string(b)
}

func buildCaesar(o *envs.Options) task.Generator {
	n := o.Int("words", 4, 1, 12)
	maxShift := o.Int("max_shift", 25, 1, 25)
	return func(r *rand.Rand) task.Problem {
		plain := strings.Join(pickWords(r, n), " ")
		k := intIn(r, 1, maxShift)
		return task.Problem{
			Question: fmt.Sprintf("Decrypt this Caesar cipher text, in which every letter was shifted forward by %d: %s", k, shift(plain, k)),
			Answer:   plain, Score: positionalWords(plain),
			Sample: func(r *rand.Rand) string { return strings.Join(pickWords(r, n), " ") },
		}
	}
}

func buildReverseWords(o *envs.Options) task.Generator {
	n := o.Int("words", 5, 2, 15)
	return func(r *rand.Rand) task.Problem {
		ws := pickWords(r, n)
		rev := make([]string, n)
		for i, w := range ws {
			rev[n-1-i] = w
		}
		ans := strings.Join(rev, " ")
		return task.Problem{
			Question: fmt.Sprintf("Reverse the order of the words in %q.", strings.Join(ws, " ")),
			Answer:   ans, Score: positionalWords(ans),
			Sample: func(r *rand.Rand) string {
				s := append([]string(nil), ws...)
				r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
				return strings.Join(s, " ")
			},
		}
	}
}

// stringOps are the operations of string_manipulation: a description and
// the function.
var stringOps = []struct {
	desc string
	fn   func(string) string
}{
	{"reverse it", reverse},
	{"convert it to upper case", strings.ToUpper},
	{"convert it to lower case", strings.ToLower},
	{"remove every vowel (a, e, i, o, u, either case)", func(s string) string {
		return strings.Map(func(r rune) rune {
			if strings.ContainsRune("aeiouAEIOU", r) {
				return -1
			}
			return r
		}, s)
	}},
	{"move its first character to the end", func(s string) string {
		if len(s) < 2 {
			return s
		}
		return s[1:] + s[:1]
	}},
}

func buildStringManipulation(o *envs.Options) task.Generator {
	steps := o.Int("steps", 2, 1, 6)
	return func(r *rand.Rand) task.Problem {
		w := words[r.IntN(len(words))]
		s := w
		descs := make([]string, steps)
		for i := range descs {
			op := stringOps[r.IntN(len(stringOps))]
			descs[i] = op.desc
			s = op.fn(s)
		}
		ans := s
		return task.Problem{
			Question: fmt.Sprintf("Start with the string %q. In order: %s. What is the result?", w, strings.Join(descs, "; then ")),
			Answer:   ans,
			Score: func(a string) float64 {
				if strings.TrimSpace(a) == ans {
					return 1
				}
				return 0
			},
			Sample: func(r *rand.Rand) string { return stringOps[r.IntN(len(stringOps))].fn(w) },
		}
	}
}
