package policy

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Token ids fixed in every tokenizer. The four special tokens come first,
// then one token per byte value (id ByteBase+b for byte b), then the learned
// word pieces from FirstPieceID on.
const (
	PadID = 0 // padding after the end of a sequence; never sampled
	BOSID = 1 // start of a prompt
	EOSID = 2 // end of a response
	SepID = 3 // separator between the observation and the action

	NumSpecial   = 4                    // special tokens, ids [0, NumSpecial)
	ByteBase     = NumSpecial           // byte b has id ByteBase + b
	FirstPieceID = ByteBase + 256       // the first learned word piece
	boxedTag     = `\boxed{`            // the action marker, always one piece
	maxPieceLen  = 64                   // longer pieces are never learned
	maxPieces    = 1<<20 - FirstPieceID // Config.Validate allows 1<<20 tokens
)

// Tokenizer maps text to token ids and back. It is deterministic and
// round-trips every string exactly, valid UTF-8 or not:
// Decode(Encode(s)) == s.
//
// Encoding first splits the text into pieces (see Pieces): a run of letters
// with the single space before it attached (" higher", GPT-style), one ASCII
// digit (or, when the tokenizer was built with Digits() = n > 1, a run of up
// to n digits, split from the left as GPT-4's tokenizer does), a run of
// whitespace, `\boxed{`, or any other single character (an
// invalid UTF-8 byte is a character of its own). A piece in the vocabulary is
// one token; a piece that is not is matched greedily, longest vocabulary
// piece first, with single bytes as the fallback, so unseen text always
// encodes. Tokens never span two pieces, so with Digits() = 1 every digit is
// a token of its own.
//
// A Tokenizer is immutable after it is built or loaded and safe for
// concurrent use.
type Tokenizer struct {
	pieces []string       // learned pieces; pieces[i] has id FirstPieceID+i
	ids    map[string]int // piece → id
	maxLen int            // longest learned piece in bytes
	digits int            // most digits in one piece, ≥ 1
}

// newTokenizer indexes pieces, which the caller has checked (validPiece,
// no duplicates).
func newTokenizer(pieces []string, digits int) *Tokenizer {
	t := &Tokenizer{pieces: pieces, ids: make(map[string]int, len(pieces)), digits: digits}
	for i, p := range pieces {
		t.ids[p] = FirstPieceID + i
		t.maxLen = max(t.maxLen, len(p))
	}
	return t
}

// VocabSize is the number of token ids: NumSpecial + 256 + learned pieces.
// A model reading this tokenizer's ids needs Config.Vocab = VocabSize().
func (t *Tokenizer) VocabSize() int { return FirstPieceID + len(t.pieces) }

// Digits is the most digits one piece (and so one token) holds: 1 when
// every digit is a token of its own.
func (t *Tokenizer) Digits() int { return t.digits }

// NumPieces is the number of learned word pieces.
func (t *Tokenizer) NumPieces() int { return len(t.pieces) }

// PAD returns PadID.
func (t *Tokenizer) PAD() int { return PadID }

// BOS returns BOSID.
func (t *Tokenizer) BOS() int { return BOSID }

// EOS returns EOSID.
func (t *Tokenizer) EOS() int { return EOSID }

// SEP returns SepID.
func (t *Tokenizer) SEP() int { return SepID }

// Encode returns the token ids of s (no special tokens).
func (t *Tokenizer) Encode(s string) []int {
	return t.AppendEncode(make([]int, 0, len(s)/2+4), s)
}

// AppendEncode appends the token ids of s to dst and returns the extended
// slice; with a large enough dst it does not allocate.
func (t *Tokenizer) AppendEncode(dst []int, s string) []int {
	for i := 0; i < len(s); {
		j := pieceEnd(s, i, t.digits)
		dst = t.appendPiece(dst, s[i:j])
		i = j
	}
	return dst
}

// appendPiece appends the ids of one piece: its own id when learned, else
// the longest learned prefixes with single bytes as the fallback.
func (t *Tokenizer) appendPiece(dst []int, p string) []int {
	if len(p) > 1 {
		if id, ok := t.ids[p]; ok {
			return append(dst, id)
		}
	}
	for len(p) > 0 {
		n := min(len(p), t.maxLen)
		for ; n >= 2; n-- {
			if id, ok := t.ids[p[:n]]; ok {
				dst = append(dst, id)
				break
			}
		}
		if n < 2 {
			dst = append(dst, ByteBase+int(p[0]))
			n = 1
		}
		p = p[n:]
	}
	return dst
}

// EncodePrompt returns BOS, the tokens of obs, SEP: the prompt the policy
// reads before writing an action.
func (t *Tokenizer) EncodePrompt(obs string) []int {
	ids := make([]int, 0, len(obs)/3+3)
	ids = append(ids, BOSID)
	ids = t.AppendEncode(ids, obs)
	return append(ids, SepID)
}

