/* Tests of a model's truth (src/sim/truth.c): which level each cache-probe record names (l1 on
 * ca, tex, ro, l2 on cg, constant levels smaller than the constant space, TLBs on cg), the
 * figures of a level (mapping as bits, "modulo" or "hashed"; ways or ways per set; way shares),
 * the hit latency as the sum the simulator charges and its absence where it is not what the
 * model states (partitioned level, level beyond the first TLB's reach), TLB miss penalties only
 * when clean, and the banks, pipeline and clock records. */
#include "sim_test.h"

#include <math.h>
#include <string.h>

#include "sim/truth.h"

#define DEVICE "\"device\":{\"name\":\"t\",\"cc_major\":9,\"cc_minor\":0,\"sm_count\":4," \
               "\"clock_khz\":1000000,\"l2_bytes\":524288,\"smem_per_sm_bytes\":65536," \
               "\"smem_per_block_bytes\":49152,\"global_mem_bytes\":1073741824," \
               "\"const_mem_bytes\":65536,\"max_threads_per_sm\":2048," \
               "\"max_threads_per_block\":1024,\"max_blocks_per_sm\":32}"

/* L1 on ca/nc (weighted, path extra 10 on ca, L1 TLB hit 2); a texture cache on tex with an XOR
 * index; L2 on cg, ca, nc, tex, const with two partitions; two constant levels (the second as
 * large as the constant space); TLBs: 4 x 1 MB (reach 4 MB, smaller than the L2), then 2 sets of
 * 8 and 4 ways of 2 MB with hit cost 0. */
static const char *const full_model =
    "{\"name\":\"truth\"," DEVICE ","
    "\"noise\":{\"jitter_cycles\":3,\"outlier_rate\":0.01,\"outlier_cycles\":100},"
    "\"shared_memory\":{\"banks\":16,\"bank_width_bytes\":8,\"latency_cycles\":20,"
    "\"conflict_cycles_per_way\":3,\"broadcast\":\"single\"},"
    "\"pipeline\":{\"schedulers\":4,\"instructions\":{"
    "\"ffma\":{\"units_per_sm\":64,\"completion_cycles\":5},"
    "\"sw-sin\":{\"units_per_sm\":128,\"completion_cycles\":100,\"issue_cycles\":20}}},"
    "\"memory\":{\"caches\":["
    "{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,\"sector_bytes\":32,"
    "\"fetch_bytes\":64,\"sets\":32,"
    "\"ways\":4,\"policy\":\"weighted\",\"way_probabilities\":[0.5,0.25,0.125,0.125],"
    "\"hit_latency_cycles\":30,\"miss_cycles\":7,\"paths\":[\"ca\",\"nc\"]},"
    "{\"name\":\"tex\",\"size_bytes\":8192,\"line_bytes\":64,\"sets\":4,\"ways\":32,"
    "\"mapping\":{\"xor\":[[6,10],[7,11]]},\"hit_latency_cycles\":90,\"paths\":[\"tex\"]},"
    "{\"name\":\"c1\",\"size_bytes\":2048,\"line_bytes\":64,\"sets\":8,\"ways\":4,"
    "\"hit_latency_cycles\":20,\"miss_cycles\":4,\"paths\":[\"const\"]},"
    "{\"name\":\"c2\",\"size_bytes\":65536,\"line_bytes\":64,\"sets\":256,\"ways\":4,"
    "\"hit_latency_cycles\":50,\"paths\":[\"const\"]},"
    "{\"name\":\"l2\",\"size_bytes\":8388608,\"line_bytes\":128,\"sets\":4096,\"ways\":16,"
    "\"hit_latency_cycles\":200,\"paths\":[\"default\",\"ca\",\"cg\",\"nc\",\"tex\",\"const\"],"
    "\"scope\":\"device\",\"partitions\":{\"count\":2,\"mapping\":{\"xor\":[[12,13]]},"
    "\"far_extra_cycles\":50}}],"
    "\"tlbs\":[{\"name\":\"a\",\"page_bytes\":1048576,\"entries\":4,\"hit_cycles\":2,"
    "\"miss_penalty_cycles\":20},"
    "{\"name\":\"b\",\"page_bytes\":1048576,\"coverage_bytes\":2097152,\"entries\":12,"
    "\"ways_per_set\":[8,4],\"policy\":\"random\",\"miss_penalty_cycles\":100}],"
    "\"dram\":{\"latency_cycles\":500},\"path_extra_cycles\":{\"ca\":10}}}";

