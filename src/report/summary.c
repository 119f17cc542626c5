/* The one-page summary, made from the result document alone: Table III of the roofline paper
 * (Lemeire et al.: computations with performance, λ, Λ and ridge point per instruction type and
 * ILP 1/2/4; then per memory space the bandwidth, λ, Λ of each level and the cache sizes) and the
 * cache table after Table 4 of the memory-hierarchy paper (Mei et al.: one column per `cache`
 * record with its size N, line b, sets a, ways, policy and hit latency). A missing figure prints
 * as "-", a "not determined" one as "n/d" ("nd" inside an a/b/c cell); the per-probe tables that
 * follow give the reasons.
 * Figure names read here: bandwidth (copy_<E>B_{constant,dynamic}_gbps, copy_<E>B_lambda_cycles,
 * memcpy_d2d_gbps, copy_over_memcpy, best_copy_config, h2d_gbps, d2h_gbps), random-walk
 * (<space>_latencies_cycles, <space>_capacities_bytes, walkers_*), and any record's
 * <itype>_ilp<N>_{gops,lambda_cycles,Lambda_cycles,ridge_warps} for the computations, and
 * write-policy (<path>_{write_allocate,allocate_unit,write_policy,store_hit,hit_cycles,
 * l2_cycles}) for the table of the L1's store policy. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "report/report.h"
#include "report/wrap.h"
#include "util/escape.h"
#include "util/units.h"

#define CELL 128
#define MAX_LIST 8

static const json_t *find_record(const json_t *doc, const char *name)
{
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        const char *n = json_string_value(json_object_get(p, "name"));
        if (n && strcmp(n, name) == 0)
            return p;
    }
    return NULL;
}

static const json_t *figure(const json_t *rec, const char *name)
{
    return rec ? json_object_get(json_object_get(rec, "figures"), name) : NULL;
}

/* 1 numeric, 0 absent, -1 present but not a number (not determined). */
static int number(const json_t *rec, const char *name, double *v)
{
    const json_t *f = figure(rec, name);
    if (!f)
        return 0;
    const json_t *val = json_object_get(f, "value");
    if (!json_is_number(val))
        return -1;
    *v = json_number_value(val);
    return 1;
}

/* Three significant digits keep the a/b/c cells narrow; whole numbers stay whole. */
static void fmt_num(char *buf, size_t len, double v)
{
    if (fabs(v) >= 100 || v == floor(v))
        gs_units_number(round(v), buf, len);
    else
        snprintf(buf, len, "%.3g", v);
}

static void fmt_bytes(char *buf, size_t len, double b)
{
    gs_unit_scale s;
    gs_units_scale(b, "B", &s);
    double v = b / s.divisor;
    snprintf(buf, len, v >= 10 || v == floor(v) ? "%.0f %s" : "%.1f %s", v, s.unit);
}

/* Inside an a/b/c cell a not-determined value is "nd": "4/4/n/d" would read as four values. */
#define ND_IN_LIST "nd"

static const char *in_list(const char *cell_text)
{
    return strcmp(cell_text, "n/d") == 0 ? ND_IN_LIST : cell_text;
}

/* One figure into a cell: its number (or bytes), "n/d", or "-". */
static void cell(char *buf, const json_t *rec, const char *name, bool bytes)
{
    double v = 0;
    int r = number(rec, name, &v);
    const json_t *text = json_object_get(figure(rec, name), "value");
    if (json_is_string(text))
        snprintf(buf, CELL, "%s", gs_esc(json_string_value(text)));
    else if (r == 1 && bytes)
        fmt_bytes(buf, CELL, v);
    else if (r == 1)
        fmt_num(buf, CELL, v);
    else
        snprintf(buf, CELL, "%s", r < 0 ? "n/d" : "-");
}

