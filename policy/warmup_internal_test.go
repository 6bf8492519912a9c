package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCutPrompt(t *testing.T) {
	p := []int{BOSID, 10, 11, 12, 13, SepID}
	assert.Equal(t, []int{BOSID, 13, SepID}, CutPrompt(p, 3))
	assert.Equal(t, []int{BOSID, SepID}, CutPrompt(p, 2))
	assert.Equal(t, p, CutPrompt(p, len(p)))
	assert.Equal(t, []int{BOSID, 10, 11, 12, 13, SepID}, p, "the input is not modified")
}
