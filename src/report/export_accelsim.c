/* A GPGPU-Sim / Accel-Sim configuration fragment made from a result document (export_accelsim.h).
 * The reference for every option's format is GPGPU-Sim's published H100 configuration,
 * gpgpu-sim/gpgpu-sim_distribution configs/tested-cfgs/SM90_H100/gpgpusim.config at commit
 * baf2b8f0390342ff6bab23917d21e40a4780b2fb, with Accel-Sim's trace.config (accel-sim/
 * accel-sim-framework, 618c2ef869fa6e4698ac7547bc9f967f8213cd45); docs/accel-sim-export.md
 * says why these commits. Latencies follow Accel-Sim's tuner
 * (util/tuner/GPU_Microbenchmark): -gpgpu_l2_rop_latency = L2 hit - L1 hit, -dram_latency =
 * memory latency - L2 hit. A cache string is
 *   <N|S>:<nsets>:<line>:<assoc>,<rep L|F>:<write>:<alloc>:<write alloc>:<set index>,<mshr..>
 * (gpu-cache.h, cache_config::init): gpusonar fills the type (S = 4 sectors of 32 B), sets, line,
 * ways, replacement and set-index letters; write and allocation policies and MSHR/queue fields
 * are not measured and are the reference's, as each line's comment says. Figures the document
 * does not determine, or that GPGPU-Sim cannot express, become comment lines saying so; a cache
 * whose capacity and line were measured still gets the nearest line GPGPU-Sim can express, after
 * a comment naming every field that is not the measured one.
 * Every string from the document (device name, reasons, policy and mapping names) goes into a
 * comment through gs_esc (util/escape.h): a newline in it would start a line GPGPU-Sim reads as
 * an option. */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/export_accelsim.h"
#include "report/report.h"
#include "util/escape.h"

#define REFERENCE "gpgpu-sim/gpgpu-sim_distribution@baf2b8f0390342ff6bab23917d21e40a4780b2fb " \
                  "configs/tested-cfgs/SM90_H100/gpgpusim.config"
#define REFERENCE_UNITS 4   /* the reference's -gpgpu_num_{sp,int,dp,sfu,tensor_core}_units */

/* One cache option: which record fills it and what the reference has for what is not measured. */
typedef struct cache_spec {
    const char *option;
    const char *record;
    const char *what;
    const char *policies;     /* <write>:<alloc>:<write alloc> */
    const char *mshr;         /* <mshr type>:<entries>:<merge>,<miss queue>:<fifo>[,<port>] */
    unsigned reference_sets;  /* the reference's nsets */
    const char *reference;
} cache_spec;

static const cache_spec caches[] = {
    {"-gpgpu_cache:dl1", "cache:l1", "L1 data cache", "T:m:L", "A:512:64,16:0,32", 4,
     "S:4:128:64,L:T:m:L:L,A:512:64,16:0,32"},
    {"-gpgpu_tex_cache:l1", "cache:tex", "texture cache", "R:m:N", "T:512:8,128:2", 4,
     "N:4:128:256,L:R:m:N:L,T:512:8,128:2"},
    {"-gpgpu_const_cache:l1", "cache:const1", "constant cache (first level)", "R:f:N", "S:2:64,4",
     128, "N:128:64:8,L:R:f:N:L,S:2:64,4"},
    {"-gpgpu_cache:dl2", "cache:l2", "L2 cache, per memory sub-partition", "B:m:L",
     "A:384:4,32:0,32", 256, "S:256:128:20,L:B:m:L:X,A:384:4,32:0,32"},
};

/* ---- reading the document ---------------------------------------------------------------------- */


static const json_t *value_of(const json_t *rec, const char *name)
{
    return json_object_get(json_object_get(json_object_get(rec, "figures"), name), "value");
}

/* The number figure `name` of rec, or false with why it is missing in why. */
static bool number(const json_t *rec, const char *key, const char *name, double *v, char *why,
                   size_t len)
{
    const json_t *f = json_object_get(json_object_get(rec, "figures"), name);
    const json_t *val = json_object_get(f, "value");
    const char *reason = json_string_value(json_object_get(f, "reason"));
    if (json_is_number(val)) {
        *v = json_number_value(val);
        return true;
    }
    if (!rec)
        snprintf(why, len, "the document has no %s record", key);
    else if (!f)
        snprintf(why, len, "%s.%s is not in the document", key, name);
    else
        snprintf(why, len, "%s.%s: %s", key, name, reason ? gs_esc(reason) : "not determined");
    return false;
}

