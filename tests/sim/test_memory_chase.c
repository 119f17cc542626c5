/* Tests of the simulator's chase (src/sim/memory.c) against hand-computed latencies on a small
 * model: L1/L2 hits and set overflow, cold misses, TLB miss penalties and on_miss_skip, sector
 * fills, warp requests over several sectors and lines, average mode, carve-out geometries, L2
 * partitions, physical aliasing, noise bounds, loaded latency with walkers, the trace capacity
 * and unsupported paths; then the built-in models against the memory-hierarchy paper's numbers
 * (Tables 3 and 5, the 17 + 6 x 8 L2 TLB of Fig. 11, Fermi's non-LRU L1). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cache_infer.h"
#include "analysis/chain.h"
#include "sim/memory.h"
#include "sim/sim.h"

/* L1: 2 sets x 4 ways x 128 B, hit 20, miss 5; L2: 64 sets x 4 ways, hit 100; DRAM 300.
 * TLBs over 4 KB pages: 2 entries (miss 10), then 4 entries (miss 100). Clock 1 GHz. */
#define L1_FMT "{\"name\":\"l1\",\"size_bytes\":%s,\"line_bytes\":128,\"sector_bytes\":%d," \
    "\"sets\":%s,\"ways\":4,\"hit_latency_cycles\":20,\"miss_cycles\":5,"                   \
    "\"paths\":[\"default\",\"ca\",\"local\"],\"scope\":\"sm\"%s}"
#define L2_FMT "{\"name\":\"l2\",\"size_bytes\":32768,\"line_bytes\":128,\"sector_bytes\":%d," \
    "\"sets\":64,\"ways\":4,\"hit_latency_cycles\":100,"                                     \
    "\"paths\":[\"default\",\"ca\",\"cg\",\"local\"],\"scope\":\"device\"%s}"
#define TLBS_FMT "\"tlbs\":[{\"name\":\"l1tlb\",\"page_bytes\":4096,\"entries\":2,"          \
    "\"miss_penalty_cycles\":10%s},{\"name\":\"l2tlb\",\"page_bytes\":4096,\"entries\":4,"   \
    "\"miss_penalty_cycles\":100}]"
#define REST ",\"dram\":{\"latency_cycles\":300%s},\"shared_latency_cycles\":25," \
    "\"warp_request\":{\"transaction_bytes\":32,\"extra_sector_cycles\":2,\"extra_line_cycles\":6}%s}"

typedef struct variant {
    int sector_bytes;           /* of L1 and L2; 0 = 128 (not sectored) */
    const char *l1_extra;       /* more keys of L1 (",\"carveout\":[...]") */
    const char *l2_extra;
    const char *tlb_extra;      /* more keys of the L1 TLB */
    const char *dram_extra;
    const char *memory_extra;   /* more keys of the memory section (",\"uncached_paths\":[..]") */
    double jitter;
} variant;

static gs_sim_model model;

static gs_sim_model *make_model(variant v)
{
    static char json[4096];
    int sector = v.sector_bytes ? v.sector_bytes : 128;
    char l1[1024], l2[512], tlbs[512], rest[512];
    snprintf(l1, sizeof l1, L1_FMT, "1024", sector, "2", v.l1_extra ? v.l1_extra : "");
    snprintf(l2, sizeof l2, L2_FMT, sector, v.l2_extra ? v.l2_extra : "");
    snprintf(tlbs, sizeof tlbs, TLBS_FMT, v.tlb_extra ? v.tlb_extra : "");
    snprintf(rest, sizeof rest, REST, v.dram_extra ? v.dram_extra : "",
             v.memory_extra ? v.memory_extra : "");
    snprintf(json, sizeof json, "{\"caches\":[%s,%s],%s%s", l1, l2, tlbs, rest);
    memset(&model, 0, sizeof model);
    strcpy(model.name, "chase-test");
    model.info.sm_clock_khz = 1e6;
    model.info.smem_per_block_bytes = 1024;     /* trace capacity 511 (2 B entries) */
    model.info.warp_size = 32;
    model.info.sm_count = 4;
    model.noise_cycles = v.jitter;
    gs_rng_seed(&model.rng, 7);
    json_error_t jerr;
    json_t *j = json_loads(json, 0, &jerr);
    if (!j)
        fail_msg("bad test JSON: %s: %s", jerr.text, json);
    gs_error err;
    gs_error_clear(&err);
    int rc = sim_memory_parse(j, "memory", &model, &err);
    json_decref(j);
    if (rc)
        fail_msg("%s", err.msg);
    return &model;
}

/* A chain of n offsets start, start + stride, ... */
static uint64_t *stride_chain(size_t n, uint64_t stride)
{
    uint64_t *c = malloc(n * sizeof *c);
    assert_non_null(c);
    for (size_t i = 0; i < n; i++)
        c[i] = i * stride;
    return c;
}

static gs_chase_plan base_plan(const uint64_t *chain, size_t n, uint64_t footprint)
{
    gs_chase_plan p = {0};
    p.space = GS_SPACE_GLOBAL;
    p.path = GS_PATH_CA;
    p.chain = chain;
    p.chain_len = n;
    p.footprint_bytes = footprint;
    p.element_bytes = 8;
    p.warmup_passes = 1;
    p.carveout_percent = -1;
    return p;
}

/* Fine-grained chase: record n latencies into lat; returns the status. */
static int record(gs_sim_model *m, gs_chase_plan *p, uint32_t *lat, size_t n, gs_error *err)
{
    gs_chase_result r = {0};
    r.latency_cycles = lat;
    p->record_n = n;
    gs_error_clear(err);
    int rc = sim_chase(m, p, &r, err);
    if (!rc)
        assert_int_equal(r.recorded, n);
    return rc;
}

static void expect_trace(gs_sim_model *m, gs_chase_plan *p, const uint32_t *want, size_t n)
{
    uint32_t lat[256];
    gs_error err;
    if (record(m, p, lat, n, &err))
        fail_msg("%s", err.msg);
    for (size_t i = 0; i < n; i++)
        if (lat[i] != want[i])
            fail_msg("access %zu: %u cycles, expected %u", i, lat[i], want[i]);
}