// EncodeResponse returns the tokens of action followed by EOS: the response
// the policy is trained to write.
func (t *Tokenizer) EncodeResponse(action string) []int {
	ids := t.AppendEncode(make([]int, 0, len(action)/3+2), action)
	return append(ids, EOSID)
}

// Decode returns the text of ids. Special tokens (PAD, BOS, EOS, SEP) have
// no text and decode to ""; an id outside [0, VocabSize()) decodes to the
// replacement character U+FFFD, so that a bad id is visible in the text. Use
// TokenString to show special tokens.
func (t *Tokenizer) Decode(ids []int) string {
	var b strings.Builder
	for _, id := range ids {
		switch {
		case id >= 0 && id < NumSpecial:
		case id >= ByteBase && id < FirstPieceID:
			b.WriteByte(byte(id - ByteBase))
		case id >= FirstPieceID && id < t.VocabSize():
			b.WriteString(t.pieces[id-FirstPieceID])
		default:
			b.WriteRune(utf8.RuneError)
		}
	}
	return b.String()
}

// TokenString shows one token for debugging: "<pad>", "<bos>", "<eos>",
// "<sep>", a printable ASCII byte as itself ("7"), any other byte as
// "<0x0A>", a piece as its text, and "<bad:ID>" for an id outside the
// vocabulary.
func (t *Tokenizer) TokenString(id int) string {
	switch {
	case id >= 0 && id < NumSpecial:
		return specialNames[id]
	case id >= ByteBase && id < FirstPieceID:
		b := byte(id - ByteBase)
		if b >= 0x20 && b < 0x7f { // printable ASCII; pieces have two bytes or more
			return string(rune(b))
		}
		const hex = "0123456789ABCDEF"
		return "<0x" + string(hex[b>>4]) + string(hex[b&15]) + ">"
	case id >= FirstPieceID && id < t.VocabSize():
		return t.pieces[id-FirstPieceID]
	}
	return "<bad:" + strconv.Itoa(id) + ">"
}

var specialNames = [NumSpecial]string{"<pad>", "<bos>", "<eos>", "<sep>"}

// Pieces splits s into the pieces that Encode maps to tokens when each
// digit is a piece of its own; their concatenation is s.
func Pieces(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		j := pieceEnd(s, i, 1)
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// pieceEnd returns the end of the piece that starts at s[i], i < len(s),
// where a piece holds at most digits (≥ 1) digits.
func pieceEnd(s string, i, digits int) int {
	c := s[i]
	switch {
	case isDigit(c):
		j := i + 1
		for j < len(s) && j-i < digits && isDigit(s[j]) {
			j++
		}
		return j
	case c == '\\' && strings.HasPrefix(s[i:], boxedTag):
		return i + len(boxedTag)
	case c == ' ' && i+1 < len(s) && letterLen(s, i+1) > 0:
		return letterRunEnd(s, i+1)
	}
	if letterLen(s, i) > 0 {
		return letterRunEnd(s, i)
	}
	if spaceLen(s, i) > 0 {
		j := i
		for j < len(s) {
			n := spaceLen(s, j)
			if n == 0 {
				break
			}
			j += n
		}
		// The last space of a longer run goes with the word after it.
		if j < len(s) && j-1 > i && s[j-1] == ' ' && letterLen(s, j) > 0 {
			j--
		}
		return j
	}
	if c < utf8.RuneSelf {
		return i + 1
	}
	_, n := utf8.DecodeRuneInString(s[i:]) // n = 1 for an invalid byte
	return i + n
}

// letterRunEnd returns the end of the run of letters starting at s[i].
func letterRunEnd(s string, i int) int {
	for i < len(s) {
		n := letterLen(s, i)
		if n == 0 {
			break
		}
		i += n
	}
	return i
}

// letterLen is the byte length of the letter at s[i], or 0 if s[i] does
// not start a letter.
func letterLen(s string, i int) int {
	c := s[i]
	if c < utf8.RuneSelf {
		return int(asciiLetter[c])
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n <= 1 {
		return 0
	}
	if unicode.IsLetter(r) {
		return n
	}
	return 0
}

// asciiLetter[c] is 1 for the ASCII letters, 0 for other bytes.
var asciiLetter = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = 1, 1
	}
	return t
}()

// spaceLen is the byte length of the white space character at s[i], or 0.
func spaceLen(s string, i int) int {
	c := s[i]
	if c < utf8.RuneSelf {
		switch c {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			return 1
		}
		return 0
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n <= 1 {
		return 0
	}
	if unicode.IsSpace(r) {
		return n
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
