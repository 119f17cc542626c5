/* `gpusonar html RESULT.json [-o FILE]`: one self-contained HTML page of a saved result document
 * (src/report/html.c), on stdout or written atomically to FILE. Nothing is measured. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/outfile.h"
#include "report/report.h"

static const char *out_path;      /* --out FILE, -o FILE */

const gs_opt gs_cmd_html_opts[] = {
    {"out", GS_OPT_STRING, &out_path, "FILE",
     "write the page to FILE (also -o FILE; default, or -: stdout)", NULL, 0, 0},
    GS_OPT_END,
};

static int print_page(FILE *f, const void *doc, gs_error *err)
{
    return gs_report_html(f, (const json_t *)doc, err);
}

int gs_cmd_html(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (gs_args.npositional != 1) {
        fprintf(stderr, "gpusonar: html needs one result file: gpusonar html RESULT.json "
                "[-o FILE]\n");
        return GS_EXIT_USAGE;
    }
    gs_error err;
    json_t *doc = NULL;
    if (out_path && gs_outfile_check(out_path, "-o", &err))
        return gs_cli_fail(&err);
    if (gs_report_load(gs_args.positional[0], &doc, &err))
        return gs_cli_fail(&err);
    int rc = gs_cli_write(out_path, "-o", print_page, doc, &err);
    json_decref(doc);
    return rc ? gs_cli_fail(&err) : GS_EXIT_OK;
}
