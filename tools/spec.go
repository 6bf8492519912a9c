package tools

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gemgo/gemgo/tools/protocol"
)

// Spec configures one tool of a wrapped env, as written in a config's
// env.tools list:
//
//	env:
//	  tools:
//	    - {name: python, max_uses: 5}
//	    - {name: search, topk: 3, information_tags: true}
//
// Zero values take the defaults of the tool named. Keys that belong to
// another kind of tool are errors.
type Spec struct {
	// Name is the tool kind (python, search, mcp) or one of GEM's preset
	// names (python_tool, python_tool_no_int_reward, search_tool,
	// search_tool_no_int_reward), which set the kind and its rewards.
	Name string `yaml:"name"`
	// MaxUses is the most calls of this tool in one episode (default 5, as
	// GEM's presets); a call past it goes to the inner env unchanged.
	MaxUses int `yaml:"max_uses,omitempty"`
	// ToolReward is paid for each call that succeeds (default 0).
	ToolReward float64 `yaml:"tool_reward,omitempty"`
	// SuccessReward is added to ToolReward for each call that succeeds
	// (default 0). The tool rewards of an episode are capped together at
	// MaxToolRewardFraction of the task's success reward.
	SuccessReward float64 `yaml:"success_reward,omitempty"`
	// Timeout bounds one call (python 5s, search 5s, mcp 30s per attempt).
	Timeout time.Duration `yaml:"timeout,omitempty"`

	// Python is the interpreter (default python3).
	Python string `yaml:"python,omitempty"`
	// MaxOutput is the most bytes of output shown to the model (default
	// 2000); longer output is cut and ends with a marker.
	MaxOutput int `yaml:"max_output,omitempty"`
	// StderrLastLine shows only the last line of stderr (GEM's option).
	StderrLastLine bool `yaml:"stderr_last_line,omitempty"`
	// FreshProcess starts a fresh sandboxed interpreter for every python
	// call instead of forking it from the tool's warm interpreter (the
	// default; the observations are the same, a call costs an
	// interpreter's start more). See PythonConfig.FreshProcess.
	FreshProcess bool `yaml:"fresh_process,omitempty"`

	// Corpus is the search corpus: "fictional" (default: the corpus shipped
	// with the qa:Fictional-v0 tasks), "fictional-v1" or "fictional-v2"
	// (the qa:Fictional-v1 or -v2 tasks') or a JSONL file in the Search-R1
	// format.
	Corpus string `yaml:"corpus,omitempty"`
	// IndexDir keeps the BM25 index of Corpus on disk, reused while the
	// corpus is unchanged; "" keeps small corpora in memory and large ones
	// in the user cache directory.
	IndexDir string `yaml:"index_dir,omitempty"`
	// URL is a retriever server to query instead of a local index.
	URL string `yaml:"url,omitempty"`
	// Format is the retriever's wire format: msgpack (GEM's, the default)
	// or json (Search-R1's server).
	Format string `yaml:"format,omitempty"`
	// TopK is the number of documents per search (default 3).
	TopK int `yaml:"topk,omitempty"`
	// InformationTags wraps search results in <information>…</information>.
	InformationTags bool `yaml:"information_tags,omitempty"`

	// Command starts an MCP server speaking stdio (program and arguments).
	Command []string `yaml:"command,omitempty"`
	// Endpoint is an MCP server's streamable HTTP URL (instead of Command).
	Endpoint string `yaml:"endpoint,omitempty"`
	// Retries is how many times a failed MCP call is retried (default 3,
	// 1 s apart); -1 for none.
	Retries int `yaml:"retries,omitempty"`
}

