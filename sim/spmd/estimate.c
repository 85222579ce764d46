/*
 * estimate.c — the cost model's formulas, written once: the step-time
 * estimate of `shardsim plan` (its profiles), the --trace estimate and any
 * later view use these and nothing else.
 *
 * Alpha-beta model (docs/gspmd.md 5.3). A collective over a group of n
 * devices takes
 *     steps(kind, n) x alpha + (bytes one device sends) / bandwidth
 * with the ring algorithm's step counts and bytes per device, both in
 * base/ring.c (ss_coll_ring_steps, ss_coll_ring_bytes): all_reduce 2(n-1)
 * steps; all_gather, reduce_scatter, all_to_all and broadcast n-1; permute
 * (one send to one peer) 1. A group of one device takes no steps, except
 * permute, which is always one step (a device may send to itself).
 *
 * A kernel takes the longer of its FLOPs at the device's peak and its
 * operand + result bytes at memory bandwidth (a roofline, no fusion).
 */
#include "base/base.h"

double ss_estimate_coll_seconds(ss_coll_kind kind, int64_t n, double sent, double bw,
                                double alpha)
{
    return (double)ss_coll_ring_steps(kind, n) * alpha + sent / bw;
}

double ss_estimate_kernel_seconds(double flops, double bytes, double peak_flops, double mem_bw)
{
    double tf = flops / peak_flops, tb = bytes / mem_bw;
    return tf > tb ? tf : tb;
}
