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

void gs_profile_log(const char *op, double start, const char *details)
{
    double end = gs_profile_now();
    if (stage[0]) {
        fprintf(stderr, "gs-profile: %.3f stage %s\n", start - t0, stage);
        stage[0] = '\0';
    }
    if (step[0]) {
        fprintf(stderr, "gs-profile: %.3f step %s\n", start - t0, step);
        step[0] = '\0';
    }
    fprintf(stderr, "gs-profile: %.3f %s %.6f %s\n", start - t0, op, end - start, details);
}

void gs_profile_stage(const char *name)
{
    if (!gs_profile_enabled())
        return;
    gs_profile_now();
    snprintf(stage, sizeof stage, "%s", name);
    step[0] = '\0';                  /* a step belongs to the stage before (a dry run's) */
}

void gs_profile_step(const char *text)
{
    if (!gs_profile_enabled())
        return;
    gs_profile_now();
    snprintf(step, sizeof step, "%s", text);
}
