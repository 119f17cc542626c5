/* What every probe shares: progress lines, option parsing, the quick clock reading used before
 * and after each probe, and cycle-to-ns conversion. */
#include "probes/probe.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/stats.h"
#include "util/profile.h"
#include "util/progress.h"

const gs_probe_def *gs_probe_find(const char *name)
{
    for (int i = 0; i < gs_probe_count; i++)
        if (strcmp(gs_probes[i]->name, name) == 0)
            return gs_probes[i];
    return NULL;
}

void gs_progress(const gs_probe_ctx *ctx, const char *fmt, ...)
{
    if (ctx->quiet && !gs_profile_enabled())
        return;
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    gs_profile_step(text);
    if (ctx->quiet)
        return;
    gs_progress_detail(text);
}

int gs_probe_parse_opts(const gs_probe_ctx *ctx, const gs_opt *opts, gs_error *err)
{
    bool help = false;
    int rc = gs_opts_parse(opts, gs_opts_len(opts), ctx->argc, ctx->argv, &help, NULL, 0, NULL, err);
    if (!rc && help)
        rc = gs_fail(err, GS_ERR_USAGE, "--help is answered before a probe runs");
    return rc;
}

int gs_probe_unsupported_why(int rc, gs_error *err, char *why, size_t why_len)
{
    why[0] = '\0';
    if (rc != GS_ERR_UNSUPPORTED)
        return rc;
    snprintf(why, why_len, "%s", err->msg);
    gs_error_clear(err);
    return 0;
}

double gs_probe_clock_khz(gs_backend *b)
{
    enum { WINDOWS = 3 };
    uint64_t cycles[WINDOWS], ns[WINDOWS];
    gs_clock_plan plan = {.windows = WINDOWS, .window_ns = 2000000, .read_samples = 8};
    gs_clock_result res = {.window_cycles = cycles, .window_ns = ns};
    gs_error err;
    if (b->ops->clock(b, &plan, &res, &err) != 0)
        return 0;
    double khz[WINDOWS];
    for (int i = 0; i < WINDOWS; i++)
        khz[i] = ns[i] ? (double)cycles[i] / (double)ns[i] * 1e6 : NAN;
    double med = gs_median(khz, WINDOWS);
    return isfinite(med) ? med : 0;
}

double gs_cycles_to_ns(const gs_probe_ctx *ctx, double cycles)
{
    return ctx->clock_khz > 0 ? cycles / ctx->clock_khz * 1e6 : NAN;
}
