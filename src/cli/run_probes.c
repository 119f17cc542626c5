/* The run loop of the commands that measure (report, run): open the device, measure the SM clock
 * around each probe, record every probe's outcome in the result document, and write the document
 * even when a probe fails or a signal stops the run. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "cli/cli.h"
#include "cli/sim_apart.h"
#include "probes/peak_check.h"
#include "result/environment.h"
#include "report/report.h"
#include "result/result.h"
#include "util/interrupt.h"
#include "util/profile.h"
#include "util/outfile.h"
#include "util/progress.h"

gs_report_format gs_cli_format(void)
{
    gs_report_format f = GS_FORMAT_TEXT;
    if (gs_args.format)
        gs_report_format_parse(gs_args.format, &f); /* checked by the option's choices */
    return f;
}

unsigned gs_cli_report_parts(void)
{
    if (gs_args.probe_only)
        return GS_REPORT_DETAILS;
    return GS_REPORT_SUMMARY | (gs_args.details ? GS_REPORT_DETAILS : 0);
}

int gs_cli_fail(const gs_error *err)
{
    fprintf(stderr, "gpusonar: %s\n", err->msg);
    return gs_exit_status(err->status);
}

int gs_cli_open_device(gs_backend **b, gs_device_info *info, gs_error *err)
{
    bool fell_back = false;
    int rc = gs_backend_open(gs_args.device, gs_args.seed, b, &fell_back, err);
    if (rc)
        return rc;
    if (fell_back && !gs_args.quiet)
        fprintf(stderr, "gpusonar: no CUDA GPU found; running on the built-in SIMULATED GPU "
                        "'hopper' (a model, not a measurement). Use --device cuda:N on a machine "
                        "with a GPU.\n");
    rc = (*b)->ops->info(*b, info, err);
    if (rc) {
        gs_backend_close(*b);
        *b = NULL;
    }
    return rc;
}

int gs_cli_write(const char *path, const char *option, gs_write_fn fn, const void *ctx,
                 gs_error *err)
{
    gs_outfile out;
    int rc = gs_outfile_open(&out, path ? path : "-", err);
    if (rc)
        return rc;
    if ((rc = fn(out.f, ctx, err)) != 0) {
        int e = errno;
        if (ferror(out.f)) {                         /* the writer gave up on a failed write */
            errno = 0;
            if (fflush(out.f) != 0 && errno)
                e = errno;
            rc = gs_fail(err, GS_ERR_IO, "%s %s: cannot write: %s", option,
                         path ? path : "-", strerror(e ? e : EIO));
        }
        gs_outfile_abort(&out);
        if (out.is_stdout) {
            clearerr(stdout);                        /* reported here, not again at exit */
            __fpurge(stdout);
        }
        return rc;
    }
    return gs_outfile_commit(&out, err);
}