static void hits_and_cold_misses(void **state)
{
    (void)state;
    gs_sim_model *m = make_model((variant){0});
    uint64_t *chain = stride_chain(8, 128);
    gs_chase_plan p = base_plan(chain, 8, 1024);
    expect_trace(m, &p, (uint32_t[]){20, 20, 20, 20, 20, 20, 20, 20}, 8);
    /* Cold: first access misses both TLBs (10 + 100), L1 (5) and L2: DRAM 300. */
    p.warmup_passes = 0;
    expect_trace(m, &p, (uint32_t[]){415, 305, 305, 305, 305, 305, 305, 305, 20, 20}, 10);
    p.path = GS_PATH_CG;                               /* L2 only */
    p.warmup_passes = 1;
    expect_trace(m, &p, (uint32_t[]){100, 100, 100}, 3);
    free(chain);
    sim_memory_free(m);
}

/* A long warm-up before a few timed accesses (the last level skips untimed accesses to sets no
 * timed access reaches) gives the latencies of the same accesses made one by one; the timed
 * lines are visited again late in the warm-up, so some of them hit. */
static void untimed_walk_matches_lane_by_lane(void **state)
{
    (void)state;
    gs_sim_model *m = make_model((variant){0});
    size_t n = 2048;                              /* 256 KB of lines: 8 x the L2 */
    uint64_t *chain = stride_chain(n, 128);
    gs_rng pick;
    gs_rng_seed(&pick, 3);
    for (size_t i = n - 1; i > 0; i--) {          /* a random order of the lines */
        size_t j = (size_t)gs_rng_below(&pick, i + 1);
        uint64_t t = chain[i];
        chain[i] = chain[j], chain[j] = t;
    }
    for (size_t k = 0; k < 16; k++)               /* the timed lines again, late in the walk */
        chain[n - 64 + 4 * k] = chain[k] + 8;
    static const gs_load_path paths[] = {GS_PATH_CG, GS_PATH_CA};
    for (size_t q = 0; q < 2; q++) {
        gs_chase_plan p = base_plan(chain, n, n * 128);
        p.path = paths[q];
        uint32_t lat[16];
        gs_error err;
        if (record(m, &p, lat, 16, &err))
            fail_msg("%s", err.msg);
        sim_chase_ctx cx;
        gs_chase_result out = {0};
        out.latency_cycles = lat;
        assert_int_equal(sim_chase_begin(&cx, m, &p, &out, &err), 0);
        unsigned served;
        for (size_t k = 0; k < n; k++)
            sim_load_lane(&cx, p.path, chain[k], &served);
        for (size_t k = 0; k < 16; k++)
            assert_int_equal(lat[k], lround(sim_load_lane(&cx, p.path, chain[k], &served)));
    }
    free(chain);
    sim_memory_free(m);
}

/* Which chases run split (gs_chase_split_of) and into which parts. */
static void split_parts(void **state)
{
    (void)state;
    uint64_t *chain = stride_chain(5000, 64);
    gs_chase_plan p = base_plan(chain, 5000, 5000 * 64);
    gs_chase_split s;
    p.timed_accesses = 100;
    assert_false(gs_chase_split_of(&p, &s));           /* not asked for */
    p.warmup_split = true;
    assert_true(gs_chase_split_of(&p, &s));            /* a whole pass: timed ones first */
    assert_int_equal(s.serial_first, 0);
    assert_int_equal(s.serial_n, 100);
    assert_int_equal(s.parallel_first, 100);
    assert_int_equal(s.parallel_n, 4900);
    assert_int_equal(s.segments, GS_SPLIT_SEGMENTS);
    p.warmup_accesses = 4950;                          /* positions 50..4999: 50..99 serial */
    assert_true(gs_chase_split_of(&p, &s));
    assert_int_equal(s.serial_first, 50);
    assert_int_equal(s.serial_n, 50);
    assert_int_equal(s.parallel_first, 100);
    p.warmup_accesses = 3000;                          /* positions 2000..4999: none timed */
    assert_true(gs_chase_split_of(&p, &s));
    assert_int_equal(s.serial_n, 0);
    assert_int_equal(s.parallel_first, 2000);
    assert_int_equal(s.parallel_n, 3000);
    p.warmup_accesses = 0;
    p.warmup_passes = 2;                               /* more than a pass: serial */
    assert_false(gs_chase_split_of(&p, &s));
    p.warmup_passes = 1;
    p.timed_accesses = 5000;                           /* the timed walk covers the chain */
    assert_false(gs_chase_split_of(&p, &s));
    p.timed_accesses = 100;
    p.lanes = 2;
    assert_false(gs_chase_split_of(&p, &s));
    p.lanes = 1;
    p.record_n = 10;
    assert_false(gs_chase_split_of(&p, &s));
    p.record_n = 0;
    p.path = GS_PATH_TEX;
    assert_false(gs_chase_split_of(&p, &s));
    free(chain);
}

/* Which chases take a windowed warm-up (gs_chase_window_of), and that the simulator walks one as
 * the serial pass it orders like: the same result to the bit. */
