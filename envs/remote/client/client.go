package client

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/remote/wire"
	"github.com/gemgo/gemgo/tools"
)

// Dialer connects Envs to a server. The zero value uses the defaults.
type Dialer struct {
	// Timeout bounds each exchange with the server (a reset, a step, a
	// sample). Default 60 s, as OpenEnv's clients.
	Timeout time.Duration
	// DialTimeout bounds the connection and the WebSocket upgrade (a
	// server that accepts and never answers is given up after it).
	// Default 10 s.
	DialTimeout time.Duration
	// ReadLimit is the largest server message accepted. Default 64 MiB.
	ReadLimit int64
	// HTTPClient makes the connection (http.DefaultClient when nil).
	HTTPClient *http.Client
	// Tools wraps the env with tools on the server (the reset data's
	// tools): the server must allow their kinds (cmd/envserver -tools).
	// To run tools in the caller's process instead, wrap the Env that
	// Dial returns with tools.Wrap.
	Tools []tools.Spec
	// History and HistoryKeep wrap the env in its history wrapper on the
	// server (the reset data's history and history_keep: "", "none",
	// "observations" or "actions", keeping the last HistoryKeep turns, 0
	// all), so each observation is the text envs.WithHistory shows
	// in-process. "" asks for none.
	History     string
	HistoryKeep int
	// Reconnect is how many times in a row a call whose connection broke
	// (the server went away or restarts, a proxy dropped the connection)
	// opens a new session and replays the episode before the call fails:
	// 0 means DefaultReconnect, a negative value none. An episode is its
	// seed and its actions, so the new session (through a balancer, on
	// another replica) is reset with the seed and sent the actions again,
	// each observation checked against the first play's (Env.Reconnects).
	Reconnect int
}

// DefaultReconnect is Dialer.Reconnect's default.
const DefaultReconnect = 5

// Dial connects to the server at rawURL and makes the env id with opts
// there, as Registry.Make would in-process. rawURL is the server's address
// (ws://host:port, http://host:port, or with a path such as
// ws://host:port/e/game:GuessTheNumber-v0-easy); /ws is appended unless the
// path already ends with it, as OpenEnv's clients do.
//
// The env that Dial returns implements envs.ActionSampler exactly when the
// server's env does, and its SampleAction draws from the caller's RNG (the
// server asks for each random number), so random play over the wire equals
// random play in-process. FormatErrorReward and Description report the
// server env's. Close ends the session. An Env is used by one goroutine at
// a time, like any env.
//
// ctx governs the whole session, as exec.CommandContext's governs a
// process: when it ends (a run's Ctrl-C), the exchange in progress returns
// at once with an error wrapping ctx's, the connection is dropped, and
// every later call fails. Each exchange is also bounded by
// Dialer.Timeout, and the connection by Dialer.DialTimeout. A call whose
// connection breaks opens a new session at rawURL and replays the
// episode there first (Dialer.Reconnect).
func Dial(ctx context.Context, rawURL, id string, opts ...envs.Option) (envs.Env, error) {
	var d Dialer
	return d.Dial(ctx, rawURL, id, opts...)
}

// Dial is the package's Dial with d's settings.
func (d *Dialer) Dial(ctx context.Context, rawURL, id string, opts ...envs.Option) (envs.Env, error) {
	u, err := wsURL(rawURL)
	if err != nil {
		return nil, err
	}
	e := &Env{ctx: ctx, d: *d, id: id, url: u, formatErr: envs.RewardFormatError}
	e.timeout = d.Timeout
	if e.timeout <= 0 {
		e.timeout = 60 * time.Second
	}
	options := map[string]any{}
	for _, o := range opts {
		options[o.Name] = o.Value
	}
	e.data = map[string]any{"options": options}
	if len(d.Tools) > 0 {
		e.data["tools"] = d.Tools
	}
	if id != "" {
		e.data["env_id"] = id
	}
	if d.History != "" || d.HistoryKeep != 0 {
		e.data["history"], e.data["history_keep"] = d.History, d.HistoryKeep
	}
	desc, err := e.open()
	if err != nil {
		return nil, err
	}
	e.id, e.desc, e.formatErr = desc.EnvID, desc.Description, desc.FormatErrorReward
	if desc.Sampler {
		return &SamplingEnv{env: e}, nil
	}
	return e, nil
}

// Env is an env played on a server over one WebSocket session.
type Env struct {
	ctx        context.Context // Dial's: the session's lifetime
	d          Dialer          // Dial's settings, for reconnecting
	data       map[string]any  // the describe message's data: the env, its options, tools, history
	conn       *websocket.Conn
	id, url    string
	desc       string
	formatErr  float64
	timeout    time.Duration
	broken     error   // a transport failure or a failed sample: every later call fails
	retryable  bool    // broken is a broken connection that a reconnect may mend
	ep         episode // the episode so far, to replay on a new session
	reconnects int     // sessions opened again after a broken connection
}

var _ envs.Env = (*Env)(nil)

