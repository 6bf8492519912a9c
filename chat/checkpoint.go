package chat

import (
	"fmt"

	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/train"
)

// Settings say how a checkpoint reads and answers: how its training run
// rendered observations and sampled.
type Settings struct {
	Format     Format         // env.history and env.history_keep of the run
	MaxTokens  int            // sample.max_new_tokens of the run
	RequireEOS bool           // sample.require_eos: the run sent an unfinished answer as ""
	EnvID      string         // env.id of the run
	EnvOptions map[string]any // the env options of the run's held-out evaluation (eval.options over env.options)
}

// CheckpointSettings reads the settings from the training config that
// cmd/train saves in every checkpoint (Meta["config"]). A checkpoint
// without one (not written by cmd/train) gets the latest-observation
// format and the training defaults.
func CheckpointSettings(ck *policy.Checkpoint) (Settings, error) {
	text, ok := ck.Meta["config"]
	var cfg train.Config
	if !ok {
		cfg = train.DefaultConfig()
		cfg.Env.History = HistoryNone
	} else {
		var err error
		if cfg, err = train.Parse([]byte(text), nil); err != nil {
			return Settings{}, fmt.Errorf("the checkpoint's training config: %w", err)
		}
	}
	return Settings{
		Format:     Format{History: cfg.Env.History, Keep: cfg.Env.HistoryKeep},
		MaxTokens:  cfg.Sample.MaxNewTokens,
		RequireEOS: cfg.Sample.RequireEOS,
		EnvID:      cfg.Env.ID,
		EnvOptions: cfg.EvalEnv().Options,
	}, nil
}
