/* The text report's table of an `atomics` record (probe atomics): one row per operation and type
 * with its latencies and the rate of each pattern, so the ~140 figures that follow it can be read
 * at a glance. Made from the record alone; "n/d" where a figure is not determined, "-" where the
 * record has none. */
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "util/escape.h"

static void cell(const json_t *figs, const char *space, const char *ot, const char *what,
                 char *buf, size_t len)
{
    char name[96];
    snprintf(name, sizeof name, "%s_%s_%s", space, ot, what);
    for (char *c = name; *c; c++)
        if (*c == '.')
            *c = '_';
    const json_t *v = json_object_get(json_object_get(figs, name), "value");
    if (!json_object_get(figs, name))
        snprintf(buf, len, "-");
    else if (!json_is_number(v))
        snprintf(buf, len, "n/d");
    else
        snprintf(buf, len, json_number_value(v) >= 100 ? "%.0f" : "%.3g", json_number_value(v));
}

void gs_report_atomics_table(FILE *out, const json_t *probe)
{
    static const char *const cols[][3] = {
        {"global", "latency_cycles", "g lat"}, {"shared", "latency_cycles", "s lat"},
        {"global", "one_address_ops_per_clock", "g 1word"},
        {"global", "distinct_ops_per_clock_per_sm", "g dist"},
        {"global", "distinct_returned_ops_per_clock_per_sm", "g ret"},
        {"global", NULL, NULL},               /* the first --lines count */
        {"shared", "one_address_ops_per_clock_per_sm", "s 1word"},
        {"shared", "distinct_ops_per_clock_per_sm", "s dist"},
        {"shared", "same_bank_ops_per_clock_per_sm", "s 1bank"},
    };
    enum { COLS = sizeof cols / sizeof cols[0] };
    const json_t *params = json_object_get(probe, "params"), *figs = json_object_get(probe, "figures");
    const char *ops = json_string_value(json_object_get(params, "ops"));
    const char *lines = json_string_value(json_object_get(params, "lines"));
    if (!ops || !figs)
        return;
    int k = lines ? (int)strcspn(lines, ",") : 1;
    char lines_figure[64], lines_label[16];
    snprintf(lines_figure, sizeof lines_figure, "lines%.*s_ops_per_clock", k, lines ? lines : "1");
    snprintf(lines_label, sizeof lines_label, "g %.*sline", k, lines ? lines : "1");
    snprintf(lines_label, sizeof lines_label, "%s", gs_esc(lines_label));
    fprintf(out, "  latencies in cycles; global rates in atomics per clock of the GPU (dist, ret: "
            "per SM), shared rates per clock per SM; Gop/s and ci95 below\n  %-9s", "op.type");
    for (int c = 0; c < COLS; c++)
        fprintf(out, " %-8s", cols[c][2] ? cols[c][2] : lines_label);
    fputc('\n', out);
    for (const char *s = ops; *s;) {
        char ot[24];
        size_t n = strcspn(s, ",");
        snprintf(ot, sizeof ot, "%.*s", (int)(n < sizeof ot ? n : sizeof ot - 1), s);
        fprintf(out, "  %-9s", gs_esc(ot));
        for (int c = 0; c < COLS; c++) {
            char buf[32];
            cell(figs, cols[c][0], ot, cols[c][1] ? cols[c][1] : lines_figure, buf, sizeof buf);
            fprintf(out, " %-8s", buf);
        }
        fputc('\n', out);
        s += n + (s[n] == ',');
    }
}