/* Whether v fits a field GPGPU-Sim reads with %u: a whole number from 1 to 2^32 - 1. */
static bool config_count(double v)
{
    return v >= 1 && v <= 4294967295.0 && v == floor(v);
}

static bool pow2(double n)
{
    return n >= 1 && n <= 9223372036854775808.0 && n == floor(n) &&
           !((unsigned long long)n & ((unsigned long long)n - 1));
}

/* ---- caches -------------------------------------------------------------------------------------- */

typedef enum { CACHE_OK, CACHE_UNDETERMINED, CACHE_INEXPRESSIBLE } cache_outcome;

typedef struct cache_fields {
    char type, replacement, set_index;
    double size, line, sector, sets, ways;
    const char *note;         /* added to the "measured" comment, or NULL */
} cache_fields;

/* The type letter from line, sector and fetch: S for 4 sectors of 32 B, N for a line without
 * sectors. A document without a sector figure (before fetch_bytes) means an unsectored line. A
 * sector the document leaves not determined is not replaced by the fetch (a 64-B fetch may be two
 * 32-B sectors): N where a miss fetches the whole line (what GPGPU-Sim's N line does, noted in
 * c->note), else not determined. */
static cache_outcome type_letter(const json_t *rec, const char *key, cache_fields *c, char *why,
                                 size_t len)
{
    const json_t *f = json_object_get(json_object_get(rec, "figures"), "sector_bytes");
    double fetch = 0;
    if (!f) {
        c->type = 'N';
        return CACHE_OK;
    }
    if (!number(rec, key, "sector_bytes", &c->sector, why, len)) {
        char unused[256];
        if (number(rec, key, "fetch_bytes", &fetch, unused, sizeof unused) && fetch == c->line) {
            c->type = 'N';
            c->note = "; sector not determined, but a miss fetches the whole line, as an N line "
                      "does";
            return CACHE_OK;
        }
        size_t n = strlen(why);
        snprintf(why + n, len - n, "; GPGPU-Sim's type (S: 32-B sectors, N: none) needs the "
                 "sector, and the fetch is not it");
        return CACHE_UNDETERMINED;
    }
    if (c->sector == c->line) {
        c->type = 'N';
        return CACHE_OK;
    }
    if (c->sector == 32 && c->line == 128) {
        c->type = 'S';
        return CACHE_OK;
    }
    snprintf(why, len, "%g-B sectors in %g-B lines; GPGPU-Sim's sector cache has 4 sectors of "
             "32 B", c->sector, c->line);
    return CACHE_INEXPRESSIBLE;
}

static cache_outcome replacement_letter(const json_t *rec, const char *key, cache_fields *c,
                                        char *why, size_t len)
{
    const char *policy = json_string_value(value_of(rec, "policy"));
    if (!policy) {
        double unused;
        number(rec, key, "policy", &unused, why, len);
        return CACHE_UNDETERMINED;
    }
    if (strcmp(policy, "lru") == 0 || strcmp(policy, "fifo") == 0) {
        c->replacement = policy[0] == 'l' ? 'L' : 'F';
        return CACHE_OK;
    }
    snprintf(why, len, "replacement policy %s; GPGPU-Sim has L (LRU) and F (FIFO)",
                 gs_esc(policy));
    return CACHE_INEXPRESSIBLE;
}

/* L (linear) when the index is the address bits just above the line; anything else is not one
 * of GPGPU-Sim's set-index functions as far as gpusonar can tell. */
