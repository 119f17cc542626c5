/* `gpusonar html RESULT.json [-o FILE]`: one self-contained HTML page of a saved result document
 * (src/report/html.c), on stdout or written atomically to FILE. Nothing is measured. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/report.h"

static const char *out_path;      /* --out FILE, -o FILE */

const gs_opt gs_cmd_html_opts[] = {
    {"out", GS_OPT_STRING, &out_path, "FILE",
     "write the page to FILE (also -o FILE; default, or -: stdout)", NULL, 0, 0},
};
const int gs_cmd_html_opt_count = sizeof gs_cmd_html_opts / sizeof gs_cmd_html_opts[0];

/* The page into path through a temporary name in the same folder, renamed when whole. */
static int write_file(const json_t *doc, const char *path, gs_error *err)
{
    char *tmp = NULL;
    if (asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0)
        return gs_fail(err, GS_ERR_IO, "out of memory naming the HTML file");
    FILE *f = fopen(tmp, "w");
    if (!f) {
        int e = errno;
        free(tmp);
        return gs_fail(err, GS_ERR_IO, "cannot write '%s': %s; choose another -o FILE", path,
                       strerror(e));
    }
    int rc = gs_report_html(f, doc, err);
    int closed = fclose(f);
    if (!rc && (closed != 0 || rename(tmp, path) != 0))
        rc = gs_fail(err, GS_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc;
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
    if (gs_report_load(gs_args.positional[0], &doc, &err))
        return gs_cli_fail(&err);
    int rc = out_path && strcmp(out_path, "-") != 0 ? write_file(doc, out_path, &err)
                                                    : gs_report_html(stdout, doc, &err);
    json_decref(doc);
    return rc ? gs_cli_fail(&err) : GS_EXIT_OK;
}
