/* libFuzzer target: `compare` of two different documents (gs_report_compare): the input is two
 * result documents separated by a NUL byte; with the text oracle of oracle.h on the comparison of
 * the two, and of their canary copies. Seeds: tests/fuzz/corpus/compare/ (pairs); dictionary:
 * document.dict. usage: fuzz_compare [libFuzzer options] [CORPUS_DIR...] */
#define _GNU_SOURCE   /* memmem, open_memstream */
#include <stdint.h>

#include "oracle.h"

static void check(const json_t *a, const json_t *b, bool canary)
{
    sink s;
    gs_error err;
    gs_compare_counts counts;
    sink_open(&s);
    gs_report_compare(s.f, a, b, GS_COMPARE_TOLERANCE_PERCENT, &counts, &err);
    sink_close(&s);
    check_text("compare", s.text, s.len, canary, false);
    sink_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *part[2];
    size_t len[2];
    json_t *doc[2] = {NULL, NULL};
    gs_error err;
    if (split_nul((const char *)data, size, part, len, 2) != 2 ||
        gs_report_load_buffer(part[0], len[0], "a.json", &doc[0], &err) != 0 ||
        gs_report_load_buffer(part[1], len[1], "b.json", &doc[1], &err) != 0) {
        json_decref(doc[0]);
        return 0;
    }
    check(doc[0], doc[1], false);
    json_t *ca = canary_document(doc[0]), *cb = canary_document(doc[1]);
    if (ca && cb)
        check(ca, cb, true);
    json_decref(ca);
    json_decref(cb);
    json_decref(doc[0]);
    json_decref(doc[1]);
    return 0;
}