static json_t *truth;
static gs_sim_model *model;

static int setup(void **state)
{
    (void)state;
    gs_error err;
    if (sim_test_load(full_model, 1, &model, &err) != 0)
        fail_msg("model: %s", err.msg);
    assert_int_equal(gs_sim_truth(model, &truth, &err), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    json_decref(truth);
    gs_sim_model_free(model);
    return 0;
}

static const json_t *fig(const char *record, const char *name)
{
    return json_object_get(json_object_get(json_object_get(truth, "records"), record), name);
}

static double num(const char *record, const char *name)
{
    const json_t *f = fig(record, name);
    if (!f)
        fail_msg("%s.%s: missing", record, name);
    return json_number_value(json_object_get(f, "value"));
}

static const char *text(const char *record, const char *name)
{
    return json_string_value(json_object_get(fig(record, name), "value"));
}

static void assert_bits(const char *record, const char *name, const int *bits, size_t n)
{
    const json_t *v = json_object_get(fig(record, name), "value");
    assert_true(json_is_array(v));
    assert_int_equal(json_array_size(v), n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(json_integer_value(json_array_get(v, i)), bits[i]);
}

static void l1_structure_and_hit_latency(void **state)
{
    (void)state;
    static const int bits[] = {7, 8, 9, 10, 11};
    assert_string_equal(json_string_value(json_object_get(truth, "model")), "truth");
    assert_int_equal(num("cache:l1", "size_bytes"), 16384);
    assert_int_equal(num("cache:l1", "line_bytes"), 128);
    assert_int_equal(num("cache:l1", "sector_bytes"), 32);
    assert_int_equal(num("cache:l1", "fetch_bytes"), 64);
    assert_int_equal(num("cache:l1", "sets"), 32);
    assert_int_equal(num("cache:l1", "ways"), 4);
    assert_bits("cache:l1", "mapping", bits, 5);      /* modulo, 32 equal sets: bits 7..11 */
    assert_string_equal(text("cache:l1", "policy"), "weighted");
    const json_t *p = json_object_get(fig("cache:l1", "way_probabilities"), "value");
    assert_int_equal(json_array_size(p), 4);
    assert_double_equal(json_number_value(json_array_get(p, 1)), 0.25, 1e-12);
    assert_string_equal(json_string_value(json_object_get(fig("cache:l1", "way_probabilities"),
                                                          "kind")), "probability");
    /* path extra 10 + first TLB hit 2 + hit 30 */
    assert_double_equal(num("cache:l1", "hit_latency_cycles"), 42, 1e-9);
    assert_double_equal(json_number_value(json_object_get(fig("cache:l1", "hit_latency_cycles"),
                                                          "noise")), 3 + 0.01 * 100, 1e-9);
    assert_string_equal(json_string_value(json_object_get(fig("cache:l1", "hit_latency_cycles"),
                                                          "kind")), "latency");
    /* ro (nc) reaches the same level without the ca path's extra cycles */
    assert_double_equal(num("cache:ro", "hit_latency_cycles"), 32, 1e-9);
}

static void tex_xor_index_is_xor_and_unsectored(void **state)
{
    (void)state;
    assert_int_equal(num("cache:tex", "size_bytes"), 8192);
    assert_string_equal(text("cache:tex", "mapping"), "xor");
    assert_int_equal(num("cache:tex", "sector_bytes"), 64);   /* unsectored: sector = line */
    assert_int_equal(num("cache:tex", "fetch_bytes"), 64);    /* fetch: the sector's default */
    assert_null(fig("cache:tex", "way_probabilities"));
    assert_double_equal(num("cache:tex", "hit_latency_cycles"), 92, 1e-9);
}

static void l2_partitioned_has_no_hit_latency(void **state)
{
    (void)state;
    /* the L2's capacity is the usable one; the device's l2_bytes is the nominal one */
    assert_null(fig("cache:l2", "size_bytes"));
    assert_int_equal(num("cache:l2", "usable_size_bytes"), 8388608);
    assert_int_equal(num("cache:l2", "nominal_size_bytes"), 524288);
    static const int bits[] = {7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18};
    assert_bits("cache:l2", "mapping", bits, 12);     /* modulo over 4096 equal sets */
    assert_null(fig("cache:l2", "hit_latency_cycles"));
}

static void const_levels_smaller_than_the_space(void **state)
{
    (void)state;
    /* c1 hit: TLB hit 2 + 20; c2 (64 KB = the constant space) is never seen */
    assert_int_equal(num("cache:const1", "size_bytes"), 2048);
    assert_double_equal(num("cache:const1", "hit_latency_cycles"), 22, 1e-9);
    assert_null(json_object_get(json_object_get(truth, "records"), "cache:const2"));
}

static void tlbs_on_the_cg_path(void **state)
{
    (void)state;
    static const int none[] = {0};
    assert_int_equal(num("cache:l1tlb", "entries"), 4);
    assert_int_equal(num("cache:l1tlb", "size_bytes"), 4 * 1048576);
    assert_int_equal(num("cache:l1tlb", "sets"), 1);
    assert_bits("cache:l1tlb", "mapping", none, 0);
    /* the first level costs 2 on a hit: its penalty is not what the model states */
    assert_null(fig("cache:l1tlb", "miss_penalty_cycles"));
    assert_int_equal(num("cache:l2tlb", "coverage_bytes"), 2097152);
    assert_int_equal(num("cache:l2tlb", "page_bytes"), 1048576); /* the first level's region */
    assert_int_equal(num("cache:l2tlb", "size_bytes"), 12 * 2097152);
    const json_t *w = json_object_get(fig("cache:l2tlb", "ways_per_set"), "value");
    assert_int_equal(json_array_size(w), 2);
    assert_int_equal(json_integer_value(json_array_get(w, 0)), 8);
    assert_null(fig("cache:l2tlb", "ways"));
    assert_string_equal(text("cache:l2tlb", "mapping"), "modulo");   /* unequal sets */
    assert_string_equal(text("cache:l2tlb", "policy"), "random");
    assert_null(fig("cache:l2tlb", "way_probabilities"));          /* unequal: no share list */
    assert_double_equal(num("cache:l2tlb", "miss_penalty_cycles"), 100, 1e-9);
}

static void banks_pipeline_clock(void **state)
{
    (void)state;
    assert_int_equal(num("smem-banks", "banks"), 16);
    assert_int_equal(num("smem-banks", "bank_width_bytes"), 8);
    assert_double_equal(num("smem-banks", "conflict_cycles_per_way"), 3, 1e-9);
    assert_string_equal(text("smem-banks", "broadcast_rule"), "single");
    /* ffma: 32 x 4 / 64 = 2 cycles per scheduler: lambda 0.5; sw-sin: issue 20 / 4 = 5 */
    assert_double_equal(num("pipeline", "ffma_lambda_cycles"), 0.5, 1e-12);
    assert_double_equal(num("pipeline", "ffma_Lambda_cycles"), 5, 1e-12);
    assert_double_equal(num("pipeline", "sw-sin_lambda_cycles"), 5, 1e-12);
    assert_double_equal(num("pipeline", "sw-sin_Lambda_cycles"), 100, 1e-12);
    assert_null(fig("pipeline", "fadd_lambda_cycles"));
    assert_double_equal(num("clock", "sm_clock_khz"), 1000000, 1e-9);
    assert_double_equal(num("clock", "globaltimer_resolution_ns"), 1, 1e-9);
}

/* A path whose first level is the L2 has no L1 (size null); TLBs off the cg path are not named;
 * no hit latency beyond the first TLB's reach; a model without memory, banks or pipeline states only the clock. */
static void absent_levels_and_sections(void **state)
{
    (void)state;
    gs_error err;
    gs_sim_model *m = NULL;
    json_t *t = NULL;
    const char *text_model =
        "{\"name\":\"bare\"," DEVICE ",\"memory\":{\"caches\":["
        "{\"name\":\"l2\",\"size_bytes\":1048576,\"line_bytes\":128,\"sets\":1024,\"ways\":8,"
        "\"hit_latency_cycles\":200,\"paths\":[\"ca\",\"cg\"]}],"
        "\"tlbs\":[{\"name\":\"x\",\"page_bytes\":65536,\"entries\":8,\"miss_penalty_cycles\":9,"
        "\"paths\":[\"ca\"]},{\"name\":\"y\",\"page_bytes\":65536,\"entries\":4,"
        "\"miss_penalty_cycles\":9,\"paths\":[\"cg\"]}],\"dram\":{\"latency_cycles\":400}}}";
    if (sim_test_load(text_model, 1, &m, &err) != 0)
        fail_msg("model: %s", err.msg);
    assert_int_equal(gs_sim_truth(m, &t, &err), 0);
    const json_t *recs = json_object_get(t, "records");
    const json_t *size = json_object_get(json_object_get(json_object_get(recs, "cache:l1"),
                                                         "size_bytes"), "value");
    assert_true(json_is_null(size));
    assert_null(json_object_get(recs, "cache:tex"));     /* no level on the tex path */
    /* x is not on cg: the first TLB level the probe walks is y */
    assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(
                         recs, "cache:l1tlb"), "entries"), "value")), 4);
    assert_null(json_object_get(recs, "cache:l2tlb"));
    /* the L2 (1 MB) is larger than y's reach (256 KB): its hit plateau mixes TLB misses */
    assert_null(json_object_get(json_object_get(recs, "cache:l2"), "hit_latency_cycles"));
    assert_null(json_object_get(recs, "smem-banks"));
    assert_null(json_object_get(recs, "pipeline"));
    assert_non_null(json_object_get(recs, "clock"));
    json_decref(t);
    gs_sim_model_free(m);
}

