/* DRAM channel interleaving from a strided-read bandwidth sweep (interleave.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/interleave.h"

static bool power_of_two(double x)
{
    return x >= 1 && x == ldexp(1, (int)lround(log2(x)));
}

static bool at_floor(double gbps, double floor_gbps)
{
    return gbps <= floor_gbps * GS_INTERLEAVE_FLOOR_TOL;
}

/* The smallest stride at the floor; every measured multiple of it must be there too. */
static void find_span(const double *s, const double *g, size_t n, gs_interleave *o)
{
    size_t i = 0;
    while (i < n && !at_floor(g[i], o->floor_gbps))
        i++;
    o->span_bytes = s[i];
    for (size_t k = i + 1; k < n; k++)
        if (fmod(s[k], s[i]) == 0 && !at_floor(g[k], o->floor_gbps)) {
            snprintf(o->why, sizeof o->why, "the drop is not periodic: stride %.0f B is at the "
                     "floor but its multiple %.0f B keeps %.0f%% of the best", s[i], s[k],
                     100 * g[k] / o->best_gbps);
            return;
        }
    o->span_found = true;
}

/* The last power-of-two stride before the first power of two below GS_INTERLEAVE_FULL. */
static void find_granularity(const double *s, const double *g, size_t n, gs_interleave *o)
{
    double last_full = 0;
    for (size_t i = 0; i < n; i++) {
        if (!power_of_two(s[i]))
            continue;
        if (g[i] < GS_INTERLEAVE_FULL * o->best_gbps)
            break;
        last_full = s[i];
    }
    if (last_full == 0) {
        snprintf(o->why, sizeof o->why, "the smallest power-of-two stride already loses channels: "
                 "the granularity is below %.0f B", s[0]);
        return;
    }
    o->interleave_bytes = last_full;
    o->granularity_found = true;
}

static void find_channels(gs_interleave *o)
{
    double c = o->span_bytes / o->interleave_bytes;
    if (c < 2 || c != floor(c)) {
        snprintf(o->why, sizeof o->why, "span %.0f B is not a multiple (>= 2) of the granularity "
                 "%.0f B", o->span_bytes, o->interleave_bytes);
        return;
    }
    o->channels = c;
    if (o->drop < c / 1.5 || o->drop > c * 1.5) {
        snprintf(o->why, sizeof o->why, "span / granularity gives %.0f channels but the floor "
                 "is 1/%.1f of the best", c, o->drop);
        return;
    }
    o->channels_found = true;
}

int gs_interleave_infer(const double *stride_bytes, const double *gbps, size_t n,
                        gs_interleave *out)
{
    memset(out, 0, sizeof *out);
    if (n < 3 || !stride_bytes || !gbps)
        return -1;
    out->floor_gbps = INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(gbps[i]) || gbps[i] <= 0 || !(stride_bytes[i] > 0) ||
            (i && stride_bytes[i] <= stride_bytes[i - 1]))
            return -1;
        out->best_gbps = fmax(out->best_gbps, gbps[i]);
        out->floor_gbps = fmin(out->floor_gbps, gbps[i]);
    }
    out->drop = out->best_gbps / out->floor_gbps;
    out->collapsed = out->drop >= GS_INTERLEAVE_MIN_DROP;
    if (!out->collapsed) {
        snprintf(out->why, sizeof out->why, "the address-to-channel mapping is hashed (no stride "
                 "concentrates traffic): the slowest stride keeps 1/%.2f of the best bandwidth",
                 out->drop);
        return 0;
    }
    find_span(stride_bytes, gbps, n, out);
    if (out->span_found)
        find_granularity(stride_bytes, gbps, n, out);
    if (out->granularity_found)
        find_channels(out);
    /* Span, granularity and channel count are one inference: a span and a granularity whose
     * quotient the drop does not confirm are not found either (on the H100 the 64-B DRAM fetch
     * under 32-B chunks made a 'span' of 192 B and a 'granularity' of 32 B). Their values stay
     * as the evidence the reason quotes. */
    if (!out->channels_found && (out->span_found || out->granularity_found)) {
        char why[200];
        snprintf(why, sizeof why, "%.199s", out->why);
        snprintf(out->why, sizeof out->why, "the curve's floor and edge (span %.0f B, granularity "
                 "%.0f B) do not make a channel count: %s", out->span_bytes,
                 out->interleave_bytes, why);
        out->span_found = out->granularity_found = false;
    }
    return 0;
}
