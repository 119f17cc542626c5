/* Simulator: the shared-memory bank model of a model file's "shared_memory" section
 * (docs/sim-models.md): bank count, bank width, the latency of a conflict-free warp access, the
 * cost of each extra wavefront a bank conflict adds, and the broadcast rule. */
#ifndef GS_SIM_BANKS_H
#define GS_SIM_BANKS_H

#include <stdbool.h>

#include "plan.h"

typedef struct sim_banks {
    unsigned banks;                  /* "banks": bank count */
    unsigned bank_width_bytes;       /* "bank_width_bytes": bytes each bank serves per cycle */
    double latency_cycles;           /* "latency_cycles": one conflict-free wavefront */
    double conflict_cycles_per_way;  /* "conflict_cycles_per_way": each extra wavefront */
    bool multicast;                  /* "broadcast": "multicast" (any lanes reading one bank word
                                        share it) or "single" (one word per request is broadcast,
                                        other lanes that share a word still conflict) */
} sim_banks;

/* Wavefronts (bank-conflict-free passes) one warp access of plan needs under model b: the warp is
 * split into phases of banks * bank_width_bytes / access_bytes lanes (at most 32, at least 1);
 * each phase takes as many passes as the most distinct rows any one bank is asked for. */
unsigned sim_bank_wavefronts(const sim_banks *b, const gs_bank_plan *plan);

#endif
