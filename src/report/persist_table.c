/* The text report's table of an `l2-persist` record (probe l2-persist): the limits and the
 * set-aside used, the L2-hit and DRAM latencies the hot region is judged by, then one row per
 * access-policy window (none, persisting, normal: the control) with the hot region's hit rate,
 * latency and read rate, and the two speedups, so the figures that follow it can be read at a
 * glance. Made from the record alone; "n/d" where a figure is not determined, "-" where the record
 * has none; a record whose every figure is "not applicable (...)" gets one line saying so. */
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "util/escape.h"

/* A figure's value times scale; hit rates (rate) with three decimals, 0.000 to 1.000. */
static void cell(const json_t *figs, const char *name, double scale, char *buf, size_t len)
{
    const json_t *f = json_object_get(figs, name), *v = json_object_get(f, "value");
    double x = json_number_value(v) * scale;
    if (!f)
        snprintf(buf, len, "-");
    else if (!json_is_number(v))
        snprintf(buf, len, "n/d");
    else
        snprintf(buf, len, strstr(name, "hit_rate") ? "%.3f" : x >= 100 ? "%.0f" : "%.3g", x);
}

void gs_report_persist_table(FILE *out, const json_t *probe)
{
    static const char *const windows[] = {"none", "persisting", "normal"};
    const json_t *figs = json_object_get(probe, "figures");
    const char *reason = json_string_value(
        json_object_get(json_object_get(figs, "max_set_aside_bytes"), "reason"));
    char c[6][32];
    if (!figs)
        return;
    if (reason && strncmp(reason, "not applicable", 14) == 0) {
        fprintf(out, "  L2 persistence: %s\n", gs_esc(reason));
        return;
    }
    cell(figs, "set_aside_bytes", 1.0 / (1 << 20), c[0], sizeof c[0]);
    cell(figs, "max_set_aside_bytes", 1.0 / (1 << 20), c[1], sizeof c[1]);
    cell(figs, "max_window_bytes", 1.0 / (1 << 20), c[2], sizeof c[2]);
    cell(figs, "l2_hit_cycles", 1, c[3], sizeof c[3]);
    cell(figs, "dram_cycles", 1, c[4], sizeof c[4]);
    fprintf(out, "  L2 persistence: set-aside %s of %s MiB, window up to %s MiB; L2 hit %s, DRAM %s "
            "cycles\n", c[0], c[1], c[2], c[3], c[4]);
    fprintf(out, "  %-11s %-9s %-11s %-9s\n", "window", "hit rate", "hot cycles", "hot GB/s");
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "hit_rate_%s", windows[i]);
        cell(figs, name, 1, c[0], sizeof c[0]);
        snprintf(name, sizeof name, "hot_cycles_%s", windows[i]);
        cell(figs, name, 1, c[1], sizeof c[1]);
        snprintf(name, sizeof name, "hot_read_gbps_%s", windows[i]);
        cell(figs, name, 1, c[2], sizeof c[2]);
        fprintf(out, "  %-11s %-9s %-11s %-9s\n", windows[i], c[0], c[1], c[2]);
    }
    cell(figs, "latency_speedup", 1, c[0], sizeof c[0]);
    cell(figs, "read_speedup", 1, c[1], sizeof c[1]);
    cell(figs, "read_hit_rate_persisting", 1, c[2], sizeof c[2]);
    cell(figs, "l2_read_gbps", 1, c[3], sizeof c[3]);
    cell(figs, "dram_read_gbps", 1, c[4], sizeof c[4]);
    fprintf(out, "  persisting over none: latency x %s, read rate x %s (read hit rate %s; whole L2 "
            "%s, DRAM %s GB/s)\n", c[0], c[1], c[2], c[3], c[4]);
}
