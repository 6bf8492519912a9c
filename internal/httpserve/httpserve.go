// Package httpserve runs an HTTP server until its context ends and then
// shuts it down gracefully: the loop every gemgo server command shares
// (cmd/serve through package serve, cmd/envserver, cmd/toolserver).
//
// Every server it runs is bounded against idle and slow clients (Limits):
// a cap on connections that closes the longest idle one to make room for
// a new one, an idle timeout for keep-alive connections, and deadlines
// for a request's headers and body. 20,000 idle keep-alive connections
// leave a new request answered in milliseconds
// (TestIdleConnectionsDefaultScale).
package httpserve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Config is one server run.
type Config struct {
	Addr    string       // host:port to listen on (port 0 picks a free one)
	Handler http.Handler // what to serve
	Grace   time.Duration
	// Ready, when not nil, receives the bound address once the server
	// accepts connections.
	Ready func(addr string)
	// Drain, when not nil, runs after ctx ends and before the HTTP server
	// shuts down, with the same grace deadline: a server of long-lived
	// connections (WebSocket sessions) closes them cleanly there, since
	// http.Server.Shutdown does not wait for hijacked connections.
	Drain func(ctx context.Context) error
	// Limits bound connections and slow clients; zero values are the
	// defaults.
	Limits Limits
}

// Run listens on c.Addr and serves c.Handler until ctx is done; then it
// stops accepting, runs c.Drain, lets requests in flight finish (all
// within c.Grace) and returns. It returns at once with the error when
// listening or serving fails.
func Run(ctx context.Context, c Config) error {
	if err := c.Limits.Validate(); err != nil {
		return err
	}
	lim := c.Limits.withDefaults(raiseFileLimit())
	inner, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (is another server using the port? choose another with -addr)", c.Addr, err)
	}
	ln := newCapListener(inner, lim.MaxConns)
	hs := &http.Server{
		Handler:           withBodyDeadline(c.Handler, lim.BodyTimeout),
		ReadHeaderTimeout: lim.HeaderTimeout,
		IdleTimeout:       lim.IdleTimeout,
		ConnState:         ln.track,
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	if c.Ready != nil {
		c.Ready(ln.Addr().String())
	}
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), c.Grace)
	defer cancel()
	var derr error
	if c.Drain != nil {
		derr = c.Drain(sctx)
	}
	herr := hs.Shutdown(sctx)
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		herr = errors.Join(herr, err)
	}
	if herr != nil {
		herr = fmt.Errorf("shutdown: %w", herr)
	}
	return errors.Join(derr, herr)
}
