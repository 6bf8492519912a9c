package remote

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/tools"
)

func TestDecodeRequestCodes(t *testing.T) {
	for _, tc := range []struct {
		frame string
		code  string // "" when the frame is valid
	}{
		{`{"type":"reset","data":{"seed":7}}`, ""},
		{`{"type":"reset","data":{"seed":18446744073709551615,"env_id":"game:X","options":{"a":1},"episode_id":"e"}}`, ""},
		{`{"type":"reset"}`, ""},
		{`{"type":"reset","data":null}`, ""},
		{`{"type":"step","data":{"message":"\\boxed{5}"}}`, ""},
		{`{"type":"step","data":{"message":"x","metadata":{"k":1}}}`, ""},
		{`{"type":"step","data":{"message_b64":"/w=="}}`, ""},
		{`{"type":"state"}`, ""},
		{`{"type":"close"}`, ""},
		{`{"type":"rand","data":{"value":"123"}}`, ""},
		{`{"type":"reset","data":{"tools":[{"name":"python","max_uses":2,"timeout":"3s"},{"name":"search_tool"}]}}`, ""},
		{`{"type":"reset","data":{"tools":[]}}`, ""},
		{`{"type":"reset","data":{"tools":null}}`, ""},
		{`{"type":"describe","data":{"env_id":"x","tools":[{"name":"python"}]}}`, ""},
		{`{"type":"reset","data":{"tools":{"name":"python"}}}`, CodeValidation},
		{`{"type":"reset","data":{"tools":["python"]}}`, CodeValidation},
		{`{"type":"reset","data":{"tools":[{"name":"python","x":1}]}}`, CodeValidation},
		{`{"type":"reset","data":{"tools":[{"name":"python","max_uses":0.5}]}}`, CodeValidation},
		{`{"type":"reset","data":{"tools":[{"name":"python","max_uses":101}]}}`, CodeValidation},
		{`{"type":"reset","data":{"tools":[{"name":"python"},{"name":"python"}]}}`, CodeValidation},
		{`{"type":"reset","data":{"tools":[{},{},{},{}]}}`, CodeValidation},
		{`{"type":"step","data":{"message":"x","tools":[]}}`, CodeValidation},
		{``, CodeInvalidJSON},
		{`garbage`, CodeInvalidJSON},
		{`{"type":"reset"`, CodeInvalidJSON},
		{`[1,2]`, CodeInvalidJSON},
		{`"reset"`, CodeInvalidJSON},
		{`null`, CodeInvalidJSON},
		{`{"type":"reset"} {"type":"step"}`, CodeInvalidJSON},
		{"\xff\xfe", CodeInvalidJSON},
		{`{}`, CodeUnknownType},
		{`{"type":7}`, CodeUnknownType},
		{`{"type":"jump"}`, CodeUnknownType},
		{`{"type":"reset","data":{"seed":-1}}`, CodeValidation},
		{`{"type":"reset","data":{"seed":1.5}}`, CodeValidation},
		{`{"type":"reset","data":{"seed":18446744073709551616}}`, CodeValidation},
		{`{"type":"reset","data":{"env_id":3}}`, CodeValidation},
		{`{"type":"reset","data":{"options":[1]}}`, CodeValidation},
		{`{"type":"reset","data":{"message":"x"}}`, CodeValidation},
		{`{"type":"reset","data":{"colour":"red"}}`, CodeValidation},
		{`{"type":"reset","data":5}`, CodeValidation},
		{`{"type":"reset","extra":1}`, CodeValidation},
		{`{"type":"step","data":{}}`, CodeValidation},
		{`{"type":"step"}`, CodeValidation},
		{`{"type":"step","data":{"message":5}}`, CodeValidation},
		{`{"type":"step","data":{"message_b64":"%%%"}}`, CodeValidation},
		{`{"type":"step","data":{"message":"x","seed":1}}`, CodeValidation},
		{`{"type":"rand","data":{"value":"-1"}}`, CodeValidation},
		{`{"type":"rand","data":{}}`, CodeValidation},
	} {
		_, err := decodeRequest([]byte(tc.frame))
		if tc.code == "" {
			assert.Nil(t, err, "%s", tc.frame)
			continue
		}
		if assert.NotNil(t, err, "%s", tc.frame) {
			assert.Equal(t, tc.code, err.Code, "%s: %s", tc.frame, err.Message)
			assert.NotEmpty(t, err.Message)
		}
	}
}

