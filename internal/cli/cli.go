// Package cli holds the shape every gemgo command shares: the Command
// signature and Main, which runs one as the process (SIGINT and SIGTERM
// cancel its context; a second signal exits at once); ParseFlags (-h prints
// the usage on stdout and exits 0, a bad flag is one line on stderr and
// exit 2); the exit statuses; a repeatable string flag; and the -tool flag
// of the commands that play envs.
package cli

import "strings"

// Exit statuses of every gemgo command; a command returns no other.
const (
	ExitOK          = 0   // done (and -h)
	ExitFailed      = 1   // the work failed (the message says why)
	ExitUsage       = 2   // bad command line or config
	ExitInterrupted = 130 // stopped by SIGINT or SIGTERM (128 + SIGINT); what was finished is kept
)

// Multi is a repeatable string flag (-set a=1 -set b=2): each use appends.
type Multi []string

// String joins the values with spaces.
func (m *Multi) String() string { return strings.Join(*m, " ") }

// Set appends s.
func (m *Multi) Set(s string) error { *m = append(*m, s); return nil }
