/* gpusonar's command line: git-style subcommands (report, list, info, run, models), the common
 * options, and the run loop that measures the clock around each probe, records everything in the
 * result document and writes it even when a probe fails or Ctrl-C stops the run.
 * main alone decides the exit status: 0 success, 1 a probe failed or the run was interrupted,
 * 2 usage error or bad input. */
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "probes/probe.h"
#include "report/report.h"
#include "report/result.h"
#include "sim/model.h"
#include "util/interrupt.h"
#include "util/opts.h"

/* ---- common options ------------------------------------------------------------------------ */
typedef struct cli {
    const char *device;
    const char *json;
    const char *csv;
    const char *probes;           /* report --probes a,b */
    const char *from;             /* report --from FILE: print a saved document */
    const char *out_dir;          /* plot --out DIR */
    uint64_t seed;
    bool quiet, thorough, help;
    int argc;                     /* what is left for the probe (run) */
    char **argv;
    int full_argc;
    char **full_argv;
} cli;

static cli C;

static const gs_opt common_opts[] = {
    {"device", GS_OPT_STRING, &C.device, "DEV",
     "cuda:N, sim, sim:NAME or sim:FILE.json (default: cuda:0 if a GPU is present, else sim:hopper)",
     NULL, 0, 0},
    {"json", GS_OPT_STRING, &C.json, "FILE", "write the result document (schema gpusonar/1); - for stdout", NULL, 0, 0},
    {"csv", GS_OPT_STRING, &C.csv, "DIR", "write every series as CSV into DIR", NULL, 0, 0},
    {"seed", GS_OPT_UINT64, &C.seed, "N", "seed for random chains and simulator noise (default 1)", NULL, 0, 0},
    {"quiet", GS_OPT_FLAG, &C.quiet, NULL, "no progress on stderr (also -q)", NULL, 0, 0},
    {"thorough", GS_OPT_FLAG, &C.thorough, NULL, "more samples for tighter intervals (slower)", NULL, 0, 0},
};
enum { COMMON_COUNT = sizeof common_opts / sizeof common_opts[0] };

static const gs_opt report_opts[] = {
    {"probes", GS_OPT_STRING, &C.probes, "A,B", "run only these probes (see 'gpusonar list')", NULL, 0, 0},
    {"from", GS_OPT_STRING, &C.from, "FILE", "print the report of a saved result document instead of measuring", NULL, 0, 0},
};
enum { REPORT_OPT_COUNT = sizeof report_opts / sizeof report_opts[0] };

static const gs_opt plot_opts[] = {
    {"out", GS_OPT_STRING, &C.out_dir, "DIR", "folder for the plots (default: plots)", NULL, 0, 0},
};

/* Split argv into common options (parsed into C) and the rest (kept for the probe). Options of
 * the `extra` table (report's --probes) are also taken here. */
static int parse_common(int argc, char **argv, const gs_opt *extra, int extra_count,
                        bool allow_rest, gs_error *err)
{
    static char *rest[256];
    int nrest = 0;
    for (int i = 0; i < argc; i++) {
        char *a = argv[i];
        if (strcmp(a, "-q") == 0) {
            C.quiet = true;
            continue;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            C.help = true;
            continue;
        }
        const char *name = strncmp(a, "--", 2) == 0 ? a + 2 : NULL;
        size_t len = name ? strcspn(name, "=") : 0;
        const gs_opt *table = NULL;
        int count = 0;
        for (int t = 0; t < 2 && name && !table; t++) {
            const gs_opt *tab = t == 0 ? common_opts : extra;
            int n = t == 0 ? COMMON_COUNT : extra_count;
            for (int k = 0; k < n; k++)
                if (strlen(tab[k].name) == len && strncmp(tab[k].name, name, len) == 0) {
                    table = &tab[k];
                    count = 1;
                }
        }
        if (table) {
            bool takes_value = table->kind != GS_OPT_FLAG && name[len] != '=';
            int n = takes_value && i + 1 < argc ? 2 : 1;
            int rc = gs_opts_parse(table, count, n, argv + i, NULL, NULL, 0, NULL, err);
            if (rc)
                return rc;
            i += n - 1;
            continue;
        }
        if (!allow_rest)
            return gs_fail(err, GS_ERR_USAGE, "unknown option or argument '%s'; see --help", a);
        if (nrest == 255)
            return gs_fail(err, GS_ERR_USAGE, "too many arguments");
        rest[nrest++] = a;
    }
    C.argc = nrest;
    C.argv = rest;
    return 0;
}