/* The cluster record: one transfer's latency per probe size, base + per KB x size, for each
 * latency the tma part gives (here the bulk and the 2D tensor-map copy, not the loads); none at
 * all without those keys or under cc 9.0. */
static void cluster_transfer_latencies(void **state)
{
    (void)state;
    gs_error err;
    gs_sim_model *m = NULL;
    json_t *t = NULL;
    static const char *const cc[2] = {"\"cc_major\":9", "\"cc_major\":8"};
    for (int pass = 0; pass < 3; pass++) {
        char text[2048], device[600];
        snprintf(device, sizeof device, "%s", DEVICE);
        char *at = strstr(device, cc[0]);
        assert_non_null(at);
        if (pass == 2)
            memcpy(at, cc[1], strlen(cc[1]));
        snprintf(text, sizeof text,
                 "{\"name\":\"cl\",%s,\"noise\":{\"jitter_cycles\":4},"
                 "\"cluster\":{\"max_size\":8,\"local_latency_cycles\":30,"
                 "\"remote_latency_cycles\":200,\"local_gbps_per_sm\":100,"
                 "\"remote_gbps_per_sm\":30,\"tma\":{\"bulk_l2_gbps\":1,\"bulk_dram_gbps\":1,"
                 "\"vector_l2_gbps\":1,\"vector_dram_gbps\":1%s}}}", device,
                 pass == 1 ? "" : ",\"bulk_latency_base_cycles\":500,"
                                  "\"tensor_latency_base_cycles\":700,"
                                  "\"tensor_latency_cycles_per_kb\":40");
        if (sim_test_load(text, 1, &m, &err) != 0)
            fail_msg("model: %s", err.msg);
        assert_int_equal(gs_sim_truth(m, &t, &err), 0);
        const json_t *rec = json_object_get(json_object_get(t, "records"), "cluster");
        if (pass > 0) {
            assert_null(rec);
        } else {
            const json_t *f = json_object_get(rec, "tensor_2048b_latency_cycles");
            assert_double_equal(json_number_value(json_object_get(f, "value")), 780, 1e-9);
            assert_string_equal(json_string_value(json_object_get(f, "kind")), "latency");
            assert_double_equal(json_number_value(json_object_get(f, "noise")), 4, 1e-9);
            f = json_object_get(rec, "tensor_128b_latency_cycles");
            assert_double_equal(json_number_value(json_object_get(f, "value")), 705, 1e-9);
            f = json_object_get(rec, "bulk_16384b_latency_cycles");
            assert_double_equal(json_number_value(json_object_get(f, "value")), 500, 1e-9);
            assert_null(json_object_get(rec, "load_128b_latency_cycles"));
            assert_int_equal(json_object_size(rec), 2 * GS_CLUSTER_TRANSFER_SIZES);
        }
        json_decref(t);
        gs_sim_model_free(m);
        t = NULL;
        m = NULL;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(l1_structure_and_hit_latency),
        cmocka_unit_test(tex_xor_index_is_xor_and_unsectored),
        cmocka_unit_test(l2_partitioned_has_no_hit_latency),
        cmocka_unit_test(const_levels_smaller_than_the_space),
        cmocka_unit_test(tlbs_on_the_cg_path),
        cmocka_unit_test(banks_pipeline_clock),
        cmocka_unit_test(absent_levels_and_sections),
        cmocka_unit_test(cluster_transfer_latencies),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
