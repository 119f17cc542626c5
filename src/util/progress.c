/* Progress on stderr (progress.h). */
#include "util/progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef enum { OFF, LINES, REDRAWN } progress_mode;

static progress_mode mode = OFF;
static char stage_text[96];
static char stage_name[48];
static double left_s = -1, stage_t0;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void gs_progress_init(bool quiet)
{
    mode = quiet ? OFF : isatty(STDERR_FILENO) ? REDRAWN : LINES;
}

void gs_progress_second_process(void)
{
    if (mode == REDRAWN)
        mode = OFF;
}

void gs_progress_eta_text(double s, char *buf, unsigned len)
{
    if (!(s >= 0.5))
        snprintf(buf, len, "%s", "");
    else if (s < 90)
        snprintf(buf, len, "about %.0f s left", s);
    else
        snprintf(buf, len, "about %.0f min left", s / 60);
}

/* The run's seconds left now: the estimate at the stage's start, less the stage's time so far. */
static double left_now(void)
{
    if (left_s < 0)
        return -1;
    double left = left_s - (now_s() - stage_t0);
    return left > 0 ? left : 0;
}

static void draw(const char *detail)
{
    char eta[48] = "", text[40];
    gs_progress_eta_text(left_now(), text, sizeof text);
    if (*text)
        snprintf(eta, sizeof eta, "  (%s)", text);
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
    stage_t0 = now_s();
    if (mode == REDRAWN) {
        draw(NULL);
    } else if (mode == LINES) {
        char eta[40];
        gs_progress_eta_text(seconds_left, eta, sizeof eta);
        fprintf(stderr, "gpusonar: %s ...%s%s%s\n", stage_text, *eta ? " (" : "", eta,
                *eta ? ")" : "");
        fflush(stderr);
    }
}

void gs_progress_done(const char *status, double seconds)
{
    if (mode == LINES) {
        fprintf(stderr, "gpusonar: %s %s, %.1f s\n", stage_text, status, seconds);
        fflush(stderr);
    }
}

void gs_progress_detail(const char *text)
{
    size_t skip = strlen(stage_name);
    if (mode == REDRAWN) /* probes begin their lines with their name, which the stage says */
        draw(strncmp(text, stage_name, skip) == 0 ? text + skip : text);
}

void gs_progress_clear(void)
{
    if (mode == REDRAWN) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}
