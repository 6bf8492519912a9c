package terminal

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestParseAction(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    action
		errPart string
	}{
		{in: "<bash>ls -la</bash>", want: action{cmd: "ls -la"}},
		{in: "Let me look.\n<bash>\ngrep -n 'a: b' x | wc -l\n</bash>\nthen more", want: action{cmd: "grep -n 'a: b' x | wc -l"}},
		{in: "<bash>cmd: 'echo $HOME: x'\ntimeout_secs: 5</bash>", want: action{cmd: "echo $HOME: x", timeout: 5 * time.Second}},
		{in: "<bash>{cmd: ls, timeout_secs: 1.5}</bash>", want: action{cmd: "ls", timeout: 1500 * time.Millisecond}},
		{in: "<bash>cmd: [1, 2]</bash>", want: action{cmd: "cmd: [1, 2]"}}, // not a string cmd: raw
		{in: "<think>maybe <bash>rm</bash></think><bash>ls</bash>", want: action{cmd: "rm"}},
		{in: "<finish></finish><bash>ls</bash>", want: action{finish: true}},
		{in: "<bash>ls</bash><finish>", want: action{cmd: "ls"}},
		{in: "done <finish/>", want: action{finish: true}},
		{in: "<finishing> <bash>ls</bash>", want: action{cmd: "ls"}},
		{in: "<finishing>", errPart: "No action found"},
		{in: "just text", errPart: "No action found"},
		{in: "<bash>ls", errPart: "not closed"},
		{in: "<bash>  \n </bash>", errPart: "empty"},
		{in: "<bash>a\x00b</bash>", errPart: "NUL"},
		{in: "<bash>" + strings.Repeat("x", maxCommandBytes+1) + "</bash>", errPart: "bytes; the most is"},
	} {
		got := parseAction(c.in)
		if c.errPart != "" {
			assert.Contains(t, got.err, c.errPart, c.in)
			continue
		}
		assert.Equal(t, c.want, got, c.in)
	}
}

func TestHeadTail(t *testing.T) {
	assert.Equal(t, "short", headTail("short", 10))
	assert.Equal(t, "abcde\n[... 16 bytes cut ...]\nvwxyz", headTail("abcdefghijklmnopqrstuvwxyz", 10))
	// A cut never splits a UTF-8 sequence.
	got := headTail(strings.Repeat("é", 20), 9)
	assert.Equal(t, "éé\n[... 32 bytes cut ...]\néé", got)
}

func TestScore(t *testing.T) {
	rep := report{Tests: map[string]string{"test_a": "passed", "test_b": "failed", "test_c": "xfailed", "test_d": "passed"}}
	v := score(rep, nil)
	assert.Equal(t, 0.5, v.reward)
	assert.Equal(t, 2, v.passed)
	assert.Equal(t, 4, v.total)

	v = score(rep, map[string]float64{"test_a": 3, "test_b": 1, "test_z": 4})
	assert.Equal(t, 3.0/8, v.reward, "test_z is missing: failed; test_d unlisted: weight 0")
	assert.Equal(t, "missing", v.tests["test_z"])

	assert.Equal(t, "no test ran", score(report{}, nil).err)
	assert.Contains(t, score(report{Tests: map[string]string{"test_a": "passed"}, CollectErrors: []string{"test_x.py"}}, nil).err, "collection error")
	assert.Contains(t, score(report{Tests: map[string]string{"test_a": "passed"}, ExitCode: 2}, nil).err, "exit status 2")
}
