/* The names of plans' enums (src/plan.h), as the command line and JSON spell them. */
#include "plan.h"

#include <stdio.h>
#include <string.h>

static const char *const space_names[] = {"global", "shared", "constant", "local", "texture"};
static const char *const path_names[GS_PATH_COUNT] = {"default", "ca", "cg", "cv", "nc",
                                                      "tex", "const", "shared", "local"};
static const char *const instr_names[GS_INSTR_COUNT] = {
    "fadd", "ffma", "iadd", "imul", "dfma", "sfu-sin", "sfu-rsqrt", "sw-sin", "hfma2", "mma",
    "lop3", "shf", "popc", "flo", "brev", "prmt", "fmul", "fmnmx", "sfu-cos", "sfu-ex2",
    "sfu-lg2", "sfu-rcp", "sfu-sqrt", "dadd", "dmul", "hadd2", "f2f-f64", "f2f-f16", "f2i-i2f",
    "shfl", "vote", "match", "redux", "lds", "sts", "ldg", "stg", "ldsm", "atoms", "dpx-max3",
    "dpx-addmax"};
static const char *const instr_sass[GS_INSTR_COUNT] = {
    "FADD", "FFMA", "IADD3", "IMAD", "DFMA", "FMUL.RZ+MUFU.SIN", "MUFU.RSQ", "(software sinf)",
    "HFMA2", "HMMA.16816.F16",
    "LOP3.LUT", "SHF.L.W", "POPC", "FLO.U32", "BREV", "PRMT", "FMUL", "FMNMX",
    "FMUL.RZ+MUFU.COS", "MUFU.EX2", "MUFU.LG2", "MUFU.RCP", "MUFU.SQRT", "DADD", "DMUL", "HADD2+HFMA2.MMA",
    "F2F.F32.F64+F2F.F64.F32", "F2FP.F16.F32.PACK_AB+HADD2.F32", "I2F+F2I", "SHFL.IDX",
    "ISETP+VOTE.ANY", "MATCH.ANY", "REDUX.SUM", "LDS", "STS", "LDG.E.64", "STG.E", "LDSM.16.M88",
    "ATOMS.ADD", "VIMNMX3", "VIADDMNMX"};

const char *gs_space_name(gs_space s)
{
    return (unsigned)s < sizeof space_names / sizeof *space_names ? space_names[s] : "?";
}

const char *gs_path_name(gs_load_path p)
{
    return (unsigned)p < GS_PATH_COUNT ? path_names[p] : "?";
}

int gs_path_parse(const char *name, gs_load_path *out)
{
    for (int i = 0; i < GS_PATH_COUNT; i++)
        if (strcmp(name, path_names[i]) == 0) {
            *out = (gs_load_path)i;
            return 0;
        }
    return -1;
}

bool gs_chase_split_of(const gs_chase_plan *p, gs_chase_split *s)
{
    size_t n = p->chain_len;
    uint64_t warm = p->warmup_accesses ? p->warmup_accesses : (uint64_t)p->warmup_passes * n;
    uint64_t timed = p->timed_accesses ? p->timed_accesses : n;
    memset(s, 0, sizeof *s);
    if (!p->warmup_split || p->space != GS_SPACE_GLOBAL || p->path > GS_PATH_NC ||
        p->walkers > 1 || p->lanes > 1 || p->record_n || n == 0 || warm == 0 || warm > n ||
        timed >= n || (p->physical_bytes && p->physical_bytes < p->footprint_bytes))
        return false;
    /* the warm-up is positions n - warm .. n - 1; the timed ones are 0 .. timed - 1 */
    size_t first = (size_t)(n - warm);
    s->serial_first = first;
    s->serial_n = first < timed ? (size_t)timed - first : 0;
    s->parallel_first = first + s->serial_n;
    s->parallel_n = n - s->parallel_first;
    if (s->parallel_n < 2) {
        memset(s, 0, sizeof *s);
        return false;
    }
    s->segments = s->parallel_n < GS_SPLIT_SEGMENTS ? (unsigned)s->parallel_n : GS_SPLIT_SEGMENTS;
    return true;
}

