package remote

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/remote/wire"
)

func (s *Server) routes() {
	m := http.NewServeMux()
	for _, prefix := range []string{"", "/e/{id}"} {
		m.HandleFunc("GET "+prefix+"/ws", s.handleWS)
		m.HandleFunc("GET "+prefix+"/health", s.handleHealth)
		m.HandleFunc("GET "+prefix+"/metadata", s.handleMetadata)
		m.HandleFunc("GET "+prefix+"/schema", s.handleSchema)
		m.HandleFunc("GET "+prefix+"/state", s.handleState)
		m.HandleFunc("POST "+prefix+"/reset", s.handleReset)
		m.HandleFunc("POST "+prefix+"/step", s.handleStep)
	}
	s.mux = m
}

// handleHealth is the load balancer's check: 200 {"status":"healthy"}, or
// 503 {"status":"unhealthy"} once Shutdown has begun (drain this replica).
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	if s.draining() {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "unhealthy"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "healthy"})
}

func (s *Server) handleMetadata(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if id == "" {
		id = s.cfg.DefaultID
	}
	name, desc := "gemgo", "gemgo's text envs (GEM, arXiv 2510.01051); choose one with /e/{id}/ws or reset data env_id"
	if id != "" {
		if err := s.checkID(id); err != nil {
			writeHTTPError(w, http.StatusNotFound, err)
			return
		}
		name, desc = id, s.reg.Description(id)
	}
	served := s.cfg.Tools
	if served == nil {
		served = []string{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"name": name, "description": desc, "version": s.cfg.Version, "tools": served})
}

// Schemas of the action, the observation and the state, as /schema
// returns them.
var schemas = map[string]any{
	"action": map[string]any{
		"type": "object", "required": []string{"message"},
		"properties": map[string]any{
			"message":     map[string]any{"type": "string", "description": "the agent's text action"},
			"message_b64": map[string]any{"type": "string", "description": "the action's bytes in base64, for text that is not valid UTF-8 (replaces message)"},
		},
	},
	"observation": map[string]any{
		"type": "object",
		"properties": map[string]any{
			"text":       map[string]any{"type": "string", "description": "the env's observation text"},
			"text_b64":   map[string]any{"type": "string", "description": "present when the text is not valid UTF-8: its bytes in base64"},
			"terminated": map[string]any{"type": "boolean", "description": "the task ended (solved, failed, format error)"},
			"truncated":  map[string]any{"type": "boolean", "description": "a limit outside the task ended the episode (the turn limit)"},
			"info":       map[string]any{"type": "object", "description": "env facts: success, format_error, turn, max_turns, ..."},
			"env_id":     map[string]any{"type": "string"},
			"seed":       map[string]any{"type": "integer", "minimum": 0},
			"episode_id": map[string]any{"type": "string"},
			"step_count": map[string]any{"type": "integer", "minimum": 0},
		},
	},
	"state": map[string]any{
		"type": "object",
		"properties": map[string]any{
			"episode_id": map[string]any{"type": []string{"string", "null"}},
			"step_count": map[string]any{"type": "integer", "minimum": 0},
			"active":     map[string]any{"type": "boolean"},
			"env_id":     map[string]any{"type": "string"},
			"seed":       map[string]any{"type": "integer", "minimum": 0},
		},
	},
}

func (s *Server) handleSchema(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, schemas)
}

// handleState answers for a fresh env: HTTP requests share no episode.
func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"episode_id": nil, "step_count": 0, "active": false})
}

// handleReset plays Reset on a fresh env and returns its observation.
func (s *Server) handleReset(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r, s.cfg.MaxMessageBytes)
	if !ok {
		return
	}
	s.replay(w, r, body, wire.MsgReset)
}

// handleStep replays an episode on a fresh env: Reset(seed), the earlier
// actions, then action. HTTP keeps no episode between requests (a server
// replica holds no state across requests), so a multi-turn episode over
// HTTP sends its seed and its actions so far; the WebSocket at /ws keeps
// the episode instead.
func (s *Server) handleStep(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r, s.cfg.MaxMessageBytes)
	if !ok {
		return
	}
	s.replay(w, r, body, wire.MsgStep)
}

