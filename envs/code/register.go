package code

import (
	"time"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/task"
	"github.com/gemgo/gemgo/sandbox"
)

// Register adds the code envs to r: code:sample (the problems shipped with
// gemgo) and code:jsonl (a JSONL problem set, option path).
func Register(r *envs.Registry) error {
	if err := r.RegisterDesc("code:sample", "Python stdin/stdout problems shipped with gemgo, judged in a sandbox", makeSample); err != nil {
		return err
	}
	return r.RegisterDesc("code:jsonl", "Python stdin/stdout problems from a JSONL file (option path), judged in a sandbox", makeJSONL)
}

func makeSample(o *envs.Options) (envs.Env, error) {
	cfg, maxTests := readConfig(o)
	if o.Err() != nil {
		return nil, nil // Make reports the option error
	}
	ps := SampleProblems()
	for i := range ps {
		if len(ps[i].Tests) > maxTests {
			ps[i].Tests = ps[i].Tests[:maxTests]
		}
	}
	return New(ps, cfg)
}

func makeJSONL(o *envs.Options) (envs.Env, error) {
	cfg, maxTests := readConfig(o)
	path := o.ServerOnly(namesFile).String("path", "")
	fields := Fields{
		ID:       o.Content().String("id_field", "id"),
		Question: o.Content().String("question_field", "question"),
		Tests:    o.Content().String("tests_field", "tests"),
		Input:    o.Content().String("input_field", "input"),
		Output:   o.Content().String("output_field", "output"),
	}
	if path == "" {
		o.Failf("option path is required: the JSONL problem set to read (one {%q, %q} object per line)", fields.Question, fields.Tests)
	}
	if o.Err() != nil {
		return nil, nil // Make reports the option error
	}
	ps, err := LoadProblems(path, fields, maxTests)
	if err != nil {
		return nil, err
	}
	return New(ps, cfg)
}

// namesFile is why a server's client may not set a file option.
const namesFile = "names a file on the server"

// Caps of the resource options for a server's clients (envs.ClientPolicy;
// cmd/envserver -option-cap replaces them). One client's step holds at
// most Concurrency warm interpreters for up to Timeout per test, and
// MaxTests × Timeout / Concurrency is its longest step.
const (
	clientMaxTimeout     = 10   // seconds per test (GEM's default is 1)
	clientMaxMemoryMB    = 1024 // MiB per test
	clientMaxOutputKB    = 1024 // KiB of output per test, held in the server's memory
	clientMaxConcurrency = 4    // tests of one step at once
	clientMaxTests       = 50   // tests per problem
)

// readConfig reads the options both ids share.
func readConfig(o *envs.Options) (Config, int) {
	cfg := DefaultConfig()
	cfg.Style, cfg.FormatPenalty = task.ReadCommon(o)
	cfg.Python = o.ServerOnly("names the program the server runs solutions with").String("python", cfg.Python)
	cfg.Timeout = time.Duration(o.Resource(clientMaxTimeout).Float("timeout", cfg.Timeout.Seconds(), 0.05, 600) * float64(time.Second))
	cfg.MemoryBytes = int64(o.Resource(clientMaxMemoryMB).Int("memory_mb", int(cfg.MemoryBytes>>20), 16, 1<<20)) << 20
	cfg.OutputBytes = int64(o.Resource(clientMaxOutputKB).Int("output_kb", int(cfg.OutputBytes>>10), 1, 1<<20)) << 10
	cfg.Concurrency = o.Resource(clientMaxConcurrency).Int("concurrency", cfg.Concurrency, 1, 256)
	cfg.FailFast = o.Bool("fail_fast", false)
	cfg.FreshProcess = o.ServerOnly("makes the server start a fresh interpreter for each test (some 90 ms of its CPU each) outside its shared warm pool").Bool("fresh_process", false)
	cfg.Isolation = o.ServerOnly("weakens or chooses the sandbox the server runs solutions in (none reaches the server's own network)").
		String("isolation", "auto", "auto", sandbox.NetBwrap, sandbox.NetNamespace, sandbox.NetUserNamespace, sandbox.NetNone)
	maxTests := o.Resource(clientMaxTests).Int("max_tests", 12, 1, 10000)
	return cfg, maxTests
}
