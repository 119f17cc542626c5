/* libFuzzer target: the command-line parsers. The input is an argument vector, its arguments
 * separated by NUL bytes. It is parsed as main (src/cli/main.c) parses a whole gpusonar command
 * line, without running the command: the command word (gs_cli_command_index), the command's
 * options and words (gs_cli_parse), and for `run` the probe's own options against its table;
 * --help is printed (stdout goes to /dev/null). It is also parsed against every probe's option
 * table, and each argument goes through the value parsers (sizes, load paths, instruction names,
 * probe and command names). A --device that is a simulator spec naming a built-in model is
 * opened with gs_backend_open; specs that name a file (a '/' or ".json") or CUDA are not: fuzz
 * input never chooses a file to read or write, and never touches a GPU.
 * Seeds: tests/fuzz/corpus/cli/; dictionary: cli.dict.
 * usage: fuzz_cli [libFuzzer options] [CORPUS_DIR...] */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cli/cli.h"
#include "probes/probe.h"
#include "util/opts.h"

enum { MAX_ARGS = 64 };

/* Split buf (len bytes, followed by a NUL) at NUL bytes into argv; returns argc. A NUL at the
 * end closes the last argument; it does not start an empty one. */
static int split_args(char *buf, size_t len, char **argv)
{
    int argc = 0;
    for (size_t start = 0; start < len && argc < MAX_ARGS; start += strlen(buf + start) + 1)
        argv[argc++] = buf + start;
    return argc;
}

static void parse_probe_tables(int argc, char **argv)
{
    for (int i = 0; i < gs_probe_count; i++) {
        const gs_probe_def *d = gs_probes[i];
        if (!d->opts)
            continue;
        bool help = false;
        const char *positional[2];
        int npositional = 0;
        gs_error err;
        gs_opts_parse(d->opts, gs_opts_len(d->opts), argc, argv, &help, NULL, 0, NULL, &err);
        gs_opts_parse(d->opts, gs_opts_len(d->opts), argc, argv, &help, positional, 2, &npositional,
                      &err);
        gs_probe_ctx ctx = {.argc = argc, .argv = argv};
        gs_probe_parse_opts(&ctx, d->opts, &err);
    }
}

/* "sim" or "sim:NAME" with NAME a built-in model's name: opened, asked for its info and clock.
 * Returns 1 where it tried to open a backend, 0 where the spec was not one to open. */
static int open_device(const char *spec)
{
    if (strncmp(spec, "sim", 3) != 0 || strchr(spec, '/'))
        return 0;
    size_t n = strlen(spec);
    if (n >= 5 && strcmp(spec + n - 5, ".json") == 0)
        return 0;
    gs_backend *b = NULL;
    bool fell_back = false;
    gs_error err;
    if (gs_backend_open(spec, 1, &b, &fell_back, &err) != 0)
        return 1;
    gs_device_info info;
    uint64_t cycles[2], ns[2];
    gs_clock_plan plan = {.windows = 2, .window_ns = 1000, .read_samples = 4};
    gs_clock_result res = {.window_cycles = cycles, .window_ns = ns};
    b->ops->info(b, &info, &err);
    b->ops->clock(b, &plan, &res, &err);
    gs_backend_close(b);
    return 1;
}

static void parse_values(int argc, char **argv)
{
    int opened = 0;               /* at most two devices per input: a model load is slow */
    for (int i = 0; i < argc; i++) {
        uint64_t bytes = 0;
        char text[32];
        if (gs_parse_bytes(argv[i], &bytes) == 0)
            gs_format_bytes(bytes, text, sizeof text);
        gs_load_path path;
        gs_instr instr;
        gs_path_parse(argv[i], &path);
        gs_instr_parse(argv[i], &instr);
        gs_probe_find(argv[i]);
        gs_command_find(argv[i]);
        if (opened < 2 && strcmp(argv[i], "--device") == 0 && i + 1 < argc)
            opened += open_device(argv[i + 1]);
        else if (opened < 2 && strncmp(argv[i], "--device=", 9) == 0)
            opened += open_device(argv[i] + 9);
    }
}

void gs_cmd_run_help(const char *probe);   /* src/cli/cmd_run.c */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!freopen("/dev/null", "w", stdout)) {
        perror("fuzz_cli: /dev/null");
        abort();
    }
    return 0;
}

/* What main does with a command line up to running the command. argv[0] is the program. */
static void parse_command_line(int argc, char **argv)
{
    memset(&gs_args, 0, sizeof gs_args);
    gs_args.seed = 1;
    gs_args.full_argc = argc;
    gs_args.full_argv = argv;
    int at = gs_cli_command_index(argc, argv);
    const gs_command *cmd = gs_command_find(at ? argv[at] : "report");
    if (!cmd)
        return;
    char *args[MAX_ARGS];
    int n = 0;
    for (int i = 1; i < argc; i++)
        if (i != at)
            args[n++] = argv[i];
    gs_error err;
    const gs_command *run = gs_command_find("run");
    int rc = gs_cli_parse(cmd, n, args, cmd == run, &err);
    if (gs_args.help) {
        if (!at)
            gs_cli_print_main_help();
        else if (cmd == run)
            gs_cmd_run_help(gs_args.npositional ? gs_args.positional[0] : NULL);
        else
            gs_cli_print_help(cmd);
    }
    if (rc || cmd != run || gs_args.npositional == 0)
        return;
    const gs_probe_def *def = gs_probe_find(gs_args.positional[0]);
    if (def && def->opts)
        gs_opts_parse(def->opts, gs_opts_len(def->opts), gs_args.nrest, gs_args.rest, NULL, NULL, 0, NULL,
                      &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *argv[MAX_ARGS + 2] = {"gpusonar"};
    int argc = split_args(buf, size, argv + 1);
    argv[argc + 1] = NULL;
    parse_command_line(argc + 1, argv);
    parse_probe_tables(argc, argv + 1);
    parse_values(argc, argv + 1);
    free(buf);
    return 0;
}
