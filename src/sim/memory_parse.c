/* Parsing and strict validation of a model file's "memory" section (docs/sim-models.md): cache
 * levels, TLB levels, DRAM, shared-memory latency, per-path extras and the warp-request cost.
 * Every problem is GS_ERR_INPUT with a message that starts with the key path
 * ("memory.caches[1].size_bytes: 32 sets x 4 ways x 128 B = 16384 B, but size is 12288 B"). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/memory.h"
#include "sim/sim.h"

#define WHERE_LEN 160

static int fail_at(gs_error *err, const char *where, const char *key, const char *msg)
{
    return gs_fail(err, GS_ERR_INPUT, "%s.%s: %s", where, key, msg);
}

/* A key path below where ("memory.caches[1]"); long paths are cut, never overflow. */
static void key_path(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void key_path(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* ---- small value readers --------------------------------------------------------------------- */

/* A probability: a number, or a string "a/b" (fractions keep the truth readable: "1/6"). */
static int read_probability(const json_t *v, double *out)
{
    if (json_is_number(v)) {
        *out = json_number_value(v);
        return isfinite(*out) ? 0 : -1;
    }
    long long a, b;
    char extra;
    if (json_is_string(v) && sscanf(json_string_value(v), "%lld/%lld%c", &a, &b, &extra) == 2 &&
        b > 0 && a >= 0) {
        *out = (double)a / (double)b;
        return 0;
    }
    return -1;
}

static int read_uint_array(const json_t *arr, const char *where, const char *key, uint64_t max,
                           uint64_t *out, size_t cap, size_t *n, gs_error *err)
{
    if (!json_is_array(arr) || json_array_size(arr) == 0 || json_array_size(arr) > cap) {
        char msg[96];
        snprintf(msg, sizeof msg, "must be a list of 1 to %zu whole numbers", cap);
        return fail_at(err, where, key, msg);
    }
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            (uint64_t)json_integer_value(v) > max)
            return gs_fail(err, GS_ERR_INPUT, "%s.%s[%zu]: must be a whole number 0..%llu", where,
                           key, i, (unsigned long long)max);
        out[i] = (uint64_t)json_integer_value(v);
    }
    *n = json_array_size(arr);
    return 0;
}

/* A list of load-path names (key "paths" or "uncached_paths") into a bit mask of gs_load_path. */
static int read_path_list(const json_t *obj, const char *where, const char *key, uint32_t dflt,
                          uint32_t *out, gs_error *err)
{
    json_t *arr = json_object_get(obj, key);
    *out = dflt;
    if (!arr)
        return 0;
    if (!json_is_array(arr))
        return fail_at(err, where, key, "must be a list of load-path names");
    *out = 0;
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        gs_load_path p;
        if (!json_is_string(v) || gs_path_parse(json_string_value(v), &p) || p == GS_PATH_SHARED)
            return gs_fail(err, GS_ERR_INPUT, "%s.%s[%zu]: unknown load path; use default, ca, "
                           "cg, cv, nc, tex, const or local", where, key, i);
        *out |= 1u << p;
    }
    return 0;
}

static int read_paths(const json_t *obj, const char *where, uint32_t dflt, uint32_t *out,
                      gs_error *err)
{
    return read_path_list(obj, where, "paths", dflt, out, err);
}

/* ---- mapping ------------------------------------------------------------------------------------ */

static int read_bit_groups(const json_t *arr, const char *where, sim_mapping *map, gs_error *err)
{
    if (!json_is_array(arr) || json_array_size(arr) == 0 ||
        json_array_size(arr) > SIM_MAX_INDEX_BITS)
        return fail_at(err, where, "xor", "must be a list of 1 to 24 bit groups");
    size_t i;
    json_t *grp;
    json_array_foreach(arr, i, grp) {
        uint64_t bits[64];
        size_t n;
        char key[32];
        snprintf(key, sizeof key, "xor[%zu]", i);
        if (read_uint_array(grp, where, key, 63, bits, 64, &n, err))
            return GS_ERR_INPUT;
        map->group_mask[i] = 0;
        for (size_t k = 0; k < n; k++)
            map->group_mask[i] ^= 1ull << bits[k];
    }
    map->nbits = (unsigned)json_array_size(arr);
    return 0;
}

/* "mapping": "modulo" | {"bits": [7, 8]} | {"xor": [[7, 12], [8, 13]]} */
static int read_mapping(const json_t *v, const char *where, sim_mapping *map, gs_error *err)
{
    char mwhere[WHERE_LEN];
    key_path(mwhere, sizeof mwhere, "%s.mapping", where);
    memset(map, 0, sizeof *map);
    if (!v || (json_is_string(v) && strcmp(json_string_value(v), "modulo") == 0))
        return 0;
    if (!json_is_object(v) || json_object_size(v) != 1)
        return gs_fail(err, GS_ERR_INPUT, "%s: must be \"modulo\", {\"bits\": [..]} or "
                       "{\"xor\": [[..], ..]}", mwhere);
    json_t *bits = json_object_get(v, "bits"), *xor = json_object_get(v, "xor");
    if (bits) {
        uint64_t b[SIM_MAX_INDEX_BITS];
        size_t n;
        if (read_uint_array(bits, mwhere, "bits", 63, b, SIM_MAX_INDEX_BITS, &n, err))
            return GS_ERR_INPUT;
        map->kind = SIM_MAP_BITS;
        map->nbits = (unsigned)n;
        for (size_t i = 0; i < n; i++)
            map->group_mask[i] = 1ull << b[i];
        return 0;
    }
    if (xor) {
        map->kind = SIM_MAP_XOR;
        return read_bit_groups(xor, mwhere, map, err);
    }
    return gs_fail(err, GS_ERR_INPUT, "%s: unknown kind; use \"modulo\", \"bits\" or \"xor\"",
                   mwhere);
}

