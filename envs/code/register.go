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
	path := o.String("path", "")
	fields := Fields{
		ID:       o.String("id_field", "id"),
		Question: o.String("question_field", "question"),
		Tests:    o.String("tests_field", "tests"),
		Input:    o.String("input_field", "input"),
		Output:   o.String("output_field", "output"),
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

// readConfig reads the options both ids share.
func readConfig(o *envs.Options) (Config, int) {
	cfg := DefaultConfig()
	cfg.Style, cfg.FormatPenalty = task.ReadCommon(o)
	cfg.Python = o.String("python", cfg.Python)
	cfg.Timeout = time.Duration(o.Float("timeout", cfg.Timeout.Seconds(), 0.05, 600) * float64(time.Second))
	cfg.MemoryBytes = int64(o.Int("memory_mb", int(cfg.MemoryBytes>>20), 16, 1<<20)) << 20
	cfg.OutputBytes = int64(o.Int("output_kb", int(cfg.OutputBytes>>10), 1, 1<<20)) << 10
	cfg.Concurrency = o.Int("concurrency", cfg.Concurrency, 1, 256)
	cfg.FailFast = o.Bool("fail_fast", false)
	cfg.FreshProcess = o.Bool("fresh_process", false)
	cfg.Isolation = o.String("isolation", "auto", "auto", sandbox.NetBwrap, sandbox.NetNamespace, sandbox.NetUserNamespace, sandbox.NetNone)
	maxTests := o.Int("max_tests", 12, 1, 10000)
	return cfg, maxTests
}