/* ---- help ---------------------------------------------------------------------------------- */
static void print_common_help(void)
{
    printf("\nCommon options:\n");
    gs_opts_print(stdout, common_opts, COMMON_COUNT);
    printf("  %-26s %s\n", "--help, -h", "this help");
}

static void usage_main(void)
{
    printf("usage: gpusonar [COMMAND] [OPTIONS]\n\n"
           "Measures what GPU vendors do not publish: cache and TLB structure, shared-memory banks,\n"
           "memory latency and bandwidth, instruction latencies and the occupancy roofline.\n\n"
           "Commands:\n"
           "  report            run every default probe (quick) and print the report (the default)\n"
           "  list              the probes, one line each\n"
           "  info              device properties and the measured SM clock\n"
           "  run PROBE [OPTS]  one probe with its own options ('gpusonar run PROBE --help')\n"
           "  models            the built-in simulator models\n"
           "  plot FILE         PNG plots (gnuplot) of every series of a saved result document\n"
           "  compare A B       two saved result documents side by side\n"
           "  help [COMMAND]    help for a command\n"
           "  version           the version\n");
    print_common_help();
    printf("\nExit status: 0 success, 1 a probe failed or the run was interrupted, 2 usage error or "
           "bad input.\n");
}

static void usage_report(void)
{
    printf("usage: gpusonar [report] [--probes A,B] [OPTIONS]\n\n"
           "Runs every default probe in its quick configuration (or the --probes given), with\n"
           "progress on stderr, and prints the one-page report on stdout.\n\nOptions:\n");
    gs_opts_print(stdout, report_opts, REPORT_OPT_COUNT);
    print_common_help();
}

static void usage_simple(const char *cmd, const char *what)
{
    printf("usage: gpusonar %s [OPTIONS]\n\n%s\n", cmd, what);
    print_common_help();
}

static void usage_run(const gs_probe_def *def)
{
    if (!def) {
        printf("usage: gpusonar run PROBE [PROBE OPTIONS] [OPTIONS]\n\n"
               "Runs one probe. 'gpusonar list' names them; 'gpusonar run PROBE --help' lists a "
               "probe's options.\n");
        print_common_help();
        return;
    }
    printf("usage: gpusonar run %s [OPTIONS]\n\n%s\n", def->name, def->summary);
    if (def->opts && def->opt_count && *def->opt_count > 0) {
        printf("\nProbe options:\n");
        gs_opts_print(stdout, def->opts, *def->opt_count);
    }
    print_common_help();
}

