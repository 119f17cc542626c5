/* The steps of one access to a scanned store (cache.h), private to the simulator: the set's
 * record and order, the segmented policies' uses, the data-line list, the remembered block, and
 * the whole access of an ordered or a segmented store without persisting lines. cache.c builds
 * every access from them; memory.c's chase makes its cache accesses with them inline, one run of
 * code per access without a call. */
#ifndef GS_SIM_CACHE_STEPS_H
#define GS_SIM_CACHE_STEPS_H

#include "sim/cache.h"

/* A step inlined where it is used (an access is one run of code, without calls and register
 * saves between its steps). Under AddressSanitizer the compiler chooses: forced, the sanitizer's
 * checks in every inlined copy made memory.c take 50 s to compile where it takes 5 (tests that
 * run a sanitized simulator then take about a fifth longer). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIM_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(SIM_SANITIZED)
#define SIM_STEP static inline
#else
#define SIM_STEP static inline __attribute__((always_inline))
#endif

/* The first slot of a set, and its ways: computed where every set has as many ways (no load
 * from the per-set tables, which a large store's random accesses would miss in the host's
 * caches), else read from them. */
static inline unsigned first_slot(const sim_cache *c, unsigned set)
{
    return c->equal_ways ? set * c->equal_ways : c->set_base[set];
}

static inline unsigned ways_of(const sim_cache *c, unsigned set)
{
    return c->equal_ways ? c->equal_ways : c->geo->ways_per_set[set];
}

/* A set's state (in its record when scanned), and a scanned set's blocks and valid masks, way
 * by way. */
static inline sim_set_state *state_of(const sim_cache *c, unsigned set)
{
    return c->scan ? (sim_set_state *)(c->records + (size_t)set * c->record_bytes)
                   : &c->set_state[set];
}

static inline uint64_t *blocks_of(const sim_cache *c, unsigned set)
{
    return (uint64_t *)(c->records + (size_t)set * c->record_bytes + sizeof(sim_set_state));
}

/* The set slot s belongs to. */
static inline unsigned set_of_slot(const sim_cache *c, uint32_t s)
{
    return c->slot_owner ? c->slot_owner[s] : s / c->equal_ways;
}

_Static_assert(SIM_SCAN_MAX_WAYS * 4 <= 64, "a scanned set's order is 4 bits a way in 64 bits");

#define NIBBLES_1 0x1111111111111111ull
#define NIBBLES_8 0x8888888888888888ull

/* Scanned: the way at position p of the order (0 = newest). */
static inline unsigned order_at(const sim_set_state *st, unsigned p)
{
    return (unsigned)(st->order >> (4 * p)) & 15;
}

/* SLRU, HSLRU (scanned): the position in the order of the least recent unprotected way of a
 * full set, whose ways' flags (places) are prot[]; the oldest when every way is protected. */
SIM_STEP unsigned segmented_victim_at(const sim_set_state *st, const uint8_t *prot, unsigned ways)
{
    for (unsigned p = ways; p-- > 0;)
        if (!prot[order_at(st, p)])
            return p;
    return ways - 1;
}

/* Scanned: where way w is among the first `used` positions, else used - 1 (the end, where a
 * way just filled comes in). The positions of w's nibble are found all at once: the lowest
 * nibble that is zero in order ^ (w in every nibble) (its flag is exact: only flags above a
 * true zero can be false). */
SIM_STEP unsigned order_position(uint64_t order, unsigned used, unsigned w)
{
    uint64_t x = order ^ (NIBBLES_1 * w);
    uint64_t zero = (x - NIBBLES_1) & ~x & NIBBLES_8;
    unsigned p = zero ? (unsigned)__builtin_ctzll(zero) / 4 : SIM_SCAN_MAX_WAYS;
    return p < used ? p : used - 1;
}

/* Scanned: way w (already counted in used) becomes the newest; the ways newer than it move one
 * place older. A way just filled is not in the order yet: it goes in from the end. */
SIM_STEP void order_move_newest(sim_set_state *st, unsigned p, unsigned w)
{
    uint64_t newer = st->order & ((1ull << (4 * p)) - 1);
    uint64_t older = p + 1 < SIM_SCAN_MAX_WAYS ? st->order & (~0ull << (4 * p + 4)) : 0;
    st->order = older | newer << 4 | w;
}

SIM_STEP void order_make_newest(sim_set_state *st, unsigned w)
{
    order_move_newest(st, order_position(st->order, st->used, w), w);
}

