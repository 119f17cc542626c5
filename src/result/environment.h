/* The environment record of a result document (src/result/environment.c). */
#ifndef GS_ENVIRONMENT_H
#define GS_ENVIRONMENT_H

#include <stdbool.h>

#include "result/result.h"

typedef struct gs_env_flags {
    bool throttled;               /* a slowdown reason (power, thermal, hardware) was active */
    bool shared;                  /* another compute process held the GPU */
} gs_env_flags;

/* Set doc["environment"] from the device's info and its state at the start and at the end of
 * the run (either NULL when the backend reads no state); returns what deserves a warning. */
/* The host's name as the environment record gives it ($GPUSONAR_HOST, else the host name). */
void gs_env_host(char *host, size_t len);

gs_env_flags gs_run_set_environment(gs_run *run, const gs_device_info *d,
                                    const gs_device_state *start, const gs_device_state *end);

#endif
