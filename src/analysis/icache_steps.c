/* Instruction-cache levels from a code-footprint sweep (icache_steps.h). */
#include "analysis/icache_steps.h"

#include <math.h>

#include "analysis/plateaus.h"

#define MAX_PLATEAUS 16

int gs_icache_steps(const double *bytes, const double *cpi, size_t n, double tolerance,
                    gs_icache_level *levels, size_t max, double *beyond)
{
    gs_plateau p[MAX_PLATEAUS];
    *beyond = NAN;
    if (n == 0)
        return 0;
    int count = gs_plateaus_find(bytes, cpi, n, tolerance, p, MAX_PLATEAUS);
    if (count < 0)
        return -1;
    if (count == 0)
        return 0;
    int found = 0;
    /* a level is a plateau the next one rises above; a fall (noise, a clock change) ends the
     * levels the sweep can name */
    for (int i = 0; i + 1 < count && (size_t)found < max; i++) {
        if (!(p[i + 1].latency > p[i].latency * (1 + tolerance)))
            break;
        size_t next = p[i].first + p[i].count;
        levels[found++] = (gs_icache_level){.cycles_per_instruction = p[i].latency,
                                            .bytes_low = p[i].last_x,
                                            .bytes_high = next < n ? bytes[next] : NAN,
                                            .points = p[i].count};
    }
    *beyond = p[found].latency;      /* the plateau after the last level (found < count) */
    return found;
}
