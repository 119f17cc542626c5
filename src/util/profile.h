/* GS_PROFILE=1: where a run's time goes. Every backend operation a probe calls is timed and
 * written to stderr as one line, "gs-profile: T OP SECONDS DETAILS" (T: seconds since the run
 * started), with a "gs-profile: T stage NAME" line before each probe's (and each cache level's,
 * each random-walk space's) first operation, so a profile of a whole report on a GPU is one
 * environment variable away (measure before cutting), and a "gs-profile: T step TEXT"
 * line before the first operation after each progress line a probe writes (its steps: "l1 under
 * a 30% shared-memory carve-out"), so a profile sums by step as well as by stage. The operations
 * run exactly as without it. The timing wrapper around a backend's operations is in
 * src/backend.c. */
#ifndef GS_UTIL_PROFILE_H
#define GS_UTIL_PROFILE_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

bool gs_profile_enabled(void);      /* GS_PROFILE set, non-empty and not "0" */
double gs_profile_now(void);        /* monotonic seconds (the first call starts the run's clock) */
/* Log one operation that started at start (gs_profile_now), after the pending stage line. */
void gs_profile_log(const char *op, double start, const char *details);
/* Name the stage the next operations belong to (a probe, a cache level), when profiling. */
void gs_profile_stage(const char *name);
/* Name the step within the stage (a probe's progress line), when profiling. */
void gs_profile_step(const char *text);

#ifdef __cplusplus
}
#endif

#endif