unsigned gs_chase_window_of(const gs_chase_plan *p)
{
    gs_chase_split s;
    size_t n = p->chain_len;
    uint64_t warm = p->warmup_accesses ? p->warmup_accesses : (uint64_t)p->warmup_passes * n;
    if (p->warmup_window < 2 || p->warmup_window > 32 || p->space != GS_SPACE_GLOBAL ||
        p->path > GS_PATH_NC || p->walkers > 1 || p->lanes > 1 || p->record_n ||
        p->element_bytes != 8 || n <= p->warmup_window || warm != n ||
        (p->physical_bytes && p->physical_bytes < p->footprint_bytes) || gs_chase_split_of(p, &s))
        return 0;
    for (size_t k = 0; k < n; k++)
        if (p->chain[k] % 16 || p->chain[k] + 16 > p->footprint_bytes)
            return 0;
    return p->warmup_window;
}

const char *gs_instr_name(gs_instr i)
{
    return (unsigned)i < GS_INSTR_COUNT ? instr_names[i] : "?";
}

const char *gs_instr_sass(gs_instr i)
{
    return (unsigned)i < GS_INSTR_COUNT ? instr_sass[i] : "?";
}

bool gs_instr_converged(gs_instr i)
{
    return i == GS_INSTR_MMA || i == GS_INSTR_SHFL || i == GS_INSTR_VOTE ||
           i == GS_INSTR_MATCH || i == GS_INSTR_REDUX || i == GS_INSTR_LDSM;
}

bool gs_instr_no_result(gs_instr i)
{
    return i == GS_INSTR_STS || i == GS_INSTR_STG;
}

int gs_instr_parse(const char *name, gs_instr *out)
{
    for (int i = 0; i < GS_INSTR_COUNT; i++)
        if (strcmp(name, instr_names[i]) == 0) {
            *out = (gs_instr)i;
            return 0;
        }
    return -1;
}

static const char *const p2p_kind_names[GS_P2P_KIND_COUNT] = {"query", "ce", "read", "write",
                                                               "latency"};

const char *gs_p2p_kind_name(gs_p2p_kind k)
{
    return (unsigned)k < GS_P2P_KIND_COUNT ? p2p_kind_names[k] : "?";
}

static const char *const atomic_op_names[GS_ATOMIC_OP_COUNT] = {"add", "cas", "exch", "min",
                                                                 "max"};
static const char *const atomic_type_names[GS_ATOMIC_TYPE_COUNT] = {"u32", "u64", "f32", "f64"};
static const char *const atomic_pattern_names[GS_ATOMIC_PATTERN_COUNT] = {
    "chain", "one_address", "distinct", "lines", "same_bank"};

const char *gs_atomic_op_name(gs_atomic_op o)
{
    return (unsigned)o < GS_ATOMIC_OP_COUNT ? atomic_op_names[o] : "?";
}

const char *gs_atomic_type_name(gs_atomic_type t)
{
    return (unsigned)t < GS_ATOMIC_TYPE_COUNT ? atomic_type_names[t] : "?";
}

const char *gs_atomic_pattern_name(gs_atomic_pattern p)
{
    return (unsigned)p < GS_ATOMIC_PATTERN_COUNT ? atomic_pattern_names[p] : "?";
}

bool gs_atomic_op_has_type(gs_atomic_op o, gs_atomic_type t)
{
    switch (o) {
    case GS_ATOMIC_ADD: return (unsigned)t < GS_ATOMIC_TYPE_COUNT;
    case GS_ATOMIC_EXCH: return t == GS_ATOMIC_U32 || t == GS_ATOMIC_U64 || t == GS_ATOMIC_F32;
    case GS_ATOMIC_CAS:
    case GS_ATOMIC_MIN:
    case GS_ATOMIC_MAX: return t == GS_ATOMIC_U32 || t == GS_ATOMIC_U64;
    default: return false;
    }
}

static const char *const cluster_kind_names[GS_CLUSTER_KIND_COUNT] = {
    "query", "latency", "local-latency", "bandwidth", "bulk-copy", "vector-copy",
    "tensor-copy", "bulk-latency", "load-latency", "tensor-latency"};

