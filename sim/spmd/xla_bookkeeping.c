/*
 * xla_bookkeeping.c — XLA's TPU bookkeeping heap in the plan (under a
 * memory model with bookkeeping_slot_bytes: `--device tpu-*`).
 *
 * What it is (libtpu 0.0.42.1's buffer assignments of the SMALL scanned LM,
 * tests/data/xla_tpu/temp_slots.json, tests/xla_tpu/make_temp_slots.py):
 * the HBM temporary heap of a program whose arrays all sit in the on-chip
 * memory holds 512 B values only, each at its own 16 KiB-aligned offset
 * (a "slot", never reused): the tuple of every async copy-start (the
 * prefetch of each argument and array constant on chip), of every
 * multi-output fusion (one optimizer update per parameter), of the
 * collective fusions, of the while loops, and a few scalars. On v5e
 * temp_size_in_bytes is then exactly slots x (2A - 512), A the HBM
 * alignment (16 KiB): heap + (slots + 1) x (A - 512), exact on nine LM
 * records, five probes and three alignments (4, 16, 32 KiB). On v5p the
 * heap also holds real arrays (0.03-1.24 MB for the LM) and the same
 * formula is within 0.97-1.035 of temp_size_in_bytes.
 *
 * How many slots: the model takes XLA's mean over the fifteen SMALL LM
 * records of its slots that hold no array of the program (v5e: all of
 * them, 84-97, mean 91; v5p: 142-156, mean 149, of 154-177: v5p's
 * memory-space assignment also keeps the scans' stacks and some
 * prefetched all-gathers in the heap, arrays the plan counts as its loop
 * results under ss_memory_model.loop_stacks_hbm). The count is FITTED per
 * chip, not derived from the program: the prefetches alone (one
 * copy-start per argument and array constant: 43-44 on v5e for the LM's
 * 39 arguments) are about half of it, and what sets the rest (the
 * collective and optimizer fusions XLA forms) is not in the imported
 * program. tests/xla_tpu/test_bookkeeping.py holds it within 10 % of
 * every record's (0.94-1.08).
 *
 * When XLA counts it: NOT KNOWN as a mechanism; the plan's trigger is a
 * CORRELATION. Over the programs whose StableHLO the tests hold
 * (tests/data/xla_tpu), XLA counts the heap for every program with a while
 * loop (the fifteen SMALL LM records) and for none without one (the Flax
 * MLP's 195-slot heap on v5e and 59-slot heap on v5p, the MoE layer's 21
 * on v5e report temp 0; on v5p the MLP with 4096 rows, the block and the
 * MoE report real temporaries, which the plan models without slots). The
 * probes of make_temp_slots.py contradict it as a rule: on v5e a 4-step
 * scan's gradient with replicated weights reports 0, and a collective
 * matmul without a loop counts its 6 slots. What all 33 cases of
 * temp_slots.json agree with (a hypothesis, no probe made to separate it):
 * the heap is counted when one of its values is data the chip writes into
 * HBM, not a tuple of pointers, an async token or a scalar: on v5e the
 * s32[1] dynamic-slice of the partition-offset table (the only such value
 * in lm_full v5e:2x4's heap, dumped), on v5p an all-reduce's result or a
 * scan's stacks. Which values XLA's placement leaves there is not in the
 * imported program, so the plan keys on the loop.
 */
#include "lower.h"

size_t ss__xla_bookkeeping_bytes(const ss_executable *e, const ss_memory_model *model)
{
    if (!e || !model || !model->bookkeeping_slot_bytes || model->bookkeeping_slots <= 0)
        return 0;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_LOOP && e->loops[i->index].nbranch == 0)
            return model->bookkeeping_slot_bytes * (size_t)model->bookkeeping_slots;
    }
    return 0;
}
