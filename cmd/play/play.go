package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envbuild"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/internal/cli/toolflag"
)

// run is the whole command: the built-in registry, actions from the
// process's stdin.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return player{reg: builtin.Registry(), stdin: os.Stdin}.run(ctx, args, stdout, stderr)
}

// player is the command over any registry and input (tests give theirs).
type player struct {
	reg   *envs.Registry
	stdin io.Reader // the actions, one a line
}

// optFlag collects repeated -opt key=value flags.
type optFlag []envs.Option

func (o *optFlag) String() string { return fmt.Sprint(len(*o), " options") }

func (o *optFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return fmt.Errorf("want key=value, got %q", s)
	}
	*o = append(*o, envs.With(k, v)) // the env's Options parse the text
	return nil
}

// run is the command with p's registry and input.
func (p player) run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	reg, stdin := p.reg, p.stdin
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	cli.SetUsage(fs,
		"usage: play -env ID [-seed N] [-style gem|brief] [-opt key=value ...] [-tool SPEC ...] < actions",
		"       play -list")
	id := fs.String("env", "", "env id to play (see -list)")
	seed := fs.Uint64("seed", 0, "episode seed: same seed, same game")
	style := fs.String("style", "", "instruction style: gem or brief (default: the env's)")
	list := fs.Bool("list", false, "print every env id by category with its description")
	var opts optFlag
	fs.Var(&opts, "opt", "env option key=value (repeatable)")
	var tls toolflag.Specs
	fs.Var(&tls, "tool", toolflag.Usage)
	if code, ok := cli.ParseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if *list {
		printList(stdout, reg)
		return cli.ExitOK
	}
	if *id == "" {
		fmt.Fprintln(stderr, "play: -env is required, e.g. -env game:GuessTheNumber-v0-easy (-list prints every id)")
		return cli.ExitUsage
	}
	if *style != "" {
		for _, o := range opts {
			if o.Name == "style" {
				fmt.Fprintln(stderr, "play: give the style once: -style or -opt style=..., not both")
				return cli.ExitUsage
			}
		}
		opts = append(opts, envs.With("style", *style))
	}
	env, err := envbuild.Make(ctx, reg, envbuild.Config{ID: *id, Options: opts, Tools: tls})
	var te *envbuild.ToolsError
	if errors.As(err, &te) {
		fmt.Fprintf(stderr, "play: -tool: %v\n", te.Err)
		return cli.ExitFailed
	}
	if err != nil {
		fmt.Fprintf(stderr, "play: %v\n", err)
		return cli.ExitFailed
	}
	defer func() {
		if err := envs.Close(env); err != nil {
			fmt.Fprintf(stderr, "play: close: %v\n", err)
		}
	}()
	if err := playEpisode(ctx, envs.NewEpisodeStats(env), *id, *seed, stdin, stdout, !isTerminal(stdin)); err != nil {
		fmt.Fprintf(stderr, "play: %v\n", err)
		return cli.ExitFailed
	}
	if ctx.Err() != nil {
		return cli.ExitInterrupted
	}
	return cli.ExitOK
}

// printList prints every id under its category (the part before ':').
func printList(w io.Writer, reg *envs.Registry) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	last := ""
	for _, id := range reg.IDs() {
		cat, _, _ := strings.Cut(id, ":")
		if cat != last {
			if last != "" {
				fmt.Fprintln(tw)
			}
			fmt.Fprintf(tw, "%s\n", cat)
			last = cat
		}
		fmt.Fprintf(tw, "  %s\t%s\n", id, reg.Description(id))
	}
	tw.Flush()
}

// lines reads stdin one line at a time in its own goroutine, so that an
// interrupt is not stuck behind a blocking read.
func lines(r io.Reader) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		br := bufio.NewReader(r)
		for {
			s, err := br.ReadString('\n')
			if s != "" || err == nil {
				ch <- strings.TrimRight(s, "\r\n")
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

// isTerminal reports whether r is an interactive terminal.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// playEpisode plays one episode; echo repeats each action after the prompt
// (for scripted input, which the terminal does not show).
func playEpisode(ctx context.Context, env envs.Env, id string, seed uint64, stdin io.Reader, out io.Writer, echo bool) error {
	obs, info, err := env.Reset(seed)
	if err != nil {
		return fmt.Errorf("reset %s with seed %d: %w", id, seed, err)
	}
	fmt.Fprintf(out, "== %s seed %d (max_turns %v)\n%s\n", id, seed, info[envs.InfoMaxTurns], obs)
	in := lines(stdin)
	ret, turns := 0.0, 0
	for {
		fmt.Fprint(out, "> ")
		var action string
		var ok bool
		select {
		case <-ctx.Done():
			fmt.Fprintf(out, "\nstopped after %d turns: %v (return %g)\n", turns, ctx.Err(), ret)
			return nil
		case action, ok = <-in:
		}
		if !ok {
			fmt.Fprintf(out, "\nstopped after %d turns: no more input (return %g)\n", turns, ret)
			return nil
		}
		if echo {
			fmt.Fprintln(out, action)
		}
		st, err := env.Step(action)
		if err != nil {
			return fmt.Errorf("step %d: %w", turns+1, err)
		}
		turns++
		ret += st.Reward
		fmt.Fprintf(out, "reward %g  terminated %t  truncated %t%s\n", st.Reward, st.Terminated, st.Truncated, infoText(st.Info))
		fmt.Fprintln(out, st.Obs)
		if st.Done() {
			how := "terminated"
			if st.Truncated {
				how = "truncated"
			}
			sum, _ := envs.SummaryOf(st.Info)
			fmt.Fprintf(out, "== episode over: %s, success %t, return %g, turns %d\n", how, sum.Success, sum.Return, sum.Turns)
			return nil
		}
	}
}

// infoText shows a step's Info (but the episode statistics, printed at the
// end) as "  key=value ...", sorted, long values cut.
func infoText(info envs.Info) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(info)) {
		switch k {
		case envs.InfoEpisodeReturn, envs.InfoEpisodeTurns, envs.InfoEpisodeSuccess:
			continue
		}
		v := fmt.Sprint(info[k])
		if len(v) > 60 {
			v = v[:57] + "..."
		}
		fmt.Fprintf(&b, "  %s=%s", k, v)
	}
	return b.String()
}
