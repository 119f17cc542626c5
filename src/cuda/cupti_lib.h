/* CUPTI, found and resolved at run time (util/dynlib.h) for the CUDA backend's counters
 * capability (src/cuda/cupti.cu): which files, which folders, which symbols. Plain C with no
 * CUDA header, built into every gpusonar, so that the loader's failure paths are tested where
 * no GPU is. */
#ifndef GS_CUPTI_LIB_H
#define GS_CUPTI_LIB_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The entry points the counters use, in the order of gs_cupti_symbols. */
enum {
    GS_CUPTI_GET_VERSION,
    GS_CUPTI_GET_RESULT_STRING,
    GS_CUPTI_DEVICE_GET_CHIP_NAME,
    GS_CUPTI_PROFILER_INITIALIZE,
    GS_CUPTI_PROFILER_DEINITIALIZE,
    GS_CUPTI_HOST_INITIALIZE,
    GS_CUPTI_HOST_DEINITIALIZE,
    GS_CUPTI_HOST_CONFIG_ADD_METRICS,
    GS_CUPTI_HOST_GET_CONFIG_IMAGE_SIZE,
    GS_CUPTI_HOST_GET_CONFIG_IMAGE,
    GS_CUPTI_HOST_GET_NUM_OF_PASSES,
    GS_CUPTI_HOST_EVALUATE_TO_GPU_VALUES,
    GS_CUPTI_RANGE_ENABLE,
    GS_CUPTI_RANGE_DISABLE,
    GS_CUPTI_RANGE_GET_COUNTER_DATA_SIZE,
    GS_CUPTI_RANGE_COUNTER_DATA_INITIALIZE,
    GS_CUPTI_RANGE_SET_CONFIG,
    GS_CUPTI_RANGE_START,
    GS_CUPTI_RANGE_STOP,
    GS_CUPTI_RANGE_PUSH,
    GS_CUPTI_RANGE_POP,
    GS_CUPTI_RANGE_DECODE,
    GS_CUPTI_RANGE_GET_COUNTER_DATA_INFO,
    GS_CUPTI_SYMBOLS
};

typedef struct gs_cupti_lib {
    void *handle;
    char path[512];
    void *fns[GS_CUPTI_SYMBOLS];
} gs_cupti_lib;

/* The file names tried (libcupti.so.13, then any libcupti.so) and the CUDA library folders
 * searched before the loader's path, NULL-terminated. */
extern const char *const gs_cupti_names[];
extern const char *const gs_cupti_dirs[];

/* Load CUPTI from the first of names found in dirs (then on the loader's path) and resolve
 * every symbol: 0, or -1 with why in reason ("libcupti: not found (...)", "libcupti.so.12:
 * too old: it lacks cuptiRangeProfilerEnable"); nothing stays loaded on failure. */
int gs_cupti_lib_load(const char *const *names, const char *const *dirs, gs_cupti_lib *lib,
                      char *reason, size_t reason_len);
void gs_cupti_lib_unload(gs_cupti_lib *lib);

#ifdef __cplusplus
}
#endif

#endif
