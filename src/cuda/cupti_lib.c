/* CUPTI found and resolved at run time (cuda/cupti_lib.h). The range profiler (cuptiRange
 * Profiler*, with cuptiProfilerHost* for the configuration and the metrics' values) came with
 * CUDA 12.6: a libcupti without it is too old, and the capability says so. */
#include <stdio.h>
#include <string.h>

#include "cuda/cupti_lib.h"
#include "util/dynlib.h"

const char *const gs_cupti_names[] = {"libcupti.so.13", "libcupti.so", NULL};
const char *const gs_cupti_dirs[] = {"/usr/local/cuda/lib64", "/usr/local/cuda/extras/CUPTI/lib64",
                                     "/usr/local/cuda/targets/x86_64-linux/lib",
                                     "/usr/local/cuda/targets/sbsa-linux/lib", NULL};

static const char *const symbols[GS_CUPTI_SYMBOLS + 1] = {
    "cuptiGetVersion",
    "cuptiGetResultString",
    "cuptiDeviceGetChipName",
    "cuptiProfilerInitialize",
    "cuptiProfilerDeInitialize",
    "cuptiProfilerHostInitialize",
    "cuptiProfilerHostDeinitialize",
    "cuptiProfilerHostConfigAddMetrics",
    "cuptiProfilerHostGetConfigImageSize",
    "cuptiProfilerHostGetConfigImage",
    "cuptiProfilerHostGetNumOfPasses",
    "cuptiProfilerHostEvaluateToGpuValues",
    "cuptiRangeProfilerEnable",
    "cuptiRangeProfilerDisable",
    "cuptiRangeProfilerGetCounterDataSize",
    "cuptiRangeProfilerCounterDataImageInitialize",
    "cuptiRangeProfilerSetConfig",
    "cuptiRangeProfilerStart",
    "cuptiRangeProfilerStop",
    "cuptiRangeProfilerPushRange",
    "cuptiRangeProfilerPopRange",
    "cuptiRangeProfilerDecodeData",
    "cuptiRangeProfilerGetCounterDataInfo",
    NULL,
};

int gs_cupti_lib_load(const char *const *names, const char *const *dirs, gs_cupti_lib *lib,
                      char *reason, size_t reason_len)
{
    char why[400];
    memset(lib, 0, sizeof *lib);
    if (gs_dynlib_open(names, dirs, &lib->handle, lib->path, sizeof lib->path, why,
                       sizeof why) != 0) {
        snprintf(reason, reason_len, "libcupti %s", why);
        return -1;
    }
    if (gs_dynlib_resolve(lib->handle, symbols, lib->fns, why, sizeof why) != 0) {
        snprintf(reason, reason_len, "%s is %s (the range profiler needs CUPTI of CUDA 12.6 "
                 "or later)", lib->path, why);
        gs_cupti_lib_unload(lib);
        return -1;
    }
    return 0;
}

void gs_cupti_lib_unload(gs_cupti_lib *lib)
{
    gs_dynlib_close(lib->handle);
    memset(lib, 0, sizeof *lib);
}
