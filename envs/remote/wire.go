package remote

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/tools"
)

// OpenEnv's error codes, sent as {"type":"error","data":{"message","code"}}.
const (
	CodeInvalidJSON     = "INVALID_JSON"     // the frame is not a JSON object
	CodeUnknownType     = "UNKNOWN_TYPE"     // "type" is missing or not a message this server knows
	CodeValidation      = "VALIDATION_ERROR" // a field is missing, of the wrong kind or unknown
	CodeExecution       = "EXECUTION_ERROR"  // the env failed or was misused (step before reset, after done)
	CodeCapacityReached = "CAPACITY_REACHED" // the server holds its maximum of sessions
	CodeFactory         = "FACTORY_ERROR"    // the env could not be made (unknown id, bad option)
	CodeSession         = "SESSION_ERROR"    // the session broke its protocol; the server closes it
)

// Message types. reset, step, state and close are OpenEnv's; describe,
// sample and rand are gemgo's own, used by the Go client (Dial) to learn
// what the env offers and to draw actions with the caller's RNG.
const (
	msgReset       = "reset"
	msgStep        = "step"
	msgState       = "state"
	msgClose       = "close"
	msgDescribe    = "describe"
	msgSample      = "sample"
	msgRand        = "rand"
	msgObservation = "observation"
	msgError       = "error"
	msgAction      = "action"
)

// Error is an error answered by the server, with its OpenEnv code (one of
// the Code* constants).
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

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
	// step
	Action string
	// rand
	Value uint64
}

// Fields each message's data may hold; anything else is a VALIDATION_ERROR
// that lists these.
var allowedFields = map[string][]string{
	msgReset:    {"seed", "env_id", "options", "tools", "episode_id"},
	msgDescribe: {"env_id", "options", "tools"},
	msgStep:     {"message", "message_b64", "metadata"},
	msgRand:     {"value"},
	msgState:    {},
	msgClose:    {},
	msgSample:   {},
}

// frameWire is every field a client message may carry, decoded in one
// pass (an action can be megabytes long); a nil field was absent.
type frameWire struct {
	Type *string    `json:"type"`
	Data *fieldWire `json:"data"`
}

type fieldWire struct {
	Seed       *json.Number    `json:"seed"`
	EnvID      *string         `json:"env_id"`
	Options    *map[string]any `json:"options"`
	Tools      json.RawMessage `json:"tools"`
	EpisodeID  *string         `json:"episode_id"`
	Message    *string         `json:"message"`
	MessageB64 *string         `json:"message_b64"`
	Metadata   json.RawMessage `json:"metadata"`
	Value      *string         `json:"value"`
}

// present lists the fields that f holds.
func (f *fieldWire) present() []string {
	var out []string
	for _, p := range []struct {
		name string
		set  bool
	}{
		{"seed", f.Seed != nil}, {"env_id", f.EnvID != nil}, {"options", f.Options != nil},
		{"tools", f.Tools != nil && !isNull(f.Tools)},
		{"episode_id", f.EpisodeID != nil}, {"message", f.Message != nil},
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
func decodeRequest(frame []byte) (request, *Error) {
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
			return request{}, errorf(CodeInvalidJSON, "a message is a JSON object {\"type\": ..., \"data\": {...}}")
		}
		return request{}, errorf(CodeUnknownType, "the message has no \"type\": want one of reset, step, state, close")
	}
	typ := *f.Type
	allowed, known := allowedFields[typ]
	if !known {
		return request{}, errorf(CodeUnknownType, "unknown message type %s: want one of reset, step, state, close", envs.Excerpt(typ))
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
	case msgReset, msgDescribe:
		if data.Seed != nil {
			s, err := strconv.ParseUint(data.Seed.String(), 10, 64)
			if err != nil {
				return request{}, errorf(CodeValidation, "%s: seed = %s: want a whole number in [0, 2^64-1]", typ, envs.ExcerptValue(data.Seed.String()))
			}
			r.Seed, r.HasSeed = s, true
		}
		if data.EnvID != nil {
			r.EnvID = *data.EnvID
		}
		if data.Options != nil {
			r.Options = *data.Options
		}
		if data.Tools != nil && !isNull(data.Tools) {
			specs, werr := decodeTools(typ, data.Tools)
			if werr != nil {
				return request{}, werr
			}
			r.Tools = specs
		}
		if data.EpisodeID != nil {
			if len(*data.EpisodeID) > 255 {
				return request{}, errorf(CodeValidation, "%s: episode_id must be at most 255 bytes", typ)
			}
			r.EpisodeID = *data.EpisodeID
		}
	case msgStep:
		a, werr := textField(data.Message, data.MessageB64, "message", typ)
		if werr != nil {
			return request{}, werr
		}
		r.Action = a
	case msgRand:
		if data.Value == nil {
			return request{}, errorf(CodeValidation, "rand: data has no \"value\" (a decimal uint64 string)")
		}
		v, err := strconv.ParseUint(*data.Value, 10, 64)
		if err != nil {
			return request{}, errorf(CodeValidation, "rand: value = %s: want a decimal uint64", envs.Excerpt(*data.Value))
		}
		r.Value = v
	}
	return r, nil
}

