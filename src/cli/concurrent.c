/* --concurrent: the devices of a list measured at once, one child process per device, each
 * `gpusonar` itself (/proc/self/exe) started from an argument vector with posix_spawn (never a
 * shell): the same command line with --device naming its one device and --quiet. Each child
 * writes its own document into --out-dir, as the one-after-another loop does.
 *
 * GPUs of a node share the host, PCIe and NVLink, so probes that load them (GS_PROBE_HOST_LINK:
 * host copies, peer copies) run alone: the parent makes a lock file and names it to the children
 * in GS_HOST_LINK_LOCK; a child holds flock(LOCK_EX) on it while such a probe runs and
 * flock(LOCK_SH) while any other probe runs, so the other probes (caches, pipelines,
 * device-memory bandwidth) run side by side but never beside a host-link probe. Taking turns
 * alone was not enough: on the H100 pair, GPU 1's pinned host-to-device copy read 41 GB/s
 * beside GPU 0's other probes against 55 GB/s in both runs one after another. GS_CONCURRENT_DEVICES tells a
 * child how many devices ran at once, for its environment record. A child's stdout (its text
 * report) goes to a temporary file that the parent copies to its stdout in list order once all
 * are done, so reports never interleave. Ctrl-C reaches the children
 * through the terminal's process group; a SIGINT or SIGTERM sent to the parent alone is passed
 * on. Each child finishes its current measurement and writes what is done, marked incomplete. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/interrupt.h"

extern char **environ;

enum { MAX_ARGS = 600 };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The child's argument vector: the parent's line without --device and --concurrent, then
 * --device ONE --quiet. */
static int child_argv(const char *device, char **argv, int max)
{
    int n = 0;
    argv[n++] = gs_args.full_argv[0];
    for (int i = 1; i < gs_args.full_argc && n < max - 5; i++) {
        const char *a = gs_args.full_argv[i];
        if (strcmp(a, "--concurrent") == 0 || strncmp(a, "--device=", 9) == 0)
            continue;
        if (strcmp(a, "--device") == 0) {
            i++;
            continue;
        }
        argv[n++] = gs_args.full_argv[i];
    }
    argv[n++] = "--device";
    argv[n++] = (char *)device;
    argv[n++] = "--quiet";
    argv[n] = NULL;
    return n;
}

static int exit_code(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return GS_EXIT_FAILED;
}

static void forward(const pid_t *pid, const bool *running, int count, int sig)
{
    for (int i = 0; i < count; i++)
        if (running[i])
            kill(pid[i], sig);
}

int gs_cli_run_concurrent(char (*list)[GS_DEVICE_SPEC_LEN], int count)
{
    char lock[] = "/tmp/gpusonar-host-link-XXXXXX";
    int fd = mkstemp(lock);
    if (fd < 0) {
        fprintf(stderr, "gpusonar: --concurrent: cannot make the host-link lock file in /tmp: %s\n",
                strerror(errno));
        return GS_EXIT_FAILED;
    }
    close(fd);
    char ndev[16];
    snprintf(ndev, sizeof ndev, "%d", count);
    if (setenv("GS_HOST_LINK_LOCK", lock, 1) || setenv("GS_CONCURRENT_DEVICES", ndev, 1)) {
        unlink(lock);
        fprintf(stderr, "gpusonar: --concurrent: out of host memory\n");
        return GS_EXIT_FAILED;
    }
    if (!gs_args.quiet)
        fprintf(stderr, "gpusonar: measuring %d devices at once (--concurrent), one process each; "
                        "probes that use the host link run alone\n", count);
    pid_t pid[64];
    bool running[64] = {false};
    double start[64];
    FILE *out[64] = {NULL};
    int worst = GS_EXIT_OK, left = 0;
    gs_interrupt_defer(true);   /* the children write their documents; the parent waits for them */
    fflush(stdout);
    for (int i = 0; i < count; i++) {
        char *argv[MAX_ARGS];
        child_argv(list[i], argv, MAX_ARGS);
        out[i] = tmpfile();
        posix_spawn_file_actions_t fa;
        int rc = out[i] ? posix_spawn_file_actions_init(&fa) : errno;
        if (!rc) {
            rc = posix_spawn_file_actions_adddup2(&fa, fileno(out[i]), STDOUT_FILENO);
            if (!rc)
                rc = posix_spawn(&pid[i], "/proc/self/exe", &fa, NULL, argv, environ);
            posix_spawn_file_actions_destroy(&fa);
        }
        if (rc) {
            fprintf(stderr, "gpusonar: --concurrent: cannot start the process for %s: %s\n",
                    list[i], strerror(rc));
            worst = GS_EXIT_FAILED;
            continue;
        }
        running[i] = true;
        start[i] = now_s();
        left++;
    }
    bool forwarded = false;
    while (left > 0) {
        int status;
        pid_t done = waitpid(-1, &status, 0);
        if (done < 0) {
            if (errno != EINTR)
                break;
            if (gs_interrupted() && !forwarded) {   /* a signal to the parent alone */
                forward(pid, running, count, gs_interrupt_signal());
                forwarded = true;
            }
            continue;
        }
        for (int i = 0; i < count; i++) {
            if (!running[i] || pid[i] != done)
                continue;
            running[i] = false;
            left--;
            int rc = exit_code(status);
            if (!gs_args.quiet)
                fprintf(stderr, "gpusonar: %s: finished in %.1f s, exit status %d\n", list[i],
                        now_s() - start[i], rc);
            bool sig = rc == GS_EXIT_SIGINT || rc == GS_EXIT_SIGTERM || rc == GS_EXIT_SIGHUP;
            bool worst_sig = worst == GS_EXIT_SIGINT || worst == GS_EXIT_SIGTERM ||
                             worst == GS_EXIT_SIGHUP;
            if (sig || (!worst_sig && rc > worst))
                worst = rc;
        }
    }
    for (int i = 0; i < count; i++) {       /* the reports, in list order */
        if (!out[i])
            continue;
        char buf[8192];
        size_t got;
        rewind(out[i]);
        while ((got = fread(buf, 1, sizeof buf, out[i])) > 0)
            fwrite(buf, 1, got, stdout);
        fclose(out[i]);
    }
    fflush(stdout);
    unlink(lock);
    unsetenv("GS_HOST_LINK_LOCK");
    unsetenv("GS_CONCURRENT_DEVICES");
    return worst;
}

/* In a child: the host-link lock around one probe, exclusive for a GS_PROBE_HOST_LINK probe and
 * shared for any other. -1: no lock (not a concurrent run). */
int gs_cli_host_link_lock(bool exclusive)
{
    const char *path = getenv("GS_HOST_LINK_LOCK");
    if (!path || !*path)
        return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return -1;
    while (flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0)
        if (errno != EINTR || gs_interrupted())
            break;
    return fd;
}

void gs_cli_host_link_unlock(int fd)
{
    if (fd >= 0)
        close(fd);  /* closing the only descriptor of this open file releases the flock */
}

int gs_cli_concurrent_devices(void)
{
    const char *n = getenv("GS_CONCURRENT_DEVICES");
    int v = n ? atoi(n) : 0;
    return v > 1 && v <= 64 ? v : 0;
}
