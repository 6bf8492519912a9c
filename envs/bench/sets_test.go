package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLookup(t *testing.T) {
	s, err := Lookup("MATH500")
	require.NoError(t, err)
	assert.Equal(t, "eval:MATH500", s.ID)
	s, err = Lookup("eval:2Wiki")
	require.NoError(t, err)
	assert.Equal(t, "2wiki", s.Name)
	_, err = Lookup("gsm9k")
	require.ErrorContains(t, err, `unknown benchmark "gsm9k": allowed gsm8k, math500,`)
	assert.Len(t, Sets(), 14)
}
