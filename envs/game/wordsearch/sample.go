package wordsearch

// LastMove is the teacher of the option sample = "last": the move that
// finds the last word of the list of words left (the words in the order
// the observations list them, those found taken out), its last letter's
// cell first and its first letter's cell second (the env takes the two
// ends in either order). ok is false when no episode is under way or every
// word is found.
//
// The choice suits a policy that reads the end of the observation: the
// first observation, and each later one with the option show_grid, ends
// with "Words: …" and the grid, so the last listed word's letters stand
// just before the grid, at the same distance from the end in every game,
// and its last letters are at fixed positions whatever its length. The
// teacher reads the env's answer (where each word is hidden), not the
// letters; the policy that imitates it has to find the word in the grid.
func (e *Env) LastMove() (string, bool) {
	if !e.ep.Active {
		return "", false
	}
	for i := len(e.grid.Words) - 1; i >= 0; i-- {
		if e.found[i] {
			continue
		}
		p := e.grid.Words[i]
		er, ec := p.End()
		return Move{er, ec, p.Row, p.Col}.String(), true
	}
	return "", false
}
