//go:build !amd64

package policy

const haveKernel = false

func kern4x16(a, b, c *float32, k, aRow, aK, ldb, ldc int, alpha float32) {
	panic("kern4x16 needs amd64")
}

func dotScores(q, k, out *float32, n, dh, ld int, scale float32) {
	panic("dotScores needs amd64")
}

func weightedRows(p, v, out *float32, n, dh, ld int) {
	panic("weightedRows needs amd64")
}