const char *gs_cluster_kind_name(gs_cluster_kind k)
{
    return (unsigned)k < GS_CLUSTER_KIND_COUNT ? cluster_kind_names[k] : "?";
}

unsigned gs_cluster_transfer_bytes(int i)
{
    return i >= 0 && i < GS_CLUSTER_TRANSFER_SIZES ? 128u << i : 0;
}

int gs_cluster_tensor_box(uint64_t bytes, unsigned *box_words, unsigned *box_rows)
{
    const uint64_t row = GS_CLUSTER_TENSOR_BOX_ROW_BYTES;
    if (bytes < 16 || bytes > 16384 || bytes % 16 || (bytes > row && bytes % row))
        return -1;
    *box_words = (unsigned)((bytes < row ? bytes : row) / 4);
    *box_rows = (unsigned)(bytes < row ? 1 : bytes / row);
    return 0;
}

static const char *const launch_kind_names[GS_LAUNCH_KIND_COUNT] = {
    "stream", "graph", "complete", "sync-idle", "event", "event-elapsed", "grid-sync",
    "cluster-sync"};

const char *gs_launch_kind_name(gs_launch_kind k)
{
    return (unsigned)k < GS_LAUNCH_KIND_COUNT ? launch_kind_names[k] : "?";
}

static const char *const energy_work_names[GS_ENERGY_WORK_COUNT] = {
    "idle", "ffma", "dfma", "hfma2", "mma", "smem", "l1", "l2", "dram", "h2d"};

const char *gs_energy_work_name(gs_energy_work w)
{
    return (unsigned)w < GS_ENERGY_WORK_COUNT ? energy_work_names[w] : "?";
}

static const char *const persist_mode_names[GS_PERSIST_MODE_COUNT] = {
    "query", "none", "persisting", "normal"};

const char *gs_persist_mode_name(gs_persist_mode m)
{
    return (unsigned)m < GS_PERSIST_MODE_COUNT ? persist_mode_names[m] : "?";
}

static const char *const mma_type_names[GS_MMA_TYPE_COUNT] = {"f16", "bf16", "tf32", "e4m3", "s8",
                                                              "f64", "e5m2"};
static const char *const mma_instr_names[GS_MMA_INSTR_COUNT] = {"mma_sync", "wgmma", "mma_sp"};

const char *gs_mma_type_name(gs_mma_type t)
{
    return (unsigned)t < GS_MMA_TYPE_COUNT ? mma_type_names[t] : "?";
}

const char *gs_mma_instr_name(gs_mma_instr i)
{
    return (unsigned)i < GS_MMA_INSTR_COUNT ? mma_instr_names[i] : "?";
}

bool gs_mma_shape(gs_mma_instr i, gs_mma_type t, unsigned *m, unsigned *n, unsigned *k)
{
    /* PTX ISA, "Warp-level matrix shapes" (mma.sp: "Matrix multiply-accumulate operation using
     * mma.sp instruction with sparse matrix A") and "Asynchronous warpgroup level matrix shapes" */
    static const unsigned shapes[GS_MMA_INSTR_COUNT][GS_MMA_TYPE_COUNT][3] = {
        {{16, 8, 16}, {16, 8, 16}, {16, 8, 8}, {16, 8, 32}, {16, 8, 32}, {8, 8, 4}, {0, 0, 0}},
        {{64, 128, 16}, {64, 128, 16}, {64, 128, 8}, {64, 128, 32}, {64, 128, 32}, {0, 0, 0},
         {64, 128, 32}},
        {{16, 8, 32}, {16, 8, 32}, {16, 8, 16}, {16, 8, 64}, {16, 8, 64}, {0, 0, 0}, {0, 0, 0}}};
    if ((unsigned)t >= GS_MMA_TYPE_COUNT || (unsigned)i >= GS_MMA_INSTR_COUNT || !shapes[i][t][0])
        return false;
    *m = shapes[i][t][0], *n = shapes[i][t][1], *k = shapes[i][t][2];
    return true;
}

