/* One set-associative store (cache.h): geometry checks, set mapping, lookup, fill and the
 * replacement policies. Used for every cache level and TLB level of the simulator's memory model. */
#include "sim/cache.h"
#include "sim/cache_steps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The small steps of an access, inlined into the access paths (callers of the whole access),
 * so that an access is one run of code without calls and register saves. */
#define HOT SIM_STEP

static bool is_pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

static unsigned log2_u64(uint64_t x)
{
    unsigned n = 0;
    while (x > 1) {
        x >>= 1;
        n++;
    }
    return n;
}

/* ---- geometry checks ------------------------------------------------------------------------- */

static int check_capacity(const sim_geometry *g, char *msg, size_t len)
{
    uint64_t ways_sum = 0;
    bool equal = true;
    for (unsigned s = 0; s < g->sets; s++) {
        if (g->ways_per_set[s] == 0)
            return snprintf(msg, len, "set %u has 0 ways", s), -1;
        ways_sum += g->ways_per_set[s];
        equal = equal && g->ways_per_set[s] == g->ways_per_set[0];
    }
    if (ways_sum > SIM_MAX_LINES)
        return snprintf(msg, len, "%llu lines are more than the simulator holds (%u)",
                        (unsigned long long)ways_sum, SIM_MAX_LINES), -1;
    if (ways_sum * g->block_bytes == g->size_bytes)
        return 0;
    if (equal)
        snprintf(msg, len, "%u sets x %u ways x %llu B = %llu B, but size is %llu B", g->sets,
                 g->ways_per_set[0], (unsigned long long)g->block_bytes,
                 (unsigned long long)(ways_sum * g->block_bytes),
                 (unsigned long long)g->size_bytes);
    else
        snprintf(msg, len, "sum of ways_per_set (%llu) x %llu B = %llu B, but size is %llu B",
                 (unsigned long long)ways_sum, (unsigned long long)g->block_bytes,
                 (unsigned long long)(ways_sum * g->block_bytes),
                 (unsigned long long)g->size_bytes);
    return -1;
}

static int check_mapping(const sim_geometry *g, char *msg, size_t len)
{
    const sim_mapping *map = &g->mapping;
    if (map->kind == SIM_MAP_MODULO)
        return 0;
    if (!is_pow2(g->block_bytes))
        return snprintf(msg, len, "a bit mapping needs a power-of-two block (%llu B)",
                        (unsigned long long)g->block_bytes), -1;
    if (map->nbits > 31 || (1ull << map->nbits) != g->sets)
        return snprintf(msg, len, "%u index bits give %llu sets, but sets is %u", map->nbits,
                        map->nbits > 31 ? 0ull : 1ull << map->nbits, g->sets), -1;
    uint64_t seen = 0;
    for (unsigned i = 0; i < map->nbits; i++) {
        uint64_t mask = map->group_mask[i];
        if (mask == 0)
            return snprintf(msg, len, "index bit %u uses no address bit", i), -1;
        if (mask & (g->block_bytes - 1))
            return snprintf(msg, len, "index bit %u uses an address bit below the block offset "
                            "(block %llu B = bits 0..%u)", i, (unsigned long long)g->block_bytes,
                            log2_u64(g->block_bytes) - 1), -1;
        if (map->kind == SIM_MAP_BITS && (mask & seen))
            return snprintf(msg, len, "address bit %u is listed twice", log2_u64(mask)), -1;
        seen |= mask;
    }
    return 0;
}

static int check_policy(const sim_geometry *g, const char **key, char *msg, size_t len)
{
    *key = g->policy == SIM_POLICY_WEIGHTED && g->way_probabilities ? "way_probabilities"
                                                                     : "policy";
    for (unsigned s = 0; sim_policy_segmented(g->policy) && s < g->sets; s++) {
        unsigned ways = g->ways_per_set[s];
        if (ways < 2 || ways > SIM_SCAN_MAX_WAYS)
            return snprintf(msg, len, "%s needs 2 to %d ways in every set",
                            sim_policy_name(g->policy), SIM_SCAN_MAX_WAYS), -1;
        *key = "protected_ways";
        if (g->protected_ways < 1 || g->protected_ways >= ways)
            return snprintf(msg, len, "must be a whole number 1 .. ways - 1"), -1;
        *key = "policy";
    }
    if (g->policy == SIM_POLICY_PLRU) {
        for (unsigned s = 0; s < g->sets; s++)
            if (!is_pow2(g->ways_per_set[s]) || g->ways_per_set[s] > SIM_MAX_PLRU_WAYS)
                return snprintf(msg, len, "plru needs a power-of-two number of ways (at most %d); "
                                "set %u has %u", SIM_MAX_PLRU_WAYS, s, g->ways_per_set[s]), -1;
    }
    if (g->policy != SIM_POLICY_WEIGHTED)
        return 0;
    for (unsigned s = 1; s < g->sets; s++)
        if (g->ways_per_set[s] != g->ways_per_set[0])
            return snprintf(msg, len, "weighted policy needs equal sets"), -1;
    if (!g->way_probabilities)
        return snprintf(msg, len, "weighted policy needs way_probabilities"), -1;
    double sum = 0;
    for (unsigned w = 0; w < g->ways_per_set[0]; w++) {
        if (!(g->way_probabilities[w] >= 0))
            return snprintf(msg, len, "way %u has a negative probability", w), -1;
        sum += g->way_probabilities[w];
    }
    if (fabs(sum - 1.0) > 1e-6)
        return snprintf(msg, len, "way probabilities sum to %.6g, not 1", sum), -1;
    return 0;
}

