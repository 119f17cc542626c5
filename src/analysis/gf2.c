/* Set-index functions over GF(2) (see gf2.h): Gaussian elimination on 64-bit rows, the null space
 * of conflicting addresses' differences, and the check of addresses in different sets. Pure. */
#include "analysis/gf2.h"

static unsigned top_bit(uint64_t x) { return 63u - (unsigned)__builtin_clzll(x); }

uint64_t gs_gf2_index(const uint64_t *masks, size_t k, uint64_t addr)
{
    uint64_t idx = 0;
    for (size_t i = 0; i < k && i < 64; i++)
        idx |= (uint64_t)gs_gf2_parity(addr & masks[i]) << i;
    return idx;
}

/* Add x to a basis in reduced row-echelon form (rank entries, room for 64); returns the new
 * rank. */
static size_t basis_insert(uint64_t *basis, size_t rank, uint64_t x)
{
    for (size_t i = 0; i < rank && x; i++)
        if ((x >> top_bit(basis[i])) & 1u)
            x ^= basis[i];
    if (!x)
        return rank;
    unsigned h = top_bit(x);
    for (size_t i = 0; i < rank; i++)     /* clear the new pivot from the others */
        if ((basis[i] >> h) & 1u)
            basis[i] ^= x;
    size_t pos = rank;                    /* keep rows sorted by pivot, descending */
    while (pos > 0 && top_bit(basis[pos - 1]) < h) {
        basis[pos] = basis[pos - 1];
        pos--;
    }
    basis[pos] = x;
    return rank + 1;
}

size_t gs_gf2_reduce(uint64_t *vectors, size_t n)
{
    uint64_t basis[64] = {0};
    size_t rank = 0;
    for (size_t i = 0; i < n && rank < 64; i++)
        rank = basis_insert(basis, rank, vectors[i]);
    for (size_t i = 0; i < rank; i++)
        vectors[i] = basis[i];
    return rank;
}

bool gs_gf2_in_span(const uint64_t *basis, size_t rank, uint64_t x)
{
    for (size_t i = 0; i < rank && x; i++)
        if ((x >> top_bit(basis[i])) & 1u)
            x ^= basis[i];
    return x == 0;
}

/* Null space of a reduced basis (rank rows) inside bits: one mask per free bit f, e_f plus the
 * pivot of every row holding f. */
static size_t null_of_basis(const uint64_t *basis, size_t rank, uint64_t bits, uint64_t *out)
{
    uint64_t pivots = 0;
    for (size_t i = 0; i < rank; i++)
        pivots |= 1ull << top_bit(basis[i]);
    size_t k = 0;
    for (unsigned f = 0; f < 64; f++) {
        if (!((bits >> f) & 1u) || ((pivots >> f) & 1u))
            continue;
        uint64_t m = 1ull << f;
        for (size_t i = 0; i < rank; i++)
            if ((basis[i] >> f) & 1u)
                m |= 1ull << top_bit(basis[i]);
        out[k++] = m;
    }
    return gs_gf2_reduce(out, k);
}

size_t gs_gf2_null_space(const uint64_t *vectors, size_t n, uint64_t bits, uint64_t *masks,
                         size_t max_masks)
{
    uint64_t basis[64] = {0}, null[64];
    size_t rank = 0;
    for (size_t i = 0; i < n && rank < 64; i++)
        rank = basis_insert(basis, rank, vectors[i] & bits);
    size_t k = null_of_basis(basis, rank, bits, null);
    for (size_t i = 0; i < k && i < max_masks; i++)
        masks[i] = null[i];
    return k;
}

int gs_gf2_solve_sets(const uint64_t *addr, const int32_t *group, size_t n, uint64_t bits,
                      size_t max_separate_pairs, gs_gf2_fit *out)
{
    if (!addr || !group || !out || n == 0 || bits == 0)
        return -1;
    *out = (gs_gf2_fit){0};
    size_t first = n;
    for (size_t i = 0; i < n && first == n; i++)
        if (group[i] >= 0)
            first = i;
    if (first == n)
        return -1;
    uint64_t varying = 0;
    for (size_t i = first; i < n; i++)
        if (group[i] >= 0)
            varying |= (addr[i] ^ addr[first]) & bits;
    out->bits = varying;
    uint64_t basis[64] = {0};
    size_t rank = 0;
    for (size_t i = first; i < n; i++) {   /* each address against its group's first member */
        if (group[i] < 0)
            continue;
        size_t j = first;
        while (group[j] != group[i])
            j++;
        if (j == i)
            continue;
        out->conflict_pairs++;
        if (rank < 64)
            rank = basis_insert(basis, rank, (addr[i] ^ addr[j]) & varying);
    }
    out->count = null_of_basis(basis, rank, varying, out->masks);
    for (size_t i = first; i < n; i++) {
        for (size_t j = i + 1; j < n; j++) {
            if (group[i] < 0 || group[j] < 0 || group[i] == group[j])
                continue;
            if (max_separate_pairs && out->separate_checked >= max_separate_pairs)
                break;
            out->separate_checked++;
            if (gs_gf2_in_span(basis, rank, (addr[i] ^ addr[j]) & varying))
                out->separate_violated++;
        }
    }
    out->consistent = out->count > 0 && out->separate_checked > 0 && out->separate_violated == 0;
    return 0;
}

double gs_gf2_predicts(const uint64_t *masks, size_t k, const uint64_t *a, const uint64_t *b,
                       const bool *same, size_t n)
{
    if (n == 0)
        return 1.0;
    size_t ok = 0;
    for (size_t i = 0; i < n; i++)
        ok += (gs_gf2_index(masks, k, a[i]) == gs_gf2_index(masks, k, b[i])) == same[i];
    return (double)ok / (double)n;
}

bool gs_gf2_bit_selection(const uint64_t *masks, size_t k, unsigned *bits_out)
{
    if (!masks || k == 0 || k > 64)
        return false;
    for (size_t i = 0; i < k; i++)
        if (!masks[i] || (masks[i] & (masks[i] - 1)))
            return false;
    for (size_t i = 0; bits_out && i < k; i++)   /* reduced form: pivots descending */
        bits_out[i] = top_bit(masks[k - 1 - i]);
    for (size_t i = 1; bits_out && i < k; i++)   /* any order given: sort ascending */
        for (size_t j = i; j > 0 && bits_out[j - 1] > bits_out[j]; j--) {
            unsigned t = bits_out[j];
            bits_out[j] = bits_out[j - 1], bits_out[j - 1] = t;
        }
    return true;
}

bool gs_gf2_bands_apart(double yes_lo, double yes_hi, size_t yes_n, double no_lo, double no_hi,
                        size_t no_n)
{
    if (yes_n < 2 || no_n < 2 || !(yes_hi >= yes_lo) || !(no_hi >= no_lo))
        return false;                               /* also refuses NaN */
    double spread = yes_hi - yes_lo > no_hi - no_lo ? yes_hi - yes_lo : no_hi - no_lo;
    return yes_lo - no_hi > 2 * spread;
}
