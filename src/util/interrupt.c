/* Signal handling (see interrupt.h). Only async-signal-safe work happens in the handler: write,
 * unlink, signal, raise. */
#include "util/interrupt.h"

#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t deferred;

/* The temporary files being written; a slot is in use while its flag is set. */
#define TRACK_MAX 8
static char tracked_path[TRACK_MAX][PATH_MAX];
static volatile sig_atomic_t tracked_used[TRACK_MAX];

static void say(const char *msg, size_t len)
{
    ssize_t ignored = write(STDERR_FILENO, msg, len);
    (void)ignored;
}

/* Remove the temporary files and end the process by sig itself (exit status 128 + sig). */
static void die_by(int sig)
{
    for (int i = 0; i < TRACK_MAX; i++)
        if (tracked_used[i])
            unlink(tracked_path[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_signal(int sig)
{
    if (stop_requested || !deferred) {
        die_by(sig);
        return;
    }
    stop_requested = 1;
    stop_signal = sig;
    static const char int_msg[] = "\ngpusonar: interrupted (SIGINT); finishing the current "
                                  "measurement and writing what is done (press Ctrl-C again to "
                                  "quit at once)\n";
    static const char term_msg[] = "\ngpusonar: got SIGTERM; finishing the current measurement "
                                   "and writing what is done (a second SIGTERM quits at once)\n";
    static const char hup_msg[] = "\ngpusonar: got SIGHUP (the terminal closed); finishing the "
                                  "current measurement and writing what is done\n";
    if (sig == SIGTERM)
        say(term_msg, sizeof term_msg - 1);
    else if (sig == SIGHUP)
        say(hup_msg, sizeof hup_msg - 1);
    else
        say(int_msg, sizeof int_msg - 1);
}

void gs_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGHUP);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    struct sigaction old;
    if (sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler != SIG_IGN)   /* nohup: stays so */
        sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

void gs_interrupt_defer(bool on)
{
    deferred = on ? 1 : 0;
}

bool gs_interrupted(void)
{
    return stop_requested != 0;
}

int gs_interrupt_signal(void)
{
    return stop_requested ? (stop_signal ? (int)stop_signal : SIGINT) : 0;
}

void gs_interrupt_set(bool on)
{
    stop_requested = on ? 1 : 0;
    stop_signal = 0;
}

int gs_interrupt_track_file(const char *path)
{
    if (strlen(path) >= PATH_MAX)
        return -1;
    for (int i = 0; i < TRACK_MAX; i++)
        if (!tracked_used[i]) {
            memcpy(tracked_path[i], path, strlen(path) + 1);
            tracked_used[i] = 1;
            return i;
        }
    return -1;
}

void gs_interrupt_untrack_file(int slot)
{
    if (slot >= 0 && slot < TRACK_MAX)
        tracked_used[slot] = 0;
}