// decodeTools reads a reset's tools: a list of tools.Spec in their JSON
// form ({"name": "python", "max_uses": 5}), checked by
// tools.ValidateSpecs. Errors name the bad entry as tools[i].
func decodeTools(typ string, raw json.RawMessage) ([]tools.Spec, *Error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errorf(CodeValidation, `%s: tools must be a list such as [{"name": "python", "max_uses": 5}]`, typ)
	}
	if len(list) > maxTools {
		return nil, errorf(CodeValidation, "%s: tools has %d entries: at most %d (one per kind: %s)", typ, len(list), maxTools, strings.Join(tools.Names(), ", "))
	}
	specs := make([]tools.Spec, len(list))
	for i, e := range list {
		if err := json.Unmarshal(e, &specs[i]); err != nil {
			return nil, errorf(CodeValidation, "%s: tools[%d]: %v", typ, i, err)
		}
	}
	if err := tools.ValidateSpecs(specs); err != nil {
		// ValidateSpecs names keys as a config does (env.tools[i].key);
		// on the wire the list is the reset data's tools.
		return nil, errorf(CodeValidation, "%s: %s", typ, strings.NewReplacer("env.tools[", "tools[", "\n", "; ").Replace(err.Error()))
	}
	return specs, nil
}

// maxTools bounds a reset's tool list: tools.ValidateSpecs allows one
// tool per kind.
const maxTools = 3

func unknownField(typ, k string) *Error {
	list := "none"
	if a := allowedFields[typ]; len(a) > 0 {
		list = strings.Join(a, ", ")
	}
	return errorf(CodeValidation, "%s: unknown field %s (allowed: %s)", typ, envs.Excerpt(k), list)
}

// classify turns a decoding error into the OpenEnv code that fits it.
func classify(frame []byte, err error) *Error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn) || !json.Valid(frame):
		return errorf(CodeInvalidJSON, "a message is a JSON object {\"type\": ..., \"data\": {...}}: %s", envs.ExcerptValue(err.Error()))
	case errors.As(err, &typ):
		switch {
		case typ.Field == "":
			return errorf(CodeInvalidJSON, "a message is a JSON object {\"type\": ..., \"data\": {...}}, not a JSON %s", typ.Value)
		case typ.Field == "type":
			return errorf(CodeUnknownType, "\"type\" must be a string: one of reset, step, state, close")
		case typ.Field == "data":
			return errorf(CodeValidation, "\"data\" must be a JSON object")
		}
		return errorf(CodeValidation, "field %s must not be a JSON %s", envs.ExcerptValue(strings.TrimPrefix(typ.Field, "data.")), typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		return errorf(CodeValidation, "unknown field %s: a message has \"type\" and \"data\", and data the fields of its type (reset: seed, env_id, options, tools, episode_id; step: message)", envs.Excerpt(name))
	}
	return errorf(CodeValidation, "%s", envs.ExcerptValue(err.Error()))
}

