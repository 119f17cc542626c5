/* The command table: one row per command, looked up by the command word (after git's
 * `{ name, function, flags }`). Adding a command is one row here plus its file cmd_NAME.c. The
 * rows also hold each command's help, from which --help and the man page are printed. */
#include <string.h>

#include "cli/cli.h"

int gs_cmd_report(int argc, char **argv);
int gs_cmd_run(int argc, char **argv);
int gs_cmd_list(int argc, char **argv);
int gs_cmd_info(int argc, char **argv);
int gs_cmd_models(int argc, char **argv);
int gs_cmd_devices(int argc, char **argv);
int gs_cmd_plot(int argc, char **argv);
int gs_cmd_compare(int argc, char **argv);
int gs_cmd_html(int argc, char **argv);
int gs_cmd_fleet(int argc, char **argv);
int gs_cmd_help(int argc, char **argv);
int gs_cmd_version(int argc, char **argv);
int gs_cmd_verify(int argc, char **argv);
int gs_cmd_export(int argc, char **argv);
extern const gs_opt gs_cmd_report_opts[];
extern const gs_opt gs_cmd_help_opts[];
extern const gs_opt gs_cmd_plot_opts[];
extern const gs_opt gs_cmd_html_opts[];
extern const gs_opt gs_cmd_verify_opts[];
extern const gs_opt gs_cmd_export_opts[];
extern const gs_opt gs_cmd_fleet_opts[];
extern const gs_opt gs_cmd_compare_opts[];

/* Option counts must be constant expressions here, so the tables' lengths are restated and
 * checked against the exported counts by tests/cli/test_args.c. */
