/* Tests of the "memory" section parser (src/sim/memory_parse.c): a valid section reads into the
 * truth it states, and every malformed case (unknown key, wrong type, impossible geometry, unequal
 * sets that do not add up, mapping bits that do not give the sets, probabilities that do not sum
 * to 1, unknown path or cache name, bad carve-out or partitions, missing DRAM) is GS_ERR_INPUT
 * with a message that names the key path. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "sim/memory.h"
#include "sim/sim.h"

/* A valid section; tests replace CACHE, TLB or the tail to break it. */
#define L1 "{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,\"sets\":32,\"ways\":4," \
           "\"hit_latency_cycles\":30,\"paths\":[\"default\",\"ca\"]}"
#define TLB "{\"name\":\"l1tlb\",\"page_bytes\":2097152,\"entries\":16,\"miss_penalty_cycles\":20}"
#define DRAM "\"dram\":{\"latency_cycles\":500}"

static gs_sim_model model;

static int parse(const char *section, gs_error *err)
{
    memset(&model, 0, sizeof model);
    strcpy(model.name, "test");
    json_error_t jerr;
    json_t *j = json_loads(section, 0, &jerr);
    if (!j)
        fail_msg("test JSON does not parse: %s: %s", jerr.text, section);
    gs_error_clear(err);
    int rc = sim_memory_parse(j, "memory", &model, err);
    json_decref(j);
    return rc;
}

/* Parse a section expected to fail; its message must start with `where` and contain `what`. */
static void expect_error(const char *section, const char *where, const char *what)
{
    gs_error err;
    int rc = parse(section, &err);
    if (rc != GS_ERR_INPUT || strncmp(err.msg, where, strlen(where)) != 0 ||
        !strstr(err.msg, what))
        fail_msg("rc %d, message \"%s\"; wanted \"%s...%s\"", rc, err.msg, where, what);
    assert_null(model.memory);
}

static void valid_section_reads_truth(void **state)
{
    (void)state;
    gs_error err;
    int rc = parse("{\"caches\":[" L1 ",{\"name\":\"l2\",\"size_bytes\":2048,\"line_bytes\":128,"
                   "\"sector_bytes\":32,\"ways_per_set\":[8,4,4],\"hit_latency_cycles\":200,"
                   "\"paths\":[\"default\",\"ca\",\"cg\"],\"scope\":\"device\","
                   "\"partitions\":{\"count\":2,\"mapping\":{\"xor\":[[12,13]]},"
                   "\"far_extra_cycles\":50}}],"
                   "\"tlbs\":[" TLB ",{\"name\":\"l2tlb\",\"page_bytes\":4096,\"coverage_bytes\":"
                   "65536,\"entries\":8,\"sets\":2,\"ways\":4,\"policy\":\"fifo\","
                   "\"miss_penalty_cycles\":100,\"on_miss_skip\":[\"l1\"]}]," DRAM ","
                   "\"shared_latency_cycles\":25,\"path_extra_cycles\":{\"local\":7},"
                   "\"warp_request\":{\"transaction_bytes\":32,\"extra_sector_cycles\":2,"
                   "\"extra_line_cycles\":5}}", &err);
    if (rc)
        fail_msg("%s", err.msg);
    sim_memory *mem = model.memory;
    assert_int_equal(mem->n_caches, 2);
    assert_string_equal(mem->caches[0].name, "l1");
    assert_int_equal(mem->caches[0].geo.sets, 32);
    assert_int_equal(mem->caches[0].geo.ways_per_set[31], 4);
    assert_int_equal(mem->caches[0].paths, (1u << GS_PATH_DEFAULT) | (1u << GS_PATH_CA));
    assert_int_equal(mem->caches[1].geo.sets, 3);
    assert_int_equal(mem->caches[1].geo.sector_bytes, 32);
    assert_int_equal(mem->caches[1].partitions, 2);
    assert_int_equal(mem->n_tlbs, 2);
    assert_int_equal(mem->tlbs[0].geo.sets, 1);                    /* fully associative */
    assert_int_equal(mem->tlbs[0].geo.ways_per_set[0], 16);
    assert_int_equal(mem->tlbs[1].geo.block_bytes, 65536);         /* coverage, not page */
    assert_int_equal(mem->tlbs[1].geo.policy, SIM_POLICY_FIFO);
    assert_int_equal(mem->tlbs[1].skip_on_miss, 1u);
    assert_true(mem->dram_latency_cycles == 500);
    assert_true(mem->shared_latency_cycles == 25);
    assert_true(mem->path_extra_cycles[GS_PATH_LOCAL] == 7);
    assert_true(mem->extra_line_cycles == 5);
    sim_memory_free(&model);
    assert_null(model.memory);
}

