package httpserve

import (
	"fmt"
	"syscall"
	"time"
)

// Limits bound what one client can hold on a server: connections, idle
// time and the time to send a request. Zero values mean the defaults.
type Limits struct {
	// MaxConns is the most connections held at once, WebSockets included.
	// At the cap, a new connection closes the connection that has been
	// idle longest (an idle keep-alive one, or one that has sent nothing
	// yet) and takes its place; when none is idle it waits in the kernel's
	// backlog until one closes. Default DefaultMaxConns, and never more
	// than 3/4 of the process's open-file limit (RLIMIT_NOFILE), so that
	// the server keeps descriptors for its own files and children.
	MaxConns int
	// IdleTimeout closes a keep-alive connection that sends no request
	// for this long. Default DefaultIdleTimeout.
	IdleTimeout time.Duration
	// HeaderTimeout is the time a client has to send a request's headers.
	// Default DefaultHeaderTimeout.
	HeaderTimeout time.Duration
	// BodyTimeout is the time a client has to send a request's body,
	// counted from the end of its headers. A body still arriving then is
	// cut: reads fail with an error that matches os.ErrDeadlineExceeded,
	// and the connection closes after the reply. Requests without a body
	// (a WebSocket upgrade among them) have no such deadline, so
	// long-lived WebSocket sessions are not cut. Default
	// DefaultBodyTimeout.
	BodyTimeout time.Duration
}

// Defaults of Limits.
const (
	DefaultMaxConns      = 4096
	DefaultIdleTimeout   = 30 * time.Second
	DefaultHeaderTimeout = 10 * time.Second
	DefaultBodyTimeout   = 30 * time.Second
)

// Validate checks that no limit is negative.
func (l Limits) Validate() error {
	switch {
	case l.MaxConns < 0:
		return fmt.Errorf("max connections = %d: want 0 (the default, %d) or more", l.MaxConns, DefaultMaxConns)
	case l.IdleTimeout < 0:
		return fmt.Errorf("idle timeout = %s: want 0 (the default, %s) or more", l.IdleTimeout, DefaultIdleTimeout)
	case l.HeaderTimeout < 0:
		return fmt.Errorf("header timeout = %s: want 0 (the default, %s) or more", l.HeaderTimeout, DefaultHeaderTimeout)
	case l.BodyTimeout < 0:
		return fmt.Errorf("body timeout = %s: want 0 (the default, %s) or more", l.BodyTimeout, DefaultBodyTimeout)
	}
	return nil
}

// withDefaults fills zero limits; fdLimit is the open-file limit (0 when
// unknown), which caps MaxConns at 3/4 of it.
func (l Limits) withDefaults(fdLimit uint64) Limits {
	if l.MaxConns == 0 {
		l.MaxConns = DefaultMaxConns
	}
	if fdLimit > 0 {
		l.MaxConns = int(min(uint64(l.MaxConns), max(fdLimit/4*3, 1)))
	}
	if l.IdleTimeout == 0 {
		l.IdleTimeout = DefaultIdleTimeout
	}
	if l.HeaderTimeout == 0 {
		l.HeaderTimeout = DefaultHeaderTimeout
	}
	if l.BodyTimeout == 0 {
		l.BodyTimeout = DefaultBodyTimeout
	}
	return l
}

// raiseFileLimit lifts the soft open-file limit to the hard one when it
// is lower and returns the limit in force (0 when unknown). The Go
// runtime already raises it once at start; this covers a limit lowered
// since (prlimit(1) on the running process).
func raiseFileLimit() uint64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0
	}
	if r.Cur < r.Max {
		up := r
		up.Cur = r.Max
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &up) == nil {
			return up.Cur
		}
	}
	return r.Cur
}