int sim_geometry_check(const sim_geometry *g, const char **key, char *msg, size_t len)
{
    *key = g->block_bytes == 0 ? "line_bytes" : g->sector_bytes == 0 ? "sector_bytes" : "sets";
    if (g->block_bytes == 0 || g->sector_bytes == 0 || g->sets == 0 || !g->ways_per_set)
        return snprintf(msg, len, "must be > 0"), -1;
    *key = "sector_bytes";
    if (g->block_bytes % g->sector_bytes || g->block_bytes / g->sector_bytes > SIM_MAX_SECTORS)
        return snprintf(msg, len, "sector %llu B must divide the line %llu B into at most %d sectors",
                        (unsigned long long)g->sector_bytes, (unsigned long long)g->block_bytes,
                        SIM_MAX_SECTORS), -1;
    *key = "fetch_bytes";
    if (g->fetch_bytes && (g->fetch_bytes % g->sector_bytes || g->block_bytes % g->fetch_bytes))
        return snprintf(msg, len, "fetch %llu B must be a multiple of the sector %llu B that "
                        "divides the line %llu B", (unsigned long long)g->fetch_bytes,
                        (unsigned long long)g->sector_bytes, (unsigned long long)g->block_bytes),
               -1;
    *key = "size_bytes";
    if (check_capacity(g, msg, len))
        return -1;
    *key = "data_lines";
    uint64_t slots = 0, most = 0;
    for (unsigned i = 0; i < g->sets; i++)
        slots += g->ways_per_set[i], most = g->ways_per_set[i] > most ? g->ways_per_set[i] : most;
    if (g->data_lines && (g->data_lines > slots || most > SIM_SCAN_MAX_WAYS))
        return snprintf(msg, len, "%llu data lines need at most %llu (the tags) and sets of at "
                        "most %d ways", (unsigned long long)g->data_lines,
                        (unsigned long long)slots, SIM_SCAN_MAX_WAYS), -1;
    *key = "mapping";
    if (check_mapping(g, msg, len))
        return -1;
    return check_policy(g, key, msg, len);
}

void sim_geometry_free(sim_geometry *g)
{
    free(g->ways_per_set);
    free(g->way_probabilities);
    g->ways_per_set = NULL;
    g->way_probabilities = NULL;
}

/* ---- building the store ---------------------------------------------------------------------- */

/* MODULO with unequal sets: deal the slots (block mod total ways) round-robin to the sets that
 * still have ways left, so that consecutive blocks go to consecutive sets and the whole capacity
 * is reachable by consecutive blocks (the L2 TLB of section 4.2: 17 + 6 x 8 entries). */
static int deal_slots(sim_cache *c)
{
    const sim_geometry *g = c->geo;
    unsigned *left = malloc(g->sets * sizeof *left);
    c->slot_set = malloc((size_t)c->total_ways * sizeof *c->slot_set);
    if (!left || !c->slot_set) {
        free(left);
        return -1;
    }
    memcpy(left, g->ways_per_set, g->sets * sizeof *left);
    unsigned dealt = 0;
    while (dealt < c->total_ways)
        for (unsigned s = 0; s < g->sets; s++)
            if (left[s]) {
                left[s]--;
                c->slot_set[dealt++] = s;
            }
    free(left);
    return 0;
}

static bool sets_equal(const sim_geometry *g)
{
    for (unsigned s = 1; s < g->sets; s++)
        if (g->ways_per_set[s] != g->ways_per_set[0])
            return false;
    return true;
}

static int shift_of(uint64_t bytes)
{
    return is_pow2(bytes) ? (int)log2_u64(bytes) : -1;
}

/* The sectors a load miss in sector i fills: the aligned group of fetch_sectors around it. */
static uint32_t fetch_group(unsigned fetch_sectors, unsigned i)
{
    unsigned n = fetch_sectors;
    if (n <= 1)
        return 1u << i;
    uint32_t group = n >= 32 ? UINT32_MAX : (1u << n) - 1;
    return group << (i / n * n);
}

/* Scanned: the records of the sets, zeroed (every set empty), and the owner of each slot where a
 * slot's set is not its number / ways. */
static int records_init(sim_cache *c)
{
    const sim_geometry *g = c->geo;
    size_t raw = sizeof(sim_set_state) + c->max_ways * (sizeof(uint64_t) + sizeof(uint32_t));
    c->record_bytes = (raw + 63) / 64 * 64;
    c->masks_at = sizeof(sim_set_state) + c->max_ways * sizeof(uint64_t);
    c->records_block = calloc((size_t)g->sets * c->record_bytes + 64, 1);
    if (!c->records_block)
        return -1;
    c->records = (unsigned char *)c->records_block + (64 - (uintptr_t)c->records_block % 64) % 64;
    if (c->equal_ways && !g->data_lines)
        return 0;
    c->slot_owner = malloc((size_t)c->total_ways * sizeof *c->slot_owner);
    if (!c->slot_owner)
        return -1;
    for (unsigned set = 0, s = 0; set < g->sets; set++)
        for (unsigned w = 0; w < g->ways_per_set[set]; w++)
            c->slot_owner[s++] = set;
    return 0;
}

/* The index: a power of two at least twice the slots, so that it is at most half full. */
static int index_init(sim_cache *c)
{
    uint64_t n = 16;
    while (n < 2ull * c->total_ways)
        n *= 2;
    c->index = calloc(n, sizeof *c->index);
    c->index_mask = n - 1;
    c->index_shift = 64 - log2_u64(n);
    return c->index ? 0 : -1;
}

