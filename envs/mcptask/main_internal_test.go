package mcptask

import (
	"os"
	"testing"
)

// TestMain keeps the process's cluster between the tests' envs (each
// would otherwise start and stop one) and stops it at the end.
func TestMain(m *testing.M) {
	shared.keep = true
	code := m.Run()
	shared.mu.Lock()
	if shared.c != nil {
		_ = shared.c.stop()
		shared.c = nil
	}
	shared.mu.Unlock()
	os.Exit(code)
}
