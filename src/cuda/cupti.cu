/* The CUDA backend's counters capability: the L2's sector lookups, hits and misses, counted by
 * the card around one launch through CUPTI's range profiler (CUDA 12.6 and later), loaded at run
 * time (cuda/cupti_lib.h) so that gpusonar runs where CUPTI is absent, too old or not permitted
 * and says why. The sequence (docs/methods.md, "L2 by its counters"): cuptiProfilerInitialize;
 * cuptiDeviceGetChipName; cuptiProfilerHostInitialize and ConfigAddMetrics, GetConfigImage (the
 * metrics' schedule, one pass); cuptiRangeProfilerEnable on the context (where the driver's
 * RmProfilingAdminOnly refuses a user who is not root); then per counted launch
 * GetCounterDataSize and CounterDataImageInitialize, SetConfig (user range, user replay), Start,
 * PushRange, the launch, a synchronize, PopRange, Stop, DecodeData and
 * cuptiProfilerHostEvaluateToGpuValues. CUPTI's types come from its headers where the build has
 * them; without them the capability is compiled out and says so. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cuda/cuda_internal.h"
#include "cuda/cupti_lib.h"

#if defined(__has_include)
#if __has_include(<cupti_range_profiler.h>) && __has_include(<cupti_profiler_host.h>) && \
    __has_include(<cupti_target.h>) && __has_include(<cupti_profiler_target.h>)
#define GS_HAVE_CUPTI 1
#endif
#endif

#ifndef GS_HAVE_CUPTI

void gs_cuda_counters_probe(int ordinal, bool *on, char *detail, size_t len)
{
    (void)ordinal;
    *on = false;
    snprintf(detail, len, "built without CUPTI headers (cupti_range_profiler.h)");
}

int gs_cuda_counters_begin(gs_error *err)
{
    return gs_fail(err, GS_ERR_UNSUPPORTED, "L2 counters: built without CUPTI headers");
}

int gs_cuda_counters_end(uint64_t *hit, uint64_t *miss, gs_error *err)
{
    *hit = *miss = 0;
    return gs_fail(err, GS_ERR_UNSUPPORTED, "L2 counters: built without CUPTI headers");
}

void gs_cuda_counters_release(void)
{
}

#else

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <cupti_version.h>
#include <stdlib.h>

/* The metric sets tried in turn, the first that the chip counts in one pass kept: the lookups of
 * the SMs' data loads alone (srcunit_tex: the launch's own instruction fetches, constant and
 * parameter loads, which a large pool evicts from the L2 too, stay out of a probe's count), then
 * reads from every unit, then every lookup, as ncu names them; hits and misses together where one
 * pass holds both, else the hits alone (GH100 counts a hit and a miss filter of the same sectors
 * in two passes; the method's oracle is the hits, and the misses then read 0 and "not counted" in
 * the detail). */
#define N_METRIC_SETS 6
struct metric_set {
    const char *names[2];
    uint32_t n;
};
static const struct metric_set metric_sets[N_METRIC_SETS] = {
    {{"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
      "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"}, 2},
    {{"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", NULL}, 1},
    {{"lts__t_sectors_op_read_lookup_hit.sum", "lts__t_sectors_op_read_lookup_miss.sum"}, 2},
    {{"lts__t_sectors_lookup_hit.sum", "lts__t_sectors_lookup_miss.sum"}, 2},
    {{"lts__t_sectors_op_read_lookup_hit.sum", NULL}, 1},
    {{"lts__t_sectors_lookup_hit.sum", NULL}, 1},
};

static struct {
    bool tried, on;
    char detail[200];
    gs_cupti_lib lib;
    CUpti_Profiler_Host_Object *host;
    CUpti_RangeProfiler_Object *range;
    const char *metrics[2];
    uint32_t n_metrics;           /* 2: hits and misses; 1: hits alone */
    uint8_t *config;
    size_t config_bytes;
    uint8_t *data;
    size_t data_bytes;
} cu;

#define FN(id, type) ((type)cu.lib.fns[id])

