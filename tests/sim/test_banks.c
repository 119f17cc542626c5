/* Tests of the simulator's shared-memory bank model (src/sim/banks.c): the conflict rules of the
 * memory-hierarchy paper (section 4.1: Fermi's gcd(stride, 32) ways; Kepler's 8-byte mode at
 * strides 2, 4, 6), phases for wide accesses and for 16 banks, broadcast and multicast, the
 * latency formula, and the parser's checks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "sim/banks.h"
#include "sim/sim.h"

static gs_sim_model *model_with(const char *section_json)
{
    static gs_sim_model m;
    memset(&m, 0, sizeof m);
    strcpy(m.name, "test");
    json_error_t jerr;
    json_t *j = json_loads(section_json, 0, &jerr);
    assert_non_null(j);
    gs_error err;
    gs_error_clear(&err);
    int rc = sim_banks_parse(j, "shared_memory", &m, &err);
    json_decref(j);
    assert_int_equal(rc, 0);
    return &m;
}

static unsigned wavefronts(gs_sim_model *m, unsigned width, unsigned stride, unsigned group)
{
    gs_bank_plan plan = { .access_bytes = width, .stride_elems = stride, .group_lanes = group,
                          .repeats = 1 };
    return sim_bank_wavefronts(m->banks, &plan);
}

static unsigned gcd(unsigned a, unsigned b) { while (b) { unsigned t = a % b; a = b; b = t; } return a; }

static void fermi_ways_are_gcd_of_stride_and_32(void **state)
{
    (void)state;
    gs_sim_model *m = model_with("{\"banks\":32,\"bank_width_bytes\":4,\"latency_cycles\":50,"
                                 "\"conflict_cycles_per_way\":37}");
    assert_int_equal(wavefronts(m, 4, 0, 0), 1);            /* broadcast */
    for (unsigned s = 1; s <= 64; s++)
        assert_int_equal(wavefronts(m, 4, s, 0), gcd(s, 32));
    sim_banks_free(m);
}

static void kepler_8_byte_mode_strides_2_4_6(void **state)
{
    (void)state;
    gs_sim_model *m = model_with("{\"banks\":32,\"bank_width_bytes\":8,\"latency_cycles\":47,"
                                 "\"conflict_cycles_per_way\":30}");
    assert_int_equal(wavefronts(m, 4, 1, 0), 1);
    assert_int_equal(wavefronts(m, 4, 2, 0), 1);             /* 2-way on Fermi, none here */
    assert_int_equal(wavefronts(m, 4, 4, 0), 2);
    assert_int_equal(wavefronts(m, 4, 6, 0), 1);             /* Fig. 6 of the paper */
    assert_int_equal(wavefronts(m, 8, 1, 0), 1);
    assert_int_equal(wavefronts(m, 8, 2, 0), 2);
    assert_int_equal(wavefronts(m, 4, 64, 0), 32);
    sim_banks_free(m);
}

static void wide_accesses_and_16_banks_go_in_phases(void **state)
{
    (void)state;
    gs_sim_model *m = model_with("{\"banks\":32,\"bank_width_bytes\":4,\"latency_cycles\":30,"
                                 "\"conflict_cycles_per_way\":2}");
    assert_int_equal(wavefronts(m, 8, 1, 0), 2);              /* two half-warps */
    assert_int_equal(wavefronts(m, 16, 1, 0), 4);             /* four quarter-warps */
    assert_int_equal(wavefronts(m, 16, 2, 0), 8);
    assert_int_equal(wavefronts(m, 2, 1, 0), 1);              /* two lanes per bank word */
    assert_int_equal(wavefronts(m, 2, 2, 0), 1);
    assert_int_equal(wavefronts(m, 2, 4, 0), 2);
    sim_banks_free(m);
    m = model_with("{\"banks\":16,\"bank_width_bytes\":4,\"latency_cycles\":30,"
                   "\"conflict_cycles_per_way\":2}");
    assert_int_equal(wavefronts(m, 4, 1, 0), 2);              /* two half-warps of 16 lanes */
    assert_int_equal(wavefronts(m, 4, 2, 0), 4);
    assert_int_equal(wavefronts(m, 4, 16, 0), 32);
    assert_int_equal(wavefronts(m, 4, 0, 0), 2);
    sim_banks_free(m);
}

