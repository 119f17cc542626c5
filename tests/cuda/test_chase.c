/* Tests of the CUDA chase (src/cuda/chase.cu, chase_kernels.cu, vmm.cu) on a real GPU: every
 * space and path, both element widths, fine-grained traces that must follow the chain, average
 * mode, walkers, lanes, virtual aliasing over 1 TB, and the clean failures (trace too long,
 * aliasing collisions, out of memory). Without a GPU (CI, CUDA_VISIBLE_DEVICES="", or a
 * simulator-only build) every test is skipped. Run it on the GPU machine as
 * `build/cuda_test_chase` (ctest hides the GPU from unit tests); under compute-sanitizer set
 * GS_UNDER_SANITIZER=1, which drops the one timing comparison. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gs_test.h"

#include "analysis/chain.h"
#include "backend.h"

static gs_backend *gpu;
static gs_device_info info;

static int setup(void **state)
{
    (void)state;
    gs_error err;
    gs_error_clear(&err);
    if (gs_cuda_open(0, &gpu, &err) != 0)
        gpu = NULL;
    else if (gpu->ops->info(gpu, &info, &err) != 0)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (gpu)
        gs_backend_close(gpu);
    return 0;
}

#define NEED_GPU()                                                                                \
    do {                                                                                          \
        if (!gpu)                                                                                 \
            skip();                                                                               \
    } while (0)

/* A plan over a stride chain of count elements. */
static gs_chase_plan stride_plan(gs_space space, gs_load_path path, uint64_t *chain, size_t count,
                                 uint64_t stride, unsigned eb)
{
    gs_chase_plan p;
    memset(&p, 0, sizeof p);
    assert_int_equal(gs_chain_stride(count, stride, chain), 0);
    p.space = space;
    p.path = path;
    p.footprint_bytes = count * stride;
    p.chain = chain;
    p.chain_len = count;
    p.element_bytes = eb;
    p.warmup_passes = 1;
    p.carveout_percent = -1;
    return p;
}

static void check_ok(const gs_chase_plan *p, gs_chase_result *r)
{
    gs_error err;
    gs_error_clear(&err);
    int rc = gpu->ops->chase(gpu, p, r, &err);
    if (rc != 0)
        fail_msg("chase failed: %s", err.msg);
}

/* Fine-grained traces on every space and path: the backend verifies the recorded indices; the
 * latencies must be positive and the count right. */
static void test_fine_every_path(void **state)
{
    (void)state;
    NEED_GPU();
    struct { gs_space s; gs_load_path p; } cases[] = {
        {GS_SPACE_GLOBAL, GS_PATH_DEFAULT}, {GS_SPACE_GLOBAL, GS_PATH_CA},
        {GS_SPACE_GLOBAL, GS_PATH_CG},      {GS_SPACE_GLOBAL, GS_PATH_CV},
        {GS_SPACE_GLOBAL, GS_PATH_NC},      {GS_SPACE_TEXTURE, GS_PATH_TEX},
        {GS_SPACE_CONSTANT, GS_PATH_CONST}, {GS_SPACE_SHARED, GS_PATH_SHARED},
        {GS_SPACE_LOCAL, GS_PATH_LOCAL},    {GS_SPACE_GLOBAL, GS_PATH_TEX},
    };
    uint64_t chain[64];
    uint32_t lat[200];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (unsigned eb = 4; eb <= 8; eb += 4) {
            gs_chase_plan p = stride_plan(cases[c].s, cases[c].p, chain, 64, 64, eb);
            gs_chase_result r = {.latency_cycles = lat};
            p.record_n = 200;
            check_ok(&p, &r);
            assert_int_equal(r.recorded, 200);
            assert_true(r.record_capacity >= 1000);
            for (int i = 0; i < 200; i++)
                assert_true(lat[i] > 0 && lat[i] < 100000);
        }
}