// Reset starts an episode with seed on the server.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	o, err := retry(e, func() (observation, error) { return e.reset(seed) })
	if err != nil {
		e.ep = episode{}
		return "", nil, err
	}
	e.ep = episode{started: true, seed: seed, digests: [][sha256.Size]byte{o.digest()}}
	return o.text, o.info, nil
}

// Step plays action on the server.
func (e *Env) Step(action string) (envs.Step, error) {
	o, err := retry(e, func() (observation, error) { return e.step(action) })
	if err != nil {
		return envs.Step{}, err
	}
	if e.ep.started && !e.ep.done {
		e.ep.actions = append(e.ep.actions, action)
		e.ep.digests = append(e.ep.digests, o.digest())
		e.ep.done = o.terminated || o.truncated
	}
	return envs.Step{Obs: o.text, Reward: o.reward, Terminated: o.terminated, Truncated: o.truncated, Info: o.info}, nil
}

// reset and step are one exchange each, without reconnecting.
func (e *Env) reset(seed uint64) (observation, error) {
	typ, raw, err := e.roundTrip(wire.MsgReset, map[string]any{"seed": seed})
	if err != nil {
		return observation{}, err
	}
	return e.observation(typ, raw)
}

func (e *Env) step(action string) (observation, error) {
	data := map[string]any{}
	wire.PutText(data, "message", action)
	typ, raw, err := e.roundTrip(wire.MsgStep, data)
	if err != nil {
		return observation{}, err
	}
	return e.observation(typ, raw)
}

// Close ends the session; the server closes its env.
func (e *Env) Close() error {
	broken := e.broken
	e.retryable = false // a closed session stays closed
	if e.broken == nil {
		e.broken = fmt.Errorf("remote env %s: closed", e.id)
	}
	if broken != nil || e.ctx.Err() != nil {
		// A failed session, or one whose context ended: the server may
		// not answer a closing handshake (coder/websocket waits 5 s for
		// it), so the connection is dropped and the server frees the
		// session when it sees the connection go.
		_ = e.conn.CloseNow()
		return nil
	}
	// A session the server already dropped has nothing left to release:
	// the error of its closing handshake is not the caller's concern.
	_ = e.conn.Close(websocket.StatusNormalClosure, "")
	return nil
}

// FormatErrorReward is the server env's format-error reward.
func (e *Env) FormatErrorReward() float64 { return e.formatErr }

// Description is the server env's one-line description.
func (e *Env) Description() string { return e.desc }

// SampleAction draws an action with the server env's SampleAction and r;
// it returns "" when the exchange fails, and the next Reset or Step then
// returns the error. A sample cut by a broken connection is drawn again
// on the new session with the same random numbers, so r advances as it
// would have without the break.
func (e *Env) SampleAction(r *rand.Rand) string {
	var drawn []uint64
	a, _ := retry(e, func() (string, error) {
		a := e.sample(r, &drawn)
		return a, e.broken
	})
	return a
}

// sample is one draw on the session: the server's requests for random
// numbers are answered from drawn first (a draw replayed after a
// reconnect), then from r, each new number appended to drawn.
func (e *Env) sample(r *rand.Rand, drawn *[]uint64) string {
	if e.broken != nil {
		return ""
	}
	if e.send(wire.MsgSample, map[string]any{}) != nil {
		return ""
	}
	for n := 0; ; n++ {
		typ, raw, err := e.receive()
		if err != nil {
			mendable := e.broken != nil && e.retryable // a broken connection, not an error the server sent
			e.broken, e.retryable = fmt.Errorf("remote env %s: sample: %w", e.id, err), mendable
			return ""
		}
		switch typ {
		case wire.MsgRand:
			if n == len(*drawn) {
				*drawn = append(*drawn, r.Uint64())
			}
			if e.send(wire.MsgRand, map[string]any{"value": strconv.FormatUint((*drawn)[n], 10)}) != nil {
				return ""
			}
		case wire.MsgAction:
			var m map[string]json.RawMessage
			if err := json.Unmarshal(raw, &m); err != nil {
				e.fail(fmt.Errorf("remote env %s: sample: %w", e.id, err))
				return ""
			}
			a, werr := wire.DecodeText(m, "message", wire.MsgAction)
			if werr != nil {
				e.fail(fmt.Errorf("remote env %s: sample: %w", e.id, werr))
				return ""
			}
			return a
		default:
			e.fail(fmt.Errorf("remote env %s: sample: unexpected %q message", e.id, typ))
			return ""
		}
	}
}

// roundTrip sends one message and reads its reply; an error reply is an
// *wire.Error.
func (e *Env) roundTrip(typ string, data any) (string, json.RawMessage, error) {
	if err := e.send(typ, data); err != nil {
		return "", nil, err
	}
	return e.receive()
}

