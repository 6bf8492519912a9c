#include "textflag.h"

// The vector forms of gelu32, geluBwd32 and exp32 (AVX2). Each does the
// scalar code's operations in the scalar code's order, one rounding per
// operation (no fused multiply-add), so a vector result equals the scalar
// one bit for bit. c points at vecConsts: each constant repeated 8 times.

#define C(i) (i*32)(R8)

// func geluVec(y, x, th, c *float32, n int)
// y[i] = gelu(x[i]); th[i] = its tanh unless th is nil; n a multiple of 8.
TEXT ·geluVec(SB), NOSPLIT, $0-40
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ th+16(FP), DX
	MOVQ c+24(FP), R8
	MOVQ n+32(FP), CX
	SHRQ $3, CX
	JZ gdone
	VMOVUPS C(2), Y14 // −clamp
	VMOVUPS C(3), Y15 // clamp

gloop:
	VMOVUPS (SI), Y0     // v
	VMULPS C(1), Y0, Y1  // 0.044715·v
	VMULPS Y0, Y1, Y1    // ·v
	VMULPS Y0, Y1, Y1    // ·v
	VADDPS Y0, Y1, Y1    // v + …
	VMULPS C(0), Y1, Y1  // u = √(2/π)·(…)
	VMAXPS Y1, Y14, Y1   // max(u, −clamp), NaN kept
	VMINPS Y1, Y15, Y1   // min(…, clamp), NaN kept
	VMULPS Y1, Y1, Y2    // x2
	VMULPS C(4), Y2, Y3  // p
	VADDPS C(5), Y3, Y3
	VMULPS Y2, Y3, Y3
	VADDPS C(6), Y3, Y3
	VMULPS Y2, Y3, Y3
	VADDPS C(7), Y3, Y3
	VMULPS Y2, Y3, Y3
	VADDPS C(8), Y3, Y3
	VMULPS Y2, Y3, Y3
	VADDPS C(9), Y3, Y3
	VMULPS Y2, Y3, Y3
	VADDPS C(10), Y3, Y3
	VMULPS Y1, Y3, Y3    // p = x·p
	VMULPS C(11), Y2, Y4 // q
	VADDPS C(12), Y4, Y4
	VMULPS Y2, Y4, Y4
	VADDPS C(13), Y4, Y4
	VMULPS Y2, Y4, Y4
	VADDPS C(14), Y4, Y4
	VDIVPS Y4, Y3, Y3    // t = p/q
	TESTQ DX, DX
	JZ gnoth
	VMOVUPS Y3, (DX)
	ADDQ $32, DX

gnoth:
	VADDPS C(16), Y3, Y5 // 1 + t
	VMULPS C(15), Y0, Y6 // 0.5·v
	VMULPS Y5, Y6, Y6
	VMOVUPS Y6, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ gloop

gdone:
	VZEROUPPER
	RET

// func geluBwdVec(dx, dy, x, th, c *float32, n int)
// dx[i] = dy[i]·gelu'(x[i]) given the forward's tanh values th; n a
// multiple of 8.
TEXT ·geluBwdVec(SB), NOSPLIT, $0-48
	MOVQ dx+0(FP), DI
	MOVQ dy+8(FP), SI
	MOVQ x+16(FP), R9
	MOVQ th+24(FP), DX
	MOVQ c+32(FP), R8
	MOVQ n+40(FP), CX
	SHRQ $3, CX
	JZ bdone
	VMOVUPS C(16), Y15 // 1

