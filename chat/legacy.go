package chat

import (
	"maps"

	"gopkg.in/yaml.v3"
)

// legacyConfig is the part of a training config (package train's Config,
// saved as Meta["config"] in every checkpoint) that a checkpoint written
// before SettingsKey existed is served by. The text is the whole resolved
// config, so the decode is not strict: every other key is skipped, and a
// key that an older trainer did not write keeps train's default
// (defaultLegacy; train's tests check that these reads equal train's).
type legacyConfig struct {
	Env struct {
		ID          string        `yaml:"id"`
		Options     legacyOptions `yaml:"options"`
		History     string        `yaml:"history"`
		HistoryKeep int           `yaml:"history_keep"`
	} `yaml:"env"`
	Sample struct {
		MaxNewTokens int     `yaml:"max_new_tokens"`
		Temperature  float64 `yaml:"temperature"`
		RequireEOS   bool    `yaml:"require_eos"`
	} `yaml:"sample"`
	Eval struct {
		Options legacyOptions `yaml:"options"`
	} `yaml:"eval"`
}

// legacyOptions are env options; as in a training config, decoding
// replaces the default options as a whole rather than merging into them.
type legacyOptions map[string]any

// UnmarshalYAML decodes the options into a fresh map.
func (o *legacyOptions) UnmarshalYAML(n *yaml.Node) error {
	m := map[string]any{}
	if err := n.Decode(&m); err != nil {
		return err
	}
	*o = m
	return nil
}

// defaultLegacy holds the defaults of package train (DefaultConfig) for
// the keys legacyConfig reads.
func defaultLegacy() legacyConfig {
	var c legacyConfig
	c.Env.ID = "game:GuessTheNumber-v0-easy"
	c.Env.Options = legacyOptions{"style": "brief", "partial_credit": false}
	c.Env.History = HistoryObservations
	c.Sample.MaxNewTokens = 8
	c.Sample.Temperature = 1
	c.Sample.RequireEOS = true
	return c
}

// legacySettings reads Settings from a training config's YAML text.
func legacySettings(text string) (Settings, error) {
	c := defaultLegacy()
	if err := yaml.Unmarshal([]byte(text), &c); err != nil {
		return Settings{}, err
	}
	return c.settings(), nil
}

// settings are c's Settings; the env options are the held-out
// evaluation's, eval.options over env.options (train's Config.EvalEnv).
func (c legacyConfig) settings() Settings {
	opts := map[string]any(c.Env.Options)
	if len(c.Eval.Options) > 0 {
		opts = make(map[string]any, len(c.Env.Options)+len(c.Eval.Options))
		maps.Copy(opts, c.Env.Options)
		maps.Copy(opts, c.Eval.Options)
	}
	return Settings{
		Format:      Format{History: c.Env.History, Keep: c.Env.HistoryKeep},
		MaxTokens:   c.Sample.MaxNewTokens,
		RequireEOS:  c.Sample.RequireEOS,
		Temperature: c.Sample.Temperature,
		EnvID:       c.Env.ID,
		EnvOptions:  opts,
	}
}