bool gs_mma_applicable(gs_mma_instr i, gs_mma_type t, int cc_major, int cc_minor, char *why,
                       size_t why_len)
{
    unsigned m, n, k;
    int cc = cc_major * 10 + cc_minor;
    const char *lacks = NULL;
    char shape[64];
    if (!gs_mma_shape(i, t, &m, &n, &k))
        lacks = "no such instruction";
    else if (i == GS_MMA_WGMMA && cc != 90)
        lacks = "no wgmma (warpgroup MMA is sm_90a only)";
    else if (i != GS_MMA_WGMMA && t == GS_MMA_E4M3 && cc < 89)
        lacks = i == GS_MMA_SP ? "no fp8 mma (mma.sp e4m3 needs sm_89)"
                               : "no fp8 mma (mma.sync e4m3 needs sm_89)";
    else if (i != GS_MMA_WGMMA && cc < 80) {
        snprintf(shape, sizeof shape, "no %s m%un%uk%u %s (needs sm_80)",
                 i == GS_MMA_SP ? "mma.sp" : "mma.sync", m, n, k, mma_type_names[t]);
        lacks = shape;
    }
    if (lacks && why && why_len)
        snprintf(why, why_len, "sm_%d%d has %s", cc_major, cc_minor, lacks);
    return lacks == NULL;
}

/* The checks both backends make of a plan before running it (each adds its own limits). */
int gs_write_plan_check(const gs_write_plan *p, gs_error *err)
{
    if (p->path != GS_PATH_DEFAULT && p->path != GS_PATH_CA && p->path != GS_PATH_CG &&
        p->path != GS_PATH_CV && p->path != GS_PATH_NC)
        return gs_fail(err, GS_ERR_USAGE, "write plan: load path '%s'; use default, ca, cg, cv "
                       "or nc", gs_path_name(p->path));
    if (p->line_bytes < 8 || p->line_bytes % 4 || p->store_offset_bytes % 4 ||
        p->load_offset_bytes % 4 || p->store_offset_bytes >= p->line_bytes ||
        p->load_offset_bytes >= p->line_bytes)
        return gs_fail(err, GS_ERR_USAGE, "write plan: offsets %u and %u must be words inside "
                       "the %u-byte line", p->store_offset_bytes, p->load_offset_bytes,
                       p->line_bytes);
    if (p->repeats == 0 || p->evict_stride_bytes == 0 || p->evict_stride_bytes % 4)
        return gs_fail(err, GS_ERR_USAGE, "write plan: repeats and the eviction stride (a "
                       "multiple of 4) must be > 0");
    return 0;
}

int gs_persist_plan_check(const gs_persist_plan *p, const gs_persist_result *out, gs_error *err)
{
    if ((unsigned)p->mode >= GS_PERSIST_MODE_COUNT)
        return gs_fail(err, GS_ERR_USAGE, "persist plan: unknown mode %d", (int)p->mode);
    if (p->mode == GS_PERSIST_QUERY)
        return 0;
    if (!p->chain || p->chain_len == 0 || p->rounds == 0)
        return gs_fail(err, GS_ERR_USAGE, "persist plan: empty chain or no rounds");
    if (p->hot_bytes < 16 || p->hot_bytes % 16 || p->stream_bytes < 16 || p->stream_bytes % 16)
        return gs_fail(err, GS_ERR_USAGE, "persist plan: hot_bytes and stream_bytes must be "
                       "multiples of 16 B");
    if (!out->hot_cycles || !out->warm_cycles || !out->cold_cycles || !out->hot_read_s ||
        !out->warm_read_s || !out->cold_read_s)
        return gs_fail(err, GS_ERR_USAGE, "persist plan: result arrays missing");
    for (size_t i = 0; i < p->chain_len; i++)
        if (p->chain[i] % 8 || p->chain[i] + 8 > p->hot_bytes)
            return gs_fail(err, GS_ERR_USAGE, "persist plan: chain[%zu] = %llu is not an aligned "
                           "offset inside the %llu B hot region", i,
                           (unsigned long long)p->chain[i], (unsigned long long)p->hot_bytes);
    return 0;
}

