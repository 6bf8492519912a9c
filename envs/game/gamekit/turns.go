package gamekit

import "github.com/gemgo/gemgo/envs/core"

// Episode is the turn bookkeeping of a game env: whether an episode is
// running and how many turns it has taken. The zero Episode is not running.
type Episode struct {
	Turn   int
	Active bool
}

// Start begins an episode at turn 0 (Reset).
func (ep *Episode) Start() { ep.Turn, ep.Active = 0, true }

// Begin is the prologue of a game's Step: outside an episode (before
// Reset, or after a step that ended it) it returns core.ErrNotReset;
// otherwise it counts the turn and returns the step's Info holding
// core.InfoTurn.
func (ep *Episode) Begin() (core.Info, error) {
	if !ep.Active {
		return nil, core.ErrNotReset
	}
	ep.Turn++
	return core.Info{core.InfoTurn: ep.Turn}, nil
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