static void weighted_fractions_parse(void **state)
{
    (void)state;
    gs_error err;
    int rc = parse("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                   "\"sets\":32,\"ways\":4,\"policy\":\"weighted\",\"way_probabilities\":"
                   "[\"1/6\",\"1/2\",\"1/6\",0.16666666666666667],\"hit_latency_cycles\":116,"
                   "\"paths\":[\"ca\"]}]," DRAM "}", &err);
    if (rc)
        fail_msg("%s", err.msg);
    assert_true(model.memory->caches[0].geo.way_probabilities[1] == 0.5);
    sim_memory_free(&model);
}

static void unknown_keys_and_types(void **state)
{
    (void)state;
    expect_error("{\"caches\":[]," DRAM ",\"colour\":1}", "memory.colour", "unknown key");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,\"sets\":32,"
                 "\"ways\":4,\"hit_latency_cycles\":30,\"paths\":[\"ca\"],\"colour\":2}]," DRAM "}",
                 "memory.caches[0].colour", "unknown key");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":\"16KB\",\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"hit_latency_cycles\":30,\"paths\":[\"ca\"]}]," DRAM "}",
                 "memory.caches[0].size_bytes", "whole number");
    expect_error("{\"caches\":[" L1 "],\"tlbs\":[" TLB "],\"dram\":{\"latency_cycles\":\"slow\"}}",
                 "memory.dram.latency_cycles", "must be a number");
    expect_error("{\"caches\":[" L1 "],\"tlbs\":[{\"name\":\"t\",\"page_bytes\":4096,"
                 "\"entries\":4,\"miss_penalty_cycles\":1,\"size\":3}]," DRAM "}",
                 "memory.tlbs[0].size", "unknown key");
    expect_error("{\"caches\":[" L1 "]}", "memory.dram", "missing");
    expect_error("{\"caches\":[" L1 "]," DRAM ",\"warp_request\":{\"transaction_bytes\":32,"
                 "\"extra\":1}}", "memory.warp_request.extra", "unknown key");
}

static void impossible_geometry(void **state)
{
    (void)state;
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":12288,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"hit_latency_cycles\":30,\"paths\":[\"ca\"]}]," DRAM "}",
                 "memory.caches[0].size_bytes",
                 "32 sets x 4 ways x 128 B = 16384 B, but size is 12288 B");
    expect_error("{\"caches\":[{\"name\":\"l2\",\"size_bytes\":1024,\"line_bytes\":64,"
                 "\"ways_per_set\":[8,4,3],\"hit_latency_cycles\":30,\"paths\":[\"ca\"]}]," DRAM "}",
                 "memory.caches[0].size_bytes", "sum of ways_per_set (15) x 64 B = 960 B");
    expect_error("{\"caches\":[{\"name\":\"l2\",\"size_bytes\":1024,\"line_bytes\":64,\"sets\":4,"
                 "\"ways_per_set\":[8,4,4],\"hit_latency_cycles\":30,\"paths\":[\"ca\"]}]," DRAM "}",
                 "memory.caches[0].sets", "length of ways_per_set");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"ways_per_set\":[4],\"hit_latency_cycles\":30,"
                 "\"paths\":[\"ca\"]}]," DRAM "}", "memory.caches[0].ways_per_set", "not both");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sector_bytes\":48,\"sets\":32,\"ways\":4,\"hit_latency_cycles\":30,"
                 "\"paths\":[\"ca\"]}]," DRAM "}", "memory.caches[0].sector_bytes", "divide");
    expect_error("{\"caches\":[" L1 "],\"tlbs\":[{\"name\":\"l2tlb\",\"page_bytes\":2097152,"
                 "\"entries\":64,\"ways_per_set\":[17,8,8,8,8,8,8],\"miss_penalty_cycles\":1}],"
                 DRAM "}", "memory.tlbs[0].entries", "sum of ways_per_set (65)");
    expect_error("{\"caches\":[" L1 "],\"tlbs\":[{\"name\":\"t\",\"page_bytes\":4096,"
                 "\"coverage_bytes\":6144,\"entries\":4,\"miss_penalty_cycles\":1}]," DRAM "}",
                 "memory.tlbs[0].coverage_bytes", "whole number of pages");
}

