/* The command line's shared parts (src/cli/): the command table (after git's: CONTRIBUTING.md,
 * "Style"), the common options and which commands take which, the parser that accepts options
 * anywhere on the line, and the run loop that measures probes on one device. Each command is one
 * file, src/cli/cmd_NAME.c, with one row in the table of src/cli/commands.c. */
#ifndef GS_CLI_H
#define GS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/probe.h"
#include "result/result.h"
#include "report/report.h"
#include "util/error.h"
#include "util/opts.h"

/* Exit statuses (main alone returns them; `gpusonar --help` and the README list them). */
enum {
    GS_EXIT_OK = 0,
    GS_EXIT_FAILED = 1,        /* a probe failed, an output could not be written, figures differ */
    GS_EXIT_USAGE = 2,         /* usage error or bad input, found before anything was measured */
    GS_EXIT_SIGHUP = 129,      /* stopped by SIGHUP (128 + SIGHUP); the document is written */
    GS_EXIT_SIGINT = 130,      /* interrupted by Ctrl-C (128 + SIGINT); the document is written */
    GS_EXIT_SIGTERM = 143,     /* stopped by SIGTERM (128 + SIGTERM); the document is written */
};

/* The common options a command accepts (gs_command.common); any other is a usage error there. */
enum {
    GS_COMMON_DEVICE = 1u << 0,
    GS_COMMON_JSON = 1u << 1,
    GS_COMMON_CSV = 1u << 2,
    GS_COMMON_SEED = 1u << 3,
    GS_COMMON_QUIET = 1u << 4,
    GS_COMMON_THOROUGH = 1u << 5,
    GS_COMMON_FORMAT = 1u << 6,
    GS_COMMON_OUT_DIR = 1u << 7,
    GS_COMMON_CONCURRENT = 1u << 8,
    GS_COMMON_MEASURE = 0x1ff, /* every option above: commands that measure */
};

/* What the parser fills in. Strings point into argv. */
typedef struct gs_cli {
    const char *device;
    const char *json;
    const char *csv;
    uint64_t seed;
    const char *format;           /* --format text|markdown|csv (NULL: text) */
    const char *out_dir;          /* --out-dir DIR: the document as DIR/<host>-<uuid>.json */
    bool quiet, thorough, help;
    bool concurrent;              /* --concurrent: a device list measured at once */
    bool probe_only;              /* print only the probes' figures, no summary (run) */
    bool details;                 /* --details: every figure of each record, not its headline */
    const char *positional[512];  /* words that are not options, in order (fleet takes many) */
    int npositional;
    char *rest[256];              /* options left for a probe (run), when the command allows it */
    int nrest;
    int full_argc;                /* the whole command line, recorded in the result document */
    char **full_argv;
} gs_cli;

extern gs_cli gs_args;

typedef int (*gs_command_fn)(int argc, char **argv);

typedef struct gs_command {
    const char *name;
    gs_command_fn run;
    unsigned common;              /* GS_COMMON_* bits */
    const gs_opt *opts;           /* the command's own options, ended by GS_OPT_END; may be NULL */
    int max_positional;           /* words it takes (FILE, A B, PROBE) */
    const char *synopsis;         /* "gpusonar plot FILE.json [--out DIR]" */
    const char *summary;          /* one line for the command list */
    const char *description;      /* the paragraph of its --help */
} gs_command;

/* The table (src/cli/commands.c) and its lookup. */
extern const gs_command gs_commands[];
extern const int gs_command_count;
const gs_command *gs_command_find(const char *name);

/* Parse argv[0..argc) (the command word already removed) for cmd: common options it accepts, its
 * own options, up to max_positional words; with allow_rest, unknown options and extra words go to
 * gs_args.rest for a probe. A common option the command does not use is a usage error. */
int gs_cli_parse(const gs_command *cmd, int argc, char **argv, bool allow_rest, gs_error *err);

/* The index of the command word in argv[1..argc): the first word that is neither an option nor
 * the value of one (values are recognised from every option table of the program); 0 if none. */
int gs_cli_command_index(int argc, char **argv);

/* True when `name` (without dashes) is an option of some table and takes a value. */
bool gs_cli_option_takes_value(const char *name, size_t len);

/* " (did you mean '--NAME'?)" for an unknown option name[0..len) among cmd's options and the
 * common ones it takes (every command's when cmd is NULL), or "": into buf, returned. */
const char *gs_cli_suggest_option(const gs_command *cmd, const char *name, size_t len, char *buf,
                                  size_t buflen);

/* True when name[0..len) is an option of some table of the program. */
bool gs_cli_option_known(const char *name, size_t len);

/* The first of names (NULL-terminated, without dashes) given on the parsed line, or NULL. */
const char *gs_cli_given(const char *const *names);

/* Print a command's --help (synopsis, description, its options, the common options it takes). */
void gs_cli_print_help(const gs_command *cmd);

/* Print the whole program's help (commands, exit statuses). */
void gs_cli_print_main_help(void);

/* The exit statuses with their meaning, for --help and the man page; ends with text NULL. */
typedef struct gs_exit_doc {
    int status;
    const char *text;
} gs_exit_doc;
extern const gs_exit_doc gs_exit_statuses[];

