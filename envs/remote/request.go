package remote

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/remote/wire"
	"github.com/gemgo/gemgo/tools"
)

// request is one decoded client message.
type request struct {
	Type string
	// reset and describe
	Seed      uint64
	HasSeed   bool
	EnvID     string
	Options   map[string]any
	Tools     []tools.Spec // nil: the data named no tools
	EpisodeID string
	// History and HistoryKeep wrap the env in envs.WithHistory on the
	// server ("" and 0 when the data named none).
	History     string
	HistoryKeep int
	HasHistory  bool // the data named history or history_keep
	// step
	Action string
	// rand
	Value uint64
}

// Fields each message's data may hold; anything else is a VALIDATION_ERROR
// that lists these.
var allowedFields = map[string][]string{
	wire.MsgReset:    {"seed", "env_id", "options", "tools", "episode_id", "history", "history_keep"},
	wire.MsgDescribe: {"env_id", "options", "tools", "history", "history_keep"},
	wire.MsgStep:     {"message", "message_b64", "metadata"},
	wire.MsgRand:     {"value"},
	wire.MsgState:    {},
	wire.MsgClose:    {},
	wire.MsgSample:   {},
}

// frameWire is every field a client message may carry, decoded in one
// pass (an action can be megabytes long); a nil field was absent.
type frameWire struct {
	Type *string    `json:"type"`
	Data *fieldWire `json:"data"`
}

type fieldWire struct {
	Seed        *json.Number    `json:"seed"`
	EnvID       *string         `json:"env_id"`
	Options     *map[string]any `json:"options"`
	Tools       json.RawMessage `json:"tools"`
	EpisodeID   *string         `json:"episode_id"`
	History     *string         `json:"history"`
	HistoryKeep *json.Number    `json:"history_keep"`
	Message     *string         `json:"message"`
	MessageB64  *string         `json:"message_b64"`
	Metadata    json.RawMessage `json:"metadata"`
	Value       *string         `json:"value"`
}

// present lists the fields that f holds.
func (f *fieldWire) present() []string {
	var out []string
	for _, p := range []struct {
		name string
		set  bool
	}{
		{"seed", f.Seed != nil}, {"env_id", f.EnvID != nil}, {"options", f.Options != nil},
		{"tools", f.Tools != nil && !wire.IsNull(f.Tools)},
		{"episode_id", f.EpisodeID != nil}, {"history", f.History != nil},
		{"history_keep", f.HistoryKeep != nil}, {"message", f.Message != nil},
		{"message_b64", f.MessageB64 != nil}, {"metadata", f.Metadata != nil}, {"value", f.Value != nil},
	} {
		if p.set {
			out = append(out, p.name)
		}
	}
	return out
}

// decodeRequest parses one client frame. It never panics: a frame that is
// not a JSON object is INVALID_JSON, an unknown type is UNKNOWN_TYPE, and a
// bad field is VALIDATION_ERROR naming the field.
func decodeRequest(frame []byte) (request, *wire.Error) {
	var f frameWire
	d := json.NewDecoder(bytes.NewReader(frame))
	d.DisallowUnknownFields()
	err := d.Decode(&f)
	if err == nil && d.More() {
		err = errors.New("data after the message")
	}
	if err != nil {
		return request{}, classify(frame, err)
	}
	if f.Type == nil {
		if !bytes.HasPrefix(bytes.TrimSpace(frame), []byte("{")) {
			return request{}, wire.Errorf(wire.CodeInvalidJSON, "a message is a JSON object {\"type\": ..., \"data\": {...}}")
		}
		return request{}, wire.Errorf(wire.CodeUnknownType, "the message has no \"type\": want one of reset, step, state, close")
	}
	typ := *f.Type
	allowed, known := allowedFields[typ]
	if !known {
		return request{}, wire.Errorf(wire.CodeUnknownType, "unknown message type %s: want one of reset, step, state, close", envs.Excerpt(typ))
	}
	data := f.Data
	if data == nil {
		data = &fieldWire{}
	}
	for _, k := range data.present() {
		if !contains(allowed, k) {
			return request{}, unknownField(typ, k)
		}
	}
	r := request{Type: typ}
	switch typ {
	case wire.MsgReset, wire.MsgDescribe:
		if data.Seed != nil {
			s, err := strconv.ParseUint(data.Seed.String(), 10, 64)
			if err != nil {
				return request{}, wire.Errorf(wire.CodeValidation, "%s: seed = %s: want a whole number in [0, 2^64-1]", typ, envs.ExcerptValue(data.Seed.String()))
			}
			r.Seed, r.HasSeed = s, true
		}
		if data.EnvID != nil {
			r.EnvID = *data.EnvID
		}
		if data.Options != nil {
			r.Options = *data.Options
		}
		if data.Tools != nil && !wire.IsNull(data.Tools) {
			specs, werr := decodeTools(typ, data.Tools)
			if werr != nil {
				return request{}, werr
			}
			r.Tools = specs
		}
		if data.EpisodeID != nil {
			if len(*data.EpisodeID) > 255 {
				return request{}, wire.Errorf(wire.CodeValidation, "%s: episode_id must be at most 255 bytes", typ)
			}
			r.EpisodeID = *data.EpisodeID
		}
		if werr := decodeHistory(typ, data, &r); werr != nil {
			return request{}, werr
		}
	case wire.MsgStep:
		a, werr := wire.TextField(data.Message, data.MessageB64, "message", typ)
		if werr != nil {
			return request{}, werr
		}
		r.Action = a
	case wire.MsgRand:
		if data.Value == nil {
			return request{}, wire.Errorf(wire.CodeValidation, "rand: data has no \"value\" (a decimal uint64 string)")
		}
		v, err := strconv.ParseUint(*data.Value, 10, 64)
		if err != nil {
			return request{}, wire.Errorf(wire.CodeValidation, "rand: value = %s: want a decimal uint64", envs.Excerpt(*data.Value))
		}
		r.Value = v
	}
	return r, nil
}

