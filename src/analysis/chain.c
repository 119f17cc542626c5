/* Chain builders (chain.h): stride walks and Sattolo single-cycle random walks. */
#include "analysis/chain.h"

#include <stdlib.h>

int gs_chain_stride(uint64_t count, uint64_t stride_bytes, uint64_t *out)
{
    if (count == 0 || stride_bytes == 0 || count - 1 > UINT64_MAX / stride_bytes)
        return -1;
    for (uint64_t i = 0; i < count; i++)
        out[i] = i * stride_bytes;
    return 0;
}

/* Sattolo's algorithm builds next[] as one cycle through all count elements; the chain is that
 * cycle followed from element 0. */
int gs_chain_sattolo(gs_rng *r, uint64_t count, uint64_t stride_bytes, uint64_t *out)
{
    if (count == 0 || stride_bytes == 0 || count - 1 > UINT64_MAX / stride_bytes)
        return -1;
    uint64_t *perm = malloc(count * sizeof *perm);
    if (!perm)
        return -1;
    for (uint64_t i = 0; i < count; i++)
        perm[i] = i;
    for (uint64_t i = count - 1; i > 0; i--) {
        uint64_t j = gs_rng_below(r, i);          /* j < i: Sattolo, not Fisher-Yates */
        uint64_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    /* perm is a single cycle: element e is followed by perm[e]. */
    uint64_t e = 0;
    for (uint64_t i = 0; i < count; i++) {
        out[i] = e * stride_bytes;
        e = perm[e];
    }
    free(perm);
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int gs_chain_valid(const uint64_t *chain, size_t n, unsigned element_bytes,
                   uint64_t footprint_bytes)
{
    if (n == 0 || element_bytes == 0)
        return 0;
    uint64_t *s = malloc(n * sizeof *s);
    if (!s)
        return 0;
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        s[i] = chain[i];
        ok = chain[i] % element_bytes == 0 && chain[i] + element_bytes <= footprint_bytes;
    }
    if (ok) {
        qsort(s, n, sizeof *s, cmp_u64);
        for (size_t i = 1; i < n && ok; i++)
            ok = s[i] != s[i - 1];
    }
    free(s);
    return ok;
}
