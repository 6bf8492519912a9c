package policy

import "golang.org/x/sys/cpu"

// haveKernel reports whether the AVX2/FMA micro-kernel can run here.
var haveKernel = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// haveKernel512 reports whether sgemm runs its full 12×32 tiles with the
// AVX-512 micro-kernel (AVX-512F, which cpu.X86 reports only where the OS
// saves the zmm state). Both kernels give each output the same bits, so it
// changes only the speed; the tests switch it off to compare the two paths.
var haveKernel512 = haveKernel && cpu.X86.HasAVX512F

//go:noescape
func kern6x16(a, b, c *float32, k, aRow, aK, ldb, ldc int, alpha float32, c0 *float32, ldc0 int)

//go:noescape
func kern12x32(a, b0, b1, c *float32, k, aRow, aK, ldb, ldc int, alpha float32)

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
