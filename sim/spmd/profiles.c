/*
 * profiles.c — hardware profiles as data (one table, looked up by name:
 * ss_hw_profile_find), and the step-time estimate of an executable under a
 * profile (ss_estimate_step) that `shardsim plan` prints for each. A new
 * profile is one row of `profiles` with its figures' sources in a comment.
 *
 * The model (docs/gspmd.md 5.3; the formulas are the library's
 * ss_estimate_kernel_seconds and ss_estimate_coll_seconds, in
 * sim/spmd/estimate.c): a roofline per kernel, alpha-beta with ring step
 * counts per collective. An axis whose device groups fit inside one node
 * (row-major device ids, devices_per_node consecutive ids per node) uses the
 * node's links, otherwise the network. Nothing overlaps: the estimate is a
 * sum, an upper bound on a well-overlapped step and a lower bound on one
 * with stragglers. The figures are public peak numbers, not measurements.
 */
#include "lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* TPU v5e's on-chip memory for temporaries, measured with libtpu 0.0.42.1's
 * AOT compiler (one chip of v5e:2x4, f(x, w) = exp(x @ w) @ w.T, the
 * intermediate a bf16 temporary): intermediates of 64, 96, 100, 104 and
 * 108 MiB were placed in memory space S(1) and counted in no HBM figure
 * (temp_size_in_bytes 0), of 112, 120, 124 and 128 MiB in HBM, with a
 * 4 MiB w prefetched on chip beside them; with a 16 MiB w, 64 MiB was on
 * chip and 96 MiB not. 100 MiB is the budget that the most of those
 * probes agree with; what else XLA places on chip moves the edge. */
#define V5E_ONCHIP_TEMPORARIES ((size_t)100 << 20)
/* TPU v5p's on-chip memory (S(1)) for temporaries: FITTED, not measured.
 * libtpu 0.0.42.1's buffer assignments (XLA_FLAGS=--xla_dump_to with
 * tests/xla_tpu/make_records.py, one chip of v5p:2x2x2) hold an S(1)
 * allocation of 46.3 MiB for transformer_block_adamw and 32 MiB for
 * moe_top2_train_step, mostly prefetches (copy-start) of arguments; the
 * values computed there are of at most 4 MiB. With the output-slot model
 * (out_slots.h), 8 MiB leaves the block's v5p rows at 1.17-1.19 of XLA's
 * peak, 24 MiB puts flax_linen_train_step_b4k v5p:4x4x16 at 0.77; 16 MiB
 * brought the block's rows in (0.95-1.06). A temporary read by dots only
 * is never placed there (ss_memory_model.onchip_not_dot_operands): in
 * flax_linen_train_step_b4k's buffer assignments (v5p:2x2x2, 4x4x16) every
 * such value (the bf16 all-reduce results, each read by the next layer's
 * dot fusion; a 2 MiB f32 value between two dots, see the row below) is
 * in HBM and S(1) holds prefetched copies only; the values XLA computes
 * on chip in the block and the MoE are loop fusions' results with other
 * readers (fusion.132, an all-reduce's operand in the MoE), though the
 * MoE's and_convert_fusion (a ReLU mask read by one dot fusion) is on chip
 * too. Without the rule b4k v5p:4x4x16 planned 0.75 of XLA's peak, with
 * it 1.00 (tests/xla_tpu/test_vs_xla.py). */
#define V5P_ONCHIP_TEMPORARIES ((size_t)16 << 20)
/* XLA's TPU bookkeeping heap (xla_bookkeeping.c): a slot takes 2A - 512 B
 * of temp_size_in_bytes, A = 16 KiB the HBM alignment (libtpu 0.0.42.1's
 * default --xla_jf_program_hbm_alignment_in_kib): exact on v5e
 * (tests/data/xla_tpu/temp_slots.json: nine SMALL LM records, five probes,
 * alignments 4, 16 and 32 KiB), 0.97-1.035 of it on v5p. The slots are
 * FITTED: the mean over the SMALL LM records of temp_slots.json of XLA's
 * slots that hold no array of the program (v5e: every slot, 84-97, mean
 * 90.8; v5p: 142-156 of 154-177, mean 149.0; v5p's other slots hold the
 * loops' stacks and prefetched arrays, which the plan counts itself).
 * Loops: XLA's TPU compiler keeps every array of the SMALL LM on chip on
 * v5e (the heap holds none), on v5p the stacks its scans write in place
 * in HBM (bitcast_dynamic-update-slice fusions of f32[4, ...], 0.26-1.8
 * MB, in the heap beside the slots) and the rest on chip. */
