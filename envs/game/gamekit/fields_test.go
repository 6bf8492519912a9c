package gamekit

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBoxedFields(t *testing.T) {
	f, ok := BoxedFields(`try \boxed{1 1} then \boxed{(2, 3)	x}`)
	require.True(t, ok)
	assert.Equal(t, []string{"2", "3", "x"}, f)
	f, ok = BoxedFields(`\boxed{}`)
	require.True(t, ok)
	assert.Empty(t, f)
	_, ok = BoxedFields("2 3")
	assert.False(t, ok)
}

func TestInt(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "42": 42, "+7": 7, "-3": -3, "99999999999999999999": MaxInt, "-99999999999": -MaxInt} {
		n, ok := Int(s)
		require.True(t, ok, s)
		assert.Equal(t, want, n, s)
	}
	for _, s := range []string{"", "-", "+", "1a", "1.5", " 1", "--1"} {
		_, ok := Int(s)
		assert.False(t, ok, s)
	}
}

func FuzzInt(f *testing.F) {
	for _, s := range []string{"0", "-12", "+5", "x", "123456789012345678901234567890"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := Int(s)
		if !ok {
			return
		}
		require.LessOrEqual(t, n, 1<<30)
		require.GreaterOrEqual(t, n, -(1 << 30))
		if v, err := strconv.Atoi(s); err == nil && v >= -(1<<30) && v <= 1<<30 {
			require.Equal(t, v, n, "agrees with strconv in range")
		}
	})
}
