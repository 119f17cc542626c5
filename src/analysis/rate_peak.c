/* The peak of every rate (rate_peak.h). Two tables: the per-SM limits of each architecture, each
 * with the document it is read from, and the rules that name which limit bounds which figure.
 * A limit nobody publishes is -1 and falls back to the issue limit, which bounds any instruction
 * rate; a figure no rule names (host links, NVLink, accesses per ns) has no peak and is not
 * checked. Sources:
 *  issue  NVIDIA Volta, Ampere and Hopper architecture whitepapers (2017, 2020, 2022): an SM is
 *         four partitions, each a warp scheduler and dispatch unit of 32 threads per clock: no SM
 *         issues more than 128 thread instructions per clock, whatever the pipe.
 *  units  The whitepapers' SM: sm_80 (A100) 64 fp32, 64 int32, 32 fp64 lanes, 16 SFUs (4 per
 *         partition), fp16 non-tensor 78 TFLOPS = 4 x fp32 (128 HFMA2 per clock); sm_86 (GA102)
 *         and sm_89 (AD102) 128 fp32 (64 of them shared with int32), 64 int32, 2 fp64, 16 SFUs;
 *         sm_90 (H100) 128 fp32, 64 int32, 64 fp64, 16 SFUs, fp16 non-tensor 2 x fp32 (128 HFMA2).
 *  banks  CUDA C++ Programming Guide, shared memory (compute capability 5.x and later): 32 banks
 *         of 4 B, each one 32-bit word per clock: 128 B per clock per SM.
 *  L1     The L1 and shared memory are one data array per SM (the Volta, Ampere and Hopper
 *         tuning guides: the combined L1 data cache and shared memory), so its reads are bounded
 *         by the banks' 128 B per clock; every load that reaches an SM (from L2, DRAM, another
 *         SM's shared memory, a bulk copy) passes through that array: the load-path bound.
 *  DRAM   The driver's memory clock and bus width: 2 x clock x bus bits / 8 (the clock CUDA
 *         reports transfers on both edges), as mem-bandwidth's dram_peak_gbps.
 *  MMA    src/analysis/tensor_peak.c (the dense peaks of the whitepapers). */
#include "analysis/rate_peak.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/tensor_peak.h"

typedef enum resource {
    R_ISSUE, R_FP32, R_INT32, R_FP64, R_SFU, R_FP16X2, R_SMEM, R_L1, R_LOAD_PATH,
    R_COUNTED,                /* the limits above are per clock per SM from the rows */
    R_DRAM = R_COUNTED, R_DRAM_OR_LOAD_PATH, R_TENSOR, R_NONE
} resource;

typedef struct arch_row {
    int cc;                   /* major * 10 + minor */
    double per_sm[R_COUNTED]; /* per clock per SM, in resource order; -1 unpublished */
    const char *source;
} arch_row;

static const arch_row rows[] = {
    {80, {128, 64, 64, 32, 16, 128, 128, 128, 128},
     "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020)"},
    {86, {128, 128, 64, 2, 16, -1, 128, 128, 128},
     "NVIDIA Ampere GA102 GPU Architecture whitepaper (2020)"},
    {89, {128, 128, 64, 2, 16, -1, 128, 128, 128},
     "NVIDIA Ada GPU Architecture whitepaper (2022)"},
    {90, {128, 128, 64, 64, 16, 128, 128, 128, 128},
     "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022)"},
};

static const char *const what[R_COUNTED] = {
    "thread instructions per clock per SM (4 schedulers x 32 threads)",
    "fp32 lanes per SM", "int32 lanes per SM", "fp64 lanes per SM", "SFU lanes per SM",
    "HFMA2 per clock per SM (fp16 non-tensor rate / 2)",
    "B per clock per SM (32 banks x 4 B: CUDA C++ Programming Guide, shared memory)",
    ("B per clock per SM (the L1 is the shared memory's 32 banks x 4 B: tuning guides, "
     "CUDA C++ Programming Guide)"),
    "B per clock per SM (every load reaches the SM through its L1's 32 banks x 4 B)",
};

/* Which limit bounds which figure: the first rule whose probe and figure patterns match. */
typedef struct rule {
    const char *probe, *figure;
    resource r;
} rule;

