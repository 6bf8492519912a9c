package envs_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
)

// seen is what the factory of policyRegistry read.
type seen struct {
	path, field, free, level string
	timeout                  float64
	workers                  int
}

type seenEnv struct {
	envs.Env
	got seen
}

// policyRegistry registers "t:opts", whose factory reads one option of
// each access rule and keeps what it read.
func policyRegistry(t *testing.T) *envs.Registry {
	t.Helper()
	r := envs.NewRegistry()
	require.NoError(t, r.Register("t:opts", func(o *envs.Options) (envs.Env, error) {
		var s seen
		s.path = o.ServerOnly("names a file on the server").String("path", "")
		s.field = o.Content().String("field", "question")
		s.free = o.String("free", "")
		s.level = o.String("level", "easy", "easy", "hard")
		s.timeout = o.Resource(10).Float("timeout", 1, 0.05, 600)
		s.workers = o.Resource(4).Int("workers", 2, 1, 256)
		return &seenEnv{got: s}, nil
	}))
	return r
}

func TestClientPolicy(t *testing.T) {
	r := policyRegistry(t)
	for _, tc := range []struct {
		name   string
		policy envs.ClientPolicy
		opts   map[string]any
		want   seen   // when the options are accepted
		refuse string // else the error, a *ClientOptionError
	}{
		{"content options pass", envs.ClientPolicy{},
			map[string]any{"field": "q", "level": "hard", "timeout": 10, "workers": 4},
			seen{field: "q", level: "hard", timeout: 10, workers: 4, path: "", free: ""}, ""},
		{"server-only refused", envs.ClientPolicy{}, map[string]any{"path": "/etc/shadow"},
			seen{}, "env t:opts: option path: a client of this server may not set it: it names a file on the server"},
		{"free text refused", envs.ClientPolicy{}, map[string]any{"free": "x"},
			seen{}, "env t:opts: option free: a client of this server may not set it: it is free text"},
		{"resource above its declared cap", envs.ClientPolicy{}, map[string]any{"timeout": 600},
			seen{}, "env t:opts: option timeout = 600 is above this server's cap of 10 for its clients"},
		{"int resource above its cap", envs.ClientPolicy{}, map[string]any{"workers": 5},
			seen{}, "env t:opts: option workers = 5 is above this server's cap of 4"},
		{"operator's cap replaces the declared one", envs.ClientPolicy{Caps: map[string]float64{"timeout": 30}},
			map[string]any{"timeout": 30}, seen{field: "question", level: "easy", timeout: 30, workers: 2}, ""},
		{"operator's lower cap", envs.ClientPolicy{Caps: map[string]float64{"timeout": 2}},
			map[string]any{"timeout": 3}, seen{}, "option timeout = 3 is above this server's cap of 2"},
		{"allowed server-only", envs.ClientPolicy{Allow: []string{"path", "free"}},
			map[string]any{"path": "/data/p.jsonl", "free": "x"},
			seen{path: "/data/p.jsonl", free: "x", field: "question", level: "easy", timeout: 1, workers: 2}, ""},
		{"allowed resource has only its range", envs.ClientPolicy{Allow: []string{"workers"}},
			map[string]any{"workers": 256}, seen{field: "question", level: "easy", timeout: 1, workers: 256}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, err := r.MakeForClient("t:opts", tc.policy, envs.FromMap(tc.opts)...)
			if tc.refuse != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.refuse)
				var ce *envs.ClientOptionError
				assert.True(t, errors.As(err, &ce), "%T", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, env.(*seenEnv).got)
		})
	}
}

// A refused value never reaches the factory: the getter returns the
// default, and the factory may go on to use it before Make reports the
// refusal.
func TestClientPolicyHidesRefusedValue(t *testing.T) {
	r := envs.NewRegistry()
	var got []string
	require.NoError(t, r.Register("t:file", func(o *envs.Options) (envs.Env, error) {
		got = append(got, o.ServerOnly("names a file on the server").String("path", "default.txt"),
			o.String("free", "d"))
		return &seenEnv{}, nil
	}))
	_, err := r.MakeForClient("t:file", envs.ClientPolicy{}, envs.With("path", "/etc/shadow"), envs.With("free", "/root/x"))
	require.Error(t, err)
	assert.Equal(t, []string{"default.txt", "d"}, got)
}

// The operator's own options (Make) are not the client's: every option
// is read as given, within its range.
func TestMakeIgnoresClientRules(t *testing.T) {
	env, err := policyRegistry(t).Make("t:opts", envs.With("path", "/data/p"), envs.With("free", "x"),
		envs.With("timeout", 600), envs.With("workers", 256))
	require.NoError(t, err)
	assert.Equal(t, seen{path: "/data/p", free: "x", field: "question", level: "easy", timeout: 600, workers: 256},
		env.(*seenEnv).got)
}