static void mapping_errors(void **state)
{
    (void)state;
    expect_error("{\"caches\":[{\"name\":\"tex\",\"size_bytes\":12288,\"line_bytes\":32,\"sets\":4,"
                 "\"ways\":96,\"mapping\":{\"bits\":[7]},\"hit_latency_cycles\":110,"
                 "\"paths\":[\"tex\"]}]," DRAM "}", "memory.caches[0].mapping",
                 "1 index bits give 2 sets, but sets is 4");
    expect_error("{\"caches\":[{\"name\":\"tex\",\"size_bytes\":12288,\"line_bytes\":32,\"sets\":4,"
                 "\"ways\":96,\"mapping\":{\"bits\":[3,8]},\"hit_latency_cycles\":110,"
                 "\"paths\":[\"tex\"]}]," DRAM "}", "memory.caches[0].mapping", "below the block");
    expect_error("{\"caches\":[{\"name\":\"tex\",\"size_bytes\":12288,\"line_bytes\":32,\"sets\":4,"
                 "\"ways\":96,\"mapping\":{\"bits\":[7,7]},\"hit_latency_cycles\":110,"
                 "\"paths\":[\"tex\"]}]," DRAM "}", "memory.caches[0].mapping", "listed twice");
    expect_error("{\"caches\":[{\"name\":\"tex\",\"size_bytes\":12288,\"line_bytes\":32,\"sets\":4,"
                 "\"ways\":96,\"mapping\":{\"xor\":[[7,12],[8,\"x\"]]},\"hit_latency_cycles\":110,"
                 "\"paths\":[\"tex\"]}]," DRAM "}", "memory.caches[0].mapping.xor[1][1]",
                 "whole number");
    expect_error("{\"caches\":[{\"name\":\"tex\",\"size_bytes\":12288,\"line_bytes\":32,\"sets\":4,"
                 "\"ways\":96,\"mapping\":\"hashed\",\"hit_latency_cycles\":110,"
                 "\"paths\":[\"tex\"]}]," DRAM "}", "memory.caches[0].mapping", "must be");
    expect_error("{\"caches\":[{\"name\":\"l2\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"hit_latency_cycles\":30,\"paths\":[\"ca\"],"
                 "\"partitions\":{\"count\":4,\"mapping\":{\"bits\":[12]},\"far_extra_cycles\":9}}"
                 "]," DRAM "}", "memory.caches[0].partitions.mapping", "partitions");
}

static void policy_errors(void **state)
{
    (void)state;
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"policy\":\"weighted\",\"way_probabilities\":"
                 "[0.5,0.5,0.5,0.5],\"hit_latency_cycles\":30,\"paths\":[\"ca\"]}]," DRAM "}",
                 "memory.caches[0].way_probabilities", "sum to 2, not 1");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"policy\":\"weighted\",\"way_probabilities\":"
                 "[0.5,0.5],\"hit_latency_cycles\":30,\"paths\":[\"ca\"]}]," DRAM "}",
                 "memory.caches[0].way_probabilities", "one probability per way");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"policy\":\"weighted\",\"hit_latency_cycles\":30,"
                 "\"paths\":[\"ca\"]}]," DRAM "}", "memory.caches[0].policy", "way_probabilities");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"policy\":\"lru\",\"way_probabilities\":[1,0,0,0],"
                 "\"hit_latency_cycles\":30,\"paths\":[\"ca\"]}]," DRAM "}",
                 "memory.caches[0].way_probabilities", "only for");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":12288,\"line_bytes\":128,"
                 "\"sets\":16,\"ways\":6,\"policy\":\"plru\",\"hit_latency_cycles\":30,"
                 "\"paths\":[\"ca\"]}]," DRAM "}", "memory.caches[0].policy", "power-of-two");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"policy\":\"mru\",\"hit_latency_cycles\":30,"
                 "\"paths\":[\"ca\"]}]," DRAM "}", "memory.caches[0].policy", "unknown");
}