// ParseSpec reads one tool as a command line gives it (the -tool flag of
// cmd/play and cmd/eval): either a bare tool name, such as python or
// search_tool, or a YAML flow map of Spec's keys, such as
// {name: search, topk: 2}. A key that Spec does not have is an error that
// names it. ParseSpec only decodes; Validate and ValidateSpecs check the
// values.
func ParseSpec(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Spec{}, fmt.Errorf("empty tool: want a name (%s) or a map such as {name: search, topk: 2}", strings.Join(Names(), ", "))
	}
	if !strings.HasPrefix(s, "{") {
		return Spec{Name: s}, nil
	}
	var spec Spec
	dec := yaml.NewDecoder(strings.NewReader(s))
	dec.KnownFields(true)
	if err := dec.Decode(&spec); err != nil {
		msg := err.Error()
		var te *yaml.TypeError
		if errors.As(err, &te) { // one line per bad key: join them
			msg = strings.Join(te.Errors, "; ")
		}
		return Spec{}, fmt.Errorf("tool %q: %s (want a name or a map such as {name: search, topk: 2})", s, msg)
	}
	var rest yaml.Node
	if err := dec.Decode(&rest); !errors.Is(err, io.EOF) { // the decoder stops after the first map
		return Spec{}, fmt.Errorf("tool %q: text after the map (one tool per flag: repeat -tool for another)", s)
	}
	return spec, nil
}

// MaxToolRewardFraction caps the intermediate tool rewards of an episode:
// their sum never exceeds this fraction of envs.RewardSuccess, so that
// calling tools never pays as much as solving the task.
const MaxToolRewardFraction = 0.5

// preset is one of GEM's named tool settings.
type preset struct {
	kind                string
	toolReward, success float64
}

// presets are GEM's registered tool names and their rewards (all with 5
// uses). The rewarded ones pay up to 1.5 over five calls in GEM; here the
// episode cap holds them to MaxToolRewardFraction.
var presets = map[string]preset{
	"python_tool":               {protocol.KindPython, 0.05, 0.25},
	"python_tool_no_int_reward": {protocol.KindPython, 0, 0},
	"search_tool":               {protocol.KindSearch, 0.3, 0},
	"search_tool_no_int_reward": {protocol.KindSearch, 0, 0},
}

// Names lists every accepted tool name: the kinds, then GEM's presets.
func Names() []string {
	return append([]string{protocol.KindPython, protocol.KindSearch, protocol.KindMCP}, slices.Sorted(maps.Keys(presets))...)
}

// Resolved returns s with a preset turned into its kind and rewards and
// every zero field set to its default.
func (s Spec) Resolved() Spec {
	if p, ok := presets[s.Name]; ok {
		s.Name = p.kind
		if s.ToolReward == 0 {
			s.ToolReward = p.toolReward
		}
		if s.SuccessReward == 0 {
			s.SuccessReward = p.success
		}
	}
	if s.MaxUses == 0 {
		s.MaxUses = 5
	}
	switch s.Name {
	case protocol.KindPython:
		if s.Timeout == 0 {
			s.Timeout = 5 * time.Second
		}
		if s.Python == "" {
			s.Python = "python3"
		}
		if s.MaxOutput == 0 {
			s.MaxOutput = 2000
		}
	case protocol.KindSearch:
		if s.Timeout == 0 {
			s.Timeout = 5 * time.Second
		}
		if s.TopK == 0 {
			s.TopK = 3
		}
		if s.Format == "" {
			s.Format = FormatMsgpack
		}
		if s.Corpus == "" && s.URL == "" {
			s.Corpus = CorpusFictional
		}
	case protocol.KindMCP:
		if s.Timeout == 0 {
			s.Timeout = 30 * time.Second
		}
		if s.Retries == 0 {
			s.Retries = 3
		}
	}
	return s
}

