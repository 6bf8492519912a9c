package compare

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gemgo/gemgo/train"
)

// stepsSweep is a Loaded of two arms whose finished runs took the given
// env steps, under a budget of rollout.steps (steps true) or of episodes.
func stepsSweep(steps bool, a, b []float64) Loaded {
	cfg := train.DefaultConfig()
	cfg.Iterations = 40
	if steps {
		cfg.Rollout.Episodes, cfg.Rollout.Steps = 0, 2048
	}
	l := Loaded{Spec: Spec{Arms: []Arm{{Name: "reinforce"}, {Name: "grpo"}}}, ByArm: map[string][]RunData{}}
	for arm, xs := range map[string][]float64{"reinforce": a, "grpo": b} {
		for i, x := range xs {
			l.ByArm[arm] = append(l.ByArm[arm], RunData{Run: Run{Arm: arm, Seed: uint64(i + 1), Cfg: cfg}, Iterations: 40, Steps: x})
		}
	}
	return l
}

// Arms of a steps budget whose means differ by more than 10% get a
// caution naming each arm's range and the ratio; within 10%, under an
// episode budget, or counting only unfinished and failed runs, none.
func TestStepsCaution(t *testing.T) {
	l := stepsSweep(true, []float64{94100, 119300, 100000}, []float64{218000, 235000}) // means 104,467 and 226,500
	assert.Equal(t, "The arms took unequal env steps over their finished runs: reinforce 94100–119300, grpo 218000–235000 (means 2.17× apart). "+
		"rollout.steps is a floor, not a cap: every env slot plays its episode to the end, so an arm whose episodes run longer "+
		"takes more steps an iteration. Compare the arms against env steps (the success chart, AUC) rather than at their last "+
		"iteration, or budget episodes (rollout.episodes).", l.StepsCaution())

	assert.Empty(t, stepsSweep(true, []float64{100000, 104000}, []float64{109000, 110000}).StepsCaution(), "1.09× apart")
	assert.NotEmpty(t, stepsSweep(true, []float64{100000}, []float64{110100}).StepsCaution(), "1.101× apart")
	assert.Empty(t, stepsSweep(false, []float64{94100}, []float64{218000}).StepsCaution(), "an episode budget")

	l = stepsSweep(true, []float64{94100}, []float64{218000, 100000})
	l.ByArm["grpo"][0].Iterations = 12 // still running
	assert.Empty(t, l.StepsCaution(), "the unfinished run does not count")
	l.ByArm["grpo"][0].Iterations, l.ByArm["grpo"][0].Err = 40, errors.New("no metrics")
	assert.Empty(t, l.StepsCaution(), "nor a run without data")
	assert.Empty(t, stepsSweep(true, []float64{94100}, nil).StepsCaution(), "one arm")
}
