/* libFuzzer target: the simulator's model loader (src/sim/model.c and its section parsers) on
 * arbitrary bytes, then one small plan of each kind on every model that loads, so that a model the
 * loader accepts but the simulation cannot handle (a bounds or arithmetic bug) shows up under
 * ASan/UBSan. Seeds: tests/fuzz/corpus/model/; dictionary: tests/fuzz/model.dict.
 * usage: fuzz_model [libFuzzer options] [CORPUS_DIR...] */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "sim/model.h"
#include "sim/sim.h"

enum { CHAIN_LEN = 48, RECORD_N = 32, REPEATS = 4 };

/* One fine-grained and one average-mode pointer chase on each load path: a stride walk inside
 * 6 KB, and one over 96 MB at a 2 MB stride (TLB levels and far caches). */
static void run_chases(gs_sim_model *m)
{
    static const uint64_t strides_bytes[] = {128, 2u << 20};
    uint64_t chain[CHAIN_LEN];
    uint32_t latency_cycles[RECORD_N];
    gs_error err;
    for (size_t s = 0; s < sizeof strides_bytes / sizeof *strides_bytes; s++) {
        for (size_t i = 0; i < CHAIN_LEN; i++)
            chain[i] = i * strides_bytes[s];
        for (int path = 0; path < GS_PATH_COUNT; path++) {
            gs_chase_plan plan = {
                .space = path == GS_PATH_SHARED ? GS_SPACE_SHARED
                         : path == GS_PATH_LOCAL ? GS_SPACE_LOCAL : GS_SPACE_GLOBAL,
                .path = (gs_load_path)path,
                .footprint_bytes = CHAIN_LEN * strides_bytes[s],
                .chain = chain, .chain_len = CHAIN_LEN, .element_bytes = 8, .warmup_passes = 1,
                .record_n = path % 2 ? RECORD_N : 0, .timed_accesses = 100,
                .walkers = path == GS_PATH_CG ? 4 : 1, .lanes = path == GS_PATH_DEFAULT ? 4 : 1,
                .lane_stride_bytes = 32, .carveout_percent = path == GS_PATH_CA ? 50 : -1,
            };
            gs_chase_result res = {.latency_cycles = latency_cycles, .sm_id = -1};
            sim_chase(m, &plan, &res, &err);
        }
    }
}

static void run_others(gs_sim_model *m)
{
    double values[REPEATS];
    gs_error err;
    for (unsigned stride = 0; stride <= 33; stride += 11) {
        gs_bank_plan bank = {.access_bytes = 4u << (stride % 3), .stride_elems = stride,
                             .group_lanes = stride % 2 ? 4 : 0, .repeats = REPEATS};
        gs_bank_result bres = {.cycles = values};
        sim_bank(m, &bank, &bres, &err);
    }
    for (int instr = 0; instr < GS_INSTR_COUNT; instr++) {
        gs_issue_plan issue = {.instr = (gs_instr)instr, .ilp = 1u << (instr % 3),
                               .warps_per_block = 1 + (unsigned)instr % 8, .blocks = 1 + 7u * instr,
                               .blocks_per_sm_limit = (unsigned)instr % 3, .iterations = 64,
                               .divergent_paths = instr % 4 ? 0 : 2};
        gs_issue_result ires;
        sim_issue(m, &issue, &ires, &err);
    }
    for (int kind = GS_STREAM_COPY; kind <= GS_STREAM_MEMCPY_D2H; kind++) {
        gs_stream_plan stream = {.kind = (gs_stream_kind)kind, .element_bytes = 1u << kind,
                                 .bytes = 1u << (12 + 4 * kind), .repeats = REPEATS};
        gs_stream_result sres = {.seconds = values};
        sim_stream(m, &stream, &sres, &err);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gs_sim_model *m = NULL;
    gs_error err;
    if (gs_sim_model_load_buffer((const char *)data, size, "fuzz.json", 1, &m, &err) != 0)
        return 0;
    run_chases(m);
    run_others(m);
    gs_sim_model_free(m);
    return 0;
}
