package envs

import "errors"

// ErrNotReset is returned by Step when it is called before Reset or after
// the episode has ended.
var ErrNotReset = errors.New("step called without an active episode: call Reset first")