static void window_parts(void **state)
{
    (void)state;
    uint64_t *chain = stride_chain(5000, 32);
    gs_chase_plan p = base_plan(chain, 5000, 5000 * 32);
    p.timed_accesses = 100;
    assert_int_equal(gs_chase_window_of(&p), 0);       /* not asked for */
    p.warmup_window = 2;
    assert_int_equal(gs_chase_window_of(&p), 2);
    p.warmup_window = 33;                              /* more lanes than a warp */
    assert_int_equal(gs_chase_window_of(&p), 0);
    p.warmup_window = 2;
    p.warmup_split = true;                             /* the split warm-up takes precedence */
    assert_int_equal(gs_chase_window_of(&p), 0);
    p.warmup_split = false;
    p.warmup_accesses = 4000;                          /* less than a pass */
    assert_int_equal(gs_chase_window_of(&p), 0);
    p.warmup_accesses = 0;
    p.warmup_passes = 2;
    assert_int_equal(gs_chase_window_of(&p), 0);
    p.warmup_passes = 1;
    p.element_bytes = 4;                               /* no room for the link */
    assert_int_equal(gs_chase_window_of(&p), 0);
    p.element_bytes = 8;
    p.lanes = 2;
    assert_int_equal(gs_chase_window_of(&p), 0);
    p.lanes = 1;
    p.walkers = 4;
    assert_int_equal(gs_chase_window_of(&p), 0);
    p.walkers = 1;
    p.path = GS_PATH_TEX;
    assert_int_equal(gs_chase_window_of(&p), 0);
    p.path = GS_PATH_CA;
    chain[7] += 8;                                     /* an element where another's link lies */
    assert_int_equal(gs_chase_window_of(&p), 0);
    chain[7] -= 8;
    p.footprint_bytes = chain[4999] + 8;               /* the last link past the footprint */
    assert_int_equal(gs_chase_window_of(&p), 0);
    p.footprint_bytes = 5000 * 32;
    assert_int_equal(gs_chase_window_of(&p), 2);

    gs_sim_model *m = make_model((variant){0});
    gs_rng rng;
    gs_rng_seed(&rng, 12);
    assert_int_equal(gs_chain_sattolo(&rng, 5000, 32, chain), 0);
    gs_chase_result windowed = {0}, serial = {0};
    gs_error err;
    assert_int_equal(sim_chase(m, &p, &windowed, &err), 0);
    p.warmup_window = 0;
    assert_int_equal(sim_chase(m, &p, &serial, &err), 0);
    assert_true(windowed.avg_cycles == serial.avg_cycles);
    sim_memory_free(m);
    free(chain);
}

/* A split warm-up is walked as its definition says: the timed positions, then the segments in
 * lockstep (replayed here load by load); on a chain of many elements per page and two per line
 * it leaves the TLBs and the L2 otherwise than a serial pass does. */
static void split_warmup(void **state)
{
    (void)state;
    gs_sim_model *m = make_model((variant){0});
    size_t n = 5000;
    uint64_t *chain = malloc(n * sizeof *chain);
    assert_non_null(chain);
    gs_rng rng;
    gs_rng_seed(&rng, 11);
    assert_int_equal(gs_chain_sattolo(&rng, n, 64, chain), 0);
    gs_chase_plan p = base_plan(chain, n, n * 64);
    p.path = GS_PATH_CG;
    p.timed_accesses = 100;
    p.warmup_split = true;
    gs_chase_result split = {0}, serial = {0};
    gs_error err;
    assert_int_equal(sim_chase(m, &p, &split, &err), 0);
    gs_chase_split s;
    assert_true(gs_chase_split_of(&p, &s));
    sim_loads *l = sim_loads_begin(m, GS_PATH_CG, &err);
    assert_non_null(l);
    unsigned served;
    for (size_t k = 0; k < s.serial_n; k++)
        sim_loads_load(l, chain[s.serial_first + k], false, &served);
    for (size_t k = 0; k * s.segments < s.parallel_n + s.segments; k++)
        for (unsigned i = 0; i < s.segments; i++) {
            size_t from = i * s.parallel_n / s.segments, to = (i + 1) * s.parallel_n / s.segments;
            if (from + k < to)
                sim_loads_load(l, chain[s.parallel_first + from + k], false, &served);
        }
    double sum = 0;
    for (size_t k = 0; k < 100; k++)
        sum += sim_loads_load(l, chain[k], false, &served);
    sim_loads_end(l);
    assert_true(fabs(split.avg_cycles - sum / 100) < 1e-9);
    p.warmup_split = false;
    assert_int_equal(sim_chase(m, &p, &serial, &err), 0);
    assert_true(fabs(split.avg_cycles - serial.avg_cycles) > 1e-9);
    free(chain);
    sim_memory_free(m);
}

static void l1_set_overflow(void **state)
{
    (void)state;
    gs_sim_model *m = make_model((variant){0});
    uint64_t *chain = stride_chain(9, 128);            /* 9 lines: set 0 holds 5 in 4 ways */
    gs_chase_plan p = base_plan(chain, 9, 9 * 128);
    expect_trace(m, &p, (uint32_t[]){105, 20, 105, 20, 105, 20, 105, 20, 105, 105, 20}, 11);
    /* Average mode over 900 accesses: (5 x 105 + 4 x 20) / 9. */
    gs_chase_result r = {0};
    p.record_n = 0;
    p.timed_accesses = 900;
    gs_error err;
    assert_int_equal(sim_chase(m, &p, &r, &err), 0);
    assert_true(fabs(r.avg_cycles - 605.0 / 9) < 1e-9);
    assert_true(fabs(r.avg_ns - 605.0 / 9) < 1e-9);    /* 1 GHz */
    assert_true(fabs(r.accesses_per_ns - 9.0 / 605) < 1e-9);
    assert_int_equal(r.record_capacity, 511);
    free(chain);
    sim_memory_free(m);
}

/* Where offset 0 lies (memory.chase_base_bytes, plan.base_align_bytes): under an XOR index of
 * address bits 7 and 8, lines 0, 3, 4, 7 and 8 share set 0 and overflow its 4 ways; a base one
 * line on (128) spreads them over both sets (lines 1, 4, 5, 8, 9), and a plan asking for a
 * base aligned to 512 B gets 512, where they share one set again (lines 4, 7, 8, 11, 12). */