/* ---- device -------------------------------------------------------------------------------- */
static int open_device(gs_backend **b, gs_device_info *info, gs_error *err)
{
    bool fell_back = false;
    int rc = gs_backend_open(C.device, C.seed, b, &fell_back, err);
    if (rc)
        return rc;
    if (fell_back && !C.quiet)
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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- running probes ------------------------------------------------------------------------ */
typedef struct outcome {
    int failed;                   /* probes that failed */
    bool bad_input;               /* a probe refused its options or input (exit status 2) */
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

static void run_one(const gs_probe_def *def, gs_probe_ctx *ctx, int index, int total, outcome *o)
{
    gs_error err;
    gs_error_clear(&err);
    size_t first = json_array_size(ctx->run->probes);
    if (!C.quiet)
        fprintf(stderr, "[%d/%d] %s ...\n", index, total, def->name);
    double t0 = now_s();
    double before = gs_probe_clock_khz(ctx->backend);
    if (before > 0 && strcmp(def->name, "clock") != 0)
        ctx->clock_khz = ctx->clock_khz > 0 ? ctx->clock_khz : before;
    int rc = def->run(ctx, &err);
    double after = gs_probe_clock_khz(ctx->backend);
    double elapsed = now_s() - t0;
    if (json_array_size(ctx->run->probes) == first && rc)
        gs_param_string(gs_run_add_probe(ctx->run, def->name), "error", gs_status_name(err.status));
    const char *status = rc == 0 ? "ok"
                         : rc == GS_ERR_INTERRUPTED ? "interrupted"
                         : rc == GS_ERR_UNSUPPORTED ? "unsupported"
                                                    : "failed";
    close_records(ctx->run, first, before, after, elapsed, status, rc ? err.msg : NULL);
    if (!C.quiet)
        fprintf(stderr, "[%d/%d] %s %s (%.1f s)\n", index, total, def->name, status, elapsed);
    if (rc == GS_ERR_INTERRUPTED || gs_interrupted()) {
        o->interrupted = true;
    } else if (rc) {
        fprintf(stderr, "gpusonar: %s %s: %s\n", def->name, status, err.msg);
        o->failed++;
        o->bad_input |= rc == GS_ERR_USAGE || rc == GS_ERR_INPUT;
    }
}

/* Write what the run holds: JSON if asked, CSV if asked, the text report unless JSON went to
 * stdout. Returns an I/O status. */
static int emit(gs_run *run, gs_error *err)
{
    int rc = 0;
    if (C.json && (rc = gs_run_write_json(run, C.json, err)))
        return rc;
    if (C.csv && (rc = gs_report_csv(run->doc, C.csv, err)))
        return rc;
    if (!C.json || strcmp(C.json, "-") != 0)
        gs_report_text(stdout, run->doc);
    return 0;
}

/* Run defs[0..n) on the device and write the results. Returns the exit status. */
static int run_probes(const gs_probe_def **defs, int n, int argc, char **argv, bool unsupported_fails)
{
    gs_error err;
    gs_error_clear(&err);
    gs_backend *b = NULL;
    gs_device_info info;
    int rc = open_device(&b, &info, &err);
    if (rc) {
        fprintf(stderr, "gpusonar: %s\n", err.msg);
        return gs_exit_status((gs_status)rc);
    }
    gs_run *run = gs_run_new(C.full_argc, C.full_argv);
    if (!run) {
        gs_backend_close(b);
        fprintf(stderr, "gpusonar: out of host memory\n");
        return 1;
    }
    gs_run_set_device(run, &info);
    gs_probe_ctx ctx = {.backend = b, .info = &info, .run = run, .thorough = C.thorough,
                        .quiet = C.quiet, .seed = C.seed, .csv_dir = C.csv, .argc = argc,
                        .argv = argv};
    outcome o = {0, false, false};
    /* For the tests of Ctrl-C: GS_TEST_INTERRUPT_AFTER=K sends this process SIGINT after K probes,
     * exactly as a user's Ctrl-C would. */
    const char *stop_after = getenv("GS_TEST_INTERRUPT_AFTER");
    for (int i = 0; i < n && !o.interrupted; i++) {
        int failed_before = o.failed;
        if (stop_after && i == atoi(stop_after))
            raise(SIGINT);
        run_one(defs[i], &ctx, i + 1, n, &o);
        json_t *last = json_array_get(run->probes, json_array_size(run->probes) - 1);
        const char *st = json_string_value(json_object_get(last, "status"));
        if (!unsupported_fails && o.failed > failed_before && st && strcmp(st, "unsupported") == 0)
            o.failed = failed_before; /* the full report skips what this device cannot run */
    }
    bool complete = !o.interrupted && o.failed == 0;
    gs_run_finish(run, complete, o.interrupted ? "interrupted (Ctrl-C) before every probe finished"
                                 : o.failed ? "one or more probes failed"
                                            : NULL);
    rc = emit(run, &err);
    if (rc)
        fprintf(stderr, "gpusonar: %s\n", err.msg);
    gs_run_free(run);
    gs_backend_close(b);
    if (rc)
        return gs_exit_status((gs_status)rc);
    return o.bad_input ? 2 : o.interrupted || o.failed ? 1 : 0;
}

/* ---- commands ------------------------------------------------------------------------------ */
static int cmd_report(int argc, char **argv)
{
    gs_error err;
    if (parse_common(argc, argv, report_opts, REPORT_OPT_COUNT, false, &err)) {
        fprintf(stderr, "gpusonar: %s\n", err.msg);
        return 2;
    }
    if (C.help) {
        usage_report();
        return 0;
    }
    if (C.from) {
        json_t *doc = NULL;
        if (gs_report_load(C.from, &doc, &err)) {
            fprintf(stderr, "gpusonar: %s\n", err.msg);
            return 2;
        }
        gs_report_text(stdout, doc);
        json_decref(doc);
        return 0;
    }
    const gs_probe_def *defs[64];
    int n = 0;
    if (C.probes) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", C.probes);
        for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save)) {
            const gs_probe_def *d = gs_probe_find(tok);
            if (!d) {
                fprintf(stderr, "gpusonar: --probes: unknown probe '%s'; 'gpusonar list' names "
                                "them\n", tok);
                return 2;
            }
            if (n < 64)
                defs[n++] = d;
        }
        if (n == 0) {
            fprintf(stderr, "gpusonar: --probes needs at least one probe name\n");
            return 2;
        }
    } else {
        for (int i = 0; i < gs_probe_count && n < 64; i++)
            if (gs_probes[i].flags & GS_PROBE_DEFAULT)
                defs[n++] = &gs_probes[i];
    }
    return run_probes(defs, n, 0, NULL, false);
}

