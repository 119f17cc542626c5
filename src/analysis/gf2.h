/* Set-index functions as XOR (linear) combinations of address bits, solved over GF(2): each index
 * bit i is the parity of (address & masks[i]). Addresses that conflict (fall in one set, e.g. an
 * eviction set found by timing) have equal parities under every mask, so every mask lies in the
 * null space of their differences (a XOR b); addresses known to lie in different sets must differ
 * in at least one parity, which the null space either explains or refutes. Pure functions over
 * arrays; the API is small and stable (the L1 and L2 methods both use it). */
#ifndef GS_GF2_H
#define GS_GF2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GS_GF2_MAX_MASKS 64

/* Parity (0 or 1) of the bits of x. */
static inline unsigned gs_gf2_parity(uint64_t x) { return (unsigned)__builtin_parityll(x); }

/* Set index of addr under k masks: bit i is the parity of addr & masks[i]. */
uint64_t gs_gf2_index(const uint64_t *masks, size_t k, uint64_t addr);

/* Reduce n vectors in place to a basis of their span in reduced row-echelon form (each vector's
 * highest bit appears in no other; vectors sorted by highest bit, descending). Returns the rank
 * (the first rank entries hold the basis). */
size_t gs_gf2_reduce(uint64_t *vectors, size_t n);

/* Is x in the span of a basis returned by gs_gf2_reduce (rank entries)? */
bool gs_gf2_in_span(const uint64_t *basis, size_t rank, uint64_t x);

/* Basis of the masks m inside bits (m & ~bits == 0) with parity(m & d) == 0 for every one of the
 * n vectors d, in reduced row-echelon form; at most max_masks written. Returns the dimension of
 * that null space (which may exceed max_masks; then only max_masks are written). */
size_t gs_gf2_null_space(const uint64_t *vectors, size_t n, uint64_t bits, uint64_t *masks,
                         size_t max_masks);

/* What gs_gf2_solve_sets found. */
typedef struct gs_gf2_fit {
    uint64_t masks[GS_GF2_MAX_MASKS]; /* index functions, reduced row-echelon form */
    size_t count;              /* number of masks: 2^count sets */
    uint64_t bits;             /* address bits considered: those given that vary among addresses */
    size_t conflict_pairs;     /* differences of conflicting addresses used */
    size_t separate_checked;   /* pairs of addresses in different groups checked */
    size_t separate_violated;  /* of those, pairs the masks put in one set (0: consistent) */
    bool consistent;           /* count > 0 and no pair violated */
} gs_gf2_fit;

/* Fit XOR index functions to addresses grouped by set: group[i] names the set of addr[i]
 * (addresses of one group conflict; a negative group is unknown and ignored). Only the address
 * bits in `bits` that vary among the grouped addresses are used (bits that never vary are
 * unconstrained and left out). Every pair of addresses in different groups is checked (at most
 * max_separate_pairs of them, 0 = all). 0, or -1 on bad input (n 0, bits 0). A modulo or
 * non-linear index shows as count 0 or separate_violated > 0: no linear function explains it. */
int gs_gf2_solve_sets(const uint64_t *addr, const int32_t *group, size_t n, uint64_t bits,
                      size_t max_separate_pairs, gs_gf2_fit *out);

/* Share (0..1) of the n pairs (a[i], b[i]) whose "same set" verdict same[i] the masks predict
 * (held-out conflicts); 1 when n is 0. */
double gs_gf2_predicts(const uint64_t *masks, size_t k, const uint64_t *a, const uint64_t *b,
                       const bool *same, size_t n);

/* Whether k masks in reduced row-echelon form (as gs_gf2_null_space and gs_gf2_solve_sets give
 * them) are single bits: their span is then a bit selection (the reduced form of a span of unit
 * vectors is those vectors, so no other basis of it hides one). The bits go to bits_out
 * ascending (k entries, when not NULL). False for k 0. */
bool gs_gf2_bit_selection(const uint64_t *masks, size_t k, unsigned *bits_out);

/* Whether timing verdicts can carry a fit: the averages judged "same set" (slow) span
 * [yes_lo, yes_hi] over yes_n walks, those judged apart [no_lo, no_hi] over no_n. True when each
 * verdict has at least 2 walks and the gap yes_lo - no_hi exceeds twice the wider band's spread,
 * so no verdict lies where the noise measured in either band could carry it across. */
bool gs_gf2_bands_apart(double yes_lo, double yes_hi, size_t yes_n, double no_lo, double no_hi,
                        size_t no_n);

#endif
