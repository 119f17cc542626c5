/* Tests of the GPGPU-Sim / Accel-Sim export (src/report/export_accelsim.c) on a fixture document:
 * an L1 of 64 sets x 4 ways of sectored 128-B lines under a linear index becomes its dl1 string;
 * a hashed texture index, a constant cache with unequal sets and a PLRU policy become "not
 * expressible" comments; an L2 without --l2-sub-partitions stays a comment, with it becomes a
 * per-sub-partition string; latencies follow the tuner (L2 - L1, the L2's miss penalty); banks,
 * broadcast, clock domains, device properties and pipeline lines; a null figure becomes
 * "not determined" with its reason, a sector not determined is not replaced by the fetch; a
 * document that is not a result is refused. */
#include "gs_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/export_accelsim.h"

static const char *const doc_text =
    "{\"schema\":\"gpusonar/1\",\"complete\":true,\"time_utc\":\"2026-11-24T00:00:00Z\","
    "\"device\":{\"name\":\"Fixture GPU\",\"compute_capability\":\"9.0\",\"sm_count\":132,"
    "  \"warp_size\":32,\"max_threads_per_sm\":2048,\"max_blocks_per_sm\":32,"
    "  \"regs_per_sm\":65536,\"smem_per_sm_bytes\":233472,\"smem_per_block_bytes\":49152,"
    "  \"mem_clock_khz\":2619000},"
    "\"probes\":["
    "{\"name\":\"cache\",\"params\":{\"level\":\"l1\"},\"figures\":{"
    "  \"size_bytes\":{\"value\":32768},\"line_bytes\":{\"value\":128},"
    "  \"sector_bytes\":{\"value\":32},\"sets\":{\"value\":64},\"ways\":{\"value\":4},"
    "  \"mapping\":{\"value\":[7,8,9,10,11,12]},\"policy\":{\"value\":\"lru\"},"
    "  \"hit_latency_cycles\":{\"value\":33.4}}},"
    "{\"name\":\"cache\",\"params\":{\"level\":\"tex\"},\"figures\":{"
    "  \"size_bytes\":{\"value\":32768},\"line_bytes\":{\"value\":128},"
    "  \"sets\":{\"value\":64},\"ways\":{\"value\":4},"
    "  \"mapping\":{\"value\":\"hashed\"},\"policy\":{\"value\":\"lru\"}}},"
    "{\"name\":\"cache\",\"params\":{\"level\":\"const1\"},\"figures\":{"
    "  \"size_bytes\":{\"value\":2048},\"line_bytes\":{\"value\":64},"
    "  \"sets\":{\"value\":8},\"ways\":{\"value\":4},"
    "  \"mapping\":{\"value\":[6,7,8]},\"policy\":{\"value\":\"plru\"}}},"
    "{\"name\":\"cache\",\"params\":{\"level\":\"l2\"},\"figures\":{"
    "  \"size_bytes\":{\"value\":8388608},\"line_bytes\":{\"value\":128},"
    "  \"sector_bytes\":{\"value\":32},\"sets\":{\"value\":4096},\"ways\":{\"value\":16},"
    "  \"mapping\":{\"value\":\"modulo\"},\"policy\":{\"value\":\"lru\"},"
    "  \"hit_latency_cycles\":{\"value\":233.6},\"miss_penalty_cycles\":{\"value\":320}}},"
    "{\"name\":\"smem-banks\",\"params\":{},\"figures\":{"
    "  \"latency_w4_stride1_cycles\":{\"value\":29},\"banks\":{\"value\":32},"
    "  \"bank_width_bytes\":{\"value\":8},\"broadcast_rule\":{\"value\":\"multicast\"}}},"
    "{\"name\":\"clock\",\"params\":{},\"figures\":{\"sm_clock_khz\":{\"value\":1979999.9}}},"
    "{\"name\":\"pipeline\",\"params\":{},\"figures\":{"
    "  \"iadd_lambda_cycles\":{\"value\":0.25},\"iadd_Lambda_cycles\":{\"value\":5.4},"
    "  \"ffma_lambda_cycles\":{\"value\":0.25},\"ffma_Lambda_cycles\":{\"value\":4.0001},"
    "  \"dfma_lambda_cycles\":{\"value\":0.5},\"dfma_Lambda_cycles\":{\"value\":8},"
    "  \"sfu-sin_lambda_cycles\":{\"value\":2},\"sfu-sin_Lambda_cycles\":{\"value\":23},"
    "  \"mma_lambda_cycles\":{\"value\":null,\"reason\":\"no tensor cores\"},"
    "  \"mma_Lambda_cycles\":{\"value\":null,\"reason\":\"no tensor cores\"}}}"
    "]}";

/* A document whose sectors are not determined: the L2 fetches 64 B a miss (the sector
 * may be 32 B), the constant cache fetches its whole 64-B line. */
