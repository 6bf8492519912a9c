package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"unicode/utf8"
)

// BuildTokenizer learns a vocabulary from corpus: it splits every string
// into pieces (see Tokenizer) and keeps the maxVocab most frequent pieces of
// two bytes or more (single bytes already have their own tokens), ties
// broken by byte order of the piece. maxVocab counts learned pieces only:
// the tokenizer's VocabSize is FirstPieceID + min(maxVocab, distinct
// pieces). maxVocab <= 0 gives a byte-level tokenizer. Pieces longer than
// 64 bytes are never learned. The result depends only on the multiset of
// strings in corpus, not on their order.
//
// Package policy does not import package envs: callers gather the corpus
// (observations from Reset and Step, actions from SampleAction) themselves.
func BuildTokenizer(corpus []string, maxVocab int) *Tokenizer {
	return BuildTokenizerDigits(corpus, maxVocab, 1)
}

// MaxDigits is the most digits a piece may be built to hold.
const MaxDigits = 8

// BuildTokenizerDigits is BuildTokenizer with runs of up to digits ASCII
// digits as one piece (clamped to [1, MaxDigits]): with 2, "42" can be one
// token, and a number up to 99 is one choice of the policy rather than two.
func BuildTokenizerDigits(corpus []string, maxVocab, digits int) *Tokenizer {
	digits = min(max(digits, 1), MaxDigits)
	maxVocab = min(maxVocab, maxPieces)
	counts := map[string]int{}
	for _, s := range corpus {
		for i := 0; i < len(s); {
			j := pieceEnd(s, i, digits)
			if j-i >= 2 && j-i <= maxPieceLen {
				counts[s[i:j]]++
			}
			i = j
		}
	}
	type pc struct {
		piece string
		n     int
	}
	all := make([]pc, 0, len(counts))
	for p, n := range counts {
		all = append(all, pc{p, n})
	}
	sort.Slice(all, func(a, b int) bool {
		if all[a].n != all[b].n {
			return all[a].n > all[b].n
		}
		return all[a].piece < all[b].piece
	})
	if maxVocab < 0 {
		maxVocab = 0
	}
	if len(all) > maxVocab {
		all = all[:maxVocab]
	}
	pieces := make([]string, len(all))
	for i, x := range all {
		pieces[i] = x.piece
	}
	return newTokenizer(pieces, digits)
}

// tokenizerFormat names the serialized form; tokenizerVersion is bumped
// when the piece rules change, since the same pieces would encode text
// differently.
const (
	tokenizerFormat  = "gemgo-tokenizer"
	tokenizerVersion = 1
)

// tokenizerJSON is the serialized form of a Tokenizer.
type tokenizerJSON struct {
	Format  string   `json:"format"`           // always "gemgo-tokenizer"
	Version int      `json:"version"`          // piece rules version
	Special []string `json:"special"`          // names of ids [0, NumSpecial)
	Bytes   int      `json:"bytes"`            // byte tokens after the specials: 256
	Pieces  []string `json:"pieces"`           // learned pieces, id FirstPieceID+i
	Digits  int      `json:"digits,omitempty"` // most digits a piece holds; absent: 1
}

// MarshalJSON writes the tokenizer as a JSON object with its format name,
// version, the special tokens, the byte count and the learned pieces in id
// order.
func (t *Tokenizer) MarshalJSON() ([]byte, error) {
	pieces := t.pieces
	if pieces == nil {
		pieces = []string{}
	}
	return json.Marshal(tokenizerJSON{
		Format: tokenizerFormat, Version: tokenizerVersion,
		Special: specialNames[:], Bytes: 256, Pieces: pieces, Digits: digitsField(t.digits),
	})
}

// digitsField is the digits field as written: 0 (absent) for 1, so that a
// tokenizer with single-digit pieces is written as before the field existed.
func digitsField(d int) int {
	if d == 1 {
		return 0
	}
	return d
}

// UnmarshalJSON reads a tokenizer written by MarshalJSON and checks it:
// the format and version, the special tokens, and that every piece is one
// well-formed piece of two to 64 bytes, listed once. Corrupt data is an
// error naming the problem.
func (t *Tokenizer) UnmarshalJSON(data []byte) error {
	var j tokenizerJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("tokenizer: invalid JSON: %w", err)
	}
	if dec.More() {
		return errors.New("tokenizer: invalid JSON: data after the tokenizer object")
	}
	switch {
	case j.Format != tokenizerFormat:
		return fmt.Errorf("tokenizer: format %q, want %q", j.Format, tokenizerFormat)
	case j.Version != tokenizerVersion:
		return fmt.Errorf("tokenizer: version %d, this build reads version %d only: rebuild the tokenizer", j.Version, tokenizerVersion)
	case j.Bytes != 256:
		return fmt.Errorf("tokenizer: bytes = %d, want 256", j.Bytes)
	case len(j.Special) != NumSpecial:
		return fmt.Errorf("tokenizer: %d special tokens, want %d %v", len(j.Special), NumSpecial, specialNames)
	case len(j.Pieces) > maxPieces:
		return fmt.Errorf("tokenizer: %d pieces, at most %d allowed", len(j.Pieces), maxPieces)
	case j.Digits < 0 || j.Digits == 1 || j.Digits > MaxDigits:
		return fmt.Errorf("tokenizer: digits = %d, want absent or 2 to %d", j.Digits, MaxDigits)
	}
	digits := max(j.Digits, 1)
	for i, name := range j.Special {
		if name != specialNames[i] {
			return fmt.Errorf("tokenizer: special token %d is %q, want %q", i, name, specialNames[i])
		}
	}
	seen := make(map[string]bool, len(j.Pieces))
	for i, p := range j.Pieces {
		if err := validPiece(p, digits); err != nil {
			return fmt.Errorf("tokenizer: piece %d (id %d) %q: %w", i, FirstPieceID+i, p, err)
		}
		if seen[p] {
			return fmt.Errorf("tokenizer: piece %d (id %d) %q is listed twice", i, FirstPieceID+i, p)
		}
		seen[p] = true
	}
	if j.Pieces == nil {
		j.Pieces = []string{}
	}
	*t = *newTokenizer(j.Pieces, digits)
	return nil
}

// validPiece reports why p cannot be a learned piece of a tokenizer whose
// pieces hold at most digits digits, or nil.
func validPiece(p string, digits int) error {
	switch {
	case len(p) < 2 || len(p) > maxPieceLen:
		return fmt.Errorf("length %d bytes, want 2 to %d", len(p), maxPieceLen)
	case !utf8.ValidString(p):
		return errors.New("not valid UTF-8")
	case pieceEnd(p, 0, digits) != len(p):
		return fmt.Errorf("not a single piece (a letter run, white space run, run of up to %d digits, \\boxed{ or one character)", digits)
	}
	return nil
}
