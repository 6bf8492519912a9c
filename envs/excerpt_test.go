package envs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestExcerpt(t *testing.T) {
	assert.Equal(t, `"up"`, Excerpt("up"))
	assert.Equal(t, `"a\nb"`, Excerpt("a\nb"))
	long := Excerpt(strings.Repeat("x", 1<<20))
	assert.Equal(t, `"`+strings.Repeat("x", ExcerptBytes)+`"… (1048576 bytes)`, long)
	// A cut never splits a rune: 63 ASCII bytes then a 3-byte rune.
	s := strings.Repeat("a", ExcerptBytes-1) + "日本"
	assert.Equal(t, `"`+strings.Repeat("a", ExcerptBytes-1)+`"… (69 bytes)`, Excerpt(s))
}
