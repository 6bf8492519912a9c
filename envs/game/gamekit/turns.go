package gamekit

import "github.com/gemgo/gemgo/envs/core"

// BeginStep is the prologue of a game's Step: outside an episode (before
// Reset, or after a step that ended it) it returns core.ErrNotReset;
// otherwise it counts the turn in *turn and returns the step's Info holding
// core.InfoTurn.
func BeginStep(active bool, turn *int) (core.Info, error) {
	if !active {
		return nil, core.ErrNotReset
	}
	*turn++
	return core.Info{core.InfoTurn: *turn}, nil
}

// FormatError returns the step of an action that could not be parsed: obs
// as the observation, core.RewardFormatError, terminated, with info marked
// core.InfoFormatError and not core.InfoSuccess. The caller ends its
// episode.
func FormatError(info core.Info, obs string) core.Step {
	info[core.InfoFormatError] = true
	info[core.InfoSuccess] = false
	return core.Step{Obs: obs, Reward: core.RewardFormatError, Terminated: true, Info: info}
}

// Limit is the turn limit of an episode: override when it is positive
// (a max_turns option), else the level's own limit.
func Limit(level, override int) int {
	if override > 0 {
		return override
	}
	return level
}
