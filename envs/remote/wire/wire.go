package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
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
// sample and rand are gemgo's own, used by the Go client (package client) to learn
// what the env offers and to draw actions with the caller's RNG.
const (
	MsgReset       = "reset"
	MsgStep        = "step"
	MsgState       = "state"
	MsgClose       = "close"
	MsgDescribe    = "describe"
	MsgSample      = "sample"
	MsgRand        = "rand"
	MsgObservation = "observation"
	MsgError       = "error"
	MsgAction      = "action"
)

// Error is an error answered by the server, with its OpenEnv code (one of
// the Code* constants).
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf returns an *Error with code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// TextField reads a text that may come as UTF-8 (plain) or, for bytes that
// are not valid UTF-8, base64 (b64): JSON strings carry only Unicode, and a
// policy that emits raw bytes must reach the env unchanged.
func TextField(plain, b64 *string, name, typ string) (string, *Error) {
	if b64 != nil {
		b, err := base64.StdEncoding.DecodeString(*b64)
		if err != nil {
			return "", Errorf(CodeValidation, "%s: %s_b64 is not valid base64: %v", typ, name, err)
		}
		return string(b), nil
	}
	if plain == nil {
		return "", Errorf(CodeValidation, "%s: data has no %q: a text action is {\"message\": \"...\"}", typ, name)
	}
	return *plain, nil
}

// DecodeText reads the text field name (or name_b64) of a decoded object.
func DecodeText(data map[string]json.RawMessage, name, typ string) (string, *Error) {
	var plain, b64 *string
	for key, dst := range map[string]**string{name: &plain, name + "_b64": &b64} {
		raw, ok := data[key]
		if !ok {
			continue
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", Errorf(CodeValidation, "%s: %q must be a string", typ, key)
		}
		*dst = &s
	}
	return TextField(plain, b64, name, typ)
}

// PutText sets name (and name_b64 when s is not valid UTF-8) in m.
func PutText(m map[string]any, name, s string) {
	m[name] = strings.ToValidUTF8(s, "\uFFFD")
	if !utf8.ValidString(s) {
		m[name+"_b64"] = base64.StdEncoding.EncodeToString([]byte(s))
	}
}

// IsNull reports whether raw is JSON's null.
func IsNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// EncodeMessage writes {"type": typ, "data": data}.
func EncodeMessage(typ string, data any) ([]byte, error) {
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

// EncodeJSON writes v alone, as EncodeMessage writes data.
func EncodeJSON(v any) ([]byte, error) {
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
// U+FFFD (PutText sends such text in base64 as well).
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

// DecodeValue reads JSON as the Go client wants it: numbers without a
// fraction or exponent become int (uint64 or float64 when out of int's
// range), the others float64; objects map[string]any, arrays []any.
func DecodeValue(raw []byte) (any, error) {
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
