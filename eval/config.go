package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gemgo/gemgo/tools"
)

// DefaultSeedBase is the first env seed of an evaluation. Training draws
// its seeds by hashing (envs.EpisodeSeed of the run seed, iteration and
// group) and its periodic evaluation uses train's eval.seed_base = 2^40
// onwards; 2^41 onwards is a third, disjoint range, so a checkpoint is
// scored on seeds it neither trained nor was selected on.
const DefaultSeedBase uint64 = 1 << 41

// Config is one evaluation. Zero values mean the defaults of
// DefaultConfig where noted.
type Config struct {
	Policies   []string       `json:"policies"`        // policy specs (see OpenPolicy), compared side by side
	Envs       []string       `json:"envs"`            // registered env ids
	EnvOptions map[string]any `json:"env_options"`     // options given to every env (e.g. style: brief)
	Tools      []tools.Spec   `json:"tools,omitempty"` // tools wrapping every env, in this order (tools.Wrap); none: the bare envs
	Episodes   int            `json:"episodes"`        // seeds per env: SeedBase … SeedBase+Episodes−1
	Samples    int            `json:"samples"`         // episodes per seed and policy (the n of pass@k)
	SeedBase   uint64         `json:"seed_base"`       // first env seed
	// Sampling sent with every request.
	Temperature float64  `json:"temperature"` // 0: greedy
	TopP        float64  `json:"top_p"`       // 0 or 1: off
	MaxTokens   int      `json:"max_tokens"`  // 0: a checkpoint's own limit, the server's default for an endpoint
	Stop        []string `json:"stop"`
	System      string   `json:"system"` // a system prompt for chat models ("": none; checkpoints drop it)
	// ToolProtocol is how endpoint policies call the tools: ProtocolText
	// ("" too) or ProtocolNative (OpenAI function calling).
	ToolProtocol string `json:"tool_protocol,omitempty"`

	// How the run proceeds; not part of the hash (they change no result).
	Concurrency int           `json:"-"` // episodes in flight at most
	Timeout     time.Duration `json:"-"` // per request attempt to an endpoint
	Retries     int           `json:"-"` // retries of a failed request to an endpoint
	Resamples   int           `json:"-"` // bootstrap resamples of the intervals
}

// DefaultConfig has 100 greedy episodes per env from DefaultSeedBase, one
// sample each, 32 episodes in flight, 60 s per request attempt, 2 retries.
func DefaultConfig() Config {
	return Config{Episodes: 100, Samples: 1, SeedBase: DefaultSeedBase, Concurrency: 32,
		Timeout: 60 * time.Second, Retries: 2, Resamples: 2000}
}

