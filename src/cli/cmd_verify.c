/* `gpusonar verify [--device sim:MODEL] [--probes A,B] [--tolerance PCT] [--verdicts FILE]`:
 * runs probes on a simulated GPU and checks every figure the model file states against what the
 * probes inferred (src/sim/truth.c, src/report/verify.c). Exit status: 0 nothing wrong, 1 some
 * figure wrong, 2 trouble (bad usage, a bad model, a probe that failed). Only simulator devices
 * have a stated truth, so cuda:N is a usage error. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "util/outfile.h"
#include "report/verify.h"
#include "sim/model.h"
#include "sim/truth.h"

static const char *probes_arg;      /* --probes a,b */
static double tolerance_percent = -1;  /* --tolerance PCT */
static const char *verdicts_path;   /* --verdicts FILE */

const gs_opt gs_cmd_verify_opts[] = {
    {"probes", GS_OPT_STRING, &probes_arg, "A,B",
     "run only these probes (default: cache, smem-banks, pipeline, clock, launch, energy, "
     "those the model has a truth for)", NULL, 0, 0},
    {"tolerance", GS_OPT_DOUBLE, &tolerance_percent, "PCT",
     "relative tolerance of latencies and the clock, in percent (default: a latency within "
     "the model's noise, or 0.1 % where the model has none; the clock 1 %); the noise still "
     "holds where larger; counts, sizes and names are always exact", NULL, 0, 0},
    {"verdicts", GS_OPT_STRING, &verdicts_path, "FILE",
     "write the verdicts as JSON to FILE ('-': to stdout instead of the table)", NULL, 0, 0},
    GS_OPT_END,
};

static const char *const default_probes[] = {"cache", "smem-banks", "pipeline", "clock",
                                             "launch", "energy"};

/* True when record key ("name" or "name:LEVEL") is one of probe `name`. */
static bool is_record_of(const char *key, const char *name)
{
    size_t len = strlen(name);
    return strncmp(key, name, len) == 0 && (key[len] == '\0' || key[len] == ':');
}

/* True when the truth has a record of probe `name`. */
static bool has_truth(const json_t *truth, const char *name)
{
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(truth, "records"), key, v)
        if (is_record_of(key, name))
            return true;
    return false;
}

/* The probes named by --probes, or the default ones the truth covers; -1 (message printed). */
static int pick_probes(const json_t *truth, const gs_probe_def **defs, int max)
{
    int n = 0;
    if (!probes_arg) {
        for (size_t i = 0; i < sizeof default_probes / sizeof *default_probes && n < max; i++)
            if (has_truth(truth, default_probes[i]) && gs_probe_find(default_probes[i]))
                defs[n++] = gs_probe_find(default_probes[i]);
        return n;
    }
    return gs_cli_probe_list(probes_arg, defs, max);
}

/* The model named by --device (sim, sim:NAME, sim:FILE.json; default sim), or a usage error. */
static int model_name(const char **name, gs_error *err)
{
    const char *dev = gs_args.device ? gs_args.device : "sim";
    if (strcmp(dev, "sim") == 0)
        *name = "hopper";
    else if (strncmp(dev, "sim:", 4) == 0 && dev[4])
        *name = dev + 4;
    else
        return gs_fail(err, GS_ERR_USAGE, "verify: --device %s: only a simulated GPU states the "
                       "truth to check against; use --device sim:NAME or sim:FILE.json (a real "
                       "GPU's figures can be compared with 'gpusonar compare')", dev);
    return 0;
}

static int check_options(gs_error *err)
{
    if (tolerance_percent != -1 && !(tolerance_percent >= 0 && tolerance_percent <= 100))
        return gs_fail(err, GS_ERR_USAGE, "--tolerance %g: give a percentage from 0 to 100",
                       tolerance_percent);
    if (gs_args.json && strcmp(gs_args.json, "-") == 0)
        return gs_fail(err, GS_ERR_USAGE, "verify: --json -: stdout carries the verdicts; write "
                       "the result document to a file (--json FILE), or the verdicts as JSON "
                       "with --verdicts -");
    if (verdicts_path && strcmp(verdicts_path, "-") != 0)
        return gs_outfile_check(verdicts_path, "--verdicts", err);  /* before measuring */
    return 0;
}

/* Present the verdicts: the table on stdout, or JSON to --verdicts FILE (- = stdout). */
static int present(const gs_verify *v, const char *model, const gs_verify_opts *opts, gs_error *err)
{
    if (!verdicts_path || strcmp(verdicts_path, "-") != 0)
        gs_verify_print(stdout, v, model, opts);
    if (!verdicts_path)
        return 0;
    gs_run out = {gs_verify_json(v, model), NULL};
    if (!out.doc)
        return gs_fail(err, GS_ERR_NO_MEMORY, "verify: out of host memory");
    int rc = gs_run_write_json(&out, verdicts_path, err);
    json_decref(out.doc);
    return rc;
}

/* The truth's records of the probes defs[0..n) only (a new reference; NULL on out of memory). */
static json_t *truth_of(const json_t *truth, const gs_probe_def **defs, int n)
{
    json_t *records = json_object();
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(truth, "records"), key, v)
        for (int i = 0; records && i < n; i++) {
            if (is_record_of(key, defs[i]->name))
                json_object_set(records, key, v);
        }
    return records ? json_pack("{s:O, s:o}", "model", json_object_get(truth, "model"),
                               "records", records) : NULL;
}

/* Truth of the model, the probes' document, the verdicts; *status is verify's exit status. */
static int verify(const char *name, json_t *truth, int *status, gs_error *err)
{
    const gs_probe_def *defs[16];
    gs_run *run = NULL;
    int n = pick_probes(truth, defs, 16);
    if (n < 0)
        return gs_fail(err, GS_ERR_USAGE, "verify: no probes to run");
    int measured = gs_cli_measure(defs, n, 0, NULL, true, &run);
    if (!run) {
        *status = measured;
        return 0;
    }
    gs_verify v;
    gs_verify_opts opts = {tolerance_percent};
    json_t *checked = truth_of(truth, defs, n);
    int rc = checked ? gs_verify_compare(run->doc, checked, &opts, &v, err)
                     : gs_fail(err, GS_ERR_NO_MEMORY, "verify: out of host memory");
    json_decref(checked);
    gs_run_free(run);
    if (rc == 0) {
        rc = present(&v, name, &opts, err);
        *status = v.counts[GS_VERDICT_WRONG] ? GS_EXIT_FAILED : GS_EXIT_OK;
        gs_verify_free(&v);
    }
    if (rc == 0 && measured != GS_EXIT_OK) {
        fprintf(stderr, "gpusonar: verify: a probe did not finish (see above); the verdicts are "
                        "of what it measured\n");
        *status = measured >= 128 ? measured : GS_EXIT_USAGE;
    }
    return rc;
}

int gs_cmd_verify(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    gs_error err;
    const char *name = NULL;
    gs_sim_model *model = NULL;
    json_t *truth = NULL;
    gs_error_clear(&err);
    if (check_options(&err) || model_name(&name, &err) ||
        gs_sim_model_load(name, gs_args.seed, &model, &err) || gs_sim_truth(model, &truth, &err)) {
        if (model)
            gs_sim_model_free(model);
        gs_cli_fail(&err);
        return GS_EXIT_USAGE;
    }
    int status = GS_EXIT_OK;
    int rc = verify(model->name, truth, &status, &err);
    json_decref(truth);
    gs_sim_model_free(model);
    if (rc) {
        gs_cli_fail(&err);
        return GS_EXIT_USAGE;
    }
    return status;
}
