package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/gemgo/gemgo/policy"
)

// SettingsKey is the checkpoint metadata key (policy.Checkpoint.Meta)
// under which a training run saves its Settings as JSON (PutSettings).
const SettingsKey = "serving"

// Settings say how a checkpoint reads and answers: how its training run
// rendered observations and sampled. (Not the run's sample.top_p: a
// nucleus is the caller's choice, as train's Cautions say.) They are the serving record that
// package train saves in every checkpoint it writes (Meta[SettingsKey]),
// so that a server reads them without the trainer.
type Settings struct {
	Format      Format         `json:"format"`                // env.history and env.history_keep of the run
	MaxTokens   int            `json:"max_tokens"`            // sample.max_new_tokens of the run
	RequireEOS  bool           `json:"require_eos"`           // sample.require_eos: the run sent an unfinished answer as ""
	Temperature float64        `json:"temperature"`           // sample.temperature: a request without one samples at it; 0 means 1
	EnvID       string         `json:"env_id"`                // env.id of the run
	EnvOptions  map[string]any `json:"env_options,omitempty"` // the env options of the run's held-out evaluation (eval.options over env.options)
}

// Validate checks what a server relies on, naming the training config key.
func (s Settings) Validate() error {
	if err := s.Format.Validate(); err != nil {
		return fmt.Errorf("env.%w", err)
	}
	switch {
	case s.MaxTokens < 1:
		return fmt.Errorf("sample.max_new_tokens = %d: must be ≥ 1", s.MaxTokens)
	case math.IsNaN(s.Temperature) || s.Temperature < 0:
		return fmt.Errorf("sample.temperature = %v: must be ≥ 0 (0 means 1)", s.Temperature)
	}
	return nil
}

// PutSettings writes s into meta under SettingsKey.
func PutSettings(meta map[string]string, s Settings) error {
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("serving settings: %w", err)
	}
	meta[SettingsKey] = string(b)
	return nil
}

// CheckpointSettings reads a checkpoint's serving settings: the record
// under SettingsKey; in a checkpoint written before it existed, the few
// keys it needs from the training config saved beside it
// (Meta["config"], see legacyConfig). A checkpoint with neither (not
// written by cmd/train) gets the latest-observation format and the
// training defaults.
func CheckpointSettings(ck *policy.Checkpoint) (Settings, error) {
	var s Settings
	var err error
	if text, ok := ck.Meta[SettingsKey]; ok {
		s, err = decodeSettings(text)
		if err != nil {
			return Settings{}, fmt.Errorf("the checkpoint's serving settings (metadata %q): %w", SettingsKey, err)
		}
	} else if text, ok := ck.Meta["config"]; ok {
		s, err = legacySettings(text)
		if err != nil {
			return Settings{}, fmt.Errorf("the checkpoint's training config: %w", err)
		}
	} else {
		s = defaultLegacy().settings()
		s.Format.History = HistoryNone
	}
	if err := s.Validate(); err != nil {
		return Settings{}, fmt.Errorf("the checkpoint's serving settings: %w", err)
	}
	return s, nil
}

// decodeSettings reads the JSON record. Unknown keys are ignored (a later
// trainer may record more); env option numbers come back as YAML decoded
// them in the training config: int when whole, float64 otherwise.
func decodeSettings(text string) (Settings, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	var s Settings
	if err := dec.Decode(&s); err != nil {
		return Settings{}, err
	}
	for k, v := range s.EnvOptions {
		s.EnvOptions[k] = fromJSON(v)
	}
	return s, nil
}

// fromJSON turns the json.Numbers of a decoded value into int or float64.
func fromJSON(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil && int64(int(i)) == i {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = fromJSON(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = fromJSON(x[k])
		}
	}
	return v
}