static void chase_base_placement(void **state)
{
    (void)state;
    uint64_t chain[] = {0, 384, 512, 896, 1024};
    const char *xor = ",\"mapping\":{\"xor\":[[7,8]]}";
    const char *bases[] = {"", ",\"chase_base_bytes\":128", ",\"chase_base_bytes\":128"};
    uint64_t aligns[] = {0, 0, 512};
    bool overflow[] = {true, false, true};
    for (int k = 0; k < 3; k++) {
        gs_sim_model *m = make_model((variant){.l1_extra = xor, .memory_extra = bases[k]});
        gs_chase_plan p = base_plan(chain, 5, 1024 + 8);
        p.timed_accesses = 500;
        p.base_align_bytes = aligns[k];
        gs_chase_result r = {0};
        gs_error err;
        if (sim_chase(m, &p, &r, &err))
            fail_msg("%s", err.msg);
        if ((r.avg_cycles > 20.5) != overflow[k])
            fail_msg("placement %d: %.1f cycles a load, expected %s", k, r.avg_cycles,
                     overflow[k] ? "misses" : "hits (20)");
        sim_memory_free(m);
    }
}

static void tlb_penalties(void **state)
{
    (void)state;
    gs_sim_model *m = make_model((variant){0});
    uint64_t *chain = stride_chain(5, 4096);
    /* 3 pages: the 2-entry L1 TLB always misses (10), the L2 TLB hits; data hits L1. */
    gs_chase_plan p = base_plan(chain, 3, 5 * 4096);
    expect_trace(m, &p, (uint32_t[]){30, 30, 30, 30}, 4);
    /* 5 pages: both TLBs miss (110); 5 lines in L1 set 0 miss (5); L2 hits (100). */
    p.chain_len = 5;
    expect_trace(m, &p, (uint32_t[]){215, 215, 215, 215, 215, 215}, 6);
    sim_memory_free(m);
    /* An L1 TLB miss that skips the L1 data cache: L2 serves (Fermi, Table 3 pattern 2). */
    m = make_model((variant){.tlb_extra = ",\"on_miss_skip\":[\"l1\"]"});
    p.chain_len = 3;
    expect_trace(m, &p, (uint32_t[]){110, 110, 110}, 3);
    /* The skipped L1 is still filled: cold line 0 misses the TLBs and goes to DRAM (410); line
     * 128 misses L1 (305); line 0 again hits the L1 it was filled into (20). */
    uint64_t two[2] = {0, 128};
    p = base_plan(two, 2, 4096);
    p.warmup_passes = 0;
    expect_trace(m, &p, (uint32_t[]){410, 305, 20, 20}, 4);
    free(chain);
    sim_memory_free(m);
}

/* A TLB hit in a way past near_ways costs far_hit_cycles more; ways fill lowest first, so the
 * second page of a walk that keeps two sits in the far way. A miss costs the penalty alone. */
static void tlb_far_ways(void **state)
{
    (void)state;
    gs_sim_model *m = make_model((variant){.tlb_extra = ",\"near_ways\":1,\"far_hit_cycles\":7"});
    uint64_t *chain = stride_chain(3, 4096);
    gs_chase_plan p = base_plan(chain, 2, 3 * 4096);
    expect_trace(m, &p, (uint32_t[]){20, 27, 20, 27}, 4);
    p.chain_len = 3;         /* 3 pages: the 2-entry L1 TLB misses every access (10), no far hit */
    expect_trace(m, &p, (uint32_t[]){30, 30, 30, 30}, 4);
    free(chain);
    sim_memory_free(m);
}

static void sector_fills(void **state)
{
    (void)state;
    uint64_t *chain = stride_chain(4, 32);             /* four 32-byte sectors of one line */
    gs_chase_plan p = base_plan(chain, 4, 128);
    p.warmup_passes = 0;
    gs_sim_model *m = make_model((variant){.sector_bytes = 32});
    expect_trace(m, &p, (uint32_t[]){415, 305, 305, 305, 20, 20, 20, 20}, 8);
    sim_memory_free(m);
    m = make_model((variant){0});                      /* whole-line fills */
    expect_trace(m, &p, (uint32_t[]){415, 20, 20, 20, 20, 20, 20, 20}, 8);
    free(chain);
    sim_memory_free(m);
}

static void warp_requests(void **state)
{
    (void)state;
    uint64_t chain[1] = {0};
    gs_chase_plan p = base_plan(chain, 1, 4096);
    gs_sim_model *m = make_model((variant){.sector_bytes = 32});
    p.lanes = 4;
    p.lane_stride_bytes = 32;                          /* 4 sectors of one line */
    expect_trace(m, &p, (uint32_t[]){20 + 3 * 2}, 1);
    p.lane_stride_bytes = 128;                         /* 4 lines, 2 per set: all hit */
    expect_trace(m, &p, (uint32_t[]){20 + 3 * 2 + 3 * 6}, 1);
    p.lane_stride_bytes = 4;                           /* one sector: coalesced */
    expect_trace(m, &p, (uint32_t[]){20}, 1);
    sim_memory_free(m);
}

static void carveout_geometry(void **state)
{
    (void)state;
    gs_sim_model *m = make_model((variant){.l1_extra =
        ",\"carveout\":[{\"percent\":0,\"size_bytes\":2048,\"sets\":4,\"ways\":4},"
        "{\"percent\":100,\"size_bytes\":512,\"sets\":1,\"ways\":4}]"});
    uint64_t *chain = stride_chain(8, 128);            /* 1 KB: fits 1 KB and 2 KB, not 512 B */
    gs_chase_plan p = base_plan(chain, 8, 1024);
    expect_trace(m, &p, (uint32_t[]){20, 20, 20}, 3);
    p.carveout_percent = 0;
    expect_trace(m, &p, (uint32_t[]){20, 20, 20}, 3);
    p.carveout_percent = 50;                           /* rounds up to the 100% entry */
    expect_trace(m, &p, (uint32_t[]){105, 105, 105}, 3);
    p.carveout_percent = -1;
    expect_trace(m, &p, (uint32_t[]){20, 20, 20}, 3);
    free(chain);
    sim_memory_free(m);
}

/* An L1 that shares its array with shared memory (default_carveout_percent): the shared memory a
 * chase holds (its trace, or smem_bytes) takes the carve-out it needs. */
