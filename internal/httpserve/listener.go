package httpserve

import (
	"container/list"
	"net"
	"net/http"
	"sync"
)

// capListener holds at most max connections. At the cap, Accept closes
// a spare connection to make room for the one it accepted: the one idle
// longest between requests, or, when none is idle, the one new and silent
// longest (a new connection's request may be on its way, so an idle one,
// already served, goes first); when none is spare it waits until one
// closes, and the kernel's backlog holds the connections behind. Without the eviction, a cap only moves the
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
	idle  list.List // *capConn idle between requests, the longest idle first
	fresh list.List // *capConn accepted and not yet read from, the oldest first
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
	elem   *list.Element // its place in l.idle or l.fresh; nil when not spare (guarded by l.mu)
	in     *list.List    // the list elem is in (guarded by l.mu)
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
			cc.spare(&l.fresh) // new: spare until its first request arrives
			l.mu.Unlock()
			return cc, nil
		}
		var victim *capConn
		e := l.idle.Front()
		if e == nil {
			e = l.fresh.Front()
		}
		if e != nil {
			victim = e.Value.(*capConn)
			victim.unspare()
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

// spare puts c at the back of list (l.mu held).
func (c *capConn) spare(list *list.List) {
	c.elem, c.in = list.PushBack(c), list
}

// unspare takes c off its spare list, if it is on one (l.mu held).
func (c *capConn) unspare() {
	if c.elem != nil {
		c.in.Remove(c.elem)
		c.elem, c.in = nil, nil
	}
}

// track is the http.Server's ConnState hook: it keeps the spare lists in
// order.
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
	cc.unspare()
	switch st {
	case http.StateNew:
		cc.spare(&l.fresh)
	case http.StateIdle:
		cc.spare(&l.idle)
	}
}

// Close closes the connection and frees its slot (once).
func (c *capConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		l := c.l
		l.mu.Lock()
		c.unspare()
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