static int cmd_run(int argc, char **argv)
{
    gs_error err;
    if (argc == 0 || strncmp(argv[0], "-", 1) == 0) {
        if (argc > 0 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
            usage_run(NULL);
            return 0;
        }
        fprintf(stderr, "gpusonar: run needs a probe name: gpusonar run PROBE; 'gpusonar list' "
                        "names them\n");
        return 2;
    }
    const gs_probe_def *def = gs_probe_find(argv[0]);
    if (!def) {
        fprintf(stderr, "gpusonar: unknown probe '%s'; 'gpusonar list' names them\n", argv[0]);
        return 2;
    }
    if (parse_common(argc - 1, argv + 1, NULL, 0, true, &err)) {
        fprintf(stderr, "gpusonar: %s\n", err.msg);
        return 2;
    }
    if (C.help) {
        usage_run(def);
        return 0;
    }
    /* Check the probe's own options before touching a device, so typos fail fast. */
    if (def->opts && def->opt_count) {
        if (gs_opts_parse(def->opts, *def->opt_count, C.argc, C.argv, NULL, NULL, 0, NULL, &err)) {
            fprintf(stderr, "gpusonar: run %s: %s\n", def->name, err.msg);
            return 2;
        }
    } else if (C.argc > 0) {
        fprintf(stderr, "gpusonar: run %s: unknown option '%s'; see 'gpusonar run %s --help'\n",
                def->name, C.argv[0], def->name);
        return 2;
    }
    return run_probes(&def, 1, C.argc, C.argv, true);
}

/* The start of a command without probe options: parse the common options, answer --help.
 * Returns -1 to go on, else the exit status. */
static int begin_command(int argc, char **argv, const char *cmd, const char *what)
{
    gs_error err;
    if (parse_common(argc, argv, NULL, 0, false, &err)) {
        fprintf(stderr, "gpusonar: %s\n", err.msg);
        return 2;
    }
    if (C.help) {
        usage_simple(cmd, what);
        return 0;
    }
    return -1;
}

static int cmd_list(int argc, char **argv)
{
    int done = begin_command(argc, argv, "list", "Lists the probes; '*' marks those in the default report.");
    if (done >= 0)
        return done;
    for (int i = 0; i < gs_probe_count; i++)
        printf("%c %-18s %s\n", gs_probes[i].flags & GS_PROBE_DEFAULT ? '*' : ' ',
               gs_probes[i].name, gs_probes[i].summary);
    return 0;
}

