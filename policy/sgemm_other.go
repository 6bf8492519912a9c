//go:build !amd64

package policy

const haveKernel = false

func kern4x16(a, b, c *float32, k, aRow, aK, ldb, ldc int, alpha float32) {
	panic("kern4x16 needs amd64")
}