/* The options every command shares (their table and its length), for the man page. */
const gs_opt *gs_cli_common_options(int *count);

/* The man page gpusonar(1) in roff, from the tables above (src/cli/man.c). */
int gs_cli_print_man(void);

/* Write a file the way every output is written (src/util/outfile.h: atomically for a regular
 * file, in place for a FIFO, a device or "-"): fn prints into the stream it is given. */
typedef int (*gs_write_fn)(FILE *f, const void *ctx, gs_error *err);
int gs_cli_write(const char *path, const char *option, gs_write_fn fn, const void *ctx,
                 gs_error *err);

/* Check --json and --csv before anything is measured; a usage error names the option. */
int gs_cli_check_outputs(gs_error *err);

/* Run defs[0..n) on the device named by gs_args.device and write the document; returns the exit
 * status. probe_argc/argv are the probe's own options (run). With unsupported_fails false a probe
 * the device cannot run is recorded as unsupported without failing the run (the report). */
int gs_cli_run_probes(const gs_probe_def **defs, int n, int probe_argc, char **probe_argv,
                      bool unsupported_fails);

/* Run a probe against a stand-in backend that stops it at its first measurement, so that its
 * option checks run before anything is measured; GS_ERR_USAGE (or INPUT) when they fail. */
int gs_cli_dry_run(const gs_probe_def *def, const gs_probe_ctx *real, gs_error *err);
/* gs_cli_run_probes for a command that presents the document itself (verify): with keep not
 * NULL no text report is printed (JSON and CSV are still written if asked) and *keep gets the
 * finished document, which the caller frees with gs_run_free. */
int gs_cli_measure(const gs_probe_def **defs, int n, int probe_argc, char **probe_argv,
                   bool unsupported_fails, gs_run **keep);
/* --device lists (device_list.c): "cuda:all" or "cuda:0,2" expand into one spec per device,
 * measured one after another (GPUs of a node share the host, PCIe and NVLink), or at once with
 * --concurrent (concurrent.c), where the probes that load what they share take turns. */
#define GS_DEVICE_SPEC_LEN 128
bool gs_cli_is_device_list(const char *spec);
int gs_cli_expand_devices(const char *spec, char (*list)[GS_DEVICE_SPEC_LEN], int max, int *n,
                          gs_error *err);

/* --concurrent (concurrent.c): one child process per device of the list, at once; the worst exit
 * status. In a child: the host-link lock held around every probe, exclusive for GS_PROBE_HOST_LINK
 * probes and shared for the rest (-1 when the run is not concurrent), and how many devices run at
 * once (0 when not concurrent). */
int gs_cli_run_concurrent(char (*list)[GS_DEVICE_SPEC_LEN], int count);
int gs_cli_host_link_lock(bool exclusive);
void gs_cli_host_link_unlock(int fd);
int gs_cli_concurrent_devices(void);

/* Open the device named by gs_args.device (with the simulator fallback notice) and read its info. */
int gs_cli_open_device(gs_backend **b, gs_device_info *info, gs_error *err);

/* Print the built-in models, one line each after prefix; the exit status (2 if one is invalid). */
int gs_cli_list_models(const char *prefix);

/* The --format asked for (text by default). */
gs_report_format gs_cli_format(void);
/* What the text and markdown report show (report.h's GS_REPORT_*): `run PROBE` every figure of
 * its records; the report its summary and headline figures, every figure with --details. */
unsigned gs_cli_report_parts(void);

/* --budget (src/cli/budget.c): what the plan kept and cut. */
#define GS_BUDGET_MAX_CUT 32
typedef struct gs_budget_plan {
    double budget_s;
    double planned_s;             /* the expected seconds of what is left */
    bool thorough_dropped;        /* --thorough was asked for and did not fit */
    const char *cut[GS_BUDGET_MAX_CUT];
    int ncut;
} gs_budget_plan;
extern gs_budget_plan gs_budget;  /* the plan of this run (budget_s 0: no budget) */

/* The seconds a probe is expected to take (its descriptor's; x 4 with --thorough), on a card or
 * on the simulator. */
double gs_cli_expected_s(const gs_probe_def *def, bool thorough, bool simulated);
/* Seconds left in a run: the expected seconds of the probes not done, scaled by how long the
 * done ones took (spent_s) against their expectation once that is 5 s or more. */
double gs_cli_eta_s(const double *expected_s, const bool *done, int n, double spent_s);
/* Fit defs[0..*n) into budget_s: drop *thorough first, then probes in a fixed order. */
void gs_cli_plan_budget(const gs_probe_def **defs, int *n, double budget_s, bool *thorough,
                        gs_budget_plan *plan);
/* One stderr line saying what the plan cut (nothing when it cut nothing). */
void gs_cli_say_budget(const gs_budget_plan *plan);

/* " (did you mean 'PROBE'?)" for an unknown probe name, or "": into buf, returned. */
const char *gs_cli_suggest_probe(const char *word, char *buf, size_t len);

/* The probes of a --probes A,B list into defs; how many, or -1 with a message printed. */
int gs_cli_probe_list(const char *list, const gs_probe_def **defs, int max);

/* Print "gpusonar: MESSAGE" on stderr and return the exit status for its status code. */
int gs_cli_fail(const gs_error *err);

#endif
