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
