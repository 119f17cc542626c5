/* The CUDA backend's stream operation. Placeholder until its issue lands: answers "unsupported". */
#include "cuda/cuda_internal.h"

int gs_cuda_stream(gs_backend *b, const gs_stream_plan *plan, gs_stream_result *out, gs_error *err)
{
    (void)b; (void)plan; (void)out;
    return gs_fail(err, GS_ERR_UNSUPPORTED, "the CUDA backend cannot run 'stream' plans yet");
}
