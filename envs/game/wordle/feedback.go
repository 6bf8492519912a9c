package wordle

// Feedback marks.
const (
	Green  = 'G' // right letter in the right spot
	Yellow = 'Y' // letter in the word, in another spot
	Gray   = 'X' // letter not in the word (or not that many times)
)

// Feedback writes into dst (len(answer) bytes) the mark of each letter of
// guess against answer. Both are lowercase a–z of the same length.
// Greens are matched first; then each other letter of the guess, left to
// right, is yellow while the answer still has an unmatched copy of it.
func Feedback(dst []byte, answer, guess string) {
	var left [26]int // unmatched answer letters
	for i := 0; i < len(answer); i++ {
		if guess[i] == answer[i] {
			dst[i] = Green
		} else {
			dst[i] = Gray
			left[answer[i]-'a']++
		}
	}
	for i := 0; i < len(guess); i++ {
		if dst[i] == Green {
			continue
		}
		if c := guess[i] - 'a'; left[c] > 0 {
			left[c]--
			dst[i] = Yellow
		}
	}
}
