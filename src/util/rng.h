/* A small seeded random number generator (splitmix64), the only source of randomness in
 * gpusonar: Sattolo chains, simulator noise and random replacement all draw from one, seeded
 * from --seed, so that every run is repeatable. */
#ifndef GS_RNG_H
#define GS_RNG_H

#include <stdint.h>

typedef struct gs_rng {
    uint64_t state;
} gs_rng;

void gs_rng_seed(gs_rng *r, uint64_t seed);

/* The draws are inline: the simulator draws its noise once per timed access. */
static inline uint64_t gs_rng_next(gs_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform integer in [0, bound), bound > 0, without modulo bias: draws at or past the last whole
 * multiple of bound are drawn again. Only a draw above UINT64_MAX - bound can be one, so the
 * division that finds that multiple is made only then: the same numbers, one division instead
 * of two. */
static inline uint64_t gs_rng_below(gs_rng *r, uint64_t bound)
{
    uint64_t x = gs_rng_next(r);
    if (x > UINT64_MAX - bound) {
        uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
        while (x >= limit)
            x = gs_rng_next(r);
    }
    return x % bound;
}

/* Uniform double in [0, 1). */
static inline double gs_rng_unit(gs_rng *r)
{
    return (double)(gs_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
