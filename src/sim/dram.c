/* Simulator: the DRAM's layout (memory.dram's optional keys, docs/sim-models.md), what probe
 * dram-layout looks for. Addresses are spread over `channels` channels (memory partitions) in
 * blocks of interleave_bytes G: plainly (channel = (addr / G) mod C) or hashed (the XOR of every
 * log2(C)-bit group of addr / G). Inside a channel its own bytes (local address: the blocks it
 * holds, packed) are cut into rows of row_bytes R over `banks` banks: bank = (local / R) mod
 * banks, row = local / (R x banks). With row_bytes set, a DRAM access costs row_hit_cycles when
 * its row is the one open in its bank, else row_miss_cycles, and leaves its row open (an
 * open-page policy with no time-out). A strided read is limited to the share of the channels it
 * touches: the busiest channel moves its bytes at 1/C of the DRAM rate. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "sim/memory.h"
#include "sim/sim.h"

#define SHARE_SECTORS (1u << 20)  /* 32-byte sectors a strided plan's channel count looks at */

static unsigned log2_exact(uint64_t v)
{
    return (unsigned)__builtin_ctzll(v);
}

unsigned sim_dram_channel(const sim_dram *d, uint64_t paddr)
{
    if (d->channels <= 1)
        return 0;
    uint64_t block = paddr / d->interleave_bytes;
    if (d->hash == SIM_DRAM_HASH_NONE)
        return (unsigned)(block % d->channels);
    unsigned bits = log2_exact(d->channels), ch = 0;
    for (; block; block >>= bits)
        ch ^= (unsigned)(block & (d->channels - 1));
    return ch;
}

void sim_dram_reset(sim_dram *d)
{
    if (d->open_row)
        memset(d->open_row, 0, (size_t)d->channels * d->banks * sizeof *d->open_row);
}

double sim_dram_access(sim_memory *mem, uint64_t paddr)
{
    sim_dram *d = &mem->dram;
    if (!d->row_bytes || !d->open_row)
        return mem->dram_latency_cycles;
    uint64_t g = d->interleave_bytes, span = g * d->channels;
    uint64_t local = paddr / span * g + paddr % g;
    unsigned bank = (unsigned)(local / d->row_bytes % d->banks);
    uint64_t row = local / (d->row_bytes * d->banks) + 1;
    uint64_t *open = &d->open_row[(size_t)sim_dram_channel(d, paddr) * d->banks + bank];
    bool hit = *open == row;
    *open = row;
    return hit ? d->row_hit_cycles : d->row_miss_cycles;
}

/* Share of the full DRAM rate a strided read gets: bytes / (C x the busiest channel's bytes),
 * counted in 32-byte sectors over the first chunks (at most SHARE_SECTORS sectors). */
double sim_dram_strided_share(const sim_dram *d, uint64_t bytes, uint64_t stride,
                              uint64_t chunk)
{
    if (d->channels <= 1)
        return 1.0;
    uint64_t *count = calloc(d->channels, sizeof *count);
    if (!count)
        return 1.0;
    uint64_t sectors = (chunk + 31) / 32, chunks = bytes / stride, total = 0, busiest = 0;
    if (chunks * sectors > SHARE_SECTORS)
        chunks = SHARE_SECTORS / sectors ? SHARE_SECTORS / sectors : 1;
    for (uint64_t a = 0; a < chunks; a++)
        for (uint64_t s = 0; s < sectors; s++) {
            uint64_t c = ++count[sim_dram_channel(d, a * stride + s * 32)];
            busiest = c > busiest ? c : busiest;
            total++;
        }
    free(count);
    return busiest ? (double)total / ((double)d->channels * (double)busiest) : 1.0;
}

static int fail_key(gs_error *err, const char *where, const char *key, const char *msg)
{
    return gs_fail(err, GS_ERR_INPUT, "%s.%s: %s", where, key, msg);
}

static int read_layout(const json_t *j, const char *where, sim_dram *d, gs_error *err)
{
    uint64_t channels = 0, banks = 16, interleave = 0;
    const char *hash = "none";
    if (sim_get_uint(j, where, "channels", 0, &channels, err) ||
        sim_get_uint(j, where, "interleave_bytes", 0, &interleave, err) ||
        sim_get_uint(j, where, "banks", 0, &banks, err) ||
        sim_get_string(j, where, "hash", 0, &hash, err) ||
        sim_get_uint(j, where, "row_bytes", 0, &d->row_bytes, err) ||
        sim_get_double(j, where, "row_hit_cycles", 0, &d->row_hit_cycles, err) ||
        sim_get_double(j, where, "row_miss_cycles", 0, &d->row_miss_cycles, err))
        return GS_ERR_INPUT;
    d->channels = (unsigned)channels;
    d->banks = (unsigned)banks;
    d->interleave_bytes = interleave;
    if (strcmp(hash, "none") == 0)
        d->hash = SIM_DRAM_HASH_NONE;
    else if (strcmp(hash, "xor") == 0)
        d->hash = SIM_DRAM_HASH_XOR;
    else
        return fail_key(err, where, "hash", "must be \"none\" or \"xor\"");
    return 0;
}

int sim_dram_parse(const void *json_dram, const char *where, sim_memory *mem, gs_error *err)
{
    const json_t *j = json_dram;
    sim_dram *d = &mem->dram;
    d->row_miss_cycles = mem->dram_latency_cycles;
    int rc = read_layout(j, where, d, err);
    if (rc)
        return rc;
    bool layout = json_object_get(j, "channels") || json_object_get(j, "interleave_bytes") ||
                  json_object_get(j, "row_bytes");
    if (!layout)
        return 0;
    if (!d->channels || !d->interleave_bytes || (d->interleave_bytes & (d->interleave_bytes - 1)) ||
        d->interleave_bytes < 32)
        return fail_key(err, where, "interleave_bytes", "a layout needs channels >= 1 and "
                        "interleave_bytes, a power of two >= 32");
    if (d->hash == SIM_DRAM_HASH_XOR && (d->channels & (d->channels - 1)))
        return fail_key(err, where, "hash", "\"xor\" needs a power-of-two channel count");
    if (d->row_bytes && (d->row_bytes % d->interleave_bytes && d->interleave_bytes % d->row_bytes))
        return fail_key(err, where, "row_bytes", "must divide interleave_bytes or be a multiple "
                        "of it");
    if (d->row_bytes && !json_object_get(j, "row_hit_cycles"))
        return fail_key(err, where, "row_hit_cycles", "missing: a row buffer (row_bytes) needs "
                        "its hit latency");
    d->open_row = calloc((size_t)d->channels * d->banks, sizeof *d->open_row);
    if (!d->open_row)
        return gs_fail(err, GS_ERR_NO_MEMORY, "%s: out of host memory", where);
    return 0;
}
