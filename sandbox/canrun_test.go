package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// CanRun says no exactly when Run cannot start the program, with Run's
// error: a program on the PATH, one only its owner may run (in a private
// directory; refused where runs get a uid of their own and no bwrap mounts
// it in), and one that does not exist.
func TestCanRunAgreesWithRun(t *testing.T) {
	private := filepath.Join(t.TempDir(), "owner-only.sh")
	require.NoError(t, os.WriteFile(private, []byte("#!/bin/sh\necho ok\n"), 0o700))
	for _, name := range []string{"true", private, "no-such-program-of-gemgo"} {
		canErr := CanRun(name)
		_, runErr := Run(context.Background(), Spec{Cmd: []string{name}, Limits: Limits{Wall: 10 * time.Second}})
		if canErr == nil {
			assert.NoError(t, runErr, name)
			continue
		}
		require.Error(t, runErr, name)
		assert.Equal(t, canErr.Error(), runErr.Error(), name)
	}
	for _, iso := range Available() {
		for _, name := range []string{"true", private, "no-such-program-of-gemgo"} {
			canErr := iso.CanRun(name)
			_, runErr := RunWith(context.Background(), Spec{Cmd: []string{name}, Limits: Limits{Wall: 10 * time.Second}}, iso)
			if canErr == nil {
				assert.NoError(t, runErr, "%s under %s", name, iso.Network)
				continue
			}
			require.Error(t, runErr, name)
			assert.Equal(t, canErr.Error(), runErr.Error(), "%s under %s", name, iso.Network)
		}
	}
	assert.ErrorContains(t, CanRun("no-such-program-of-gemgo"), "not found")
	assert.NoError(t, CanRun("true"))
}