/* ---- geometry: sets, ways, policy --------------------------------------------------------------- */

static int read_ways(const json_t *obj, const char *where, sim_geometry *g, gs_error *err)
{
    json_t *wps = json_object_get(obj, "ways_per_set");
    uint64_t sets = 0, ways = 0;
    if (sim_get_uint(obj, where, "sets", 0, &sets, err) ||
        sim_get_uint(obj, where, "ways", 0, &ways, err))
        return GS_ERR_INPUT;
    if (wps && json_object_get(obj, "ways"))
        return fail_at(err, where, "ways_per_set", "give either ways or ways_per_set, not both");
    if (!wps && !ways)
        return fail_at(err, where, "ways", "missing (ways > 0, or a ways_per_set list)");
    if (wps) {
        if (!json_is_array(wps) || json_array_size(wps) == 0 || json_array_size(wps) > (1u << 24))
            return fail_at(err, where, "ways_per_set", "must be a non-empty list of whole numbers");
        if (sets && sets != json_array_size(wps))
            return fail_at(err, where, "sets", "differs from the length of ways_per_set");
        sets = json_array_size(wps);
    }
    if (sets == 0)
        return fail_at(err, where, "sets", "missing (1..1048576)");
    if (sim_check_range(where, "sets", NULL, (double)sets, err))
        return GS_ERR_INPUT;
    g->sets = (unsigned)sets;
    g->ways_per_set = calloc(sets, sizeof *g->ways_per_set);
    if (!g->ways_per_set)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    for (unsigned s = 0; s < sets; s++) {
        json_t *v = wps ? json_array_get(wps, s) : NULL;
        if (wps && (!json_is_integer(v) || json_integer_value(v) <= 0 ||
                    json_integer_value(v) > SIM_MAX_WAYS))
            return gs_fail(err, GS_ERR_INPUT, "%s.ways_per_set[%u]: must be a whole number 1..%d",
                           where, s, SIM_MAX_WAYS);
        g->ways_per_set[s] = wps ? (unsigned)json_integer_value(v) : (unsigned)ways;
    }
    return 0;
}

/* "protected_ways" of an SLRU or HSLRU store, refused with any other policy; its range against
 * the ways is sim_geometry_check's, for every geometry (a carve-out entry inherits it). */
static int read_protected(const json_t *obj, const char *where, sim_geometry *g, gs_error *err)
{
    json_t *v = json_object_get(obj, "protected_ways");
    if (v && !sim_policy_segmented(g->policy))
        return fail_at(err, where, "protected_ways", "only for \"policy\": \"slru\" or "
                       "\"hslru\"");
    if (!sim_policy_segmented(g->policy))
        return 0;
    if (!v) {
        char msg[64];
        snprintf(msg, sizeof msg, "missing: %s needs it (1 .. ways - 1)",
                 sim_policy_name(g->policy));
        return fail_at(err, where, "protected_ways", msg);
    }
    if (!json_is_integer(v) || json_integer_value(v) < 1 ||
        json_integer_value(v) > SIM_SCAN_MAX_WAYS)
        return fail_at(err, where, "protected_ways", "must be a whole number 1 .. ways - 1");
    g->protected_ways = (unsigned)json_integer_value(v);
    return 0;
}

static int read_policy(const json_t *obj, const char *where, sim_geometry *g, gs_error *err)
{
    const char *name = "lru";
    if (sim_get_string(obj, where, "policy", 0, &name, err))
        return GS_ERR_INPUT;
    int found = -1;
    for (int i = 0; i < SIM_POLICY_COUNT; i++)
        if (strcmp(name, sim_policy_name((sim_policy)i)) == 0)
            found = i;
    if (found < 0)
        return fail_at(err, where, "policy", "unknown; use lru, fifo, random, plru, weighted, "
                       "srrip, slru or hslru");
    g->policy = (sim_policy)found;
    if (read_protected(obj, where, g, err))
        return GS_ERR_INPUT;
    json_t *probs = json_object_get(obj, "way_probabilities");
    if (probs && g->policy != SIM_POLICY_WEIGHTED)
        return fail_at(err, where, "way_probabilities", "only for \"policy\": \"weighted\"");
    if (!probs)
        return 0;
    if (!json_is_array(probs) || json_array_size(probs) == 0 || json_array_size(probs) > SIM_MAX_WAYS)
        return fail_at(err, where, "way_probabilities", "must be a list, one number per way");
    if (json_array_size(probs) != g->ways_per_set[0])
        return fail_at(err, where, "way_probabilities", "needs one probability per way");
    g->way_probabilities = calloc(json_array_size(probs), sizeof *g->way_probabilities);
    if (!g->way_probabilities)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    size_t i;
    json_t *v;
    json_array_foreach(probs, i, v) {
        if (read_probability(v, &g->way_probabilities[i]) || g->way_probabilities[i] < 0)
            return gs_fail(err, GS_ERR_INPUT, "%s.way_probabilities[%zu]: must be a number >= 0 "
                           "or a fraction \"a/b\"", where, i);
    }
    return 0;
}