static cache_outcome index_letter(const json_t *rec, const char *key, cache_fields *c, char *why,
                                  size_t len)
{
    const json_t *m = value_of(rec, "mapping");
    if (json_is_string(m) && strcmp(json_string_value(m), "modulo") == 0) {
        c->set_index = 'L';   /* modulo a power of two is the bits above the line */
        return CACHE_OK;
    }
    if (json_is_array(m)) {
        double first = log2(c->line);
        bool linear = json_array_size(m) == (size_t)log2(c->sets);
        for (size_t i = 0; linear && i < json_array_size(m); i++)
            linear = json_number_value(json_array_get(m, i)) == first + (double)i;
        if (linear) {
            c->set_index = 'L';
            return CACHE_OK;
        }
        snprintf(why, len, "the set index is address bits that are not the %g bits above the "
                 "line; GPGPU-Sim's L index takes those", log2(c->sets));
        return CACHE_INEXPRESSIBLE;
    }
    if (json_is_string(m)) {
        snprintf(why, len, "a %s set index; GPGPU-Sim's X (XOR), P (ipoly) and H (Fermi) hashes "
                 "are fixed functions gpusonar did not identify", gs_esc(json_string_value(m)));
        return CACHE_INEXPRESSIBLE;
    }
    double unused;
    number(rec, key, "mapping", &unused, why, len);
    return CACHE_UNDETERMINED;
}

/* Fill c from record rec; divide: sub-partitions the sets are split over (1 for per-SM caches). */
static cache_outcome read_cache(const json_t *rec, const char *key, unsigned divide,
                                cache_fields *c, char *why, size_t len)
{
    cache_outcome o;
    const char *size = value_of(rec, "size_bytes") ? "size_bytes" : "usable_size_bytes";
    if (!number(rec, key, size, &c->size, why, len) ||
        !number(rec, key, "line_bytes", &c->line, why, len))
        return CACHE_UNDETERMINED;
    if (!config_count(c->line) || !pow2(c->line)) {
        snprintf(why, len, "%g-B lines; GPGPU-Sim's line is a power of two bytes", c->line);
        return CACHE_INEXPRESSIBLE;
    }
    if (json_is_array(value_of(rec, "ways_per_set"))) {
        snprintf(why, len, "sets of unequal ways; GPGPU-Sim's sets are equal");
        return CACHE_INEXPRESSIBLE;
    }
    if (!number(rec, key, "sets", &c->sets, why, len) ||
        !number(rec, key, "ways", &c->ways, why, len))
        return CACHE_UNDETERMINED;
    if (!config_count(c->ways)) {
        snprintf(why, len, "%g ways; GPGPU-Sim reads a whole number from 1 to 2^32-1", c->ways);
        return CACHE_INEXPRESSIBLE;
    }
    char type_why[512] = "";
    cache_outcome type = type_letter(rec, key, c, type_why, sizeof type_why);
    if ((o = replacement_letter(rec, key, c, why, len)))
        return o;
    if (divide > 1 && fmod(c->sets, divide) != 0) {
        snprintf(why, len, "%g sets do not split evenly over %u sub-partitions", c->sets, divide);
        return CACHE_INEXPRESSIBLE;
    }
    if (!pow2(c->sets / divide) || !config_count(c->sets / divide)) {
        snprintf(why, len, "%g sets%s; GPGPU-Sim's set index functions take the index modulo a "
                 "power of two", c->sets / divide, divide > 1 ? " per sub-partition" : "");
        return CACHE_INEXPRESSIBLE;
    }
    if (divide > 1)
        c->set_index = 'X';   /* per sub-partition: the whole L2's mapping does not carry over */
    else if ((o = index_letter(rec, key, c, why, len)))
        return o;
    if (type != CACHE_OK)                /* last: what cannot be expressed comes first */
        snprintf(why, len, "%s", type_why);
    return type;
}

/* The reference's sub-partitions (-gpgpu_n_mem 40 x -gpgpu_n_sub_partition_per_mchannel 2): the
 * nearest L2 line's divisor when --l2-sub-partitions is not given. */
#define REFERENCE_SUB_PARTITIONS 80

