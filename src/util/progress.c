/* Progress on stderr (progress.h). */
#include "util/progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool enabled;
static char stage_text[96];
static char stage_name[48];
static double left_s = -1;

void gs_progress_init(bool quiet)
{
    enabled = !quiet && isatty(STDERR_FILENO);
}

static void draw(const char *detail)
{
    char eta[48] = "";
    if (left_s >= 0.5)
        snprintf(eta, sizeof eta, "  (about %.0f s left)", left_s);
    /* \r and erase-line: the same line is rewritten; the width is kept under a terminal's 80. */
    int room = 79 - (int)strlen(stage_text) - (int)strlen(eta) - 2;
    fprintf(stderr, "\r\033[K%s%s%.*s%s", stage_text, detail && *detail ? ": " : "",
            detail && room > 0 ? room : 0, detail ? detail : "", eta);
    fflush(stderr);
}

void gs_progress_stage(const char *stage, const char *name, double seconds_left)
{
    snprintf(stage_text, sizeof stage_text, "%s", stage);
    snprintf(stage_name, sizeof stage_name, "%s: ", name);
    left_s = seconds_left;
    if (enabled)
        draw(NULL);
}

void gs_progress_detail(const char *text)
{
    size_t skip = strlen(stage_name);
    if (enabled) /* probes begin their lines with their name, which the stage already says */
        draw(strncmp(text, stage_name, skip) == 0 ? text + skip : text);
}

void gs_progress_clear(void)
{
    if (enabled) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}
