package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/metrics"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/train"
)

func main() {
	cli.Main("train", "stopping at the next step and saving", run)
}

// run is the command: it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	cli.SetUsage(fs,
		"usage: train -config FILE [-set key=value ...] [-seed N] [-out DIR] [-print-config]",
		"       train -resume RUN_DIR [-set key=value ...]",
		"       train -diagnose RUN_DIR [-diagnose-seeds N]")
	cfgPath := fs.String("config", "", "config file, or a bare name looked up in configs/ (e.g. rebn_guess)")
	out := fs.String("out", "runs", "parent directory of the run directory")
	resume := fs.String("resume", "", "continue the run in this directory from its checkpoint")
	seed := fs.Uint64("seed", 0, "override the config's seed")
	printConfig := fs.Bool("print-config", false, "print the resolved config as YAML and exit")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof reads it)")
	memProfile := fs.String("memprofile", "", "write a heap profile to this file when the run ends (go tool pprof reads it)")
	diagnoseDir := fs.String("diagnose", "", "print how the policies of this run directory fit and play its env (prompt and answer lengths, random, greedy and sampled play), and exit")
	diagnoseSeeds := fs.Int("diagnose-seeds", 200, "held-out seeds -diagnose plays")
	var sets cli.Multi
	fs.Var(&sets, "set", "override a config key: section.key=value (repeatable)")
	if code, ok := cli.ParseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "seed" {
			sets = append(sets, "seed="+strconv.FormatUint(*seed, 10))
		}
	})
	if *diagnoseDir != "" {
		return diagnose(ctx, *diagnoseDir, sets, *diagnoseSeeds, stdout, stderr)
	}
	var cfg train.Config
	var err error
	dir := *resume
	switch {
	case *resume != "" && *cfgPath != "":
		fmt.Fprintln(stderr, "train: give -config for a new run or -resume for an old one, not both (a resumed run reads its own config.yaml)")
		return cli.ExitUsage
	case *resume != "":
		cfg, err = train.LoadFile(filepath.Join(*resume, train.ConfigFile), sets)
	case *cfgPath != "":
		cfg, err = train.LoadFile(train.ResolveConfigPath(*cfgPath, "configs"), sets)
		if err == nil {
			dir = freeDir(filepath.Join(*out, cfg.Name))
		}
	default:
		fmt.Fprintln(stderr, "train: no config: try -config configs/rebn_guess.yaml")
		return cli.ExitUsage
	}
	if err != nil {
		fmt.Fprintln(stderr, "train:", err)
		return cli.ExitUsage
	}
	if *printConfig {
		y, err := cfg.Marshal()
		if err != nil {
			fmt.Fprintln(stderr, "train:", err)
			return cli.ExitFailed
		}
		_, _ = stdout.Write(y)
		return cli.ExitOK
	}
	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "train:", err)
			return cli.ExitUsage
		}
		defer stopProfile()
	}
	prog := metrics.NewProgress(stdout, cfg.Iterations, metrics.IsTerminal(stdout))
	obs := &observer{p: prog, warmupEvery: max(cfg.Warmup.Steps/10, 1), last: cfg.Iterations, stderr: stderr}
	if *memProfile != "" {
		if obs.heap, err = os.Create(*memProfile); err != nil {
			fmt.Fprintln(stderr, "train: -memprofile:", err)
			return cli.ExitUsage
		}
		defer func() {
			if obs.heap != nil { // the run stopped before its last iteration
				writeHeapProfile(obs.heap, stderr)
			}
		}()
	}
	prog.Printf("run directory %s: %s on %s", dir, cfg.Algo.Name, cfg.EnvLabel())
	for _, c := range cfg.Cautions() {
		prog.Printf("caution: %s", c)
	}
	res, err := train.Run(ctx, cfg, builtin.Registry(), train.Options{Dir: dir, Resume: *resume != "", Observer: obs})
	_ = prog.Finish()
	if errors.Is(err, train.ErrFinished) {
		fmt.Fprintln(stdout, "train:", err)
		return cli.ExitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "train:", err)
		if errors.Is(err, train.ErrInterrupted) || ctx.Err() != nil {
			return cli.ExitInterrupted
		}
		return cli.ExitFailed
	}
	e := res.FinalEval
	fmt.Fprintf(stdout, "done in %s: %d iterations, %d env steps; greedy success %.3f on %d held-out episodes (best %.3f), %.2f turns per solved episode\n",
		res.Wall.Round(1e9), res.Iterations, res.EnvSteps, e.SuccessRate, e.Episodes, res.BestSuccess, e.SolvedTurns)
	fmt.Fprintf(stdout, "report: %s\n", filepath.Join(dir, train.ReportFile))
	return cli.ExitOK
}

// startCPUProfile starts writing a CPU profile to path; the returned
// function stops it and closes the file.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}

// writeHeapProfile writes the live heap (after a collection, so that it
// shows what the run holds) to f and closes it.
func writeHeapProfile(f *os.File, stderr io.Writer) {
	runtime.GC()
	err := pprof.WriteHeapProfile(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(stderr, "train: -memprofile:", err)
	}
}

// freeDir returns dir, or dir-2, dir-3, ... when dir already holds a run.
func freeDir(dir string) string {
	for i := 1; ; i++ {
		d := dir
		if i > 1 {
			d = fmt.Sprintf("%s-%d", dir, i)
		}
		if _, err := os.Stat(filepath.Join(d, train.ConfigFile)); err != nil {
			return d // free (or unusable: train.Run then says why)
		}
	}
}

// observer shows a run's progress.
type observer struct {
	p           *metrics.Progress
	warmupEvery int
	last        int       // the run's last iteration
	heap        *os.File  // -memprofile: written after the last iteration, while the run's state is live
	stderr      io.Writer // where a failed profile is reported
}

func (o *observer) Warmup(step, steps int, st policy.Stats) {
	if step%o.warmupEvery == 0 || step == steps {
		o.p.Printf("warm-up %d/%d: loss %.4f", step, steps, st.Loss)
	}
}

func (o *observer) Iteration(it int, m algo.Metrics) {
	o.p.Update(it, m)
	if it == o.last && o.heap != nil {
		writeHeapProfile(o.heap, o.stderr)
		o.heap = nil
	}
}

func (o *observer) Eval(e train.EvalResult) {
	m := e.Metrics()
	if e.ToolCalls == 0 {
		delete(m, "eval/tool_calls") // shown only where the policy calls tools
	}
	o.p.Eval(e.Iteration, m)
}