static const rule rules[] = {
    {"mem-bandwidth", "dram_peak_gbps", R_NONE},          /* the peak itself */
    {"mem-bandwidth", "smem_*", R_SMEM},
    {"mem-bandwidth", "*l1_*", R_L1},
    {"mem-bandwidth", "*l2_*", R_LOAD_PATH},
    {"mem-bandwidth", "*", R_DRAM},
    {"bandwidth", "h2d_*", R_NONE},                       /* PCIe: the driver gives no rate */
    {"bandwidth", "d2h_*", R_NONE},
    {"bandwidth", "*", R_DRAM_OR_LOAD_PATH},
    {"dram-layout", "*", R_DRAM},
    {"l2-persist", "dram_*", R_DRAM},
    {"l2-persist", "*", R_LOAD_PATH},
    {"cluster", "local_smem_*", R_SMEM},
    {"cluster", "*", R_LOAD_PATH},
    {"pipeline", "*peak_flops_per_cycle_per_sm", R_TENSOR},
    {"tensor", "*peak*", R_NONE},
    {"tensor", "*", R_TENSOR},
    {"divergence", "*", R_ISSUE},
    {"atomics", "*", R_ISSUE},
    /* pipeline and roofline name a figure by its instruction */
    {"*", "fadd_*", R_FP32},
    {"*", "ffma_*", R_FP32},
    {"*", "iadd_*", R_INT32},
    {"*", "imul_*", R_INT32},
    {"*", "dfma_*", R_FP64},
    {"*", "sfu-*", R_SFU},
    {"*", "hfma2_*", R_FP16X2},
    {"pipeline", "*", R_ISSUE},                           /* sw-sin, mma.sync instructions */
    {"roofline", "*", R_ISSUE},
};

/* How a unit relates to a limit per clock per SM. */
typedef enum scale { PER_CLOCK_SM, PER_CLOCK_SM_WARP, PER_CLOCK, PER_SECOND_G, PER_SECOND_T,
                     NOT_A_RATE } scale;

static scale unit_scale(const char *unit)
{
    static const struct { const char *unit; scale s; } units[] = {
        {"GB/s", PER_SECOND_G}, {"Gop/s", PER_SECOND_G}, {"TFLOP/s", PER_SECOND_T},
        {"TOP/s", PER_SECOND_T}, {"thread instr/cycle/SM", PER_CLOCK_SM},
        {"ops/cycle/SM", PER_CLOCK_SM}, {"flop/cycle/SM", PER_CLOCK_SM},
        {"flop/clock/SM", PER_CLOCK_SM}, {"op/clock/SM", PER_CLOCK_SM},
        {"atomics/clock/SM", PER_CLOCK_SM}, {"warp instr/cycle/SM", PER_CLOCK_SM_WARP},
        {"atomics/clock", PER_CLOCK},
    };
    for (size_t i = 0; unit && i < sizeof units / sizeof units[0]; i++)
        if (strcmp(unit, units[i].unit) == 0)
            return units[i].s;
    return NOT_A_RATE;
}

void gs_peak_number(double value, int decimals, char *buf, size_t len)
{
    char digits[64];
    snprintf(digits, sizeof digits, "%.*f", decimals, fabs(value));
    char *dot = strchr(digits, '.');
    size_t whole = dot ? (size_t)(dot - digits) : strlen(digits), o = 0;
    char out[96];
    if (value < 0 && strspn(digits, "0.") != strlen(digits))
        out[o++] = '-';
    for (size_t i = 0; i < whole; i++) {
        out[o++] = digits[i];
        if ((whole - i - 1) % 3 == 0 && i + 1 < whole)
            out[o++] = ',';
    }
    snprintf(out + o, sizeof out - o, "%s", dot ? dot : "");
    snprintf(buf, len, "%s", out);
}

static resource find_rule(const char *probe, const char *name)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (fnmatch(rules[i].probe, probe, 0) == 0 && fnmatch(rules[i].figure, name, 0) == 0)
            return rules[i].r;
    return R_NONE;
}

static const arch_row *find_row(int cc)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].cc == cc)
            return &rows[i];
    return NULL;
}

/* The MMA type a tensor or pipeline figure names ("wgmma_e4m3_tflops": e4m3; the pipeline's
 * mma.sync is m16n8k16 f16). */
static const char *mma_type(const char *probe, const char *name)
{
    static const char *const types[] = {"bf16", "f16", "tf32", "e4m3", "e5m2", "s8", "f64"};
    if (strcmp(probe, "pipeline") == 0)
        return "f16";
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        char part[16];
        snprintf(part, sizeof part, "_%s_", types[i]);
        if (strstr(name, part))
            return types[i];
    }
    return NULL;
}

/* The limit per clock per SM of figure name (in its unit's work: bytes, thread instructions,
 * flops), with its source; -1 with why. */
static int limit_per_clock_sm(const gs_peak_device *d, const char *probe, const char *name,
                              resource r, double *limit, char *src, size_t src_len, char *why,
                              size_t why_len)
{
    int cc = d->cc_major * 10 + d->cc_minor;
    if (r == R_TENSOR) {
        const char *type = mma_type(probe, name), *source = NULL;
        if (!type) {
            snprintf(why, why_len, "no MMA type in the figure's name");
            return -1;
        }
        /* mma.sp's figures (mma_sp_*) count the dense product's work: their peak is the
         * sparse one, twice the dense */
        bool sparse = strncmp(name, "mma_sp_", 7) == 0;
        if ((sparse ? gs_tensor_sparse_peak : gs_tensor_peak)(d->cc_major, d->cc_minor, type,
                                                             d->consumer, limit, &source, why,
                                                             why_len))
            return -1;
        snprintf(src, src_len, "%s %s %s per clock per SM (%s)",
                 strcmp(type, "s8") == 0 ? "ops" : "flops", type, sparse ? "2:4 sparse" : "dense",
                 source);
        return 0;
    }
    const arch_row *row = find_row(cc);
    if (!row) {
        snprintf(why, why_len, "no per-SM limits for sm_%d%d (gpusonar's table covers sm_80, "
                 "86, 89 and 90)", d->cc_major, d->cc_minor);
        return -1;
    }
    if (row->per_sm[r] < 0)
        r = R_ISSUE;          /* unpublished: no pipe issues more than the schedulers */
    *limit = row->per_sm[r];
    snprintf(src, src_len, "%g %s (%s)", *limit, what[r], row->source);
    return 0;
}

