package remote

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envbuild"
	"github.com/gemgo/gemgo/envs/remote/wire"
)

// Config is a server's limits. Zero values mean the defaults.
type Config struct {
	// DefaultID is the env a session plays when neither its route
	// (/e/{id}/ws) nor its reset data (env_id) names one; "" requires one.
	DefaultID string
	// MaxSessions is the most WebSocket sessions held at once (OpenEnv's
	// max_concurrent_envs); one more is answered CAPACITY_REACHED and
	// closed. Default 1024.
	MaxSessions int
	// IdleTimeout closes a session that sends nothing for this long.
	// Default 10 minutes.
	IdleTimeout time.Duration
	// MaxMessageBytes is the largest client message; a larger one closes
	// the session with status 1009 (message too big). Default 8 MiB: an
	// action of a few megabytes (CheckEnv's hostile inputs reach 1 MiB)
	// fits.
	MaxMessageBytes int64
	// WriteTimeout drops a session whose client does not read a reply
	// within this long. Default 30 s.
	WriteTimeout time.Duration
	// Version is reported by /metadata.
	Version string
	// Tools lists the tool kinds a client may wrap its env with in the
	// reset data (tools: [{"name": "python"}]), from ServableTools; empty
	// serves none. The tools run on the server: a python tool runs the
	// model's code (in package sandbox) on this machine.
	Tools []string
	// AllowOptions names env options a client may set though their env
	// declares them server-only (a file path, the python program, the
	// sandbox isolation: see envs.ClientPolicy); empty allows none. A
	// resource option named here has no cap but its validated range.
	AllowOptions []string
	// OptionCaps replaces the cap a resource option declares for clients
	// (envs.Options.Resource; the code envs' timeout, say), by option
	// name; each must be > 0. A client's value above the cap is refused,
	// naming the cap.
	OptionCaps map[string]float64
}

// Defaults of Config.
const (
	DefaultMaxSessions     = 1024
	DefaultIdleTimeout     = 10 * time.Minute
	DefaultMaxMessageBytes = 8 << 20
	DefaultWriteTimeout    = 30 * time.Second
)

func (c Config) withDefaults() Config {
	if c.MaxSessions <= 0 {
		c.MaxSessions = DefaultMaxSessions
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.MaxMessageBytes <= 0 {
		c.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = DefaultWriteTimeout
	}
	if c.Version == "" {
		c.Version = "dev"
	}
	return c
}

// Server serves the envs of a registry over OpenEnv's protocol: the
// WebSocket session protocol at /ws and the HTTP routes /health,
// /metadata, /schema, /reset, /step and /state, each also under /e/{id}/
// to choose the env by route. It holds no state across sessions: any
// replica serves any client. The zero value is not usable; use NewServer.
type Server struct {
	reg *envs.Registry
	cfg Config
	mux *http.ServeMux

	mu       sync.Mutex
	sessions map[*session]struct{}
	closing  bool
	active   atomic.Int64
	wg       sync.WaitGroup
	episodes atomic.Uint64 // numbers episode ids within this process
}

// NewServer returns a server of the envs in reg.
func NewServer(reg *envs.Registry, cfg Config) (*Server, error) {
	if reg == nil {
		return nil, errors.New("remote: NewServer needs a registry (builtin.Registry(), say)")
	}
	cfg = cfg.withDefaults()
	if err := checkToolsAllowed(cfg.Tools); err != nil {
		return nil, err
	}
	for name, c := range cfg.OptionCaps {
		if !(c > 0) || math.IsInf(c, 1) {
			return nil, fmt.Errorf("remote: Config.OptionCaps[%q] = %g: a cap is a number > 0 (to lift a cap, name the option in AllowOptions)", name, c)
		}
	}
	if cfg.DefaultID != "" {
		env, err := reg.Make(cfg.DefaultID)
		if err != nil {
			return nil, fmt.Errorf("default env: %w", err)
		}
		_ = envs.Close(env)
	}
	s := &Server{reg: reg, cfg: cfg, sessions: map[*session]struct{}{}}
	s.routes()
	return s, nil
}

// ServeHTTP serves every route.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Sessions returns the number of WebSocket sessions held now.
func (s *Server) Sessions() int { return int(s.active.Load()) }

// Shutdown stops taking sessions (new ones are answered CAPACITY_REACHED
// and /health turns unhealthy), lets each session finish the message it is
// handling, closes every session with status 1001 (going away) and waits
// for them, or for ctx. Use it with http.Server.Shutdown, which does not
// see WebSocket connections.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	list := make([]*session, 0, len(s.sessions))
	for ss := range s.sessions {
		list = append(list, ss)
	}
	s.mu.Unlock()
	for _, ss := range list {
		ss.stop(websocket.StatusGoingAway, "server shutting down")
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("remote: shutdown: %d sessions still open: %w", s.Sessions(), ctx.Err())
	}
}