/* Scanned: a fill's way (already counted in used) becomes the newest. Its position is used - 1,
 * as order_position finds it: a way just filled is not among the first used - 1 positions (they
 * hold the other ways), and a full set's victim taken at the oldest position (used - 1) is
 * there alone (the used positions hold each way once). */
SIM_STEP void order_fill_newest(sim_set_state *st, unsigned w)
{
    order_move_newest(st, st->used - 1, w);
}

/* SLRU (scanned): every use makes way w the newest; a fill leaves it unprotected, a hit
 * protects it, and when that makes one protected way too many, the least recent other protected
 * way goes back to the most recent end of the unprotected ways (made the newest before w, as
 * segmented LRU defines it; analysis/cache_infer.c predicts the same). */
static inline void slru_touch(sim_cache *c, sim_set_state *st, unsigned set, unsigned w,
                              bool filled)
{
    uint8_t *prot = c->rrpv + first_slot(c, set);
    if (filled || prot[w]) {
        order_make_newest(st, w);
        prot[w] = filled ? 0 : prot[w];
        return;
    }
    prot[w] = 1;
    unsigned n = 0;
    for (unsigned k = 0; k < st->used; k++)
        n += prot[k];
    for (unsigned p = st->used; n > c->geo->protected_ways && p-- > 0;)
        if (order_at(st, p) != w && prot[order_at(st, p)]) {
            unsigned back = order_at(st, p);
            prot[back] = 0;
            n--;
            order_make_newest(st, back);
        }
    order_make_newest(st, w);
}

/* HSLRU (scanned): every use makes way w the newest; a fill leaves it unprotected, a hit gives
 * it the newest of the k = protected_ways places of the last hits, and the way whose place that
 * takes (the oldest hit), left with none, goes back to the most recent end of the unprotected
 * ways (analysis/cache_infer.c predicts the same). held[]: the set's ways' places. */
SIM_STEP void hslru_use(sim_set_state *st, uint8_t *held, unsigned k, unsigned w, bool filled)
{
    order_make_newest(st, w);
    if (filled) {
        held[w] = 0;
        return;
    }
    unsigned n = (unsigned)(st->plru >> 60) + 1;
    uint64_t hist = (st->plru << 4 | w) & ((1ull << 60) - 1);
    held[w]++;
    if (n > k) {
        unsigned d = (unsigned)(hist >> (4 * k)) & 15;
        hist &= (1ull << (4 * k)) - 1;
        n = k;
        if (--held[d] == 0)
            order_make_newest(st, d);
    }
    st->plru = (uint64_t)n << 60 | hist;
}

/* The set's state, emptied first if it is from an older epoch. */
SIM_STEP sim_set_state *open_set(sim_cache *c, unsigned set)
{
    sim_set_state *st = state_of(c, set);
    if (st->epoch != c->epoch)
        *st = (sim_set_state){.epoch = c->epoch, .newest = SIM_NO_SLOT, .oldest = SIM_NO_SLOT};
    return st;
}

/* The valid-sector mask of slot s, of set `set`. */
static inline uint32_t *valid_of(const sim_cache *c, unsigned set, uint32_t s)
{
    return c->scan ? &sim_cache_masks_of(c, set)[s - first_slot(c, set)] : &c->big[s].valid;
}

/* Take slot s out of the data list, whose ends are *newest and *oldest. */
SIM_STEP void data_unlink(sim_cache *c, uint32_t s, uint32_t *newest, uint32_t *oldest)
{
    uint32_t *newer_of = c->data_newer, *older_of = c->data_older;
    uint32_t newer = newer_of[s], older = older_of[s];
    if (newer != SIM_NO_SLOT)
        older_of[newer] = older;
    else
        *newest = older;
    if (older != SIM_NO_SLOT)
        newer_of[older] = newer;
    else
        *oldest = newer;
    c->data_epoch[s] = 0;
}

/* Slot s holds data and was just used: it becomes the most recently used; if it held none, it
 * takes one of the store's data lines, and with all of them in use the least recently used
 * slot's data (not s's) is dropped: its tag stays, with no valid sector. The list's ends and
 * count are kept in locals meanwhile (the stores into the arrays might otherwise be taken to
 * change them). */