static void names_paths_carveouts(void **state)
{
    (void)state;
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"hit_latency_cycles\":30,\"paths\":[\"ca\",\"l3\"]}],"
                 DRAM "}", "memory.caches[0].paths[1]", "unknown load path");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"hit_latency_cycles\":30}]," DRAM "}",
                 "memory.caches[0].paths", "missing");
    expect_error("{\"caches\":[" L1 "," L1 "]," DRAM "}", "memory.caches[1].name", "two cache");
    expect_error("{\"caches\":[" L1 "],\"tlbs\":[{\"name\":\"t\",\"page_bytes\":4096,"
                 "\"entries\":4,\"miss_penalty_cycles\":1,\"on_miss_skip\":[\"l9\"]}]," DRAM "}",
                 "memory.tlbs[0].on_miss_skip[0]", "not the name");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"hit_latency_cycles\":30,\"paths\":[\"ca\"],"
                 "\"carveout\":[{\"percent\":0,\"size_bytes\":32768,\"sets\":32,\"ways\":4}]}],"
                 DRAM "}", "memory.caches[0].carveout[0].size_bytes",
                 "32 sets x 4 ways x 128 B = 16384 B, but size is 32768 B");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"hit_latency_cycles\":30,\"paths\":[\"ca\"],"
                 "\"carveout\":[{\"percent\":101,\"size_bytes\":16384,\"sets\":32,\"ways\":4}]}],"
                 DRAM "}", "memory.caches[0].carveout[0].percent", "0..100");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"hit_latency_cycles\":30,\"paths\":[\"ca\"],"
                 "\"default_carveout_percent\":20}]," DRAM "}",
                 "memory.caches[0].default_carveout_percent", "needs a \"carveout\" list");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"hit_latency_cycles\":30,\"paths\":[\"ca\"],"
                 "\"shared_default_percent\":100}]," DRAM "}",
                 "memory.caches[0].shared_default_percent", "needs \"default_carveout_percent\"");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"hit_latency_cycles\":30,\"paths\":[\"ca\"],"
                 "\"default_carveout_percent\":120,"
                 "\"carveout\":[{\"percent\":100,\"size_bytes\":16384,\"sets\":32,\"ways\":4}]}],"
                 DRAM "}", "memory.caches[0].default_carveout_percent", "0..100");
    expect_error("{\"caches\":[" L1 "]," DRAM ",\"uncached_paths\":[\"shared\"]}",
                 "memory.uncached_paths[0]", "unknown load path");
    expect_error("{\"caches\":[" L1 "]," DRAM ",\"path_extra_cycles\":{\"warp\":3}}",
                 "memory.path_extra_cycles.warp", "unknown load path");
}

/* Every number is bounded to what a GPU can be; the message names the key path and the range. */
static void values_out_of_range(void **state)
{
    (void)state;
    expect_error("{\"caches\":[{\"name\":\"l2\",\"size_bytes\":8388608,\"line_bytes\":128,"
                 "\"sets\":1,\"ways\":65537,\"hit_latency_cycles\":30,\"paths\":[\"ca\"]}],"
                 DRAM "}", "memory.caches[0].ways", "65537 is out of range 1..65536");
    expect_error("{\"caches\":[{\"name\":\"l2\",\"size_bytes\":8388608,\"line_bytes\":128,"
                 "\"ways_per_set\":[65537],\"hit_latency_cycles\":30,\"paths\":[\"ca\"]}],"
                 DRAM "}", "memory.caches[0].ways_per_set[0]", "1..65536");
    expect_error("{\"caches\":[{\"name\":\"l2\",\"size_bytes\":536870912,\"line_bytes\":128,"
                 "\"sets\":262144,\"ways\":16,\"hit_latency_cycles\":30,\"paths\":[\"ca\"]}],"
                 DRAM "}", "memory.caches[0].size_bytes", "out of range 1..268435456");
    expect_error("{\"caches\":[{\"name\":\"l2\",\"size_bytes\":33554432,\"line_bytes\":4,"
                 "\"sets\":1048576,\"ways\":8,\"hit_latency_cycles\":30,\"paths\":[\"ca\"]}],"
                 DRAM "}", "memory.caches[0].size_bytes", "more than the 4194304");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":4194304,\"line_bytes\":2,"
                 "\"sets\":32,\"ways\":4,\"hit_latency_cycles\":30,\"paths\":[\"ca\"]}],"
                 DRAM "}", "memory.caches[0].line_bytes", "2 is out of range 4..4096");
    expect_error("{\"caches\":[{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"hit_latency_cycles\":1e300,\"paths\":[\"ca\"]}],"
                 DRAM "}", "memory.caches[0].hit_latency_cycles", "out of range 0..1000000");
    expect_error("{\"caches\":[" L1 "],\"dram\":{\"latency_cycles\":1e9}}",
                 "memory.dram.latency_cycles", "out of range");
    expect_error("{\"caches\":[" L1 "],\"tlbs\":[{\"name\":\"t\",\"page_bytes\":4096,"
                 "\"entries\":131072,\"miss_penalty_cycles\":1}]," DRAM "}",
                 "memory.tlbs[0].entries", "fully associative are more than 65536 ways");
    expect_error("{\"caches\":[" L1 "],\"tlbs\":[{\"name\":\"t\",\"page_bytes\":4096,"
                 "\"entries\":4194304,\"sets\":1024,\"ways\":4096,\"miss_penalty_cycles\":1}],"
                 DRAM "}", "memory.tlbs[0].entries", "out of range 1..1048576");
    expect_error("{\"caches\":[" L1 "]," DRAM ",\"path_extra_cycles\":{\"local\":1e12}}",
                 "memory.path_extra_cycles.local", "out of range 0..1000000");
    expect_error("{\"caches\":[" L1 "]," DRAM ",\"warp_request\":{\"transaction_bytes\":"
                 "1048576}}", "memory.warp_request.transaction_bytes", "out of range 1..4096");
    expect_error("{\"caches\":[{\"name\":\"l2\",\"size_bytes\":16384,\"line_bytes\":128,"
                 "\"sets\":32,\"ways\":4,\"hit_latency_cycles\":30,\"paths\":[\"ca\"],"
                 "\"partitions\":{\"count\":2,\"interleave_bytes\":4096,"
                 "\"far_extra_cycles\":1e7}}]," DRAM "}",
                 "memory.caches[0].partitions.far_extra_cycles", "out of range");
}

