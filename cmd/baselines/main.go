package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gemgo/gemgo/baselines"
	"github.com/gemgo/gemgo/compare"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/eval"
	"github.com/gemgo/gemgo/internal/atomicfile"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/internal/shard"
	"github.com/gemgo/gemgo/train"
	"golang.org/x/sys/cpu"
)

func main() {
	cli.Main("baselines", "every run stops at its next step and saves", run)
}

// run is the command: it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("baselines", flag.ContinueOnError)
	cli.SetUsage(fs, "usage: baselines [-config SUITE] [-out DIR] [-parallel N] [-only a,b] [-report] [-shard i/n | -merge]")
	suitePath := fs.String("config", filepath.Join("configs", "baselines", "suite.yaml"), "suite file")
	out := fs.String("out", "", "output directory (default runs/<suite name>)")
	parallel := fs.Int("parallel", runtime.GOMAXPROCS(0), "runs trained at once")
	only := fs.String("only", "", "comma-separated config names: train only these (the table still shows every config)")
	reportOnly := fs.Bool("report", false, "only (re)write the table and report from what is there")
	shardFlag := fs.String("shard", "", "train only shard i/n of the runs (0-based i: runs j with j mod n = i) and write no table; default: from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX when set")
	shards := fs.Int("shards", 0, "the shard count with JOB_COMPLETION_INDEX (else $"+shard.EnvCount+"), or that -merge names missing shards by")
	emit := shard.AddEmitFlags(fs)
	merge := fs.Bool("merge", false, "train nothing: write the table when every run is finished, else list the missing runs and the commands that run them")
	if code, ok := cli.ParseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	suite, entries, err := baselines.Load(*suitePath)
	if err != nil {
		fmt.Fprintln(stderr, "baselines:", err)
		return cli.ExitUsage
	}
	if *out == "" {
		name := suite.Name
		if name == "" {
			name = "baselines"
		}
		*out = filepath.Join("runs", name)
	}
	runs, err := suite.Plan(entries, *out)
	if err != nil {
		fmt.Fprintln(stderr, "baselines:", err)
		return cli.ExitUsage
	}
	todo, err := selectRuns(runs, entries, *only)
	if err != nil {
		fmt.Fprintln(stderr, "baselines:", err)
		return cli.ExitUsage
	}
	if *emit.Kind != "" {
		count := *shards
		if count == 0 {
			count = len(todo) // one run a task
		}
		text, err := emit.Emit(shard.Job{Name: "gemgo-baselines-" + filepath.Base(*out), Command: append([]string{"baselines"}, shard.Strip(args)...), Count: count, Out: *out})
		if err != nil {
			fmt.Fprintln(stderr, "baselines:", err)
			return cli.ExitUsage
		}
		fmt.Fprint(stdout, text)
		return cli.ExitOK
	}
	sh, err := shard.Resolve(*shardFlag, *shards, os.Getenv)
	if *merge || *reportOnly {
		sh, err = shard.Shard{}, nil // they train nothing
	}
	if err != nil {
		fmt.Fprintln(stderr, "baselines:", err)
		return cli.ExitUsage
	}
	if sh.On() {
		return runShard(ctx, suite.Name, todo, sh, *out, *parallel, args, stdout, stderr)
	}
	if *merge {
		if pend := compare.Missing(todo); len(pend) > 0 {
			count := *shards
			if count == 0 {
				count = compare.ShardCount(*out)
			}
			compare.PrintMissing(stderr, "baselines", pend, count, args)
			return cli.ExitFailed
		}
	}
	reg := builtin.Registry()
	var runErr error
	if !*reportOnly && !*merge {
		fmt.Fprintf(stdout, "suite %s: %d configs × %d seeds; %d runs to consider, %d at once, in %s\n",
			suite.Name, len(entries), len(suite.Seeds), len(todo), max(*parallel, 1), *out)
		start := time.Now()
		_, runErr = compare.Execute(ctx, todo, compare.ExecOptions{Parallel: *parallel, Registry: reg, Log: stdout})
		fmt.Fprintf(stdout, "suite wall time %s\n", time.Since(start).Round(time.Second))
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(stderr, "baselines:", err)
		return cli.ExitFailed
	}
	if _, err := atomicfile.RemoveStale(*out); err != nil {
		fmt.Fprintln(stderr, "baselines:", err)
		return cli.ExitFailed
	}
	refEntries := entries
	if *reportOnly {
		refEntries = nil // play nothing: use the references already there
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(baselines.ReferenceDir(*out, e.Name), eval.MetadataFile)); err == nil {
				refEntries = append(refEntries, e)
			}
		}
	}
	refs, refErr := baselines.References(context.WithoutCancel(ctx), refEntries, *out, reg, eval.DefaultOracles())
	if refErr != nil {
		fmt.Fprintln(stderr, "baselines:", refErr)
	}
	rows, byArm := baselines.Rows(suite, entries, runs, refs)
	table := baselines.Table(rows)
	md := compare.Markdown(table)
	machine := cpuModel()
	if err := atomicfile.WriteFile(filepath.Join(*out, baselines.TableFile), []byte(md+"\n"+baselines.Tally(rows)+"\n\nMachine: "+machine+"\n")); err != nil {
		fmt.Fprintln(stderr, "baselines:", err)
		return cli.ExitFailed
	}
	if err := baselines.WriteReport(filepath.Join(*out, baselines.ReportFile), suite, rows, byArm, machine); err != nil {
		fmt.Fprintln(stderr, "baselines: report:", err)
		return cli.ExitFailed
	}
	if err := compare.WriteSummary(filepath.Join(*out, compare.SummaryFile), baselines.NewSummary(suite, rows)); err != nil {
		fmt.Fprintln(stderr, "baselines: summary:", err)
		return cli.ExitFailed
	}
	fmt.Fprint(stdout, md)
	fmt.Fprintln(stdout, baselines.Tally(rows))
	fmt.Fprintln(stdout, "machine:", machine)
	fmt.Fprintln(stdout, "report:", filepath.Join(*out, baselines.ReportFile))
	switch {
	case runErr != nil:
		fmt.Fprintln(stderr, "baselines:", runErr)
		if errors.Is(runErr, train.ErrInterrupted) {
			return cli.ExitInterrupted
		}
		return cli.ExitFailed
	case refErr != nil:
		return cli.ExitFailed
	}
	return cli.ExitOK
}