/* Average mode: an L1-sized chain is faster per access than a 256 MB one (the latter misses at
 * least L1), and both report cycles and ns. */
static void test_average_small_vs_large(void **state)
{
    (void)state;
    NEED_GPU();
    size_t n_big = 1u << 16;
    uint64_t *chain = (uint64_t *)malloc(n_big * sizeof *chain);
    gs_chase_plan p = stride_plan(GS_SPACE_GLOBAL, GS_PATH_DEFAULT, chain, 256, 64, 8);
    gs_chase_result small = {0}, big = {0};
    p.timed_accesses = 20000;
    check_ok(&p, &small);
    p = stride_plan(GS_SPACE_GLOBAL, GS_PATH_DEFAULT, chain, n_big, 4096, 8);
    p.timed_accesses = 20000;
    p.warmup_passes = 0;
    check_ok(&p, &big);
    assert_true(small.avg_cycles > 1 && small.avg_ns > 0);
    if (!getenv("GS_UNDER_SANITIZER"))   /* compute-sanitizer's instrumentation swamps latency */
        assert_true(big.avg_cycles > 1.5 * small.avg_cycles);
    free(chain);
}

/* A split warm-up on every global path and element width: the backend checks where each
 * segment and the serial part stopped; on the L2 path a chain that fits the L2 (2.5 MB) reads
 * the same L2 hits as after a serial pass (within 5 %). */
static void test_split_warmup(void **state)
{
    (void)state;
    NEED_GPU();
    size_t n = 20000;
    uint64_t *chain = (uint64_t *)malloc(n * sizeof *chain);
    gs_load_path paths[] = {GS_PATH_DEFAULT, GS_PATH_CA, GS_PATH_CG, GS_PATH_CV, GS_PATH_NC};
    for (size_t c = 0; c < sizeof paths / sizeof paths[0]; c++)
        for (unsigned eb = 4; eb <= 8; eb += 4) {
            gs_chase_plan p = stride_plan(GS_SPACE_GLOBAL, paths[c], chain, n, 128, eb);
            gs_chase_result split = {0}, serial = {0};
            gs_chase_split parts;
            p.timed_accesses = 2000;
            p.warmup_split = true;
            assert_true(gs_chase_split_of(&p, &parts));
            check_ok(&p, &split);
            p.warmup_split = false;
            check_ok(&p, &serial);
            assert_true(split.avg_cycles > 1);
            if (paths[c] == GS_PATH_CG && !getenv("GS_UNDER_SANITIZER"))
                assert_true(fabs(split.avg_cycles - serial.avg_cycles) <
                            0.05 * serial.avg_cycles);
        }
    free(chain);
}

/* A windowed warm-up on every global path and 2 to 32 lanes: the backend checks where each lane
 * stopped; on the L2 path a chain that fits the L2 reads the same hits as after a serial pass
 * (within 5 %). */
static void test_window_warmup(void **state)
{
    (void)state;
    NEED_GPU();
    size_t n = 20000;
    uint64_t *chain = (uint64_t *)malloc(n * sizeof *chain);
    gs_load_path paths[] = {GS_PATH_DEFAULT, GS_PATH_CA, GS_PATH_CG, GS_PATH_CV, GS_PATH_NC};
    unsigned lanes[] = {2, 3, 32};
    for (size_t c = 0; c < sizeof paths / sizeof paths[0]; c++)
        for (size_t w = 0; w < sizeof lanes / sizeof lanes[0]; w++) {
            gs_chase_plan p = stride_plan(GS_SPACE_GLOBAL, paths[c], chain, n, 128, 8);
            gs_chase_result windowed = {0}, serial = {0};
            p.timed_accesses = 2000;
            p.warmup_window = lanes[w];
            assert_int_equal(gs_chase_window_of(&p), lanes[w]);
            check_ok(&p, &windowed);
            p.warmup_window = 0;
            check_ok(&p, &serial);
            assert_true(windowed.avg_cycles > 1);
            if (paths[c] == GS_PATH_CG && !getenv("GS_UNDER_SANITIZER"))
                assert_true(fabs(windowed.avg_cycles - serial.avg_cycles) <
                            0.05 * serial.avg_cycles);
        }
    free(chain);
}

