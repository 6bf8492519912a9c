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
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gemgo/gemgo/compare"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/internal/atomicfile"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/internal/shard"
	"github.com/gemgo/gemgo/train"
)

func main() {
	cli.Main("compare", "every run stops at its next step and saves", run)
}

// run is the whole command; it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	cli.SetUsage(fs, "usage: compare -config SWEEP [-set key=value ...] [-out DIR] [-parallel N] [-report] [-print-config] [-shard i/n | -merge]")
	cfgPath := fs.String("config", "", "sweep file (a bare name is looked up in configs/), e.g. compare_guess")
	out := fs.String("out", "", "output directory (default runs/compare/<sweep name>)")
	parallel := fs.Int("parallel", runtime.GOMAXPROCS(0), "runs trained at once")
	reportOnly := fs.Bool("report", false, "only (re)write the report from the runs already there")
	printConfig := fs.Bool("print-config", false, "print the resolved sweep (every arm's training config) as YAML and exit")
	shardFlag := fs.String("shard", "", "run only shard i/n of the runs (0-based i: runs j with j mod n = i) and write no report; default: from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX when set")
	shards := fs.Int("shards", 0, "the shard count with JOB_COMPLETION_INDEX (else $"+shard.EnvCount+"), or that -merge names missing shards by")
	emit := shard.AddEmitFlags(fs)
	merge := fs.Bool("merge", false, "run nothing: write the report when every run is finished, else list the missing runs and the commands that run them")
	var sets cli.Multi
	fs.Var(&sets, "set", "override key=value applied to every run (repeatable)")
	if code, ok := cli.ParseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if *cfgPath == "" {
		fmt.Fprintln(stderr, "compare: give a sweep with -config (configs/compare_*.yaml are shipped)")
		return cli.ExitUsage
	}
	spec, err := compare.LoadSpec(*cfgPath, "configs")
	if err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return cli.ExitUsage
	}
	if *out == "" {
		name := spec.Name
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(*cfgPath), ".yaml")
		}
		*out = filepath.Join("runs", "compare", name)
	}
	runs, err := spec.Plan(*out, sets)
	if err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return cli.ExitUsage
	}
	if *printConfig {
		y, err := resolvedSpec(spec, runs, *out)
		if err != nil {
			fmt.Fprintln(stderr, "compare:", err)
			return cli.ExitFailed
		}
		_, _ = stdout.Write(y)
		return cli.ExitOK
	}
	if *emit.Kind != "" {
		count := *shards
		if count == 0 {
			count = len(runs) // one run a task
		}
		text, err := emit.Emit(shard.Job{Name: "gemgo-compare-" + filepath.Base(*out), Command: append([]string{"compare"}, shard.Strip(args)...), Count: count, Out: *out})
		if err != nil {
			fmt.Fprintln(stderr, "compare:", err)
			return cli.ExitUsage
		}
		fmt.Fprint(stdout, text)
		return cli.ExitOK
	}
	sh, err := shard.Resolve(*shardFlag, *shards, os.Getenv)
	if *merge || *reportOnly {
		sh, err = shard.Shard{}, nil // they run nothing
	}
	if err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return cli.ExitUsage
	}
	if sh.On() {
		return runShard(ctx, spec, runs, sh, *out, *parallel, args, stdout, stderr)
	}
	if *merge {
		if pend := compare.Missing(runs); len(pend) > 0 {
			count := *shards
			if count == 0 {
				count = compare.ShardCount(*out)
			}
			compare.PrintMissing(stderr, "compare", pend, count, args)
			return cli.ExitFailed
		}
	}
	report := filepath.Join(*out, compare.ReportFile)
	var runErr error
	if !*reportOnly && !*merge {
		fmt.Fprintf(stdout, "sweep %s: %d arms × %d seeds = %d runs, %d at once, in %s\n",
			spec.Name, len(spec.Arms), len(spec.Seeds), len(runs), max(*parallel, 1), *out)
		start := time.Now()
		_, runErr = compare.Execute(ctx, runs, compare.ExecOptions{Parallel: *parallel, Registry: builtin.Registry(), Log: stdout})
		fmt.Fprintf(stdout, "sweep wall time %s\n", time.Since(start).Round(time.Second))
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return cli.ExitFailed
	}
	if _, err := atomicfile.RemoveStale(*out); err != nil { // a killed report write's litter
		fmt.Fprintln(stderr, "compare:", err)
		return cli.ExitFailed
	}
	loaded := compare.Load(spec, runs) // read once: the report, table and summary agree
	if err := compare.WriteReport(report, loaded); err != nil {
		fmt.Fprintln(stderr, "compare: report:", err)
		return cli.ExitFailed
	}
	sums := loaded.Sums
	for _, row := range compare.SummaryTable(sums, spec.Threshold) {
		fmt.Fprintln(stdout, strings.Join(row, " | "))
	}
	pairs := compare.SweepPairs(sums)
	sum := compare.NewSummary(spec.Name, spec.Threshold, sums, pairs)
	md := compare.Markdown(compare.SummaryTable(sums, spec.Threshold))
	if len(sums) > 1 {
		fmt.Fprintln(stdout)
		pt := compare.PairTable(pairs)
		for _, row := range pt {
			fmt.Fprintln(stdout, strings.Join(row, " | "))
		}
		md += "\n" + compare.Markdown(pt)
	}
	if c := loaded.StepsCaution(); c != "" {
		fmt.Fprintln(stdout, "\ncaution:", c)
		md += "\n" + c + "\n"
	}
	if err := atomicfile.WriteFile(filepath.Join(*out, compare.TableFile), []byte(md)); err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return cli.ExitFailed
	}
	if err := compare.WriteSummary(filepath.Join(*out, compare.SummaryFile), sum); err != nil {
		fmt.Fprintln(stderr, "compare: summary:", err)
		return cli.ExitFailed
	}
	fmt.Fprintln(stdout, "summary:", filepath.Join(*out, compare.SummaryFile))
	fmt.Fprintln(stdout, "report:", report)
	if runErr != nil {
		fmt.Fprintln(stderr, "compare:", runErr)
		if errors.Is(runErr, train.ErrInterrupted) {
			return cli.ExitInterrupted
		}
		return cli.ExitFailed
	}
	return cli.ExitOK
}