/* CUPTI's name for a result ("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"). */
static const char *result_name(CUptiResult r)
{
    const char *s = NULL;
    typedef CUptiResult (*get_t)(CUptiResult, const char **);
    if (cu.lib.handle && FN(GS_CUPTI_GET_RESULT_STRING, get_t)(r, &s) == CUPTI_SUCCESS && s)
        return s;
    return "an unknown CUPTI result";
}

/* A reason or detail into buf, cut at len where longer (its first words say the most). */
static void say(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* A call's failure in reason: the call, CUPTI's name for the result, and the fix where known. */
static int failed(const char *call, CUptiResult r, char *reason, size_t len)
{
    say(reason, len, "%s: %s%s", call, result_name(r),
        r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
            ? " (the driver lets only root read counters: RmProfilingAdminOnly=1; run as root, "
              "or have the admin set NVreg_RestrictProfilingToAdminUsers=0)"
            : "");
    return -1;
}

#define CUPTI_CALL(id, type, params, name, reason, len)                                      \
    do {                                                                                      \
        CUptiResult r_ = FN(id, type)(params);                                                \
        if (r_ != CUPTI_SUCCESS)                                                              \
            return failed(name, r_, reason, len);                                             \
    } while (0)

typedef CUptiResult (*host_init_t)(CUpti_Profiler_Host_Initialize_Params *);
typedef CUptiResult (*host_deinit_t)(CUpti_Profiler_Host_Deinitialize_Params *);
typedef CUptiResult (*add_t)(CUpti_Profiler_Host_ConfigAddMetrics_Params *);
typedef CUptiResult (*image_size_t)(CUpti_Profiler_Host_GetConfigImageSize_Params *);
typedef CUptiResult (*image_t)(CUpti_Profiler_Host_GetConfigImage_Params *);
typedef CUptiResult (*passes_t)(CUpti_Profiler_Host_GetNumOfPasses_Params *);
typedef CUptiResult (*eval_t)(CUpti_Profiler_Host_EvaluateToGpuValues_Params *);
typedef CUptiResult (*enable_t)(CUpti_RangeProfiler_Enable_Params *);
typedef CUptiResult (*disable_t)(CUpti_RangeProfiler_Disable_Params *);
typedef CUptiResult (*data_size_t)(CUpti_RangeProfiler_GetCounterDataSize_Params *);
typedef CUptiResult (*data_init_t)(CUpti_RangeProfiler_CounterDataImage_Initialize_Params *);
typedef CUptiResult (*set_config_t)(CUpti_RangeProfiler_SetConfig_Params *);
typedef CUptiResult (*start_t)(CUpti_RangeProfiler_Start_Params *);
typedef CUptiResult (*stop_t)(CUpti_RangeProfiler_Stop_Params *);
typedef CUptiResult (*push_t)(CUpti_RangeProfiler_PushRange_Params *);
typedef CUptiResult (*pop_t)(CUpti_RangeProfiler_PopRange_Params *);
typedef CUptiResult (*decode_t)(CUpti_RangeProfiler_DecodeData_Params *);
typedef CUptiResult (*info_t)(CUpti_RangeProfiler_GetCounterDataInfo_Params *);

static void host_free(void)
{
    if (cu.host) {
        CUpti_Profiler_Host_Deinitialize_Params p = {
            CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
        p.pHostObject = cu.host;
        (void)FN(GS_CUPTI_HOST_DEINITIALIZE, host_deinit_t)(&p);
        cu.host = NULL;
    }
}

/* The host object for chip and the config image of one metric set of n, in one pass. */
static int configure(const char *chip, const char *const *metrics, uint32_t n, char *reason,
                     size_t len)
{
    CUpti_Profiler_Host_Initialize_Params hi = {CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = chip;
    CUPTI_CALL(GS_CUPTI_HOST_INITIALIZE, host_init_t, &hi, "cuptiProfilerHostInitialize", reason,
               len);
    cu.host = hi.pHostObject;
    CUpti_Profiler_Host_ConfigAddMetrics_Params add = {
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = cu.host;
    add.ppMetricNames = (const char **)metrics;
    add.numMetrics = n;
    CUPTI_CALL(GS_CUPTI_HOST_CONFIG_ADD_METRICS, add_t, &add, "cuptiProfilerHostConfigAddMetrics",
               reason, len);
    CUpti_Profiler_Host_GetConfigImageSize_Params sz = {
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    sz.pHostObject = cu.host;
    CUPTI_CALL(GS_CUPTI_HOST_GET_CONFIG_IMAGE_SIZE, image_size_t, &sz,
               "cuptiProfilerHostGetConfigImageSize", reason, len);
    cu.config = (uint8_t *)malloc(sz.configImageSize);
    if (!cu.config) {
        snprintf(reason, len, "out of host memory for the config image");
        return -1;
    }
    cu.config_bytes = sz.configImageSize;
    CUpti_Profiler_Host_GetConfigImage_Params im = {
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    im.pHostObject = cu.host;
    im.pConfigImage = cu.config;
    im.configImageSize = cu.config_bytes;
    CUPTI_CALL(GS_CUPTI_HOST_GET_CONFIG_IMAGE, image_t, &im, "cuptiProfilerHostGetConfigImage",
               reason, len);
    CUpti_Profiler_Host_GetNumOfPasses_Params np = {
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    np.pConfigImage = cu.config;
    np.configImageSize = cu.config_bytes;
    CUPTI_CALL(GS_CUPTI_HOST_GET_NUM_OF_PASSES, passes_t, &np, "cuptiProfilerHostGetNumOfPasses",
               reason, len);
    if (np.numOfPasses != 1) {
        say(reason, len, "%s%s%s: %zu passes", metrics[0], n > 1 ? " and " : "",
            n > 1 ? metrics[1] : "", (size_t)np.numOfPasses);
        return -1;
    }
    cu.metrics[0] = metrics[0], cu.metrics[1] = n > 1 ? metrics[1] : NULL;
    cu.n_metrics = n;
    return 0;
}

/* The range profiler on the current context: where a user without permission is refused. */
static int enable(char *reason, size_t len)
{
    CUcontext ctx = NULL;
    if (cudaFree(0) != cudaSuccess || cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || !ctx) {
        snprintf(reason, len, "no current CUDA context to profile");
        return -1;
    }
    CUpti_RangeProfiler_Enable_Params en = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = ctx;
    CUPTI_CALL(GS_CUPTI_RANGE_ENABLE, enable_t, &en, "cuptiRangeProfilerEnable", reason, len);
    cu.range = en.pRangeProfilerObject;
    CUpti_RangeProfiler_GetCounterDataSize_Params ds = {
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    ds.pRangeProfilerObject = cu.range;
    ds.pMetricNames = cu.metrics;
    ds.numMetrics = cu.n_metrics;
    ds.maxNumOfRanges = 1;
    ds.maxNumRangeTreeNodes = 1;
    CUPTI_CALL(GS_CUPTI_RANGE_GET_COUNTER_DATA_SIZE, data_size_t, &ds,
               "cuptiRangeProfilerGetCounterDataSize", reason, len);
    free(cu.data);
    cu.data = (uint8_t *)malloc(ds.counterDataSize);
    if (!cu.data) {
        snprintf(reason, len, "out of host memory for the counter data image");
        return -1;
    }
    cu.data_bytes = ds.counterDataSize;
    return 0;
}

/* The range profiler off the context: launches outside a count run as without it. */
static void disable(void)
{
    if (cu.range) {
        CUpti_RangeProfiler_Disable_Params d = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        d.pRangeProfilerObject = cu.range;
        (void)FN(GS_CUPTI_RANGE_DISABLE, disable_t)(&d);
        cu.range = NULL;
    }
}

/* Everything up to an enabled range profiler with a one-pass configuration; -1 with reason. */
static int setup(int ordinal, char *reason, size_t len)
{
    uint32_t version = 0;
    typedef CUptiResult (*version_t)(uint32_t *);
    typedef CUptiResult (*init_t)(CUpti_Profiler_Initialize_Params *);
    typedef CUptiResult (*chip_t)(CUpti_Device_GetChipName_Params *);
    if (gs_cupti_lib_load(gs_cupti_names, gs_cupti_dirs, &cu.lib, reason, len) != 0)
        return -1;
    CUPTI_CALL(GS_CUPTI_GET_VERSION, version_t, &version, "cuptiGetVersion", reason, len);
    CUpti_Profiler_Initialize_Params pi = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CUPTI_CALL(GS_CUPTI_PROFILER_INITIALIZE, init_t, &pi, "cuptiProfilerInitialize", reason, len);
    CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cn.deviceIndex = (size_t)ordinal;
    CUPTI_CALL(GS_CUPTI_DEVICE_GET_CHIP_NAME, chip_t, &cn, "cuptiDeviceGetChipName", reason, len);
    char why[N_METRIC_SETS][120];
    int ok = -1;
    for (size_t k = 0; k < N_METRIC_SETS && ok; k++) {
        why[k][0] = '\0';
        ok = configure(cn.pChipName, metric_sets[k].names, metric_sets[k].n, why[k],
                       sizeof why[k]);
        if (ok) {
            host_free();
            free(cu.config), cu.config = NULL;
        }
    }
    if (ok) {                         /* every set refused: the last two reasons (the hits) */
        say(reason, len, "no metric set in one pass (%s; %s)", why[N_METRIC_SETS - 2],
            why[N_METRIC_SETS - 1]);
        return -1;
    }
    if (enable(reason, len) != 0)   /* the permission is checked now, for the document */
        return -1;
    disable();                      /* and enabled again for the first count */
    say(cu.detail, sizeof cu.detail, "CUPTI API %u (%s), chip %s, %s%s%s", version, cu.lib.path,
        cn.pChipName, cu.metrics[0],
        cu.n_metrics > 1 ? " and " : " (misses not counted: not in the same pass)",
        cu.n_metrics > 1 ? cu.metrics[1] : "");
    return 0;
}

void gs_cuda_counters_release(void)
{
    disable();
    if (cu.lib.handle)
        host_free();
    free(cu.config), free(cu.data);
    cu.config = cu.data = NULL;
    cu.on = false;
    cu.tried = false;
}

void gs_cuda_counters_probe(int ordinal, bool *on, char *detail, size_t len)
{
    if (!cu.tried) {
        cu.tried = true;
        char reason[sizeof cu.detail];
        cu.on = setup(ordinal, reason, sizeof reason) == 0;
        if (!cu.on) {
            snprintf(cu.detail, sizeof cu.detail, "%s", reason);
            gs_cuda_counters_release();
            cu.tried = true;
        }
    }
    *on = cu.on;
    snprintf(detail, len, "%s", cu.detail);
}

/* A failed counting call as a gpusonar error: the plan cannot be counted (GS_ERR_UNSUPPORTED,
 * so the method says not determined with this reason instead of failing its probe). */
static int count_fail(gs_error *err, const char *call, CUptiResult r)
{
    return gs_fail(err, GS_ERR_UNSUPPORTED, "L2 counters: %s: %s", call, result_name(r));
}

#define COUNT_CALL(id, type, params, name)                                                    \
    do {                                                                                      \
        CUptiResult r_ = FN(id, type)(params);                                                \
        if (r_ != CUPTI_SUCCESS)                                                              \
            return count_fail(err, name, r_);                                                 \
    } while (0)

int gs_cuda_counters_begin(gs_error *err)
{
    if (!cu.on)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "L2 counters: not available: %s", cu.detail);
    if (cudaDeviceSynchronize() != cudaSuccess)   /* nothing before the range is counted */
        return gs_fail(err, GS_ERR_DEVICE, "L2 counters: the device failed before the range");
    char why[200];
    if (!cu.range && enable(why, sizeof why) != 0)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "L2 counters: %s", why);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params di = {
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    di.pRangeProfilerObject = cu.range;
    di.counterDataSize = cu.data_bytes;
    di.pCounterData = cu.data;
    COUNT_CALL(GS_CUPTI_RANGE_COUNTER_DATA_INITIALIZE, data_init_t, &di,
               "cuptiRangeProfilerCounterDataImageInitialize");
    CUpti_RangeProfiler_SetConfig_Params sc = {CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    sc.pRangeProfilerObject = cu.range;
    sc.configSize = cu.config_bytes;
    sc.pConfig = cu.config;
    sc.counterDataImageSize = cu.data_bytes;
    sc.pCounterDataImage = cu.data;
    sc.range = CUPTI_UserRange;
    sc.replayMode = CUPTI_UserReplay;
    sc.maxRangesPerPass = 1;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    COUNT_CALL(GS_CUPTI_RANGE_SET_CONFIG, set_config_t, &sc, "cuptiRangeProfilerSetConfig");
    CUpti_RangeProfiler_Start_Params st = {CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    st.pRangeProfilerObject = cu.range;
    COUNT_CALL(GS_CUPTI_RANGE_START, start_t, &st, "cuptiRangeProfilerStart");
    CUpti_RangeProfiler_PushRange_Params pu = {CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
    pu.pRangeProfilerObject = cu.range;
    pu.pRangeName = "gpusonar_l2_probe";
    CUptiResult r = FN(GS_CUPTI_RANGE_PUSH, push_t)(&pu);
    if (r != CUPTI_SUCCESS) {         /* started: stopped again, so the next count can start */
        CUpti_RangeProfiler_Stop_Params so = {CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
        so.pRangeProfilerObject = cu.range;
        (void)FN(GS_CUPTI_RANGE_STOP, stop_t)(&so);
        return count_fail(err, "cuptiRangeProfilerPushRange", r);
    }
    return 0;
}

int gs_cuda_counters_end(uint64_t *hit, uint64_t *miss, gs_error *err)
{
    *hit = *miss = 0;
    if (cudaDeviceSynchronize() != cudaSuccess)
        return gs_fail(err, GS_ERR_DEVICE, "L2 counters: the counted launch failed");
    CUpti_RangeProfiler_PopRange_Params po = {CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
    po.pRangeProfilerObject = cu.range;
    COUNT_CALL(GS_CUPTI_RANGE_POP, pop_t, &po, "cuptiRangeProfilerPopRange");
    CUpti_RangeProfiler_Stop_Params so = {CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    so.pRangeProfilerObject = cu.range;
    COUNT_CALL(GS_CUPTI_RANGE_STOP, stop_t, &so, "cuptiRangeProfilerStop");
    if (!so.isAllPassSubmitted)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "L2 counters: the metrics needed another pass of "
                       "the launch (one was configured)");
    CUpti_RangeProfiler_DecodeData_Params de = {CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    de.pRangeProfilerObject = cu.range;
    COUNT_CALL(GS_CUPTI_RANGE_DECODE, decode_t, &de, "cuptiRangeProfilerDecodeData");
    if (de.numOfRangeDropped)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "L2 counters: the range was dropped");
    CUpti_RangeProfiler_GetCounterDataInfo_Params in = {
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    in.pCounterDataImage = cu.data;
    in.counterDataImageSize = cu.data_bytes;
    COUNT_CALL(GS_CUPTI_RANGE_GET_COUNTER_DATA_INFO, info_t, &in,
               "cuptiRangeProfilerGetCounterDataInfo");
    if (in.numTotalRanges != 1)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "L2 counters: %zu ranges decoded, one expected",
                       (size_t)in.numTotalRanges);
    double v[2] = {-1, -1};
    CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    ev.pHostObject = cu.host;
    ev.pCounterDataImage = cu.data;
    ev.counterDataImageSize = cu.data_bytes;
    ev.rangeIndex = 0;
    ev.ppMetricNames = cu.metrics;
    ev.numMetrics = cu.n_metrics;
    ev.pMetricValues = v;
    COUNT_CALL(GS_CUPTI_HOST_EVALUATE_TO_GPU_VALUES, eval_t, &ev,
               "cuptiProfilerHostEvaluateToGpuValues");
    if (!(v[0] >= 0 && (cu.n_metrics < 2 || v[1] >= 0)))
        return gs_fail(err, GS_ERR_UNSUPPORTED, "L2 counters: no value for %s", cu.metrics[0]);
    *hit = (uint64_t)(v[0] + 0.5);
    *miss = cu.n_metrics > 1 ? (uint64_t)(v[1] + 0.5) : 0;
    return 0;
}

#endif