/* What a store does per level: defaults by scope, explicit values, and the errors. */
#define SM_L1(extra) "{\"name\":\"l1\",\"size_bytes\":16384,\"line_bytes\":128,\"sets\":32," \
                     "\"ways\":4,\"hit_latency_cycles\":30,\"paths\":[\"default\"],\"scope\":\"sm\"" \
                     extra "}"
static void store_policies(void **state)
{
    (void)state;
    gs_error err;
    int rc = parse("{\"caches\":[" SM_L1("") ",{\"name\":\"l2\",\"size_bytes\":16384,"
                   "\"line_bytes\":128,\"sets\":32,\"ways\":4,\"hit_latency_cycles\":200,"
                   "\"paths\":[\"default\",\"cg\"]}]," DRAM "}", &err);
    if (rc)
        fail_msg("%s", err.msg);
    const sim_level *c = model.memory->caches;
    assert_false(c[0].write_back);                 /* per SM: write-through, no allocate */
    assert_false(c[0].write_allocate);
    assert_false(c[0].store_invalidates);
    assert_true(c[1].write_back);                  /* device: write-back with allocate */
    assert_true(c[1].write_allocate);
    sim_memory_free(&model);
    rc = parse("{\"caches\":[" SM_L1(",\"write_policy\":\"write-back\",\"write_allocate\":true")
               "]," DRAM "}", &err);
    if (rc)
        fail_msg("%s", err.msg);
    assert_true(model.memory->caches[0].write_back);
    assert_true(model.memory->caches[0].write_allocate);
    sim_memory_free(&model);
    rc = parse("{\"caches\":[" SM_L1(",\"store_hit\":\"invalidate\"") "]," DRAM "}", &err);
    if (rc)
        fail_msg("%s", err.msg);
    assert_true(model.memory->caches[0].store_invalidates);
    sim_memory_free(&model);
    expect_error("{\"caches\":[" SM_L1(",\"write_policy\":\"write-around\"") "]," DRAM "}",
                 "memory.caches[0].write_policy", "write-through");
    expect_error("{\"caches\":[" SM_L1(",\"write_allocate\":1") "]," DRAM "}",
                 "memory.caches[0].write_allocate", "true or false");
    expect_error("{\"caches\":[" SM_L1(",\"store_hit\":\"evict\"") "]," DRAM "}",
                 "memory.caches[0].store_hit", "update");
    expect_error("{\"caches\":[" SM_L1(",\"write_policy\":\"write-back\",\"store_hit\":"
                 "\"invalidate\"") "]," DRAM "}", "memory.caches[0].store_hit", "write-through");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(valid_section_reads_truth), cmocka_unit_test(weighted_fractions_parse),
        cmocka_unit_test(unknown_keys_and_types),    cmocka_unit_test(impossible_geometry),
        cmocka_unit_test(mapping_errors),            cmocka_unit_test(policy_errors),
        cmocka_unit_test(names_paths_carveouts),     cmocka_unit_test(values_out_of_range),
        cmocka_unit_test(store_policies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
