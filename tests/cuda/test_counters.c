/* Tests of the CUDA backend's L2 counters (src/cuda/cupti.cu, the evict plan's count_l2 in
 * src/cuda/evict.cu) on a real GPU: a target probed with no pool is one counted L2 hit a probe
 * (plus the launch's own lookups, the same in every plan), and a pool of twice the L2's lines
 * takes that hit away; a plan with count_l2 where the counters are off is refused with their
 * reason. Without a GPU (CI, CUDA_VISIBLE_DEVICES="", a simulator-only build) every test is
 * skipped; where the counters are off, the test prints why and checks the refusal alone. Run it
 * on the GPU machine as `build/cuda_test_counters` (ctest hides the GPU from unit tests). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_test.h"

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
    if (gpu)
        printf("L2 counters: %s: %s\n", info.counters ? "on" : "not available",
               info.counters_detail);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (gpu)
        gs_backend_close(gpu);
    return 0;
}

/* Counted hits and misses of target's probes after pool[0..n), repeats repetitions. */
static int counted(uint64_t target, const uint64_t *pool, size_t n, uint64_t footprint,
                   uint64_t *hit, uint64_t *miss, gs_error *err)
{
    enum { R = 8 };
    double h[R], p[R];
    gs_evict_plan plan = {.footprint_bytes = footprint, .targets = &target, .n_targets = 1,
                          .pool = pool, .n_pool = n, .warm_passes = 1, .pool_passes = 2,
                          .repeats = R, .count_l2 = true};
    gs_evict_result r = {.hit_cycles = h, .probe_cycles = p};
    int rc = gpu->ops->evict(gpu, &plan, &r, err);
    *hit = r.l2_hit_sectors, *miss = r.l2_miss_sectors;
    return rc;
}

static void test_counted_hit_and_eviction(void **state)
{
    (void)state;
    if (!gpu || !gpu->ops->evict)
        skip();
    uint64_t line = 128, lines = 2 * info.l2_bytes / line, footprint = 8 * info.l2_bytes;
    uint64_t *pool = malloc(lines * sizeof *pool), hit0, miss0, hit1, miss1;
    gs_error err;
    gs_error_clear(&err);
    assert_non_null(pool);
    for (uint64_t i = 0; i < lines; i++)          /* every other line of 4 x the L2 */
        pool[i] = (i * 2 + 1) * line;
    if (!info.counters) {
        assert_int_equal(counted(0, pool, 0, footprint, &hit0, &miss0, &err),
                         GS_ERR_UNSUPPORTED);
        assert_non_null(strstr(err.msg, "not available"));
        free(pool);
        return;
    }
    assert_int_equal(counted(0, pool, 0, footprint, &hit0, &miss0, &err), 0);
    assert_int_equal(counted(0, pool, lines, footprint, &hit1, &miss1, &err), 0);
    printf("no pool: %llu hit and %llu miss sectors over 8 probes; after %llu lines: %llu and "
           "%llu\n", (unsigned long long)hit0, (unsigned long long)miss0,
           (unsigned long long)lines, (unsigned long long)hit1, (unsigned long long)miss1);
    assert_true(hit0 >= 8);                       /* each probe hit (and the launch's own) */
    assert_true(hit0 - hit1 >= 6 && hit0 - hit1 <= 8);   /* the pool took the target's hit */
    free(pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counted_hit_and_eviction),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