// runShard runs shard sh's runs of the sweep and writes no report: the
// merge does, once every shard is done.
func runShard(ctx context.Context, spec compare.Spec, runs []compare.Run, sh shard.Shard, out string, parallel int, args []string, stdout, stderr io.Writer) int {
	mine := compare.Select(runs, sh)
	if err := compare.MarkShard(out, sh); err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return cli.ExitFailed
	}
	fmt.Fprintf(stdout, "sweep %s, shard %s: %d of %d runs, %d at once, in %s\n", spec.Name, sh, len(mine), len(runs), max(parallel, 1), out)
	start := time.Now()
	_, err := compare.Execute(ctx, mine, compare.ExecOptions{Parallel: parallel, Registry: builtin.Registry(), Log: stdout})
	fmt.Fprintf(stdout, "shard wall time %s\n", time.Since(start).Round(time.Second))
	if err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		if errors.Is(err, train.ErrInterrupted) {
			return cli.ExitInterrupted
		}
		return cli.ExitFailed
	}
	fmt.Fprintf(stdout, "shard %s done; when every shard is: %s\n", sh, shard.MergeCommand("compare", args))
	return cli.ExitOK
}

// resolvedSpec renders the sweep as it will run: its fields, and each
// arm's training config (that of its first seed: the others differ only in
// seed and name).
func resolvedSpec(spec compare.Spec, runs []compare.Run, out string) ([]byte, error) {
	type arm struct {
		Name   string       `yaml:"name"`
		Config train.Config `yaml:"config"`
	}
	doc := struct {
		Name      string   `yaml:"name"`
		Out       string   `yaml:"out"`
		Seeds     []uint64 `yaml:"seeds"`
		Threshold float64  `yaml:"threshold"`
		// ShareWarmup is shown only when set: the arms of a seed start
		// from one warm-up
		ShareWarmup bool  `yaml:"share_warmup,omitempty"`
		Arms        []arm `yaml:"arms"`
	}{Name: spec.Name, Out: out, Seeds: spec.Seeds, Threshold: spec.Threshold, ShareWarmup: spec.ShareWarmup}
	for _, a := range spec.Arms {
		for _, r := range runs {
			if r.Arm == a.Name {
				doc.Arms = append(doc.Arms, arm{Name: a.Name, Config: r.Cfg})
				break
			}
		}
	}
	return yaml.Marshal(doc)
}