static int check_geometry(const sim_geometry *g, const char *where, const char *size_key,
                          gs_error *err)
{
    const char *key;
    char msg[256];
    if (sim_geometry_check(g, &key, msg, sizeof msg) == 0) {
        if (g->size_bytes / g->block_bytes <= SIM_MAX_MODEL_LINES)
            return 0;
        snprintf(msg, sizeof msg, "%llu B in %llu B blocks is %llu blocks, more than the %d a "
                 "model may hold", (unsigned long long)g->size_bytes,
                 (unsigned long long)g->block_bytes,
                 (unsigned long long)(g->size_bytes / g->block_bytes), SIM_MAX_MODEL_LINES);
        key = "size_bytes";
    }
    if (strcmp(key, "size_bytes") == 0)
        key = size_key;
    return fail_at(err, where, key, msg);
}

/* sets/ways/mapping/policy of a cache, a carve-out entry or a TLB; block and size already set. */
static int read_geometry(const json_t *obj, const char *where, sim_geometry *g, gs_error *err)
{
    if (read_ways(obj, where, g, err) ||
        read_mapping(json_object_get(obj, "mapping"), where, &g->mapping, err) ||
        read_policy(obj, where, g, err))
        return GS_ERR_INPUT;
    return 0;
}

/* ---- cache levels ------------------------------------------------------------------------------- */

static int read_carveout(const json_t *obj, const char *where, const sim_level *lv,
                         sim_carveout *co, gs_error *err)
{
    static const char *const keys[] = {"percent", "size_bytes", "sets", "ways", "ways_per_set",
                                       "mapping", "policy", "way_probabilities", "protected_ways",
                                       "data_lines", NULL};
    uint64_t percent = 0;
    if (sim_check_keys(obj, where, keys, err) ||
        sim_get_uint(obj, where, "percent", 1, &percent, err) ||
        sim_get_uint(obj, where, "size_bytes", 1, &co->geo.size_bytes, err))
        return GS_ERR_INPUT;
    if (percent > 100)
        return fail_at(err, where, "percent", "must be 0..100");
    co->percent = (int)percent;
    co->geo.block_bytes = lv->geo.block_bytes;
    co->geo.sector_bytes = lv->geo.sector_bytes;
    co->geo.fetch_bytes = lv->geo.fetch_bytes;
    if (read_geometry(obj, where, &co->geo, err) ||
        sim_get_uint(obj, where, "data_lines", 0, &co->geo.data_lines, err))
        return GS_ERR_INPUT;
    if (!json_object_get(obj, "mapping"))
        co->geo.mapping = lv->geo.mapping;
    if (!json_object_get(obj, "policy")) {
        co->geo.policy = lv->geo.policy;
        co->geo.protected_ways = lv->geo.protected_ways;
        if (lv->geo.way_probabilities && !co->geo.way_probabilities &&
            co->geo.ways_per_set[0] == lv->geo.ways_per_set[0]) {
            size_t n = co->geo.ways_per_set[0];
            co->geo.way_probabilities = malloc(n * sizeof *co->geo.way_probabilities);
            if (!co->geo.way_probabilities)
                return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
            memcpy(co->geo.way_probabilities, lv->geo.way_probabilities,
                   n * sizeof *co->geo.way_probabilities);
        }
    }
    return check_geometry(&co->geo, where, "size_bytes", err);
}

static int read_carveouts(const json_t *obj, const char *where, sim_level *lv, gs_error *err)
{
    json_t *arr = json_object_get(obj, "carveout");
    if (!arr)
        return 0;
    if (!json_is_array(arr) || json_array_size(arr) == 0 || json_array_size(arr) > 64)
        return fail_at(err, where, "carveout", "must be a list of 1 to 64 objects");
    lv->carveouts = calloc(json_array_size(arr), sizeof *lv->carveouts);
    if (!lv->carveouts)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        char cw[WHERE_LEN];
        key_path(cw, sizeof cw, "%s.carveout[%zu]", where, i);
        lv->n_carveouts = (unsigned)i + 1;
        if (read_carveout(v, cw, lv, &lv->carveouts[i], err))
            return GS_ERR_INPUT;
        for (size_t k = 0; k < i; k++)
            if (lv->carveouts[k].percent == lv->carveouts[i].percent)
                return fail_at(err, cw, "percent", "listed twice");
    }
    return 0;
}

/* The near part's store of far lines' copies: 16-way LRU sets of the level's line, modulo mapped
 * (read after the level's own numbers: its line is known). */
