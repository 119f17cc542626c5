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

uint64_t gs_rng_below(gs_rng *r, uint64_t bound)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do {
        x = gs_rng_next(r);
    } while (x >= limit);
    return x % bound;
}

double gs_rng_unit(gs_rng *r)
{
    return (double)(gs_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}
