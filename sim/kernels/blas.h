/*
 * blas.h — OpenBLAS's sgemm, loaded on first use (blas.c). For dot.c only.
 */
#ifndef SS_KERNELS_BLAS_H
#define SS_KERNELS_BLAS_H

#include "kernels.h"

#include <cblas.h>

/* cblas_sgemm's signature. */
typedef void (*ss__k_sgemm_fn)(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE trans_a,
                               enum CBLAS_TRANSPOSE trans_b, blasint m, blasint n, blasint k,
                               float alpha, const float *a, blasint lda, const float *b,
                               blasint ldb, float beta, float *c, blasint ldc);

/* OpenBLAS's cblas_sgemm, single-threaded: the library is loaded on the
 * first call (once per process; thread-safe). SS_ERR_UNSUPPORTED, with the
 * loader's reason, when it cannot be loaded. */
ss_status ss__k_blas_sgemm(ss__k_sgemm_fn *sgemm);

#endif
