/* The CUDA backend's issue operation. Placeholder until its issue lands: answers "unsupported". */
#include "cuda/cuda_internal.h"

int gs_cuda_issue(gs_backend *b, const gs_issue_plan *plan, gs_issue_result *out, gs_error *err)
{
    (void)b; (void)plan; (void)out;
    return gs_fail(err, GS_ERR_UNSUPPORTED, "the CUDA backend cannot run 'issue' plans yet");
}
