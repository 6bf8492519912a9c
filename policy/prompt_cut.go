package policy

import "unicode/utf8"

// cutSearch is how far before the kept end EncodePromptCut looks for a
// place where the whole text's pieces surely break (sureBoundary).
const cutSearch = 4096

// EncodePromptCut returns CutPrompt(t.EncodePrompt(obs), n) while
// tokenizing only the end of obs that the cut can keep, so its work is
// bounded by n rather than by len(obs): a megabyte observation costs no
// more than one a few times the context.
//
// The result is CutPrompt's, token for token, whenever obs fits (the
// whole text is tokenized then) and whenever a sure piece boundary lies
// within cutSearch bytes before the kept end, which text with any space,
// punctuation or line break has. Pieces never span such a boundary and a
// token is at most the longest learned piece, so the last n−2 tokens of
// the text from there are the whole text's. Past a run of letters or
// digits longer than cutSearch there is none; the tokens are then those
// of the text from a rune start, which may differ at their start from the
// whole text's, and there are still n−2 of them. n must be at least 2.
func (t *Tokenizer) EncodePromptCut(obs string, n int) []int {
	need := n - 2 // tokens of obs that a cut keeps
	window := need * max(t.maxLen, 1)
	if need < 0 || len(obs) <= window+cutSearch {
		return CutPrompt(t.EncodePrompt(obs), n)
	}
	if need == 0 {
		return []int{BOSID, SepID}
	}
	end := len(obs) - window // the text from here has need tokens or more
	start := -1
	for p := end; p > end-cutSearch; p-- {
		if sureBoundary(obs, p) {
			start = p
			break
		}
	}
	if start < 0 {
		start = end
		for start > 0 && !utf8.RuneStart(obs[start]) {
			start--
		}
	}
	tail := t.Encode(obs[start:])
	out := make([]int, 0, n)
	out = append(out, BOSID)
	out = append(out, tail[len(tail)-need:]...)
	return append(out, SepID)
}

// sureBoundary reports whether the whole text's pieces break before s[p],
// 0 < p < len(s), judging by s[p-1] and s[p] alone. pieceEnd reads only
// forward, so the pieces of s[p:] are then the whole text's from p.
func sureBoundary(s string, p int) bool {
	c := s[p-1]
	switch {
	case c >= utf8.RuneSelf || isDigit(c) || c == '\\':
		// inside a rune, a digit run or `\boxed{`: unsure
		return false
	case asciiLetter[c] == 1:
		// a run of letters ends before a non-letter; `\boxed{` does not
		return letterLen(s, p) == 0 && s[p] != '{'
	case spaceLen(s, p-1) > 0:
		// a run of spaces ends before what is neither a space nor a
		// letter (its last space may go with a word after it)
		return spaceLen(s, p) == 0 && letterLen(s, p) == 0
	}
	return true // any other ASCII byte is a piece of its own, or ends `\boxed{`
}
