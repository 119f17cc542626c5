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
uint64_t gs_rng_next(gs_rng *r);
/* Uniform integer in [0, bound), bound > 0, without modulo bias. */
uint64_t gs_rng_below(gs_rng *r, uint64_t bound);
/* Uniform double in [0, 1). */
double gs_rng_unit(gs_rng *r);

#endif
