/*
 * blas.c — OpenBLAS, loaded the first time a dot needs sgemm.
 *
 * shardsim does not link OpenBLAS: loading it costs every process about
 * 2.5 ms (relocations, CPU detection, a thread pool) and brings
 * libgfortran's libquadmath, whose printf hooks send every later printf
 * of the process down glibc's slow path (twice the time). Programs that
 * never run a large dot (`shardsim plan`, imports, reports) pay none of
 * it; the first ss__k_blas_sgemm loads it once for the whole process.
 *
 * Where: the library the build found (SS_OPENBLAS_DIR, the libdir of
 * OpenBLAS's pkg-config file, given by meson), then the loader's search
 * path. Once loaded it runs single-threaded (devices are already one
 * thread each; a single-threaded sgemm on the same shapes is
 * deterministic) and its thread pool, started as it loaded, is stopped.
 */
#include "blas.h"
#include "kernels_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#ifndef SS_OPENBLAS_DIR
#define SS_OPENBLAS_DIR ""
#endif

static pthread_once_t blas_once = PTHREAD_ONCE_INIT;
static ss__k_sgemm_fn blas_sgemm;      /* set once by blas_load_once */
static char blas_error[256];           /* why it could not be loaded */

/* File names to try, in order: the build's library, then the loader's. */
static const char *const BLAS_NAMES[] = {"libopenblas.so.0", "libopenblas.dylib",
                                         "libopenblas.so"};

static void *open_blas(void)
{
    int nnames = (int)(sizeof BLAS_NAMES / sizeof BLAS_NAMES[0]);
    for (int dir = 0; dir < 2; dir++)
        for (int k = 0; k < nnames; k++) {
            if (dir == 0 && !SS_OPENBLAS_DIR[0])
                continue;
            char path[1024];
            snprintf(path, sizeof path, "%s%s%s", dir == 0 ? SS_OPENBLAS_DIR : "",
                     dir == 0 ? "/" : "", BLAS_NAMES[k]);
            void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            if (h)
                return h;
        }
    return NULL;
}

static void blas_load_once(void)
{
    void *h = open_blas();
    if (!h) {
        snprintf(blas_error, sizeof blas_error, "%s", dlerror());
        return;
    }
    ss__k_sgemm_fn sgemm = (ss__k_sgemm_fn)dlsym(h, "cblas_sgemm");
    void (*set_threads)(int) = (void (*)(int))dlsym(h, "openblas_set_num_threads");
    /* OpenBLAS's own entry that stops its pool (it calls it before a fork);
     * absent from older versions. */
    int (*stop_pool)(void) = (int (*)(void))dlsym(h, "blas_thread_shutdown_");
    if (!sgemm || !set_threads) {
        snprintf(blas_error, sizeof blas_error, "it has no %s",
                 sgemm ? "openblas_set_num_threads" : "cblas_sgemm");
        return;
    }
    set_threads(1);
    if (stop_pool)
        stop_pool();
    blas_sgemm = sgemm;
}

ss_status ss__k_blas_sgemm(ss__k_sgemm_fn *sgemm)
{
    pthread_once(&blas_once, blas_load_once);
    if (!blas_sgemm)
        return ss__fail(SS_ERR_UNSUPPORTED, "dot_general: cannot load OpenBLAS (from '%s' or "
                        "the loader's path): %s", SS_OPENBLAS_DIR, blas_error);
    *sgemm = blas_sgemm;
    return SS_OK;
}