/* A list figure as "a/b/c". */
static void cell_list(char *buf, const json_t *rec, const char *name, bool bytes)
{
    const json_t *val = json_object_get(figure(rec, name), "value");
    size_t i, used = 0;
    const json_t *e;
    if (!json_is_array(val) || json_array_size(val) == 0) {
        snprintf(buf, CELL, "%s", figure(rec, name) ? "n/d" : "-");
        return;
    }
    buf[0] = '\0';
    json_array_foreach(val, i, e) {
        char one[24];
        if (bytes)
            fmt_bytes(one, sizeof one, json_number_value(e));
        else
            fmt_num(one, sizeof one, json_number_value(e));
        int w = snprintf(buf + used, CELL - used, "%s%s", i ? "/" : "", one);
        if (w < 0 || (size_t)w >= CELL - used)
            break;
        used += (size_t)w;
    }
}

/* The first record's value of one figure: 1 number, -1 not determined, 0 absent everywhere. */
static int first_number(const json_t *doc, const char *name, double *v)
{
    size_t i;
    const json_t *rec;
    json_array_foreach(json_object_get(doc, "probes"), i, rec) {
        int r = number(rec, name, v);
        if (r != 0)
            return r;
    }
    return 0;
}

/* One cell of the computations: the figure at ILP 1, 2 and 4 as "a/b/c" ("" if none). */
static bool ilp_cell(const json_t *doc, const char *itype, const char *what, char *buf)
{
    static const unsigned ilps[] = { 1, 2, 4 };
    bool any = false;
    buf[0] = '\0';
    for (int k = 0; k < 3; k++) {
        char name[96], one[CELL];
        double v = 0;
        snprintf(name, sizeof name, "%s_ilp%u_%s", itype, ilps[k], what);
        int r = first_number(doc, name, &v);
        if (r == 0)
            continue;
        any = true;
        if (r == 1)
            fmt_num(one, sizeof one, v);
        else
            snprintf(one, sizeof one, "%s", ND_IN_LIST);
        size_t used = strlen(buf);
        snprintf(buf + used, CELL - used, "%s%s", used ? "/" : "", one);
    }
    return any;
}

/* Computations: one row per instruction type that some record measured. */
static void print_computations(FILE *out, const json_t *doc)
{
    static const char *const what[] = { "gops", "lambda_cycles", "Lambda_cycles", "ridge_warps" };
    int rows = 0;
    /* λ and Λ are two bytes in UTF-8: the header is spelt out so its columns line up. */
    fprintf(out, "Computations\n  itype      Gop/s              issue λ            "
            "completion Λ         ridge (warps)\n");
    for (int t = 0; t < GS_INSTR_COUNT; t++) {
        const char *itype = gs_instr_name((gs_instr)t);
        char cells[4][CELL];
        bool any = false;
        for (int w = 0; w < 4; w++) {
            if (!ilp_cell(doc, itype, what[w], cells[w]))
                snprintf(cells[w], CELL, "-");
            else
                any = true;
        }
        if (!any)
            continue;
        rows++;
        fprintf(out, "  %-10s %-18s %-18s %-20s %s\n", itype, cells[0], cells[1], cells[2],
                cells[3]);
    }
    if (rows == 0)
        fprintf(out, "  (no instruction-type figures in this document)\n");
}

void gs_report_itable(FILE *out, const json_t *doc)
{
    static const char *const what[] = {"lambda_cycles", "Lambda_cycles", "ops_per_cycle_per_sm"};
    size_t i;
    const json_t *rec;
    bool header = false;
    json_array_foreach(json_object_get(doc, "probes"), i, rec) {
        const char *name = json_string_value(json_object_get(rec, "name"));
        const char *level = json_string_value(json_object_get(json_object_get(rec, "params"),
                                                              "level"));
        if (!name || !level || strcmp(name, "itable") != 0)
            continue;
        if (!header)
            fprintf(out, "\nInstruction table (one warp's dependent chain: completion Λ; every warp "
                    "at ILP 4: issue λ\nand thread instructions per cycle per SM; a pair's "
                    "figures are per pair)\n  class      SASS                            issue λ"
                    "    completion Λ  ops/cycle/SM\n");
        header = true;
        char c[4][CELL];
        cell(c[0], rec, "sass", false);
        for (int w = 0; w < 3; w++)
            cell(c[w + 1], rec, what[w], false);
        fprintf(out, "  %-10s %-31s %-10s %-13s %s\n", gs_esc(level), c[0], c[1], c[2], c[3]);
    }
}