static int read_near_copies(uint64_t bytes, const char *pw, sim_level *lv, gs_error *err)
{
    uint64_t line = lv->geo.block_bytes, ways = 16;
    if (!line || bytes % (line * ways) || bytes / (line * ways) > UINT32_MAX)
        return fail_at(err, pw, "near_copy_bytes", "must be a multiple of 16 lines");
    sim_geometry *g = &lv->copy_geo;
    g->size_bytes = bytes;
    g->block_bytes = g->sector_bytes = line;
    g->sets = (unsigned)(bytes / (line * ways));
    g->ways_per_set = malloc(g->sets * sizeof *g->ways_per_set);
    if (!g->ways_per_set)
        return gs_fail(err, GS_ERR_NO_MEMORY, "out of host memory");
    for (unsigned s = 0; s < g->sets; s++)
        g->ways_per_set[s] = (unsigned)ways;
    g->mapping.kind = SIM_MAP_MODULO;
    g->policy = SIM_POLICY_LRU;
    return 0;
}

/* "partitions": {"count": 2, "mapping": {"xor": [[..]]}, "interleave_bytes": 4096,
 *                "far_extra_cycles": 90} */
static int read_partitions(const json_t *obj, const char *where, sim_level *lv, gs_error *err)
{
    static const char *const keys[] = {"count", "mapping", "interleave_bytes", "far_extra_cycles",
                                       "near_copy_bytes", NULL};
    json_t *p = json_object_get(obj, "partitions");
    if (!p)
        return 0;
    char pw[WHERE_LEN];
    key_path(pw, sizeof pw, "%s.partitions", where);
    uint64_t count = 0, interleave = 0, copy = 0;
    if (sim_check_keys(p, pw, keys, err) || sim_get_uint(p, pw, "count", 1, &count, err) ||
        sim_get_uint(p, pw, "interleave_bytes", 0, &interleave, err) ||
        sim_get_uint(p, pw, "near_copy_bytes", 0, &copy, err) ||
        sim_get_double(p, pw, "far_extra_cycles", 1, &lv->far_extra_cycles, err) ||
        read_mapping(json_object_get(p, "mapping"), pw, &lv->partition_map, err))
        return GS_ERR_INPUT;
    if (count < 1 || count > 64)
        return fail_at(err, pw, "count", "must be 1..64");
    if (lv->far_extra_cycles < 0)
        return fail_at(err, pw, "far_extra_cycles", "must be >= 0");
    if (lv->partition_map.kind == SIM_MAP_MODULO && interleave == 0)
        return fail_at(err, pw, "interleave_bytes", "needed (> 0) with the modulo mapping");
    if (lv->partition_map.kind != SIM_MAP_MODULO && (1ull << lv->partition_map.nbits) != count)
        return fail_at(err, pw, "mapping", "its index bits do not give `count` partitions");
    lv->partitions = (unsigned)count;
    lv->partition_block_bytes = interleave ? interleave : 1;
    return copy ? read_near_copies(copy, pw, lv, err) : 0;
}

static int read_level_numbers(const json_t *obj, const char *where, sim_level *lv, gs_error *err)
{
    const char *scope = "device";
    if (sim_get_uint(obj, where, "size_bytes", 1, &lv->geo.size_bytes, err) ||
        sim_get_uint(obj, where, "line_bytes", 1, &lv->geo.block_bytes, err) ||
        sim_get_double(obj, where, "hit_latency_cycles", 1, &lv->hit_latency_cycles, err) ||
        sim_get_double(obj, where, "miss_cycles", 0, &lv->miss_cycles, err) ||
        sim_get_double(obj, where, "max_accesses_per_ns", 0, &lv->max_accesses_per_ns, err) ||
        sim_get_string(obj, where, "scope", 0, &scope, err))
        return GS_ERR_INPUT;
    lv->geo.sector_bytes = lv->geo.block_bytes;
    if (sim_get_uint(obj, where, "sector_bytes", 0, &lv->geo.sector_bytes, err))
        return GS_ERR_INPUT;
    lv->geo.fetch_bytes = lv->geo.sector_bytes;
    if (sim_get_uint(obj, where, "fetch_bytes", 0, &lv->geo.fetch_bytes, err))
        return GS_ERR_INPUT;
    if (lv->hit_latency_cycles < 0)
        return fail_at(err, where, "hit_latency_cycles", "must be >= 0");
    if (lv->miss_cycles < 0)
        return fail_at(err, where, "miss_cycles", "must be >= 0");
    if (lv->max_accesses_per_ns < 0)
        return fail_at(err, where, "max_accesses_per_ns", "must be >= 0");
    if (strcmp(scope, "sm") && strcmp(scope, "device"))
        return fail_at(err, where, "scope", "must be \"sm\" or \"device\"");
    lv->per_sm = strcmp(scope, "sm") == 0;
    return 0;
}

