/* The result tree (see result.h): a jansson document built by probes, written atomically. */
#define _GNU_SOURCE
#include "result/result.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "result/crosscheck.h"
#include "util/outfile.h"
#include "util/utf8.h"

#ifndef GS_VERSION
#define GS_VERSION "0.0.0"
#endif
#include "gs_commit.h"        /* GS_GIT_COMMIT: written by the build (cmake/commit.cmake) */

/* A finite number or JSON null (JSON has no NaN). */
static json_t *number_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* A JSON string of text that may not be UTF-8 (a command-line argument, a file name): invalid
 * bytes become \xNN, so the string is never refused and never silently missing. */
static json_t *utf8_string(const char *text)
{
    size_t len = 4 * strlen(text ? text : "") + 1;
    char *clean = malloc(len);
    if (!clean)
        return NULL;
    gs_utf8_copy(clean, len, text);
    json_t *s = json_string(clean);
    free(clean);
    return s;
}

gs_run *gs_run_new(int argc, char **argv)
{
    gs_run *run = calloc(1, sizeof *run);
    if (!run)
        return NULL;
    json_t *cmd = json_array();
    for (int i = 0; i < argc; i++)
        json_array_append_new(cmd, utf8_string(argv[i]));
    char when[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    run->probes = json_array();
    run->doc = json_pack("{s:s, s:{s:s, s:s, s:s}, s:o, s:s, s:b, s:o, s:O}",
                         "schema", GS_SCHEMA,
                         "tool", "name", "gpusonar", "version", GS_VERSION, "commit", GS_GIT_COMMIT,
                         "command_line", cmd, "time_utc", when, "complete", 0,
                         "device", json_null(), "probes", run->probes);
    if (!run->doc) {
        json_decref(run->probes);
        free(run);
        return NULL;
    }
    json_decref(run->probes); /* the document holds it; run->probes stays a borrowed pointer */
    return run;
}

void gs_run_free(gs_run *run)
{
    if (!run)
        return;
    json_decref(run->doc);
    free(run);
}

void gs_run_set_device(gs_run *run, const gs_device_info *d)
{
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    json_t *dev = json_pack(
        "{s:o, s:s, s:o, s:b, s:i, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:o, s:i, s:I, s:I, "
        "s:I, s:I, s:I, s:I, s:I, s:i, s:i, s:b}",
        "name", utf8_string(d->name), "backend", d->backend, "model", utf8_string(d->model),
        "simulated", d->simulated,
        "ordinal", d->ordinal, "compute_capability", cc, "sm_count", d->sm_count, "warp_size", d->warp_size,
        "max_threads_per_sm", d->max_threads_per_sm, "max_threads_per_block",
        d->max_threads_per_block, "max_blocks_per_sm", d->max_blocks_per_sm, "regs_per_sm",
        d->regs_per_sm, "sm_clock_khz", number_or_null(d->sm_clock_khz > 0 ? d->sm_clock_khz : NAN),
        "mem_clock_khz", number_or_null(d->mem_clock_khz > 0 ? d->mem_clock_khz : NAN),
        "mem_bus_bits", d->mem_bus_bits, "global_mem_bytes", (json_int_t)d->global_mem_bytes,
        "global_mem_free_bytes", (json_int_t)d->global_mem_free_bytes, "l2_bytes",
        (json_int_t)d->l2_bytes, "const_mem_bytes", (json_int_t)d->const_mem_bytes,
        "smem_per_sm_bytes", (json_int_t)d->smem_per_sm_bytes, "smem_per_block_bytes",
        (json_int_t)d->smem_per_block_bytes, "smem_per_block_optin_bytes",
        (json_int_t)d->smem_per_block_optin_bytes, "driver_version", d->driver_version,
        "runtime_version", d->runtime_version, "vmm_supported", d->vmm_supported);
    if (dev)
        json_object_set_new(run->doc, "device", dev);
}

void gs_run_set_concurrent(gs_run *run, int devices)
{
    json_t *env = json_object_get(run->doc, "environment");
    if (env)
        json_object_set_new(env, "concurrent_devices", json_integer(devices));
}

void gs_run_set_budget(gs_run *run, double budget_s, double planned_s, bool thorough_dropped,
                       const char *const *cut, size_t ncut)
{
    json_t *names = json_array();
    for (size_t i = 0; i < ncut; i++)
        json_array_append_new(names, json_string(cut[i]));
    json_t *b = json_pack("{s:f, s:f, s:b, s:o}", "seconds", budget_s, "planned_seconds",
                          planned_s, "thorough_dropped", thorough_dropped, "cut_probes", names);
    if (b)
        json_object_set_new(run->doc, "budget", b);
}

void gs_run_finish(gs_run *run, bool complete, const char *why_incomplete)
{
    json_object_set_new(run->doc, "complete", json_boolean(complete));
    if (!complete && why_incomplete)
        json_object_set_new(run->doc, "incomplete_reason", json_string(why_incomplete));
    else
        json_object_del(run->doc, "incomplete_reason");
    gs_crosscheck_attach(run->doc);
}

gs_probe_out *gs_run_add_probe(gs_run *run, const char *name)
{
    json_t *p = json_pack("{s:s, s:{}, s:{}, s:{}, s:s, s:[]}", "name", name, "params",
                          "figures", "series", "status", "running", "warnings");
    if (!p)
        return NULL;
    json_array_append_new(run->probes, p);
    return p;
}

void gs_probe_status(gs_probe_out *p, const char *status, const char *message)
{
    json_object_set_new(p, "status", json_string(status));
    if (message && *message)
        json_object_set_new(p, "message", json_string(message));
}

void gs_probe_warning(gs_probe_out *p, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    json_array_append_new(json_object_get(p, "warnings"), json_string(buf));
}

void gs_probe_clock(gs_probe_out *p, double khz_before, double khz_after)
{
    json_object_set_new(p, "clock_khz_before", number_or_null(khz_before > 0 ? khz_before : NAN));
    json_object_set_new(p, "clock_khz_after", number_or_null(khz_after > 0 ? khz_after : NAN));
}

void gs_probe_elapsed(gs_probe_out *p, double seconds)
{
    json_object_set_new(p, "elapsed_s", number_or_null(seconds));
}

static void set_param(gs_probe_out *p, const char *key, json_t *v)
{
    json_object_set_new(json_object_get(p, "params"), key, v);
}

void gs_param_int(gs_probe_out *p, const char *key, long long value)
{
    set_param(p, key, json_integer(value));
}

void gs_param_double(gs_probe_out *p, const char *key, double value)
{
    set_param(p, key, number_or_null(value));
}

void gs_param_string(gs_probe_out *p, const char *key, const char *value)
{
    set_param(p, key, value ? json_string(value) : json_null());
}

void gs_param_bool(gs_probe_out *p, const char *key, bool value)
{
    set_param(p, key, json_boolean(value));
}

static void set_figure(gs_probe_out *p, const char *name, json_t *value, const char *unit,
                       double ci95, size_t n, const char *method)
{
    json_t *f = json_pack("{s:o, s:s, s:o, s:I, s:s}", "value", value, "unit", unit ? unit : "",
                          "ci95", number_or_null(ci95), "n", (json_int_t)n, "method",
                          method ? method : "");
    if (f)
        json_object_set_new(json_object_get(p, "figures"), name, f);
}

void gs_figure(gs_probe_out *p, const char *name, double value, const char *unit, double ci95,
               size_t n, const char *method)
{
    set_figure(p, name, number_or_null(value), unit, ci95, n, method);
    if (!isfinite(value)) {      /* null needs its reason (schema gpusonar/1) */
        json_t *f = json_object_get(json_object_get(p, "figures"), name);
        if (f)
            json_object_set_new(f, "reason", json_string("the measurement gave no finite value"));
    }
}

void gs_figure_text(gs_probe_out *p, const char *name, const char *value, size_t n,
                    const char *method)
{
    set_figure(p, name, json_string(value ? value : ""), "", 0.0, n, method);
}

void gs_figure_list(gs_probe_out *p, const char *name, const double *values, size_t count,
                    const char *unit, size_t n, const char *method)
{
    json_t *a = json_array();
    for (size_t i = 0; i < count; i++)
        json_array_append_new(a, number_or_null(values[i]));
    set_figure(p, name, a, unit, 0.0, n, method);
}

void gs_figure_list_ci(gs_probe_out *p, const char *name, const double *values, const double *ci,
                       size_t count, const char *unit, size_t n, const char *method)
{
    gs_figure_list(p, name, values, count, unit, n, method);
    json_t *f = json_object_get(json_object_get(p, "figures"), name), *c = json_array();
    for (size_t i = 0; i < count; i++)
        json_array_append_new(c, number_or_null(ci[i]));
    if (f)
        json_object_set_new(f, "ci95", c);
    else
        json_decref(c);
}

void gs_figure_nd(gs_probe_out *p, const char *name, const char *unit, const char *method,
                  const char *reason_fmt, ...)
{
    char reason[1536];           /* a cache level's reason runs to 1024 characters and more: cut
                                    at 512, the L2's ended before what would decide it */
    va_list ap;
    va_start(ap, reason_fmt);
    vsnprintf(reason, sizeof reason, reason_fmt, ap);
    va_end(ap);
    set_figure(p, name, json_null(), unit, NAN, 0, method);
    json_t *f = json_object_get(json_object_get(p, "figures"), name);
    if (f)
        json_object_set_new(f, "reason", json_string(reason));
}

void gs_series(gs_probe_out *p, const char *name, const char *x_label, const char *x_unit,
               const char *y_label, const char *y_unit, const double *x, const double *y,
               size_t count)
{
    json_t *xs = json_array(), *ys = json_array();
    for (size_t i = 0; i < count; i++) {
        json_array_append_new(xs, number_or_null(x[i]));
        json_array_append_new(ys, number_or_null(y[i]));
    }
    json_t *s = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}", "x_label", x_label, "x_unit",
                          x_unit ? x_unit : "", "y_label", y_label, "y_unit", y_unit ? y_unit : "",
                          "x", xs, "y", ys);
    if (s)
        json_object_set_new(json_object_get(p, "series"), name, s);
}

int gs_figure_get(const gs_probe_out *p, const char *name, double *value)
{
    json_t *f = json_object_get(json_object_get(p, "figures"), name);
    json_t *v = json_object_get(f, "value");
    if (!json_is_number(v))
        return -1;
    *value = json_number_value(v);
    return 0;
}

int gs_run_write_json(const gs_run *run, const char *path, gs_error *err)
{
    const size_t flags = JSON_INDENT(2) | JSON_REAL_PRECISION(10);
    gs_outfile out;
    int rc = gs_outfile_open(&out, path, err);
    if (rc)
        return rc;
    if (json_dumpf(run->doc, out.f, flags) || fputc('\n', out.f) == EOF) {
        int e = errno;
        gs_outfile_abort(&out);
        return gs_fail(err, GS_ERR_IO, "cannot write '%s': %s", path, strerror(e ? e : EIO));
    }
    return gs_outfile_commit(&out, err);
}
