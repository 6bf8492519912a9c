package mastermind

import "strings"

// resetCandidates fills e.cands with every code of the episode's level (in
// lexicographic order) when Config.SampleConsistent is set and the level
// has at most MaxConsistent codes; otherwise it empties it. It draws
// nothing from the env's random stream.
func (e *Env) resetCandidates() {
	e.cands = e.cands[:0]
	if !e.cfg.SampleConsistent || codeCount(e.lv) > MaxConsistent {
		return
	}
	code := make([]byte, 0, e.lv.Length)
	var used [10]bool
	var walk func()
	walk = func() {
		if len(code) == e.lv.Length {
			e.cands = append(e.cands, code...)
			return
		}
		for d := 1; d <= e.lv.Digits; d++ {
			if used[d] {
				continue
			}
			used[d] = true
			code = append(code, byte(d))
			walk()
			code = code[:len(code)-1]
			used[d] = false
		}
	}
	walk()
}

// codeCount is the number of codes of lv: Digits!/(Digits−Length)!,
// or MaxConsistent+1 once it passes MaxConsistent.
func codeCount(lv Level) int {
	n := 1
	for i := range lv.Length {
		n *= lv.Digits - i
		if n > MaxConsistent {
			return MaxConsistent + 1
		}
	}
	return n
}

// keepConsistent drops from e.cands the codes that would not have given
// the guess in e.guess the pegs black and white.
func (e *Env) keepConsistent(black, white int) {
	L := e.lv.Length
	if L == 0 || len(e.cands) == 0 {
		return
	}
	code := make([]int, L)
	kept := 0
	for i := 0; i+L <= len(e.cands); i += L {
		for j := range L {
			code[j] = int(e.cands[i+j])
		}
		if b, w := score(code, e.guess, e.lv.Digits); b == black && w == white {
			copy(e.cands[kept:kept+L], e.cands[i:i+L])
			kept += L
		}
	}
	e.cands = e.cands[:kept]
}

// candidate returns the i-th code of e.cands as \boxed{d d ...}.
func (e *Env) candidate(i int) string {
	L := e.lv.Length
	var b strings.Builder
	b.WriteString(`\boxed{`)
	for j, d := range e.cands[i*L : (i+1)*L] {
		if j > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('0' + d)
	}
	b.WriteByte('}')
	return b.String()
}