/* "default_carveout_percent": the level shares its array with shared memory (needs "carveout"). */
static int read_default_carveout(const json_t *obj, const char *where, sim_level *lv,
                                 gs_error *err)
{
    uint64_t pct = 0;
    lv->default_carveout_percent = lv->shared_default_percent = -1;
    if (json_object_get(obj, "shared_default_percent")) {
        if (!json_object_get(obj, "default_carveout_percent"))
            return fail_at(err, where, "shared_default_percent", "needs "
                           "\"default_carveout_percent\" (a level that shares its array)");
        if (sim_get_uint(obj, where, "shared_default_percent", 1, &pct, err))
            return GS_ERR_INPUT;
        if (pct > 100)
            return fail_at(err, where, "shared_default_percent", "must be 0..100");
        lv->shared_default_percent = (int)pct;
    }
    if (!json_object_get(obj, "default_carveout_percent"))
        return 0;
    if (sim_get_uint(obj, where, "default_carveout_percent", 1, &pct, err))
        return GS_ERR_INPUT;
    if (pct > 100)
        return fail_at(err, where, "default_carveout_percent", "must be 0..100");
    if (!lv->n_carveouts)
        return fail_at(err, where, "default_carveout_percent", "needs a \"carveout\" list: the "
                       "geometries a chase that holds more shared memory would get");
    lv->default_carveout_percent = (int)pct;
    return 0;
}

/* What a global store does at this level: "write_policy", "write_allocate", "store_hit". A level
 * of one SM defaults to write-through, no write-allocate, update (global stores as the GPU
 * textbook describes the L1, paper 001 "Cache Write Operations"); a device-wide level to
 * write-back with write-allocate (an L2 that buffers writes for DRAM). */
static int read_write_policy(const json_t *obj, const char *where, sim_level *lv, gs_error *err)
{
    const char *policy = lv->per_sm ? "write-through" : "write-back";
    const char *hit = "update";
    if (sim_get_string(obj, where, "write_policy", 0, &policy, err) ||
        sim_get_string(obj, where, "store_hit", 0, &hit, err))
        return GS_ERR_INPUT;
    if (strcmp(policy, "write-through") && strcmp(policy, "write-back"))
        return fail_at(err, where, "write_policy", "must be \"write-through\" or \"write-back\"");
    if (strcmp(hit, "update") && strcmp(hit, "invalidate"))
        return fail_at(err, where, "store_hit", "must be \"update\" or \"invalidate\"");
    lv->write_back = strcmp(policy, "write-back") == 0;
    lv->store_invalidates = strcmp(hit, "invalidate") == 0;
    lv->write_allocate = !lv->per_sm;
    json_t *alloc = json_object_get(obj, "write_allocate");
    if (alloc && !json_is_boolean(alloc))
        return fail_at(err, where, "write_allocate", "must be true or false");
    if (alloc)
        lv->write_allocate = json_is_true(alloc);
    if (lv->write_back && lv->store_invalidates)
        return fail_at(err, where, "store_hit", "\"invalidate\" needs \"write_policy\": "
                       "\"write-through\" (a write-back level must keep what it was given)");
    const char *unit = "sector";
    if (sim_get_string(obj, where, "write_allocate_unit", 0, &unit, err))
        return GS_ERR_INPUT;
    if (strcmp(unit, "sector") && strcmp(unit, "word"))
        return fail_at(err, where, "write_allocate_unit", "must be \"sector\" or \"word\"");
    lv->allocate_words = strcmp(unit, "word") == 0;
    if (lv->allocate_words && (!lv->write_allocate || lv->write_back))
        return fail_at(err, where, "write_allocate_unit", "\"word\" needs \"write_allocate\": "
                       "true on a write-through level");
    return 0;
}

/* "persisting_max_bytes" (the largest persisting set-aside, under the level's size) and
 * "persisting_window_max_bytes" (the largest access policy window; default: the level's size). */
static int read_persisting(const json_t *obj, const char *where, sim_level *lv, gs_error *err)
{
    if (sim_get_uint(obj, where, "persisting_max_bytes", 0, &lv->persisting_max_bytes, err) ||
        sim_get_uint(obj, where, "persisting_window_max_bytes", 0,
                     &lv->persisting_window_max_bytes, err))
        return GS_ERR_INPUT;
    if (lv->persisting_window_max_bytes && !lv->persisting_max_bytes)
        return fail_at(err, where, "persisting_window_max_bytes", "needs \"persisting_max_bytes\"");
    if (lv->persisting_max_bytes >= lv->geo.size_bytes)
        return fail_at(err, where, "persisting_max_bytes", "must be under size_bytes (normal "
                       "lines keep at least one way of each set)");
    if (lv->persisting_max_bytes && !lv->persisting_window_max_bytes)
        lv->persisting_window_max_bytes = lv->geo.size_bytes;
    return 0;
}

/* "sm_extra_cycles": [c0, c1, ...]: cycles added to accesses from SM k (entry k modulo the list's
 * length) that reach the level; a shared level only (a per-SM level is the SM's own). */
static int read_sm_extra(const json_t *obj, const char *where, sim_level *lv, gs_error *err)
{
    json_t *arr = json_object_get(obj, "sm_extra_cycles");
    if (!arr)
        return 0;
    if (!json_is_array(arr) || json_array_size(arr) == 0 ||
        json_array_size(arr) > SIM_MAX_SM_EXTRA)
        return fail_at(err, where, "sm_extra_cycles", "must be a list of 1 to 256 numbers of "
                       "cycles, one per SM");
    if (lv->per_sm)
        return fail_at(err, where, "sm_extra_cycles", "applies to a level shared by the SMs "
                       "(\"scope\": \"device\"), not to one of each SM's own");
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        double c = json_is_number(v) ? json_number_value(v) : -1;
        if (!(c >= 0 && c <= 1e6))
            return gs_fail(err, GS_ERR_INPUT, "%s.sm_extra_cycles[%zu]: must be a number of "
                           "cycles 0..1e6", where, i);
        lv->sm_extra_cycles[i] = c;
    }
    lv->n_sm_extra = (unsigned)json_array_size(arr);
    return 0;
}