static const char *const fetch_doc_text =
    "{\"schema\":\"gpusonar/1\",\"complete\":true,\"time_utc\":\"2026-11-24T00:00:00Z\","
    "\"device\":{\"name\":\"Fixture GPU\",\"compute_capability\":\"9.0\",\"sm_count\":132},"
    "\"probes\":["
    "{\"name\":\"cache\",\"params\":{\"level\":\"const1\"},\"figures\":{"
    "  \"size_bytes\":{\"value\":2048},\"line_bytes\":{\"value\":64},"
    "  \"fetch_bytes\":{\"value\":64},\"sector_bytes\":{\"value\":null,\"reason\":\"r\"},"
    "  \"sets\":{\"value\":8},\"ways\":{\"value\":4},"
    "  \"mapping\":{\"value\":[6,7,8]},\"policy\":{\"value\":\"lru\"}}},"
    "{\"name\":\"cache\",\"params\":{\"level\":\"l2\"},\"figures\":{"
    "  \"size_bytes\":{\"value\":8388608},\"line_bytes\":{\"value\":128},"
    "  \"fetch_bytes\":{\"value\":64},"
    "  \"sector_bytes\":{\"value\":null,\"reason\":\"a miss fetches 64 B\"},"
    "  \"sets\":{\"value\":4096},\"ways\":{\"value\":16},"
    "  \"mapping\":{\"value\":\"modulo\"},\"policy\":{\"value\":\"lru\"}}}"
    "]}";

static char *export_doc(const char *text, unsigned sub_partitions)
{
    json_error_t e;
    json_t *doc = json_loads(text, 0, &e);
    if (!doc)
        fail_msg("fixture: %s (column %d)", e.text, e.column);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gs_export_opts opts = {sub_partitions};
    gs_error err;
    assert_int_equal(gs_export_accelsim(f, doc, &opts, &err), 0);
    fclose(f);
    json_decref(doc);
    return buf;
}

static char *export_text(unsigned sub_partitions) { return export_doc(doc_text, sub_partitions); }

/* The line that starts with `start`, or fail. */
static void has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, line, n) == 0 && (p[n] == '\n' || p[n] == '\0'))
            return;
    fail_msg("no line \"%s\" in:\n%s", line, text);
}

static void has_text(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("no \"%s\" in:\n%s", part, text);
}

static void caches(void **state)
{
    (void)state;
    char *t = export_text(0);
    has_line(t, "-gpgpu_cache:dl1 S:64:128:4,L:T:m:L:L,A:512:64,16:0,32");
    has_text(t, "# -gpgpu_tex_cache:l1 not expressible: a hashed set index");
    /* each followed by the nearest line GPGPU-Sim can express, saying what differs */
    has_text(t, "set index L for hashed");
    has_line(t, "-gpgpu_tex_cache:l1 N:64:128:4,L:R:m:N:L,T:512:8,128:2");
    has_text(t, "# -gpgpu_const_cache:l1 not expressible: replacement policy plru");
    has_text(t, "L (LRU) for the replacement plru");
    has_line(t, "-gpgpu_const_cache:l1 N:8:64:4,L:R:f:N:L,S:2:64,4");
    has_text(t, "# -gpgpu_cache:dl2 not determined: GPGPU-Sim's dl2 is per memory sub-partition");
    has_text(t, "# measured over the whole device: 4096 sets x 16 ways x 128 B");
    /* per the reference's 80 sub-partitions: 4096 sets do not split, 8 MiB in 256 sets x 3 ways */
    has_text(t, "the reference's 80 sub-partitions (give --l2-sub-partitions N)");
    has_text(t, "256 sets per sub-partition (the reference's) x 3 ways, 7864320 B in all");
    has_line(t, "-gpgpu_cache:dl2 S:256:128:3,L:B:m:L:X,A:384:4,32:0,32");
    free(t);
    t = export_text(64);
    has_line(t, "-gpgpu_cache:dl2 S:64:128:16,L:B:m:L:X,A:384:4,32:0,32");
    free(t);
    t = export_text(3);   /* 4096 sets do not split over 3 */
    has_text(t, "# -gpgpu_cache:dl2 not expressible: 4096 sets do not split evenly over 3");
    free(t);
}

/* A sector not determined is never replaced by the fetch: the L2's type is not determined (a
 * 64-B fetch may be two 32-B sectors); a line fetched whole is an N line, with a note. */
static void sector_not_determined(void **state)
{
    (void)state;
    char *t = export_doc(fetch_doc_text, 64);
    has_text(t, "# -gpgpu_cache:dl2 not determined: cache:l2.sector_bytes: a miss fetches 64 B; "
                "GPGPU-Sim's type (S: 32-B sectors, N: none) needs the sector");
    has_line(t, "-gpgpu_const_cache:l1 N:8:64:4,L:R:f:N:L,S:2:64,4");
    has_text(t, "sector not determined, but a miss fetches the whole line, as an N line does");
    free(t);
}

