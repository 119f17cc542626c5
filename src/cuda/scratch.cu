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
        gs_cuda_chase_release();
        gs_cuda_chase_flush_release();
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

/* One run between two events: its milliseconds into *ms. */
static int timed_run(gs_cuda_run_fn run, void *arg, cudaEvent_t start, cudaEvent_t stop,
                     float *ms, gs_error *err)
{
    int rc = 0;
    CUDA_TRY(cudaEventRecord(start));
    rc = run(arg, err);
    if (rc)
        return rc;
    CUDA_TRY(cudaEventRecord(stop));
    CUDA_TRY(cudaEventSynchronize(stop));
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaEventElapsedTime(ms, start, stop));
fail:
    return rc;
}

int gs_cuda_time_runs(gs_cuda_run_fn run, void *arg, bool fresh, unsigned repeats,
                      gs_stream_result *out, gs_error *err)
{
    int rc = 0;
    float ms = 0, warm = 0;
    cudaEvent_t start = NULL, stop = NULL;
    out->n = 0;
    CUDA_TRY(cudaEventCreate(&start));
    CUDA_TRY(cudaEventCreate(&stop));
    do {
        rc = timed_run(run, arg, start, stop, &ms, err);
        warm += ms;
    } while (!rc && fresh && warm < GS_WARM_FRESH_MS);
    for (unsigned r = 0; !rc && r < repeats; r++) {
        rc = timed_run(run, arg, start, stop, &ms, err);
        out->seconds[r] = ms * 1e-3;
    }
    out->n = rc ? 0 : repeats;
fail:
    if (start)
        cudaEventDestroy(start);
    if (stop)
        cudaEventDestroy(stop);
    return rc;
}
