/* A set of 64-bit values by open addressing: see u64set.h. */
#include "util/u64set.h"

#include <stdlib.h>

int gs_u64set_init(gs_u64set *s, size_t n)
{
    size_t slots = 16;
    while (slots < 2 * n)
        slots *= 2;
    s->slot = calloc(slots, sizeof *s->slot);
    s->mask = slots - 1;
    s->has_max = false;
    return s->slot ? 0 : -1;
}

void gs_u64set_free(gs_u64set *s)
{
    free(s->slot);
    s->slot = NULL;
}

/* The slot that holds v, or the empty one where it would go (Fibonacci hashing, then linear
 * probing). */
static size_t where(const gs_u64set *s, uint64_t v)
{
    uint64_t key = v + 1;
    size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & s->mask;
    while (s->slot[h] && s->slot[h] != key)
        h = (h + 1) & s->mask;
    return h;
}

bool gs_u64set_has(const gs_u64set *s, uint64_t v)
{
    return v == UINT64_MAX ? s->has_max : s->slot[where(s, v)] != 0;
}

bool gs_u64set_add(gs_u64set *s, uint64_t v)
{
    if (v == UINT64_MAX) {
        bool was = s->has_max;
        s->has_max = true;
        return !was;
    }
    size_t h = where(s, v);
    if (s->slot[h])
        return false;
    s->slot[h] = v + 1;
    return true;
}

int gs_u64_repeats(const uint64_t *v, size_t n)
{
    gs_u64set s;
    if (gs_u64set_init(&s, n))
        return -1;
    int rep = 0;
    for (size_t i = 0; i < n && !rep; i++)
        rep = !gs_u64set_add(&s, v[i]);
    gs_u64set_free(&s);
    return rep;
}
