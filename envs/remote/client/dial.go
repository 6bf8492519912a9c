package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/gemgo/gemgo/envs/remote/wire"
)

// description is the server's answer to describe.
type description struct {
	EnvID             string  `json:"env_id"`
	Description       string  `json:"description"`
	Sampler           bool    `json:"sampler"`
	FormatErrorReward float64 `json:"format_error_reward"`
}

// open connects e to its server and makes its env there (describe): at
// Dial, and again on each reconnect.
func (e *Env) open() (description, error) {
	id, u, d := e.id, e.url, &e.d
	dialTimeout := d.DialTimeout
	if dialTimeout <= 0 {
		dialTimeout = 10 * time.Second
	}
	dialCtx, cancel := context.WithTimeout(e.ctx, dialTimeout)
	defer cancel()
	conn, resp, err := websocket.Dial(dialCtx, u, &websocket.DialOptions{HTTPClient: d.HTTPClient})
	if err != nil && resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
		// The server refused the upgrade: its answer says why (an unknown
		// env id in the route, say).
		var refusal struct {
			Detail string `json:"detail"`
		}
		if resp.Body != nil {
			_ = json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&refusal)
			resp.Body.Close()
		}
		if refusal.Detail != "" {
			return description{}, fmt.Errorf("remote env %s: %s refused the session (HTTP %d): %s", id, u, resp.StatusCode, refusal.Detail)
		}
	}
	if err != nil {
		if e.ctx.Err() != nil {
			return description{}, fmt.Errorf("remote env %s: connect to %s: %w", id, u, context.Cause(e.ctx))
		}
		if dialCtx.Err() != nil {
			return description{}, fmt.Errorf("remote env %s: connect to %s: no answer within %s (is cmd/envserver running there, and reachable?): %w", id, u, dialTimeout, err)
		}
		return description{}, fmt.Errorf("remote env %s: connect to %s: %w (is cmd/envserver running there?)", id, u, err)
	}
	limit := d.ReadLimit
	if limit <= 0 {
		limit = 64 << 20
	}
	conn.SetReadLimit(limit)
	e.conn, e.broken, e.retryable = conn, nil, false
	typ, raw, err := e.roundTrip(wire.MsgDescribe, e.data)
	if err == nil && typ != wire.MsgDescribe {
		err = fmt.Errorf("remote env %s: the server answered describe with %q: is %s a gemgo env server?", id, typ, u)
	}
	var desc description
	if err == nil {
		err = json.Unmarshal(raw, &desc)
	}
	if err != nil {
		conn.CloseNow()
		e.broken = err
		return description{}, err
	}
	return desc, nil
}

// wsURL turns a server address into its WebSocket URL.
func wsURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err == nil && u.Host == "" {
		err = errors.New("no host")
	}
	if err == nil {
		switch u.Scheme {
		case "ws", "wss":
		case "http":
			u.Scheme = "ws"
		case "https":
			u.Scheme = "wss"
		default:
			err = fmt.Errorf("scheme %q", u.Scheme)
		}
	}
	if err != nil {
		return "", fmt.Errorf("env server address %q: %v: want ws://host:port (or http://, https://, wss://), the address cmd/envserver listens on", raw, err)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	if !strings.HasSuffix(u.Path, "/ws") {
		u.Path += "/ws"
	}
	u.RawPath = ""
	return u.String(), nil
}

// ValidateURL checks that raw is an env server address that Dial accepts.
func ValidateURL(raw string) error {
	_, err := wsURL(raw)
	return err
}
