package compare

import (
	"fmt"
	"strings"
)

// unequalSteps is how far apart (the largest arm's mean over the smallest's)
// the arms' env steps may be before StepsCaution speaks.
const unequalSteps = 1.10

// StepsCaution returns a caution, or "", when the arms of a sweep that
// budgets env steps an iteration (rollout.steps) took unequal env steps
// over their finished runs: their means more than 10% apart. The budget
// is a floor, since every env slot plays its episode to the end, so an arm
// whose episodes run longer (GRPO's groups, a policy that stalls) takes
// more steps an iteration, and the arms' final success then rests on
// unequal experience. Sweeps that budget episodes (rollout.episodes) hold
// episodes equal, not steps, and get no caution.
func (l Loaded) StepsCaution() string {
	type span struct {
		lo, hi, sum float64
		n           int
	}
	var names []string
	spans := map[string]*span{}
	for _, a := range l.Spec.Arms {
		for _, d := range l.ByArm[a.Name] {
			if d.Err != nil || d.Run.Cfg.Rollout.Steps == 0 || d.Iterations != d.Run.Cfg.Iterations || d.Steps <= 0 {
				continue
			}
			s, ok := spans[a.Name]
			if !ok {
				s = &span{lo: d.Steps, hi: d.Steps}
				spans[a.Name] = s
				names = append(names, a.Name)
			}
			s.lo, s.hi, s.sum, s.n = min(s.lo, d.Steps), max(s.hi, d.Steps), s.sum+d.Steps, s.n+1
		}
	}
	if len(names) < 2 {
		return ""
	}
	least, most := spans[names[0]], spans[names[0]]
	var parts []string
	for _, n := range names {
		s := spans[n]
		if s.sum/float64(s.n) < least.sum/float64(least.n) {
			least = s
		}
		if s.sum/float64(s.n) > most.sum/float64(most.n) {
			most = s
		}
		rng := fmt.Sprintf("%.0f", s.lo)
		if s.hi != s.lo {
			rng += fmt.Sprintf("–%.0f", s.hi)
		}
		parts = append(parts, fmt.Sprintf("%s %s", n, rng))
	}
	ratio := (most.sum / float64(most.n)) / (least.sum / float64(least.n))
	if ratio <= unequalSteps {
		return ""
	}
	return fmt.Sprintf("The arms took unequal env steps over their finished runs: %s (means %.2f× apart). "+
		"rollout.steps is a floor, not a cap: every env slot plays its episode to the end, so an arm "+
		"whose episodes run longer takes more steps an iteration. Compare the arms against env steps "+
		"(the success chart, AUC) rather than at their last iteration, or budget episodes (rollout.episodes).",
		strings.Join(parts, ", "), ratio)
}
