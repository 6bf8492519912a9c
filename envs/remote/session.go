package remote

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/remote/wire"
)

// session is one WebSocket connection: one env, one episode at a time. Its
// messages are handled in order by one goroutine (run); stop may be called
// from others (the idle timer, Shutdown).
type session struct {
	srv     *Server
	conn    *websocket.Conn
	routeID string
	idle    *time.Timer

	mu       sync.Mutex
	busy     bool // a message is being handled
	stopping bool
	code     websocket.StatusCode
	reason   string

	env       envs.Env
	envKey    string // env id and options the env was made with
	envID     string
	active    bool // an episode is in progress
	seed      uint64
	episodeID string
	steps     int
}

func newSession(s *Server, conn *websocket.Conn, routeID string) *session {
	return &session{srv: s, conn: conn, routeID: routeID}
}

// stop closes the session with code and reason: at once when it waits for
// a message, after its reply when it is handling one.
func (ss *session) stop(code websocket.StatusCode, reason string) {
	ss.mu.Lock()
	if ss.stopping {
		ss.mu.Unlock()
		return
	}
	ss.stopping, ss.code, ss.reason = true, code, reason
	busy := ss.busy
	ss.mu.Unlock()
	if !busy {
		go func() { _ = ss.conn.Close(code, reason) }()
	}
}

// begin marks a message as being handled; false when the session stops.
func (ss *session) begin() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.stopping {
		return false
	}
	ss.busy = true
	return true
}

// end clears busy and reports whether a stop came meanwhile.
func (ss *session) end() (websocket.StatusCode, string, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.busy = false
	return ss.code, ss.reason, ss.stopping
}

func (ss *session) run() {
	timeout := ss.srv.cfg.IdleTimeout
	ss.idle = time.AfterFunc(timeout, func() {
		ss.stop(websocket.StatusPolicyViolation, fmt.Sprintf("idle for %s: session closed", timeout))
	})
	defer ss.idle.Stop()
	for {
		_, frame, err := ss.conn.Read(context.Background())
		if err != nil {
			// The client left, or broke the framing, or sent a message over
			// the limit (the library has closed with 1009): drop the session.
			ss.conn.CloseNow()
			return
		}
		if !ss.begin() {
			return
		}
		ss.idle.Stop()
		quit := ss.handle(frame)
		code, reason, stopping := ss.end()
		if quit {
			return
		}
		if stopping {
			_ = ss.conn.Close(code, reason)
			return
		}
		ss.idle.Reset(timeout)
	}
}

// reply sends one message; false when the client did not take it in time
// (the session is then dropped).
func (ss *session) reply(typ string, data any) bool {
	msg, err := wire.EncodeMessage(typ, data)
	if err != nil {
		typ, data = wire.MsgError, errorData(wire.Errorf(wire.CodeExecution, "encode reply: %v", err))
		msg, _ = wire.EncodeMessage(typ, data)
	}
	ctx, cancel := context.WithTimeout(context.Background(), ss.srv.cfg.WriteTimeout)
	defer cancel()
	if err := ss.conn.Write(ctx, websocket.MessageText, msg); err != nil {
		ss.conn.CloseNow()
		return false
	}
	return true
}

func (ss *session) replyError(e *wire.Error) bool { return ss.reply(wire.MsgError, errorData(e)) }

// handle answers one frame; true when the session is over.
func (ss *session) handle(frame []byte) (quit bool) {
	req, werr := decodeRequest(frame)
	if werr != nil {
		return !ss.replyError(werr)
	}
	switch req.Type {
	case wire.MsgClose:
		_ = ss.conn.Close(websocket.StatusNormalClosure, "closed by the client")
		return true
	case wire.MsgDescribe:
		if werr := ss.ensureEnv(req); werr != nil {
			return !ss.replyError(werr)
		}
		return !ss.reply(wire.MsgDescribe, ss.describe())
	case wire.MsgReset:
		return !ss.reset(req)
	case wire.MsgStep:
		return !ss.step(req.Action)
	case wire.MsgState:
		return !ss.reply(wire.MsgState, ss.state())
	case wire.MsgSample:
		return ss.sample()
	default: // wire.MsgRand outside a sample
		return !ss.replyError(wire.Errorf(wire.CodeValidation, "rand: no sample is in progress"))
	}
}

