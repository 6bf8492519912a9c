package train

import (
	"maps"

	"github.com/gemgo/gemgo/chat"
)

// servingSettings are how a checkpoint of the run is served (package
// chat's record): the history format, the answer length and the
// temperature of the rollouts, and the held-out evaluation's env (a
// mixture's first entry: Config.EvalEnv).
func (c Config) servingSettings() chat.Settings {
	ev := c.EvalEnv()
	return chat.Settings{
		Format:      chat.Format{History: ev.History, Keep: ev.HistoryKeep},
		MaxTokens:   c.Sample.MaxNewTokens,
		RequireEOS:  c.Sample.RequireEOS,
		Temperature: c.Sample.Temperature,
		EnvID:       ev.ID,
		EnvOptions:  maps.Clone(map[string]any(ev.Options)),
	}
}

// checkpointMeta adds what every checkpoint of the run carries to meta
// and returns it: the resolved config ("config", which resume checks) and
// the serving settings (chat.SettingsKey, which cmd/serve and cmd/eval
// read; Run encodes them once, before the first step).
func (r *runner) checkpointMeta(meta map[string]string) map[string]string {
	if meta == nil {
		meta = map[string]string{}
	}
	meta["config"] = string(r.cfgYAML)
	maps.Copy(meta, r.serving)
	return meta
}
