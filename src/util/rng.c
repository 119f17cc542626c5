/* splitmix64 (Steele, Lea, Flood 2014): small, fast, and good enough for chains and noise. */
#include "util/rng.h"

void gs_rng_seed(gs_rng *r, uint64_t seed)
{
    r->state = seed ^ 0x9e3779b97f4a7c15ull;
}
