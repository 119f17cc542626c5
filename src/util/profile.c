/* GS_PROFILE (util/profile.h): the run's clock, the pending stage and the log line. */
#include "util/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double t0 = -1;
static char stage[96];              /* printed before the stage's first operation, so a probe's
                                       option check (a dry run, no operation) leaves no line */
static char step[160];              /* the same for a step within it */

double gs_profile_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double t = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    if (t0 < 0)
        t0 = t;
    return t;
}

bool gs_profile_enabled(void)
{
    const char *v = getenv("GS_PROFILE");
    return v && *v && strcmp(v, "0") != 0;
}

/* Write a pending line ("stage NAME", "step TEXT") once, before the operation it names. */
static void flush_pending(char *pending, const char *kind, double at)
{
    if (!pending[0])
        return;
    fprintf(stderr, "gs-profile: %.3f %s %s\n", at - t0, kind, pending);
    pending[0] = '\0';
}

/* Hold text as the pending line in pending[0..len), when profiling. */
static void set_pending(char *pending, size_t len, const char *text)
{
    if (!gs_profile_enabled())
        return;
    gs_profile_now();
    snprintf(pending, len, "%s", text);
}

void gs_profile_log(const char *op, double start, const char *details)
{
    double end = gs_profile_now();
    flush_pending(stage, "stage", start);
    flush_pending(step, "step", start);
    fprintf(stderr, "gs-profile: %.3f %s %.6f %s\n", start - t0, op, end - start, details);
}

void gs_profile_stage(const char *name)
{
    set_pending(stage, sizeof stage, name);
    step[0] = '\0';                  /* a step belongs to the stage before (a dry run's) */
}

void gs_profile_step(const char *text)
{
    set_pending(step, sizeof step, text);
}