/* One row of a memory table; a cell longer than its column is cut at a word, never inside one. */
static void print_memory_row(FILE *out, const char *element, const char *bw, const char *lambda,
                             const char *Lambda, const char *sizes)
{
    char c[4][CELL];
    gs_wrap_cell(element, 10, c[0], CELL);
    gs_wrap_cell(bw, 18, c[1], CELL);
    gs_wrap_cell(lambda, 10, c[2], CELL);
    gs_wrap_cell(Lambda, 28, c[3], CELL);
    fprintf(out, "  %-10s %-18s %-10s %-28s %s\n", c[0], c[1], c[2], c[3], sizes);
}

/* Global memory: copy bandwidth (constant/dynamic bound) and λ per element size; the random
 * walk's levels on the row of its element size (4 B). */
static void print_global(FILE *out, const json_t *bw, const json_t *walk)
{
    static const unsigned sizes[] = { 1, 2, 4, 8, 16 };
    fprintf(out, "Global memory (copy GB/s with a constant/dynamic loop bound)\n");
    fprintf(out, "  Element    copy GB/s c/d      issue λ    "
            "completion Λ (levels)        cache sizes\n");
    for (int i = 0; i < 5; i++) {
        char name[64], c[CELL], d[CELL], both[2 * CELL + 2], lam[CELL], el[16];
        char Lam[CELL] = "-", caps[CELL] = "-";
        snprintf(name, sizeof name, "copy_%uB_constant_gbps", sizes[i]);
        cell(c, bw, name, false);
        snprintf(name, sizeof name, "copy_%uB_dynamic_gbps", sizes[i]);
        cell(d, bw, name, false);
        snprintf(both, sizeof both, "%s/%s", in_list(c), in_list(d));
        snprintf(name, sizeof name, "copy_%uB_lambda_cycles", sizes[i]);
        cell(lam, bw, name, false);
        if (sizes[i] == 4) {
            cell_list(Lam, walk, "global_latencies_cycles", false);
            cell_list(caps, walk, "global_capacities_bytes", true);
        }
        snprintf(el, sizeof el, "%uB", sizes[i]);
        print_memory_row(out, el, both, lam, Lam, caps);
    }
    char m[CELL], r[CELL], h[CELL], dh[CELL], cfg[CELL];
    cell(m, bw, "memcpy_d2d_gbps", false);
    cell(r, bw, "copy_over_memcpy", false);
    cell(cfg, bw, "best_copy_config", false);
    cell(h, bw, "h2d_gbps", false);
    cell(dh, bw, "d2h_gbps", false);
    fprintf(out, "  cudaMemcpy D2D %s GB/s; best copy kernel / memcpy = %s\n", m, r);
    fprintf(out, "  best copy kernel: %s\n", cfg);
    fprintf(out, "  PCIe (pinned) host-to-device %s GB/s, device-to-host %s GB/s\n", h, dh);
    char sat[CELL], per[CELL], peak[CELL], lat[CELL];
    cell(sat, walk, "walkers_saturation", false);
    cell(per, walk, "walkers_saturation_per_sm", false);
    cell(peak, walk, "walkers_peak_accesses_per_ns", false);
    cell(lat, walk, "walkers_latency_at_saturation_cycles", false);
    if (strcmp(sat, "n/d") == 0)
        fprintf(out, "  Random walkers: memory not saturated by the most tried (n/d); peak %s "
                "accesses/ns\n", peak);
    else
        fprintf(out, "  Random walkers saturating memory: %s warps (%s per SM), peak %s "
                "accesses/ns,\n  loaded latency %s cycles\n", sat, per, peak, lat);
}

