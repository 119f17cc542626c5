/* Ctrl-C handling (see interrupt.h). Only async-signal-safe work happens in the handler. */
#include "util/interrupt.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    if (stop_requested) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    stop_requested = 1;
    static const char msg[] = "\ngpusonar: interrupted; finishing the current measurement and "
                              "writing what is done (press Ctrl-C again to quit at once)\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
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

void gs_interrupt_set(bool on)
{
    stop_requested = on ? 1 : 0;
}