// ensureEnv makes the env that req's env id, options, tools and history name,
// reusing the current one when they are the same, or when none is given.
func (ss *session) ensureEnv(req request) *wire.Error {
	if ss.env != nil && req.EnvID == "" && req.Options == nil && req.Tools == nil && !req.HasHistory {
		return nil
	}
	id, werr := ss.srv.resolveID(ss.routeID, req.EnvID)
	if werr != nil {
		return werr
	}
	if werr := ss.srv.checkTools(req.Type, req.Tools); werr != nil {
		return werr
	}
	var key bytes.Buffer
	key.WriteString(id)
	key.WriteByte(0)
	opts, err := wire.EncodeJSON(req.Options)
	if err != nil {
		return wire.Errorf(wire.CodeValidation, "options: %v", err)
	}
	key.Write(opts)
	key.WriteByte(0)
	specs, err := wire.EncodeJSON(req.Tools)
	if err != nil {
		return wire.Errorf(wire.CodeValidation, "tools: %v", err)
	}
	key.Write(specs)
	fmt.Fprintf(&key, "\x00%s\x00%d", req.History, req.HistoryKeep)
	if ss.env != nil && key.String() == ss.envKey {
		return nil
	}
	ss.closeEnv()
	env, werr := ss.srv.makeEnv(id, req)
	if werr != nil {
		return werr
	}
	ss.env, ss.envKey, ss.envID = env, key.String(), id
	return nil
}

func (ss *session) closeEnv() {
	if ss.env != nil {
		_ = envs.Close(ss.env)
	}
	ss.env, ss.envKey, ss.active = nil, "", false
}

// guard runs an env call, turning a panic into EXECUTION_ERROR; the env is
// then dropped (its state is unknown) and the next reset makes a new one.
func (ss *session) guard(what string, f func() error) (werr *wire.Error) {
	defer func() {
		if p := recover(); p != nil {
			ss.closeEnv()
			werr = wire.Errorf(wire.CodeExecution, "%s: the env panicked: %v (send reset to start again)", what, p)
		}
	}()
	if err := f(); err != nil {
		return wire.Errorf(wire.CodeExecution, "%s: %v", what, err)
	}
	return nil
}

func (ss *session) reset(req request) bool {
	if werr := ss.ensureEnv(req); werr != nil {
		return ss.replyError(werr)
	}
	seed := req.Seed
	if !req.HasSeed {
		seed = newSeed()
	}
	var obs string
	var info envs.Info
	werr := ss.guard(fmt.Sprintf("reset %s seed %d", ss.envID, seed), func() (err error) {
		obs, info, err = ss.env.Reset(seed)
		return err
	})
	if werr != nil {
		ss.active = false
		return ss.replyError(werr)
	}
	ss.active, ss.seed, ss.steps = true, seed, 0
	ss.episodeID = req.EpisodeID
	if ss.episodeID == "" {
		ss.episodeID = ss.srv.newEpisodeID()
	}
	return ss.reply(wire.MsgObservation, ss.observation(obs, nil, false, false, info))
}

func (ss *session) step(action string) bool {
	switch {
	case ss.env == nil || ss.episodeID == "":
		return ss.replyError(wire.Errorf(wire.CodeExecution, "step before reset: %v", envs.ErrNotReset))
	case !ss.active:
		return ss.replyError(wire.Errorf(wire.CodeExecution, "step after the episode ended (done was true): %v", envs.ErrNotReset))
	}
	var st envs.Step
	werr := ss.guard(fmt.Sprintf("step %d of %s seed %d", ss.steps+1, ss.envID, ss.seed), func() (err error) {
		st, err = ss.env.Step(action)
		return err
	})
	if werr != nil {
		return ss.replyError(werr)
	}
	ss.steps++
	if st.Done() {
		ss.active = false
	}
	reward := st.Reward
	return ss.reply(wire.MsgObservation, ss.observation(st.Obs, &reward, st.Terminated, st.Truncated, st.Info))
}

