/* libFuzzer target: `fleet` over up to eight result documents separated by NUL bytes
 * (gs_fleet_analyse, then gs_fleet_print in text, markdown, CSV and JSON), with the oracles of
 * oracle.h on each format (JSON: parses back), on the documents and on their canary copies.
 * Seeds: tests/fuzz/corpus/fleet/; dictionary: document.dict.
 * usage: fuzz_fleet [libFuzzer options] [CORPUS_DIR...] */
#define _GNU_SOURCE   /* memmem, open_memstream */
#include <stdint.h>

#include "oracle.h"
#include "report/fleet.h"

#define MAX_DOCS 8

static void check(const gs_fleet_input *in, size_t n, bool canary)
{
    gs_fleet_options opt = gs_fleet_default_options();
    json_t *analysis = NULL;
    gs_error err;
    if (gs_fleet_analyse(in, n, &opt, &analysis, &err) != 0)
        return;
    static const char *const names[] = {"fleet text", "fleet markdown", "fleet csv", "fleet json"};
    for (int fmt = GS_FLEET_TEXT; fmt <= GS_FLEET_JSON; fmt++) {
        sink s;
        sink_open(&s);
        gs_fleet_print(s.f, analysis, (gs_fleet_format)fmt);
        sink_close(&s);
        if (fmt == GS_FLEET_CSV) {
            check_csv(names[fmt], s.text, s.len);
        } else if (fmt == GS_FLEET_JSON) {
            json_error_t je;
            json_t *back = json_loadb(s.text, s.len, 0, &je);
            if (!back)
                oracle_fail("the JSON does not parse back", names[fmt], s.text, 0);
            json_decref(back);
        } else {
            check_text(names[fmt], s.text, s.len, canary, fmt == GS_FLEET_MARKDOWN);
        }
        sink_free(&s);
    }
    json_decref(analysis);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *part[MAX_DOCS];
    size_t len[MAX_DOCS];
    size_t n = split_nul((const char *)data, size, part, len, MAX_DOCS);
    static const char *const paths[MAX_DOCS] = {"a.json", "b.json", "c.json", "d.json",
                                                "e.json", "f.json", "g.json", "h.json"};
    gs_fleet_input in[MAX_DOCS], cin[MAX_DOCS];
    json_t *docs[MAX_DOCS] = {0}, *canaries[MAX_DOCS] = {0};
    gs_error errs[MAX_DOCS];
    bool all_canary = true;
    for (size_t i = 0; i < n; i++) {
        gs_report_load_buffer(part[i], len[i], paths[i], &docs[i], &errs[i]);
        in[i] = (gs_fleet_input){paths[i], docs[i], docs[i] ? NULL : errs[i].msg};
        canaries[i] = docs[i] ? canary_document(docs[i]) : NULL;
        all_canary = all_canary && (!docs[i] || canaries[i]);
        cin[i] = (gs_fleet_input){paths[i], canaries[i], docs[i] ? NULL : errs[i].msg};
    }
    check(in, n, false);
    if (all_canary)
        check(cin, n, true);
    for (size_t i = 0; i < n; i++) {
        json_decref(docs[i]);
        json_decref(canaries[i]);
    }
    return 0;
}
