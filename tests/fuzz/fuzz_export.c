/* libFuzzer target: `export accel-sim` (gs_export_accelsim) of a result document, with and without
 * --l2-sub-partitions, with a property oracle: every line of the fragment is empty, a comment
 * ("#..."), or one option of the set the exporter writes followed by one value of digits,
 * letters, ':', ',' and '.'; no control character but the newline. A document string that smuggles
 * a newline into a comment would make a line GPGPU-Sim reads as an option. Run on the document
 * and on its canary copy (oracle.h). Seeds: tests/fuzz/corpus/report/; dictionary: document.dict.
 * usage: fuzz_export [libFuzzer options] [CORPUS_DIR...] */
#define _GNU_SOURCE   /* memmem, open_memstream */
#include <stdint.h>

#include "oracle.h"
#include "report/export_accelsim.h"

static const char *const options[] = {
    "-gpgpu_cache:dl1", "-gpgpu_tex_cache:l1", "-gpgpu_const_cache:l1", "-gpgpu_cache:dl2",
    "-gpgpu_l1_latency", "-gpgpu_l2_rop_latency", "-dram_latency", "-gpgpu_smem_latency",
    "-gpgpu_shmem_num_banks", "-gpgpu_shmem_limited_broadcast", "-gpgpu_clock_domains",
    "-gpgpu_compute_capability_major", "-gpgpu_compute_capability_minor", "-gpgpu_n_clusters",
    "-gpgpu_shader_registers", "-gpgpu_shader_cta", "-gpgpu_shmem_size",
    "-gpgpu_shmem_sizeDefault", "-gpgpu_shmem_per_block", "-gpgpu_shader_core_pipeline",
    "-ptx_opcode_latency_int", "-ptx_opcode_initiation_int", "-ptx_opcode_latency_fp",
    "-ptx_opcode_initiation_fp", "-ptx_opcode_latency_dp", "-ptx_opcode_initiation_dp",
    "-ptx_opcode_latency_sfu", "-ptx_opcode_initiation_sfu", "-ptx_opcode_latency_tesnor",
    "-ptx_opcode_initiation_tensor", "-trace_opcode_latency_initiation_int",
    "-trace_opcode_latency_initiation_sp", "-trace_opcode_latency_initiation_dp",
    "-trace_opcode_latency_initiation_sfu", "-trace_opcode_latency_initiation_tensor", NULL,
};

static void check_line(const char *text, size_t start, size_t end)
{
    const char *l = text + start;
    size_t n = end - start;
    if (n == 0 || l[0] == '#')
        return;
    const char *space = memchr(l, ' ', n);
    if (l[0] != '-' || !space)
        oracle_fail("a line that is neither a comment nor an option", "export", text, start);
    size_t name_len = (size_t)(space - l);
    bool known = false;
    for (size_t i = 0; options[i] && !known; i++)
        known = strlen(options[i]) == name_len && memcmp(options[i], l, name_len) == 0;
    if (!known)
        oracle_fail("an option the exporter does not write", "export", text, start);
    size_t value = name_len + 1;
    if (value >= n)
        oracle_fail("an option without a value", "export", text, start);
    for (size_t i = value; i < n; i++)
        if (!isalnum((unsigned char)l[i]) && !strchr(":,.", l[i]))
            oracle_fail("an option value with a character no value has", "export", text,
                        start + i);
}

static void check(const json_t *doc, bool canary)
{
    static const unsigned parts[] = {0, 80, 1};
    for (size_t k = 0; k < sizeof parts / sizeof *parts; k++) {
        gs_export_opts opts = {.l2_sub_partitions = parts[k]};
        sink s;
        gs_error err;
        sink_open(&s);
        gs_export_accelsim(s.f, doc, &opts, &err);
        sink_close(&s);
        check_text("export", s.text, s.len, canary, false);
        size_t start = 0;
        for (size_t i = 0; i <= s.len; i++)
            if (i == s.len || s.text[i] == '\n') {
                check_line(s.text, start, i);
                start = i + 1;
            }
        sink_free(&s);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_document(data, size, check);
}
