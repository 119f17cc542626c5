/* Tests of the progress estimate (src/cli/budget.c: gs_cli_eta_s, gs_cli_expected_s) and of
 * progress lines when stderr is not a terminal (src/util/progress.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs_test.h"

#include "cli/cli.h"
#include "util/progress.h"

static void eta_scales_by_the_pace_so_far(void **state)
{
    (void)state;
    double expected[] = {0.05, 1.2, 200, 5};
    bool done[] = {true, false, false, false};
    /* Under 5 s of finished work: no scaling (start-up noise would dominate). */
    assert_double_equal(gs_cli_eta_s(expected, done, 4, 0.01), 206.2, 1e-9);
    done[1] = true;
    assert_double_equal(gs_cli_eta_s(expected, done, 4, 0.5), 205, 1e-9);
    /* Twice as slow as expected so far: twice the time left. */
    bool after_cache[] = {true, true, true, false};
    assert_double_equal(gs_cli_eta_s(expected, after_cache, 4, 402.5), 10, 1e-9);
    done[2] = done[3] = true;
    assert_double_equal(gs_cli_eta_s(expected, done, 4, 400), 0, 1e-9);
    assert_double_equal(gs_cli_eta_s(expected, done, 0, 0), 0, 1e-9);
}

static void the_simulator_has_its_own_seconds(void **state)
{
    (void)state;
    /* Every probe states both figures, and the simulator's are its own. */
    for (int i = 0; i < gs_probe_count; i++) {
        assert_true(gs_probes[i]->expected_s > 0);
        assert_true(gs_probes[i]->expected_sim_s > 0);
    }
    const gs_probe_def *cache = gs_probe_find("cache");
    assert_true(gs_cli_expected_s(cache, false, true) != gs_cli_expected_s(cache, false, false));
    assert_double_equal(gs_cli_expected_s(cache, true, true),
                        4 * gs_cli_expected_s(cache, false, true), 1e-9);
}

/* Everything progress writes to stderr while fn runs with stderr on a file. */
static char *captured(void (*fn)(void))
{
    char path[] = "/tmp/gs_progress_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    fn();
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    static char text[1024];
    ssize_t got = pread(fd, text, sizeof text - 1, 0);
    text[got > 0 ? got : 0] = '\0';
    close(fd);
    unlink(path);
    return text;
}

static void two_probes(void)
{
    gs_progress_init(false);
    gs_progress_stage("[1/2] clock", "clock", 130);
    gs_progress_detail("clock: 10 windows of 5 ms");
    gs_progress_done("ok", 0.25);
    gs_progress_stage("[2/2] cache", "cache", 20);
    gs_progress_done("failed", 12.5);
    gs_progress_clear();
}

static void quiet_probes(void)
{
    gs_progress_init(true);
    gs_progress_stage("[1/1] clock", "clock", 10);
    gs_progress_done("ok", 1);
}

static void lines_when_not_a_terminal(void **state)
{
    (void)state;
    const char *text = captured(two_probes);
    assert_string_equal(text, "gpusonar: [1/2] clock ... (about 2 min left)\n"
                              "gpusonar: [1/2] clock ok, 0.2 s\n"
                              "gpusonar: [2/2] cache ... (about 20 s left)\n"
                              "gpusonar: [2/2] cache failed, 12.5 s\n");
    assert_null(strchr(text, '\r'));
    assert_string_equal(captured(quiet_probes), "");
}

static void eta_text(void **state)
{
    (void)state;
    char buf[40];
    gs_progress_eta_text(0.2, buf, sizeof buf);
    assert_string_equal(buf, "");
    gs_progress_eta_text(-1, buf, sizeof buf);
    assert_string_equal(buf, "");
    gs_progress_eta_text(40, buf, sizeof buf);
    assert_string_equal(buf, "about 40 s left");
    gs_progress_eta_text(600, buf, sizeof buf);
    assert_string_equal(buf, "about 10 min left");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(eta_scales_by_the_pace_so_far),
        cmocka_unit_test(the_simulator_has_its_own_seconds),
        cmocka_unit_test(lines_when_not_a_terminal),
        cmocka_unit_test(eta_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
