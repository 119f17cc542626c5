/* The names of plans' enums (src/plan.h), as the command line and JSON spell them. */
#include "plan.h"

#include <string.h>

static const char *const space_names[] = {"global", "shared", "constant", "local", "texture"};
static const char *const path_names[GS_PATH_COUNT] = {"default", "ca", "cg", "cv", "nc",
                                                      "tex", "const", "shared", "local"};
static const char *const instr_names[GS_INSTR_COUNT] = {
    "fadd", "ffma", "iadd", "imul", "dfma", "sfu-sin", "sfu-rsqrt", "sw-sin", "hfma2", "mma"};

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

const char *gs_instr_name(gs_instr i)
{
    return (unsigned)i < GS_INSTR_COUNT ? instr_names[i] : "?";
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
    "query", "latency", "local-latency", "bandwidth", "bulk-copy", "vector-copy"};

const char *gs_cluster_kind_name(gs_cluster_kind k)
{
    return (unsigned)k < GS_CLUSTER_KIND_COUNT ? cluster_kind_names[k] : "?";
}

static const char *const persist_mode_names[GS_PERSIST_MODE_COUNT] = {
    "query", "none", "persisting", "normal"};

const char *gs_persist_mode_name(gs_persist_mode m)
{
    return (unsigned)m < GS_PERSIST_MODE_COUNT ? persist_mode_names[m] : "?";
}
