/* The simulator backend's constructor (src/sim/sim_backend.c): what src/backend.c calls to open a
 * modelled GPU from a built-in model name or a model file (docs/sim-models.md). */
#ifndef GS_SIM_BACKEND_H
#define GS_SIM_BACKEND_H

#include <stdint.h>

#include "plan.h"

#ifdef __cplusplus
extern "C" {
#endif

int gs_sim_open(const char *model, uint64_t seed, gs_backend **out, gs_error *err);

#ifdef __cplusplus
}
#endif

#endif
