/*
 * hlo_internal.h — what the two HLO sharding files of sim/mesh share: the
 * "iota" description of a tile assignment, XLA's normalisation of a tiled
 * sharding, and the text printer.
 *
 * hlo.c turns NamedShardings into HLO shardings and back; hlo_text.c parses
 * and prints the text. Both work on ss_hlo (include/shardsim.h).
 */
#ifndef SS_HLO_INTERNAL_H
#define SS_HLO_INTERNAL_H

#include "mesh_internal.h"

/* Most reshape dims an iota description can have. A mesh gives at most
 * SS_MAX_AXES; a device list of at most SS_MAX_DEVICES (2^12) entries at
 * most 12 non-trivial factors. */
#define SS__IOTA_MAX 16

/* An iota device array: arange(N).reshape(dims).transpose(perm), flattened
 * row-major. perm[k] is the reshape dim that becomes the k-th (k = 0 major)
 * dim after the transpose. Canonical when no dim has size 1 and no two
 * neighbouring perm entries are neighbouring dims in increasing order; the
 * canonical form of N devices with no transpose is dims = {N}, perm = {0}. */
typedef struct ss__iota {
    int n;
    int64_t dims[SS__IOTA_MAX];
    int perm[SS__IOTA_MAX];
} ss__iota;

/* Bring `io` to canonical form: drop size-1 dims, merge runs of
 * consecutive dims that stay consecutive after the transpose, repeat until
 * nothing changes. The device array it describes is unchanged. */
void ss__iota_canonicalize(ss__iota *io);
/* Write the n = product(dims) devices `io` describes to out[0..n). */
void ss__iota_fill(const ss__iota *io, int out[]);
/* If devices[0..n) is arange(n).reshape(r).transpose(p) for some r, p,
 * store the canonical (r, p) in *out and return true; else false. */
bool ss__iota_detect(const int devices[], int n, ss__iota *out);

/* Check that a caller-filled ss_hlo is self-consistent (kind, dims, counts,
 * distinct non-negative devices). SS_ERR_INVALID with the reason if not. */
ss_status ss__hlo_check(const ss_hlo *hlo);
/* XLA's normal form of a sharding, as XLA's own parser builds it:
 * subgroup dims of size 1 are dropped, MANUAL precedes REPLICATED (the
 * device array is transposed to match), device ids inside each replication
 * group ascend, and a sharding with no data tiling and a single subgroup
 * type collapses to {replicated} or {manual} (likewise a replication group
 * spanning every device). `out` owns a fresh device array (ss_hlo_free).
 * `in` must pass ss__hlo_check. */
ss_status ss__hlo_normalize(const ss_hlo *in, ss_hlo *out);
/* Append the text of `hlo` (assumed normal) to b. The device array is
 * printed as `iota` when iota is non-NULL, else as the explicit list. */
void ss__hlo_print_buf(ss__buf *b, const ss_hlo *hlo, const ss__iota *iota);

#endif