static int dram_peak(const gs_peak_device *d, gs_peak *peak, char *why, size_t why_len)
{
    if (!(d->mem_clock_khz > 0) || d->mem_bus_bits <= 0) {
        snprintf(why, why_len, "the device does not report its memory clock or bus width");
        return -1;
    }
    peak->value = 2 * d->mem_clock_khz * 1e3 * d->mem_bus_bits / 8 * 1e-9;
    char mhz[32];
    gs_peak_number(d->mem_clock_khz / 1e3, 0, mhz, sizeof mhz);
    snprintf(peak->source, sizeof peak->source, "2 x %s MHz memory clock x %d-bit bus / 8 (the "
             "driver's)", mhz, d->mem_bus_bits);
    return 0;
}

int gs_rate_peak(const gs_peak_device *d, const char *probe, const char *name, const char *unit,
                 double footprint_bytes, gs_peak *peak, char *why, size_t why_len)
{
    peak->value = NAN;
    peak->source[0] = '\0';
    scale s = unit_scale(unit);
    resource r = find_rule(probe ? probe : "", name ? name : "");
    if (s == NOT_A_RATE || r == R_NONE) {
        snprintf(why, why_len, s == NOT_A_RATE ? "not a rate" : "no limit known for this rate");
        return -1;
    }
    if (r == R_DRAM_OR_LOAD_PATH)
        /* a working set four times the L2 and more streams from DRAM */
        r = d->l2_bytes > 0 && footprint_bytes >= 4 * d->l2_bytes ? R_DRAM : R_LOAD_PATH;
    if (r == R_DRAM)
        return s == PER_SECOND_G ? dram_peak(d, peak, why, why_len)
                                 : (snprintf(why, why_len, "not a rate per second"), -1);
    double limit;
    char src[300];
    if (limit_per_clock_sm(d, probe, name, r, &limit, src, sizeof src, why, why_len))
        return -1;
    bool per_sm = name && strstr(name, "_per_sm") != NULL;
    char sms[48] = "", mhz[32];
    if (!per_sm)
        snprintf(sms, sizeof sms, " x %d SMs", d->sm_count);
    double n_sm = per_sm ? 1 : d->sm_count;
    switch (s) {
    case PER_CLOCK_SM:
        peak->value = limit;
        snprintf(peak->source, sizeof peak->source, "%s", src);
        return 0;
    case PER_CLOCK_SM_WARP:
        peak->value = limit / (d->warp_size > 0 ? d->warp_size : 32);
        snprintf(peak->source, sizeof peak->source, "%s / %d threads per warp", src,
                 d->warp_size > 0 ? d->warp_size : 32);
        return 0;
    case PER_CLOCK:
        peak->value = limit * d->sm_count;
        snprintf(peak->source, sizeof peak->source, "%s x %d SMs", src, d->sm_count);
        return 0;
    default:
        break;
    }
    if (!(d->clock_khz > 0)) {
        snprintf(why, why_len, "no measured SM clock");
        return -1;
    }
    peak->value = limit * n_sm * d->clock_khz * 1e3 * (s == PER_SECOND_T ? 1e-12 : 1e-9);
    gs_peak_number(d->clock_khz / 1e3, 0, mhz, sizeof mhz);
    snprintf(peak->source, sizeof peak->source, "%s%s x %s MHz (the measured SM clock)", src, sms,
             mhz);
    return 0;
}

bool gs_rate_refused(double measured, double ci95, const char *unit, const gs_peak *peak,
                     char *reason, size_t reason_len)
{
    if (!gs_rate_above_peak(measured, ci95, peak->value * (1 + GS_PEAK_TIMING_TOLERANCE)))
        return false;
    char m[48], c[48], p[48];
    gs_peak_number(measured, measured >= 100 ? 0 : 3, m, sizeof m);
    gs_peak_number(isfinite(ci95) ? ci95 : 0, !(ci95 > 0) || ci95 >= 100 ? 0 : 3, c, sizeof c);
    gs_peak_number(peak->value, peak->value >= 100 ? 0 : 3, p, sizeof p);
    snprintf(reason, reason_len, "measured %s +- %s %s, %.1f%% above the peak of %s %s = %s: no "
             "unit does more than its peak, so the kernel counted work it did not do or the "
             "clock read low", m, c, unit, (measured / peak->value - 1) * 100, p, unit,
             peak->source);
    return true;
}
