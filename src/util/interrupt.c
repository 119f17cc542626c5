/* Ctrl-C and SIGTERM handling (see interrupt.h). Only async-signal-safe work happens in the
 * handler. */
#include "util/interrupt.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t stop_signal;

static void say(const char *msg, size_t len)
{
    ssize_t ignored = write(STDERR_FILENO, msg, len);
    (void)ignored;
}

static void on_signal(int sig)
{
    if (stop_requested) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    stop_requested = 1;
    stop_signal = sig;
    static const char int_msg[] = "\ngpusonar: interrupted (SIGINT); finishing the current "
                                  "measurement and writing what is done (press Ctrl-C again to "
                                  "quit at once)\n";
    static const char term_msg[] = "\ngpusonar: got SIGTERM; finishing the current measurement "
                                   "and writing what is done (a second SIGTERM quits at once)\n";
    if (sig == SIGTERM)
        say(term_msg, sizeof term_msg - 1);
    else
        say(int_msg, sizeof int_msg - 1);
}

void gs_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
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