static void unified_l1_gives_way_to_shared_memory(void **state)
{
    (void)state;
    gs_sim_model *m = make_model((variant){.l1_extra =
        ",\"default_carveout_percent\":10,"
        "\"carveout\":[{\"percent\":0,\"size_bytes\":2048,\"sets\":4,\"ways\":4},"
        "{\"percent\":100,\"size_bytes\":512,\"sets\":1,\"ways\":4}]"});
    m->info.smem_per_sm_bytes = 1024;
    uint64_t *chain = stride_chain(8, 128);            /* 1 KB: fits the default L1 (1 KB) */
    gs_chase_plan p = base_plan(chain, 8, 1024);
    expect_trace(m, &p, (uint32_t[]){20, 20, 20}, 3);  /* a 16 B trace needs 2 % <= 10 % */
    p.smem_bytes = 512;                                /* needs 50 %: the 100 % entry */
    expect_trace(m, &p, (uint32_t[]){105, 105, 105}, 3);
    p.smem_bytes = 0;
    p.carveout_percent = 0;                            /* asks 0 %, needs 2 %: the default (10 %) */
    expect_trace(m, &p, (uint32_t[]){20, 20, 20}, 3);
    p.carveout_percent = -1;
    p.smem_bytes = 2048;                               /* more than a block may hold */
    uint32_t lat[4];
    gs_error err;
    gs_chase_result r = {.latency_cycles = lat};
    p.record_n = 3;
    assert_int_equal(sim_chase(m, &p, &r, &err), GS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "smem_bytes 2048 exceeds"));
    p.smem_bytes = 256;                                /* capacity within the budget */
    assert_int_equal(sim_chase(m, &p, &r, &err), 0);
    assert_int_equal(r.record_capacity, 127);
    sim_memory_free(m);
    /* shared_default_percent: the default preference with any shared memory held gets 100 % (as
     * the H100's driver does), an explicit small preference keeps the default L1 */
    m = make_model((variant){.l1_extra =
        ",\"default_carveout_percent\":10,\"shared_default_percent\":100,"
        "\"carveout\":[{\"percent\":0,\"size_bytes\":2048,\"sets\":4,\"ways\":4},"
        "{\"percent\":100,\"size_bytes\":512,\"sets\":1,\"ways\":4}]"});
    m->info.smem_per_sm_bytes = 1024;
    p.smem_bytes = 0;
    expect_trace(m, &p, (uint32_t[]){105, 105, 105}, 3);
    p.carveout_percent = 5;
    expect_trace(m, &p, (uint32_t[]){20, 20, 20}, 3);
    p.carveout_percent = 0;
    p.record_n = 0;                                    /* average mode holds nothing: 0 % entry */
    p.timed_accesses = 16;
    r.latency_cycles = NULL;
    assert_int_equal(sim_chase(m, &p, &r, &err), 0);
    assert_true(fabs(r.avg_cycles - 20) < 1e-9);
    free(chain);
    sim_memory_free(m);
}

static void partitions_and_aliasing(void **state)
{
    (void)state;
    gs_sim_model *m = make_model((variant){.l2_extra =
        ",\"partitions\":{\"count\":2,\"mapping\":{\"bits\":[12]},\"far_extra_cycles\":50}"});
    uint64_t chain[2] = {0, 4096};
    gs_chase_plan p = base_plan(chain, 2, 8192);
    p.path = GS_PATH_CG;
    expect_trace(m, &p, (uint32_t[]){100, 150, 100, 150}, 4);
    sim_memory_free(m);
    /* 16 pages of virtual footprint over 4 KB of physical memory: every access is the same
     * physical line (L1 hit) but a different page (both TLBs miss). */
    m = make_model((variant){0});
    uint64_t *pages = stride_chain(16, 4096);
    p = base_plan(pages, 16, 16 * 4096);
    p.physical_bytes = 4096;
    expect_trace(m, &p, (uint32_t[]){130, 130, 130, 130}, 4);
    p.physical_bytes = 0;                              /* no aliasing: L1 and L2 set 0 overflow */
    expect_trace(m, &p, (uint32_t[]){415, 415, 415, 415}, 4);
    free(pages);
    sim_memory_free(m);
}

static void noise_bounds(void **state)
{
    (void)state;
    gs_sim_model *m = make_model((variant){.jitter = 4});
    uint64_t *chain = stride_chain(8, 128);
    gs_chase_plan p = base_plan(chain, 8, 1024);
    uint32_t lat[128];
    gs_error err;
    assert_int_equal(record(m, &p, lat, 128, &err), 0);
    unsigned seen[5] = {0};
    for (int i = 0; i < 128; i++) {
        assert_true(lat[i] >= 20 && lat[i] <= 24);
        seen[lat[i] - 20]++;
    }
    for (int k = 0; k < 5; k++)
        assert_true(seen[k] > 0);
    free(chain);
    sim_memory_free(m);
}

static void walkers_queueing(void **state)
{
    (void)state;
    /* L2 limited to 0.02 accesses/ns serving 5/9 of accesses: the device completes at most
     * 1 / ((5/9) / 0.02) = 0.036 accesses per ns; 64 walkers then each wait 64 / 0.036 ns. */
    gs_sim_model *m = make_model((variant){.l2_extra = ",\"max_accesses_per_ns\":0.02"});
    uint64_t *chain = stride_chain(9, 128);
    gs_chase_plan p = base_plan(chain, 9, 9 * 128);
    p.timed_accesses = 900;
    p.walkers = 64;
    gs_chase_result r = {0};
    gs_error err;
    assert_int_equal(sim_chase(m, &p, &r, &err), 0);
    assert_true(fabs(r.accesses_per_ns - 0.036) < 1e-12);
    assert_true(fabs(r.avg_cycles - 64 / 0.036) < 1e-6);
    p.walkers = 2;                                 /* demand 2 / 67.2 ns: below the limit */
    assert_int_equal(sim_chase(m, &p, &r, &err), 0);
    if (fabs(r.accesses_per_ns - 2 * 9.0 / 605) > 1e-12)
        fail_msg("%.15g accesses/ns, expected %.15g", r.accesses_per_ns, 2 * 9.0 / 605);
    assert_true(fabs(r.avg_cycles - 605.0 / 9) < 1e-9);
    free(chain);
    sim_memory_free(m);
}

