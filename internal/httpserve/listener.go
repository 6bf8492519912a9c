package httpserve

import (
	"container/list"
	"net"
	"net/http"
	"sync"
)

// capListener holds at most max connections. At the cap, Accept closes
// the connection that has been spare longest (idle between requests, or
// new and silent) to make room for the one it accepted; when none is
// spare it waits until one closes, and the kernel's backlog holds the
// connections behind. Without the eviction, a cap only moves the
// exhaustion: every slot held by an idle keep-alive connection, new
// requests would wait for IdleTimeout.
//
// The states come from http.Server.ConnState (track): http.StateNew and
// http.StateIdle are spare, http.StateActive and http.StateHijacked (a
// WebSocket) are not.
type capListener struct {
	net.Listener
	max int

	mu    sync.Mutex
	open  int       // connections accepted and not yet closed
	spare list.List // *capConn, the longest spare first
	freed chan struct{}
	done  chan struct{}
	once  sync.Once
}

func newCapListener(ln net.Listener, max int) *capListener {
	return &capListener{Listener: ln, max: max, freed: make(chan struct{}, 1), done: make(chan struct{})}
}

// capConn is a connection of a capListener.
type capConn struct {
	net.Conn
	l      *capListener
	elem   *list.Element // its place in l.spare; nil when not spare (guarded by l.mu)
	closed bool          // guarded by l.mu
	once   sync.Once
}

// Accept returns the next connection, once there is room for it.
func (l *capListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	for {
		l.mu.Lock()
		if l.open < l.max {
			l.open++
			cc := &capConn{Conn: c, l: l}
			cc.elem = l.spare.PushBack(cc) // new: spare until its first request arrives
			l.mu.Unlock()
			return cc, nil
		}
		var victim *capConn
		if e := l.spare.Front(); e != nil {
			victim = e.Value.(*capConn)
			l.spare.Remove(e)
			victim.elem = nil
		}
		l.mu.Unlock()
		if victim != nil {
			_ = victim.Close() // frees its slot
			continue
		}
		select {
		case <-l.freed:
		case <-l.done:
			_ = c.Close()
			return nil, net.ErrClosed
		}
	}
}

// Close stops accepting and wakes an Accept waiting for room.
func (l *capListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// track is the http.Server's ConnState hook: it keeps l.spare in order.
func (l *capListener) track(c net.Conn, st http.ConnState) {
	cc, ok := c.(*capConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if cc.closed {
		return
	}
	if cc.elem != nil {
		l.spare.Remove(cc.elem)
		cc.elem = nil
	}
	if st == http.StateNew || st == http.StateIdle {
		cc.elem = l.spare.PushBack(cc)
	}
}

// Close closes the connection and frees its slot (once).
func (c *capConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		l := c.l
		l.mu.Lock()
		if c.elem != nil {
			l.spare.Remove(c.elem)
			c.elem = nil
		}
		c.closed = true
		l.open--
		l.mu.Unlock()
		select {
		case l.freed <- struct{}{}:
		default:
		}
	})
	return err
}

// CloseWrite half-closes the connection when the inner one can, as
// net/http does before closing a connection whose request it refused.
func (c *capConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
