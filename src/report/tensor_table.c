/* The text report's table of a `tensor` record (probe tensor): one row per instruction and input
 * type with its latency, rate, rate per clock per SM, the published peak (mma_sp: the sparse one)
 * and the fraction of it, so the figures that follow it can be read at a glance. Made from the record alone; "n/a" where
 * the device has no such instruction, "n/d" where a figure is not determined. */
#include <stdio.h>
#include <string.h>

#include "report/report.h"

static void cell(const json_t *figs, const char *stem, const char *what, char *buf, size_t len)
{
    char name[96];
    snprintf(name, sizeof name, "%s_%s", stem, what);
    const json_t *f = json_object_get(figs, name), *v = json_object_get(f, "value");
    const char *reason = json_string_value(json_object_get(f, "reason"));
    if (!f)
        snprintf(buf, len, "-");
    else if (json_is_number(v))
        snprintf(buf, len, json_number_value(v) >= 100 ? "%.0f" : "%.3g", json_number_value(v));
    else
        snprintf(buf, len, reason && strncmp(reason, "not applicable", 14) == 0 ? "n/a" : "n/d");
}

void gs_report_tensor_table(FILE *out, const json_t *probe)
{
    static const char *const instrs[] = {"mma_sync", "wgmma", "mma_sp"};
    static const char *const types[] = {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "f64"};
    const json_t *figs = json_object_get(probe, "figures");
    if (!figs)
        return;
    fprintf(out, "  dense rates (mma_sp: 2:4 sparse, against the sparse peak); s8 in integer "
            "operations;\n  peaks from the architecture's whitepaper\n"
            "  %-14s %-9s %-9s %-10s %-10s %-8s\n", "instr.type", "lat cyc", "T*/s",
            "*/clk/SM", "peak/SM", "of peak");
    for (size_t i = 0; i < sizeof instrs / sizeof instrs[0]; i++)
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
            char stem[32], label[32], c[5][32];
            bool s8 = strcmp(types[t], "s8") == 0;
            snprintf(stem, sizeof stem, "%s_%s", instrs[i], types[t]);
            cell(figs, stem, "latency_cycles", c[0], sizeof c[0]);
            if (strcmp(c[0], "-") == 0)
                continue;
            cell(figs, stem, s8 ? "tops" : "tflops", c[1], sizeof c[1]);
            cell(figs, stem, s8 ? "ops_per_clock_per_sm" : "flops_per_clock_per_sm", c[2],
                 sizeof c[2]);
            cell(figs, stem, s8 ? "peak_ops_per_clock_per_sm" : "peak_flops_per_clock_per_sm",
                 c[3], sizeof c[3]);
            cell(figs, stem, "fraction_of_peak", c[4], sizeof c[4]);
            snprintf(label, sizeof label, "%s.%s", instrs[i], types[t]);
            fprintf(out, "  %-14s %-9s %-9s %-10s %-10s %-8s\n", label, c[0], c[1], c[2], c[3],
                    c[4]);
        }
}