static void limits_and_unsupported(void **state)
{
    (void)state;
    gs_sim_model *m = make_model((variant){0});
    uint64_t *chain = stride_chain(8, 128);
    gs_chase_plan p = base_plan(chain, 8, 1024);
    uint32_t lat[200];
    gs_error err;
    assert_int_equal(record(m, &p, lat, 512, &err), GS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "trace capacity of 511 entries"));
    p.path = GS_PATH_TEX;
    assert_int_equal(record(m, &p, lat, 8, &err), GS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "load path 'tex'"));
    sim_memory_free(m);
    m = make_model((variant){.memory_extra = ",\"uncached_paths\":[\"tex\"]"});
    p.path = GS_PATH_TEX;                              /* listed as uncached: DRAM every time */
    expect_trace(m, &p, (uint32_t[]){300, 300}, 2);
    p.path = GS_PATH_DEFAULT;
    p.space = GS_SPACE_SHARED;
    p.footprint_bytes = 896 + 8;
    expect_trace(m, &p, (uint32_t[]){25, 25}, 2);
    /* A shared-memory chain takes its footprint from the trace's shared memory: 1024 - 512 B
     * leave 255 entries of 2 B and a scratch entry; a footprint larger than the block's shared
     * memory is unsupported. */
    p.footprint_bytes = 512;
    assert_int_equal(record(m, &p, lat, 256, &err), GS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "trace capacity of 255 entries"));
    p.footprint_bytes = 2048;
    assert_int_equal(record(m, &p, lat, 8, &err), GS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "shared-memory footprint"));
    p.footprint_bytes = 1024;
    p.space = GS_SPACE_LOCAL;                          /* local path: through L1 */
    expect_trace(m, &p, (uint32_t[]){20, 20}, 2);
    p.space = GS_SPACE_GLOBAL;
    chain[3] = 4;                                      /* not a multiple of 8 */
    assert_int_equal(record(m, &p, lat, 8, &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "chain[3] = 4 is not an aligned offset"));
    chain[3] = 8192;                                   /* outside the footprint */
    chain[5] = 8200;                                   /* the first element wrong is named */
    assert_int_equal(record(m, &p, lat, 8, &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "chain[3] = 8192 is not an aligned offset"));
    chain[5] = 5 * 128;
    free(chain);
    sim_memory_free(m);
    gs_sim_model bare = {0};
    strcpy(bare.name, "bare");
    gs_chase_result r = {0};
    assert_int_equal(sim_chase(&bare, &p, &r, &err), GS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "no \"memory\" section"));
}

/* ---- built-in models ---------------------------------------------------------------------------- */

static gs_sim_model *builtin(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/models/%s.json", GS_SOURCE_DIR, name);
    gs_sim_model *m = NULL;
    gs_error err;
    gs_error_clear(&err);
    if (gs_sim_model_load(path, 11, &m, &err))
        fail_msg("%s", err.msg);
    return m;
}

static uint32_t last_max;   /* largest latency of the last warm_latency trace */

/* Smallest latency of a fine-grained trace of a warm chase: n elements of stride bytes. */
static uint32_t warm_latency(gs_sim_model *m, gs_space space, gs_load_path path, size_t n,
                             uint64_t stride)
{
    uint64_t *chain = stride_chain(n, stride);
    gs_chase_plan p = base_plan(chain, n, n * stride);
    p.space = space;
    p.path = path;
    uint32_t lat[64];
    gs_error err;
    if (record(m, &p, lat, 64, &err))
        fail_msg("%s", err.msg);
    free(chain);
    uint32_t lo = lat[0];
    last_max = lat[0];
    for (int i = 0; i < 64; i++) {
        lo = lat[i] < lo ? lat[i] : lo;
        last_max = lat[i] > last_max ? lat[i] : last_max;
    }
    return lo;                                          /* the noise only adds */
}

static void fermi_tables_3_and_5(void **state)
{
    (void)state;
    gs_sim_model *m = builtin("fermi");
    assert_int_equal(warm_latency(m, GS_SPACE_GLOBAL, GS_PATH_CA, 8, 128), 116);   /* pattern 1 */
    assert_int_equal(warm_latency(m, GS_SPACE_GLOBAL, GS_PATH_CG, 8, 128), 371);   /* L1 off */
    /* Pattern 4: 1 MB at 128 B misses L1 and the 512 KB L2, in one 2 MB page. */
    assert_int_equal(warm_latency(m, GS_SPACE_GLOBAL, GS_PATH_CA, 8192, 128), 655);
    assert_int_equal(warm_latency(m, GS_SPACE_GLOBAL, GS_PATH_CG, 8192, 128), 639);
    /* Table 5: texture L1 hit 240; 16 KB at 32 B overflows every 96-way set: L2 hit 470. */
    assert_int_equal(warm_latency(m, GS_SPACE_TEXTURE, GS_PATH_DEFAULT, 8, 32), 240);
    assert_int_equal(warm_latency(m, GS_SPACE_TEXTURE, GS_PATH_DEFAULT, 512, 32), 470);
    assert_int_equal(m->memory->caches[0].geo.sets, 32);
    gs_sim_model_free(m);
}

/* Accesses of the second pass over `pages` 2 MB pages that missed the L2 TLB (Fig. 11). */
static unsigned l2tlb_misses(gs_sim_model *m, size_t pages, double threshold)
{
    uint64_t *chain = stride_chain(pages, 2u << 20);
    gs_chase_plan p = base_plan(chain, pages, pages * (2u << 20));
    p.path = GS_PATH_CG;
    uint32_t lat[200];
    gs_error err;
    if (record(m, &p, lat, pages, &err))
        fail_msg("%s", err.msg);
    unsigned misses = 0;
    for (size_t i = 0; i < pages; i++)
        misses += lat[i] > threshold;
    free(chain);
    return misses;
}

