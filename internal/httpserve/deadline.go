package httpserve

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// withBodyDeadline gives the body of each request d to arrive: it sets the
// connection's read deadline when the handler starts and clears it once the
// body has been read to its end, so that net/http's watch for a client
// that hangs up (a background read after the body) is not cut while the
// handler works. A request without a body (GET, a WebSocket upgrade) gets
// no deadline: http.Server.ReadTimeout would instead bound every read of a
// hijacked WebSocket connection too.
func withBodyDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		if rc.SetReadDeadline(time.Now().Add(d)) == nil {
			r.Body = &deadlineBody{ReadCloser: r.Body, w: w, rc: rc, d: d}
		}
		h.ServeHTTP(w, r)
	})
}

// deadlineBody is a request body under a read deadline.
type deadlineBody struct {
	io.ReadCloser
	w    http.ResponseWriter
	rc   *http.ResponseController
	d    time.Duration
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == nil || b.done {
		return n, err
	}
	b.done = true
	if err == io.EOF {
		_ = b.rc.SetReadDeadline(time.Time{})
		return n, err
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		// the rest of the body is still on its way: this connection
		// cannot carry another request
		b.w.Header().Set("Connection", "close")
		err = fmt.Errorf("the request body did not arrive within %s: %w", b.d, err)
	}
	return n, err
}
