/* The environment record of a result document: the host, the driver and runtime, the GPU's
 * identity, and the card's state at the start and at the end of the run (temperature, power,
 * clocks, throttle reasons, other compute processes), so two documents can be trusted side by
 * side and a throttled run does not pass for a slow GPU. Read only: the readings come from the
 * backend's `state` operation (NVML on CUDA). */
#include "result/environment.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static json_t *number_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static const struct {
    unsigned bit;
    const char *name;
} throttle_names[] = {
    {GS_THROTTLE_IDLE, "gpu_idle"},
    {GS_THROTTLE_APP_CLOCKS, "applications_clocks_setting"},
    {GS_THROTTLE_SW_POWER_CAP, "sw_power_cap"},
    {GS_THROTTLE_HW_SLOWDOWN, "hw_slowdown"},
    {GS_THROTTLE_SYNC_BOOST, "sync_boost"},
    {GS_THROTTLE_SW_THERMAL, "sw_thermal_slowdown"},
    {GS_THROTTLE_HW_THERMAL, "hw_thermal_slowdown"},
    {GS_THROTTLE_HW_POWER_BRAKE, "hw_power_brake_slowdown"},
    {GS_THROTTLE_DISPLAY_CLOCKS, "display_clock_setting"},
};

static json_t *reading(const gs_device_state *s)
{
    json_t *r = json_object();
    json_object_set_new(r, "temperature_c", number_or_null(s->temperature_c));
    json_object_set_new(r, "power_w", number_or_null(s->power_w));
    json_object_set_new(r, "power_limit_w", number_or_null(s->power_limit_w));
    json_object_set_new(r, "sm_clock_khz", number_or_null(s->sm_clock_khz));
    json_object_set_new(r, "mem_clock_khz", number_or_null(s->mem_clock_khz));
    if (s->throttle_known) {
        json_t *names = json_array();
        for (size_t i = 0; i < sizeof throttle_names / sizeof *throttle_names; i++)
            if (s->throttle_reasons & throttle_names[i].bit)
                json_array_append_new(names, json_string(throttle_names[i].name));
        json_object_set_new(r, "throttle_reasons", names);
    } else {
        json_object_set_new(r, "throttle_reasons", json_null());
    }
    if (s->other_processes >= 0) {
        json_t *pids = json_array();
        for (int i = 0; i < s->other_processes && i < 8; i++)
            json_array_append_new(pids, json_integer(s->other_pids[i]));
        json_object_set_new(r, "other_compute_processes", json_integer(s->other_processes));
        json_object_set_new(r, "other_pids", pids);
    } else {
        json_object_set_new(r, "other_compute_processes", json_null());
    }
    return r;
}

void gs_env_host(char *host, size_t len)
{
    /* $GPUSONAR_HOST names the host where a batch system's node name is what an admin acts on
     * (scripts/slurm/ sets it to $SLURMD_NODENAME); else the host name. */
    const char *named = getenv("GPUSONAR_HOST");
    host[0] = '\0';
    if (named && *named)
        snprintf(host, len, "%s", named);
    else if (gethostname(host, len - 1) != 0)
        host[0] = '\0';
    host[len - 1] = '\0';
}

static void host_fields(json_t *env)
{
    char host[256] = "";
    struct utsname u;
    gs_env_host(host, sizeof host);
    json_object_set_new(env, "host", json_string(host));
    if (uname(&u) == 0) {
        char os[400];
        snprintf(os, sizeof os, "%s %s %s", u.sysname, u.release, u.machine);
        json_object_set_new(env, "os", json_string(os));
    }
}

gs_env_flags gs_run_set_environment(gs_run *run, const gs_device_info *d,
                                    const gs_device_state *start, const gs_device_state *end)
{
    gs_env_flags flags = {false, false};
    json_t *env = json_object();
    host_fields(env);
    json_object_set_new(env, "nvml", json_boolean(start && start->available));
    if (!start)
        json_object_set_new(env, "nvml_reason", json_string(d->simulated
                                                                ? "a simulated device has no NVML state"
                                                                : "the backend reads no device state"));
    else if (!start->available)
        json_object_set_new(env, "nvml_reason", json_string(start->reason));
    /* the L2's lookup counters: whether the cache probe could use them, and why not */
    json_object_set_new(env, "counters", json_boolean(d->counters));
    json_object_set_new(env, "counters_detail", json_string(d->counters_detail));
    json_object_set_new(env, "runtime_version", json_integer(d->runtime_version));
    json_object_set_new(env, "cuda_driver_version", json_integer(d->driver_version));
    json_object_set_new(env, "pci_bus_id", json_string(d->pci_bus_id));
    json_object_set_new(env, "uuid", json_string(d->uuid));
    if (start && start->available) {
        json_object_set_new(env, "driver_version", json_string(start->driver_version));
        json_object_set_new(env, "mig_mode", start->mig_mode < 0 ? json_null()
                                                                : json_integer(start->mig_mode));
        json_object_set_new(env, "compute_mode", start->compute_mode < 0
                                                     ? json_null()
                                                     : json_integer(start->compute_mode));
        json_object_set_new(env, "start", reading(start));
        if (end && end->available)
            json_object_set_new(env, "end", reading(end));
        for (int k = 0; k < 2; k++) {
            const gs_device_state *s = k ? end : start;
            if (!s || !s->available)
                continue;
            flags.throttled |= s->throttle_known && (s->throttle_reasons & GS_THROTTLE_SLOWDOWN);
            flags.shared |= s->other_processes > 0;
        }
    }
    json_object_set_new(env, "throttled", json_boolean(flags.throttled));
    json_object_set_new(env, "shared", json_boolean(flags.shared));
    json_object_set_new(run->doc, "environment", env);
    return flags;
}