func (s *Server) draining() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// handleWS upgrades to a WebSocket and runs one session on it.
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	routeID := r.PathValue("id")
	if routeID != "" {
		if err := s.checkID(routeID); err != nil {
			writeHTTPError(w, http.StatusNotFound, err)
			return
		}
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return // Accept has answered the client
	}
	conn.SetReadLimit(s.cfg.MaxMessageBytes)
	ss, werr := s.admit(conn, routeID)
	if werr != nil {
		ctx, cancel := context.WithTimeout(context.Background(), s.cfg.WriteTimeout)
		defer cancel()
		if msg, err := wire.EncodeMessage(wire.MsgError, errorData(werr)); err == nil {
			_ = conn.Write(ctx, websocket.MessageText, msg)
		}
		_ = conn.Close(websocket.StatusTryAgainLater, werr.Message)
		return
	}
	defer s.release(ss)
	ss.run()
}

// admit registers a session, or refuses it when the server is full or
// shutting down.
func (s *Server) admit(conn *websocket.Conn, routeID string) (*session, *wire.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return nil, wire.Errorf(wire.CodeCapacityReached, "the server is shutting down: connect to another replica")
	}
	if n := s.active.Load(); n >= int64(s.cfg.MaxSessions) {
		return nil, wire.Errorf(wire.CodeCapacityReached, "the server holds its maximum of %d sessions: retry later or connect to another replica", s.cfg.MaxSessions)
	}
	ss := newSession(s, conn, routeID)
	s.sessions[ss] = struct{}{}
	s.active.Add(1)
	s.wg.Add(1)
	return ss, nil
}

func (s *Server) release(ss *session) {
	ss.closeEnv()
	s.mu.Lock()
	delete(s.sessions, ss)
	s.mu.Unlock()
	s.active.Add(-1)
	s.wg.Done()
}

// checkID reports an unknown env id with the registry's suggestions.
func (s *Server) checkID(id string) error {
	if slices.Contains(s.reg.IDs(), id) {
		return nil
	}
	_, err := s.reg.Make(id) // an unknown id: the registry's did-you-mean error
	return err
}

// resolveID picks the env of a request: the route's, the data's (they
// must agree) or the server's default.
func (s *Server) resolveID(routeID, dataID string) (string, *wire.Error) {
	switch {
	case routeID != "" && dataID != "" && routeID != dataID:
		return "", wire.Errorf(wire.CodeValidation, "env_id %s differs from the route's env %q: name one env", envs.Excerpt(dataID), routeID)
	case routeID != "":
		return routeID, nil
	case dataID != "":
		return dataID, nil
	case s.cfg.DefaultID != "":
		return s.cfg.DefaultID, nil
	}
	return "", wire.Errorf(wire.CodeValidation, "no env named: connect to /e/{id}/ws or give reset data {\"env_id\": \"game:GuessTheNumber-v0-easy\"} (the server has no default env; cmd/envserver -env sets one)")
}

// makeEnv makes an env for a client with envbuild.Make, under the
// server's policy on its clients' options and wrapped with the tools of
// req's specs (already checked by checkTools) and its history wrapper
// (req.History, req.HistoryKeep: envs.WithHistory, so a client reads the
// text an in-process env with that history shows), turning a panic in its
// factory into an error.
func (s *Server) makeEnv(id string, req request) (env envs.Env, werr *wire.Error) {
	defer func() {
		if p := recover(); p != nil {
			env, werr = nil, wire.Errorf(wire.CodeFactory, "make %s: panic: %v", id, p)
		}
	}()
	policy := envs.ClientPolicy{Allow: s.cfg.AllowOptions, Caps: s.cfg.OptionCaps}
	e, err := envbuild.Make(context.Background(), s.reg, envbuild.Config{
		ID: id, Options: envs.FromMap(req.Options), Tools: req.Tools, Client: &policy,
		History: req.History, HistoryKeep: req.HistoryKeep,
	})
	if err != nil {
		return nil, optionError(id, err)
	}
	return e, nil
}

// optionError is the error of a reset whose env could not be made: a
// VALIDATION_ERROR naming the operator's flag for an option a client may
// not set, a FACTORY_ERROR otherwise.
func optionError(id string, err error) *wire.Error {
	var ce *envs.ClientOptionError
	var te *envbuild.ToolsError
	switch {
	case errors.As(err, &te):
		return wire.Errorf(wire.CodeFactory, "wrap %s with tools: %v", id, te.Err)
	case !errors.As(err, &ce):
		return wire.Errorf(wire.CodeFactory, "%v", err)
	case ce.Resource:
		return wire.Errorf(wire.CodeValidation, "%v (its operator sets the cap with cmd/envserver -option-cap %s=N)", err, ce.Name)
	}
	return wire.Errorf(wire.CodeValidation, "%v; remove it (its operator lets clients set it with cmd/envserver -allow-option %s)", err, ce.Name)
}

// newSeed picks the seed of a reset that gave none; the observation
// reports it, so the episode can be replayed.
func newSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

func (s *Server) newEpisodeID() string { return fmt.Sprintf("ep-%d", s.episodes.Add(1)) }

func errorData(e *wire.Error) map[string]any {
	return map[string]any{"message": e.Message, "code": e.Code}
}
