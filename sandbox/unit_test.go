package sandbox

import (
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func lookSh() (string, error) { return exec.LookPath("sh") }

func TestCapture(t *testing.T) {
	calls := 0
	c := &capture{limit: 5, overflow: func() { calls++ }}
	n, err := c.Write([]byte("abc"))
	assert.Equal(t, 3, n)
	assert.NoError(t, err)
	n, _ = c.Write([]byte("de"))
	assert.Equal(t, 2, n)
	b, trunc := c.bytes()
	assert.Equal(t, "abcde", string(b))
	assert.False(t, trunc)
	assert.Equal(t, 0, calls)
	n, _ = c.Write([]byte("fg"))
	assert.Equal(t, 2, n, "swallowed so the pipe drains")
	_, _ = c.Write([]byte("h"))
	b, trunc = c.bytes()
	assert.Equal(t, "abcde", string(b))
	assert.True(t, trunc)
	assert.Equal(t, 1, calls, "overflow fires once")

	c = &capture{limit: 4, overflow: func() { calls++ }}
	_, _ = c.Write([]byte("123456"))
	b, _ = c.bytes()
	assert.Equal(t, "1234", string(b), "a write across the limit keeps its head")
}

func TestCPUSeconds(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want int64
	}{{0, 1}, {time.Millisecond, 1}, {time.Second, 1}, {time.Second + 1, 2}, {2500 * time.Millisecond, 3}} {
		assert.Equal(t, tc.want, cpuSeconds(tc.d), "%v", tc.d)
	}
}

func TestWrap(t *testing.T) {
	lim := Limits{CPU: 1500 * time.Millisecond, MemoryBytes: 1000, FileBytes: 7}
	p := Isolation{Limits: LimitsPrlimit, tool: "/usr/bin/prlimit"}
	assert.Equal(t, []string{"/usr/bin/prlimit", "--cpu=2:2", "--as=1000:1000", "--fsize=7:7", "--core=0:0", "--", "/py", "a"},
		p.wrap(lim, "/py", []string{"a"}))
	u := Isolation{Limits: LimitsUlimit, tool: "/bin/sh"}
	assert.Equal(t, []string{"/bin/sh", "-c", `ulimit -t 2 && ulimit -v 1 && ulimit -c 0 && exec "$@"`, "sh", "/py"},
		u.wrap(lim, "/py", nil))
	assert.Equal(t, []string{"/py", "a"}, Isolation{Limits: LimitsNone}.wrap(lim, "/py", []string{"a"}))
}