// runShard trains shard sh's runs and writes no table: the merge does,
// once every shard is done (with the references: they are the merge's).
func runShard(ctx context.Context, name string, todo []compare.Run, sh shard.Shard, out string, parallel int, args []string, stdout, stderr io.Writer) int {
	mine := compare.Select(todo, sh)
	if err := compare.MarkShard(out, sh); err != nil {
		fmt.Fprintln(stderr, "baselines:", err)
		return cli.ExitFailed
	}
	fmt.Fprintf(stdout, "suite %s, shard %s: %d of %d runs, %d at once, in %s\n", name, sh, len(mine), len(todo), max(parallel, 1), out)
	start := time.Now()
	_, err := compare.Execute(ctx, mine, compare.ExecOptions{Parallel: parallel, Registry: builtin.Registry(), Log: stdout})
	fmt.Fprintf(stdout, "shard wall time %s\n", time.Since(start).Round(time.Second))
	if err != nil {
		fmt.Fprintln(stderr, "baselines:", err)
		if errors.Is(err, train.ErrInterrupted) {
			return cli.ExitInterrupted
		}
		return cli.ExitFailed
	}
	fmt.Fprintf(stdout, "shard %s done; when every shard is: %s\n", sh, shard.MergeCommand("baselines", args))
	return cli.ExitOK
}

// selectRuns keeps the runs of the configs -only names (all when empty).
func selectRuns(runs []compare.Run, entries []baselines.Entry, only string) ([]compare.Run, error) {
	if only == "" {
		return runs, nil
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		n = strings.TrimSpace(n)
		if !slices.Contains(names, n) {
			return nil, fmt.Errorf("-only %s: no such config in the suite (it has %s)", n, strings.Join(names, ", "))
		}
		want[n] = true
	}
	var out []compare.Run
	for _, r := range runs {
		if want[r.Arm] {
			out = append(out, r)
		}
	}
	return out, nil
}

// cpuModel names this machine's CPU, its core count and, on amd64, whether
// it has AVX-512 (the machines the figures come from differ in it).
func cpuModel() string {
	model := runtime.GOARCH
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	desc := fmt.Sprintf("%s, %d cores", model, runtime.NumCPU())
	if runtime.GOARCH != "amd64" {
		return desc
	}
	if cpu.X86.HasAVX512F {
		return desc + ", AVX-512: yes"
	}
	return desc + ", AVX-512: no"
}
