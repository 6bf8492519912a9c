package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Command is the shape of every gemgo command: it reads its flags from args
// (ParseFlags), writes its output to stdout and its messages to stderr,
// stops when ctx is cancelled (saving what it must), and returns one of the
// Exit statuses.
type Command func(ctx context.Context, args []string, stdout, stderr io.Writer) int

// Main runs cmd as the process, with os.Args[1:], os.Stdout and os.Stderr,
// and exits with the status it returns. The first SIGINT or SIGTERM cancels
// cmd's context, and says on stderr that the command is stopping (stopping
// says how, e.g. "stopping at the next step and saving"); a command stopped
// so returns ExitInterrupted, but a server, whose job ends when it is asked
// to stop, drains and returns ExitOK. A second signal exits at once with
// ExitInterrupted, whatever cmd is waiting on: the commands write their
// files atomically, so what was saved stays whole.
func Main(name, stopping string, cmd Command) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go watch(sigs, cancel, os.Stderr, name, stopping, os.Exit)
	code := cmd(ctx, os.Args[1:], os.Stdout, os.Stderr)
	signal.Stop(sigs)
	cancel()
	os.Exit(code)
}

// watch handles the signals on sigs: the first calls cancel, the second
// calls exit(ExitInterrupted). It returns when sigs is closed.
func watch(sigs <-chan os.Signal, cancel context.CancelFunc, stderr io.Writer, name, stopping string, exit func(int)) {
	s, ok := <-sigs
	if !ok {
		return
	}
	cancel()
	fmt.Fprintf(stderr, "%s: %v: %s (once more to exit at once)\n", name, s, stopping)
	if s, ok = <-sigs; !ok {
		return
	}
	fmt.Fprintf(stderr, "%s: %v again: exiting now\n", name, s)
	exit(ExitInterrupted)
}