/* A field of the nearest line that is not what was measured, appended to note ("; " between). */
static void note_add(char *note, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void note_add(char *note, size_t len, const char *fmt, ...)
{
    size_t used = strlen(note);
    if (used)
        used += (size_t)snprintf(note + used, len - used, "; ");
    if (used >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + used, len - used, fmt, ap);
    va_end(ap);
}

/* The nearest line GPGPU-Sim can express for a cache whose exact line could not be written:
 * the measured capacity and line in every case; the measured sets and ways where they fit
 * GPGPU-Sim (a power of two per sub-partition), else the reference's sets and the ways that keep
 * the capacity; LRU for a replacement GPGPU-Sim does not have (segmented LRU, PLRU and the like
 * are nearest to it); the reference's set index and type for those not determined or not
 * expressible (X, GPGPU-Sim's XOR hash, for a measured XOR). note says every field that is not
 * the measured one. False when the capacity or the line is not determined. */
static bool nearest_cache(const json_t *rec, const cache_spec *s, unsigned divide,
                          cache_fields *c, char *note, size_t len)
{
    char why[512];
    cache_fields m = {0};
    const char *size = value_of(rec, "size_bytes") ? "size_bytes" : "usable_size_bytes";
    if (!number(rec, s->record, size, &m.size, why, sizeof why) ||
        !number(rec, s->record, "line_bytes", &m.line, why, sizeof why) ||
        !config_count(m.line) || !pow2(m.line) || !(m.size >= m.line))
        return false;
    *c = m;
    note[0] = '\0';
    bool geometry = number(rec, s->record, "sets", &m.sets, why, sizeof why) &&
                    number(rec, s->record, "ways", &m.ways, why, sizeof why) &&
                    config_count(m.ways) && fmod(m.sets, divide) == 0 && pow2(m.sets / divide) &&
                    config_count(m.sets / divide);
    if (geometry) {
        c->sets = m.sets;
        c->ways = m.ways;
        if (m.sets * m.ways * m.line != m.size)
            note_add(note, len, "the measured %g sets x %g ways x %g B make %.0f B", m.sets,
                     m.ways, m.line, m.sets * m.ways * m.line);
    } else {
        c->sets = (double)s->reference_sets * divide;
        c->ways = round(m.size / m.line / c->sets);
        if (!config_count(c->ways))
            return false;   /* no whole number of ways comes near the capacity */
        note_add(note, len, "%u sets%s (the reference's) x %g ways, %.0f B in all",
                 s->reference_sets, divide > 1 ? " per sub-partition" : "", c->ways,
                 c->sets * c->ways * m.line);
    }
    if (type_letter(rec, s->record, &m, why, sizeof why) == CACHE_OK) {
        c->type = m.type;
    } else {
        c->type = s->reference[0] == 'S' && m.line == 128 ? 'S' : 'N';
        note_add(note, len, "type %c (the sector is not determined or not one GPGPU-Sim has)",
                 c->type);
    }
    const char *policy = json_string_value(value_of(rec, "policy"));
    if (replacement_letter(rec, s->record, &m, why, sizeof why) == CACHE_OK) {
        c->replacement = m.replacement;
    } else {
        c->replacement = 'L';
        note_add(note, len, "L (LRU) for the replacement %s", policy ? gs_esc(policy)
                                                                     : "not determined");
    }
    const char *map = json_string_value(value_of(rec, "mapping"));
    m.sets = c->sets;
    if (divide == 1 && geometry && index_letter(rec, s->record, &m, why, sizeof why) == CACHE_OK) {
        c->set_index = m.set_index;
    } else {
        c->set_index = map && strcmp(map, "xor") == 0 ? 'X' : s->reference[strcspn(s->reference, ",") + 9];
        note_add(note, len, "set index %c for %s", c->set_index,
                 divide > 1 ? "the sub-partition (the whole L2's mapping does not carry over)"
                 : map ? gs_esc(map) : "a set index not determined");
    }
    return true;
}

static void write_cache_line(FILE *out, const cache_spec *s, const cache_fields *c, unsigned divide)
{
    fprintf(out, "%s %c:%.0f:%.0f:%.0f,%c:%s:%c,%s\n", s->option, c->type, c->sets / divide,
            c->line, c->ways, c->replacement, s->policies, c->set_index, s->mshr);
}

/* After the comment of why the exact line cannot be written: the nearest line GPGPU-Sim can
 * express, with what was measured and what was put in its place, or the reference alone. */
static void write_nearest(FILE *out, const json_t *rec, const cache_spec *s, unsigned divide,
                          bool reference_divide)
{
    cache_fields c;
    char note[1024];
    if (!nearest_cache(rec, s, divide, &c, note, sizeof note)) {
        fprintf(out, "#   reference: %s %s\n", s->option, s->reference);
        return;
    }
    fprintf(out, "# nearest expressible line: measured %.0f B of %g-B lines%s; %s%s%s; write, "
            "allocation, MSHR and queue fields are the reference's (not measured)\n", c.size,
            c.line, divide > 1 ? " over the whole device" : "", reference_divide ?
            "the reference's 80 sub-partitions (give --l2-sub-partitions N); " : "",
            *note ? "where it differs: " : "", note);
    write_cache_line(out, s, &c, divide);
}

/* A comment with what was measured (whatever the outcome), then the option: the measured line,
 * or why not and the nearest line GPGPU-Sim can express. */
static void write_cache(FILE *out, const json_t *doc, const cache_spec *s,
                        const gs_export_opts *opts)
{
    const json_t *rec = gs_report_find_record(doc, s->record);
    unsigned divide = 1;
    cache_fields c = {0};
    char why[512] = "";
    fprintf(out, "\n# %s (%s)\n", s->what, s->record);
    if (strcmp(s->record, "cache:l2") == 0) {
        divide = opts ? opts->l2_sub_partitions : 0;
        if (!divide) {
            if (number(rec, s->record, "sets", &c.sets, why, sizeof why))
                fprintf(out, "# measured over the whole device: %g sets x %g ways x %g B\n",
                        c.sets, json_number_value(value_of(rec, "ways")),
                        json_number_value(value_of(rec, "line_bytes")));
            fprintf(out, "# %s not determined: GPGPU-Sim's dl2 is per memory sub-partition; give "
                    "--l2-sub-partitions N (-gpgpu_n_mem x -gpgpu_n_sub_partition_per_mchannel; "
                    "the reference has 40 x 2)\n", s->option);
            write_nearest(out, rec, s, REFERENCE_SUB_PARTITIONS, true);
            return;
        }
    }
    cache_outcome o = read_cache(rec, s->record, divide, &c, why, sizeof why);
    if (o != CACHE_OK) {
        fprintf(out, "# %s %s: %s\n", s->option, o == CACHE_UNDETERMINED ? "not determined"
                : "not expressible", why);
        write_nearest(out, rec, s, divide, false);
        return;
    }
    fprintf(out, "# measured: %g B = %g sets x %g ways x %g-B lines%s%s; write, allocation, MSHR "
            "and queue fields are the reference's (not measured)\n", c.size, c.sets, c.ways,
            c.line, c.type == 'S' ? " of 32-B sectors" : "", c.note ? c.note : "");
    if (divide > 1)
        fprintf(out, "# %u sub-partitions (--l2-sub-partitions); set index X as in the reference "
                "(the whole L2's mapping does not carry over to a sub-partition)\n", divide);
    write_cache_line(out, s, &c, divide);
}

/* ---- latencies, shared memory, clock, device ------------------------------------------------------- */

static void option_or_why(FILE *out, const char *option, bool ok, double v, const char *why)
{
    v = round(v);
    if (ok)
        fprintf(out, "%s %.0f\n", option, v > 0 ? v : 0.0);   /* never "-0" */
    else
        fprintf(out, "# %s not determined: %s\n", option, why);
}

static void write_latencies(FILE *out, const json_t *doc)
{
    const json_t *l1 = gs_report_find_record(doc, "cache:l1"), *l2 = gs_report_find_record(doc, "cache:l2");
    const json_t *banks = gs_report_find_record(doc, "smem-banks");
    double v1 = 0, v2 = 0, v = 0;
    char why[512];
    bool ok;
    fprintf(out, "\n# memory latencies in SM cycles (as Accel-Sim's tuner derives them)\n");
    ok = number(l1, "cache:l1", "hit_latency_cycles", &v1, why, sizeof why);
    option_or_why(out, "-gpgpu_l1_latency", ok, v1, why);
    ok = number(l2, "cache:l2", "hit_latency_cycles", &v2, why, sizeof why) &&
         number(l1, "cache:l1", "hit_latency_cycles", &v1, why, sizeof why);
    fprintf(out, "# L2 hit latency - L1 hit latency\n");
    option_or_why(out, "-gpgpu_l2_rop_latency", ok, v2 - v1, why);
    fprintf(out, "# DRAM latency - L2 hit latency: the L2's miss penalty\n");
    ok = number(l2, "cache:l2", "miss_penalty_cycles", &v, why, sizeof why);
    option_or_why(out, "-dram_latency", ok, v, why);
    fprintf(out, "\n# shared memory\n");
    ok = number(banks, "smem-banks", "latency_w4_stride1_cycles", &v, why, sizeof why);
    option_or_why(out, "-gpgpu_smem_latency", ok, v, why);
    ok = number(banks, "smem-banks", "banks", &v, why, sizeof why);
    option_or_why(out, "-gpgpu_shmem_num_banks", ok, v, why);
    if (number(banks, "smem-banks", "bank_width_bytes", &v, why, sizeof why) && v != 4)
        fprintf(out, "# banks are %g B wide; GPGPU-Sim's banks are 4 B wide (no option)\n", v);
    const char *rule = json_string_value(value_of(banks, "broadcast_rule"));
    if (rule)
        fprintf(out, "-gpgpu_shmem_limited_broadcast %d\n", strcmp(rule, "single") == 0);
    else
        fprintf(out, "# -gpgpu_shmem_limited_broadcast not determined: %s\n",
                banks ? "smem-banks.broadcast_rule is not determined" : "no smem-banks record");
}

static void write_clock_and_device(FILE *out, const json_t *doc)
{
    const json_t *dev = json_object_get(doc, "device"), *clock = gs_report_find_record(doc, "clock");
    const json_t *mem = json_object_get(dev, "mem_clock_khz");
    double khz;
    char why[512];
    fprintf(out, "\n# clocks in MHz: core (measured), interconnect and L2 at the core clock, DRAM "
            "(the driver's), as Accel-Sim's tuner writes them\n");
    if (!number(clock, "clock", "sm_clock_khz", &khz, why, sizeof why))
        fprintf(out, "# -gpgpu_clock_domains not determined: %s\n", why);
    else if (!(khz >= 1000 && khz <= 1e12))
        fprintf(out, "# -gpgpu_clock_domains not determined: a core clock of %g kHz\n", khz);
    else if (!json_is_number(mem) || json_number_value(mem) <= 0)
        fprintf(out, "# -gpgpu_clock_domains not determined: the device reports no memory clock "
                "(core clock measured %.0f MHz)\n", khz / 1000);
    else
        fprintf(out, "-gpgpu_clock_domains %.0f:%.0f:%.0f:%.0f\n", khz / 1000, khz / 1000,
                khz / 1000, json_number_value(mem) / 1000);
    const char *cc = json_string_value(json_object_get(dev, "compute_capability"));
    int major = 0, minor = 0;
    fprintf(out, "\n# device properties as the driver (or the model) reports them\n");
    if (cc && sscanf(cc, "%d.%d", &major, &minor) == 2 && major >= 1 && minor >= 0)
        fprintf(out, "-gpgpu_compute_capability_major %d\n-gpgpu_compute_capability_minor %d\n",
                major, minor);
    static const char *const props[][2] = {
        {"-gpgpu_n_clusters", "sm_count"}, {"-gpgpu_shader_registers", "regs_per_sm"},
        {"-gpgpu_shader_cta", "max_blocks_per_sm"}, {"-gpgpu_shmem_size", "smem_per_sm_bytes"},
        {"-gpgpu_shmem_sizeDefault", "smem_per_sm_bytes"},
        {"-gpgpu_shmem_per_block", "smem_per_block_bytes"},
    };
    for (size_t i = 0; i < sizeof props / sizeof *props; i++) {
        const json_t *v = json_object_get(dev, props[i][1]);
        if (json_is_number(v) && json_number_value(v) > 0)
            fprintf(out, "%s %.0f\n", props[i][0], json_number_value(v));
    }
    const json_t *t = json_object_get(dev, "max_threads_per_sm"), *w = json_object_get(dev, "warp_size");
    if (json_is_number(t) && json_is_number(w))
        fprintf(out, "-gpgpu_shader_core_pipeline %.0f:%.0f\n", json_number_value(t),
                json_number_value(w));
}

/* ---- pipeline ---------------------------------------------------------------------------------------- */

/* The instruction table's record of class `type` (pipeline --table: "itable", level = class). */
static const json_t *table_record(const json_t *doc, const char *type)
{
    size_t i;
    const json_t *rec;
    json_array_foreach(json_object_get(doc, "probes"), i, rec) {
        const char *name = json_string_value(json_object_get(rec, "name"));
        const char *level = json_string_value(json_object_get(json_object_get(rec, "params"),
                                                              "level"));
        if (name && level && strcmp(name, "itable") == 0 && strcmp(level, type) == 0)
            return rec;
    }
    return NULL;
}

/* Lambda (completion) and the initiation interval lambda x units of instruction type `type`:
 * the instruction table's figures where it measured both, else the sweep's (pipeline record). */
static bool pipe_pair(const json_t *doc, const json_t *rec, const char *type, long *latency,
                      long *initiation)
{
    char name[64];
    const json_t *t = table_record(doc, type);
    const json_t *big = value_of(t, "Lambda_cycles"), *small = value_of(t, "lambda_cycles");
    if (!json_is_number(big) || !json_is_number(small)) {
        snprintf(name, sizeof name, "%s_Lambda_cycles", type);
        big = value_of(rec, name);
        snprintf(name, sizeof name, "%s_lambda_cycles", type);
        small = value_of(rec, name);
    }
    if (!json_is_number(big) || !json_is_number(small))
        return false;
    /* GPGPU-Sim reads %u: a figure past 10^9 cycles is not a latency, and lround must not see
     * what a long cannot hold */
    *latency = lround(fmin(fmax(json_number_value(big), 1), 1e9));
    *initiation = lround(fmin(fmax(json_number_value(small) * REFERENCE_UNITS, 1), 1e9));
    return true;
}

/* GPGPU-Sim reads six integer values, ADD,MAX,MUL,MAD,DIV,SHFL (shader.cc, since 2019), and five
 * for fp and dp; the reference gives five for int, which leaves SHFL uninitialised. */
#define PTX_VALUES_MAX 6

/* One "-ptx_opcode_latency_X a,b,c,d,e[,f]" and its "-ptx_opcode_initiation_X" line: positions
 * ADD,MAX,MUL,MAD,DIV[,SHFL]; measured types fill theirs, the rest stay as in ref_lat, ref_init. */
static void ptx_lines(FILE *out, const json_t *doc, const json_t *rec, const char *cls, int count,
                      const char *const types[], const long ref_lat[], const long ref_init[],
                      const char *others)
{
    static const char *const pos[PTX_VALUES_MAX] = {"ADD", "MAX", "MUL", "MAD", "DIV", "SHFL"};
    long lat[PTX_VALUES_MAX], init[PTX_VALUES_MAX];
    char from[160] = "", names[64] = "";
    bool any = false;
    for (int i = 0; i < count; i++) {
        lat[i] = ref_lat[i];
        init[i] = ref_init[i];
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? "," : "", pos[i]);
        if (types[i] && pipe_pair(doc, rec, types[i], &lat[i], &init[i])) {
            any = true;
            snprintf(from + strlen(from), sizeof from - strlen(from), "%s%s=%s", *from ? ", " : "",
                     pos[i], types[i]);
        }
    }
    if (!any) {
        fprintf(out, "# -ptx_opcode_latency_%s not determined: no pipeline figures for it\n", cls);
        return;
    }
    fprintf(out, "# %s: measured %s; %s\n", names, from, others);
    const char *const what[2] = {"latency", "initiation"};
    for (int k = 0; k < 2; k++) {
        const long *v = k ? init : lat;
        fprintf(out, "-ptx_opcode_%s_%s ", what[k], cls);
        for (int i = 0; i < count; i++)
            fprintf(out, "%s%ld", i ? "," : "", v[i]);
        fputc('\n', out);
    }
}