static void print_info(const gs_device_info *d, double measured_khz)
{
    char l2[32], smem[32], mem[32], cmem[32];
    gs_format_bytes(d->l2_bytes, l2, sizeof l2);
    gs_format_bytes(d->smem_per_sm_bytes, smem, sizeof smem);
    gs_format_bytes(d->global_mem_bytes, mem, sizeof mem);
    gs_format_bytes(d->const_mem_bytes, cmem, sizeof cmem);
    printf("device              %s%s\n", d->name, d->simulated ? "  [SIMULATED model]" : "");
    printf("backend             %s%s%s\n", d->backend, d->simulated ? ":" : "", d->model);
    printf("compute capability  %d.%d\n", d->cc_major, d->cc_minor);
    printf("SMs                 %d\n", d->sm_count);
    printf("SM clock (driver)   %.0f MHz peak%s", d->sm_clock_khz / 1000,
           d->sm_clock_now_khz > 0 ? "" : "\n");
    if (d->sm_clock_now_khz > 0)
        printf(", %.0f MHz now\n", d->sm_clock_now_khz / 1000);
    if (measured_khz > 0)
        printf("SM clock (measured) %.0f MHz\n", measured_khz / 1000);
    else
        printf("SM clock (measured) not determined: the clock plan failed on this device\n");
    if (d->mem_bus_bits > 0)
        printf("global memory       %s (%d-bit bus)\n", mem, d->mem_bus_bits);
    else
        printf("global memory       %s\n", mem);
    printf("L2 cache            %s\n", l2);
    printf("shared memory / SM  %s (%llu B per block, %llu B opt-in)\n", smem,
           (unsigned long long)d->smem_per_block_bytes,
           (unsigned long long)d->smem_per_block_optin_bytes);
    printf("constant memory     %s\n", cmem);
    printf("threads / SM        %d (%d blocks, %d registers)\n", d->max_threads_per_sm,
           d->max_blocks_per_sm, d->regs_per_sm);
    if (!d->simulated)
        printf("driver / runtime    %d.%d / %d.%d%s\n", d->driver_version / 1000,
               d->driver_version % 1000 / 10, d->runtime_version / 1000,
               d->runtime_version % 1000 / 10, d->vmm_supported ? "  (VMM supported)" : "");
}

static int cmd_info(int argc, char **argv)
{
    int done = begin_command(argc, argv, "info",
                             "Prints the device's properties and its SM clock measured now.");
    if (done >= 0)
        return done;
    gs_error err;
    gs_backend *b = NULL;
    gs_device_info info;
    int rc = open_device(&b, &info, &err);
    if (rc) {
        fprintf(stderr, "gpusonar: %s\n", err.msg);
        return gs_exit_status((gs_status)rc);
    }
    double khz = gs_probe_clock_khz(b);
    print_info(&info, khz);
    if (C.json) {
        gs_run *run = gs_run_new(C.full_argc, C.full_argv);
        if (run) {
            gs_run_set_device(run, &info);
            gs_run_finish(run, true, NULL);
            rc = gs_run_write_json(run, C.json, &err);
            gs_run_free(run);
        }
        if (rc)
            fprintf(stderr, "gpusonar: %s\n", err.msg);
    }
    gs_backend_close(b);
    return gs_exit_status((gs_status)rc);
}

static int cmd_models(int argc, char **argv)
{
    int done = begin_command(argc, argv, "models", "Lists the built-in simulator models (use one with --device "
                               "sim:NAME).");
    if (done >= 0)
        return done;
    gs_error err;
    char dir[PATH_MAX];
    if (gs_sim_models_dir(dir, sizeof dir, &err)) {
        fprintf(stderr, "gpusonar: %s\n", err.msg);
        return 2;
    }
    struct dirent **names = NULL;
    int n = scandir(dir, &names, NULL, alphasort);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]->d_name);
        if (len > 5 && strcmp(names[i]->d_name + len - 5, ".json") == 0) {
            char path[PATH_MAX + 512];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
            gs_sim_model *m = NULL;
            if (gs_sim_model_load(path, 1, &m, &err) == 0) {
                printf("%-12s %s\n", m->name, m->description);
                gs_sim_model_free(m);
            } else {
                printf("%-12.*s INVALID: %s\n", (int)(len - 5), names[i]->d_name, err.msg);
                bad = 1;
            }
        }
        free(names[i]);
    }
    free(names);
    return bad ? 2 : 0;
}

static int load_docs(int n, const char **paths, json_t **docs)
{
    gs_error err;
    for (int i = 0; i < n; i++)
        if (gs_report_load(paths[i], &docs[i], &err)) {
            fprintf(stderr, "gpusonar: %s\n", err.msg);
            for (int k = 0; k < i; k++)
                json_decref(docs[k]);
            return 2;
        }
    return 0;
}

