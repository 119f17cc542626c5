/* Device buffers shared by the stream operations (stream.cu, level_stream.cu), kept from one plan
 * to the next and released at the backend's close, and the timing of their runs on them (see
 * cuda_internal.h). */
#include "cuda/cuda_internal.h"

static struct {
    int ordinal;
    void *buf[GS_SCRATCH_BUFFERS];
    size_t bytes[GS_SCRATCH_BUFFERS];
} scratch = { -1, { NULL }, { 0 } };

/* Errors are ignored: nothing can be reported at close (as gs_cuda_issue_release). */
void gs_cuda_scratch_release(void)
{
    if (scratch.ordinal >= 0 && cudaSetDevice(scratch.ordinal) == cudaSuccess)
        for (int i = 0; i < GS_SCRATCH_BUFFERS; i++)
            (void)cudaFree(scratch.buf[i]);
    (void)cudaGetLastError();
    scratch.ordinal = -1;
    for (int i = 0; i < GS_SCRATCH_BUFFERS; i++) {
        scratch.buf[i] = NULL;
        scratch.bytes[i] = 0;
    }
}

cudaError_t gs_cuda_grow(void **buf, size_t *have, size_t bytes, bool *grown)
{
    if (*have >= bytes)
        return cudaSuccess;
    *grown = true;
    (void)cudaFree(*buf);
    *buf = NULL;
    size_t want = 2 * *have > bytes ? 2 * *have : bytes;
    cudaError_t e = cudaMalloc(buf, want);
    if (e == cudaErrorMemoryAllocation && want > bytes) {
        (void)cudaGetLastError();
        want = bytes;
        e = cudaMalloc(buf, want);
    }
    *have = e == cudaSuccess ? want : 0;
    if (e != cudaSuccess)
        *buf = NULL;
    return e;
}

/* Buffer i of at least bytes, and of GS_SCRATCH_MIN_BYTES where that fits (a sweep's growing
 * footprints then reallocate a few times, not once an octave). */
static cudaError_t grow(int i, size_t bytes, bool *fresh)
{
    size_t want = bytes < GS_SCRATCH_MIN_BYTES ? (size_t)GS_SCRATCH_MIN_BYTES : bytes;
    cudaError_t e = gs_cuda_grow(&scratch.buf[i], &scratch.bytes[i], want, fresh);
    if (e == cudaErrorMemoryAllocation && want > bytes) {
        (void)cudaGetLastError();
        e = gs_cuda_grow(&scratch.buf[i], &scratch.bytes[i], bytes, fresh);
    }
    return e;
}

/* The other files' spare buffers, freed when the scratch buffers find no room (registered by
 * their owners, so this file knows none of them). */
static struct {
    void (*release[4])(void);
    int n;
} spare;

void gs_cuda_spare_register(void (*release)(void))
{
    for (int i = 0; i < spare.n; i++)
        if (spare.release[i] == release)
            return;
    if (spare.n < (int)(sizeof spare.release / sizeof *spare.release))
        spare.release[spare.n++] = release;
}

int gs_cuda_scratch(int ordinal, int count, size_t bytes, void **out, bool *fresh, gs_error *err)
{
    int rc = 0;
    cudaError_t e = cudaSuccess;
    if (count < 1 || count > GS_SCRATCH_BUFFERS)
        return gs_fail(err, GS_ERR_USAGE, "scratch: %d buffers (1 to %d)", count,
                       GS_SCRATCH_BUFFERS);
    *fresh = scratch.ordinal != ordinal;
    if (*fresh)
        gs_cuda_scratch_release();
    CUDA_TRY(cudaSetDevice(ordinal));
    scratch.ordinal = ordinal;
    for (int i = 0; i < count && e == cudaSuccess; i++)
        e = grow(i, bytes, fresh);
    if (e == cudaErrorMemoryAllocation) {        /* the others' spare room: give it all back */
        (void)cudaGetLastError();
        gs_cuda_scratch_release();
        for (int i = 0; i < spare.n; i++)
            spare.release[i]();
        scratch.ordinal = ordinal;
        e = cudaSuccess;
        for (int i = 0; i < count && e == cudaSuccess; i++)
            e = grow(i, bytes, fresh);
    }
    if (e != cudaSuccess)
        return gs_cuda_fail(err, e, "cudaMalloc(scratch buffer)", __FILE__, __LINE__);
    for (int i = 0; i < count; i++)
        out[i] = scratch.buf[i];
fail:
    return rc;
}
