#include "textflag.h"

// func kern6x16(a, b, c *float32, k, aRow, aK, ldb, ldc int, alpha float32, c0 *float32, ldc0 int)
// c[r][0:16] = c0[r·ldc0 + 0:16] + alpha · Σ_p a[r·aRow + p·aK]·b[p·ldb + 0:16]
// for r = 0..5, one FMA onto c0 per output (AVX2 + FMA; strides and
// leading dimensions in elements; k ≥ 1). c0 = c with ldc0 = ldc adds to
// c; a row of zeros with ldc0 = 0 gives the bits of a cleared c without
// reading c; a bias row with ldc0 = 0 those of c filled with the bias
// first. The strides let it read a row-major a (aRow = lda, aK = 1) or a
// transposed one (aRow = 1, aK = lda) in place: a needs no packing. Each
// sum runs over p in order, one FMA per term, so the result does not
// depend on the tile shape.
TEXT ·kern6x16(SB), NOSPLIT, $0-88
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ c+16(FP), DX
	MOVQ k+24(FP), CX
	MOVQ aRow+32(FP), R8
	SHLQ $2, R8
	MOVQ aK+40(FP), R14
	SHLQ $2, R14
	MOVQ ldb+48(FP), R9
	SHLQ $2, R9
	MOVQ ldc+56(FP), R10
	SHLQ $2, R10
	LEAQ (SI)(R8*2), R11
	ADDQ R8, R11 // R11: row 3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	VXORPS Y12, Y12, Y12
	VXORPS Y13, Y13, Y13
	VXORPS Y14, Y14, Y14
	VXORPS Y15, Y15, Y15

loop:
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VBROADCASTSS (SI), Y2
	VFMADD231PS Y0, Y2, Y4
	VFMADD231PS Y1, Y2, Y5
	VBROADCASTSS (SI)(R8*1), Y3
	VFMADD231PS Y0, Y3, Y6
	VFMADD231PS Y1, Y3, Y7
	VBROADCASTSS (SI)(R8*2), Y2
	VFMADD231PS Y0, Y2, Y8
	VFMADD231PS Y1, Y2, Y9
	VBROADCASTSS (R11), Y3
	VFMADD231PS Y0, Y3, Y10
	VFMADD231PS Y1, Y3, Y11
	VBROADCASTSS (R11)(R8*1), Y2
	VFMADD231PS Y0, Y2, Y12
	VFMADD231PS Y1, Y2, Y13
	VBROADCASTSS (R11)(R8*2), Y3
	VFMADD231PS Y0, Y3, Y14
	VFMADD231PS Y1, Y3, Y15
	ADDQ R14, SI
	ADDQ R14, R11
	ADDQ R9, DI
	DECQ CX
	JNZ loop

	VBROADCASTSS alpha+64(FP), Y2
	MOVQ c0+72(FP), BX
	MOVQ ldc0+80(FP), R12
	SHLQ $2, R12
	VMOVUPS (BX), Y0
	VFMADD231PS Y4, Y2, Y0
	VMOVUPS Y0, (DX)
	VMOVUPS 32(BX), Y1
	VFMADD231PS Y5, Y2, Y1
	VMOVUPS Y1, 32(DX)
	ADDQ R10, DX
	ADDQ R12, BX
	VMOVUPS (BX), Y0
	VFMADD231PS Y6, Y2, Y0
	VMOVUPS Y0, (DX)
	VMOVUPS 32(BX), Y1
	VFMADD231PS Y7, Y2, Y1
	VMOVUPS Y1, 32(DX)
	ADDQ R10, DX
	ADDQ R12, BX
	VMOVUPS (BX), Y0
	VFMADD231PS Y8, Y2, Y0
	VMOVUPS Y0, (DX)
	VMOVUPS 32(BX), Y1
	VFMADD231PS Y9, Y2, Y1
	VMOVUPS Y1, 32(DX)
	ADDQ R10, DX
	ADDQ R12, BX
	VMOVUPS (BX), Y0
	VFMADD231PS Y10, Y2, Y0
	VMOVUPS Y0, (DX)
	VMOVUPS 32(BX), Y1
	VFMADD231PS Y11, Y2, Y1
	VMOVUPS Y1, 32(DX)
	ADDQ R10, DX
	ADDQ R12, BX
	VMOVUPS (BX), Y0
	VFMADD231PS Y12, Y2, Y0
	VMOVUPS Y0, (DX)
	VMOVUPS 32(BX), Y1
	VFMADD231PS Y13, Y2, Y1
	VMOVUPS Y1, 32(DX)
	ADDQ R10, DX
	ADDQ R12, BX
	VMOVUPS (BX), Y0
	VFMADD231PS Y14, Y2, Y0
	VMOVUPS Y0, (DX)
	VMOVUPS 32(BX), Y1
	VFMADD231PS Y15, Y2, Y1
	VMOVUPS Y1, 32(DX)
	VZEROUPPER
	RET
