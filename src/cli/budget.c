/* --budget SECONDS: the report plans its probes to finish inside a time budget. It drops
 * --thorough first (fewer samples), then whole probes, keeping the most wanted that fit (the
 * clock always); it says on stderr and in the document what it cut. The
 * expected seconds come from the quick report on an H100 (the probes of the default report:
 * docs/hardware/h100.md); the same table shares out the time left on the progress line. A
 * simulated device runs at the simulator's speed, not the card's: its column holds the seconds of
 * the same probes on the built-in hopper model (one process, one CPU core), and the progress
 * line scales either by how fast the run went so far (gs_cli_eta_s). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const struct {
    const char *name;
    double quick_s;               /* seconds in the quick report on an H100 */
    double sim_s;                 /* seconds on the simulator's hopper model */
} typical[] = {
    {"clock", 0.25, 0.05},        {"smem-banks", 0.15, 1.2},   {"cache", 17, 200},
    {"global-patterns", 1.1, 5},  {"bandwidth", 0.7, 0.05},    {"mem-bandwidth", 2.9, 0.05},
    {"random-walk", 8, 140},      {"pipeline", 0.9, 0.05},     {"roofline", 0.8, 0.05},
    {"paths", 5, 27},             {"l2-partitions", 5, 3},     {"divergence", 1, 0.15},
};

/* Which probes a short budget keeps, most wanted first; a probe that does not fit in what is left
 * is cut and the next one tried, so a cheap probe is never cut to make room for nothing. */
static const char *const keep_order[] = {"clock", "cache", "smem-banks", "pipeline", "bandwidth",
                                         "global-patterns", "mem-bandwidth", "roofline",
                                         "random-walk", "divergence", "paths", "l2-partitions"};

static int rank(const char *name)
{
    for (size_t i = 0; i < sizeof keep_order / sizeof *keep_order; i++)
        if (strcmp(keep_order[i], name) == 0)
            return (int)i;
    return (int)(sizeof keep_order / sizeof *keep_order);
}

double gs_cli_expected_s(const char *probe, bool thorough)
{
    return gs_cli_expected_on_s(probe, thorough, false);
}

double gs_cli_expected_on_s(const char *probe, bool thorough, bool simulated)
{
    double factor = thorough ? 4 : 1;
    for (size_t i = 0; i < sizeof typical / sizeof *typical; i++)
        if (strcmp(typical[i].name, probe) == 0)
            return (simulated ? typical[i].sim_s : typical[i].quick_s) * factor;
    return factor;
}

double gs_cli_eta_s(const double *expected_s, const bool *done, int n, double spent_s)
{
    double finished = 0, left = 0;
    for (int i = 0; i < n; i++)
        *(done[i] ? &finished : &left) += expected_s[i];
    /* Below 5 s of expected work the ratio is mostly start-up and short probes' noise. */
    double ratio = finished >= 5 && spent_s > 0 ? spent_s / finished : 1;
    return left * ratio;
}

static double total_s(const gs_probe_def **defs, int n, bool thorough)
{
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += gs_cli_expected_s(defs[i]->name, thorough);
    return sum;
}

void gs_cli_plan_budget(const gs_probe_def **defs, int *n, double budget_s, bool *thorough,
                        gs_budget_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->budget_s = budget_s;
    if (*thorough && total_s(defs, *n, true) > budget_s) {
        *thorough = false;
        plan->thorough_dropped = true;
    }
    if (total_s(defs, *n, *thorough) > budget_s) {
        bool keep[64] = {false};
        double left = budget_s;
        /* Visit the probes by rank (ties in run order), keeping each that still fits. */
        for (int r = 0; r <= (int)(sizeof keep_order / sizeof *keep_order); r++)
            for (int i = 0; i < *n && i < 64; i++)
                if (rank(defs[i]->name) == r) {
                    double s = gs_cli_expected_s(defs[i]->name, *thorough);
                    keep[i] = s <= left || strcmp(defs[i]->name, "clock") == 0;
                    left -= keep[i] ? s : 0;
                }
        int kept = 0;
        for (int i = 0; i < *n; i++) {
            if (keep[i])
                defs[kept++] = defs[i];
            else if (plan->ncut < GS_BUDGET_MAX_CUT)
                plan->cut[plan->ncut++] = defs[i]->name;
        }
        *n = kept;
    }
    plan->planned_s = total_s(defs, *n, *thorough);
}

void gs_cli_say_budget(const gs_budget_plan *plan)
{
    if (!plan->thorough_dropped && plan->ncut == 0)
        return;
    fprintf(stderr, "gpusonar: --budget %.0f s:%s", plan->budget_s,
            plan->thorough_dropped ? " quick samples instead of --thorough;" : "");
    if (plan->ncut) {
        fprintf(stderr, " left out");
        for (int i = 0; i < plan->ncut; i++)
            fprintf(stderr, "%s %s", i ? "," : "", plan->cut[i]);
        fprintf(stderr, ";");
    }
    fprintf(stderr, " about %.0f s planned (seconds as on an H100)\n", plan->planned_s);
}
