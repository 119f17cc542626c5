/* Unit tests of src/sim/node.c: the "node" section of a model file (strict parsing, errors that
 * name the key path) and the p2p operation's answers against the link matrix: rates and latency
 * read back, rows as sources, a link of type none without peer access. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gs_test.h"
#include "sim_test.h"

#include "sim/model.h"
#include "sim/sim.h"

#define DEVICE "\"device\": {\"name\": \"t\", \"cc_major\": 9, \"cc_minor\": 0, \"sm_count\": 4, " \
               "\"clock_khz\": 1000000, \"l2_bytes\": 1024, \"smem_per_sm_bytes\": 1024, "        \
               "\"smem_per_block_bytes\": 1024, \"global_mem_bytes\": 1048576, "                  \
               "\"max_threads_per_sm\": 2048, \"max_threads_per_block\": 1024, "                  \
               "\"max_blocks_per_sm\": 32}"
#define NV "{\"type\": \"nvlink\", \"gbps\": 400, \"read_gbps\": 300, \"latency_ns\": 700, " \
           "\"performance_rank\": 0, \"atomics\": true, \"note\": \"NV18\"}"
#define PCIE "{\"type\": \"pcie\", \"gbps\": 25, \"write_gbps\": 20, \"latency_ns\": 1500}"
#define NONE "{\"type\": \"none\"}"
/* 0 <-> 1 NVLink, 0 -> 2 and 2 -> 0 PCIe, 1 <-> 2 no peer access. */
#define NODE3 "\"node\": {\"devices\": 3, \"links\": [[null, " NV ", " PCIE "], [" NV ", null, " \
              NONE "], [" PCIE ", " NONE ", null]]}"

static int load_node(const char *node, gs_sim_model **m, gs_error *err)
{
    char text[4096];
    snprintf(text, sizeof text, "{\"name\": \"n\", " DEVICE "%s%s}", node[0] ? ", " : "", node);
    return sim_test_load(text, 1, m, err);
}

static gs_sim_model *load_ok(const char *node)
{
    gs_sim_model *m = NULL;
    gs_error err;
    int rc = load_node(node, &m, &err);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
    assert_int_equal(rc, 0);
    return m;
}

/* The median-free mean of 4 repetitions of kind on (src, dst): GB/s, or ns for the latency. */
static int run(gs_sim_model *m, gs_p2p_kind kind, int src, int dst, double *value,
               gs_p2p_result *r, gs_error *err)
{
    static double s[4];
    gs_p2p_plan plan = {.kind = kind, .src_device = src, .dst_device = dst, .bytes = 1 << 30,
                        .stride_bytes = 4096, .accesses = 100, .repeats = 4};
    memset(r, 0, sizeof *r);
    r->seconds = s;
    int rc = sim_p2p(m, &plan, r, err);
    if (rc == 0 && kind != GS_P2P_QUERY) {
        assert_int_equal(r->n, 4);
        *value = kind == GS_P2P_LATENCY ? s[0] * 1e9 : (double)r->bytes_moved / s[0] * 1e-9;
    }
    return rc;
}

static void test_matrix_is_read_back(void **state)
{
    (void)state;
    gs_sim_model *m = load_ok(NODE3);
    gs_p2p_result r;
    gs_error err;
    double v = 0;
    assert_int_equal(m->info.node_devices, 3);
    assert_int_equal(run(m, GS_P2P_COPY_ENGINE, 0, 1, &v, &r, &err), 0);
    assert_double_equal(v, 400, 1e-9);
    assert_true(r.access_possible);
    assert_string_equal(r.link, "nvlink");
    assert_string_equal(r.link_detail, "NV18");
    assert_int_equal(r.performance_rank, 0);
    assert_int_equal(r.native_atomics, 1);
    assert_int_equal(run(m, GS_P2P_KERNEL_READ, 0, 1, &v, &r, &err), 0);
    assert_double_equal(v, 300, 1e-9);
    assert_int_equal(run(m, GS_P2P_KERNEL_WRITE, 0, 1, &v, &r, &err), 0);
    assert_double_equal(v, 400, 1e-9);              /* write_gbps absent: gbps */
    assert_int_equal(run(m, GS_P2P_LATENCY, 0, 1, &v, &r, &err), 0);
    assert_double_equal(v, 700, 1e-9);
    assert_double_equal(r.latency_cycles, 700, 1e-9);  /* 1 GHz */
    assert_int_equal(run(m, GS_P2P_KERNEL_WRITE, 2, 0, &v, &r, &err), 0);
    assert_double_equal(v, 20, 1e-9);
    assert_string_equal(r.link, "pcie");
    assert_int_equal(r.performance_rank, -1);       /* the model does not say */
    assert_int_equal(run(m, GS_P2P_LATENCY, 0, 2, &v, &r, &err), 0);
    assert_double_equal(v, 1500, 1e-9);
    gs_sim_model_free(m);
}

