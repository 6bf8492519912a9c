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
	"strings"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/eval"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/internal/cli/toolflag"
	"github.com/gemgo/gemgo/internal/shard"
	"github.com/gemgo/gemgo/metrics"
)

func main() {
	cli.Main("eval", "stopping; the finished episodes are kept", run)
}

// run is the command: it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	reg, tty := builtin.Registry(), metrics.IsTerminal(stderr)
	cfg := eval.DefaultConfig()
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	cli.SetUsage(fs, "usage: eval -policy P [-policy P ...] -env ID [-env ID ...] -out DIR [flags]")
	var policies, envIDs, opts, stops cli.Multi
	fs.Var(&policies, "policy", "a checkpoint file or run directory, random, oracle, or MODEL@URL (repeatable)")
	fs.Var(&envIDs, "env", "an env id, with options of its own after ?: eval:MATH500?answer_format=boxed&style=brief (repeatable)")
	envFile := fs.String("env-file", "", "a file of env ids, one a line (# comments)")
	fs.Var(&opts, "opt", "an env option key=value given to every env (repeatable), e.g. style=brief")
	var tls toolflag.Specs
	fs.Var(&tls, "tool", toolflag.Usage)
	episodes := &episodesFlag{n: &cfg.Episodes}
	fs.Var(episodes, "episodes", "seeds per env, or all: every item of a dataset env once, in file order (seeds from 0 unless -seed-base)")
	fs.IntVar(&cfg.Samples, "samples", cfg.Samples, "episodes per seed and policy (pass@k's n)")
	fs.Uint64Var(&cfg.SeedBase, "seed-base", cfg.SeedBase, "first env seed (default 2^41: disjoint from training's seeds)")
	fs.Float64Var(&cfg.Temperature, "temperature", cfg.Temperature, "sampling temperature; 0 is greedy")
	fs.Float64Var(&cfg.TopP, "top-p", cfg.TopP, "nucleus sampling mass; 0 or 1 is off")
	fs.IntVar(&cfg.MaxTokens, "max-tokens", cfg.MaxTokens, "tokens per answer at most; 0: the policy's default")
	fs.Var(&stops, "stop", "a stop string (repeatable, at most 4)")
	fs.StringVar(&cfg.System, "system", "", "a system prompt for chat models")
	protocol := fs.String("tool-protocol", eval.ProtocolText, "how endpoint policies call the tools: text (tags in the reply, as in training) or native (OpenAI function calling: tools[] and tool_calls)")
	fs.IntVar(&cfg.Concurrency, "concurrency", cfg.Concurrency, "episodes in flight at most")
	fs.DurationVar(&cfg.Timeout, "timeout", cfg.Timeout, "per request attempt to an endpoint")
	fs.IntVar(&cfg.Retries, "retries", cfg.Retries, "retries of a failed request to an endpoint (429, 5xx, timeouts)")
	out := fs.String("out", "", "output directory (required); a rerun into it resumes")
	shardFlag := fs.String("shard", "", "play only shard i/n of the episodes (0-based i), into DIR/shards/i-of-n; default: from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX when set")
	shards := fs.Int("shards", 0, "the shard count with JOB_COMPLETION_INDEX (else $"+shard.EnvCount+"), or that -merge names missing shards by")
	emit := shard.AddEmitFlags(fs)
	merge := fs.Bool("merge", false, "play nothing: write the results from DIR and its shards when every episode is there, else list what is missing")
	if code, ok := cli.ParseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if *envFile != "" {
		ids, err := readEnvFile(*envFile)
		if err != nil {
			fmt.Fprintln(stderr, "eval:", err)
			return cli.ExitUsage
		}
		envIDs = append(envIDs, ids...)
	}
	cfg.Policies, cfg.Envs, cfg.Stop, cfg.Tools = policies, envIDs, stops, tls
	if *protocol != eval.ProtocolText { // text is the zero value: it hashes as before the flag existed
		cfg.ToolProtocol = *protocol
	}
	if len(opts) > 0 {
		cfg.EnvOptions = map[string]any{}
		for _, o := range opts {
			k, v, ok := strings.Cut(o, "=")
			if !ok || strings.TrimSpace(k) == "" {
				fmt.Fprintf(stderr, "eval: -opt %q: want key=value\n", o)
				return cli.ExitUsage
			}
			cfg.EnvOptions[strings.TrimSpace(k)] = v
		}
	}
	if episodes.all {
		seedBaseSet := false
		fs.Visit(func(f *flag.Flag) { seedBaseSet = seedBaseSet || f.Name == "seed-base" })
		if err := resolveAll(reg, &cfg, seedBaseSet); err != nil {
			fmt.Fprintln(stderr, "eval:", err)
			return cli.ExitUsage
		}
	}
	if *out == "" {
		fmt.Fprintln(stderr, "eval: -out DIR is required (results are appended there; a rerun resumes)")
		return cli.ExitUsage
	}
	if err := cfg.Validate(); err != nil {
		fmt.Fprintln(stderr, "eval:", err)
		return cli.ExitUsage
	}
	if *emit.Kind != "" {
		text, err := emit.Emit(shard.Job{Name: "gemgo-eval-" + filepath.Base(*out), Command: append([]string{"eval"}, shard.Strip(args)...), Count: *shards, Out: *out})
		if err != nil {
			fmt.Fprintln(stderr, "eval:", err)
			return cli.ExitUsage
		}
		fmt.Fprint(stdout, text)
		return cli.ExitOK
	}
	sh, err := shard.Resolve(*shardFlag, *shards, os.Getenv)
	if *merge {
		sh, err = shard.Shard{}, nil // the merge reads every shard
	}
	if err != nil {
		fmt.Fprintln(stderr, "eval:", err)
		return cli.ExitUsage
	}
	oracles := eval.DefaultOracles()
	var named []eval.Named
	for _, spec := range cfg.Policies {
		op, err := eval.OpenPolicy(spec, cfg, oracles, os.Getenv("OPENAI_API_KEY"))
		if err != nil {
			fmt.Fprintln(stderr, "eval:", err)
			return cli.ExitUsage
		}
		if op.Closer != nil {
			defer op.Closer.Close()
		}
		if op.Checkpoint != nil {
			warnOptions(stderr, spec, op.Checkpoint.EnvOptions, cfg.EnvOptions)
		}
		named = append(named, op.Named(spec))
	}
	md, err := eval.Run(ctx, cfg, named, eval.Options{Dir: *out, Registry: reg, Progress: stderr, TTY: tty, Shard: sh, Merge: *merge, Shards: *shards})
	if miss := (*eval.MissingError)(nil); errors.As(err, &miss) {
		printMissing(stderr, miss, args)
		return cli.ExitFailed
	}
	if sh.On() && err == nil {
		fmt.Fprintf(stderr, "eval: shard %s: %d episodes played into %s; when every shard is done: %s\n", sh, md.Played, eval.ShardDir(*out, sh), shard.MergeCommand("eval", args))
		return cli.ExitOK
	}
	if md.Hash != "" && !sh.On() {
		fmt.Fprint(stdout, eval.Markdown(md))
	}
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(stderr, "eval: interrupted; the finished episodes are in %s: rerun the same command to continue\n", *out)
		return cli.ExitInterrupted
	case err != nil:
		fmt.Fprintln(stderr, "eval:", err)
		if md.Hash == "" && strings.Contains(err.Error(), "-env") {
			return cli.ExitUsage
		}
		return cli.ExitFailed
	}
	fmt.Fprintf(stderr, "eval: %d episodes played; results in %s\n", md.Played, *out)
	return cli.ExitOK
}

