package mastermind

import (
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// joinDigits writes the first n numbers of d separated by spaces, with
// "..." when d was cut short of n by the parser's cap.
func joinDigits(d []int, n int) string {
	var b strings.Builder
	for i, v := range d {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(v))
	}
	if n > len(d) {
		b.WriteString(" ...")
	}
	return b.String()
}

// intro is the observation returned by Reset.
func (e *Env) intro() string {
	length, digits, turns := strconv.Itoa(e.lv.Length), strconv.Itoa(e.lv.Digits), strconv.Itoa(e.lv.MaxTurns)
	example := make([]int, e.lv.Length)
	for i := range example {
		example[i] = i + 1
	}
	ex := joinDigits(example, len(example))
	if e.cfg.Style == envs.StyleBrief {
		return "Find the code of " + length + " distinct digits 1-" + digits + " in " + turns +
			" turns. Answer \\boxed{" + strings.Repeat("d ", e.lv.Length-1) + "d}."
	}
	return "You are playing Mastermind.\n" +
		"A secret code of " + length + " digits, each from 1 to " + digits + " and no digit used twice, has been chosen. " +
		"You have " + turns + " turns to find it.\n" +
		"After each guess you get black pegs (right digit in the right place) and white pegs (right digit in the wrong place).\n" +
		"Think as you like; only the last \\boxed{} of your answer counts as your guess: the digits separated by spaces, " +
		"for example \\boxed{" + ex + "}.\n" +
		"Enter your first guess."
}

// feedback is the observation of a legal guess.
func (e *Env) feedback(black, white int, solved, last bool) string {
	g := joinDigits(e.guess, len(e.guess))
	if e.cfg.Style == envs.StyleBrief {
		s := g + ": black " + strconv.Itoa(black) + ", white " + strconv.Itoa(white)
		if last && !solved {
			s += "; out of turns"
		}
		return s
	}
	turn := "Turn " + strconv.Itoa(e.ep.Turn) + ": "
	if solved {
		return turn + "you cracked the code " + g + " in " + strconv.Itoa(e.ep.Turn) + " turns!"
	}
	s := turn + "your guess " + g + " has " + pegs(black, "black") + " and " + pegs(white, "white") + "."
	if last {
		return s + " You have used all your turns."
	}
	return s + " Enter your next guess."
}

// pegs writes "1 black peg" or "2 black pegs".
func pegs(n int, colour string) string {
	s := strconv.Itoa(n) + " " + colour + " peg"
	if n != 1 {
		s += "s"
	}
	return s
}

// invalid is the observation of a guess that parsed but is not legal;
// problem is "length" or "range".
func (e *Env) invalid(n int, problem string, last bool) string {
	g := joinDigits(e.guess, n)
	var why string
	if problem == "length" {
		why = "need " + strconv.Itoa(e.lv.Length) + " digits"
	} else {
		why = "digits must be 1-" + strconv.Itoa(e.lv.Digits)
	}
	if e.cfg.Style == envs.StyleBrief {
		if last {
			why += "; out of turns"
		}
		return g + ": " + why
	}
	s := "Turn " + strconv.Itoa(e.ep.Turn) + ": your guess " + g + " is not valid: " + why + "."
	if last {
		return s + " You have used all your turns."
	}
	return s + " Enter your next guess."
}

// formatError is the observation of a step whose action did not parse.
func (e *Env) formatError() string {
	if e.cfg.Style == envs.StyleBrief {
		return "no valid \\boxed{" + strings.Repeat("d ", e.lv.Length-1) + "d}: game over"
	}
	return "Turn " + strconv.Itoa(e.ep.Turn) + ": no valid guess was found (write the digits separated by spaces inside \\boxed{}). The game is over."
}
