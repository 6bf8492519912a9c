//go:build openblas && cgo

package openblas

/*
#cgo LDFLAGS: -lopenblas
#if defined(__has_include)
#if !__has_include(<cblas.h>)
#error "the openblas build tag needs OpenBLAS's header and library: apt-get install libopenblas-dev"
#endif
#endif
#include <cblas.h>
*/
import "C"

import (
	"sync"
	"unsafe"
)

// oneThread sets OpenBLAS to one thread, once, before the first product.
var oneThread sync.Once

// Sgemm computes c = alpha·op(a)·op(b) + beta·c for row-major matrices
// (op(a) is m×k, op(b) is k×n, c is m×n) with leading dimensions lda, ldb,
// ldc, by cblas_sgemm.
//
// It runs on the calling thread: the first call sets OpenBLAS to one thread
// (openblas_set_num_threads(1), which overrides OPENBLAS_NUM_THREADS),
// because OpenBLAS's own thread pool would fight the callers' goroutines;
// callers split large products across goroutines themselves.
//
// It panics, as gonum's Sgemm does, on a negative dimension and on a
// leading dimension or a slice too short for its matrix, rather than
// letting C read or write past it.
func Sgemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	ar, ac := m, k // op(a) is stored as ar×ac
	if tA {
		ar, ac = k, m
	}
	br, bc := k, n // op(b) is stored as br×bc
	if tB {
		br, bc = n, k
	}
	switch {
	case m < 0 || n < 0 || k < 0:
		panic("openblas: negative dimension")
	case lda < max(1, ac) || ldb < max(1, bc) || ldc < max(1, n):
		panic("openblas: leading dimension smaller than its matrix")
	case m == 0 || n == 0:
		return
	case k > 0 && (len(a) < (ar-1)*lda+ac || len(b) < (br-1)*ldb+bc) || len(c) < (m-1)*ldc+n:
		panic("openblas: slice shorter than its matrix") // a and b are not read when k is 0
	}
	oneThread.Do(func() { C.openblas_set_num_threads(1) })
	C.cblas_sgemm(C.CblasRowMajor, trans(tA), trans(tB), C.blasint(m), C.blasint(n), C.blasint(k),
		C.float(alpha), ptr(a), C.blasint(lda), ptr(b), C.blasint(ldb),
		C.float(beta), ptr(c), C.blasint(ldc))
}

func trans(t bool) C.enum_CBLAS_TRANSPOSE {
	if t {
		return C.CblasTrans
	}
	return C.CblasNoTrans
}

// ptr is the address of x's first element, nil for an empty slice.
func ptr(x []float32) *C.float {
	return (*C.float)(unsafe.Pointer(unsafe.SliceData(x)))
}