static int cmd_plot(int argc, char **argv)
{
    gs_error err;
    const char *pos[2];
    int npos = 0;
    bool help = false;
    C.out_dir = "plots";
    if (gs_opts_parse(plot_opts, 1, argc, argv, &help, pos, 2, &npos, &err)) {
        fprintf(stderr, "gpusonar: plot: %s\n", err.msg);
        return 2;
    }
    if (help) {
        printf("usage: gpusonar plot FILE.json [--out DIR]\n\nMakes one PNG per series of a saved "
               "result document with gnuplot, with its data (.dat) and script (.gp) beside it.\n\n"
               "Options:\n");
        gs_opts_print(stdout, plot_opts, 1);
        return 0;
    }
    if (npos != 1) {
        fprintf(stderr, "gpusonar: plot needs one result file: gpusonar plot FILE.json\n");
        return 2;
    }
    json_t *doc = NULL;
    if (load_docs(1, pos, &doc))
        return 2;
    int count = 0;
    int rc = gs_report_plots(doc, C.out_dir, &count, &err);
    json_decref(doc);
    if (rc) {
        fprintf(stderr, "gpusonar: %s\n", err.msg);
        return gs_exit_status((gs_status)rc);
    }
    printf("%d plot%s in %s/\n", count, count == 1 ? "" : "s", C.out_dir);
    return 0;
}

static int cmd_compare(int argc, char **argv)
{
    gs_error err;
    const char *pos[3];
    int npos = 0;
    bool help = false;
    if (gs_opts_parse(NULL, 0, argc, argv, &help, pos, 3, &npos, &err)) {
        fprintf(stderr, "gpusonar: compare: %s\n", err.msg);
        return 2;
    }
    if (help) {
        printf("usage: gpusonar compare A.json B.json\n\nPrints the numeric figures two result "
               "documents share, side by side, and marks with * those that differ beyond their\n"
               "95%% intervals and by more than 1%%. Exit status 0 either way.\n");
        return 0;
    }
    if (npos != 2) {
        fprintf(stderr, "gpusonar: compare needs two result files: gpusonar compare A.json B.json\n");
        return 2;
    }
    json_t *docs[2];
    if (load_docs(2, pos, docs))
        return 2;
    int differing = 0;
    gs_report_compare(stdout, docs[0], docs[1], &differing);
    json_decref(docs[0]);
    json_decref(docs[1]);
    return 0;
}

int main(int argc, char **argv)
{
    C.seed = 1;
    C.full_argc = argc;
    C.full_argv = argv;
    gs_interrupt_install();
    const char *cmd = argc > 1 ? argv[1] : "report";
    int rest_argc = argc > 1 ? argc - 2 : 0;
    char **rest_argv = argv + 2;
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage_main();
        return 0;
    }
    if (argc > 1 && argv[1][0] == '-') { /* options only: the default command */
        cmd = "report";
        rest_argc = argc - 1;
        rest_argv = argv + 1;
    }
    if (strcmp(cmd, "report") == 0)
        return cmd_report(rest_argc, rest_argv);
    if (strcmp(cmd, "run") == 0)
        return cmd_run(rest_argc, rest_argv);
    if (strcmp(cmd, "list") == 0)
        return cmd_list(rest_argc, rest_argv);
    if (strcmp(cmd, "info") == 0)
        return cmd_info(rest_argc, rest_argv);
    if (strcmp(cmd, "models") == 0)
        return cmd_models(rest_argc, rest_argv);
    if (strcmp(cmd, "plot") == 0)
        return cmd_plot(rest_argc, rest_argv);
    if (strcmp(cmd, "compare") == 0)
        return cmd_compare(rest_argc, rest_argv);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("gpusonar %s (%s)\n", GS_VERSION, GS_GIT_COMMIT);
        return 0;
    }
    if (strcmp(cmd, "help") == 0) {
        const char *what = rest_argc > 0 ? rest_argv[0] : NULL;
        if (!what)
            usage_main();
        else if (strcmp(what, "report") == 0)
            usage_report();
        else if (strcmp(what, "run") == 0)
            usage_run(rest_argc > 1 ? gs_probe_find(rest_argv[1]) : NULL);
        else if (strcmp(what, "plot") == 0 || strcmp(what, "compare") == 0) {
            char *h[] = {"--help"};
            return strcmp(what, "plot") == 0 ? cmd_plot(1, h) : cmd_compare(1, h);
        } else if (strcmp(what, "list") == 0 || strcmp(what, "info") == 0 || strcmp(what, "models") == 0)
            usage_simple(what, "See 'gpusonar help'.");
        else {
            fprintf(stderr, "gpusonar: no help for '%s'; commands: report, list, info, run, "
                            "models, plot, compare\n", what);
            return 2;
        }
        return 0;
    }
    fprintf(stderr, "gpusonar: '%s' is not a command; commands: report, list, info, run, models, "
                    "plot, compare, help (see 'gpusonar --help')\n", cmd);
    return 2;
}