// observation is the data of an observation message. OpenEnv's clients
// strip reward, done and metadata from the observation dict, so
// terminated, truncated and info travel inside it.
func (ss *session) observation(text string, reward *float64, terminated, truncated bool, info envs.Info) map[string]any {
	obs := map[string]any{
		"terminated": terminated,
		"truncated":  truncated,
		"info":       map[string]any(info),
		"env_id":     ss.envID,
		"seed":       ss.seed,
		"episode_id": ss.episodeID,
		"step_count": ss.steps,
	}
	wire.PutText(obs, "text", text)
	return map[string]any{"observation": obs, "reward": reward, "done": terminated || truncated}
}

func (ss *session) state() map[string]any {
	st := map[string]any{"step_count": ss.steps, "episode_id": nil, "active": ss.active}
	if ss.episodeID != "" {
		st["episode_id"] = ss.episodeID
		st["env_id"] = ss.envID
		st["seed"] = ss.seed
	}
	return st
}

func (ss *session) describe() map[string]any {
	_, sampler := envs.SamplerOf(ss.env)
	d := map[string]any{"env_id": ss.envID, "sampler": sampler, "format_error_reward": envs.RewardFormatError}
	if fr, ok := ss.env.(envs.FormatErrorRewarder); ok {
		d["format_error_reward"] = fr.FormatErrorReward()
	}
	if ds, ok := ss.env.(envs.Describer); ok {
		d["description"] = ds.Description()
	} else {
		d["description"] = ss.srv.reg.Description(ss.envID)
	}
	return d
}

// maxDraws bounds the random numbers one sample may ask for.
const maxDraws = 1 << 16

// sampleAbort ends a sample whose client broke the rand exchange.
type sampleAbort struct{ werr *wire.Error }

// wireSource is a rand.Source whose numbers come from the client: each
// Uint64 sends {"type":"rand"} and reads {"type":"rand","data":{"value":
// "<uint64>"}}. The env's SampleAction thus draws from the caller's RNG,
// exactly as it would in-process (every *rand.Rand method reads its source
// through Uint64).
type wireSource struct {
	ss *session
	n  int
}

func (w *wireSource) Uint64() uint64 {
	if w.n++; w.n > maxDraws {
		panic(sampleAbort{wire.Errorf(wire.CodeSession, "sample: more than %d random numbers drawn", maxDraws)})
	}
	if !w.ss.reply(wire.MsgRand, map[string]any{}) {
		panic(sampleAbort{})
	}
	ctx, cancel := context.WithTimeout(context.Background(), w.ss.srv.cfg.WriteTimeout)
	defer cancel()
	_, frame, err := w.ss.conn.Read(ctx)
	if err != nil {
		panic(sampleAbort{})
	}
	req, werr := decodeRequest(frame)
	if werr == nil && req.Type != wire.MsgRand {
		werr = wire.Errorf(wire.CodeSession, "sample: got %q while the server waited for rand", req.Type)
	}
	if werr != nil {
		panic(sampleAbort{werr})
	}
	return req.Value
}

// sample draws an action with the env's SampleAction; true when the
// session is over.
func (ss *session) sample() (quit bool) {
	if ss.env == nil {
		return !ss.replyError(wire.Errorf(wire.CodeExecution, "sample before describe or reset: no env yet"))
	}
	sampler, ok := envs.SamplerOf(ss.env)
	if !ok {
		return !ss.replyError(wire.Errorf(wire.CodeExecution, "env %s has no SampleAction", ss.envID))
	}
	var action string
	var abort *sampleAbort
	func() {
		defer func() {
			if p := recover(); p != nil {
				if a, isAbort := p.(sampleAbort); isAbort {
					abort = &a
					return
				}
				abort = &sampleAbort{wire.Errorf(wire.CodeExecution, "sample: the env panicked: %v", p)}
			}
		}()
		action = sampler.SampleAction(rand.New(&wireSource{ss: ss}))
	}()
	if abort != nil && abort.werr != nil && abort.werr.Code == wire.CodeExecution {
		return !ss.replyError(abort.werr) // the env failed; the exchange is in step
	}
	if abort != nil {
		if abort.werr != nil {
			ss.replyError(abort.werr)
		}
		_ = ss.conn.Close(websocket.StatusPolicyViolation, "sample protocol broken")
		return true
	}
	data := map[string]any{}
	wire.PutText(data, "message", action)
	return !ss.reply(wire.MsgAction, data)
}