#define TPU_BOOKKEEPING_SLOT_BYTES ((size_t)(2 * 16384 - 512))
#define V5E_BOOKKEEPING_SLOTS 91
#define V5P_BOOKKEEPING_SLOTS 149
/* The HBM XLA lets a program use, less than the chip's 16 and 95 GiB: its
 * out-of-memory error says "exceeds available HBM (15.75G)" on v5e and
 * "(95.74G)" on v5p (libtpu 0.0.42.1, tests/data/xla_tpu/flax_linen_fit_*;
 * the v5p figure is XLA's, rounded to hundredths of a GiB). */
/* The same figures are ss_memory_model.xla_heap_hbm_bytes (xla_heap.c):
 * XLA places its heap in schedule order unless that would not fit them
 * with the arguments and outputs, then largest first (six MLP dumps of
 * the fit sweep: schedule order at 524,288 and 4,194,304 rows, largest
 * first at 917,504, 1,048,576, 5,767,168 and 6,291,456). */
/* XLA's rematerialisation budget (xla_remat.c): its HloRematerialization
 * memory limit plus the program's arguments and outputs, as libtpu
 * 0.0.42.1 logs it (--vmodule=hlo_rematerialization=1; one chip of v5e:2x4
 * and of v5p:2x2x2, f(x, w) = exp(x @ w) @ w.T with x of 16 and 64 MiB
 * per chip on v5e, 16 and 256 MiB on v5p: the same sum for both sizes;
 * tests/data/xla_tpu/remat.json, make_remat.py). About 95 % of the HBM
 * available below. */
#define V5E_REMAT_BUDGET ((size_t)16063620096)
#define V5P_REMAT_BUDGET ((size_t)97663017984)
#define V5E_HBM_AVAILABLE ((size_t)(15.75 * (1 << 30)))
#define V5P_HBM_AVAILABLE ((size_t)(95.74 * (1 << 30)))

/* Host link (device_put to and from host memory kinds), per device and
 * direction. No Cloud TPU document gives a figure for the chip's link to
 * its host: ASSUMED a PCIe 4.0 x16 link, 16 GT/s x 16 lanes with 128b/130b
 * coding = 31.5 GB/s per direction (PCI-SIG's PCIe 4.0 rate), for v5e and
 * v5p alike. H100 SXM: PCIe 5.0 x16, 128 GB/s both ways = 64 GB/s per
 * direction (NVIDIA H100 datasheet). cpu-here: host memory is the same
 * DRAM, a copy at its ~20 GB/s per core. */
#define PCIE4_X16_BW 31.5e9
/* XLA's windowed einsums (xla_windowed.c): libtpu 0.0.42.1 windows the
 * output layer's dots of the LARGE scanned LM on v5e 16x16 (rings of 16
 * over fsdp and tensor) and no dot of the LM records on rings of 2 to 8
 * (tests/data/xla_tpu/lm_*: no collective-permute there but the
 * embedding's). Its probes (tests/data/xla_tpu/windowed.json,
 * make_windowed.py: the LM's output layer on v5e slices) window as a
 * while loop over rings of 8, 16 and 32 when a cost check passes (the
 * forward dot from 640 vocabulary columns per device), unrolled over
 * rings of 4, never over 2 nor over 64 and 128. The lower end is FITTED
 * between the records' 8 and 16 (the cost check is not modelled); the
 * upper end is the probes'. */
#define TPU_WINDOWED_RING 16
#define TPU_WINDOWED_RING_MAX 32
#define PCIE5_X16_BW 64e9

