package stalltest_test

import (
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/internal/stalltest"
)

// readTimesOut reports whether a read on c gets nothing for 200 ms.
func readTimesOut(t *testing.T, c net.Conn) bool {
	t.Helper()
	require.NoError(t, c.SetReadDeadline(time.Now().Add(200*time.Millisecond)))
	_, err := c.Read(make([]byte, 16))
	return errors.Is(err, os.ErrDeadlineExceeded)
}

// Silent accepts and answers nothing.
func TestSilent(t *testing.T) {
	c, err := net.Dial("tcp", stalltest.Silent(t))
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Write([]byte("hello"))
	require.NoError(t, err)
	assert.True(t, readTimesOut(t, c))
}

// Proxy forwards both ways until Stall, and nothing after, keeping the
// connection open.
func TestProxyStalls(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	go func() { // an echo server
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); _, _ = io.Copy(c, c) }()
		}
	}()
	p := stalltest.NewProxy(t, ln.Addr().String())
	c, err := net.Dial("tcp", p.Addr())
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Write([]byte("ping"))
	require.NoError(t, err)
	buf := make([]byte, 4)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
	_, err = io.ReadFull(c, buf)
	require.NoError(t, err)
	assert.Equal(t, "ping", string(buf))

	p.Stall()
	_, err = c.Write([]byte("pong"))
	require.NoError(t, err, "the connection stays open")
	assert.True(t, readTimesOut(t, c), "nothing comes back once stalled")
}