static void fermi_l2_tlb_unequal_sets(void **state)
{
    (void)state;
    gs_sim_model *m = builtin("fermi");
    /* Every access misses the 16-entry L1 TLB (27) and L2 (DRAM 639); L2 TLB misses add 84. */
    double threshold = 639 + 27 + 40;
    assert_int_equal(l2tlb_misses(m, 65, threshold), 0);
    assert_int_equal(l2tlb_misses(m, 66, threshold), 18);     /* the 17-entry set */
    assert_int_equal(l2tlb_misses(m, 67, threshold), 27);     /* then 8-entry sets */
    assert_int_equal(l2tlb_misses(m, 68, threshold), 36);
    gs_sim_model_free(m);
}

static void fermi_l1_is_not_lru(void **state)
{
    (void)state;
    gs_sim_model *m = builtin("fermi");
    /* N = C + b at stride b (section 3.2 (4)): only set 0 overflows, 5 lines in 4 ways. LRU
     * would miss all 5 on every pass; the weighted policy keeps some of them. */
    uint64_t *chain = stride_chain(129, 128);
    gs_chase_plan p = base_plan(chain, 129, 129 * 128);
    p.warmup_passes = 2;
    static uint32_t lat[129 * 40];
    gs_error err;
    m->info.smem_per_block_optin_bytes = sizeof lat * 2;   /* room for 40 passes of trace */
    if (record(m, &p, lat, 129 * 40, &err))
        fail_msg("%s", err.msg);
    unsigned misses = 0, periodic = 1;
    for (size_t i = 0; i < 129 * 40; i++) {
        misses += lat[i] > 200;
        if (i >= 129 && (lat[i] > 200) != (lat[i - 129] > 200))
            periodic = 0;
        if ((i % 129) % 32 != 0)                         /* only set-0 lines miss */
            assert_true(lat[i] < 200);
    }
    assert_true(misses > 0 && misses < 5 * 40);
    assert_false(periodic);
    free(chain);
    gs_sim_model_free(m);
}

static void kepler_and_hopper(void **state)
{
    (void)state;
    gs_sim_model *m = builtin("kepler");
    assert_int_equal(warm_latency(m, GS_SPACE_GLOBAL, GS_PATH_DEFAULT, 8, 128), 230);
    assert_int_equal(warm_latency(m, GS_SPACE_GLOBAL, GS_PATH_NC, 8, 32), 110);
    assert_int_equal(warm_latency(m, GS_SPACE_TEXTURE, GS_PATH_DEFAULT, 512, 32), 220);
    /* Table 3 patterns 3 and 6: 70 pages miss the L2 TLB (230 + 6 + 53 = 289); pages that
     * alternate between two 512 MB windows also switch the page-table window (+266). */
    uint64_t chain[70];
    uint32_t lat[70];
    gs_error err;
    for (int k = 0; k < 70; k++)
        chain[k] = (uint64_t)k << 21;
    gs_chase_plan p = base_plan(chain, 70, 2ull << 30);
    p.path = GS_PATH_CG;
    p.physical_bytes = 2u << 20;                        /* data always hits L2 */
    assert_int_equal(record(m, &p, lat, 70, &err), 0);
    for (int k = 0; k < 70; k++)
        assert_true(lat[k] >= 230 && lat[k] <= 289 + 2);
    for (int k = 0; k < 70; k++)
        chain[k] = (uint64_t)(k / 2) * (2u << 20) + (uint64_t)(k % 2) * (768u << 20);
    assert_int_equal(record(m, &p, lat, 70, &err), 0);
    unsigned switches = 0;
    for (int k = 0; k < 70; k++)
        switches += lat[k] >= 289 + 266 && lat[k] <= 289 + 266 + 2;
    assert_true(switches > 0);
    gs_sim_model_free(m);
    m = builtin("hopper");
    assert_int_equal(warm_latency(m, GS_SPACE_GLOBAL, GS_PATH_DEFAULT, 8, 128), 33);
    assert_int_equal(warm_latency(m, GS_SPACE_CONSTANT, GS_PATH_DEFAULT, 8, 64), 24);
    assert_int_equal(warm_latency(m, GS_SPACE_SHARED, GS_PATH_DEFAULT, 8, 8), 29);
    /* cg at 4 KB stride: address bits 12 ^ 14 put half the lines in the far L2 partition; SM 0
     * (where a chase runs unless its plan names an SM) sits 10 cycles from the L2 slices */
    assert_int_equal(warm_latency(m, GS_SPACE_GLOBAL, GS_PATH_CG, 8, 4096), 210);
    assert_true(last_max >= 300 && last_max <= 302);
    gs_sim_model_free(m);
}

static gs_sim_model *test_model(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/models/%s.json", GS_SOURCE_DIR, name);
    gs_sim_model *m = NULL;
    gs_error err;
    gs_error_clear(&err);
    if (gs_sim_model_load(path, 5, &m, &err))
        fail_msg("%s", err.msg);
    return m;
}

/* Accesses of one warm pass over n lines of 128 B that took more than threshold cycles. */
static unsigned slow_accesses(gs_sim_model *m, size_t n, uint64_t stride, double threshold)
{
    uint64_t *chain = stride_chain(n, stride);
    gs_chase_plan p = base_plan(chain, n, n * stride);
    static uint32_t lat[4096];
    gs_error err;
    if (record(m, &p, lat, n, &err))
        fail_msg("%s", err.msg);
    unsigned slow = 0;
    for (size_t i = 0; i < n; i++)
        slow += lat[i] > threshold;
    free(chain);
    return slow;
}

/* A walk whose state comes back only after several passes is replayed from those passes
 * (memory.c, "repeated passes"). A pass of 10 accesses to 6 lines of one set of 4 HSLRU ways (2
 * hits remembered) hits alternately in two ways, pass after pass. Every access must be what the
 * policy gives access by access (analysis/cache_infer.c predicts it on its own): a walk of
 * 20,000 recorded, then walks of up to 100,000 averaged, each starting cold and long enough to
 * be replayed, against the recorded start and, past it, 20 cycles a hit and the recorded warm
 * miss's cycles a miss. */
