//go:build !amd64

package policy

const (
	haveKernel    = false
	haveKernel512 = false
)

func kern6x16(a, b, c *float32, k, aRow, aK, ldb, ldc int, alpha float32, c0 *float32, ldc0 int) {
	panic("kern6x16 needs amd64")
}

func kern12x32(a, b0, b1, c *float32, k, aRow, aK, ldb, ldc int, alpha float32) {
	panic("kern12x32 needs amd64")
}

func dotScores(q, k, out *float32, n, dh, ld int, scale float32) {
	panic("dotScores needs amd64")
}

func weightedRows(p, v, out *float32, n, dh, ld int) {
	panic("weightedRows needs amd64")
}

func geluVec(y, x, th, c *float32, n int) { panic("geluVec needs amd64") }

func geluBwdVec(dx, dy, x, th, c *float32, n int) { panic("geluBwdVec needs amd64") }

func expVec(x, c *float32, n int) { panic("expVec needs amd64") }