/* The set index of every value of each address byte the mapping's groups touch (xor_table). */
static int xor_tables(sim_cache *c)
{
    const sim_mapping *map = &c->geo->mapping;
    uint64_t all = 0;
    for (unsigned i = 0; i < map->nbits; i++)
        all |= map->group_mask[i];
    for (unsigned b = 0; b < 8; b++)
        if (all >> (8 * b) & 0xff)
            c->xor_shift[c->xor_bytes++] = (uint8_t)(8 * b);
    c->xor_table = calloc(c->xor_bytes ? c->xor_bytes : 1, sizeof *c->xor_table);
    if (!c->xor_table)
        return -1;
    for (unsigned k = 0; k < c->xor_bytes; k++)
        for (unsigned v = 0; v < 256; v++) {
            uint64_t addr = (uint64_t)v << c->xor_shift[k];
            uint32_t set = 0;
            for (unsigned i = 0; i < map->nbits; i++)
                set |= (uint32_t)__builtin_parityll(addr & map->group_mask[i]) << i;
            c->xor_table[k][v] = set;
        }
    return 0;
}

/* The terms of a BITS or XOR mapping (sim_cache.n_terms): per distance d = b - i of an address
 * bit b in index bit i's group, the index bits it gives; kept where there are at most
 * SIM_MAX_TERMS distances, fewer than the address bytes the tables read, and no group has a bit
 * below its index bit (which a shift down cannot move up). */
static void shift_terms(sim_cache *c)
{
    const sim_mapping *map = &c->geo->mapping;
    unsigned n = 0;
    c->n_terms = 0;
    for (unsigned i = 0; i < map->nbits; i++)
        for (unsigned b = 0; b < 64; b++) {
            if (!(map->group_mask[i] >> b & 1))
                continue;
            if (b < i)
                return;
            unsigned t = 0;
            while (t < n && c->term_shift[t] != b - i)
                t++;
            if (t == n) {
                if (n == SIM_MAX_TERMS)
                    return;
                c->term_shift[n] = (uint8_t)(b - i);
                c->term_mask[n++] = 0;
            }
            c->term_mask[t] |= 1u << i;
        }
    if (n == 0 || n >= c->xor_bytes)
        return;
    for (unsigned t = n; t < SIM_MAX_TERMS; t++) {
        c->term_shift[t] = 0;
        c->term_mask[t] = 0;
    }
    c->n_terms = n;
}

int sim_cache_init(sim_cache *c, const sim_geometry *g)
{
    memset(c, 0, sizeof *c);
    c->geo = g;
    c->epoch = 1;
    c->block_shift = shift_of(g->block_bytes);
    c->sector_shift = shift_of(g->sector_bytes);
    c->fetch_sectors = g->fetch_bytes ? (unsigned)(g->fetch_bytes / g->sector_bytes) : 1;
    c->policy = g->policy;
    c->block_mask = g->block_bytes - 1;
    for (unsigned i = 0; i < SIM_MAX_SECTORS; i++)
        c->fetch_mask[i] = fetch_group(c->fetch_sectors, i);
    c->set_base = malloc(g->sets * sizeof *c->set_base);
    if (!c->set_base)
        return -1;
    for (unsigned s = 0; s < g->sets; s++) {
        c->set_base[s] = c->total_ways;
        c->total_ways += g->ways_per_set[s];
        if (g->ways_per_set[s] > c->max_ways)
            c->max_ways = g->ways_per_set[s];
    }
    c->scan = c->max_ways <= SIM_SCAN_MAX_WAYS;
    c->ordered = c->scan && !g->data_lines &&
                 (g->policy == SIM_POLICY_LRU || g->policy == SIM_POLICY_FIFO);
    c->segmented = c->scan && sim_policy_segmented(g->policy);
    c->equal_ways = sets_equal(g) ? g->ways_per_set[0] : 0;
    c->pow2_sets = g->mapping.kind == SIM_MAP_MODULO && c->equal_ways && is_pow2(g->sets)
                      ? g->sets : 0;
    if (c->scan) {
        if (records_init(c))
            return sim_cache_free(c), -1;
    } else {
        c->set_state = calloc(g->sets, sizeof *c->set_state);
        c->big = malloc((size_t)c->total_ways * sizeof *c->big);
        if (!c->set_state || !c->big || index_init(c))
            return sim_cache_free(c), -1;
    }
    if (g->mapping.kind == SIM_MAP_MODULO && !sets_equal(g) && deal_slots(c))
        return sim_cache_free(c), -1;
    if ((g->policy == SIM_POLICY_SRRIP || sim_policy_segmented(g->policy)) &&
        !(c->rrpv = calloc(c->total_ways, 1)))
        return sim_cache_free(c), -1;
    c->data_newest = c->data_oldest = SIM_NO_SLOT;
    if (g->data_lines &&
        (!(c->data_newer = malloc(c->total_ways * sizeof *c->data_newer)) ||
         !(c->data_older = malloc(c->total_ways * sizeof *c->data_older)) ||
         !(c->data_epoch = calloc(c->total_ways, sizeof *c->data_epoch))))
        return sim_cache_free(c), -1;
    if (g->mapping.kind != SIM_MAP_MODULO) {
        if (xor_tables(c))
            return sim_cache_free(c), -1;
        shift_terms(c);
    }
    if (g->policy == SIM_POLICY_WEIGHTED) {
        c->cumulative = malloc(c->max_ways * sizeof *c->cumulative);
        if (!c->cumulative)
            return sim_cache_free(c), -1;
        double sum = 0;
        for (unsigned w = 0; w < c->max_ways; w++)
            c->cumulative[w] = (sum += g->way_probabilities[w]);
    }
    return 0;
}

/* A new epoch empties every set and every index entry at once; on the rare wrap of the counter
 * the old epochs are cleared for real. */
