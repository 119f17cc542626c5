/* splitmix64 (Steele, Lea, Flood 2014): small, fast, and good enough for chains and noise. */
#include "util/rng.h"

void gs_rng_seed(gs_rng *r, uint64_t seed)
{
    r->state = seed ^ 0x9e3779b97f4a7c15ull;
}

uint64_t gs_rng_next(gs_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Draws at or past the last whole multiple of bound are drawn again (no modulo bias). Only a draw
 * above UINT64_MAX - bound can be one, so the division that finds that multiple is made only
 * then: the same numbers, one division instead of two. */
uint64_t gs_rng_below(gs_rng *r, uint64_t bound)
{
    uint64_t x = gs_rng_next(r);
    if (x > UINT64_MAX - bound) {
        uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
        while (x >= limit)
            x = gs_rng_next(r);
    }
    return x % bound;
}

double gs_rng_unit(gs_rng *r)
{
    return (double)(gs_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}
