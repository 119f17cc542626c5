/* Published dense tensor-core peaks per architecture (tensor_peak.h). Each row is a whitepaper's
 * per-SM figure: its TFLOPS / (SMs x the boost clock it was quoted at), dense (without the 2:4
 * sparsity doubling). s8 is in integer operations. 0 in a row: the architecture has no MMA of that
 * type. Sources:
 *  sm_80  NVIDIA A100 Tensor Core GPU Architecture (whitepaper, 2020), tables 1 and 3: per SM
 *         1024 dense FP16 FMA/clock (2048 flops), TF32 1024, INT8 4096, FP64 DMMA 128 flops/clock
 *         (A100: 312 / 156 / 624 / 19.5 T at 108 SMs x 1410 MHz).
 *  sm_86  NVIDIA Ampere GA102 GPU Architecture (whitepaper, 2020), table 2 / appendix: RTX A6000
 *         FP16 with FP32 accumulate 154.8 T, TF32 77.4 T, INT8 309.7 T at 84 SMs x 1800 MHz =
 *         1024 / 512 / 2048 per SM; GeForce RTX 3090 FP32-accumulate (FP16, BF16, TF32) at half
 *         (71 / 35.6 T at 82 SMs x 1695 MHz = 512 / 256). No FP64 tensor peak is published.
 *  sm_89  NVIDIA Ada GPU Architecture (whitepaper, 2022), appendix table: RTX 6000 Ada FP8 1457 T
 *         sparse (2048 dense per SM at 142 SMs x 2505 MHz), FP16/BF16 with FP32 accumulate 1024,
 *         TF32 512, INT8 2048; GeForce RTX 4090 FP32-accumulate rates at half (FP16 165.2 T,
 *         TF32 82.6 T, FP8 330.3 T at 128 SMs x 2520 MHz = 512 / 256 / 1024). No FP64 peak.
 *  sm_90  NVIDIA H100 Tensor Core GPU Architecture (whitepaper, 2022), table 2 and "H100 SM
 *         architecture": H100 SXM5 989.4 T FP16/BF16, 494.7 T TF32, 1978.9 T FP8 and INT8 at
 *         132 SMs x 1830 MHz = 4096 / 2048 / 8192 per SM; FP64 tensor "2x A100 per SM" = 256.
 *         FP8 is one figure for both formats, e4m3 and e5m2 (Ada's table likewise).
 *         Every one of these tables gives the 2:4 sparse rate beside the dense one at twice it
 *         (H100 SXM5 FP16 1979 T sparse, A100 624 T): gs_tensor_sparse_peak.
 *  sm_75  NVIDIA Turing GPU Architecture (whitepaper, 2018): 8 tensor cores per SM, 64 FP16 FMA
 *         per clock each (1024 flops/clock/SM; GeForce FP32 accumulate at half), INT8 2048; no
 *         BF16, TF32, FP8 or FP64 MMA. */
#include "analysis/tensor_peak.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { TYPES = 7 };
static const char *const type_names[TYPES] = {"f16", "bf16", "tf32", "e4m3", "s8", "f64", "e5m2"};

typedef struct peak_row {
    int cc;                                   /* major * 10 + minor */
    double pro[TYPES];                        /* in type_names' order (-1: unknown) */
    double consumer[TYPES];                   /* GeForce parts */
    const char *source;
} peak_row;

static const peak_row rows[] = {
    {75, {1024, 0, 0, 0, 2048, 0, 0}, {512, 0, 0, 0, 2048, 0, 0},
     "NVIDIA Turing GPU Architecture whitepaper (2018)"},
    {80, {2048, 2048, 1024, 0, 4096, 128, 0}, {2048, 2048, 1024, 0, 4096, 128, 0},
     "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020)"},
    {86, {1024, 1024, 512, 0, 2048, -1, 0}, {512, 512, 256, 0, 2048, -1, 0},
     "NVIDIA Ampere GA102 GPU Architecture whitepaper (2020)"},
    {89, {1024, 1024, 512, 2048, 2048, -1, 2048}, {512, 512, 256, 1024, 2048, -1, 1024},
     "NVIDIA Ada GPU Architecture whitepaper (2022)"},
    {90, {4096, 4096, 2048, 8192, 8192, 256, 8192}, {4096, 4096, 2048, 8192, 8192, 256, 8192},
     "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022)"},
};

int gs_tensor_peak(int cc_major, int cc_minor, const char *type, bool consumer,
                   double *flops_per_clock_per_sm, const char **source, char *why, size_t why_len)
{
    int cc = cc_major * 10 + cc_minor, t = -1;
    *flops_per_clock_per_sm = NAN;
    *source = NULL;
    for (int i = 0; i < TYPES && type; i++)
        if (strcmp(type, type_names[i]) == 0)
            t = i;
    if (t < 0) {
        snprintf(why, why_len, "unknown MMA type %s", type ? type : "(none)");
        return -1;
    }
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].cc != cc)
            continue;
        double v = consumer ? rows[i].consumer[t] : rows[i].pro[t];
        if (v > 0) {
            *flops_per_clock_per_sm = v;
            *source = rows[i].source;
            return 0;
        }
        if (v != 0)
            snprintf(why, why_len, "no published peak for %s MMA on sm_%d%d (%s gives none)",
                     type, cc_major, cc_minor, rows[i].source);
        else
            snprintf(why, why_len, "sm_%d%d has no %s tensor-core MMA (%s)", cc_major, cc_minor,
                     type, rows[i].source);
        return -1;
    }
    snprintf(why, why_len, "no published peak for sm_%d%d (gpusonar's table covers sm_75, 80, 86, "
             "89, 90)", cc_major, cc_minor);
    return -1;
}

int gs_tensor_sparse_peak(int cc_major, int cc_minor, const char *type, bool consumer,
                          double *flops_per_clock_per_sm, const char **source, char *why,
                          size_t why_len)
{
    *flops_per_clock_per_sm = NAN;
    *source = NULL;
    if (cc_major * 10 + cc_minor < 80) {
        snprintf(why, why_len, "sm_%d%d has no sparse tensor-core MMA (structured sparsity came "
                 "with sm_80)", cc_major, cc_minor);
        return -1;
    }
    if (type && (strcmp(type, "f64") == 0 || strcmp(type, "e5m2") == 0)) {
        snprintf(why, why_len, "no sparse %s MMA is measured (mma.sp has f16, bf16, tf32, e4m3 "
                 "and s8)", type);
        return -1;
    }
    double dense;
    if (gs_tensor_peak(cc_major, cc_minor, type, consumer, &dense, source, why, why_len))
        return -1;
    *flops_per_clock_per_sm = 2 * dense;
    return 0;
}

bool gs_tensor_consumer_name(const char *device_name)
{
    return device_name && strstr(device_name, "GeForce") != NULL;
}

double gs_tensor_fraction_of_peak(double measured, double peak)
{
    if (!(isfinite(measured) && measured > 0 && isfinite(peak) && peak > 0))
        return NAN;
    return measured / peak;
}

bool gs_rate_above_peak(double measured, double ci95, double peak)
{
    if (!(isfinite(measured) && measured > 0 && isfinite(peak) && peak > 0))
        return false;
    return measured - (isfinite(ci95) && ci95 > 0 ? ci95 : 0) > peak;
}
