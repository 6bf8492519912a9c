package remote

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/remote/wire"
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
		{`{"type":"reset","data":{"tools":{"name":"python"}}}`, wire.CodeValidation},
		{`{"type":"reset","data":{"tools":["python"]}}`, wire.CodeValidation},
		{`{"type":"reset","data":{"tools":[{"name":"python","x":1}]}}`, wire.CodeValidation},
		{`{"type":"reset","data":{"tools":[{"name":"python","max_uses":0.5}]}}`, wire.CodeValidation},
		{`{"type":"reset","data":{"tools":[{"name":"python","max_uses":101}]}}`, wire.CodeValidation},
		{`{"type":"reset","data":{"tools":[{"name":"python"},{"name":"python"}]}}`, wire.CodeValidation},
		{`{"type":"reset","data":{"tools":[{},{},{},{}]}}`, wire.CodeValidation},
		{`{"type":"step","data":{"message":"x","tools":[]}}`, wire.CodeValidation},
		{``, wire.CodeInvalidJSON},
		{`garbage`, wire.CodeInvalidJSON},
		{`{"type":"reset"`, wire.CodeInvalidJSON},
		{`[1,2]`, wire.CodeInvalidJSON},
		{`"reset"`, wire.CodeInvalidJSON},
		{`null`, wire.CodeInvalidJSON},
		{`{"type":"reset"} {"type":"step"}`, wire.CodeInvalidJSON},
		{"\xff\xfe", wire.CodeInvalidJSON},
		{`{}`, wire.CodeUnknownType},
		{`{"type":7}`, wire.CodeUnknownType},
		{`{"type":"jump"}`, wire.CodeUnknownType},
		{`{"type":"reset","data":{"seed":-1}}`, wire.CodeValidation},
		{`{"type":"reset","data":{"seed":1.5}}`, wire.CodeValidation},
		{`{"type":"reset","data":{"seed":18446744073709551616}}`, wire.CodeValidation},
		{`{"type":"reset","data":{"env_id":3}}`, wire.CodeValidation},
		{`{"type":"reset","data":{"options":[1]}}`, wire.CodeValidation},
		{`{"type":"reset","data":{"message":"x"}}`, wire.CodeValidation},
		{`{"type":"reset","data":{"colour":"red"}}`, wire.CodeValidation},
		{`{"type":"reset","data":5}`, wire.CodeValidation},
		{`{"type":"reset","extra":1}`, wire.CodeValidation},
		{`{"type":"step","data":{}}`, wire.CodeValidation},
		{`{"type":"step"}`, wire.CodeValidation},
		{`{"type":"step","data":{"message":5}}`, wire.CodeValidation},
		{`{"type":"step","data":{"message_b64":"%%%"}}`, wire.CodeValidation},
		{`{"type":"step","data":{"message":"x","seed":1}}`, wire.CodeValidation},
		{`{"type":"rand","data":{"value":"-1"}}`, wire.CodeValidation},
		{`{"type":"rand","data":{}}`, wire.CodeValidation},
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
	codes := map[string]bool{wire.CodeInvalidJSON: true, wire.CodeUnknownType: true, wire.CodeValidation: true}
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
		if r.Type != wire.MsgStep {
			return
		}
		data := map[string]any{}
		wire.PutText(data, "message", r.Action)
		msg, encErr := wire.EncodeMessage(wire.MsgStep, data)
		if encErr != nil {
			t.Fatalf("encode %q: %v", r.Action, encErr)
		}
		again, err := decodeRequest(msg)
		if err != nil || again.Action != r.Action {
			t.Fatalf("action %q did not survive the round trip: %q, %v", r.Action, again.Action, err)
		}
	})
}