void sim_cache_reset(sim_cache *c)
{
    c->held = 0;
    c->memo_epoch = 0;
    c->data_newest = c->data_oldest = SIM_NO_SLOT;
    if (++c->epoch == 0) {
        if (c->data_epoch)
            memset(c->data_epoch, 0, c->total_ways * sizeof *c->data_epoch);
        if (c->set_state)
            memset(c->set_state, 0, c->geo->sets * sizeof *c->set_state);
        if (c->records)
            memset(c->records, 0, c->geo->sets * c->record_bytes);
        if (c->index)
            memset(c->index, 0, (c->index_mask + 1) * sizeof *c->index);
        c->epoch = 1;
    }
}

void sim_cache_free(sim_cache *c)
{
    free(c->set_base);
    free(c->slot_set);
    free(c->records_block);
    free(c->slot_owner);
    free(c->big);
    free(c->rrpv);
    free(c->set_state);
    free(c->index);
    free(c->cumulative);
    free(c->persisting);
    free(c->data_newer);
    free(c->data_older);
    free(c->data_epoch);
    free(c->xor_table);
    free(c->image_sets);
    free(c->image_bits);
    memset(c, 0, sizeof *c);
}

/* ---- mapping ----------------------------------------------------------------------------------- */

static uint32_t sector_bit(const sim_cache *c, uint64_t addr)
{
    return 1u << sim_cache_sector_of(c, addr);
}

/* ---- the index: block -> slot ------------------------------------------------------------------ */

/* Fibonacci hashing: the top bits of block x 2^64 / golden ratio. */
static uint64_t index_home(const sim_cache *c, uint64_t block)
{
    return (block * 0x9e3779b97f4a7c15ull) >> c->index_shift;
}

static bool index_live(const sim_cache *c, uint64_t i)
{
    return c->index[i].epoch == c->epoch;
}

/* Position of block in the index, or the empty position where it would go. */
static uint64_t index_find(const sim_cache *c, uint64_t block)
{
    uint64_t i = index_home(c, block);
    while (index_live(c, i) && c->index[i].block != block)
        i = (i + 1) & c->index_mask;
    return i;
}

static void index_insert(sim_cache *c, uint64_t block, uint32_t slot)
{
    uint64_t i = index_find(c, block);
    c->index[i] = (sim_index_entry){.block = block, .slot = slot, .epoch = c->epoch};
    c->big[slot].at = (uint32_t)i;
}

/* Remove the entry at `hole` and shift back the entries after it that would no longer be found
 * (backward-shift deletion: no tombstones, so lookups stay short); a moved entry's slot learns
 * its new place. */
static void index_remove_at(sim_cache *c, uint64_t hole)
{
    uint64_t j = hole;
    for (;;) {
        j = (j + 1) & c->index_mask;
        if (!index_live(c, j))
            break;
        uint64_t home = index_home(c, c->index[j].block);
        /* The entry at j may fill the hole unless its home lies cyclically in (hole, j]. */
        bool stays = hole < j ? home > hole && home <= j : home > hole || home <= j;
        if (!stays) {
            c->index[hole] = c->index[j];
            c->big[c->index[hole].slot].at = (uint32_t)hole;
            hole = j;
        }
    }
    c->index[hole].epoch = 0;
}

/* ---- replacement ------------------------------------------------------------------------------- */

/* Tree-PLRU: on a use of way w, point every node on w's path away from w. Node n's children are
 * 2n+1 (left, lower ways) and 2n+2; bit set = the next victim is on the right. */
static void plru_touch(uint64_t *tree, unsigned ways, unsigned w)
{
    unsigned node = 0, lo = 0, hi = ways;
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        if (w < mid) {
            *tree |= 1ull << node;
            node = 2 * node + 1;
            hi = mid;
        } else {
            *tree &= ~(1ull << node);
            node = 2 * node + 2;
            lo = mid;
        }
    }
}

static unsigned plru_victim(uint64_t tree, unsigned ways)
{
    unsigned node = 0, lo = 0, hi = ways;
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        if (tree & (1ull << node)) {
            node = 2 * node + 2;
            lo = mid;
        } else {
            node = 2 * node + 1;
            hi = mid;
        }
    }
    return lo;
}

/* Weighted victim: the first way whose running sum exceeds u, found by bisection (the sums never
 * fall), the last way when none does. */