SIM_STEP void data_touch(sim_cache *c, uint32_t s)
{
    uint32_t *epoch_of = c->data_epoch;
    if (!epoch_of)
        return;                        /* no limit */
    uint32_t epoch = c->epoch, newest = c->data_newest, oldest = c->data_oldest;
    bool holds = epoch_of[s] == epoch;
    if (newest == s && holds)
        return;                        /* s is the most recently used already */
    uint64_t held = c->held;
    if (holds) {
        data_unlink(c, s, &newest, &oldest);
        held--;
    } else if (held >= c->geo->data_lines && oldest != SIM_NO_SLOT) {
        uint32_t victim = oldest;
        data_unlink(c, victim, &newest, &oldest);
        held--;
        *valid_of(c, set_of_slot(c, victim), victim) = 0;
    }
    epoch_of[s] = epoch;
    c->data_older[s] = newest;
    c->data_newer[s] = SIM_NO_SLOT;
    if (newest != SIM_NO_SLOT)
        c->data_newer[newest] = s;
    else
        oldest = s;
    c->data_newest = s;
    c->data_oldest = oldest;
    c->held = held + 1;
}

/* Remember slot s (way w) of block blk as the last one used, when one more hit there would
 * leave every state as it is: after a hit under any policy but HSLRU (whose hits move its
 * history), after a fill too where a fill and a hit leave a line alike (LRU, FIFO, PLRU, random,
 * weighted: not SRRIP's or SLRU's fill, which a hit changes), never with persisting lines. */
SIM_STEP void memo_set(sim_cache *c, uint64_t blk, unsigned set, uint32_t s, unsigned w,
                       bool filled)
{
    sim_policy p = c->policy;
    bool keep = !c->persisting && p != SIM_POLICY_HSLRU &&
                (!filled || (p != SIM_POLICY_SRRIP && p != SIM_POLICY_SLRU));
    c->memo_epoch = keep ? c->epoch : 0;
    c->memo_block = blk;
    c->memo_slot = s;
    c->memo_home = set;
    c->memo_way = (int)w;
}

/* Where an access goes: its block, its sector's bit, the sectors a fill brings (the whole fetch
 * group, or the sector alone) and its set (found here unless the caller has). */
typedef struct access_at {
    uint64_t blk;
    uint32_t bit, fill_bits;
    unsigned set;
} access_at;

SIM_STEP access_at locate(const sim_cache *c, uint64_t addr, unsigned set, bool whole_fetch)
{
    access_at a = {.blk = sim_cache_block_of(c, addr)};
    unsigned sector = sim_cache_sector_of(c, addr);
    a.bit = 1u << sector;
    a.fill_bits = whole_fetch ? c->fetch_mask[sector] : a.bit;
    a.set = set == SIM_SET_UNKNOWN ? sim_cache_set_of_block(c, a.blk, addr) : set;
    return a;
}

/* sim_cache_image_add (cache.h): name addr to the store's image (inline: a walk names every
 * address of its chain). */
SIM_STEP void sim_cache_image_add_step(sim_cache *c, uint64_t addr)
{
    unsigned set = sim_cache_set_of(c, addr);
    uint64_t bit = 1ull << (set % 64);
    if (!(c->image_bits[set / 64] & bit)) {
        c->image_bits[set / 64] |= bit;
        c->image_sets[c->n_image_sets++] = set;
        c->image_ways += ways_of(c, set);
    }
}

/* sim_cache_access_rest for an ordered store (sim_cache.ordered) without persisting lines, the
 * L2s and TLBs of most models (sim_cache_access_ordered): the same outcome and the same state, with none of the tests for what
 * such a store lacks (a hit makes the way the newest under LRU and changes no order under FIFO;
 * a fill takes the lowest empty way, else the oldest, and makes it the newest; the remembered
 * block is kept either way, as memo_set keeps it for these policies). */