// textField reads a text that may come as UTF-8 (plain) or, for bytes that
// are not valid UTF-8, base64 (b64): JSON strings carry only Unicode, and a
// policy that emits raw bytes must reach the env unchanged.
func textField(plain, b64 *string, name, typ string) (string, *Error) {
	if b64 != nil {
		b, err := base64.StdEncoding.DecodeString(*b64)
		if err != nil {
			return "", errorf(CodeValidation, "%s: %s_b64 is not valid base64: %v", typ, name, err)
		}
		return string(b), nil
	}
	if plain == nil {
		return "", errorf(CodeValidation, "%s: data has no %q: a text action is {\"message\": \"...\"}", typ, name)
	}
	return *plain, nil
}

// decodeText reads the text field name (or name_b64) of a decoded object.
func decodeText(data map[string]json.RawMessage, name, typ string) (string, *Error) {
	var plain, b64 *string
	for key, dst := range map[string]**string{name: &plain, name + "_b64": &b64} {
		raw, ok := data[key]
		if !ok {
			continue
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", errorf(CodeValidation, "%s: %q must be a string", typ, key)
		}
		*dst = &s
	}
	return textField(plain, b64, name, typ)
}

// putText sets name (and name_b64 when s is not valid UTF-8) in m.
func putText(m map[string]any, name, s string) {
	m[name] = strings.ToValidUTF8(s, "\uFFFD")
	if !utf8.ValidString(s) {
		m[name+"_b64"] = base64.StdEncoding.EncodeToString([]byte(s))
	}
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// encodeMessage writes {"type": typ, "data": data}.
func encodeMessage(typ string, data any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	b.WriteString(strconv.Quote(typ))
	b.WriteString(`,"data":`)
	if err := appendValue(&b, reflect.ValueOf(data)); err != nil {
		return nil, err
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// encodeJSON writes v alone, as appendValue does.
func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := appendValue(&b, reflect.ValueOf(v)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// appendValue writes v as JSON, keeping Go's number kinds apart: a float is
// always written with a fraction or exponent (1.0, not 1) and an integer
// never is, so that the Go client reads back an int where the env put an
// int and a float64 where it put a float64 (Info values keep their types,
// as envs.SummaryOf and CheckEnv's Info checks need). A float that JSON
// cannot hold (NaN, ±Inf) is written as null. Map keys are sorted.
func appendValue(b *bytes.Buffer, v reflect.Value) error {
	if !v.IsValid() {
		b.WriteString("null")
		return nil
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		return appendValue(b, v.Elem())
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b.WriteString(formatFloat(v.Float(), v.Type().Bits()))
	case reflect.String:
		appendString(b, v.String())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString("null")
			return nil
		}
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := appendValue(b, v.Index(i)); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return appendJSON(b, v)
		}
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			appendString(b, k)
			b.WriteByte(':')
			if err := appendValue(b, v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key()))); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return appendJSON(b, v)
	}
	return nil
}

// appendString writes s as a JSON string; bytes that are not UTF-8 become
// U+FFFD (putText sends such text in base64 as well).
func appendString(b *bytes.Buffer, s string) {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	e := json.NewEncoder(b)
	e.SetEscapeHTML(false)
	_ = e.Encode(s)
	b.Truncate(b.Len() - 1) // Encode ends with a newline
}

// appendJSON writes a value of another kind (a struct, say) as
// encoding/json does.
func appendJSON(b *bytes.Buffer, v reflect.Value) error {
	enc, err := json.Marshal(v.Interface())
	if err != nil {
		return fmt.Errorf("encode %s: %w", v.Type(), err)
	}
	b.Write(enc)
	return nil
}

func formatFloat(f float64, bits int) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	s := strconv.FormatFloat(f, 'g', -1, bits)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// decodeValue reads JSON as the Go client wants it: numbers without a
// fraction or exponent become int (uint64 or float64 when out of int's
// range), the others float64; objects map[string]any, arrays []any.
func decodeValue(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return typedNumbers(v), nil
}

func typedNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		s := x.String()
		if !strings.ContainsAny(s, ".eE") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil && n == int64(int(n)) {
				return int(n)
			}
			if u, err := strconv.ParseUint(s, 10, 64); err == nil {
				return u
			}
		}
		f, _ := strconv.ParseFloat(s, 64)
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = typedNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = typedNumbers(e)
		}
	}
	return v
}