static void write_pipeline(FILE *out, const json_t *doc)
{
    const json_t *rec = gs_report_find_record(doc, "pipeline");
    fprintf(out, "\n# pipeline: latency = Lambda (completion), initiation = lambda (issue, per SM) x "
            "%d units per SM (the reference's -gpgpu_num_*_units; gpusonar does not count units)\n",
            REFERENCE_UNITS);
    if (!rec && !gs_report_find_record(doc, "itable")) {
        fprintf(out, "# -ptx_opcode_latency_* and -trace_opcode_latency_initiation_* not "
                "determined: the document has no pipeline record\n");
        return;
    }
    /* Positions ADD,MAX,MUL,MAD,DIV[,SHFL]: IADD3 for ADD, IMAD for MUL and MAD, SHFL.IDX for
     * SHFL; FADD, FMNMX, FMUL, FFMA; DADD, DMUL, DFMA. The table's figures where it has them
     * (pipeline --table), else the sweep's; DIV (a software sequence) and the integer MAX are not
     * measured. */
    static const char *const ints[6] = {"iadd", NULL, "imul", "imul", NULL, "shfl"};
    static const char *const fps[5] = {"fadd", "fmnmx", "fmul", "ffma", NULL};
    static const char *const dps[5] = {"dadd", NULL, "dmul", "dfma", NULL};
    /* the reference's five integer values, then GPGPU-Sim's own default for SHFL (32, 4) */
    static const long int_lat[6] = {4, 4, 4, 4, 21, 32}, int_init[6] = {2, 2, 2, 2, 2, 4};
    static const long fp_lat[5] = {4, 4, 4, 4, 39}, fp_init[5] = {2, 2, 2, 2, 4};
    static const long dp_lat[5] = {8, 8, 8, 8, 330}, dp_init[5] = {2, 2, 2, 2, 130};
    ptx_lines(out, doc, rec, "int", 6, ints, int_lat, int_init, "the others are the reference's; "
              "SHFL, where not measured, GPGPU-Sim's default (the reference gives five values, "
              "which leaves SHFL uninitialised)");
    ptx_lines(out, doc, rec, "fp", 5, fps, fp_lat, fp_init, "the others are the reference's");
    ptx_lines(out, doc, rec, "dp", 5, dps, dp_lat, dp_init, "the others are the reference's");
    static const char *const singles[][3] = {
        {"-ptx_opcode_latency_sfu", "-ptx_opcode_initiation_sfu", "sfu-sin"},
        {"-ptx_opcode_latency_tesnor", "-ptx_opcode_initiation_tensor", "mma"},
    };
    for (size_t i = 0; i < 2; i++) {
        long lat, init;
        if (pipe_pair(doc, rec, singles[i][2], &lat, &init))
            fprintf(out, "%s %ld\n%s %ld\n", singles[i][0], lat, singles[i][1], init);
        else
            fprintf(out, "# %s not determined: %s is not in the pipeline record\n", singles[i][0],
                    singles[i][2]);
    }
    static const char *const trace[][2] = {
        {"int", "iadd"}, {"sp", "ffma"}, {"dp", "dfma"}, {"sfu", "sfu-sin"}, {"tensor", "mma"},
    };
    fprintf(out, "\n# trace.config (Accel-Sim's SASS mode): latency,initiation\n");
    for (size_t i = 0; i < sizeof trace / sizeof *trace; i++) {
        long lat, init;
        if (pipe_pair(doc, rec, trace[i][1], &lat, &init))
            fprintf(out, "-trace_opcode_latency_initiation_%s %ld,%ld\n", trace[i][0], lat, init);
        else
            fprintf(out, "# -trace_opcode_latency_initiation_%s not determined: %s is not in the "
                    "pipeline record\n", trace[i][0], trace[i][1]);
    }
}