SIM_STEP sim_outcome sim_cache_ordered_step(sim_cache *c, uint64_t addr, unsigned set,
                                             unsigned how, int *way_out)
{
    bool fill = how & SIM_ACCESS_FILL;
    access_at a = locate(c, addr, set, how & SIM_ACCESS_WHOLE_FETCH);
    uint64_t blk = a.blk;
    set = a.set;
    /* the store's fields in locals, read before the stores into the set (which might otherwise
       be taken to change them); the set's record opened as open_set opens it */
    uint32_t epoch = c->epoch;
    unsigned first = first_slot(c, set);
    bool lru = c->policy == SIM_POLICY_LRU;
    sim_set_state *st = (sim_set_state *)(c->records + (size_t)set * c->record_bytes);
    if (st->epoch != epoch)
        *st = (sim_set_state){.epoch = epoch, .newest = SIM_NO_SLOT, .oldest = SIM_NO_SLOT};
    uint64_t *tag = (uint64_t *)((unsigned char *)st + sizeof(sim_set_state));
    uint32_t *masks = sim_cache_masks_of(c, set);
    unsigned used = st->used, w = 0;
    for (; w + 4 <= used; w += 4)
        if ((tag[w] == blk) | (tag[w + 1] == blk) | (tag[w + 2] == blk) | (tag[w + 3] == blk))
            break;
    while (w < used && tag[w] != blk)
        w++;
    sim_outcome o = SIM_MISS;
    if (w < used) {
        if (lru)
            order_make_newest(st, w);
        o = masks[w] & a.bit ? SIM_HIT : SIM_SECTOR_MISS;
        if (o != SIM_HIT && fill)
            masks[w] |= a.fill_bits;
    } else if (fill) {
        unsigned ways = ways_of(c, set);
        w = used < ways ? st->used++ : order_at(st, ways - 1);
        tag[w] = blk;
        masks[w] = a.fill_bits;
        order_fill_newest(st, w);
    } else {
        c->memo_epoch = 0;
        if (way_out)
            *way_out = -1;
        return SIM_MISS;
    }
    if (way_out)
        *way_out = (int)w;
    c->memo_epoch = epoch;                  /* memo_set keeps it for LRU and FIFO, either way */
    c->memo_block = blk;
    c->memo_slot = first + w;
    c->memo_home = set;
    c->memo_way = (int)w;
    return o;
}

/* sim_cache_access_rest for a segmented store (sim_cache.segmented: scanned, SLRU or HSLRU)
 * without persisting lines, the first-level caches of the newer models (sim_cache_access_segmented): the same outcome and the
 * same state in the same order (a hit: the policy's touch, then the sector, then the data list;
 * a fill: the lowest empty way, else the least recent unprotected one, its tag and sectors, the
 * data list, then the touch), with none of the tests for what such a store lacks and the set's
 * record found once. */
SIM_STEP sim_outcome sim_cache_segmented_step(sim_cache *c, uint64_t addr, unsigned set,
                                               unsigned how, int *way_out)
{
    access_at a = locate(c, addr, set, how & SIM_ACCESS_WHOLE_FETCH);
    uint64_t blk = a.blk;
    set = a.set;
    sim_set_state *st = open_set(c, set);
    uint64_t *tag = (uint64_t *)((unsigned char *)st + sizeof(sim_set_state));
    uint32_t *masks = sim_cache_masks_of(c, set);
    unsigned first = first_slot(c, set), used = st->used, w = 0;
    bool hslru = c->policy == SIM_POLICY_HSLRU;
    uint8_t *prot = c->rrpv + first;                /* per way: protected (SLRU), places (HSLRU) */
    unsigned protect = c->geo->protected_ways;
    for (; w + 4 <= used; w += 4)
        if ((tag[w] == blk) | (tag[w + 1] == blk) | (tag[w + 2] == blk) | (tag[w + 3] == blk))
            break;
    while (w < used && tag[w] != blk)
        w++;
    if (w < used) {
        if (way_out)
            *way_out = (int)w;
        if (hslru)
            hslru_use(st, prot, protect, w, false);
        else
            slru_touch(c, st, set, w, false);
        sim_outcome o = SIM_HIT;
        if (!(masks[w] & a.bit)) {
            o = SIM_SECTOR_MISS;
            if (how & SIM_ACCESS_FILL)
                masks[w] |= a.fill_bits;
        }
        if (masks[w])
            data_touch(c, first + w);
        memo_set(c, blk, set, first + w, w, false);
        return o;
    }
    c->memo_epoch = 0;
    if (way_out)
        *way_out = -1;
    if (!(how & SIM_ACCESS_FILL))
        return SIM_MISS;
    /* the way and its position in the order: a new way's is the end (order_fill_newest), a
       victim's where it was found (the used positions hold each way once) */
    unsigned ways = ways_of(c, set), p = used < ways ? used : segmented_victim_at(st, prot, ways);
    w = used < ways ? st->used++ : order_at(st, p);
    tag[w] = blk;
    masks[w] = a.fill_bits;
    data_touch(c, first + w);
    order_move_newest(st, p, w);       /* a fill under either policy (hslru_use, slru_touch) */
    prot[w] = 0;
    if (way_out)
        *way_out = (int)w;
    memo_set(c, blk, set, first + w, w, true);
    return SIM_MISS;
}

#endif
