/* libFuzzer target: the HTML page of a result document (gs_report_html), with a property oracle
 * (oracle.h): no element or attribute that runs or loads anything, and on the document's canary
 * copy none of the canary's markup, quotes or escape verbatim: every document string lands only
 * in HTML text or an attribute value. Seeds: tests/fuzz/corpus/report/; dictionary: document.dict.
 * usage: fuzz_html [libFuzzer options] [CORPUS_DIR...] */
#define _GNU_SOURCE   /* memmem, open_memstream */
#include <stdint.h>

#include "oracle.h"

static void check(const json_t *doc, bool canary)
{
    sink s;
    gs_error err;
    sink_open(&s);
    gs_report_html(s.f, doc, &err);
    sink_close(&s);
    check_html(s.text, s.len, canary);
    sink_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_document(data, size, check);
}
