package chat

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
)

// History modes of a Format, named as a training config's env.history:
// the wrappers' own names in package envs.
const (
	HistoryNone         = envs.HistoryNone         // the latest observation only
	HistoryObservations = envs.HistoryObservations // envs.ObservationHistory
	HistoryActions      = envs.HistoryActions      // envs.ActionObservationHistory
)

// Format renders a conversation to the observation string a gemgo policy
// reads: the text the history wrapper the policy trained behind would
// have produced for the same episode (envs.RenderHistory writes both).
type Format struct {
	History string `json:"history"` // HistoryNone, HistoryObservations or HistoryActions; "" means none
	Keep    int    `json:"keep"`    // keep the first observation and the last Keep turns; 0 keeps all
}

// Validate checks the history mode and keep.
func (f Format) Validate() error {
	switch f.History {
	case "", HistoryNone, HistoryObservations, HistoryActions:
	default:
		return fmt.Errorf("history %q: allowed none, observations, actions", f.History)
	}
	if f.Keep < 0 {
		return fmt.Errorf("history keep = %d: want 0 (all) or more", f.Keep)
	}
	return nil
}

// Render returns the observation for msgs: after any system messages
// (dropped), a user message, then assistant and user messages in turn,
// ending with a user message.
func (f Format) Render(msgs []Message) (string, error) {
	if err := f.Validate(); err != nil {
		return "", invalid("messages", "%v", err)
	}
	i := 0
	for i < len(msgs) && msgs[i].Role == RoleSystem {
		i++
	}
	rest := msgs[i:]
	if len(rest) == 0 {
		return "", invalid("messages", "no user message: the conversation must hold the env's first observation as a user message")
	}
	for j, m := range rest {
		want := RoleUser
		if j%2 == 1 {
			want = RoleAssistant
		}
		if m.Role != want {
			return "", invalid("messages", "message %d has role %q where %q was expected: after system messages, user and assistant messages alternate, starting and ending with user", i+j, m.Role, want)
		}
	}
	if len(rest)%2 == 0 {
		return "", invalid("messages", "the last message is the assistant's: end with a user message (the observation to answer)")
	}
	if f.History == "" || f.History == HistoryNone {
		return rest[len(rest)-1].Content, nil
	}
	turns := (len(rest) - 1) / 2 // (assistant, user) pairs after the first observation
	first := 0
	if f.Keep > 0 && turns > f.Keep {
		first = turns - f.Keep
	}
	kept := make([]envs.HistoryTurn, 0, turns-first)
	for t := first; t < turns; t++ {
		kept = append(kept, envs.HistoryTurn{Action: rest[1+2*t].Content, Obs: rest[2+2*t].Content})
	}
	return envs.RenderHistory(rest[0].Content, kept, f.History == HistoryActions), nil
}
