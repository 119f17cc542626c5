/* The one harness of the CUDA operations: how a launch is repeated, warmed and timed, how a
 * dependent chain's cycle spans become cycles per step, and how clock64 and %globaltimer read
 * around a loop give the SM clock. An operation supplies only its launch. */
#include "cuda/cuda_internal.h"

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

int gs_cuda_time_launches(gs_cuda_run_fn run, void *arg, bool fresh, unsigned repeats,
                          double *seconds, size_t *n, gs_error *err)
{
    int rc = 0;
    float ms = 0, warm = 0;
    cudaEvent_t start = NULL, stop = NULL;
    *n = 0;
    CUDA_TRY(cudaEventCreate(&start));
    CUDA_TRY(cudaEventCreate(&stop));
    do {
        rc = timed_run(run, arg, start, stop, &ms, err);
        warm += ms;
    } while (!rc && fresh && warm < GS_WARM_FRESH_MS);
    for (unsigned r = 0; !rc && r < repeats; r++) {
        rc = timed_run(run, arg, start, stop, &ms, err);
        seconds[r] = ms * 1e-3;
        *n = rc ? *n : r + 1;
    }
fail:
    if (start)
        cudaEventDestroy(start);
    if (stop)
        cudaEventDestroy(stop);
    return rc;
}

int gs_cuda_time_runs(gs_cuda_run_fn run, void *arg, bool fresh, unsigned repeats,
                      gs_stream_result *out, gs_error *err)
{
    int rc = gs_cuda_time_launches(run, arg, fresh, repeats, out->seconds, &out->n, err);
    if (rc)
        out->n = 0;
    return rc;
}

int gs_cuda_chain_spans(gs_cuda_reps_fn launch, void *arg, unsigned repeats,
                        unsigned max_per_launch, const long long *spans_dev, unsigned chain,
                        double *values, size_t *n, gs_error *err)
{
    int rc = 0;
    long long spans[2 * GS_CUDA_MAX_CHAIN_REPEATS];
    *n = 0;
    if (max_per_launch > GS_CUDA_MAX_CHAIN_REPEATS)
        max_per_launch = GS_CUDA_MAX_CHAIN_REPEATS;
    for (unsigned done = 0; done < repeats;) {
        unsigned reps = repeats - done < max_per_launch ? repeats - done : max_per_launch;
        rc = launch(arg, reps, err);
        if (rc)
            return rc;
        CUDA_LAUNCH_CHECK();
        CUDA_TRY(cudaMemcpy(spans, spans_dev, 2 * reps * sizeof *spans, cudaMemcpyDeviceToHost));
        for (unsigned r = 0; r < reps; r++)
            values[done + r] = (double)(spans[2 * r + 1] - spans[2 * r]) / chain;
        done += reps;
        *n = done;
    }
fail:
    return rc;
}

int gs_cuda_clock_of(const unsigned long long *clk_dev, double *clock_khz, gs_error *err)
{
    int rc = 0;
    unsigned long long clk[4];
    CUDA_TRY(cudaMemcpy(clk, clk_dev, sizeof clk, cudaMemcpyDeviceToHost));
    if (clk[3] > clk[2] && clk[1] > clk[0])
        *clock_khz = (double)(clk[1] - clk[0]) / (double)(clk[3] - clk[2]) * 1e6;
fail:
    return rc;
}