/* Shared, constant and local memory: the random walk's levels and capacities. */
static void print_space(FILE *out, const json_t *walk, const char *space, const char *title)
{
    char name[64], Lam[CELL], caps[CELL];
    snprintf(name, sizeof name, "%s_latencies_cycles", space);
    cell_list(Lam, walk, name, false);
    snprintf(name, sizeof name, "%s_capacities_bytes", space);
    cell_list(caps, walk, name, true);
    if (strcmp(caps, "n/d") == 0)
        snprintf(caps, sizeof caps, "-");
    fprintf(out, "%s\n", title);
    print_memory_row(out, "4B", "-", "-", Lam, caps);
}

#define CACHE_COLUMNS 6             /* 16 + 6 x 14 columns: within 100 */
#define COLUMN 14

typedef struct cache_row {
    const char *label;
    const char *figure, *alt;     /* alt: read when figure is absent */
    bool bytes;
} cache_row;

static const cache_row cache_rows[] = {
    { "N (size)", "size_bytes", "usable_size_bytes", true },
    { "b (line)", "line_bytes", "coverage_bytes", true },
    { "sector", "sector_bytes", NULL, true },
    { "fetch (miss)", "fetch_bytes", NULL, true },
    { "a (sets)", "sets", NULL, false },
    { "ways", "ways", "ways_per_set", false },
    { "policy", "policy", NULL, false },
    { "page", "page_bytes", NULL, true },
    { "hit (cycles)", "hit_latency_cycles", NULL, false },
    { "miss (cycles)", "miss_penalty_cycles", NULL, false },
};

static void cache_cell(char *buf, const json_t *rec, const cache_row *row)
{
    const char *name = figure(rec, row->figure) || !row->alt ? row->figure : row->alt;
    if (json_is_array(json_object_get(figure(rec, name), "value")))
        cell_list(buf, rec, name, row->bytes);
    else
        cell(buf, rec, name, row->bytes);
}

/* One column of the cache table: padded, except the last (no trailing blanks); a longer text is
 * cut at a word with "…", never inside one. */
static void put_column(FILE *out, const char *text, bool last)
{
    char cut[CELL];
    gs_wrap_cell(text, COLUMN - 1, cut, sizeof cut);
    fputs(cut, out);
    for (size_t n = gs_wrap_chars(cut); !last && n < COLUMN; n++)
        fputc(' ', out);
}

/* Columns [first, first + count) of the cache records. */
static void print_cache_block(FILE *out, const json_t **recs, size_t first, size_t count)
{
    fprintf(out, "  %-14s", "Parameter");
    for (size_t c = first; c < first + count; c++) {
        const json_t *params = json_object_get(recs[c], "params");
        const char *level = json_string_value(json_object_get(params, "level"));
        put_column(out, level ? gs_esc(level) : "?", c + 1 == first + count);
    }
    fputc('\n', out);
    for (size_t r = 0; r < sizeof cache_rows / sizeof cache_rows[0]; r++) {
        bool any = false;
        for (size_t c = first; c < first + count; c++)
            any = any || figure(recs[c], cache_rows[r].figure) ||
                  (cache_rows[r].alt && figure(recs[c], cache_rows[r].alt));
        if (!any)
            continue;
        fprintf(out, "  %-14s", cache_rows[r].label);
        for (size_t c = first; c < first + count; c++) {
            char buf[CELL];
            cache_cell(buf, recs[c], &cache_rows[r]);
            put_column(out, buf, c + 1 == first + count);
        }
        fputc('\n', out);
    }
}

/* Table 4: one column per `cache` record, in document order; beside it the random walk's Eq. 6
 * levels, a second method on the same hierarchy. */
