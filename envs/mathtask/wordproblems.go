package mathtask

import (
	"fmt"
	"math/rand/v2"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
)

var (
	people = []string{"Ava", "Ben", "Chloe", "Dev", "Emma", "Farid", "Grace", "Hugo", "Iris", "Jonas", "Kira", "Liam"}
	things = []string{"apples", "pencils", "stickers", "marbles", "books", "cookies", "cards", "stamps"}
)

// wordProblem is one template: it draws numbers and returns the text and
// the whole-number answer.
type wordProblem func(r *rand.Rand, name, other, thing string) (string, int)

var wordProblems = []wordProblem{
	func(r *rand.Rand, name, _, thing string) (string, int) { // buy and pay
		n, price := intIn(r, 2, 12), intIn(r, 1, 9)
		bill := 10 * ((n*price)/10 + 1 + r.IntN(3))
		return fmt.Sprintf("%s buys %d %s at $%d each and pays with a $%d bill. How much change, in dollars, does %s get?",
			name, n, thing, price, bill, name), bill - n*price
	},
	func(r *rand.Rand, name, other, thing string) (string, int) { // give away
		a := intIn(r, 20, 90)
		b, c := intIn(r, 1, a/3), intIn(r, 1, a/3)
		return fmt.Sprintf("%s has %d %s, gives %d to %s and then loses %d. How many %s does %s have left?",
			name, a, thing, b, other, c, thing, name), a - b - c
	},
	func(r *rand.Rand, name, _, _ string) (string, int) { // speed
		v, h := 5*intIn(r, 4, 24), intIn(r, 2, 9)
		return fmt.Sprintf("%s drives at %d km per hour for %d hours. How many kilometers does %s travel?", name, v, h, name), v * h
	},
	func(r *rand.Rand, name, other, _ string) (string, int) { // ages
		a, d, y := intIn(r, 5, 30), intIn(r, 2, 25), intIn(r, 2, 15)
		return fmt.Sprintf("%s is %d years old. %s is %d years older than %s. How old will %s be in %d years?",
			name, a, other, d, name, other, y), a + d + y
	},
	func(r *rand.Rand, name, _, thing string) (string, int) { // share equally
		k, each := intIn(r, 2, 9), intIn(r, 2, 15)
		return fmt.Sprintf("%s shares %d %s equally among %d friends. How many %s does each friend get?",
			name, k*each, thing, k, thing), each
	},
	func(r *rand.Rand, name, _, thing string) (string, int) { // boxes
		boxes, per, extra := intIn(r, 2, 12), intIn(r, 3, 24), intIn(r, 0, 9)
		return fmt.Sprintf("%s has %d boxes with %d %s in each, plus %d loose %s. How many %s does %s have in total?",
			name, boxes, per, thing, extra, thing, thing, name), boxes*per + extra
	},
	func(r *rand.Rand, name, _, _ string) (string, int) { // weekly saving
		per, weeks, cost := intIn(r, 3, 20), intIn(r, 2, 10), 0
		cost = per*weeks - intIn(r, 0, per*weeks/2)
		return fmt.Sprintf("%s saves $%d every week for %d weeks, then spends $%d on a game. How many dollars are left?",
			name, per, weeks, cost), per*weeks - cost
	},
	func(r *rand.Rand, name, other, _ string) (string, int) { // work together
		a, b, days := intIn(r, 2, 12), intIn(r, 2, 12), intIn(r, 2, 7)
		return fmt.Sprintf("%s paints %d fences a day and %s paints %d fences a day. How many fences do they paint together in %d days?",
			name, a, other, b, days), (a + b) * days
	},
	func(r *rand.Rand, name, _, _ string) (string, int) { // rectangle
		w, h := intIn(r, 2, 30), intIn(r, 2, 30)
		if r.IntN(2) == 0 {
			return fmt.Sprintf("%s's garden is a rectangle %d m long and %d m wide. What is its area in square meters?", name, w, h), w * h
		}
		return fmt.Sprintf("%s walks once around a rectangular field %d m long and %d m wide. How many meters does %s walk?", name, w, h, name), 2 * (w + h)
	},
	func(r *rand.Rand, name, _, _ string) (string, int) { // discount
		price, pct := 10*intIn(r, 2, 30), 10*intIn(r, 1, 5)
		return fmt.Sprintf("A jacket costs $%d. %s buys it at %d%% off. How many dollars does %s pay?", price, name, pct, name),
			price * (100 - pct) / 100
	},
}

func buildWordProblems(_ *envs.Options) task.Generator {
	return func(r *rand.Rand) task.Problem {
		i := r.IntN(len(people))
		j := (i + 1 + r.IntN(len(people)-1)) % len(people)
		q, a := wordProblems[r.IntN(len(wordProblems))](r, people[i], people[j], things[r.IntN(len(things))])
		ans := fmt.Sprint(a)
		return task.Problem{Question: q, Answer: ans, Score: check(ans),
			Sample: func(r *rand.Rand) string { return fmt.Sprint(intIn(r, 0, 200)) }}
	}
}
