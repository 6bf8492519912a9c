package wire

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Info values come back with their Go kinds: ints as int, floats as
// float64 (even whole ones), and strings, bools, lists and maps as JSON's.
func TestInfoKindsRoundTrip(t *testing.T) {
	in := map[string]any{
		"int": 3, "neg": -7, "float": 1.0, "frac": 0.25, "big": uint64(math.MaxUint64), "tiny": 1e-300,
		"bool": true, "str": "a\"b<>&\u00e9", "nil": nil, "list": []int{1, 2}, "strs": []string{"x"},
		"map": map[string]any{"k": 2.0, "n": 1}, "f32": float32(0.5),
	}
	enc, err := EncodeJSON(in)
	require.NoError(t, err)
	out, err := DecodeValue(enc)
	require.NoError(t, err)
	want := map[string]any{
		"int": 3, "neg": -7, "float": 1.0, "frac": 0.25, "big": uint64(math.MaxUint64), "tiny": 1e-300,
		"bool": true, "str": "a\"b<>&\u00e9", "nil": nil, "list": []any{1, 2}, "strs": []any{"x"},
		"map": map[string]any{"k": 2.0, "n": 1}, "f32": 0.5,
	}
	assert.Equal(t, want, out)
	assert.Equal(t, reflect.Float64, reflect.TypeOf(out.(map[string]any)["float"]).Kind())

	nan, err := EncodeJSON(map[string]any{"x": math.NaN(), "y": math.Inf(1)})
	require.NoError(t, err)
	assert.JSONEq(t, `{"x":null,"y":null}`, string(nan), "JSON has no NaN: null, and valid JSON")
}

func TestPutTextKeepsBytes(t *testing.T) {
	for _, s := range []string{"plain", "", "\xff\xfe raw", "é\x80"} {
		m := map[string]any{}
		PutText(m, "message", s)
		enc, err := EncodeJSON(m)
		require.NoError(t, err)
		var raw map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(enc, &raw))
		got, werr := DecodeText(raw, "message", "step")
		require.Nil(t, werr)
		assert.Equal(t, s, got)
	}
}