const gs_command gs_commands[] = {
    {"report", gs_cmd_report, GS_COMMON_MEASURE, gs_cmd_report_opts, 0,
     "gpusonar [report] [--probes A,B] [--budget SECONDS] [--from FILE] [--details] [OPTIONS]",
     "run every default probe (quick) and print the report (the default command)",
     "Runs every default probe in its quick configuration (or the --probes given), with\n"
     "progress on stderr, and prints the one-page report on stdout: the summary, then each\n"
     "probe's headline figures; --details prints every figure with its whole reason (the JSON\n"
     "document holds them all). With --from FILE it prints the report of a saved result\n"
     "document instead of measuring."},
    {"run", gs_cmd_run, GS_COMMON_MEASURE, NULL, 1,
     "gpusonar run PROBE [PROBE OPTIONS] [OPTIONS]",
     "one probe with its own options ('gpusonar run PROBE --help')",
     "Runs one probe and prints every figure it made. 'gpusonar list' names them; 'gpusonar\n"
     "run PROBE --help' lists a probe's options. Every option is checked before the device is\n"
     "touched."},
    {"list", gs_cmd_list, 0, NULL, 0, "gpusonar list",
     "the probes, one line each ('*': in the default report)",
     "Lists the probes; '*' marks those in the default report."},
    {"info", gs_cmd_info, GS_COMMON_DEVICE | GS_COMMON_JSON | GS_COMMON_SEED | GS_COMMON_QUIET,
     NULL, 0, "gpusonar info [--device DEV] [--json FILE]",
     "device properties and the measured SM clock",
     "Prints the device's properties as the driver (or the model) reports them, and its SM\n"
     "clock measured now."},
    {"devices", gs_cmd_devices, 0, NULL, 0, "gpusonar devices",
     "the GPUs and simulator models that --device accepts",
     "Lists every CUDA device of this machine (index, name, compute capability, SMs, memory,\n"
     "clocks, UUID, PCI bus id, MIG mode) and every built-in simulator model. Read only."},
    {"models", gs_cmd_models, 0, NULL, 0, "gpusonar models",
     "the built-in simulator models",
     "Lists the built-in simulator models (use one with --device sim:NAME); each is validated\n"
     "as it is listed."},
    {"plot", gs_cmd_plot, 0, gs_cmd_plot_opts, 1,
     "gpusonar plot FILE.json [--out DIR] [--all]",
     "PNG plots (gnuplot) of the key series of a saved result document",
     "Makes PNGs of the series people look for in a saved result document with gnuplot: the\n"
     "random walk's latency against footprint, the caches' average-mode sweeps, bandwidth\n"
     "against footprint, the occupancy roofline per instruction type, the shared-memory bank\n"
     "sweeps and the clock; --all draws every series. Each has its data (.dat) and script (.gp)\n"
     "beside it. Byte axes read in KiB/MiB/GiB. Nothing is measured."},
    {"html", gs_cmd_html, 0, gs_cmd_html_opts, 1, "gpusonar html RESULT.json [-o FILE]",
     "one self-contained HTML page of a saved result document",
     "Writes one HTML page made from a saved result document alone. First the memory hierarchy\n"
     "as a diagram (each level's measured size, line and latency, or why not determined) beside\n"
     "latency against footprint (the random walk's staircase with its Eq. 6 fit) and the\n"
     "occupancy roofline; then bandwidth against footprint, every memory space's walk, the\n"
     "shared-memory banks and one roofline per instruction type; the one-page summary; every\n"
     "probe record's figures (value, 95% interval, n, method; why a figure was not determined)\n"
     "with its other series one click away, fits dashed and intervals as error bars; the run's\n"
     "details. The page loads nothing and runs no script, so it can be mailed or archived as it\n"
     "is. Nothing is measured."},
    {"compare", gs_cmd_compare, 0, gs_cmd_compare_opts, 2,
     "gpusonar compare A.json B.json [--tolerance PCT] [--all]",
     "what changed between two saved result documents",
     "Prints what changed between two result documents, matched by probe, level and name:\n"
     "with * a figure that differs beyond its two 95% intervals, each at least its resolution\n"
     "(a median of clock reads moves in whole cycles: 1 cycle), and by more than PCT percent of\n"
     "the larger value (--tolerance, default 1), a list whose element does, a word that\n"
     "changed; with ! a figure present or determined in one document only (one that became not\n"
     "determined, a record that is missing); with ~, listed but not counted, a figure that moves\n"
     "as each run decides (an L2 hit's partition, a fit's residual, the largest of near-equal\n"
     "alternatives). Values carry their units and intervals. --all lists every figure of\n"
     "both documents. Where the two runs' SM clocks differ beyond their intervals and 0.1%, a\n"
     "last line names both: the card's state, which figures in ns, GB/s or per second follow.\n"
     "Both documents are validated first. Exit status as diff's: 0 no figure differs, 1 some\n"
     "figure differs or is in one document only, 2 trouble (an unreadable or invalid\n"
     "document, a bad option)."},
    {"verify", gs_cmd_verify, GS_COMMON_MEASURE & ~(GS_COMMON_FORMAT | GS_COMMON_CONCURRENT),
     gs_cmd_verify_opts, 0,
     "gpusonar verify [--device sim:MODEL] [--probes A,B] [--tolerance PCT] [--verdicts FILE]",
     "check what the probes infer on a simulator model against the model's truth",
     "Runs the probes (default: cache --target all, smem-banks, pipeline, clock, those the\n"
     "model states figures for) on a simulated GPU and prints, for every figure the model file\n"
     "states, the inferred value, the truth and a verdict: exact, within tolerance (stated per\n"
     "figure with its reason: a latency within the model's noise, which only adds, or 0.1%\n"
     "where the model has none; the clock within 1%; a figure within its own interval), wrong,\n"
     "or not determined (the probe said so: never wrong). Counts, sizes and names are exact.\n"
     "Only sim devices have a truth: --device cuda:N is a usage error. Exit status: 0 nothing\n"
     "wrong, 1 some figure wrong, 2 trouble (bad usage or model, a probe that failed)."},
    {"export", gs_cmd_export, 0, gs_cmd_export_opts, 2,
     "gpusonar export accel-sim RESULT.json [--out FILE] [--l2-sub-partitions N]",
     "a GPGPU-Sim / Accel-Sim configuration fragment from a saved result document",
     "Writes the GPGPU-Sim / Accel-Sim options a saved result document determines: cache\n"
     "geometry strings (L1D, texture, constant, L2), memory and shared-memory latencies,\n"
     "shared-memory banks, pipeline latencies and initiation intervals, the core clock, and\n"
     "the device's properties. An option the document does not determine, or that GPGPU-Sim\n"
     "cannot express, is a comment saying why. docs/accel-sim-export.md names the figure\n"
     "behind each option. Nothing is measured."},
    {"fleet", gs_cmd_fleet, 0, gs_cmd_fleet_opts, 512,
     "gpusonar fleet DIR|FILES... [--format text|markdown|csv|json] [--threshold Z] [--allow-few]",
     "many GPUs' result documents together: per model the median, spread and outliers",
     "Reads result documents (a folder's *.json, or files), groups them by GPU model (name and\n"
     "compute capability) and prints per figure the fleet's median, spread (1.4826 MAD), min and\n"
     "max, and every outlier: host, GPU UUID, figure, value and how far off. A value is an\n"
     "outlier when its robust z-score (0.6745 (x - median) / MAD) exceeds --threshold, it lies\n"
     "more than --min-deviation % from the median, and the gap exceeds its own 95% interval plus\n"
     "the fleet's median interval. A model needs 3 GPUs to be judged (5 to flag a lone GPU when\n"
     "all others agree exactly); one with fewer is summarised and said to be NOT JUDGED, and the\n"
     "exit status is 2 unless --allow-few. Placement-dependent figures (L2 hit latency: near or far partition) and\n"
     "fit residuals are summarised, not judged, unless --judge-all. Documents of another schema or gpusonar\n"
     "version than the majority are listed and not compared; unreadable ones are listed.\n"
     "--format markdown is the fleet page (a table per model, outliers in bold).\n"
     "The first line of the text is the verdict. Exit status: 0 no outlier, 1 an outlier was\n"
     "found, 2 trouble (usage, a document unreadable or set aside, or a model not judged\n"
     "without --allow-few: the comparison is not whole)."},
    {"help", gs_cmd_help, 0, gs_cmd_help_opts, 2, "gpusonar help [COMMAND [PROBE]] [--man]",
     "help for the program or a command",
     "Prints the help of the program, of a command, or of one probe ('gpusonar help run cache');\n"
     "with --man, the man page gpusonar(1) in roff, made from the same texts."},
    {"version", gs_cmd_version, 0, NULL, 0, "gpusonar version (or gpusonar --version)",
     "the version", "Prints gpusonar's version and the commit it was built from."},
};
const int gs_command_count = sizeof gs_commands / sizeof gs_commands[0];
