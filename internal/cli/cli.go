// Package cli holds what gemgo's commands share on the command line: the
// exit statuses every command uses, a repeatable string flag, the -tool
// flag of the commands that play envs, and the interrupt handling of the
// commands that train.
package cli

import (
	"context"
	"os"
	"os/signal"
	"strings"
)

// Exit statuses of every gemgo command.
const (
	ExitOK          = 0   // done
	ExitFailed      = 1   // the work failed (the message says why)
	ExitUsage       = 2   // bad command line or config
	ExitInterrupted = 130 // stopped by an interrupt (128 + SIGINT); what was finished is kept
)

// Multi is a repeatable string flag (-set a=1 -set b=2): each use appends.
type Multi []string

// String joins the values with spaces.
func (m *Multi) String() string { return strings.Join(*m, " ") }

// Set appends s.
func (m *Multi) Set(s string) error { *m = append(*m, s); return nil }

// SaveOnInterrupt returns a context that the first Ctrl-C (SIGINT) cancels,
// so that long work (training runs) can save a checkpoint and stop; the
// second Ctrl-C then kills the process as usual. Call stop when done.
func SaveOnInterrupt() (ctx context.Context, stop func()) {
	ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt)
	go func() {
		<-ctx.Done()
		stop() // back to the default: the next SIGINT kills
	}()
	return ctx, stop
}
