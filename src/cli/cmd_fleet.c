/* `gpusonar fleet DIR|FILES...`: many result documents (one per GPU, as `--device cuda:all
 * --out-dir DIR` writes them on every node) read together: grouped by GPU model, per figure the
 * fleet's median and spread, and the outliers (src/report/fleet.c). The exit status serves a
 * health check: 0 no outlier, 1 an outlier, 2 trouble (usage, a document that could not be
 * read or was set aside as another version, or a GPU model with fewer GPUs than it takes to judge
 * one, unless --allow-few: the comparison is not whole). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "report/fleet.h"
#include "util/escape.h"

static const char *format_arg;    /* --format */
static double threshold_z = 3.5;  /* --threshold */
static double min_percent = 5;    /* --min-deviation, percent of the median */
static bool judge_all;            /* --judge-all */
static bool allow_few;            /* --allow-few */

const gs_opt gs_cmd_fleet_opts[] = {
    {"format", GS_OPT_CHOICE, &format_arg, "FMT",
     "text, markdown (the fleet page), csv or json (default text)", "text|markdown|csv|json", 0, 0},
    {"threshold", GS_OPT_DOUBLE, &threshold_z, "Z",
     "robust z-score (median absolute deviation) above which a value may be an outlier (default 3.5)",
     NULL, 0, 0},
    {"min-deviation", GS_OPT_DOUBLE, &min_percent, "PCT",
     "and only when it is more than PCT % from its model's median (default 5)", NULL, 0, 0},
    {"judge-all", GS_OPT_FLAG, &judge_all, NULL,
     "judge placement-dependent figures and fit residuals too (summarised only by default)",
     NULL, 0, 0},
    {"allow-few", GS_OPT_FLAG, &allow_few, NULL,
     "a GPU model with fewer than 3 GPUs is still not judged, but no longer makes the exit "
     "status 2", NULL, 0, 0},
    GS_OPT_END,
};

typedef struct inputs {
    gs_fleet_input *in;
    json_t **docs;
    char **paths;
    size_t count, capacity;
} inputs;

/* Read one document (or note why it cannot be read) into list. */
static int add_file(inputs *list, const char *path)
{
    if (list->count == list->capacity) {
        size_t cap = list->capacity ? 2 * list->capacity : 64;
        gs_fleet_input *in = realloc(list->in, cap * sizeof *in);
        if (in)
            list->in = in;
        json_t **docs = realloc(list->docs, cap * sizeof *docs);
        if (docs)
            list->docs = docs;
        char **paths = realloc(list->paths, cap * sizeof *paths);
        if (paths)
            list->paths = paths;
        if (!in || !docs || !paths)
            return -1;
        list->capacity = cap;
    }
    size_t i = list->count++;
    list->paths[i] = strdup(path);
    list->docs[i] = NULL;
    gs_error err;
    gs_error_clear(&err);
    char *why = NULL;
    if (gs_report_load(path, &list->docs[i], &err)) {
        size_t len = strlen(path); /* the message starts with the path: not twice */
        const char *msg = strncmp(err.msg, path, len) == 0 && err.msg[len] == ':'
                              ? err.msg + len + 1 + (err.msg[len + 1] == ' ')
                              : err.msg;
        why = strdup(msg);
    }
    list->in[i] = (gs_fleet_input){list->paths[i], list->docs[i], why};
    return list->paths[i] ? 0 : -1;
}

static int json_name(const struct dirent *e)
{
    size_t len = strlen(e->d_name);
    return len > 5 && strcmp(e->d_name + len - 5, ".json") == 0 && e->d_name[0] != '.';
}

/* A folder contributes its *.json files, in name order. */
static int add_path(inputs *list, const char *path, gs_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return add_file(list, path) ? gs_fail(err, GS_ERR_NO_MEMORY, "out of memory") : 0;
    struct dirent **names = NULL;
    int n = scandir(path, &names, json_name, alphasort);
    if (n < 0)
        return gs_fail(err, GS_ERR_USAGE, "cannot read folder '%s'", path);
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, names[i]->d_name);
        if (!rc && add_file(list, file))
            rc = gs_fail(err, GS_ERR_NO_MEMORY, "out of memory");
        free(names[i]);
    }
    free(names);
    if (!rc && n == 0)
        rc = gs_fail(err, GS_ERR_USAGE, "folder '%s' holds no .json result documents", path);
    return rc;
}

static void free_inputs(inputs *list)
{
    for (size_t i = 0; i < list->count; i++) {
        json_decref(list->docs[i]);
        free(list->paths[i]);
        free((char *)list->in[i].why);
    }
    free(list->in);
    free(list->docs);
    free(list->paths);
}

int gs_cmd_fleet(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    gs_error err;
    gs_error_clear(&err);
    if (gs_args.npositional < 1) {
        fprintf(stderr, "gpusonar: fleet needs result documents: gpusonar fleet DIR or "
                        "gpusonar fleet A.json B.json ...\n");
        return GS_EXIT_USAGE;
    }
    gs_fleet_options opt = gs_fleet_default_options();
    opt.z_threshold = threshold_z;
    opt.min_relative = min_percent / 100;
    opt.judge_all = judge_all;
    if (!(threshold_z > 0) || !(min_percent >= 0)) {
        fprintf(stderr, "gpusonar: fleet: --threshold must be above 0 and --min-deviation at "
                        "least 0\n");
        return GS_EXIT_USAGE;
    }
    gs_fleet_format fmt = GS_FLEET_TEXT;
    if (format_arg)
        gs_fleet_format_parse(format_arg, &fmt); /* checked by the option's choices */
    inputs list = {0};
    int rc = 0;
    for (int i = 0; i < gs_args.npositional && !rc; i++)
        rc = add_path(&list, gs_args.positional[i], &err);
    json_t *analysis = NULL;
    if (!rc)
        rc = gs_fleet_analyse(list.in, list.count, &opt, &analysis, &err);
    if (rc) {
        free_inputs(&list);
        return gs_cli_fail(&err);
    }
    gs_fleet_print(stdout, analysis, fmt);
    for (size_t i = 0; i < list.count; i++)
        if (list.in[i].why)
            fprintf(stderr, "gpusonar: fleet: %s: %s\n", gs_esc(list.in[i].path),
                    gs_esc(list.in[i].why));
    size_t few = gs_fleet_not_judged_count(analysis);
    if (few && !allow_few)
        fprintf(stderr, "gpusonar: fleet: %zu GPU model%s not judged: fewer than %d GPUs of it; "
                "add documents of more GPUs, or --allow-few to accept this\n", few,
                few == 1 ? "" : "s", opt.min_gpus);
    int status = gs_fleet_has_trouble(analysis) || (few && !allow_few) ? GS_EXIT_USAGE
                 : gs_fleet_outlier_count(analysis)                  ? GS_EXIT_FAILED
                                                                     : GS_EXIT_OK;
    json_decref(analysis);
    free_inputs(&list);
    return status;
}
