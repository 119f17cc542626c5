/* The pipeline model (see pipeline_model.h): Eq. 4 and 5 of the roofline paper on a measured
 * curve, the ridge point of section III, the CPI equations with runs of section V.B, and the
 * model's throughput from lambda and Lambda. Pure. */
#include "analysis/pipeline_model.h"

#include <math.h>

static int usable(double warps, double ipc)
{
    return isfinite(warps) && isfinite(ipc) && warps > 0 && ipc > 0;
}

int gs_pipe_fit_curve(const double *warps, const double *ipc, size_t n, double tol,
                      gs_pipe_curve_fit *out)
{
    size_t peak = n, low = n;
    for (size_t i = 0; i < n; i++) {
        if (!usable(warps[i], ipc[i]))
            continue;
        if (peak == n || ipc[i] > ipc[peak])
            peak = i;
        if (low == n || ipc[i] < ipc[low])
            low = i;
    }
    if (peak == n)
        return -1;
    out->peak_index = peak;
    out->min_index = low;
    out->peak_ipc = ipc[peak];
    out->lambda_issue_cycles = 1.0 / ipc[peak];       /* Eq. 4: min CPI_warp */
    out->Lambda_completion_cycles = 1.0 / ipc[low];   /* Eq. 5: max CPI_warp */
    out->knee_warps = out->Lambda_completion_cycles / out->lambda_issue_cycles;
    out->ridge_warps = NAN;
    for (size_t i = 0; i < n; i++) {
        if (usable(warps[i], ipc[i]) && ipc[i] >= (1.0 - tol + GS_PIPE_RIDGE_TIE) * ipc[peak] &&
            !(warps[i] >= out->ridge_warps))
            out->ridge_warps = warps[i];
    }
    return 0;
}

double gs_pipe_model_ipc(const gs_pipe_model *m, double warps, unsigned ilp)
{
    double w = floor(warps + 0.5);
    if (w < 1 || ilp < 1 || m->schedulers < 1 || !(m->lambda_issue_cycles > 0) ||
        !(m->Lambda_completion_cycles > 0))
        return 0;
    double s = (double)m->schedulers;
    double lambda_s = s * m->lambda_issue_cycles;           /* one scheduler's issue interval */
    double group = fmax(m->Lambda_completion_cycles, ilp * lambda_s) / ilp; /* per instr, 1 warp */
    double busiest = ceil(w / s) * lambda_s;                /* the busiest scheduler's share */
    return w / fmax(group, busiest);
}

double gs_pipe_model_error(const gs_pipe_model *m, const double *warps, const double *ipc,
                           const unsigned *ilp, size_t n)
{
    double sum = 0;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (!usable(warps[i], ipc[i]))
            continue;
        double r = (gs_pipe_model_ipc(m, warps[i], ilp[i]) - ipc[i]) / ipc[i];
        sum += r * r;
        used++;
    }
    return used ? sqrt(sum / (double)used) : NAN;
}

int gs_pipe_runs_of(const gs_pipe_launch *l, gs_pipe_runs *out)
{
    if (!(l->work_items > 0 && l->wg_size > 0 && l->max_conc_wg > 0 && l->max_conc_warps > 0 &&
          l->nbr_cu > 0 && l->warp_size > 0 && l->instr_kernel > 0))
        return -1;
    out->wg = ceil(l->work_items / l->wg_size);
    out->conc_wg = fmin(l->max_conc_wg, out->wg);
    out->warps_wg = ceil(l->wg_size / l->warp_size);
    out->actual_warp_size = l->wg_size / out->warps_wg;
    out->conc_warps = fmin(l->max_conc_warps, out->warps_wg * out->conc_wg);
    out->total_warps = l->work_items / out->actual_warp_size;
    out->runs_cu = ceil(out->total_warps / l->nbr_cu / out->conc_warps - 1e-9);
    out->instr_run = l->instr_kernel * l->wg_size * out->conc_wg;
    return 0;
}

double gs_pipe_cpi_warp(const gs_pipe_launch *l, double runtime_cycles)
{
    gs_pipe_runs r;
    if (gs_pipe_runs_of(l, &r) != 0 || !(runtime_cycles > 0))
        return NAN;
    double cycles_of_run = runtime_cycles / r.runs_cu;
    double cpi_cu = cycles_of_run / r.instr_run;
    return cpi_cu * r.actual_warp_size;
}

double gs_pipe_predict_cycles(const gs_pipe_model *m, const gs_pipe_launch *l, unsigned ilp)
{
    gs_pipe_runs r;
    if (gs_pipe_runs_of(l, &r) != 0)
        return NAN;
    double ipc = gs_pipe_model_ipc(m, r.conc_warps, ilp);
    if (!(ipc > 0))
        return NAN;
    double cycles_of_run = l->instr_kernel * r.conc_warps / ipc;
    return r.runs_cu * cycles_of_run;
}

double gs_pipe_model_ridge(const gs_pipe_model *m, const double *warps, size_t n, unsigned ilp,
                           double tol)
{
    double peak = 0, ridge = NAN;
    for (size_t i = 0; i < n; i++)
        peak = fmax(peak, gs_pipe_model_ipc(m, warps[i], ilp));
    if (!(peak > 0))
        return NAN;
    for (size_t i = 0; i < n; i++) {
        double ipc = gs_pipe_model_ipc(m, warps[i], ilp);
        if (ipc >= (1.0 - tol + GS_PIPE_RIDGE_TIE) * peak && !(warps[i] >= ridge))
            ridge = warps[i];
    }
    return ridge;
}

bool gs_pipe_over_ceiling(double ipc, double ceiling, double tolerance)
{
    if (!(ceiling > 0) || !isfinite(ceiling))
        return false;
    return ipc > ceiling * (1 + tolerance);
}
