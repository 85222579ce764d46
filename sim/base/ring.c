/*
 * ring.c — the ring model of a collective, written once: how many steps it
 * takes and how many bytes one device sends. The ledger (device/), the
 * resharding planner (spmd/reshard.c), the cost model (spmd/estimate.c) and
 * the bus-bandwidth figures of the benchmarks all use these functions, so a
 * plan and a run cannot disagree on them.
 *
 * Sources: the ring all-reduce is a reduce-scatter then an all-gather, n-1
 * steps each, every device sending (n-1)/n of the buffer in each half
 * (Patarasuk and Yuan, "Bandwidth optimal all-reduce algorithms for clusters
 * of workstations", JPDC 69(2), 2009); nccl-tests' doc/PERFORMANCE.md
 * derives its bus-bandwidth factors from the same counts; docs/gspmd.md 5.1
 * states the per-kind bytes. No tree algorithm is modelled.
 */
#include "base/base.h"

int64_t ss_coll_ring_steps(ss_coll_kind kind, int64_t n)
{
    int64_t g = n > 1 ? n - 1 : 0;
    switch (kind) {
    case SS_COLL_ALL_REDUCE: return 2 * g;
    case SS_COLL_PERMUTE: return 1;
    default: return g;
    }
}

double ss_coll_ring_bytes(ss_coll_kind kind, int64_t n, double bytes)
{
    double g = (double)n;
    switch (kind) {
    case SS_COLL_ALL_REDUCE: return 2 * (g - 1) / g * bytes;
    case SS_COLL_ALL_GATHER:
    case SS_COLL_REDUCE_SCATTER:
    case SS_COLL_ALL_TO_ALL: return (g - 1) / g * bytes;
    case SS_COLL_BROADCAST: return n > 1 ? bytes : 0;
    default: return bytes;
    }
}

double ss_coll_busbw_factor(ss_coll_kind kind, int64_t n)
{
    switch (kind) {
    case SS_COLL_ALL_REDUCE:
    case SS_COLL_ALL_GATHER:
    case SS_COLL_REDUCE_SCATTER:
    case SS_COLL_ALL_TO_ALL: return ss_coll_ring_bytes(kind, n, 1.0);
    default: return 1;
    }
}
