package sandbox

import "sync"

// capture keeps the first limit bytes written to it; the first byte beyond
// calls overflow once and the rest is discarded (the writer still returns
// success, so the copying goroutine drains the pipe until the kill lands).
type capture struct {
	mu        sync.Mutex
	limit     int64
	buf       []byte
	truncated bool
	overflow  func()
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.limit - int64(len(c.buf))
	if int64(len(p)) <= room {
		c.buf = append(c.buf, p...)
		return len(p), nil
	}
	if room > 0 {
		c.buf = append(c.buf, p[:room]...)
	}
	if !c.truncated {
		c.truncated = true
		c.overflow()
	}
	return len(p), nil
}

func (c *capture) bytes() ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf, c.truncated
}