static unsigned weighted_victim(const double *cumulative, unsigned ways, double u)
{
    unsigned lo = 0, hi = ways - 1;        /* the answer lies in [lo, hi] */
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (u < cumulative[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

const char *sim_policy_name(sim_policy p)
{
    static const char *const names[SIM_POLICY_COUNT] = {"lru",   "fifo", "random", "plru",
                                                        "weighted", "srrip", "slru", "hslru"};
    return p < SIM_POLICY_COUNT ? names[p] : "unknown";
}

bool sim_policy_segmented(sim_policy p)
{
    return p == SIM_POLICY_SLRU || p == SIM_POLICY_HSLRU;
}

/* SRRIP: the lowest way whose re-reference value is 3 (distant), ageing every way of the set
 * until one is. */
static unsigned srrip_victim(uint8_t *rrpv, unsigned ways)
{
    for (;;) {
        for (unsigned w = 0; w < ways; w++)
            if (rrpv[w] >= 3)
                return w;
        for (unsigned w = 0; w < ways; w++)
            rrpv[w]++;
    }
}

/* SLRU, HSLRU (scanned): the victim way itself (cache_steps.h, segmented_victim_at). */
HOT unsigned segmented_victim(const sim_set_state *st, const uint8_t *prot, unsigned ways)
{
    return order_at(st, segmented_victim_at(st, prot, ways));
}

HOT unsigned slru_victim(const sim_cache *c, const sim_set_state *st, unsigned set,
                            unsigned ways)
{
    return segmented_victim(st, c->rrpv + first_slot(c, set), ways);
}

/* Victim of a full set. */
HOT unsigned victim_way(const sim_cache *c, const sim_set_state *st, unsigned set,
                           unsigned ways, gs_rng *rng)
{
    switch (c->policy) {
    case SIM_POLICY_LRU:
    case SIM_POLICY_FIFO:
        return c->scan ? order_at(st, ways - 1) : st->oldest - first_slot(c, set);
    case SIM_POLICY_RANDOM:
        return (unsigned)gs_rng_below(rng, ways);
    case SIM_POLICY_PLRU:
        return plru_victim(st->plru, ways);
    case SIM_POLICY_SRRIP:
        return srrip_victim(c->rrpv + first_slot(c, set), ways);
    case SIM_POLICY_SLRU:
    case SIM_POLICY_HSLRU:
        return slru_victim(c, st, set, ways);
    case SIM_POLICY_WEIGHTED:
    default:
        return weighted_victim(c->cumulative, ways, gs_rng_unit(rng));
    }
}

/* ---- LRU / FIFO order ------------------------------------------------------------------------------ */

static void order_unlink(sim_cache *c, sim_set_state *st, uint32_t s)
{
    sim_big_slot *slot = &c->big[s];
    if (slot->older != SIM_NO_SLOT)
        c->big[slot->older].newer = slot->newer;
    else
        st->oldest = slot->newer;
    if (slot->newer != SIM_NO_SLOT)
        c->big[slot->newer].older = slot->older;
    else
        st->newest = slot->older;
}

static void order_push_newest(sim_cache *c, sim_set_state *st, uint32_t s)
{
    sim_big_slot *slot = &c->big[s];
    slot->newer = SIM_NO_SLOT;
    slot->older = st->newest;
    if (st->newest != SIM_NO_SLOT)
        c->big[st->newest].newer = s;
    else
        st->oldest = s;
    st->newest = s;
}

/* The same for slot way w of `set`: its places (rrpv) and the store's protected_ways. */
HOT void hslru_touch(sim_cache *c, sim_set_state *st, unsigned set, unsigned w, bool filled)
{
    hslru_use(st, c->rrpv + first_slot(c, set), c->geo->protected_ways, w, filled);
}

/* A use of slot s (way w of set): LRU makes it the newest on every use, FIFO only when filled;
 * PLRU points the tree away from it. */
HOT void touch(sim_cache *c, sim_set_state *st, unsigned set, uint32_t s, unsigned w,
                  bool filled)
{
    sim_policy p = c->policy;
    if (p == SIM_POLICY_SRRIP) {   /* a fill predicts a long re-reference, a hit a near one */
        c->rrpv[s] = filled ? 2 : 0;
        return;
    }
    if (p == SIM_POLICY_SLRU) {
        slru_touch(c, st, set, w, filled);
        return;
    }
    if (p == SIM_POLICY_HSLRU) {
        hslru_touch(c, st, set, w, filled);
        return;
    }
    if (c->scan) {
        if (p == SIM_POLICY_LRU || (p == SIM_POLICY_FIFO && filled))
            order_make_newest(st, w);
        else if (p == SIM_POLICY_PLRU)
            plru_touch(&st->plru, ways_of(c, set), w);
        return;
    }
    if ((p == SIM_POLICY_LRU && st->newest != s) || (p == SIM_POLICY_FIFO && filled)) {
        if (!filled)
            order_unlink(c, st, s);
        order_push_newest(c, st, s);
    } else if (p == SIM_POLICY_PLRU) {
        plru_touch(&st->plru, ways_of(c, set), w);
    }
}

/* ---- data lines (geo->data_lines) ----------------------------------------------------------- */

/* Whether slot s holds data in the current epoch (is in the data list). */
static bool holds_data(const sim_cache *c, uint32_t s)
{
    return c->data_epoch[s] == c->epoch;
}

/* Hit: refresh the way for the policy; a sector miss (when filling) marks the sectors `fill`. */
static sim_outcome hit_slot(sim_cache *c, sim_set_state *st, unsigned set, uint32_t s,
                            uint32_t bit, uint32_t fill)
{
    touch(c, st, set, s, s - first_slot(c, set), false);
    uint32_t *valid = valid_of(c, set, s);
    if (*valid & bit) {
        data_touch(c, s);
        return SIM_HIT;
    }
    *valid |= fill;
    if (*valid)
        data_touch(c, s);
    return SIM_SECTOR_MISS;
}

/* Indexed LRU/FIFO: the next victims of a set are its oldest slots. After an eviction, fetch the
 * new oldest slot's index entry (the slot itself was fetched at the last eviction) and the slot
 * after it, so that the set's next eviction does not wait on host memory. */
static void prefetch_next_victims(const sim_cache *c, const sim_set_state *st)
{
    uint32_t next = st->oldest;
    if (next == SIM_NO_SLOT)
        return;
    const sim_big_slot *slot = &c->big[next];
    __builtin_prefetch(&c->index[slot->at], 1);
    if (slot->newer != SIM_NO_SLOT)
        __builtin_prefetch(&c->big[slot->newer], 1);
}

/* ---- persisting lines (sim_cache_access_as) ------------------------------------------------------ */

/* Persisting lines a set of `ways` ways may hold: its share, never all of them. */
static unsigned persisting_limit(const sim_cache *c, unsigned ways)
{
    unsigned limit = (unsigned)(c->persisting_fraction * ways);
    return limit < ways ? limit : ways - 1;
}

/* Persisting lines the set holds now. */
static unsigned persisting_held(const sim_cache *c, const sim_set_state *st, unsigned set)
{
    const uint8_t *flag = c->persisting + first_slot(c, set);
    unsigned held = 0;
    for (unsigned w = 0; w < st->used; w++)
        held += flag[w];
    return held;
}

/* The victim of a full set among the lines whose flag is `kind`: the policy's own victim if it is
 * one; else the oldest of them by the LRU/FIFO order; else the lowest way of that kind. */
static unsigned victim_of_kind(const sim_cache *c, const sim_set_state *st, unsigned set,
                               unsigned ways, uint8_t kind, gs_rng *rng)
{
    const uint8_t *flag = c->persisting + first_slot(c, set);
    unsigned w = victim_way(c, st, set, ways, rng);
    if (flag[w] == kind)
        return w;
    sim_policy p = c->policy;
    if ((p == SIM_POLICY_LRU || p == SIM_POLICY_FIFO) && c->scan) {
        for (unsigned i = st->used; i-- > 0;)
            if (flag[order_at(st, i)] == kind)
                return order_at(st, i);
    } else if (p == SIM_POLICY_LRU || p == SIM_POLICY_FIFO) {
        for (uint32_t s = st->oldest; s != SIM_NO_SLOT; s = c->big[s].newer)
            if (flag[s - first_slot(c, set)] == kind)
                return s - first_slot(c, set);
    }
    for (w = 0; w < ways; w++)
        if (flag[w] == kind)
            return w;
    return 0;   /* not reached: the set holds a line of each kind asked for */
}

/* Fill blk's sectors `bit` into the set: the lowest empty way, else the policy's victim (whose block
 * leaves the index and the order when indexed); with a set-aside, the victim of the kind the fill
 * may evict. Returns the way. */
static unsigned fill_block(sim_cache *c, sim_set_state *st, unsigned set, uint64_t blk,
                           uint32_t bit, bool persisting, gs_rng *rng)
{
    unsigned ways = ways_of(c, set), w;
    unsigned limit = c->persisting ? persisting_limit(c, ways) : 0;
    unsigned held = c->persisting ? persisting_held(c, st, set) : 0;
    bool evict = st->used == ways;
    /* persisting while the set's share has room, or in place of a persisting line; an empty
       way taken with the share full holds a normal line */
    bool mark = persisting && limit > 0 && (evict || held < limit);
    if (!evict)
        w = st->used++;
    else if (c->persisting)
        w = victim_of_kind(c, st, set, ways, persisting && limit > 0 && held >= limit, rng);
    else
        w = victim_way(c, st, set, ways, rng);
    if (evict && !c->scan) {
        uint32_t victim = first_slot(c, set) + w;
        index_remove_at(c, c->big[victim].at);
        if (c->policy == SIM_POLICY_LRU || c->policy == SIM_POLICY_FIFO) {
            order_unlink(c, st, victim);
            prefetch_next_victims(c, st);
        }
    }
    uint32_t s = first_slot(c, set) + w;
    if (c->scan) {
        blocks_of(c, set)[w] = blk;
        sim_cache_masks_of(c, set)[w] = bit;
        data_touch(c, s);
    } else {
        c->big[s].block = blk;
        c->big[s].valid = bit;
        index_insert(c, blk, s);
    }
    if (c->persisting)
        c->persisting[s] = mark;
    touch(c, st, set, s, w, true);
    return w;
}

/* The slot holding blk in the set, or SIM_NO_SLOT. */
HOT uint32_t find_slot(const sim_cache *c, const sim_set_state *st, unsigned set,
                          uint64_t blk)
{
    if (!c->scan) {
        uint64_t at = index_find(c, blk);
        return index_live(c, at) ? c->index[at].slot : SIM_NO_SLOT;
    }
    const uint64_t *tag = blocks_of(c, set);
    unsigned w = 0, used = st->used;
    /* Four tags per test: one branch where there were four (a miss scans every way). A block
       is in at most one way, so the first match is the only one. */
    for (; w + 4 <= used; w += 4)
        if ((tag[w] == blk) | (tag[w + 1] == blk) | (tag[w + 2] == blk) | (tag[w + 3] == blk))
            break;
    for (; w < used; w++)
        if (tag[w] == blk)
            return first_slot(c, set) + w;
    return SIM_NO_SLOT;
}

/* The whole access (cache.h: the access functions ask the remembered block first, and an
 * ordered store without persisting lines takes sim_cache_access_ordered): it fills (when it
 * misses and `how` says fill) addr's sector, or its whole fetch group for a load. The block,
 * sector and set are found once and handed down. Its arguments fit in registers, so that the
 * callers reach it by a jump. */
sim_outcome sim_cache_access_rest(sim_cache *c, uint64_t addr, unsigned set, unsigned how,
                                  gs_rng *rng, int *way_out)
{
    bool fill = how & SIM_ACCESS_FILL, persisting = how & SIM_ACCESS_PERSISTING;
    access_at a = locate(c, addr, set, how & SIM_ACCESS_WHOLE_FETCH);
    uint64_t blk = a.blk;
    uint32_t bit = a.bit, fill_bits = a.fill_bits;
    set = a.set;
    sim_set_state *st = open_set(c, set);
    uint32_t s = find_slot(c, st, set, blk);
    if (s != SIM_NO_SLOT) {
        unsigned w = s - first_slot(c, set);
        if (way_out)
            *way_out = (int)w;
        if (c->persisting && persisting && !c->persisting[s] &&
            persisting_held(c, st, set) < persisting_limit(c, ways_of(c, set)))
            c->persisting[s] = 1;                /* promoted into the set-aside */
        sim_outcome o = hit_slot(c, st, set, s, bit, fill ? fill_bits : 0);
        memo_set(c, blk, set, s, w, false);
        return o;
    }
    c->memo_epoch = 0;
    if (way_out)
        *way_out = -1;
    if (!fill)
        return SIM_MISS;
    unsigned w = fill_block(c, st, set, blk, fill_bits, persisting, rng);
    if (way_out)
        *way_out = (int)w;
    memo_set(c, blk, set, first_slot(c, set) + w, w, true);
    return SIM_MISS;
}

/* The ordered and segmented stores' accesses (cache.h), made by their steps (cache_steps.h). */
sim_outcome sim_cache_access_ordered(sim_cache *c, uint64_t addr, unsigned set, unsigned how,
                                     int *way_out)
{
    return sim_cache_ordered_step(c, addr, set, how, way_out);
}

sim_outcome sim_cache_access_segmented(sim_cache *c, uint64_t addr, unsigned set, unsigned how,
                                       int *way_out)
{
    return sim_cache_segmented_step(c, addr, set, how, way_out);
}

int sim_cache_set_persisting(sim_cache *c, double fraction)
{
    free(c->persisting);
    c->persisting = NULL;
    c->persisting_fraction = 0;
    c->memo_epoch = 0;
    if (!(fraction > 0))
        return 0;
    c->persisting = calloc(c->total_ways, 1);
    if (!c->persisting)
        return -1;
    c->persisting_fraction = fraction;
    return 0;
}

void sim_cache_prefetch(const sim_cache *c, uint64_t addr)
{
    sim_cache_prefetch_in(c, addr, sim_cache_set_of(c, addr));
}

void sim_cache_prefetch_indexed(const sim_cache *c, uint64_t addr, unsigned set)
{
    __builtin_prefetch(&c->set_state[set], 1);
    __builtin_prefetch(&c->index[index_home(c, sim_cache_block_of(c, addr))], 1);
}

bool sim_cache_probe(const sim_cache *c, uint64_t addr)
{
    unsigned set = sim_cache_set_of(c, addr);
    const sim_set_state *st = state_of(c, set);
    if (st->epoch != c->epoch)
        return false;
    uint32_t s = find_slot(c, st, set, sim_cache_block_of(c, addr));
    return s != SIM_NO_SLOT &&
           (*valid_of(c, set, s) & sector_bit(c, addr));
}

bool sim_cache_invalidate(sim_cache *c, uint64_t addr, bool whole_block)
{
    unsigned set = sim_cache_set_of(c, addr);
    const sim_set_state *st = state_of(c, set);
    if (st->epoch != c->epoch)
        return false;
    uint32_t s = find_slot(c, st, set, sim_cache_block_of(c, addr));
    if (s == SIM_NO_SLOT)
        return false;
    uint32_t *valid = valid_of(c, set, s);
    uint32_t was = *valid;
    c->memo_epoch = 0;
    *valid &= whole_block ? 0u : ~sector_bit(c, addr);
    if (c->data_epoch && was && !*valid && holds_data(c, s)) {
        data_unlink(c, s, &c->data_newest, &c->data_oldest);
        c->held--;
    }
    return was != *valid;
}

/* ---- state images (sim_cache_save) ------------------------------------------------------------- */

int sim_cache_image_begin(sim_cache *c)
{
    size_t words = (c->geo->sets + 63) / 64;
    if (!c->image_bits) {
        c->image_bits = malloc(words * sizeof *c->image_bits);
        c->image_sets = malloc(c->geo->sets * sizeof *c->image_sets);
        if (!c->image_bits || !c->image_sets) {
            free(c->image_bits);
            free(c->image_sets);
            c->image_bits = NULL;
            c->image_sets = NULL;
            return -1;
        }
    }
    memset(c->image_bits, 0, words * sizeof *c->image_bits);
    c->n_image_sets = 0;
    c->image_ways = 0;
    return 0;
}

void sim_cache_image_add(sim_cache *c, uint64_t addr)
{
    sim_cache_image_add_step(c, addr);
}

/* What an access may change besides the arrays, gathered into one zeroed record so that two
 * images compare byte for byte. */
typedef struct cache_scalars {
    uint64_t memo_block, held;
    uint32_t memo_slot, memo_epoch, epoch, data_newest, data_oldest;
    int32_t memo_way;
} cache_scalars;

#define CACHE_REGIONS 9

/* The parts of a store's state an image holds whole, as (address, bytes) pairs: everything of
 * an indexed store (the index spans its sets). */
static unsigned whole_regions(const sim_cache *c, const void **at, size_t *len)
{
    size_t slots = c->total_ways, sets = c->geo->sets;
    unsigned n = 0;
#define REGION(p, bytes) do { if (p) { at[n] = (p); len[n++] = (bytes); } } while (0)
    if (!c->scan) {
        REGION(c->big, slots * sizeof *c->big);
        REGION(c->set_state, sets * sizeof *c->set_state);
        REGION(c->index, (c->index_mask + 1) * sizeof *c->index);
        REGION(c->rrpv, slots);
        REGION(c->persisting, slots);
    }
#undef REGION
    return n;
}

/* One listed set's parts in an image (scanned stores): its state, and its slots' tags, valid
 * masks, per-slot policy and persisting flags and data-line links. The data-line list spans
 * sets, but only through slots that hold data, all of them filled by accesses to listed sets
 * (an image's caller names every address it accesses), so that the listed sets' links hold it
 * whole. Returns the count of parts. */
static unsigned set_parts(const sim_cache *c, unsigned set, const void **part, size_t *len)
{
    size_t w = ways_of(c, set), first = first_slot(c, set);
    unsigned n = 0;
    if (w == c->max_ways) {             /* the three lie side by side in the record */
        part[n] = state_of(c, set), len[n++] = c->masks_at + w * sizeof(uint32_t);
    } else {
        part[n] = state_of(c, set), len[n++] = sizeof(sim_set_state);
        part[n] = blocks_of(c, set), len[n++] = w * sizeof(uint64_t);
        part[n] = sim_cache_masks_of(c, set), len[n++] = w * sizeof(uint32_t);
    }
    if (c->rrpv)
        part[n] = c->rrpv + first, len[n++] = w;
    if (c->persisting)
        part[n] = c->persisting + first, len[n++] = w;
    if (c->data_epoch) {
        part[n] = c->data_newer + first, len[n++] = w * sizeof *c->data_newer;
        part[n] = c->data_older + first, len[n++] = w * sizeof *c->data_older;
        part[n] = c->data_epoch + first, len[n++] = w * sizeof *c->data_epoch;
    }
    return n;
}

#define SET_PARTS 8

/* The bytes the listed sets take in an image (what set_parts gives them, summed): each set's
 * state, and per way its block, its mask and the per-slot bytes the store keeps. */
static size_t image_sets_bytes(const sim_cache *c)
{
    size_t per_way = sizeof(uint64_t) + sizeof(uint32_t) + (c->rrpv ? 1 : 0) +
                     (c->persisting ? 1 : 0) +
                     (c->data_epoch ? sizeof *c->data_newer + sizeof *c->data_older +
                                          sizeof *c->data_epoch : 0);
    return c->n_image_sets * sizeof(sim_set_state) + c->image_ways * per_way;
}

/* Copy one listed set into out (when not NULL) or compare it with in; returns the bytes it
 * takes in the image, or 0 when comparing found a difference. */
static size_t set_image(const sim_cache *c, unsigned set, unsigned char *out,
                        const unsigned char *in)
{
    const void *part[SET_PARTS];
    size_t len[SET_PARTS], off = 0;
    unsigned n = set_parts(c, set, part, len);
    for (unsigned i = 0; i < n; i++) {
        if (out)
            memcpy(out + off, part[i], len[i]);
        else if (memcmp(in + off, part[i], len[i]))
            return 0;
        off += len[i];
    }
    return off;
}

static cache_scalars scalars_of(const sim_cache *c)
{
    cache_scalars s;
    memset(&s, 0, sizeof s);
    s.memo_block = c->memo_block;
    s.held = c->held;
    s.memo_slot = c->memo_slot;
    s.memo_epoch = c->memo_epoch;
    s.epoch = c->epoch;
    s.data_newest = c->data_newest;
    s.data_oldest = c->data_oldest;
    s.memo_way = c->memo_way;
    return s;
}

size_t sim_cache_image_bytes(const sim_cache *c)
{
    const void *at[CACHE_REGIONS];
    size_t len[CACHE_REGIONS], sum = sizeof(cache_scalars);
    unsigned n = whole_regions(c, at, len);
    for (unsigned i = 0; i < n; i++)
        sum += len[i];
    if (c->scan)
        sum += image_sets_bytes(c);
    return sum;
}

/* Save the image into out (when not NULL) or compare the store with the image in; false when
 * comparing found a difference. */
static bool image_pass(const sim_cache *c, unsigned char *out, const unsigned char *in)
{
    const void *at[CACHE_REGIONS];
    size_t len[CACHE_REGIONS], off = sizeof(cache_scalars);
    unsigned n = whole_regions(c, at, len);
    cache_scalars s = scalars_of(c);
    if (out)
        memcpy(out, &s, sizeof s);
    else if (memcmp(in, &s, sizeof s))
        return false;
    for (unsigned i = 0; i < n; off += len[i], i++)
        if (out)
            memcpy(out + off, at[i], len[i]);
        else if (memcmp(in + off, at[i], len[i]))
            return false;
    if (c->scan && c->equal_ways == c->max_ways && !c->rrpv && !c->persisting &&
        !c->data_epoch) {
        /* each set one part (set_parts): its record up to the end of its masks */
        size_t part = c->masks_at + c->max_ways * sizeof(uint32_t), bytes = c->record_bytes;
        for (unsigned i = 0; i < c->n_image_sets; i++, off += part) {
            const unsigned char *record = c->records + (size_t)c->image_sets[i] * bytes;
            if (out)
                memcpy(out + off, record, part);
            else if (memcmp(in + off, record, part))
                return false;
        }
        return true;
    }
    for (unsigned i = 0; c->scan && i < c->n_image_sets; i++) {
        size_t took = set_image(c, c->image_sets[i], out ? out + off : NULL, in ? in + off : NULL);
        if (!took)
            return false;
        off += took;
    }
    return true;
}

void sim_cache_save(const sim_cache *c, unsigned char *image)
{
    image_pass(c, image, NULL);
}

bool sim_cache_same(const sim_cache *c, const unsigned char *image)
{
    return image_pass(c, NULL, image);
}

bool sim_cache_draws(const sim_cache *c)
{
    return c->policy == SIM_POLICY_RANDOM || c->policy == SIM_POLICY_WEIGHTED;
}

bool sim_cache_image_has(const sim_cache *c, uint64_t addr)
{
    return sim_cache_image_has_set(c, sim_cache_set_of(c, addr));
}

bool sim_cache_sets_coupled(const sim_cache *c)
{
    return c->data_epoch || sim_cache_draws(c);
}
