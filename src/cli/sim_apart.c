/* A simulated device's report on two cores (see sim_apart.h). */
#include "cli/sim_apart.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/interrupt.h"
#include "util/progress.h"

void gs_apart_start(const gs_probe_def **defs, int n, bool simulated, gs_apart *a)
{
    memset(a, 0, sizeof *a);
    a->fd = -1;
    const char *env = getenv("GS_SIM_PROCESSES");
    if (!simulated || n < 2 || n > GS_APART_MAX_PROBES || sysconf(_SC_NPROCESSORS_ONLN) < 2 ||
        (env && strcmp(env, "1") == 0) || getenv("GS_TEST_INTERRUPT_AFTER"))
        return;
    int apart = 0;
    for (int i = 0; i < n; i++)
        apart += a->side[i] = (defs[i]->flags & GS_PROBE_APART) != 0;
    if (apart == 0 || apart == n)
        return;
    int p[2];
    if (pipe(p) != 0)
        return;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return;
    }
    if (pid == 0) {
        close(p[0]);
        a->child = true;
        a->fd = p[1];
        gs_progress_second_process();   /* the first process draws the terminal line */
        return;
    }
    close(p[1]);
    a->pid = pid;
    a->fd = p[0];
}

bool gs_apart_mine(const gs_apart *a, int i)
{
    if (a->child)
        return a->side[i];
    return a->pid == 0 || !a->side[i];
}

void gs_apart_finish_child(const gs_apart *a, const gs_run *run, const int *counts, int n,
                           const gs_apart_outcome *o)
{
    json_t *msg = json_object(), *c = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(c, json_integer(counts[i]));
    json_object_set(msg, "records", run->probes);
    json_object_set_new(msg, "counts", c);
    json_object_set_new(msg, "failed", json_integer(o->failed));
    json_object_set_new(msg, "bad_input", json_boolean(o->bad_input));
    json_object_set_new(msg, "interrupted", json_boolean(o->interrupted));
    int rc = json_dumpfd(msg, a->fd, JSON_COMPACT);
    close(a->fd);
    _exit(rc == 0 ? 0 : 1);
}

void gs_apart_merge(gs_apart *a, gs_run *run, const gs_probe_def **defs, const int *counts, int n,
                    gs_apart_outcome *o)
{
    if (a->pid == 0)
        return;
    if (gs_interrupted())
        kill(a->pid, gs_interrupt_signal());
    json_error_t jerr;
    json_t *msg = json_loadfd(a->fd, 0, &jerr);
    close(a->fd);
    int status = 0;
    while (waitpid(a->pid, &status, 0) < 0 && errno == EINTR)
        ;
    json_t *theirs = json_object_get(msg, "records"), *tc = json_object_get(msg, "counts");
    bool ok = json_is_array(theirs) && json_is_array(tc) && (int)json_array_size(tc) == n;
    char why[256];
    snprintf(why, sizeof why, "the second process of a simulated run ended without its records "
             "(%.100s)", WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : jerr.text);
    json_t *mine = json_array(), *all = json_array();
    json_array_extend(mine, run->probes);
    size_t im = 0, it = 0;
    for (int i = 0; i < n; i++) {
        if (!a->side[i]) {
            for (int k = 0; k < counts[i]; k++)
                json_array_append(all, json_array_get(mine, im++));
        } else if (!ok) {               /* in its place, a record saying why it is missing */
            gs_probe_out *p = gs_run_add_probe(run, defs[i]->name);
            gs_probe_status(p, "failed", why);
            json_array_append(all, p);
            o->failed++;
        } else {
            long long k = json_integer_value(json_array_get(tc, (size_t)i));
            for (; k > 0 && it < json_array_size(theirs); k--)
                json_array_append(all, json_array_get(theirs, it++));
        }
    }
    json_array_clear(run->probes);
    json_array_extend(run->probes, all);
    if (ok) {
        o->failed += (int)json_integer_value(json_object_get(msg, "failed"));
        o->bad_input |= json_is_true(json_object_get(msg, "bad_input"));
        o->interrupted |= json_is_true(json_object_get(msg, "interrupted"));
    } else {
        fprintf(stderr, "gpusonar: %s\n", why);
    }
    json_decref(mine);
    json_decref(all);
    json_decref(msg);
    a->pid = 0;
}