// maxHistoryKeep bounds history_keep (a count of turns; no env plays
// anywhere near this many).
const maxHistoryKeep = 1 << 20

// decodeHistory reads a reset's history and history_keep: the mode and
// turn count of envs.WithHistory, checked here so a bad value is a
// VALIDATION_ERROR naming the field and what it allows.
func decodeHistory(typ string, data *fieldWire, r *request) *wire.Error {
	r.HasHistory = data.History != nil || data.HistoryKeep != nil
	if data.History != nil {
		switch h := *data.History; h {
		case "", envs.HistoryNone, envs.HistoryObservations, envs.HistoryActions:
			r.History = h
		default:
			return wire.Errorf(wire.CodeValidation, "%s: history = %s: want one of %s, %s, %s", typ, envs.Excerpt(h), envs.HistoryNone, envs.HistoryObservations, envs.HistoryActions)
		}
	}
	if data.HistoryKeep != nil {
		k, err := strconv.ParseInt(data.HistoryKeep.String(), 10, 64)
		if err != nil || k < 0 || k > maxHistoryKeep {
			return wire.Errorf(wire.CodeValidation, "%s: history_keep = %s: want a whole number of turns in [0, %d] (0 keeps every turn)", typ, envs.ExcerptValue(data.HistoryKeep.String()), maxHistoryKeep)
		}
		r.HistoryKeep = int(k)
	}
	return nil
}

// decodeTools reads a reset's tools: a list of tools.Spec in their JSON
// form ({"name": "python", "max_uses": 5}), checked by
// tools.ValidateSpecs. Errors name the bad entry as tools[i].
func decodeTools(typ string, raw json.RawMessage) ([]tools.Spec, *wire.Error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, wire.Errorf(wire.CodeValidation, `%s: tools must be a list such as [{"name": "python", "max_uses": 5}]`, typ)
	}
	if len(list) > maxTools {
		return nil, wire.Errorf(wire.CodeValidation, "%s: tools has %d entries: at most %d (one per kind: %s)", typ, len(list), maxTools, strings.Join(tools.Names(), ", "))
	}
	specs := make([]tools.Spec, len(list))
	for i, e := range list {
		if err := json.Unmarshal(e, &specs[i]); err != nil {
			return nil, wire.Errorf(wire.CodeValidation, "%s: tools[%d]: %v", typ, i, err)
		}
	}
	if err := tools.ValidateSpecs(specs); err != nil {
		// ValidateSpecs names keys as a config does (env.tools[i].key);
		// on the wire the list is the reset data's tools.
		return nil, wire.Errorf(wire.CodeValidation, "%s: %s", typ, strings.NewReplacer("env.tools[", "tools[", "\n", "; ").Replace(err.Error()))
	}
	return specs, nil
}

// maxTools bounds a reset's tool list: tools.ValidateSpecs allows one
// tool per kind.
const maxTools = 3

func unknownField(typ, k string) *wire.Error {
	list := "none"
	if a := allowedFields[typ]; len(a) > 0 {
		list = strings.Join(a, ", ")
	}
	return wire.Errorf(wire.CodeValidation, "%s: unknown field %s (allowed: %s)", typ, envs.Excerpt(k), list)
}

// classify turns a decoding error into the OpenEnv code that fits it.
func classify(frame []byte, err error) *wire.Error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn) || !json.Valid(frame):
		return wire.Errorf(wire.CodeInvalidJSON, "a message is a JSON object {\"type\": ..., \"data\": {...}}: %s", envs.ExcerptValue(err.Error()))
	case errors.As(err, &typ):
		switch {
		case typ.Field == "":
			return wire.Errorf(wire.CodeInvalidJSON, "a message is a JSON object {\"type\": ..., \"data\": {...}}, not a JSON %s", typ.Value)
		case typ.Field == "type":
			return wire.Errorf(wire.CodeUnknownType, "\"type\" must be a string: one of reset, step, state, close")
		case typ.Field == "data":
			return wire.Errorf(wire.CodeValidation, "\"data\" must be a JSON object")
		}
		return wire.Errorf(wire.CodeValidation, "field %s must not be a JSON %s", envs.ExcerptValue(strings.TrimPrefix(typ.Field, "data.")), typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		return wire.Errorf(wire.CodeValidation, "unknown field %s: a message has \"type\" and \"data\", and data the fields of its type (reset: seed, env_id, options, tools, episode_id, history, history_keep; step: message)", envs.Excerpt(name))
	}
	return wire.Errorf(wire.CodeValidation, "%s", envs.ExcerptValue(err.Error()))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