static void repeats_of_several_passes(void **state)
{
    (void)state;
    gs_sim_model *m = make_model((variant){.l1_extra = ",\"policy\":\"hslru\",\"protected_ways\":2"});
    enum { PASS = 10, REC = 20000, MAX = 100000 };
    static const uint32_t line[PASS] = {4, 3, 1, 5, 3, 2, 5, 2, 0, 4};
    m->info.smem_per_block_optin_bytes = 2 * REC + 32; /* room for the recorded walk's trace */
    uint64_t chain[PASS];
    for (size_t k = 0; k < PASS; k++)                  /* 2 sets of 128 B lines: all in set 0 */
        chain[k] = line[k] * 256 + 8 * k;              /* each access its own element */
    gs_chase_plan p = base_plan(chain, PASS, 6 * 256);
    p.warmup_passes = 0;
    uint32_t *blocks = malloc(MAX * sizeof *blocks), *lat = malloc(REC * sizeof *lat);
    bool *hit = malloc(MAX * sizeof *hit);
    assert_non_null(blocks);
    assert_non_null(lat);
    assert_non_null(hit);
    for (size_t i = 0; i < MAX; i++)
        blocks[i] = line[i % PASS];
    assert_int_equal(gs_policy_predict(GS_POLICY_HSLRU, 2, blocks, MAX, 4, hit), 0);
    bool alternates = false;                           /* the test's premise: 2 passes apart */
    for (size_t i = 100 * PASS; i < 101 * PASS; i++)
        alternates |= hit[i] != hit[i + PASS];
    assert_true(alternates);
    gs_error err;
    if (record(m, &p, lat, REC, &err))
        fail_msg("%s", err.msg);
    uint32_t miss = 0;
    double start = 0;
    for (size_t i = 0; i < REC; i++) {
        if ((lat[i] == 20) != hit[i])
            fail_msg("access %zu took %u cycles, %s expected", i, lat[i],
                     hit[i] ? "a hit" : "a miss");
        if (i >= PASS && !hit[i]) {
            assert_true(!miss || lat[i] == miss);       /* every warm miss alike */
            miss = lat[i];
        }
        start += lat[i];
    }
    assert_true(miss > 20);
    p.record_n = 0;
    for (size_t n = REC; n <= MAX; n = n * 2 + 3) {
        double want = start;
        for (size_t i = REC; i < n; i++)
            want += hit[i] ? 20 : miss;
        gs_chase_result r = {0};
        p.timed_accesses = n;
        if (sim_chase(m, &p, &r, &err))
            fail_msg("%s", err.msg);
        assert_float_equal(r.avg_cycles, want / (double)n, 1e-9 * want / (double)n);
    }
    free(blocks);
    free(lat);
    free(hit);
}

static void hard_test_models(void **state)
{
    (void)state;
    static const char *const names[] = {"cache_noisy", "cache_xor", "cache_unequal", "cache_fifo",
                                        "cache_random", "cache_plru", "cache_sectored",
                                        "tlb_coverage"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        gs_sim_model *m = test_model(names[i]);
        const sim_level *l1 = &m->memory->caches[0];
        size_t lines = (size_t)(l1->geo.size_bytes / 128);
        /* Half the L1 fits whatever the mapping and policy; twice it at stride 128 does not. */
        unsigned outliers = m->noise_outlier_rate > 0 ? 10 : 0;
        assert_true(slow_accesses(m, lines / 2, 128, 100) <= outliers);
        assert_true(slow_accesses(m, lines * 2, 128, 100) > lines / 2);
        gs_sim_model_free(m);
    }
    /* Unequal sets 6 + 7 x 4 = 34 lines: 34 fit; line 34 overflows the 6-way set (7 misses),
     * line 35 the next 4-way set (5 more). */
    gs_sim_model *m = test_model("cache_unequal");
    assert_int_equal(slow_accesses(m, 34, 128, 100), 0);
    assert_int_equal(slow_accesses(m, 35, 128, 100), 7);
    assert_int_equal(slow_accesses(m, 36, 128, 100), 12);
    gs_sim_model_free(m);
    /* XOR mapping: 4 KB apart the lines fall in different sets (bit 12 -> index bit 5): eight
     * lines at 4 KB fit in 4 ways; at 8 KB they spread over sets 0, 3, 5, ... and still fit,
     * whereas at 512 KB (bits 19+, outside the hash) all share set 0 and miss. */
    m = test_model("cache_xor");
    assert_int_equal(slow_accesses(m, 8, 4096, 100), 0);
    assert_int_equal(slow_accesses(m, 8, 8192, 100), 0);
    assert_int_equal(slow_accesses(m, 8, 512 * 1024, 100), 8);
    gs_sim_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hits_and_cold_misses),   cmocka_unit_test(l1_set_overflow),
        cmocka_unit_test(untimed_walk_matches_lane_by_lane),
        cmocka_unit_test(split_parts),            cmocka_unit_test(split_warmup),
        cmocka_unit_test(window_parts),
        cmocka_unit_test(tlb_penalties),          cmocka_unit_test(tlb_far_ways),
        cmocka_unit_test(sector_fills),           cmocka_unit_test(chase_base_placement),
        cmocka_unit_test(warp_requests),          cmocka_unit_test(carveout_geometry),
        cmocka_unit_test(unified_l1_gives_way_to_shared_memory),
        cmocka_unit_test(partitions_and_aliasing), cmocka_unit_test(noise_bounds),
        cmocka_unit_test(walkers_queueing),       cmocka_unit_test(limits_and_unsupported),
        cmocka_unit_test(fermi_tables_3_and_5),   cmocka_unit_test(fermi_l2_tlb_unequal_sets),
        cmocka_unit_test(fermi_l1_is_not_lru),    cmocka_unit_test(kepler_and_hopper),
        cmocka_unit_test(hard_test_models),       cmocka_unit_test(repeats_of_several_passes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