static const ss_hw_profile profiles[] = {
    /* A nominal model of this CPU: ~50 GFLOP/s and ~20 GB/s per core, the
     * cores shared by all virtual devices; "links" are memory copies. */
    {"cpu-here", "this CPU: ~50 GFLOP/s and ~20 GB/s per core shared by the virtual devices",
     50e9, 50e9, 20e9, 1 << 30, 10e9, 20e-6, 10e9, 20e-6, 0, {SS_LAYOUT_DENSE, 0, false, false, false, 0, 0, false, false, 0, 0, false, 0, 0}, 20e9},
    /* TPU v5e: 197 TFLOP/s bf16 (f32 matmuls run as bf16 passes at XLA's
     * default precision), 819 GB/s HBM, ICI ~50 GB/s per direction per
     * axis, 256 chips per ICI domain, DCN beyond. */
    {"tpu-v5e", "Cloud TPU v5e: 197 TFLOP/s, 16 GiB HBM at 819 GB/s, ICI 50 GB/s/axis, "
                "256 chips/slice",
     197e12, 197e12, 819e9, 256, 50e9, 1e-6, 6.25e9, 10e-6, V5E_HBM_AVAILABLE,
     {SS_LAYOUT_TPU, V5E_ONCHIP_TEMPORARIES, true, true, true, TPU_BOOKKEEPING_SLOT_BYTES,
      V5E_BOOKKEEPING_SLOTS, true, false, V5E_HBM_AVAILABLE, V5E_REMAT_BUDGET, false,
      TPU_WINDOWED_RING, TPU_WINDOWED_RING_MAX},
     PCIE4_X16_BW},
    /* TPU v5p: 459 TFLOP/s bf16, 95 GiB HBM2e at 2765 GB/s, ICI 1200 GB/s
     * per chip both ways over 6 links of a 3D torus (100 GB/s per direction
     * per link), 6144 chips in the largest slice, DCN 50 Gb/s per chip
     * (Cloud TPU documentation, "TPU v5p"). Temporaries in HBM: a 2 MiB
     * f32 intermediate between two dots is counted in temp_size_in_bytes
     * (libtpu 0.0.42.1 AOT, one chip of v5p:2x2x2). */
    {"tpu-v5p", "Cloud TPU v5p: 459 TFLOP/s, 95 GiB HBM at 2765 GB/s, ICI 100 GB/s/link, "
                "6144 chips/slice",
     459e12, 459e12, 2765e9, 6144, 100e9, 1e-6, 6.25e9, 10e-6, V5P_HBM_AVAILABLE,
     {SS_LAYOUT_TPU, V5P_ONCHIP_TEMPORARIES, true, true, true, TPU_BOOKKEEPING_SLOT_BYTES,
      V5P_BOOKKEEPING_SLOTS, true, true, V5P_HBM_AVAILABLE, V5P_REMAT_BUDGET, true,
      TPU_WINDOWED_RING, TPU_WINDOWED_RING_MAX},
     PCIE4_X16_BW},
    /* H100 SXM: 495 TFLOP/s TF32 (f32 matmuls at JAX's default GPU
     * precision), 989 TFLOP/s bf16 dense, 80 GB of HBM3 at 3.35 TB/s, NVLink 4
     * 450 GB/s per direction inside an 8-GPU node, 400 Gb/s InfiniBand
     * per GPU across nodes. */
    {"h100-nvlink", "NVIDIA H100 SXM: 495 TFLOP/s tf32, 989 bf16, 3.35 TB/s, NVLink 450 GB/s "
                    "in 8-GPU nodes, IB 50 GB/s across",
     495e12, 989e12, 3.35e12, 8, 450e9, 3e-6, 50e9, 8e-6, (size_t)80e9, {SS_LAYOUT_DENSE, 0, false, false, false, 0, 0, false, false, 0, 0, false, 0, 0}, PCIE5_X16_BW},
};

int ss_hw_profile_count(void) { return (int)(sizeof profiles / sizeof profiles[0]); }

const ss_hw_profile *ss_hw_profile_get(int i)
{
    return i >= 0 && i < ss_hw_profile_count() ? &profiles[i] : NULL;
}