/* Walkers and lanes: every lane of every walker must end where the chain says (the backend
 * checks); throughput is reported. */
static void test_walkers_lanes(void **state)
{
    (void)state;
    NEED_GPU();
    uint64_t chain[1024];
    gs_chase_plan p = stride_plan(GS_SPACE_GLOBAL, GS_PATH_CG, chain, 1024, 4096, 4);
    gs_chase_result r = {0};
    p.footprint_bytes += 31 * 128;
    p.walkers = (unsigned)info.sm_count * 2;
    p.lanes = 32;
    p.lane_stride_bytes = 128;
    p.timed_accesses = 5000;
    check_ok(&p, &r);
    assert_true(r.accesses_per_ns > 0 && r.avg_cycles > 0);
}

/* 1 TB of virtual space over 64 MB of physical memory (2 MB pieces over 1 TB exhaust the driver:
 * half a million mappings). Element k is shifted by k * 256 bytes inside its page; then a plain
 * stride chain over a power-of-two footprint, which aliases every element onto one physical word
 * and works only because aliased chains hold distances; then one that cannot work. */
static void test_vmm_alias_1tb(void **state)
{
    (void)state;
    NEED_GPU();
    if (!info.vmm_supported)
        skip();
    size_t n = 4096;
    uint64_t page = 2ull << 20, stride = (1ull << 40) / n;
    uint64_t *chain = (uint64_t *)malloc(n * sizeof *chain);
    uint32_t lat[256];
    for (size_t k = 0; k < n; k++)
        chain[k] = k * stride + (k * 256) % page;
    gs_chase_plan p;
    memset(&p, 0, sizeof p);
    p.space = GS_SPACE_GLOBAL;
    p.path = GS_PATH_CG;
    p.footprint_bytes = 1ull << 40;
    p.physical_bytes = 64ull << 20;
    p.chain = chain;
    p.chain_len = n;
    p.element_bytes = 8;
    p.warmup_passes = 1;
    p.timed_accesses = 8192;
    p.carveout_percent = -1;
    gs_chase_result r = {0};
    check_ok(&p, &r);
    assert_true(r.avg_cycles > 100);
    for (size_t k = 0; k < n; k++)
        chain[k] = k * stride;
    p.record_n = 256;
    r.latency_cycles = lat;
    check_ok(&p, &r);
    assert_int_equal(r.recorded, 256);
    /* Not a power of two: the wrap's distance differs from the others on the same word. */
    p.footprint_bytes += page;
    gs_error err;
    gs_error_clear(&err);
    assert_int_equal(gpu->ops->chase(gpu, &p, &r, &err), GS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "physical"));
    free(chain);
}

/* The backend keeps aliased spans across chases (vmm.h): chases that grow the span,
 * fit inside it, change the physical size and come back must each follow their own chain (the
 * chase verifies every lane's final cursor), and a chain over a span another chain left its
 * cursors in must read its own. */