int gs_export_accelsim(FILE *out, const json_t *doc, const gs_export_opts *opts, gs_error *err)
{
    const char *schema = json_string_value(json_object_get(doc, "schema"));
    if (!schema || strcmp(schema, "gpusonar/1") != 0 || !json_is_array(json_object_get(doc, "probes")))
        return gs_fail(err, GS_ERR_INPUT, "not a gpusonar result document (schema gpusonar/1)");
    const json_t *dev = json_object_get(doc, "device");
    const char *name = json_string_value(json_object_get(dev, "name"));
    const char *when = json_string_value(json_object_get(doc, "time_utc"));
    fprintf(out, "# GPGPU-Sim / Accel-Sim configuration fragment made by gpusonar from a result "
            "document\n# device: %s%s; measured %s\n# format and defaults: %s\n# lines starting "
            "with '#' are comments: what was measured, and options not determined or not "
            "expressible\n", name ? gs_esc(name) : "?",
            json_is_true(json_object_get(dev, "simulated")) ? " (SIMULATED)" : "",
            when ? gs_esc(when) : "?", REFERENCE);
    if (!json_is_true(json_object_get(doc, "complete")))
        fprintf(out, "# the document is incomplete: %s\n",
                json_string_value(json_object_get(doc, "incomplete_reason"))
                    ? gs_esc(json_string_value(json_object_get(doc, "incomplete_reason"))) : "?");
    write_clock_and_device(out, doc);
    for (size_t i = 0; i < sizeof caches / sizeof *caches; i++)
        write_cache(out, doc, &caches[i], opts);
    write_latencies(out, doc);
    write_pipeline(out, doc);
    return ferror(out) ? gs_fail(err, GS_ERR_IO, "cannot write the configuration fragment") : 0;
}