const ss_hw_profile *ss_hw_profile_find(const char *name)
{
    if (!name)
        return NULL;
    for (int i = 0; i < ss_hw_profile_count(); i++)
        if (strcmp(profiles[i].name, name) == 0)
            return &profiles[i];
    return NULL;
}

/* The share of a core each virtual device gets under cpu-here. */
static double cpu_share(const ss_hw_profile *p, const ss_mesh *mesh)
{
    if (strcmp(p->name, "cpu-here") != 0)
        return 1.0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int n = ss_mesh_device_count(mesh);
    if (cores < 1)
        cores = 1;
    return n > cores ? (double)cores / n : 1.0;
}

void ss_hw_profile_axis_link(const ss_hw_profile *p, const ss_mesh *mesh, int naxes,
                           const int axes[], double *bw, double *alpha)
{
    /* The span of device positions the group reaches: the largest of its
     * axes' size times the stride of that axis. */
    int64_t span = 1;
    for (int k = 0; k < naxes; k++) {
        int a = axes[k];
        if (a < 0 || a >= ss_mesh_axis_count(mesh))
            continue;
        int64_t stride = 1;
        for (int b = a + 1; b < ss_mesh_axis_count(mesh); b++)
            stride *= ss_mesh_axis_size(mesh, b);
        int64_t s = stride * ss_mesh_axis_size(mesh, a);
        if (s > span)
            span = s;
    }
    bool inside = span <= p->devices_per_node && p->devices_per_node % span == 0;
    *bw = inside ? p->link_bw : p->net_bw;
    *alpha = inside ? p->link_alpha : p->net_alpha;
}

ss_status ss_estimate_step(const ss_executable *e, const ss_mesh *mesh,
                            const ss_hw_profile *p, ss_step_estimate *out)
{
    memset(out, 0, sizeof *out);
    /* Room for the steps of a program without loops first (a loop's runs
     * are quick to list only when they are written out), then for all. */
    int n = 0, cap = 4 * e->ninsts + 16;
    ss_step_cost *c = malloc(sizeof *c * (size_t)cap);
    ss_status st = c ? ss_executable_steps(e, c, cap, &n)
                     : ss__fail(SS_ERR_NOMEM, "estimate: out of host memory");
    if (!st && n > cap) {
        ss_step_cost *more = realloc(c, sizeof *c * (size_t)n);
        st = more ? ss_executable_steps(e, c = more, n, &n)
                  : ss__fail(SS_ERR_NOMEM, "estimate: out of host memory");
    }
    if (st) {
        free(c);
        return st;
    }
    double share = cpu_share(p, mesh);
    for (int k = 0; k < n; k++) {
        /* Fused elementwise loops are not part of the estimate (yet). */
        if (c[k].kind == SS_STEP_FUSED)
            continue;
        if (c[k].kind == SS_STEP_TO_HOST || c[k].kind == SS_STEP_TO_DEVICE) {
            out->host += ss_estimate_host_seconds(c[k].bytes, p);
            continue;
        }
        if (c[k].kind == SS_STEP_KERNEL) {
            double peak = (c[k].dtype == SS_BF16 || c[k].dtype == SS_F16 ? p->flops_bf16
                                                                          : p->flops_f32) *
                          share;
            out->compute += ss_estimate_kernel_seconds(c[k].flops, c[k].bytes, peak,
                                                       p->hbm_bw * share);
            continue;
        }
        ss_coll_record r;
        if ((st = ss_executable_ledger_get(e, c[k].ledger_index, &r)))
            break;
        double bw, alpha;
        ss_hw_profile_axis_link(p, mesh, r.naxes, r.axes, &bw, &alpha);
        out->comm += ss_estimate_coll_seconds(r.kind, r.group_size, r.sent, bw, alpha);
    }
    free(c);
    out->total = out->compute + out->comm + out->host;
    return st;
}

double ss_estimate_host_seconds(double bytes, const ss_hw_profile *p)
{
    return p && p->host_bw > 0 ? bytes / p->host_bw : 0;
}