static void latencies_banks_clock_device(void **state)
{
    (void)state;
    char *t = export_text(0);
    has_line(t, "-gpgpu_l1_latency 33");
    has_line(t, "-gpgpu_l2_rop_latency 200");          /* 233.6 - 33.4 */
    has_line(t, "-dram_latency 320");
    has_line(t, "-gpgpu_smem_latency 29");
    has_line(t, "-gpgpu_shmem_num_banks 32");
    has_text(t, "# banks are 8 B wide; GPGPU-Sim's banks are 4 B wide");
    has_line(t, "-gpgpu_shmem_limited_broadcast 0");
    has_line(t, "-gpgpu_clock_domains 1980:1980:1980:2619");
    has_line(t, "-gpgpu_compute_capability_major 9");
    has_line(t, "-gpgpu_n_clusters 132");
    has_line(t, "-gpgpu_shmem_size 233472");
    has_line(t, "-gpgpu_shader_core_pipeline 2048:32");
    free(t);
}

static void pipeline_lines(void **state)
{
    (void)state;
    char *t = export_text(0);
    /* ADD = iadd (5.4 -> 5, 0.25 x 4 = 1), MUL and MAD = imul (absent: the reference's) */
    /* six values: ADD,MAX,MUL,MAD,DIV and SHFL (GPGPU-Sim's default 32, 4: not measured) */
    has_line(t, "-ptx_opcode_latency_int 5,4,4,4,21,32");
    has_line(t, "-ptx_opcode_initiation_int 1,2,2,2,2,4");
    has_text(t, "# ADD,MAX,MUL,MAD,DIV,SHFL: measured ADD=iadd;");
    has_line(t, "-ptx_opcode_latency_fp 4,4,4,4,39");   /* five for fp and dp */
    has_line(t, "-ptx_opcode_initiation_fp 2,2,2,1,4");   /* MAD = ffma: lambda 0.25 x 4 = 1 */
    has_line(t, "-ptx_opcode_latency_dp 8,8,8,8,330");
    has_line(t, "-ptx_opcode_latency_sfu 23");
    has_line(t, "-ptx_opcode_initiation_sfu 8");
    has_text(t, "# -ptx_opcode_latency_tesnor not determined: mma is not in the pipeline record");
    has_line(t, "-trace_opcode_latency_initiation_sp 4,1");
    has_line(t, "-trace_opcode_latency_initiation_sfu 23,8");
    free(t);
}

static void refuses_other_documents(void **state)
{
    (void)state;
    json_t *doc = json_pack("{s:s}", "schema", "something/2");
    gs_error err;
    FILE *f = fopen("/dev/null", "w");
    assert_int_equal(gs_export_accelsim(f, doc, NULL, &err), GS_ERR_INPUT);
    fclose(f);
    json_decref(doc);
}

/* Every value is a plain whole number GPGPU-Sim reads with %u: a line of 1294649 B is not a
 * power of two (no line is written, never "1.29465e+06"), a negative latency difference is 0
 * (never "-0"), an absurd pipeline latency is capped. */
static void values_are_plain_numbers(void **state)
{
    (void)state;
    static const char *const text =
        "{\"schema\":\"gpusonar/1\",\"complete\":true,\"time_utc\":\"2026-11-24T00:00:00Z\","
        "\"device\":{\"name\":\"Fixture GPU\",\"compute_capability\":\"-1.0\",\"sm_count\":132},"
        "\"probes\":["
        "{\"name\":\"cache\",\"params\":{\"level\":\"l1\"},\"figures\":{"
        "  \"size_bytes\":{\"value\":50334592},\"line_bytes\":{\"value\":1294649},"
        "  \"hit_latency_cycles\":{\"value\":40.2}}},"
        "{\"name\":\"cache\",\"params\":{\"level\":\"l2\"},\"figures\":{"
        "  \"size_bytes\":{\"value\":50334592},\"line_bytes\":{\"value\":1294649},"
        "  \"hit_latency_cycles\":{\"value\":40}}},"
        "{\"name\":\"pipeline\",\"params\":{},\"figures\":{"
        "  \"iadd_lambda_cycles\":{\"value\":1e300},\"iadd_Lambda_cycles\":{\"value\":1e300}}}"
        "]}";
    char *t = export_doc(text, 0);
    has_text(t, "# -gpgpu_cache:dl1 not expressible: 1.29465e+06-B lines; GPGPU-Sim's line is a "
                "power of two bytes");
    has_line(t, "#   reference: -gpgpu_cache:dl2 S:256:128:20,L:B:m:L:X,A:384:4,32:0,32");
    has_line(t, "-gpgpu_l2_rop_latency 0");
    assert_null(strstr(t, "-gpgpu_compute_capability_major -"));
    has_line(t, "-ptx_opcode_latency_int 1000000000,4,4,4,21,32");
    for (char *line = t; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (*line == '-' && (strstr(line, "e+") < strchr(line, '\n') && strstr(line, "e+")))
            fail_msg("a value in exponent notation: %.80s", line);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(caches),
        cmocka_unit_test(sector_not_determined),
        cmocka_unit_test(latencies_banks_clock_device),
        cmocka_unit_test(pipeline_lines),
        cmocka_unit_test(values_are_plain_numbers),
        cmocka_unit_test(refuses_other_documents),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