func (e *Env) send(typ string, data any) error {
	if e.broken != nil {
		return e.broken
	}
	if err := e.ctx.Err(); err != nil {
		e.breakConn(e.ctx, typ, err)
		return e.broken
	}
	msg, err := wire.EncodeMessage(typ, data)
	if err != nil {
		return fmt.Errorf("remote env %s: encode %s: %w", e.id, typ, err)
	}
	ctx, cancel := context.WithTimeout(e.ctx, e.timeout)
	defer cancel()
	if err := e.conn.Write(ctx, websocket.MessageText, msg); err != nil {
		e.breakConn(ctx, typ, err)
		return e.broken
	}
	return nil
}

// receive reads one message: its type and data, or the *wire.Error it carries.
func (e *Env) receive() (string, json.RawMessage, error) {
	if e.broken != nil {
		return "", nil, e.broken
	}
	ctx, cancel := context.WithTimeout(e.ctx, e.timeout)
	defer cancel()
	_, frame, err := e.conn.Read(ctx)
	if err != nil {
		e.breakConn(ctx, "read", err)
		return "", nil, e.broken
	}
	var msg struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(frame, &msg); err != nil {
		e.fail(fmt.Errorf("remote env %s: the server sent a message that is not JSON: %w", e.id, err))
		return "", nil, e.broken
	}
	if msg.Type == wire.MsgError {
		var se wire.Error
		_ = json.Unmarshal(msg.Data, &struct {
			Code    *string `json:"code"`
			Message *string `json:"message"`
		}{&se.Code, &se.Message})
		return wire.MsgError, msg.Data, fmt.Errorf("remote env %s: %w", e.id, &se)
	}
	return msg.Type, msg.Data, nil
}

// transport describes the failure err of an exchange (what) under ctx:
// the session's context ended, the exchange timed out, the server closed
// the session, or the connection failed.
func (e *Env) transport(ctx context.Context, what string, err error) error {
	if e.ctx.Err() != nil {
		return fmt.Errorf("remote env %s: %s: stopped: %w", e.id, what, context.Cause(e.ctx))
	}
	if ctx.Err() != nil {
		return fmt.Errorf("remote env %s: %s: no answer within %s (Dialer.Timeout): %w", e.id, what, e.timeout, ctx.Err())
	}
	if s := websocket.CloseStatus(err); s != -1 {
		return fmt.Errorf("remote env %s: %s: the server closed the session (status %d): %w", e.id, what, s, err)
	}
	return fmt.Errorf("remote env %s: %s: %w", e.id, what, err)
}

type observation struct {
	text                  string
	reward                float64
	terminated, truncated bool
	info                  envs.Info
}

func (e *Env) observation(typ string, raw json.RawMessage) (observation, error) {
	if typ != wire.MsgObservation {
		return observation{}, fmt.Errorf("remote env %s: expected an observation, got %q", e.id, typ)
	}
	var msg struct {
		Observation map[string]json.RawMessage `json:"observation"`
		Reward      *float64                   `json:"reward"`
	}
	if err := json.Unmarshal(raw, &msg); err != nil {
		return observation{}, fmt.Errorf("remote env %s: observation: %w", e.id, err)
	}
	o := observation{reward: math.NaN()}
	if msg.Reward != nil {
		o.reward = *msg.Reward
	}
	text, werr := wire.DecodeText(msg.Observation, "text", wire.MsgObservation)
	if werr != nil {
		return observation{}, fmt.Errorf("remote env %s: %w", e.id, werr)
	}
	o.text = text
	_ = json.Unmarshal(msg.Observation["terminated"], &o.terminated)
	_ = json.Unmarshal(msg.Observation["truncated"], &o.truncated)
	if raw, ok := msg.Observation["info"]; ok && !wire.IsNull(raw) {
		v, err := wire.DecodeValue(raw)
		if err != nil {
			return observation{}, fmt.Errorf("remote env %s: observation info: %w", e.id, err)
		}
		if m, isMap := v.(map[string]any); isMap {
			o.info = envs.Info(m)
		}
	}
	return o, nil
}

// SamplingEnv is an Env whose server env draws random actions: it adds
// SampleAction (envs.ActionSampler) and forwards the rest.
type SamplingEnv struct {
	env *Env
}

var _ envs.ActionSampler = (*SamplingEnv)(nil)

// Reset forwards to the Env.
func (s *SamplingEnv) Reset(seed uint64) (string, envs.Info, error) { return s.env.Reset(seed) }

// Step forwards to the Env.
func (s *SamplingEnv) Step(action string) (envs.Step, error) { return s.env.Step(action) }

// SampleAction draws with the server env's SampleAction and r.
func (s *SamplingEnv) SampleAction(r *rand.Rand) string { return s.env.SampleAction(r) }

// Close ends the session.
func (s *SamplingEnv) Close() error { return s.env.Close() }

// FormatErrorReward is the server env's format-error reward.
func (s *SamplingEnv) FormatErrorReward() float64 { return s.env.FormatErrorReward() }

// Description is the server env's description.
func (s *SamplingEnv) Description() string { return s.env.Description() }
