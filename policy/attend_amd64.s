#include "textflag.h"

// func dotScores(q, k, out *float32, n, dh, ld int, scale float32)
// out[j] = scale · Σ_{e<dh} q[e]·k[j·ld + e] for j < n (AVX2 + FMA; dh a
// positive multiple of 8, n ≥ 1; ld in elements).
TEXT ·dotScores(SB), NOSPLIT, $0-52
	MOVQ q+0(FP), SI
	MOVQ k+8(FP), DI
	MOVQ out+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ dh+32(FP), R8
	MOVQ ld+40(FP), R9
	SHLQ $2, R9
	VMOVSS scale+48(FP), X15

row:
	VXORPS Y0, Y0, Y0
	MOVQ DI, R10
	MOVQ SI, R11
	MOVQ R8, R12

inner:
	VMOVUPS (R11), Y1
	VFMADD231PS (R10), Y1, Y0
	ADDQ $32, R10
	ADDQ $32, R11
	SUBQ $8, R12
	JNZ inner

	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VMULSS X15, X0, X0
	VMOVSS X0, (DX)
	ADDQ $4, DX
	ADDQ R9, DI
	DECQ CX
	JNZ row
	VZEROUPPER
	RET

// func weightedRows(p, v, out *float32, n, dh, ld int)
// out[e] = Σ_{j<n} p[j]·v[j·ld + e] for e < dh (AVX2 + FMA; dh a positive
// multiple of 8, n ≥ 1; ld in elements).
TEXT ·weightedRows(SB), NOSPLIT, $0-48
	MOVQ p+0(FP), SI
	MOVQ v+8(FP), DI
	MOVQ out+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ dh+32(FP), R8
	MOVQ ld+40(FP), R9
	SHLQ $2, R9

col:
	VXORPS Y0, Y0, Y0
	MOVQ SI, R10
	MOVQ DI, R11
	MOVQ CX, R12

acc:
	VBROADCASTSS (R10), Y1
	VFMADD231PS (R11), Y1, Y0
	ADDQ $4, R10
	ADDQ R9, R11
	DECQ R12
	JNZ acc

	VMOVUPS Y0, (DX)
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, R8
	JNZ col
	VZEROUPPER
	RET