static int read_level(const json_t *obj, const char *where, sim_level *lv, gs_error *err)
{
    static const char *const keys[] = {
        "name", "size_bytes", "line_bytes", "sector_bytes", "fetch_bytes", "sets", "ways",
        "ways_per_set", "mapping", "policy", "way_probabilities", "protected_ways", "data_lines",
        "hit_latency_cycles", "miss_cycles", "paths",
        "scope", "max_accesses_per_ns", "carveout", "default_carveout_percent",
        "shared_default_percent", "partitions", "write_policy", "write_allocate", "store_hit",
        "write_allocate_unit", "sm_extra_cycles",
        "persisting_max_bytes", "persisting_window_max_bytes", NULL};
    const char *name = NULL;
    if (sim_check_keys(obj, where, keys, err) ||
        sim_get_string(obj, where, "name", 1, &name, err))
        return GS_ERR_INPUT;
    if (!*name || strlen(name) >= SIM_NAME_LEN)
        return fail_at(err, where, "name", "must be 1 to 31 characters");
    snprintf(lv->name, sizeof lv->name, "%s", name);
    if (read_level_numbers(obj, where, lv, err) || read_geometry(obj, where, &lv->geo, err) ||
        sim_get_uint(obj, where, "data_lines", 0, &lv->geo.data_lines, err) ||
        check_geometry(&lv->geo, where, "size_bytes", err) ||
        read_paths(obj, where, 0, &lv->paths, err) || read_carveouts(obj, where, lv, err) ||
        read_partitions(obj, where, lv, err) || read_default_carveout(obj, where, lv, err) ||
        read_write_policy(obj, where, lv, err) || read_persisting(obj, where, lv, err) ||
        read_sm_extra(obj, where, lv, err))
        return GS_ERR_INPUT;
    if (!lv->paths)
        return fail_at(err, where, "paths", "missing: list the load paths through this level");
    return 0;
}

/* ---- TLB levels --------------------------------------------------------------------------------- */

static int read_skip(const json_t *obj, const char *where, const sim_memory *mem, sim_tlb *t,
                     gs_error *err)
{
    json_t *arr = json_object_get(obj, "on_miss_skip");
    if (!arr)
        return 0;
    if (!json_is_array(arr))
        return fail_at(err, where, "on_miss_skip", "must be a list of cache names");
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        unsigned k = 0;
        while (k < mem->n_caches && !(json_is_string(v) &&
                                      strcmp(json_string_value(v), mem->caches[k].name) == 0))
            k++;
        if (k == mem->n_caches)
            return gs_fail(err, GS_ERR_INPUT, "%s.on_miss_skip[%zu]: not the name of a cache level "
                           "in memory.caches", where, i);
        t->skip_on_miss |= 1u << k;
    }
    return 0;
}

/* "near_ways" and "far_hit_cycles", both or neither: a hit past the near ways costs more. */
static int read_far_ways(const json_t *obj, const char *where, sim_tlb *t, gs_error *err)
{
    bool near = json_object_get(obj, "near_ways") != NULL;
    bool far = json_object_get(obj, "far_hit_cycles") != NULL;
    if (near != far)
        return fail_at(err, where, near ? "far_hit_cycles" : "near_ways",
                       "missing: near_ways and far_hit_cycles go together");
    uint64_t n = 0, most = 0;
    if (!near)
        return 0;
    if (sim_get_uint(obj, where, "near_ways", 1, &n, err) ||
        sim_get_double(obj, where, "far_hit_cycles", 1, &t->far_hit_cycles, err))
        return GS_ERR_INPUT;
    for (unsigned s = 0; s < t->geo.sets; s++)
        most = t->geo.ways_per_set[s] > most ? t->geo.ways_per_set[s] : most;
    if (n >= most)
        return gs_fail(err, GS_ERR_INPUT, "%s.near_ways: %llu, but the largest set has %llu ways; "
                       "give 1 .. %llu (ways at or past near_ways cost far_hit_cycles more)", where,
                       (unsigned long long)n, (unsigned long long)most,
                       (unsigned long long)(most - 1));
    if (!(t->far_hit_cycles > 0))
        return fail_at(err, where, "far_hit_cycles", "must be > 0 (leave both keys out for none)");
    t->near_ways = (unsigned)n;
    return 0;
}

