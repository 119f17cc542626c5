/* Opening a device (DESIGN.md, "Backend interface"): a probe builds a plan in plain C (src/plan.h),
 * hands it to a backend and analyses what comes back. This header opens the backend a --device
 * spec names: the CUDA backend (src/cuda/) runs plans on a real GPU; the simulator backend
 * (src/sim/) runs the same plans on a modelled GPU whose structure is known. It sits above both:
 * they include only src/plan.h, never this header. */
#ifndef GS_BACKEND_H
#define GS_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "cuda/cuda_backend.h"
#include "plan.h"
#include "sim/sim_backend.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Open a backend from a --device spec: "cuda:N", "sim", "sim:NAME" (built-in model) or
 * "sim:FILE.json". spec NULL means the default: cuda:0 when a GPU is present, else sim:hopper;
 * *fell_back is set true in that case so the caller can say so. */
int gs_backend_open(const char *spec, uint64_t seed, gs_backend **out, bool *fell_back,
                    gs_error *err);
void gs_backend_close(gs_backend *b);

#ifdef __cplusplus
}
#endif

#endif
