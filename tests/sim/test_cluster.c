/* Tests of the cluster operation's transfer-latency kinds in the simulator (src/sim/cluster.c)
 * and the box rules both backends share (gs_cluster_tensor_box, src/plan.c): a tensor-map
 * transfer is one box of u32 rows of 256 B (one row under 256 B), at most 256 elements per
 * dimension and a multiple of 16 bytes inside; bytes that make no box are a usage error for the
 * tensor kind and still a transfer for the bulk kind; the latency is base + per KB x bytes plus
 * the model's jitter; a base the model leaves out is unsupported, naming the key. */
#include "sim_test.h"

#include <math.h>

#include "sim/sim.h"

#define MODEL(tma_extra)                                                                        \
    "{\"name\":\"cl\",\"device\":{\"name\":\"t\",\"cc_major\":9,\"cc_minor\":0,\"sm_count\":4,"  \
    "\"clock_khz\":1000000,\"l2_bytes\":524288,\"smem_per_sm_bytes\":65536,"                     \
    "\"smem_per_block_bytes\":49152,\"global_mem_bytes\":1073741824,"                            \
    "\"const_mem_bytes\":65536,\"max_threads_per_sm\":2048,\"max_threads_per_block\":1024,"      \
    "\"max_blocks_per_sm\":32},\"noise\":{\"jitter_cycles\":0},"                                 \
    "\"cluster\":{\"max_size\":8,\"local_latency_cycles\":30,\"remote_latency_cycles\":200,"     \
    "\"local_gbps_per_sm\":100,\"remote_gbps_per_sm\":30,\"tma\":{\"bulk_l2_gbps\":1,"          \
    "\"bulk_dram_gbps\":1,\"vector_l2_gbps\":1,\"vector_dram_gbps\":1" tma_extra "}}}"

static void tensor_boxes(void **state)
{
    (void)state;
    static const struct {
        uint64_t bytes;
        int rc;
        unsigned words, rows;
    } cases[] = {
        {16, 0, 4, 1},      {128, 0, 32, 1},   {240, 0, 60, 1},  {256, 0, 64, 1},
        {512, 0, 64, 2},    {16384, 0, 64, 64}, {8, -1, 0, 0},   {24, -1, 0, 0},
        {272, -1, 0, 0},    {16640, -1, 0, 0},  {32768, -1, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned words = 0, rows = 0;
        assert_int_equal(gs_cluster_tensor_box(cases[i].bytes, &words, &rows), cases[i].rc);
        if (cases[i].rc == 0) {
            assert_int_equal(words, cases[i].words);
            assert_int_equal(rows, cases[i].rows);
            assert_true(words <= 256 && rows <= 256 && words * 4 % 16 == 0);
            assert_int_equal((uint64_t)words * 4 * rows, cases[i].bytes);
        }
    }
    assert_int_equal(gs_cluster_transfer_bytes(0), 128);
    assert_int_equal(gs_cluster_transfer_bytes(GS_CLUSTER_TRANSFER_SIZES - 1), 16384);
    assert_int_equal(gs_cluster_transfer_bytes(GS_CLUSTER_TRANSFER_SIZES), 0);
}

/* One plan of kind k and bytes on m: its status, and the first value into *cycles. */
static int transfer(gs_sim_model *m, gs_cluster_kind k, uint64_t bytes, double *cycles,
                    gs_error *err)
{
    double values[3] = {NAN, NAN, NAN};
    gs_cluster_plan plan = {.kind = k, .bytes = bytes, .repeats = 3};
    gs_cluster_result r = {.values = values};
    gs_error_clear(err);
    int rc = sim_cluster(m, &plan, &r, err);
    *cycles = values[0];
    return rc;
}

static void tensor_latency(void **state)
{
    (void)state;
    gs_error err;
    gs_sim_model *m = NULL;
    double cycles;
    if (sim_test_load(MODEL(",\"bulk_latency_base_cycles\":500,"
                            "\"tensor_latency_base_cycles\":700,"
                            "\"tensor_latency_cycles_per_kb\":40"), 1, &m, &err) != 0)
        fail_msg("model: %s", err.msg);
    assert_int_equal(transfer(m, GS_CLUSTER_TENSOR_LATENCY, 2048, &cycles, &err), 0);
    assert_double_equal(cycles, 780, 1e-9);
    assert_double_equal(sim_cluster_transfer_truth(m, GS_CLUSTER_TENSOR_LATENCY, 2048), 780, 1e-9);
    assert_int_equal(transfer(m, GS_CLUSTER_TENSOR_LATENCY, 272, &cycles, &err), GS_ERR_USAGE);
    assert_non_null(strstr(err.msg, "make no box"));
    assert_int_equal(transfer(m, GS_CLUSTER_BULK_LATENCY, 272, &cycles, &err), 0);
    assert_double_equal(cycles, 500, 1e-9);
    assert_int_equal(transfer(m, GS_CLUSTER_LOAD_LATENCY, 2048, &cycles, &err),
                     GS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "cluster.tma.load_latency_base_cycles"));
    assert_true(isnan(sim_cluster_transfer_truth(m, GS_CLUSTER_LOAD_LATENCY, 2048)));
    gs_sim_model_free(m);

    if (sim_test_load(MODEL(""), 1, &m, &err) != 0)
        fail_msg("model: %s", err.msg);
    assert_int_equal(transfer(m, GS_CLUSTER_TENSOR_LATENCY, 2048, &cycles, &err),
                     GS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "cluster.tma.tensor_latency_base_cycles"));
    gs_sim_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tensor_boxes),
        cmocka_unit_test(tensor_latency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
