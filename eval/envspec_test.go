package eval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitEnvSpec(t *testing.T) {
	for _, tc := range []struct {
		spec string
		id   string
		opts map[string]any
		err  string
	}{
		{spec: "game:Wordle-v0", id: "game:Wordle-v0"},
		{spec: "eval:MATH500?answer_format=boxed", id: "eval:MATH500", opts: map[string]any{"answer_format": "boxed"}},
		{spec: "math:jsonl?path=a%20b.jsonl&style=brief", id: "math:jsonl", opts: map[string]any{"path": "a b.jsonl", "style": "brief"}},
		{spec: "eval:AMC?", id: "eval:AMC", opts: map[string]any{}},
		{spec: "?style=brief", err: "no env id before the options"},
		{spec: "eval:AMC?style=a&style=b", err: "option style is given 2 times"},
		{spec: "eval:AMC?=x", err: "an option without a key"},
		{spec: "eval:AMC?style=%zz", err: `-env "eval:AMC?style=%zz": options:`},
	} {
		id, opts, err := SplitEnvSpec(tc.spec)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err, tc.spec)
			continue
		}
		require.NoError(t, err, tc.spec)
		assert.Equal(t, tc.id, id)
		assert.Equal(t, tc.opts, opts, tc.spec)
	}
}

// A spec's own options override every env's (-opt) for that env only.
func TestSpecOptionsOverride(t *testing.T) {
	cfg := &Config{EnvOptions: map[string]any{"style": "brief", "format_penalty": "0"}}
	id, opts, err := specOptions(cfg, "eval:AMC?style=gem")
	require.NoError(t, err)
	assert.Equal(t, "eval:AMC", id)
	assert.Equal(t, map[string]any{"style": "gem", "format_penalty": "0"}, opts)
	assert.Equal(t, map[string]any{"style": "brief", "format_penalty": "0"}, cfg.EnvOptions, "the shared options are left as they were")
	_, opts, err = specOptions(cfg, "eval:AMC")
	require.NoError(t, err)
	assert.Equal(t, cfg.EnvOptions, opts)
}