static void print_caches(FILE *out, const json_t *doc, const json_t *walk)
{
    const json_t *recs[64];
    size_t n = 0, i;
    const json_t *p;
    fprintf(out, "\nCaches (after Table 4 of Mei et al.; latencies in cycles)\n");
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        const char *name = json_string_value(json_object_get(p, "name"));
        if (name && strcmp(name, "cache") == 0 && n < 64)
            recs[n++] = p;
    }
    if (n == 0)
        fprintf(out, "  (no cache records in this document)\n");
    for (size_t first = 0; first < n; first += CACHE_COLUMNS)
        print_cache_block(out, recs, first, n - first < CACHE_COLUMNS ? n - first : CACHE_COLUMNS);
    char caps[CELL], Lam[CELL];
    cell_list(caps, walk, "global_capacities_bytes", true);
    cell_list(Lam, walk, "global_latencies_cycles", false);
    fprintf(out, "  Random walk, Eq. 6 fit (global): capacities %s, latencies %s\n", caps, Lam);
}

/* The L1's store policy per load path, when a write-policy record is in the document. */
static void print_stores(FILE *out, const json_t *doc)
{
    static const char *const paths[] = {"default", "ca", "cg", "cv", "nc"};
    const json_t *rec = find_record(doc, "write-policy");
    if (!rec)
        return;
    fprintf(out, "\nL1 stores (write-policy; latencies in cycles)\n");
    fprintf(out, "  %-9s %-16s %-15s %-22s %s\n", "Path", "write-allocate", "write policy",
            "store to a line in L1", "L1 hit / L2 hit");
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        char name[64], alloc[2 * CELL + 4], unit[CELL], policy[CELL], hit[CELL], l1[CELL],
            l2[CELL];
        snprintf(name, sizeof name, "%s_write_allocate", paths[i]);
        if (!figure(rec, name))
            continue;
        cell(alloc, rec, name, false);
        snprintf(name, sizeof name, "%s_allocate_unit", paths[i]);
        if (figure(rec, name)) {
            cell(unit, rec, name, false);
            size_t used = strlen(alloc);
            snprintf(alloc + used, sizeof alloc - used, " (%s)", unit);
        }
        snprintf(name, sizeof name, "%s_write_policy", paths[i]);
        cell(policy, rec, name, false);
        snprintf(name, sizeof name, "%s_store_hit", paths[i]);
        cell(hit, rec, name, false);
        snprintf(name, sizeof name, "%s_hit_cycles", paths[i]);
        cell(l1, rec, name, false);
        snprintf(name, sizeof name, "%s_l2_cycles", paths[i]);
        cell(l2, rec, name, false);
        fprintf(out, "  %-9s %-16s %-15s %-22s %s / %s\n", paths[i], alloc, policy, hit, l1, l2);
    }
}

void gs_report_summary(FILE *out, const json_t *doc)
{
    const json_t *bw = find_record(doc, "bandwidth"), *walk = find_record(doc, "random-walk");
    fprintf(out, "\nPerformance report (after Table III of Lemeire et al.): performance in Gop/s, "
            "bandwidth in GB/s,\nlatencies in cycles. issue λ: cycles between two independent "
            "instructions of a warp (throughput);\ncompletion Λ: cycles until a result can be "
            "used (latency). a/b/c: at ILP 1/2/4 (independent\ninstructions per warp), or one "
            "value per level from the fastest to memory. n/d (nd within\na/b/c): not determined (the "
            "probe's section says why); -: not measured.\n\n");
    print_computations(out, doc);
    print_global(out, bw, walk);
    print_space(out, walk, "shared", "Shared memory (OpenCL's local memory, as the paper names it)");
    print_space(out, walk, "constant", "Constant memory");
    print_space(out, walk, "local", "Local memory (per-thread; OpenCL's private memory in the paper)");
    print_caches(out, doc, walk);
    print_stores(out, doc);
}
