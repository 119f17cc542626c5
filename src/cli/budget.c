/* --budget SECONDS: the report plans its probes to finish inside a time budget. It drops
 * --thorough first (fewer samples), then whole probes, keeping the most wanted that fit (the
 * first rank always); it says on stderr and in the document what it cut. The expected seconds
 * and ranks are each probe's descriptor's (probe.h): the quick report on an H100 or H200
 * (docs/hardware/), and on the simulator's hopper model for a simulated device, which runs at
 * the simulator's speed, not the card's; the same figures share out the time left on the
 * progress line, which scales them by how fast the run went so far (gs_cli_eta_s). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

double gs_cli_expected_s(const gs_probe_def *def, bool thorough, bool simulated)
{
    return (simulated ? def->expected_sim_s : def->expected_s) * (thorough ? 4 : 1);
}

/* A probe's place in the order --budget keeps them: its rank, unranked ones last. */
static int rank(const gs_probe_def *def)
{
    return def->keep_rank > 0 ? def->keep_rank : 1 << 20;
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
        sum += gs_cli_expected_s(defs[i], thorough, false);
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
        int order[64], m = 0;
        for (int i = 0; i < *n && i < 64; i++)
            order[m++] = i;
        for (int a = 1; a < m; a++)                  /* insertion sort: stable, m is small */
            for (int b = a; b > 0 && rank(defs[order[b]]) < rank(defs[order[b - 1]]); b--) {
                int t = order[b];
                order[b] = order[b - 1], order[b - 1] = t;
            }
        for (int k = 0; k < m; k++) {
            int i = order[k];
            double s = gs_cli_expected_s(defs[i], *thorough, false);
            keep[i] = s <= left || defs[i]->keep_rank == 1;
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