static void test_vmm_alias_reuse(void **state)
{
    (void)state;
    NEED_GPU();
    if (!info.vmm_supported)
        skip();
    static const uint64_t gb[] = {8, 64, 16, 64, 200, 8};
    static const uint64_t phys_mb[] = {2, 2, 2, 64, 2, 64};
    size_t n = 1024;
    uint64_t *chain = (uint64_t *)malloc(n * sizeof *chain);
    for (size_t t = 0; t < sizeof gb / sizeof gb[0]; t++) {
        uint64_t footprint = gb[t] << 30, stride = footprint / n;
        for (size_t k = 0; k < n; k++)   /* every element on its own word of 2 MB */
            chain[k] = k * stride + (k * 1032 + t * 8) % (2ull << 20);
        gs_chase_plan p;
        memset(&p, 0, sizeof p);
        p.space = GS_SPACE_GLOBAL;
        p.path = GS_PATH_CG;
        p.footprint_bytes = footprint;
        p.physical_bytes = phys_mb[t] << 20;
        p.chain = chain;
        p.chain_len = n;
        p.element_bytes = 8;
        p.warmup_passes = t % 2;
        p.timed_accesses = 4096;
        p.carveout_percent = -1;
        gs_chase_result r = {0};
        check_ok(&p, &r);
        assert_true(r.avg_cycles > 100);
    }
    free(chain);
}

static void test_clean_failures(void **state)
{
    (void)state;
    NEED_GPU();
    uint64_t chain[16];
    uint32_t lat[1];
    gs_error err;
    gs_chase_plan p = stride_plan(GS_SPACE_GLOBAL, GS_PATH_DEFAULT, chain, 16, 64, 8);
    gs_chase_result r = {.latency_cycles = lat};
    /* A trace longer than the opt-in shared memory holds. */
    p.record_n = info.smem_per_block_optin_bytes;
    gs_error_clear(&err);
    assert_int_equal(gpu->ops->chase(gpu, &p, &r, &err), GS_ERR_UNSUPPORTED);
    assert_true(r.record_capacity > 0 && r.record_capacity < p.record_n);
    assert_non_null(strstr(err.msg, "trace"));
    /* A footprint far beyond device memory, not aliased. */
    p.record_n = 0;
    p.footprint_bytes = 1ull << 50;
    gs_error_clear(&err);
    assert_int_equal(gpu->ops->chase(gpu, &p, &r, &err), GS_ERR_NO_MEMORY);
    assert_non_null(strstr(err.msg, "footprint"));
    /* Bad shapes. */
    p = stride_plan(GS_SPACE_GLOBAL, GS_PATH_DEFAULT, chain, 16, 64, 8);
    p.element_bytes = 2;
    assert_int_equal(gpu->ops->chase(gpu, &p, &r, &err), GS_ERR_USAGE);
    p = stride_plan(GS_SPACE_SHARED, GS_PATH_CG, chain, 16, 64, 8);
    assert_int_equal(gpu->ops->chase(gpu, &p, &r, &err), GS_ERR_UNSUPPORTED);
    p = stride_plan(GS_SPACE_CONSTANT, GS_PATH_DEFAULT, chain, 16, 8192, 8);
    assert_int_equal(gpu->ops->chase(gpu, &p, &r, &err), GS_ERR_UNSUPPORTED);
    /* The device still works after all that. */
    p = stride_plan(GS_SPACE_GLOBAL, GS_PATH_DEFAULT, chain, 16, 64, 8);
    check_ok(&p, &r);
}

/* Carve-outs: every preference the API takes is accepted. */
static void test_carveouts(void **state)
{
    (void)state;
    NEED_GPU();
    uint64_t chain[512];
    for (int pct = -1; pct <= 100; pct += 25) {
        gs_chase_plan p = stride_plan(GS_SPACE_GLOBAL, GS_PATH_CA, chain, 512, 128, 4);
        gs_chase_result r = {0};
        p.carveout_percent = pct < 0 ? -1 : pct;
        p.timed_accesses = 4096;
        check_ok(&p, &r);
        assert_true(r.avg_cycles > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fine_every_path),   cmocka_unit_test(test_average_small_vs_large),
        cmocka_unit_test(test_walkers_lanes),     cmocka_unit_test(test_vmm_alias_1tb),
        cmocka_unit_test(test_split_warmup),
        cmocka_unit_test(test_window_warmup),
        cmocka_unit_test(test_vmm_alias_reuse),
        cmocka_unit_test(test_clean_failures),    cmocka_unit_test(test_carveouts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
