package policy

import "golang.org/x/sys/cpu"

// haveKernel reports whether the AVX2/FMA micro-kernel can run here.
var haveKernel = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func kern6x16(a, b, c *float32, k, aRow, aK, ldb, ldc int, alpha float32)

//go:noescape
func dotScores(q, k, out *float32, n, dh, ld int, scale float32)

//go:noescape
func weightedRows(p, v, out *float32, n, dh, ld int)

//go:noescape
func geluVec(y, x, th, c *float32, n int)

//go:noescape
func geluBwdVec(dx, dy, x, th, c *float32, n int)

//go:noescape
func expVec(x, c *float32, n int)
