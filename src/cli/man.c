/* The man page gpusonar(1), printed in roff from the same tables as --help (the command table,
 * the common options, every probe's option table and the exit statuses), so the two never
 * disagree. `gpusonar help --man` prints it; the build installs it as share/man/man1/gpusonar.1. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* Text for roff: backslashes and hyphens escaped, a line never starting with '.' or '\''. */
static void roff(const char *s)
{
    bool line_start = true;
    for (; s && *s; s++) {
        if (line_start && (*s == '.' || *s == '\''))
            fputs("\\&", stdout);
        if (*s == '\\')
            fputs("\\e", stdout);
        else if (*s == '-')
            fputs("\\-", stdout);
        else
            fputc(*s, stdout);
        line_start = *s == '\n';
    }
}

static void options(const gs_opt *opts, int count)
{
    for (int i = 0; opts && i < count; i++) {
        printf(".TP\n\\fB\\-\\-");
        roff(opts[i].name);
        printf("\\fR");
        if (opts[i].kind != GS_OPT_FLAG) {
            printf(" \\fI");
            roff(opts[i].metavar ? opts[i].metavar : "VALUE");
            printf("\\fR");
        }
        printf("\n");
        roff(opts[i].help);
        if (opts[i].kind == GS_OPT_CHOICE && opts[i].choices) {
            printf(" (");
            roff(opts[i].choices);
            printf(")");
        }
        printf("\n");
    }
}

static void commands(void)
{
    printf(".SH COMMANDS\n");
    for (int i = 0; i < gs_command_count; i++) {
        const gs_command *c = &gs_commands[i];
        printf(".SS ");
        roff(c->name);
        printf("\n.B ");
        roff(c->synopsis);
        printf("\n.PP\n");
        roff(c->description);
        printf("\n");
        options(c->opts, gs_opts_len(c->opts));
    }
}

static void probes(void)
{
    printf(".SH PROBES\nEach probe runs with \\fBgpusonar run\\fR \\fIPROBE\\fR and its own options; "
           "those marked (default) make up the report.\n");
    for (int i = 0; i < gs_probe_count; i++) {
        const gs_probe_def *p = gs_probes[i];
        printf(".SS ");
        roff(p->name);
        printf("%s\n", p->flags & GS_PROBE_DEFAULT ? " (default)" : "");
        roff(p->summary);
        printf("\n");
        options(p->opts, gs_opts_len(p->opts));
    }
}

int gs_cli_print_man(void)
{
    printf(".TH GPUSONAR 1 \"\" \"gpusonar %s\" \"User Commands\"\n", GS_VERSION);
    printf(".SH NAME\ngpusonar \\- measure what GPU vendors do not publish\n");
    printf(".SH SYNOPSIS\n");
    for (int i = 0; i < gs_command_count; i++) {
        printf(".B ");
        roff(gs_commands[i].synopsis);
        printf("\n.br\n");
    }
    printf(".SH DESCRIPTION\ngpusonar measures the size, line, sets, ways, mapping and replacement "
           "policy of every cache and TLB, shared\\-memory banking, the latency and bandwidth of "
           "each memory path, and the issue and completion latency of each instruction type, on a "
           "CUDA GPU or on a simulated GPU described by a JSON model. Every figure carries its "
           "unit, its 95%% interval, its sample count and the method that made it; a figure a "
           "method cannot see is \"not determined\", with the reason. gpusonar only reads the "
           "GPU: it never changes clocks, power limits, compute mode, MIG layout or persistence "
           "mode, and never resets a device.\n");
    commands();
    printf(".SH COMMON OPTIONS\nThey may stand anywhere on the line; a command refuses those it "
           "does not use.\n");
    int ncommon;
    const gs_opt *common = gs_cli_common_options(&ncommon);
    options(common, ncommon);
    probes();
    printf(".SH EXIT STATUS\n");
    for (int i = 0; gs_exit_statuses[i].text; i++) {
        printf(".TP\n.B %d\n", gs_exit_statuses[i].status);
        roff(gs_exit_statuses[i].text);
        printf("\n");
    }
    printf(".SH ENVIRONMENT\n.TP\n.B GS_MODELS_DIR\nthe folder of the built-in simulator models "
           "(default: ../share/gpusonar/models beside the binary)\n");
    printf(".TP\n.B GS_PROFILE\nset to 1: every backend operation is timed and logged on "
           "stderr, one line each, with a stage line before each probe's first operation (where "
           "a run's time goes)\n");
    printf(".TP\n.B GPUSONAR_HOST\nthe host name recorded in the result document (default: "
           "gethostname)\n");
    printf(".SH SEE ALSO\nnvidia\\-smi(1); the project's README.md, docs/methods.md (every "
           "method, its source and its limits) and docs/sim\\-models.md (the model format).\n");
    return GS_EXIT_OK;
}
