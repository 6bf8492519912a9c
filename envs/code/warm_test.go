package code

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/sandbox"
)

// waitFor polls cond (bounded) until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 500 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("timed out waiting until %s", what)
}

// The pool's rules, without running Python (no interpreter starts before
// its first Run): a step holds at most all but one interpreter, another
// step takes the last at once, and a freed interpreter goes to the waiting
// step that holds the fewest even when another waited longer.
func TestWarmPoolShare(t *testing.T) {
	p := newWarmPool("python3", sandbox.Isolation{}, 3)
	require.Equal(t, 2, p.share)
	ctx := context.Background()
	a, b, c := &poolShare{}, &poolShare{}, &poolShare{}
	a1, err := p.acquire(ctx, a)
	require.NoError(t, err)
	_, err = p.acquire(ctx, a)
	require.NoError(t, err)

	// a holds its share: its third test waits though one is idle.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err = p.acquire(short, a)
	cancel()
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Empty(t, p.waiting, "a cancelled wait leaves the queue")
	assert.Len(t, p.idle, 1)

	// Another step takes the idle one at once.
	b1, err := p.acquire(ctx, b)
	require.NoError(t, err)
	assert.Equal(t, 1, b.held)

	// a waits first, then c; a frees one: c (holding none) gets it.
	got := make(chan string, 2)
	go func() {
		if s, err := p.acquire(ctx, a); err == nil && s != nil {
			got <- "a"
		}
	}()
	waitFor(t, "a waits", func() bool { p.mu.Lock(); defer p.mu.Unlock(); return len(p.waiting) == 1 })
	go func() {
		if s, err := p.acquire(ctx, c); err == nil && s != nil {
			got <- "c"
		}
	}()
	waitFor(t, "c waits", func() bool { p.mu.Lock(); defer p.mu.Unlock(); return len(p.waiting) == 2 })
	p.release(a1, a)
	assert.Equal(t, "c", <-got)
	select {
	case w := <-got:
		t.Fatalf("%s got an interpreter while none was free", w)
	case <-time.After(50 * time.Millisecond):
	}
	p.release(b1, b)
	assert.Equal(t, "a", <-got)
	assert.Equal(t, 2, a.held)
	assert.Equal(t, 1, c.held)
	assert.Empty(t, p.waiting)
}