// Validate checks s (after Resolved), naming each key as env.tools[i].key.
func (s Spec) Validate(i int) error {
	r := s.Resolved()
	key := func(k string) string { return fmt.Sprintf("env.tools[%d].%s", i, k) }
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	if !slices.Contains(Names(), s.Name) {
		bad("%s = %q: allowed %s", key("name"), s.Name, strings.Join(Names(), ", "))
		return errors.New(strings.Join(errs, "; "))
	}
	if r.MaxUses < 1 || r.MaxUses > 100 {
		bad("%s = %d: allowed [1, 100] (0 takes 5)", key("max_uses"), s.MaxUses)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"tool_reward", s.ToolReward}, {"success_reward", s.SuccessReward}} {
		if !finite(f.v) || f.v < 0 || f.v > 1 {
			bad("%s = %v: allowed [0, 1]", key(f.name), f.v)
		}
	}
	if r.Timeout < 0 || r.Timeout > 10*time.Minute {
		bad("%s = %v: allowed (0, 10m] (0 takes the tool's default)", key("timeout"), s.Timeout)
	}
	// Keys of the other kinds must be unset.
	foreign := map[string][]struct {
		name string
		set  bool
	}{
		protocol.KindPython: {{"python", s.Python != ""}, {"max_output", s.MaxOutput != 0}, {"stderr_last_line", s.StderrLastLine},
			{"fresh_process", s.FreshProcess}},
		protocol.KindSearch: {{"corpus", s.Corpus != ""}, {"index_dir", s.IndexDir != ""}, {"url", s.URL != ""}, {"format", s.Format != ""},
			{"topk", s.TopK != 0}, {"information_tags", s.InformationTags}},
		protocol.KindMCP: {{"command", len(s.Command) > 0}, {"endpoint", s.Endpoint != ""}, {"retries", s.Retries != 0}},
	}
	for kind, keys := range foreign {
		if kind == r.Name {
			continue
		}
		for _, k := range keys {
			if k.set {
				bad("%s is a %s key, but this tool is %s: remove it", key(k.name), kind, r.Name)
			}
		}
	}
	switch r.Name {
	case protocol.KindPython:
		if r.MaxOutput < 16 || r.MaxOutput > 1<<20 {
			bad("%s = %d: allowed [16, 1048576] bytes", key("max_output"), s.MaxOutput)
		}
	case protocol.KindSearch:
		if r.TopK < 1 || r.TopK > 50 {
			bad("%s = %d: allowed [1, 50]", key("topk"), s.TopK)
		}
		if r.Format != FormatMsgpack && r.Format != FormatJSON {
			bad("%s = %q: allowed %s (GEM's retriever), %s (Search-R1's)", key("format"), s.Format, FormatMsgpack, FormatJSON)
		}
		if s.URL != "" && (s.Corpus != "" || s.IndexDir != "") {
			bad("%s and %s/%s both set: search either a retriever server or a local corpus", key("url"), key("corpus"), key("index_dir"))
		}
		if s.URL != "" && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://") {
			bad("%s = %q: want an http:// or https:// URL", key("url"), s.URL)
		}
	case protocol.KindMCP:
		if (len(s.Command) > 0) == (s.Endpoint != "") {
			bad("%s or %s: give exactly one (a stdio server's command, or a streamable HTTP URL)", key("command"), key("endpoint"))
		}
		if r.Retries < -1 || r.Retries > 10 {
			bad("%s = %d: allowed [-1, 10] (-1: no retries)", key("retries"), s.Retries)
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// ValidateSpecs checks a whole env.tools list: each spec, and no two tools
// of one kind (their calls would parse alike).
func ValidateSpecs(specs []Spec) error {
	var errs []error
	seen := map[string]int{}
	for i, s := range specs {
		if err := s.Validate(i); err != nil {
			errs = append(errs, err)
			continue
		}
		kind := s.Resolved().Name
		if j, dup := seen[kind]; dup {
			errs = append(errs, fmt.Errorf("env.tools[%d] and env.tools[%d] are both %s tools: keep one (their calls parse alike)", j, i, kind))
		}
		seen[kind] = i
	}
	return errors.Join(errs...)
}

// New builds the tool that s describes (s is resolved here). It fails when
// the tool cannot work on this machine: no Python, an unreadable corpus, an
// MCP server that does not start or answer.
func New(s Spec) (Tool, error) {
	if err := s.Validate(0); err != nil {
		return nil, err
	}
	r := s.Resolved()
	switch r.Name {
	case protocol.KindPython:
		return NewPython(PythonConfig{Python: r.Python, Timeout: r.Timeout, MaxOutput: r.MaxOutput, StderrLastLine: r.StderrLastLine,
			FreshProcess: r.FreshProcess})
	case protocol.KindSearch:
		return NewSearchFromSpec(r)
	default:
		return NewMCP(MCPConfig{Command: r.Command, Endpoint: r.Endpoint, Timeout: r.Timeout, Retries: r.Retries})
	}
}
