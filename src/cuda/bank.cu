/* The CUDA backend's bank operation. Placeholder until its issue lands: answers "unsupported". */
#include "cuda/cuda_internal.h"

int gs_cuda_bank(gs_backend *b, const gs_bank_plan *plan, gs_bank_result *out, gs_error *err)
{
    (void)b; (void)plan; (void)out;
    return gs_fail(err, GS_ERR_UNSUPPORTED, "the CUDA backend cannot run 'bank' plans yet");
}
