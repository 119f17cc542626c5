/* Chain builders for pointer chases (section 3.2 of the memory-hierarchy paper, Listing 3, and the
 * Sattolo random walk of the roofline paper): a chain is the ordered list of byte offsets that a
 * chase visits, wrapping from the last to the first (gs_chase_plan.chain). Pure functions. */
#ifndef GS_CHAIN_H
#define GS_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "util/rng.h"

/* Stride walk (Listing 3): out[i] = i * stride_bytes for i < count. 0, or -1 when count is 0,
 * stride_bytes is 0 or the last offset would overflow. */
int gs_chain_stride(uint64_t count, uint64_t stride_bytes, uint64_t *out);

/* Sattolo random walk: the count elements at offsets i * stride_bytes visited in the order of one
 * uniformly random cyclic permutation (the distribution Sattolo's algorithm draws from), so that
 * following the chain from any element visits every element once before returning. out[0] is
 * always offset 0, the others follow in a uniformly random order (chain.c says why that is the
 * same); the order is a function of the rng's state only (seed it from --seed). 0, or -1 as
 * gs_chain_stride, when count exceeds 2^32 - 1 (a 32 GB chain) or when host memory runs out.
 * Used by `pchase --order sattolo` and by the random-walk probes. */
int gs_chain_sattolo(gs_rng *r, uint64_t count, uint64_t stride_bytes, uint64_t *out);

/* True if chain[0..n) is a valid chain: offsets distinct, multiples of element_bytes and below
 * footprint_bytes. */
int gs_chain_valid(const uint64_t *chain, size_t n, unsigned element_bytes,
                   uint64_t footprint_bytes);

#endif