bloop:
	VMOVUPS (DX), Y1     // t
	VMOVUPS (R9), Y0     // v
	VADDPS Y15, Y1, Y2   // 1 + t
	VMULPS C(15), Y2, Y2 // a = 0.5·(1+t)
	VMULPS C(15), Y0, Y3 // 0.5·v
	VMULPS Y1, Y1, Y4    // t·t
	VSUBPS Y4, Y15, Y4   // 1 − t·t
	VMULPS Y4, Y3, Y3
	VMULPS C(0), Y3, Y3  // ·√(2/π)
	VMULPS C(17), Y0, Y5 // 3·0.044715·v
	VMULPS Y0, Y5, Y5    // ·v
	VADDPS Y15, Y5, Y5   // 1 + …
	VMULPS Y5, Y3, Y3
	VADDPS Y3, Y2, Y2    // a + …
	VMULPS (SI), Y2, Y2  // dy·(…)
	VMOVUPS Y2, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	ADDQ $32, R9
	ADDQ $32, DX
	DECQ CX
	JNZ bloop

bdone:
	VZEROUPPER
	RET

// EXPHALF reduces four lanes src: t = x·log2(e) + 0.5 in float64, n = floor(t),
// f = float32((t − 0.5 − n)·ln 2) into fout and n as int32 into nout (Y13:
// log2(e), Y14: 0.5, Y15: ln 2; Y1, Y2 scratch), as exp32 does.
#define EXPHALF(src, fout, nout) \
	VCVTPS2PD src, Y1; \
	VMULPD Y13, Y1, Y1; \
	VADDPD Y14, Y1, Y1; \
	VROUNDPD $9, Y1, Y2; \
	VSUBPD Y14, Y1, Y1; \
	VSUBPD Y2, Y1, Y1; \
	VMULPD Y15, Y1, Y1; \
	VCVTPD2PSY Y1, fout; \
	VCVTPD2DQY Y2, nout

// func expVec(x, c *float32, n int)
// x[i] = exp32(x[i]) in place; n a multiple of 8. The range reduction runs
// in float64, four lanes at a time, as exp32's does.
TEXT ·expVec(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ c+8(FP), R8
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JZ edone
	VMOVUPD C(18), Y13 // log2(e) in float64
	VMOVUPD C(19), Y14 // 0.5 in float64
	VMOVUPD C(20), Y15 // ln 2 in float64

eloop:
	VMOVUPS (SI), Y0
	EXPHALF(X0, X3, X4) // f and n of the low four lanes
	VEXTRACTF128 $1, Y0, X5
	EXPHALF(X5, X5, X6) // and of the high four
	VINSERTF128 $1, X5, Y3, Y3 // f
	VINSERTI128 $1, X6, Y4, Y4 // n
	// p = 1 + f·(1 + f·(1/2 + f·(1/6 + f·(1/24 + f·(1/120 + f·(1/720 + f/5040))))))
	VMULPS C(27), Y3, Y5
	VADDPS C(26), Y5, Y5
	VMULPS Y3, Y5, Y5
	VADDPS C(25), Y5, Y5
	VMULPS Y3, Y5, Y5
	VADDPS C(24), Y5, Y5
	VMULPS Y3, Y5, Y5
	VADDPS C(23), Y5, Y5
	VMULPS Y3, Y5, Y5
	VADDPS C(22), Y5, Y5
	VMULPS Y3, Y5, Y5
	VADDPS C(16), Y5, Y5
	VMULPS Y3, Y5, Y5
	VADDPS C(16), Y5, Y5
	// times 2^n
	VPADDD C(21), Y4, Y4
	VPSLLD $23, Y4, Y4
	VMULPS Y4, Y5, Y5
	// x < −87: 0; x > 88: +Inf; NaN: x
	VCMPPS $1, C(28), Y0, Y6   // x < −87
	VXORPS Y7, Y7, Y7
	VBLENDVPS Y6, Y7, Y5, Y5
	VMOVUPS C(29), Y7          // 88
	VCMPPS $1, Y0, Y7, Y6      // 88 < x
	VBLENDVPS Y6, C(30), Y5, Y5
	VCMPPS $3, Y0, Y0, Y6      // unordered: NaN
	VBLENDVPS Y6, Y0, Y5, Y5
	VMOVUPS Y5, (SI)
	ADDQ $32, SI
	DECQ CX
	JNZ eloop

edone:
	VZEROUPPER
	RET