static void multicast_and_single_broadcast(void **state)
{
    (void)state;
    gs_sim_model *m = model_with("{\"banks\":32,\"bank_width_bytes\":4,\"latency_cycles\":30,"
                                 "\"conflict_cycles_per_way\":2,\"broadcast\":\"multicast\"}");
    assert_int_equal(wavefronts(m, 4, 1, 2), 1);
    assert_int_equal(wavefronts(m, 4, 32, 2), 16);            /* 16 distinct rows of bank 0 */
    assert_int_equal(wavefronts(m, 4, 1, 32), 1);
    sim_banks_free(m);
    m = model_with("{\"banks\":32,\"bank_width_bytes\":4,\"latency_cycles\":30,"
                   "\"conflict_cycles_per_way\":2,\"broadcast\":\"single\"}");
    assert_int_equal(wavefronts(m, 4, 0, 0), 1);              /* one word: broadcast */
    assert_int_equal(wavefronts(m, 4, 1, 2), 2);              /* pairs share words: conflict */
    assert_int_equal(wavefronts(m, 4, 1, 0), 1);
    sim_banks_free(m);
}

static void latency_is_base_plus_ways(void **state)
{
    (void)state;
    gs_sim_model *m = model_with("{\"banks\":32,\"bank_width_bytes\":4,\"latency_cycles\":30,"
                                 "\"conflict_cycles_per_way\":2.5}");
    double cycles[3];
    gs_bank_result out = { .cycles = cycles };
    gs_bank_plan plan = { .access_bytes = 4, .stride_elems = 8, .repeats = 3 };
    gs_error err;
    assert_int_equal(sim_bank(m, &plan, &out, &err), 0);
    assert_int_equal(out.n, 3);
    for (int i = 0; i < 3; i++)
        assert_float_equal(cycles[i], 30 + 7 * 2.5, 1e-9);
    plan.access_bytes = 3;
    assert_int_equal(sim_bank(m, &plan, &out, &err), GS_ERR_UNSUPPORTED);
    sim_banks_free(m);
    gs_sim_model none;
    memset(&none, 0, sizeof none);
    plan.access_bytes = 4;
    assert_int_equal(sim_bank(&none, &plan, &out, &err), GS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "shared_memory"));
}

static void parser_rejects_bad_sections(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "{\"banks\":32,\"bank_width_bytes\":3,\"latency_cycles\":30,\"conflict_cycles_per_way\":2}",
        "{\"banks\":0,\"bank_width_bytes\":4,\"latency_cycles\":30,\"conflict_cycles_per_way\":2}",
        "{\"banks\":32,\"bank_width_bytes\":4,\"latency_cycles\":30}",
        "{\"banks\":32,\"bank_width_bytes\":4,\"latency_cycles\":30,\"conflict_cycles_per_way\":2,"
        "\"bogus\":1}",
        "{\"banks\":32,\"bank_width_bytes\":4,\"latency_cycles\":30,\"conflict_cycles_per_way\":2,"
        "\"broadcast\":\"sometimes\"}",
        "[32]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gs_sim_model m;
        memset(&m, 0, sizeof m);
        json_t *j = json_loads(bad[i], 0, NULL);
        assert_non_null(j);
        gs_error err;
        gs_error_clear(&err);
        assert_int_equal(sim_banks_parse(j, "shared_memory", &m, &err), GS_ERR_INPUT);
        assert_non_null(strstr(err.msg, "shared_memory"));
        assert_null(m.banks);
        json_decref(j);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fermi_ways_are_gcd_of_stride_and_32),
        cmocka_unit_test(kepler_8_byte_mode_strides_2_4_6),
        cmocka_unit_test(wide_accesses_and_16_banks_go_in_phases),
        cmocka_unit_test(multicast_and_single_broadcast),
        cmocka_unit_test(latency_is_base_plus_ways),
        cmocka_unit_test(parser_rejects_bad_sections),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