static int read_tlb(const json_t *obj, const char *where, const sim_memory *mem, sim_tlb *t,
                    gs_error *err)
{
    static const char *const keys[] = {
        "name", "page_bytes", "coverage_bytes", "entries", "sets", "ways", "ways_per_set",
        "mapping", "policy", "way_probabilities", "protected_ways", "hit_cycles", "miss_penalty_cycles", "paths",
        "on_miss_skip", "near_ways", "far_hit_cycles", NULL};
    const char *name = NULL;
    if (sim_check_keys(obj, where, keys, err) || sim_get_string(obj, where, "name", 1, &name, err) ||
        sim_get_uint(obj, where, "page_bytes", 1, &t->page_bytes, err) ||
        sim_get_uint(obj, where, "entries", 1, &t->entries, err) ||
        sim_get_double(obj, where, "hit_cycles", 0, &t->hit_cycles, err) ||
        sim_get_double(obj, where, "miss_penalty_cycles", 1, &t->miss_penalty_cycles, err))
        return GS_ERR_INPUT;
    if (!*name || strlen(name) >= SIM_NAME_LEN)
        return fail_at(err, where, "name", "must be 1 to 31 characters");
    snprintf(t->name, sizeof t->name, "%s", name);
    t->geo.block_bytes = t->page_bytes;
    if (sim_get_uint(obj, where, "coverage_bytes", 0, &t->geo.block_bytes, err))
        return GS_ERR_INPUT;
    if (t->page_bytes == 0 || t->geo.block_bytes % t->page_bytes)
        return fail_at(err, where, "coverage_bytes", "must be a whole number of pages (> 0)");
    if (t->hit_cycles < 0)
        return fail_at(err, where, "hit_cycles", "must be >= 0");
    if (t->miss_penalty_cycles < 0)
        return fail_at(err, where, "miss_penalty_cycles", "must be >= 0");
    t->geo.sector_bytes = t->geo.block_bytes;
    t->geo.size_bytes = t->entries * t->geo.block_bytes;
    if (!json_object_get(obj, "sets") && !json_object_get(obj, "ways") &&
        !json_object_get(obj, "ways_per_set")) {    /* fully associative by default */
        t->geo.sets = 1;
        t->geo.ways_per_set = calloc(1, sizeof *t->geo.ways_per_set);
        if (!t->geo.ways_per_set)
            return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
        if (t->entries > SIM_MAX_WAYS)
            return gs_fail(err, GS_ERR_INPUT, "%s.entries: %llu entries fully associative are "
                           "more than %d ways; give sets and ways", where,
                           (unsigned long long)t->entries, SIM_MAX_WAYS);
        t->geo.ways_per_set[0] = (unsigned)t->entries;
        if (read_mapping(json_object_get(obj, "mapping"), where, &t->geo.mapping, err) ||
            read_policy(obj, where, &t->geo, err))
            return GS_ERR_INPUT;
    } else if (read_geometry(obj, where, &t->geo, err)) {
        return GS_ERR_INPUT;
    }
    uint32_t all = ((1u << GS_PATH_COUNT) - 1) & ~(1u << GS_PATH_SHARED);
    if (t->entries == 0 || t->entries > (1u << 24))
        return fail_at(err, where, "entries", "must be 1 .. 16777216");
    return check_geometry(&t->geo, where, "entries", err) ||
           read_paths(obj, where, all, &t->paths, err) || read_skip(obj, where, mem, t, err) ||
           read_far_ways(obj, where, t, err) ? GS_ERR_INPUT : 0;
}

/* ---- the section -------------------------------------------------------------------------------- */

static int read_list(const json_t *json, const char *where, const char *key, sim_memory *mem,
                     bool tlbs, gs_error *err)
{
    json_t *arr = json_object_get(json, key);
    if (!arr)
        return 0;
    if (!json_is_array(arr) || json_array_size(arr) > 16)
        return fail_at(err, where, key, "must be a list of at most 16 objects");
    size_t n = json_array_size(arr), i;
    void *p = calloc(n ? n : 1, tlbs ? sizeof(sim_tlb) : sizeof(sim_level));
    if (!p)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    if (tlbs)
        mem->tlbs = p;
    else
        mem->caches = p;
    json_t *v;
    json_array_foreach(arr, i, v) {
        char w[WHERE_LEN];
        key_path(w, sizeof w, "%s.%s[%zu]", where, key, i);
        int rc;
        if (tlbs) {
            mem->n_tlbs = (unsigned)i + 1;
            rc = read_tlb(v, w, mem, &mem->tlbs[i], err);
        } else {
            mem->n_caches = (unsigned)i + 1;
            rc = read_level(v, w, &mem->caches[i], err);
            for (size_t k = 0; k < i && !rc; k++)
                if (strcmp(mem->caches[k].name, mem->caches[i].name) == 0)
                    rc = fail_at(err, w, "name", "used by two cache levels");
        }
        if (rc)
            return rc;
    }
    return 0;
}

static int read_dram(const json_t *json, const char *where, sim_memory *mem, gs_error *err)
{
    static const char *const keys[] = {"latency_cycles", "max_accesses_per_ns", "comment",
                                       "channels", "interleave_bytes", "hash", "banks",
                                       "row_bytes", "row_hit_cycles", "row_miss_cycles", NULL};
    json_t *d = json_object_get(json, "dram");
    char w[WHERE_LEN];
    key_path(w, sizeof w, "%s.dram", where);
    if (!d)
        return fail_at(err, where, "dram", "missing: {\"latency_cycles\": N}");
    if (sim_check_keys(d, w, keys, err) ||
        sim_get_double(d, w, "latency_cycles", 1, &mem->dram_latency_cycles, err) ||
        sim_get_double(d, w, "max_accesses_per_ns", 0, &mem->dram_max_accesses_per_ns, err))
        return GS_ERR_INPUT;
    if (mem->dram_latency_cycles < 0)
        return fail_at(err, w, "latency_cycles", "must be >= 0");
    if (mem->dram_max_accesses_per_ns < 0)
        return fail_at(err, w, "max_accesses_per_ns", "must be >= 0");
    return sim_dram_parse(d, w, mem, err);     /* the optional layout keys: dram.c */
}

