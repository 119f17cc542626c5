/* A set of 64-bit values by open addressing, sized once for the values it will hold: how the
 * cache probe keeps a TLB chain's offsets apart and how a chain check finds a repeated offset
 * (analysis/chain.c, the simulator's chase). */
#ifndef GS_U64SET_H
#define GS_U64SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gs_u64set {
    uint64_t *slot;            /* value + 1; 0 is an empty slot */
    size_t mask;               /* slots - 1 (a power of two, at least twice the capacity) */
    bool has_max;              /* UINT64_MAX, which has no slot value of its own */
} gs_u64set;

/* A set for up to n values: 0, or -1 when host memory runs out. */
int gs_u64set_init(gs_u64set *s, size_t n);
void gs_u64set_free(gs_u64set *s);
bool gs_u64set_has(const gs_u64set *s, uint64_t v);
/* Adds v (at most the n of gs_u64set_init in all); true when it was not there yet. */
bool gs_u64set_add(gs_u64set *s, uint64_t v);

/* 1 when two of v[0..n) are equal, 0 when none are, -1 when host memory runs out. */
int gs_u64_repeats(const uint64_t *v, size_t n);

#endif