int gs_cli_check_outputs(gs_error *err)
{
    int rc = 0;
    if (gs_args.json && (rc = gs_outfile_check(gs_args.json, "--json", err)))
        return rc;
    if (gs_args.csv && (rc = gs_outdir_check(gs_args.csv, "--csv", err)))
        return rc;
    if (gs_args.out_dir && (rc = gs_outdir_check(gs_args.out_dir, "--out-dir", err)))
        return rc;
    if (gs_args.concurrent && !gs_cli_is_device_list(gs_args.device))
        return gs_fail(err, GS_ERR_USAGE, "--concurrent measures the devices of a list at once: "
                       "give one with --device (cuda:all, cuda:0,1)");
    if (gs_args.concurrent && !gs_args.out_dir)
        return gs_fail(err, GS_ERR_USAGE, "--concurrent writes one document per device: add "
                       "--out-dir DIR");
    if (gs_cli_is_device_list(gs_args.device) && (gs_args.json || gs_args.csv))
        return gs_fail(err, GS_ERR_USAGE, "--device %s measures several devices: --%s names one "
                       "output; use --out-dir DIR (one document per GPU)", gs_args.device,
                       gs_args.json ? "json" : "csv");
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct outcome {
    int failed;                   /* probes that failed */
    bool bad_input;               /* a probe refused its options (exit status 2) */
    bool interrupted;
} outcome;

/* Clock, status and elapsed time for the records a probe added (from index first on). */
static void close_records(gs_run *run, size_t first, double before, double after, double elapsed,
                          const char *status, const char *message)
{
    for (size_t i = first; i < json_array_size(run->probes); i++) {
        gs_probe_out *p = json_array_get(run->probes, i);
        gs_probe_clock(p, before, after);
        gs_probe_elapsed(p, elapsed);
        if (strcmp(json_string_value(json_object_get(p, "status")), "running") == 0)
            gs_probe_status(p, status, message);
        if (before > 0 && after > 0 && fabs(after - before) / before > 0.02)
            gs_probe_warning(p, "the SM clock moved by %.1f%% during this probe (%.0f -> %.0f MHz): "
                             "throttling or another process; its figures in ns are less certain",
                             (after - before) / before * 100, before / 1000, after / 1000);
    }
}

gs_budget_plan gs_budget;

/* The run's seconds left as probe `index` starts: this process's probes from index on, at the
 * pace of those it finished (gs_cli_eta_s), on the backend that runs; in a split simulated run
 * (sim_apart.h) the other process's probes have run since the start at the same pace. */
static double time_left_s(const gs_probe_def **defs, int n, int index, double spent_s,
                          const gs_apart *ap, bool simulated)
{
    double expected[GS_APART_MAX_PROBES + 1] = {0}, others = 0;
    bool done[GS_APART_MAX_PROBES + 1] = {false};
    int k = 0;
    for (int i = 0; i < n && k < GS_APART_MAX_PROBES; i++) {
        double e = gs_cli_expected_s(defs[i], gs_args.thorough, simulated);
        if (!gs_apart_mine(ap, i)) {
            others += e;
            continue;
        }
        expected[k] = e;
        done[k++] = i < index;
    }
    double mine = gs_cli_eta_s(expected, done, k, spent_s);
    if (others <= 0)
        return mine;
    expected[k] = others;
    done[k] = false;
    double theirs = gs_cli_eta_s(expected, done, k + 1, spent_s) - mine - spent_s;
    return mine > theirs ? mine : theirs;
}

/* On the progress line while the other process of a split run finishes: its probes' names. */
static void say_waiting(const gs_probe_def **defs, int n, const gs_apart *ap, double left_s)
{
    char text[96] = "waiting for";
    const char *sep = " ";
    for (int i = 0; i < n; i++) {
        size_t used = strlen(text);
        if (gs_apart_mine(ap, i) || used + strlen(defs[i]->name) + 3 >= sizeof text)
            continue;
        snprintf(text + used, sizeof text - used, "%s%s", sep, defs[i]->name);
        sep = ", ";
    }
    gs_progress_stage(text, "", left_s);
}

static void run_one(const gs_probe_def *def, gs_probe_ctx *ctx, int index, int total, outcome *o)
{
    gs_error err;
    gs_error_clear(&err);
    size_t first = json_array_size(ctx->run->probes);
    double t0 = now_s();
    int lock = gs_cli_host_link_lock(def->flags & GS_PROBE_HOST_LINK);
    gs_profile_stage(def->name);
    double before = gs_probe_clock_khz(ctx->backend);
    if (before > 0 && strcmp(def->name, "clock") != 0)
        ctx->clock_khz = ctx->clock_khz > 0 ? ctx->clock_khz : before;
    int rc = def->run(ctx, &err);
    gs_cli_host_link_unlock(lock);
    double after = gs_probe_clock_khz(ctx->backend);
    double elapsed = now_s() - t0;
    if (json_array_size(ctx->run->probes) == first && rc)
        gs_param_string(gs_run_add_probe(ctx->run, def->name), "error", gs_status_name(err.status));
    const char *status = rc == 0 ? "ok"
                         : rc == GS_ERR_INTERRUPTED ? "interrupted"
                         : rc == GS_ERR_UNSUPPORTED ? "unsupported"
                                                    : "failed";
    close_records(ctx->run, first, before, after, elapsed, status, rc ? err.msg : NULL);
    gs_peak_device peaks;
    gs_peak_device_from(ctx->info, ctx->clock_khz, &peaks);
    for (size_t i = first; i < json_array_size(ctx->run->probes); i++)
        gs_peak_check_record(json_array_get(ctx->run->probes, i), &peaks);
    gs_progress_done(status, elapsed);
    (void)index;
    (void)total;
    if (rc == GS_ERR_INTERRUPTED || gs_interrupted()) {
        o->interrupted = true;
    } else if (rc) {
        gs_progress_clear();
        fprintf(stderr, "gpusonar: %s %s: %s\n", def->name, status, err.msg);
        o->failed++;
        /* Only a probe's refusal of its own options is bad input; anything that failed while
         * measuring (a device error, an empty chain) is a failed run. */
        o->bad_input |= rc == GS_ERR_USAGE;
    }
}

/* A file-name-safe copy of text: letters, digits, '.', '_' and '-' kept, anything else '_'. */
static void safe_name(const char *text, char *buf, size_t len)
{
    size_t i = 0;
    for (; text[i] && i + 1 < len; i++) {
        char c = text[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '_' || c == '-';
        buf[i] = ok && !(i == 0 && c == '.') ? c : '_';
    }
    buf[i] = '\0';
}

/* --out-dir: DIR/<host>-<uuid>.json, host as the document's environment record names it. */
static int out_dir_name(const gs_device_info *info, char *path, size_t len, gs_error *err)
{
    char host[256], h[128], u[64], fallback[32];
    gs_env_host(host, sizeof host);
    snprintf(fallback, sizeof fallback, "%s%d", info->backend, info->ordinal);
    safe_name(*host ? host : "unknown-host", h, sizeof h);
    safe_name(info->uuid[0] ? info->uuid : fallback, u, sizeof u);
    if ((size_t)snprintf(path, len, "%s/%s-%s.json", gs_args.out_dir, h, u) >= len)
        return gs_fail(err, GS_ERR_USAGE, "--out-dir %s: the path is too long", gs_args.out_dir);
    return 0;
}

/* The same, with the folder made if missing. */
static int out_dir_path(const gs_device_info *info, char *path, size_t len, gs_error *err)
{
    int rc = gs_outdir_make(gs_args.out_dir, err);
    return rc ? rc : out_dir_name(info, path, len, err);
}

/* Before measuring: the --out-dir file's name is known once the device is open, and is
 * predictable, so a link planted under it in a shared folder is refused now. */
static int check_out_dir_file(const gs_device_info *info, gs_error *err)
{
    char path[PATH_MAX];
    struct stat st;
    if (!gs_args.out_dir || stat(gs_args.out_dir, &st) != 0)
        return 0;                                    /* made by this run: nothing planted */
    int rc = out_dir_name(info, path, sizeof path, err);
    return rc ? rc : gs_outfile_check(path, "--out-dir", err);
}

/* Each record gets its probe's report hints (result/hints.h), so that the printers, of this run
 * or of the saved document anywhere later, read how it is shown from the record itself. */
static void attach_hints(json_t *doc)
{
    size_t i;
    json_t *rec;
    json_array_foreach(json_object_get(doc, "probes"), i, rec) {
        const gs_probe_def *def = gs_probe_find(json_string_value(json_object_get(rec, "name"))
                                                    ?: "");
        json_t *h = def ? gs_hints_json(&def->hints) : NULL;
        if (h)
            json_object_set_new(rec, "hints", h);
    }
}

/* Write what the run holds: JSON if asked (--json, or --out-dir's file), CSV if asked, the text
 * report unless JSON went to stdout. Each output is written whatever became of the others: a
 * failed one is one message naming its path and cause. Returns how many failed. */
static int emit(gs_run *run, const gs_device_info *info, bool text)
{
    attach_hints(run->doc);
    int failed = 0;
    gs_error err;
    char path[PATH_MAX];
    if (gs_args.out_dir) {
        if (out_dir_path(info, path, sizeof path, &err) ||
            gs_run_write_json(run, path, &err))
            failed++, gs_cli_fail(&err);
        else if (!gs_args.quiet)
            fprintf(stderr, "gpusonar: wrote %s\n", path);
    }
    if (gs_args.json && gs_run_write_json(run, gs_args.json, &err))
        failed++, gs_cli_fail(&err);
    if (gs_args.csv && gs_report_csv(run->doc, gs_args.csv, &err)) {
        failed++;
        fprintf(stderr, "gpusonar: --csv %s: %s\n", gs_args.csv, err.msg);
    }
    if (text && (!gs_args.json || strcmp(gs_args.json, "-") != 0))
        gs_report_print(stdout, run->doc, gs_cli_format(), gs_cli_report_parts());
    return failed;
}

static const char *stop_reason(const outcome *o)
{
    if (o->interrupted)
        return gs_interrupt_signal() == SIGTERM ? "stopped by SIGTERM before every probe finished"
               : gs_interrupt_signal() == SIGHUP
                   ? "stopped by SIGHUP (the terminal closed) before every probe finished"
                   : "interrupted (Ctrl-C) before every probe finished";
    return o->failed ? "one or more probes failed" : NULL;
}

static int exit_status(const outcome *o)
{
    if (o->interrupted)
        return gs_interrupt_signal() == SIGTERM  ? GS_EXIT_SIGTERM
               : gs_interrupt_signal() == SIGHUP ? GS_EXIT_SIGHUP
                                                 : GS_EXIT_SIGINT;
    if (o->bad_input)
        return GS_EXIT_USAGE;
    return o->failed ? GS_EXIT_FAILED : GS_EXIT_OK;
}

static bool read_state(gs_backend *b, gs_device_state *s)
{
    gs_error ignored;
    return b->ops->state && b->ops->state(b, s, &ignored) == 0;
}

/* The environment record, with a warning on stderr when the GPU throttled or was shared. */
static void record_environment(gs_run *run, gs_backend *b, const gs_device_info *info,
                               const gs_device_state *start)
{
    gs_device_state end;
    bool have_end = start && read_state(b, &end);
    gs_env_flags f = gs_run_set_environment(run, info, start, have_end ? &end : NULL);
    if (f.throttled)
        fprintf(stderr, "gpusonar: warning: the GPU throttled during the run (power, thermal or "
                        "hardware slowdown; see environment in the document): figures in ns and "
                        "bandwidths may be low\n");
    if (f.shared)
        fprintf(stderr, "gpusonar: warning: another compute process used the GPU during the run "
                        "(see environment in the document): figures may be disturbed\n");
}

/* The probes on the one device gs_args.device names. */
static int run_on_device(const gs_probe_def **defs, int n, int probe_argc, char **probe_argv,
                         bool unsupported_fails)
{
    return gs_cli_measure(defs, n, probe_argc, probe_argv, unsupported_fails, NULL);
}

int gs_cli_measure(const gs_probe_def **defs, int n, int probe_argc, char **probe_argv,
                   bool unsupported_fails, gs_run **keep)
{
    gs_error err;
    gs_error_clear(&err);
    if (gs_cli_check_outputs(&err))
        return gs_cli_fail(&err);
    gs_backend *b = NULL;
    gs_device_info info;
    if (gs_cli_open_device(&b, &info, &err))
        return gs_cli_fail(&err);
    gs_run *run = gs_run_new(gs_args.full_argc, gs_args.full_argv);
    if (!run) {
        gs_backend_close(b);
        fprintf(stderr, "gpusonar: out of host memory\n");
        return GS_EXIT_FAILED;
    }
    gs_run_set_device(run, &info);
    gs_device_state start;
    bool have_start = read_state(b, &start);
    gs_probe_ctx ctx = {.backend = b, .info = &info, .run = run, .thorough = gs_args.thorough,
                        .quiet = gs_args.quiet, .seed = gs_args.seed, .csv_dir = gs_args.csv,
                        .argc = probe_argc, .argv = probe_argv};
    if (check_out_dir_file(&info, &err)) {
        gs_run_free(run);
        gs_backend_close(b);
        return gs_cli_fail(&err);
    }
    /* Every probe's options are checked before the first measurement of the run. */
    for (int i = 0; i < n; i++)
        if (gs_cli_dry_run(defs[i], &ctx, &err)) {
            gs_run_free(run);
            gs_backend_close(b);
            fprintf(stderr, "gpusonar: %s: %s\n", defs[i]->name, err.msg);
            return GS_EXIT_USAGE;
        }
    outcome o = {0, false, false};
    gs_apart ap;
    int counts[GS_APART_MAX_PROBES] = {0};
    gs_interrupt_defer(true);   /* from here a first signal stops the run, which is written */
    gs_progress_init(gs_args.quiet);
    gs_apart_start(defs, n, info.simulated, &ap);
    /* For the tests of Ctrl-C: GS_TEST_INTERRUPT_AFTER=K sends this process SIGINT after K probes
     * (GS_TEST_SIGNAL=TERM sends SIGTERM), exactly as a user's Ctrl-C or a batch system would. */
    const char *stop_after = getenv("GS_TEST_INTERRUPT_AFTER");
    const char *sig = getenv("GS_TEST_SIGNAL");
    double t0 = now_s();
    for (int i = 0; i < n && !o.interrupted; i++) {
        if (!gs_apart_mine(&ap, i))
            continue;
        int failed_before = o.failed;
        size_t records_before = json_array_size(run->probes);
        if (stop_after && i == atoi(stop_after))
            raise(sig && strcmp(sig, "TERM") == 0 ? SIGTERM
                  : sig && strcmp(sig, "HUP") == 0 ? SIGHUP : SIGINT);
        char stage[96];
        snprintf(stage, sizeof stage, "[%d/%d] %s", i + 1, n, defs[i]->name);
        gs_progress_stage(stage, defs[i]->name,
                          time_left_s(defs, n, i, now_s() - t0, &ap, info.simulated));
        run_one(defs[i], &ctx, i + 1, n, &o);
        json_t *last = json_array_get(run->probes, json_array_size(run->probes) - 1);
        const char *st = json_string_value(json_object_get(last, "status"));
        if (!unsupported_fails && o.failed > failed_before && st && strcmp(st, "unsupported") == 0)
            o.failed = failed_before; /* the full report skips what this device cannot run */
        if (i < GS_APART_MAX_PROBES)
            counts[i] = (int)(json_array_size(run->probes) - records_before);
    }
    gs_apart_outcome ao = {o.failed, o.bad_input, o.interrupted};
    if (ap.child)
        gs_apart_finish_child(&ap, run, counts, n, &ao);
    double wait_s = ap.pid ? time_left_s(defs, n, n, now_s() - t0, &ap, info.simulated) : 0;
    if (ap.pid && !o.interrupted && wait_s >= 0.5)  /* the other process may be done already */
        say_waiting(defs, n, &ap, wait_s);
    gs_apart_merge(&ap, run, defs, counts, n, &ao);
    o.failed = ao.failed, o.bad_input = ao.bad_input, o.interrupted = ao.interrupted;
    gs_progress_clear();
    record_environment(run, b, &info, have_start ? &start : NULL);
    if (gs_cli_concurrent_devices())
        gs_run_set_concurrent(run, gs_cli_concurrent_devices());
    if (gs_budget.budget_s > 0)
        gs_run_set_budget(run, gs_budget.budget_s, gs_budget.planned_s, gs_budget.thorough_dropped,
                          gs_budget.cut, (size_t)gs_budget.ncut);
    gs_run_finish(run, !o.interrupted && o.failed == 0, stop_reason(&o));
    int failed_outputs = emit(run, &info, keep == NULL);
    if (keep)
        *keep = run;
    else
        gs_run_free(run);
    gs_backend_close(b);
    if (failed_outputs)
        return GS_EXIT_FAILED; /* measured, but an output could not be written */
    return exit_status(&o);
}

/* Every simulated device of a list is loaded once before the first is measured, so that a bad
 * model name is a usage error up front, not after measuring the devices before it. CUDA devices
 * are opened by each run only: the processes of --concurrent must start CUDA themselves. */
static int check_device_list(char (*list)[GS_DEVICE_SPEC_LEN], int count, gs_error *err)
{
    for (int i = 0; i < count; i++) {
        if (strncmp(list[i], "sim", 3) != 0 || (list[i][3] != '\0' && list[i][3] != ':'))
            continue;
        gs_backend *b = NULL;
        int rc = gs_backend_open(list[i], gs_args.seed, &b, NULL, err);
        if (rc)
            return rc;
        gs_backend_close(b);
    }
    return 0;
}

int gs_cli_run_probes(const gs_probe_def **defs, int n, int probe_argc, char **probe_argv,
                      bool unsupported_fails)
{
    gs_error err;
    gs_error_clear(&err);
    if (gs_cli_check_outputs(&err))
        return gs_cli_fail(&err);
    if (!gs_cli_is_device_list(gs_args.device))
        return run_on_device(defs, n, probe_argc, probe_argv, unsupported_fails);
    static char list[64][GS_DEVICE_SPEC_LEN];
    int count = 0;
    if (gs_cli_expand_devices(gs_args.device, list, 64, &count, &err) ||
        check_device_list(list, count, &err))
        return gs_cli_fail(&err);
    if (gs_args.concurrent)
        return gs_cli_run_concurrent(list, count);
    /* One device after another (device_list.c says why); the worst status wins, a signal stops. */
    const char *whole = gs_args.device;
    int worst = GS_EXIT_OK;
    for (int i = 0; i < count; i++) {
        if (!gs_args.quiet)
            fprintf(stderr, "gpusonar: device %d of %d: %s\n", i + 1, count, list[i]);
        gs_args.device = list[i];
        int rc = run_on_device(defs, n, probe_argc, probe_argv, unsupported_fails);
        if (rc == GS_EXIT_SIGINT || rc == GS_EXIT_SIGTERM || rc == GS_EXIT_SIGHUP) {
            worst = rc;
            break;
        }
        worst = rc > worst ? rc : worst;
    }
    gs_args.device = whole;
    return worst;
}
