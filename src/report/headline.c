/* The headline figures of each probe (headline.h): what a reader compares between cards first.
 * Per-ILP figures, nanosecond twins of cycle figures, fit residuals and every figure of a sweep
 * stay in --details and the document. */
#include "report/headline.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})

static const gs_headline_column instr_columns[] = {
    {"lambda_cycles", "issue λ (cycles)"},
    {"Lambda_cycles", "completion Λ (cycles)"},
    {"peak_ops_per_cycle_per_sm", "ops/cycle/SM"},
    {"ridge_warps", "ridge (warps)"},
    {NULL, NULL},
};

static const gs_headline_column roofline_columns[] = {
    {"peak_ops_per_cycle_per_sm", "ops/cycle/SM"},
    {"ilp1_ridge_warps", "ridge (warps)"},
    {"model_ridge_warps", "model ridge (warps)"},
    {"model_error_percent", "model error (%)"},
    {NULL, NULL},
};

static const gs_headline headlines[] = {
    {"clock", LIST("sm_clock_khz", "driver_sm_clock_khz", "measured_vs_driver_percent"), NULL,
     NULL},
    {"smem-banks", LIST("banks", "bank_width_bytes", "conflict_cycles_per_way", "broadcast_rule",
                        "latency_w4_stride1_cycles"), NULL, NULL},
    {"mem-bandwidth", LIST("smem_read_gbps", "l1_read_gbps", "l2_read_gbps", "dram_read_gbps",
                           "dram_write_gbps", "dram_copy_gbps", "stream_triad_gbps",
                           "dram_peak_gbps", "dram_efficiency"), NULL, NULL},
    {"cache", LIST("size_bytes", "line_bytes", "sector_bytes", "fetch_bytes", "sets", "ways",
                   "entries", "coverage_bytes", "mapping", "policy", "hit_latency_cycles",
                   "miss_penalty_cycles", "near_size_bytes"), NULL, NULL},
    {"global-patterns", LIST("latency_*_default_cycles", "sector_bytes", "line_bytes",
                             "l1_coalesced_cycles", "l1_scattered_cycles",
                             "l2_coalesced_cycles", "l2_scattered_cycles"), NULL, NULL},
    {"bandwidth", LIST("best_copy_gbps", "best_copy_config", "memcpy_d2d_gbps",
                       "copy_over_memcpy", "h2d_gbps", "d2h_gbps"), NULL, NULL},
    {"random-walk", LIST("*_latencies_cycles", "*_capacities_bytes", "walkers_*"), NULL, NULL},
    {"pipeline", LIST("mma_peak_flops_per_cycle_per_sm"), "itype", instr_columns},
    {"roofline", LIST("schedulers"), "itype", roofline_columns},
    {"divergence", LIST("ceiling_ops_per_cycle_per_sm", "efficiency_2_paths",
                        "efficiency_32_paths", "serialization_slope"), NULL, NULL},
    {"l2-partitions", LIST("l2_partition_hash", "l2_near_latency_cycles", "l2_hit_latency_cycles",
                           "l2_far_latency_cycles", "l2_far_fraction", "memory_latency_cycles"),
     NULL, NULL},
    {"dram-layout", LIST("dram_channels", "dram_interleave_bytes", "dram_channel_span_bytes",
                         "dram_row_hit_latency_cycles", "dram_row_miss_latency_cycles"), NULL,
     NULL},
    {"cluster", LIST("max_cluster_size", "local_smem_*", "cluster_*_remote_latency_cycles",
                     "cluster_*_remote_gbps"), NULL, NULL},
    /* Their tables (atomics_table.c, tensor_table.c, persist_table.c) are the headline. */
    {"atomics", LIST("-"), NULL, NULL},
    {"tensor", LIST("-"), NULL, NULL},
    {"l2-persist", LIST("max_set_aside_bytes", "max_window_bytes"), NULL, NULL},
};

const gs_headline *gs_headline_find(const char *probe)
{
    for (size_t i = 0; probe && i < sizeof headlines / sizeof headlines[0]; i++)
        if (strcmp(headlines[i].probe, probe) == 0)
            return &headlines[i];
    return NULL;
}

bool gs_headline_line(const gs_headline *h, const char *figure)
{
    if (!h)
        return true;
    for (const char *const *p = h->figures; p && *p; p++)
        if (fnmatch(*p, figure, 0) == 0)
            return true;
    return false;
}

bool gs_headline_cell(const gs_headline *h, const char *figure, int *column, char *row,
                      unsigned len)
{
    size_t n = strlen(figure);
    for (int c = 0; h && h->columns && h->columns[c].suffix; c++) {
        size_t s = strlen(h->columns[c].suffix);
        if (n <= s + 1 || figure[n - s - 1] != '_' || strcmp(figure + n - s,
                                                             h->columns[c].suffix) != 0)
            continue;
        size_t r = n - s - 1;
        if (memchr(figure, '_', r) || r + 1 > len)
            continue;
        memcpy(row, figure, r);
        row[r] = '\0';
        *column = c;
        return true;
    }
    return false;
}

void gs_headline_label(const char *figure, char *buf, unsigned len)
{
    size_t used = 0;
    const char *p = figure;
    if (len == 0)
        return;
    while (*p && used + 1 < len) {
        bool start = p == figure || p[-1] == '_';
        const char *word = NULL;
        size_t skip = 0;
        if (start && strncmp(p, "lambda", 6) == 0 && (p[6] == '_' || !p[6]))
            word = "issue_latency", skip = 6;
        else if (start && strncmp(p, "Lambda", 6) == 0 && (p[6] == '_' || !p[6]))
            word = "completion_latency", skip = 6;
        if (word) {
            int w = snprintf(buf + used, len - used, "%s", word);
            used = w < 0 || (size_t)w >= len - used ? len - 1 : used + (size_t)w;
            p += skip;
        } else {
            buf[used++] = *p++;
        }
    }
    buf[used] = '\0';
}
