package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/metrics"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/train"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, metrics.IsTerminal(os.Stdout))
	stop()
	os.Exit(code)
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, " ") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

// run is the command: it returns the exit status (0 done, 1 failed or
// interrupted, 2 bad usage or config).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, tty bool) int {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "config file, or a bare name looked up in configs/ (e.g. rebn_guess)")
	out := fs.String("out", "runs", "parent directory of the run directory")
	resume := fs.String("resume", "", "continue the run in this directory from its checkpoint")
	seed := fs.String("seed", "", "override the config's seed")
	var sets multi
	fs.Var(&sets, "set", "override a config key: section.key=value (repeatable)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "train: unexpected argument %q (flags only; see -h)\n", fs.Arg(0))
		return 2
	}
	if *seed != "" {
		if _, err := strconv.ParseUint(*seed, 10, 64); err != nil {
			fmt.Fprintf(stderr, "train: -seed %q: want a non-negative whole number\n", *seed)
			return 2
		}
		sets = append(sets, "seed="+*seed)
	}
	var cfg train.Config
	var err error
	dir := *resume
	switch {
	case *resume != "" && *cfgPath != "":
		fmt.Fprintln(stderr, "train: give -config for a new run or -resume for an old one, not both (a resumed run reads its own config.yaml)")
		return 2
	case *resume != "":
		cfg, err = train.LoadFile(filepath.Join(*resume, train.ConfigFile), sets)
	case *cfgPath != "":
		cfg, err = train.LoadFile(train.ResolveConfigPath(*cfgPath, "configs"), sets)
		if err == nil {
			dir = freeDir(filepath.Join(*out, cfg.Name))
		}
	default:
		fmt.Fprintln(stderr, "train: no config: try -config configs/rebn_guess.yaml")
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "train:", err)
		return 2
	}
	prog := metrics.NewProgress(stdout, cfg.Iterations, tty)
	obs := &observer{p: prog, warmupEvery: max(cfg.Warmup.Steps/10, 1)}
	prog.Printf("run directory %s: %s on %s", dir, cfg.Algo.Name, cfg.Env.ID)
	res, err := train.Run(ctx, cfg, builtin.Registry(), train.Options{Dir: dir, Resume: *resume != "", Observer: obs})
	_ = prog.Finish()
	if err != nil {
		fmt.Fprintln(stderr, "train:", err)
		return 1
	}
	e := res.FinalEval
	fmt.Fprintf(stdout, "done in %s: %d iterations, %d env steps; greedy success %.3f on %d held-out episodes (best %.3f), %.2f turns per solved episode\n",
		res.Wall.Round(1e9), res.Iterations, res.EnvSteps, e.SuccessRate, e.Episodes, res.BestSuccess, e.SolvedTurns)
	fmt.Fprintf(stdout, "report: %s\n", filepath.Join(dir, train.ReportFile))
	return 0
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
}

func (o *observer) Warmup(step, steps int, st policy.Stats) {
	if step%o.warmupEvery == 0 || step == steps {
		o.p.Printf("warm-up %d/%d: loss %.4f", step, steps, st.Loss)
	}
}

func (o *observer) Iteration(it int, m algo.Metrics) { o.p.Update(it, m) }

func (o *observer) Eval(e train.EvalResult) {
	o.p.Eval(e.Iteration, map[string]float64{"eval/success_rate": e.SuccessRate, "eval/return": e.MeanReturn, "eval/turns": e.MeanTurns, "eval/solved_turns": e.SolvedTurns})
}