// Validate checks every field, naming its flag.
func (c *Config) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if len(c.Policies) == 0 {
		bad("no -policy: name at least one (a checkpoint, random, oracle, or MODEL@URL)")
	}
	seen := map[string]bool{}
	for _, p := range c.Policies {
		if seen[p] {
			bad("-policy %s is given twice", p)
		}
		seen[p] = true
	}
	if len(c.Envs) == 0 {
		bad("no -env: name at least one env id (go run ./cmd/play -list prints them)")
	}
	seenEnv := map[string]bool{}
	for _, e := range c.Envs {
		if seenEnv[e] {
			bad("-env %s is given twice", e)
		}
		seenEnv[e] = true
		if _, _, err := SplitEnvSpec(e); err != nil {
			bad("%s", err)
		}
	}
	if err := tools.ValidateSpecs(c.Tools); err != nil {
		bad("-tool: %s", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	switch c.ToolProtocol {
	case "", ProtocolText:
	case ProtocolNative:
		if len(c.Tools) == 0 && !ownTools(c.Envs) {
			bad("-tool-protocol native without -tool: give the tools to offer as functions (only the mcp:* envs have tools of their own)")
		}
	default:
		bad("-tool-protocol = %q: allowed text, native", c.ToolProtocol)
	}
	if c.Episodes < 1 {
		bad("-episodes = %d: must be ≥ 1", c.Episodes)
	}
	if c.Samples < 1 || c.Samples > 1024 {
		bad("-samples = %d: allowed [1, 1024]", c.Samples)
	}
	if c.Samples > 1 && c.Temperature == 0 {
		bad("-samples = %d with -temperature 0: greedy samples of a seed are all alike; set -temperature > 0 (e.g. 1) for pass@k", c.Samples)
	}
	if math.IsNaN(c.Temperature) || c.Temperature < 0 || c.Temperature > 2 {
		bad("-temperature = %v: allowed [0, 2] (0: greedy)", c.Temperature)
	}
	if math.IsNaN(c.TopP) || c.TopP < 0 || c.TopP > 1 {
		bad("-top-p = %v: allowed [0, 1] (0 or 1: off)", c.TopP)
	}
	if c.MaxTokens < 0 {
		bad("-max-tokens = %d: must be ≥ 0 (0: the policy's default)", c.MaxTokens)
	}
	if len(c.Stop) > 4 {
		bad("-stop is given %d times: at most 4 stop strings", len(c.Stop))
	}
	if c.Concurrency < 1 || c.Concurrency > 4096 {
		bad("-concurrency = %d: allowed [1, 4096]", c.Concurrency)
	}
	if c.Timeout <= 0 {
		bad("-timeout = %v: must be > 0", c.Timeout)
	}
	if c.Retries < 0 || c.Retries > 20 {
		bad("-retries = %d: allowed [0, 20]", c.Retries)
	}
	if c.Resamples < 0 {
		bad("resamples = %d: must be ≥ 0", c.Resamples)
	}
	if len(errs) > 0 {
		return fmt.Errorf("invalid eval config:\n  %s", strings.Join(errs, "\n  "))
	}
	return nil
}

// EpisodeHash identifies the settings that decide how an episode plays
// out (not which episodes are played): every line of results.jsonl
// carries it, so a rerun may add policies, envs, episodes or samples to a
// results directory, but not change these settings under it. The tools
// enter resolved (a default given explicitly hashes as the default), and
// only when there are some, so a config without tools hashes as it did
// before tools could be given; the tool protocol enters only when native,
// so a text-protocol config hashes as before the protocol could be chosen.
func (c *Config) EpisodeHash() string {
	protocol := ""
	if c.native() {
		protocol = ProtocolNative
	}
	var specs []tools.Spec
	for _, s := range c.Tools {
		specs = append(specs, s.Resolved())
	}
	return hashJSON(struct {
		EnvOptions  map[string]any `json:"env_options"`
		Tools       []tools.Spec   `json:"tools,omitempty"`
		SeedBase    uint64         `json:"seed_base"`
		Temperature float64        `json:"temperature"`
		TopP        float64        `json:"top_p"`
		MaxTokens   int            `json:"max_tokens"`
		Stop        []string       `json:"stop"`
		System      string         `json:"system"`
		Protocol    string         `json:"tool_protocol,omitempty"`
	}{c.EnvOptions, specs, c.SeedBase, c.Temperature, c.TopP, c.MaxTokens, c.Stop, c.System, protocol})
}

// ownTools reports whether every env of specs calls tools of its own: the
// mcp:* envs (envs/mcptask), whose MCP server's tools are offered as
// functions without -tool.
func ownTools(specs []string) bool {
	for _, s := range specs {
		if !strings.HasPrefix(s, "mcp:") {
			return false
		}
	}
	return len(specs) > 0
}

func (c *Config) native() bool { return c.ToolProtocol == ProtocolNative }

// Hash identifies the results a config asks for: the hex SHA-256 of its
// JSON (map keys sorted by encoding/json), without the fields that only
// change how the run proceeds.
func (c *Config) Hash() string {
	return hashJSON(c)
}

func hashJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil { // options decoded from YAML or flags are JSON-like; say so if not
		b = []byte(fmt.Sprintf("unmarshalable %T: %v", v, err))
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}
