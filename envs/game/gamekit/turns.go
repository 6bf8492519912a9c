package gamekit

import "github.com/gemgo/gemgo/envs"

// Episode is the turn bookkeeping of a game env: whether an episode is
// running and how many turns it has taken. The zero Episode is not running.
type Episode struct {
	Turn   int
	Active bool
}

// Start begins an episode at turn 0 (Reset).
func (ep *Episode) Start() { ep.Turn, ep.Active = 0, true }

// Begin is the prologue of a game's Step: outside an episode (before
// Reset, or after a step that ended it) it returns envs.ErrNotReset;
// otherwise it counts the turn and returns the step's Info holding
// envs.InfoTurn.
func (ep *Episode) Begin() (envs.Info, error) {
	if !ep.Active {
		return nil, envs.ErrNotReset
	}
	ep.Turn++
	return envs.Info{envs.InfoTurn: ep.Turn}, nil
}

// FormatError returns the step of an action that could not be parsed: obs
// as the observation, envs.RewardFormatError, terminated, with info marked
// envs.InfoFormatError and not envs.InfoSuccess. The caller ends its
// episode.
func FormatError(info envs.Info, obs string) envs.Step {
	info[envs.InfoFormatError] = true
	info[envs.InfoSuccess] = false
	return envs.Step{Obs: obs, Reward: envs.RewardFormatError, Terminated: true, Info: info}
}

// Limit is the turn limit of an episode: override when it is positive
// (a max_turns option), else the level's own limit.
func Limit(level, override int) int {
	if override > 0 {
		return override
	}
	return level
}
