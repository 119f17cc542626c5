/* The CUDA backend's chase operation. Placeholder until its issue lands: answers "unsupported". */
#include "cuda/cuda_internal.h"

int gs_cuda_chase(gs_backend *b, const gs_chase_plan *plan, gs_chase_result *out, gs_error *err)
{
    (void)b; (void)plan; (void)out;
    return gs_fail(err, GS_ERR_UNSUPPORTED, "the CUDA backend cannot run 'chase' plans yet");
}
