//go:build !linux

package sandbox

import "time"

// treeCPU is Linux-only (it reads /proc); elsewhere the rusage Wait reads
// is all there is.
func treeCPU(root int) time.Duration { return 0 }