// replay runs one HTTP reset or step in a throwaway session.
func (s *Server) replay(w http.ResponseWriter, r *http.Request, body []byte, kind string) {
	var top map[string]json.RawMessage
	if len(body) == 0 {
		body = []byte("{}")
	}
	if err := json.Unmarshal(body, &top); err != nil || top == nil {
		writeCodeError(w, wire.Errorf(wire.CodeInvalidJSON, "the body is a JSON object"))
		return
	}
	resetData := map[string]json.RawMessage{}
	var action json.RawMessage
	var earlier []json.RawMessage
	for k, v := range top {
		switch {
		case k == "action" && kind == wire.MsgStep:
			action = v
		case k == "actions" && kind == wire.MsgStep:
			if err := json.Unmarshal(v, &earlier); err != nil {
				writeCodeError(w, wire.Errorf(wire.CodeValidation, "step: actions must be a list of earlier actions ({\"message\": ...} each)"))
				return
			}
		case k == "timeout_s" || k == "request_id":
			// OpenEnv's optional step fields: accepted, not used
		default:
			resetData[k] = v
		}
	}
	ss := &session{srv: s, routeID: r.PathValue("id")}
	defer ss.closeEnv()
	req, werr := decodeData(wire.MsgReset, resetData)
	if werr == nil && kind == wire.MsgStep && !req.HasSeed {
		werr = wire.Errorf(wire.CodeValidation, "step over HTTP needs the episode's seed (and its earlier actions in \"actions\"): HTTP keeps no episode between requests; use the WebSocket at /ws for sessions")
	}
	if werr != nil {
		writeCodeError(w, werr)
		return
	}
	if werr := ss.ensureEnv(req); werr != nil {
		writeCodeError(w, werr)
		return
	}
	var out map[string]any
	capture := func(data map[string]any, e *wire.Error) { out, werr = data, e }
	ss.httpReset(req, capture)
	for i, raw := range append(earlier, action) {
		if werr != nil || kind != wire.MsgStep {
			break
		}
		if raw == nil {
			werr = wire.Errorf(wire.CodeValidation, "step: the body has no \"action\": {\"action\": {\"message\": \"...\"}}")
			break
		}
		a, e := decodeData(wire.MsgStep, objectOf(raw))
		if e != nil {
			e.Message = "action " + strconv.Itoa(i) + ": " + e.Message
			werr = e
			break
		}
		ss.httpStep(a.Action, capture)
	}
	if werr != nil {
		writeCodeError(w, werr)
		return
	}
	writeValue(w, http.StatusOK, out)
}

func (ss *session) httpReset(req request, capture func(map[string]any, *wire.Error)) {
	seed := req.Seed
	if !req.HasSeed {
		seed = newSeed()
	}
	var obs string
	var info envs.Info
	werr := ss.guard("reset", func() (err error) { obs, info, err = ss.env.Reset(seed); return err })
	if werr != nil {
		capture(nil, werr)
		return
	}
	ss.active, ss.seed, ss.episodeID = true, seed, req.EpisodeID
	capture(ss.observation(obs, nil, false, false, info), nil)
}

func (ss *session) httpStep(action string, capture func(map[string]any, *wire.Error)) {
	if !ss.active {
		capture(nil, wire.Errorf(wire.CodeExecution, "step after the episode ended (done was true): %v", envs.ErrNotReset))
		return
	}
	var st envs.Step
	if werr := ss.guard("step", func() (err error) { st, err = ss.env.Step(action); return err }); werr != nil {
		capture(nil, werr)
		return
	}
	ss.steps++
	ss.active = !st.Done()
	reward := st.Reward
	capture(ss.observation(st.Obs, &reward, st.Terminated, st.Truncated, st.Info), nil)
}

// decodeData decodes the data of a message of type typ.
func decodeData(typ string, data map[string]json.RawMessage) (request, *wire.Error) {
	frame, err := json.Marshal(map[string]any{"type": typ, "data": data})
	if err != nil {
		return request{}, wire.Errorf(wire.CodeValidation, "%s: %v", typ, err)
	}
	return decodeRequest(frame)
}

func objectOf(raw json.RawMessage) map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	if json.Unmarshal(raw, &m) != nil {
		return map[string]json.RawMessage{"message": []byte("null")}
	}
	return m
}

// readBody reads a request body of at most limit bytes; on failure it
// answers the client (413 too large, 408 too slow, 400) and reports false.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, bool) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		return b, true
	case errors.As(err, &tooBig):
		writeHTTPError(w, http.StatusRequestEntityTooLarge, errors.New("the body is larger than the server's message limit"))
	case errors.Is(err, os.ErrDeadlineExceeded):
		writeHTTPError(w, http.StatusRequestTimeout, err) // the server's body deadline
	default:
		writeHTTPError(w, http.StatusBadRequest, fmt.Errorf("read the body: %w", err))
	}
	return nil, false
}

// httpStatus maps an OpenEnv code to an HTTP status.
func httpStatus(code string) int {
	switch code {
	case wire.CodeFactory:
		return http.StatusNotFound
	case wire.CodeExecution:
		return http.StatusConflict
	case wire.CodeCapacityReached:
		return http.StatusServiceUnavailable
	}
	return http.StatusUnprocessableEntity
}

func writeCodeError(w http.ResponseWriter, e *wire.Error) {
	writeJSON(w, httpStatus(e.Code), map[string]any{"detail": e.Message, "code": e.Code})
}

func writeHTTPError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, map[string]any{"detail": err.Error()})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeValue writes v with the typed-number encoding of the WebSocket.
func writeValue(w http.ResponseWriter, status int, v map[string]any) {
	msg, err := wire.EncodeJSON(v)
	if err != nil {
		writeCodeError(w, wire.Errorf(wire.CodeExecution, "encode reply: %v", err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(msg)
}
