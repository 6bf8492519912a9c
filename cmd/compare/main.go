package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/gemgo/gemgo/compare"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/train"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		// The first Ctrl-C lets every running run save a checkpoint; a
		// second one kills the process.
		<-ctx.Done()
		stop()
	}()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command; it returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "sweep file (a bare name is looked up in configs/), e.g. compare_guess")
	out := fs.String("out", "", "output directory (default runs/compare/<sweep name>)")
	parallel := fs.Int("parallel", runtime.GOMAXPROCS(0), "runs trained at once")
	reportOnly := fs.Bool("report", false, "only (re)write the report from the runs already there")
	var sets multi
	fs.Var(&sets, "set", "override key=value applied to every run (repeatable)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *cfgPath == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "compare: give a sweep with -config (configs/compare_*.yaml are shipped), and no positional arguments")
		return 2
	}
	spec, err := compare.LoadSpec(*cfgPath, "configs")
	if err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return 2
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
		return 2
	}
	report := filepath.Join(*out, compare.ReportFile)
	var runErr error
	if !*reportOnly {
		fmt.Fprintf(stdout, "sweep %s: %d arms × %d seeds = %d runs, %d at once, in %s\n",
			spec.Name, len(spec.Arms), len(spec.Seeds), len(runs), max(*parallel, 1), *out)
		start := time.Now()
		_, runErr = compare.Execute(ctx, runs, compare.ExecOptions{Parallel: *parallel, Registry: builtin.Registry(), Log: stdout})
		fmt.Fprintf(stdout, "sweep wall time %s\n", time.Since(start).Round(time.Second))
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(stderr, "compare:", err)
		return 1
	}
	if err := compare.WriteReport(report, spec, runs); err != nil {
		fmt.Fprintln(stderr, "compare: report:", err)
		return 1
	}
	sums, _ := compare.Summaries(spec, runs)
	for _, row := range compare.SummaryTable(sums, spec.Threshold) {
		fmt.Fprintln(stdout, strings.Join(row, " | "))
	}
	fmt.Fprintln(stdout, "report:", report)
	if runErr != nil {
		fmt.Fprintln(stderr, "compare:", runErr)
		if errors.Is(runErr, train.ErrInterrupted) {
			return 130
		}
		return 1
	}
	return 0
}
