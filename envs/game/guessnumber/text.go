package guessnumber

import (
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// outcome is what a guess taught the player.
type outcome int

const (
	outHigher   outcome = iota // the target is higher than the guess
	outLower                   // the target is lower than the guess
	outCorrect                 // the guess is the target
	outRange                   // the guess is outside [min, max]
	outRepeated                // the guess was made before
)

// intro is the observation returned by Reset.
func (e *Env) intro() string {
	lo, hi, turns := strconv.Itoa(e.lo), strconv.Itoa(e.hi), strconv.Itoa(e.maxTurns)
	if e.cfg.Style == envs.StyleBrief {
		return "Guess the number between " + lo + " and " + hi + " in " + turns + " turns. Answer \\boxed{n}."
	}
	example := strconv.Itoa(e.lo + (e.hi-e.lo)/2)
	return "You are playing Guess The Number.\n" +
		"A secret whole number between " + lo + " and " + hi + " (both included) has been chosen. " +
		"You have " + turns + " turns to find it.\n" +
		"After each guess you are told whether the secret number is higher or lower than your guess.\n" +
		"Think as you like; only the number in the last \\boxed{} of your answer counts as your guess, " +
		"for example \\boxed{" + example + "}.\n" +
		"Enter your first guess."
}

// feedback is the observation of a step whose guess parsed. last is true
// when the turn limit ends the episode on this step.
func (e *Env) feedback(text string, out outcome, last bool) string {
	var b strings.Builder
	if e.cfg.Style == envs.StyleBrief {
		b.WriteString(text)
		b.WriteString(": ")
		switch out {
		case outHigher:
			b.WriteString("higher")
		case outLower:
			b.WriteString("lower")
		case outCorrect:
			b.WriteString("correct")
		case outRange:
			b.WriteString("out of range ")
			b.WriteString(strconv.Itoa(e.lo))
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(e.hi))
		case outRepeated:
			b.WriteString("already guessed")
		}
		if last {
			b.WriteString("; out of turns")
		}
		return b.String()
	}
	b.WriteString("Turn ")
	b.WriteString(strconv.Itoa(e.ep.Turn))
	b.WriteString(": ")
	switch out {
	case outHigher, outLower:
		b.WriteString("you guessed ")
		b.WriteString(text)
		b.WriteString("; the secret number is ")
		if out == outHigher {
			b.WriteString("higher")
		} else {
			b.WriteString("lower")
		}
		b.WriteString(" than ")
		b.WriteString(text)
		b.WriteByte('.')
	case outCorrect:
		b.WriteString("correct! The secret number is ")
		b.WriteString(text)
		b.WriteString(", found in ")
		b.WriteString(strconv.Itoa(e.ep.Turn))
		b.WriteString(" turns.")
	case outRange:
		b.WriteString("you guessed ")
		b.WriteString(text)
		b.WriteString(", which is outside the range ")
		b.WriteString(strconv.Itoa(e.lo))
		b.WriteString(" to ")
		b.WriteString(strconv.Itoa(e.hi))
		b.WriteByte('.')
	case outRepeated:
		b.WriteString("you already guessed ")
		b.WriteString(text)
		b.WriteByte('.')
	}
	if last {
		b.WriteString(" You have used all your turns.")
	} else if out != outCorrect {
		b.WriteString(" Enter your next guess.")
	}
	return b.String()
}

// formatError is the observation of a step whose action did not parse.
func (e *Env) formatError() string {
	if e.cfg.Style == envs.StyleBrief {
		return "no valid \\boxed{n}: game over"
	}
	return "Turn " + strconv.Itoa(e.ep.Turn) + ": no valid guess was found (write one whole number as \\boxed{n}). The game is over."
}