func TestDecodeRequestValues(t *testing.T) {
	r, err := decodeRequest([]byte(`{"type":"reset","data":{"seed":18446744073709551615,"env_id":"game:X","options":{"n":3,"style":"brief"}}}`))
	require.Nil(t, err)
	assert.Equal(t, request{Type: "reset", Seed: math.MaxUint64, HasSeed: true, EnvID: "game:X", Options: map[string]any{"n": 3.0, "style": "brief"}}, r)
	r, err = decodeRequest([]byte(`{"type":"reset","data":{"tools":[{"name":"python_tool","max_uses":2,"timeout":"1.5s"}]}}`))
	require.Nil(t, err)
	assert.Equal(t, []tools.Spec{{Name: "python_tool", MaxUses: 2, Timeout: 1500 * time.Millisecond}}, r.Tools)
	r, err = decodeRequest([]byte(`{"type":"reset","data":{"tools":[]}}`))
	require.Nil(t, err)
	assert.Equal(t, []tools.Spec{}, r.Tools, "tools: [] names no tools (and drops a session's tools)")
	r, err = decodeRequest([]byte(`{"type":"step","data":{"message":"a","message_b64":"/wA="}}`))
	require.Nil(t, err)
	assert.Equal(t, "\xff\x00", r.Action, "the base64 bytes win over the lossy text")
}

// Info values come back with their Go kinds: ints as int, floats as
// float64 (even whole ones), and strings, bools, lists and maps as JSON's.
func TestInfoKindsRoundTrip(t *testing.T) {
	in := map[string]any{
		"int": 3, "neg": -7, "float": 1.0, "frac": 0.25, "big": uint64(math.MaxUint64), "tiny": 1e-300,
		"bool": true, "str": "a\"b<>&\u00e9", "nil": nil, "list": []int{1, 2}, "strs": []string{"x"},
		"map": map[string]any{"k": 2.0, "n": 1}, "f32": float32(0.5),
	}
	enc, err := encodeJSON(in)
	require.NoError(t, err)
	out, err := decodeValue(enc)
	require.NoError(t, err)
	want := map[string]any{
		"int": 3, "neg": -7, "float": 1.0, "frac": 0.25, "big": uint64(math.MaxUint64), "tiny": 1e-300,
		"bool": true, "str": "a\"b<>&\u00e9", "nil": nil, "list": []any{1, 2}, "strs": []any{"x"},
		"map": map[string]any{"k": 2.0, "n": 1}, "f32": 0.5,
	}
	assert.Equal(t, want, out)
	assert.Equal(t, reflect.Float64, reflect.TypeOf(out.(map[string]any)["float"]).Kind())

	nan, err := encodeJSON(map[string]any{"x": math.NaN(), "y": math.Inf(1)})
	require.NoError(t, err)
	assert.JSONEq(t, `{"x":null,"y":null}`, string(nan), "JSON has no NaN: null, and valid JSON")
}

func TestPutTextKeepsBytes(t *testing.T) {
	for _, s := range []string{"plain", "", "\xff\xfe raw", "é\x80"} {
		m := map[string]any{}
		putText(m, "message", s)
		enc, err := encodeJSON(m)
		require.NoError(t, err)
		var raw map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(enc, &raw))
		got, werr := decodeText(raw, "message", "step")
		require.Nil(t, werr)
		assert.Equal(t, s, got)
	}
}

// FuzzDecodeRequest: the decoder never panics, every error has a code
// and a message, and an accepted step's action survives the client's
// encoding unchanged.
func FuzzDecodeRequest(f *testing.F) {
	for _, seed := range []string{
		`{"type":"reset","data":{"seed":7,"env_id":"game:GuessTheNumber-v0-easy","options":{"style":"brief"}}}`,
		`{"type":"step","data":{"message":"\\boxed{5}"}}`,
		`{"type":"step","data":{"message_b64":"/w=="}}`,
		`{"type":"state"}`, `{"type":"close"}`, `{"type":"describe","data":{"env_id":"x"}}`,
		`{"type":"sample"}`, `{"type":"rand","data":{"value":"1"}}`,
		`{"type":"step","data":{"message":5}}`, `{"type":"reset","data":{"seed":-1}}`,
		`{"type":"reset","data":{"tools":[{"name":"python","max_uses":2,"timeout":"3s"}]}}`,
		`{"type":"reset","data":{"tools":[{"name":"search","topk":"x"}]}}`,
		`[]`, `{`, `null`, "\x00\xff", `{"type":"step","data":{"message":"\ud800"}}`,
	} {
		f.Add([]byte(seed))
	}
	codes := map[string]bool{CodeInvalidJSON: true, CodeUnknownType: true, CodeValidation: true}
	f.Fuzz(func(t *testing.T, frame []byte) {
		r, err := decodeRequest(frame)
		if err != nil {
			if !codes[err.Code] || err.Message == "" {
				t.Fatalf("decodeRequest(%q): error %+v: want a decoding code and a message", frame, err)
			}
			return
		}
		if _, known := allowedFields[r.Type]; !known {
			t.Fatalf("decodeRequest(%q) accepted type %q", frame, r.Type)
		}
		if r.Type != msgStep {
			return
		}
		data := map[string]any{}
		putText(data, "message", r.Action)
		msg, encErr := encodeMessage(msgStep, data)
		if encErr != nil {
			t.Fatalf("encode %q: %v", r.Action, encErr)
		}
		again, err := decodeRequest(msg)
		if err != nil || again.Action != r.Action {
			t.Fatalf("action %q did not survive the round trip: %q, %v", r.Action, again.Action, err)
		}
	})
}
