package wordle

import "slices"

// resetCandidates fills e.cands with the listed words of the episode's
// length, in the list's order, when Config.SampleConsistent or SampleFirst
// is set, and empties it otherwise. It draws nothing from the env's random
// stream.
func (e *Env) resetCandidates() {
	e.cands = e.cands[:0]
	if e.cfg.SampleConsistent || e.cfg.SampleFirst {
		e.cands = append(e.cands, e.list.OfLength(len(e.answer))...)
	}
}

// keepConsistent drops from e.cands the words that, as the secret, would
// not have given guess the marks e.marks. A word is tested with Feedback
// itself, so repeated letters count exactly as the env counts them; the
// guess drops out too (unless it solved), as its own marks are all green.
// Deleting in place keeps the list's order, which SampleFirst reads.
func (e *Env) keepConsistent(guess string) {
	if len(e.cands) == 0 {
		return
	}
	got := make([]byte, len(guess))
	e.cands = slices.DeleteFunc(e.cands, func(c string) bool {
		Feedback(got, c, guess)
		return string(got) != string(e.marks)
	})
}