static int read_path_extra(const json_t *json, const char *where, sim_memory *mem, gs_error *err)
{
    json_t *o = json_object_get(json, "path_extra_cycles");
    if (!o)
        return 0;
    if (!json_is_object(o))
        return fail_at(err, where, "path_extra_cycles", "must be an object {\"local\": N, ...}");
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v) {
        gs_load_path p;
        if (gs_path_parse(key, &p))
            return gs_fail(err, GS_ERR_INPUT, "%s.path_extra_cycles.%s: unknown load path", where,
                           key);
        char pw[WHERE_LEN];
        key_path(pw, sizeof pw, "%s.path_extra_cycles", where);
        if (!json_is_number(v) || json_number_value(v) < 0)
            return gs_fail(err, GS_ERR_INPUT, "%s.%s: must be a number >= 0", pw, key);
        if (sim_check_range(pw, key, "path_extra_cycles", json_number_value(v), err))
            return GS_ERR_INPUT;
        mem->path_extra_cycles[p] = json_number_value(v);
    }
    return 0;
}

static int read_warp_request(const json_t *json, const char *where, sim_memory *mem,
                             gs_error *err)
{
    static const char *const keys[] = {"transaction_bytes", "extra_sector_cycles",
                                       "extra_line_cycles", NULL};
    json_t *o = json_object_get(json, "warp_request");
    char w[WHERE_LEN];
    key_path(w, sizeof w, "%s.warp_request", where);
    mem->transaction_bytes = 32;
    if (!o)
        return 0;
    if (sim_check_keys(o, w, keys, err) ||
        sim_get_uint(o, w, "transaction_bytes", 1, &mem->transaction_bytes, err) ||
        sim_get_double(o, w, "extra_sector_cycles", 0, &mem->extra_sector_cycles, err) ||
        sim_get_double(o, w, "extra_line_cycles", 0, &mem->extra_line_cycles, err))
        return GS_ERR_INPUT;
    if (mem->transaction_bytes == 0 || mem->extra_sector_cycles < 0 || mem->extra_line_cycles < 0)
        return fail_at(err, w, "transaction_bytes", "must be > 0, and the extra cycles >= 0");
    return 0;
}

int sim_memory_parse(const json_t *json, const char *where, gs_sim_model *m, gs_error *err)
{
    static const char *const keys[] = {"caches", "tlbs", "dram", "uncached_paths",
                                       "shared_latency_cycles", "path_extra_cycles",
                                       "warp_request", "chase_base_bytes", NULL};
    sim_memory_free(m);
    sim_memory *mem = calloc(1, sizeof *mem);
    if (!mem)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    m->memory = mem;
    mem->shared_latency_cycles = -1;
    int rc = sim_check_keys(json, where, keys, err);
    if (!rc)
        rc = read_list(json, where, "caches", mem, false, err);
    if (!rc)
        rc = read_list(json, where, "tlbs", mem, true, err);
    if (!rc)
        rc = read_dram(json, where, mem, err);
    if (!rc)
        rc = read_path_list(json, where, "uncached_paths", 0, &mem->uncached_paths, err);
    if (!rc)
        rc = sim_get_double(json, where, "shared_latency_cycles", 0, &mem->shared_latency_cycles,
                            err);
    if (!rc && json_object_get(json, "shared_latency_cycles") && mem->shared_latency_cycles < 0)
        rc = fail_at(err, where, "shared_latency_cycles", "must be >= 0");
    if (!rc)
        rc = read_path_extra(json, where, mem, err);
    if (!rc)
        rc = read_warp_request(json, where, mem, err);
    if (!rc)
        rc = sim_get_uint(json, where, "chase_base_bytes", 0, &mem->chase_base_bytes, err);
    if (rc)
        sim_memory_free(m);
    return rc;
}

void sim_memory_free(gs_sim_model *m)
{
    sim_memory *mem = m->memory;
    if (!mem)
        return;
    for (unsigned i = 0; i < mem->n_caches; i++) {
        sim_level *lv = &mem->caches[i];
        sim_cache_free(&lv->state);
        sim_geometry_free(&lv->geo);
        sim_cache_free(&lv->copy_state);
        sim_geometry_free(&lv->copy_geo);
        for (unsigned k = 0; k < lv->n_carveouts; k++)
            sim_geometry_free(&lv->carveouts[k].geo);
        free(lv->carveouts);
    }
    for (unsigned i = 0; i < mem->n_tlbs; i++) {
        sim_cache_free(&mem->tlbs[i].state);
        sim_geometry_free(&mem->tlbs[i].geo);
    }
    free(mem->caches);
    free(mem->tlbs);
    free(mem->dram.open_row);
    free(mem);
    m->memory = NULL;
}
