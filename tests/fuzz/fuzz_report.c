/* libFuzzer target: the report of a result document in each format (gs_report_print: text,
 * markdown and CSV), with property oracles (oracle.h): no raw control character but the
 * newline in any of them, no document string starting a line or a markdown cell, no CSV cell a
 * spreadsheet would read as a formula; run on the document and on its canary copy.
 * Seeds: tests/fuzz/corpus/report/; dictionary: document.dict.
 * usage: fuzz_report [libFuzzer options] [CORPUS_DIR...] */
#define _GNU_SOURCE   /* memmem, open_memstream */
#include <stdint.h>

#include "oracle.h"

static void check(const json_t *doc, bool canary)
{
    static const char *const names[] = {"text", "markdown", "csv"};
    for (int fmt = GS_FORMAT_TEXT; fmt <= GS_FORMAT_CSV; fmt++)
        for (int summary = 0; summary < 2; summary++) {
            sink s;
            sink_open(&s);
            gs_report_print(s.f, doc, (gs_report_format)fmt, summary);
            sink_close(&s);
            if (fmt == GS_FORMAT_CSV)
                check_csv(names[fmt], s.text, s.len);
            else
                check_text(names[fmt], s.text, s.len, canary, fmt == GS_FORMAT_MARKDOWN);
            sink_free(&s);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_document(data, size, check);
}