// printMissing lists the shards a merge still lacks, each with the
// command that plays it.
func printMissing(w io.Writer, miss *eval.MissingError, args []string) {
	fmt.Fprintln(w, "eval: not merged:", miss)
	if miss.Count == 0 {
		fmt.Fprintf(w, "eval: play them with: %s\n", shard.PlainCommand("eval", args))
		return
	}
	for _, i := range miss.Indexes() {
		fmt.Fprintf(w, "eval: missing shard %d/%d: %s\n", i, miss.Count, shard.Command("eval", args, shard.Shard{Index: i, Count: miss.Count}))
	}
	fmt.Fprintf(w, "eval: as a Slurm array: sbatch --array=%s SCRIPT (the script that ran the shards)\n", shard.ArrayList(miss.Indexes()))
}

// warnOptions notes where a checkpoint's training env options differ from
// the evaluation's: the policy then plays text it never saw.
func warnOptions(w io.Writer, spec string, trained, evalOpts map[string]any) {
	for k, v := range trained {
		if ev, ok := evalOpts[k]; !ok || fmt.Sprint(ev) != fmt.Sprint(v) {
			fmt.Fprintf(w, "eval: note: %s was evaluated in training with env option %s=%v, this evaluation has %s (add -opt %s=%v to match)\n", spec, k, v, optText(ev, ok), k, v)
		}
	}
}

func optText(v any, ok bool) string {
	if !ok {
		return "the default"
	}
	return fmt.Sprint(v)
}

func readEnvFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("-env-file: %w", err)
	}
	defer f.Close()
	var ids []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, "#"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line != "" {
			ids = append(ids, line)
		}
	}
	return ids, sc.Err()
}
