package eval

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// SplitEnvSpec splits an -env value, an env id with optional options of
// its own written as a query string ("eval:MATH500?answer_format=boxed&
// style=brief"), into the id and the options. A spec without "?" is an id
// with no options of its own. A key given twice, an empty key or a bad
// escape is an error naming the spec.
func SplitEnvSpec(spec string) (id string, opts map[string]any, err error) {
	id, query, ok := strings.Cut(spec, "?")
	if strings.TrimSpace(id) == "" {
		return "", nil, fmt.Errorf("-env %q: no env id before the options", spec)
	}
	if !ok {
		return id, nil, nil
	}
	vals, err := url.ParseQuery(query)
	if err != nil {
		return "", nil, fmt.Errorf("-env %q: options: %w (want id?key=value&key=value)", spec, err)
	}
	opts = map[string]any{}
	for k, vs := range vals {
		if strings.TrimSpace(k) == "" {
			return "", nil, fmt.Errorf("-env %q: an option without a key (want id?key=value&key=value)", spec)
		}
		if len(vs) > 1 {
			return "", nil, fmt.Errorf("-env %q: option %s is given %d times", spec, k, len(vs))
		}
		opts[k] = vs[0]
	}
	return id, opts, nil
}

// specOptions returns the options of the env of spec: cfg's EnvOptions
// (every env's) with the spec's own over them.
func specOptions(cfg *Config, spec string) (string, map[string]any, error) {
	id, own, err := SplitEnvSpec(spec)
	if err != nil {
		return "", nil, err
	}
	if len(own) == 0 {
		return id, cfg.EnvOptions, nil
	}
	merged := make(map[string]any, len(cfg.EnvOptions)+len(own))
	for k, v := range cfg.EnvOptions {
		merged[k] = v
	}
	for k, v := range own {
		merged[k] = v
	}
	return id, merged, nil
}

// Sizer is implemented by envs over a fixed list of items (a dataset):
// Len is the number of items, and seeds s … s+Len()−1 play each once.
type Sizer interface {
	Len() int
}

// EnvSize makes the env of spec (with cfg's options, without tools) and
// returns its number of items; ok is false when it reports none (it is
// not a Sizer).
func EnvSize(reg *envs.Registry, cfg *Config, spec string) (n int, ok bool, err error) {
	id, opts, err := specOptions(cfg, spec)
	if err != nil {
		return 0, false, err
	}
	env, err := reg.Make(id, envs.FromMap(opts)...)
	if err != nil {
		return 0, false, err
	}
	defer envs.Close(env)
	s, ok := envs.Unwrapped(env).(Sizer)
	if !ok {
		return 0, false, nil
	}
	return s.Len(), true, nil
}