static int evict_offsets_check(const char *what, const uint64_t *o, size_t n, uint64_t footprint,
                               gs_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (o[i] % 8 || o[i] + 8 > footprint)
            return gs_fail(err, GS_ERR_USAGE, "evict plan: %s[%zu] = %llu is not an 8-byte word "
                           "inside the %llu B footprint", what, i, (unsigned long long)o[i],
                           (unsigned long long)footprint);
    return 0;
}

int gs_evict_plan_check(const gs_evict_plan *p, const gs_evict_result *out, gs_error *err)
{
    if (!p->targets || p->n_targets == 0 || p->n_targets > GS_EVICT_MAX_TARGETS)
        return gs_fail(err, GS_ERR_USAGE, "evict plan: %zu targets (1 to %d)", p->n_targets,
                       GS_EVICT_MAX_TARGETS);
    if (p->repeats == 0 || p->repeats > GS_EVICT_MAX_REPEATS || (p->n_pool && !p->pool))
        return gs_fail(err, GS_ERR_USAGE, "evict plan: %u repeats (1 to %d), or a pool count "
                       "without its offsets", p->repeats, GS_EVICT_MAX_REPEATS);
    if (!out->hit_cycles || !out->probe_cycles)
        return gs_fail(err, GS_ERR_USAGE, "evict plan: no result arrays");
    int rc = evict_offsets_check("targets", p->targets, p->n_targets, p->footprint_bytes, err);
    return rc ? rc : evict_offsets_check("pool", p->pool, p->n_pool, p->footprint_bytes, err);
}

gs_stream_family gs_stream_kind_family(gs_stream_kind k)
{
    switch (k) {
    case GS_STREAM_COPY:
    case GS_STREAM_READ:
    case GS_STREAM_MEMCPY_D2D:
    case GS_STREAM_MEMCPY_H2D:
    case GS_STREAM_MEMCPY_D2H:
        return GS_STREAM_FAMILY_PLAIN;
    case GS_STREAM_LEVEL_READ:
    case GS_STREAM_LEVEL_WRITE:
    case GS_STREAM_LEVEL_COPY:
    case GS_STREAM_LEVEL_SCALE:
    case GS_STREAM_LEVEL_ADD:
    case GS_STREAM_LEVEL_TRIAD:
    case GS_STREAM_SMEM_READ:
        return GS_STREAM_FAMILY_LEVEL;
    case GS_STREAM_STRIDED_READ:
        return GS_STREAM_FAMILY_STRIDED;
    }
    return GS_STREAM_FAMILY_NONE;
}

const char *gs_l1_read_variant_name(unsigned v)
{
    static const char *const names[GS_L1_READ_VARIANTS] = {"wrapped", "linear", "linear-nc",
                                                           "linear-nc-2"};
    return v < GS_L1_READ_VARIANTS ? names[v] : NULL;
}

int gs_stream_level_index(gs_stream_kind k)
{
    switch (k) {
    case GS_STREAM_LEVEL_READ:  return 0;
    case GS_STREAM_LEVEL_WRITE: return 1;
    case GS_STREAM_LEVEL_COPY:  return 2;
    case GS_STREAM_LEVEL_SCALE: return 3;
    case GS_STREAM_LEVEL_ADD:   return 4;
    case GS_STREAM_LEVEL_TRIAD: return 5;
    case GS_STREAM_COPY:
    case GS_STREAM_READ:
    case GS_STREAM_MEMCPY_D2D:
    case GS_STREAM_MEMCPY_H2D:
    case GS_STREAM_MEMCPY_D2H:
    case GS_STREAM_SMEM_READ:
    case GS_STREAM_STRIDED_READ:
        break;
    }
    return -1;
}

uint64_t gs_icache_size(int i)
{
    /* powers of two and the midpoints between them, 4 KB to 256 KB */
    static const uint64_t kb[GS_ICACHE_SIZES] = {4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};
    return i >= 0 && i < GS_ICACHE_SIZES ? kb[i] * 1024 : 0;
}