static void test_none_has_no_peer_access(void **state)
{
    (void)state;
    gs_sim_model *m = load_ok(NODE3);
    gs_p2p_result r;
    gs_error err;
    double v = 0;
    assert_int_equal(run(m, GS_P2P_QUERY, 1, 2, &v, &r, &err), 0);
    assert_false(r.access_possible);
    assert_string_equal(r.link, "none");
    for (int k = GS_P2P_COPY_ENGINE; k <= GS_P2P_LATENCY; k++) {
        assert_int_equal(run(m, (gs_p2p_kind)k, 2, 1, &v, &r, &err), GS_ERR_UNSUPPORTED);
        assert_false(r.access_possible);
        assert_non_null(strstr(err.msg, k == GS_P2P_COPY_ENGINE ? "without gbps" : "cannot "
                               "access device 2"));
    }
    gs_sim_model_free(m);
}

static void test_bad_plans(void **state)
{
    (void)state;
    gs_sim_model *m = load_ok(NODE3);
    gs_p2p_result r;
    gs_error err;
    double v;
    assert_int_equal(run(m, GS_P2P_COPY_ENGINE, 1, 1, &v, &r, &err), GS_ERR_USAGE);
    assert_int_equal(run(m, GS_P2P_COPY_ENGINE, 0, 3, &v, &r, &err), GS_ERR_USAGE);
    assert_int_equal(run(m, GS_P2P_COPY_ENGINE, -1, 0, &v, &r, &err), GS_ERR_USAGE);
    gs_sim_model_free(m);
    m = load_ok("");                                  /* no node: one device, no pairs */
    assert_int_equal(m->info.node_devices, 1);
    assert_int_equal(run(m, GS_P2P_QUERY, 0, 1, &v, &r, &err), GS_ERR_USAGE);
    gs_sim_model_free(m);
}

static void expect_error(const char *node, const char *fragment)
{
    gs_sim_model *m = NULL;
    gs_error err;
    assert_int_equal(load_node(node, &m, &err), GS_ERR_INPUT);
    if (!strstr(err.msg, fragment))
        fail_msg("expected '%s' in: %s", fragment, err.msg);
    assert_null(m);
}

static void test_parse_errors(void **state)
{
    (void)state;
    expect_error("\"node\": {\"devices\": 2}", "node.links: must be a list of 2 rows");
    expect_error("\"node\": {\"devices\": 2, \"links\": [[null, " NV "], [" NV "]]}",
                 "node.links[1]: must be a list of 2 entries");
    expect_error("\"node\": {\"devices\": 2, \"links\": [[" NV ", " NV "], [" NV ", null]]}",
                 "node.links[0][0]: must be null");
    expect_error("\"node\": {\"devices\": 2, \"links\": [[null, {\"type\": \"qpi\"}], [" NV
                 ", null]]}", "node.links[0][1].type: 'qpi' is not one of");
    expect_error("\"node\": {\"devices\": 2, \"links\": [[null, {\"type\": \"pcie\", \"gbps\": 1}], "
                 "[" NV ", null]]}", "node.links[0][1].latency_ns: missing");
    expect_error("\"node\": {\"devices\": 2, \"links\": [[null, {\"type\": \"none\", "
                 "\"latency_ns\": 5}], [" NV ", null]]}", "type none has no peer access");
    expect_error("\"node\": {\"devices\": 2, \"links\": [[null, " NV "], [" NV ", null]], "
                 "\"speed\": 1}", "node.speed: unknown key");
    expect_error("\"node\": {\"devices\": 65}", "node.devices: 65 is out of range 1..64");
    expect_error("\"node\": {\"devices\": 2, \"links\": [[null, {\"type\": \"nvlink\", \"gbps\": "
                 "2e6, \"latency_ns\": 1}], [" NV ", null]]}", "gbps: 2000000 is out of range");
    expect_error("\"node\": {\"devices\": 1, \"links\": []}", "a node of one device has no links");
}

static void test_jitter_is_seeded_and_bounded(void **state)
{
    (void)state;
    gs_sim_model *m = load_ok("\"node\": {\"devices\": 2, \"jitter_fraction\": 0.1, \"links\": "
                              "[[null, " PCIE "], [" PCIE ", null]]}");
    gs_p2p_result r;
    gs_error err;
    double v = 0, low = 1e9, high = 0;
    for (int i = 0; i < 50; i++) {
        assert_int_equal(run(m, GS_P2P_COPY_ENGINE, 0, 1, &v, &r, &err), 0);
        low = fmin(low, v);
        high = fmax(high, v);
    }
    assert_true(low >= 25 / 1.1 - 1e-9 && high <= 25 + 1e-9);
    assert_true(high - low > 0.5);                    /* the jitter is there */
    gs_sim_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix_is_read_back),
        cmocka_unit_test(test_none_has_no_peer_access),
        cmocka_unit_test(test_bad_plans),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_jitter_is_seeded_and_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
