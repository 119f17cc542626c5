/* `gpusonar models`: the built-in simulator models (the JSON files of models/), each checked as it is
 * listed. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "sim/model.h"

int gs_cmd_models(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return gs_cli_list_models("");
}

int gs_cli_list_models(const char *prefix)
{
    gs_error err;
    char dir[PATH_MAX];
    if (gs_sim_models_dir(dir, sizeof dir, &err))
        return gs_cli_fail(&err);
    struct dirent **names = NULL;
    int n = scandir(dir, &names, NULL, alphasort);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]->d_name);
        if (len > 5 && strcmp(names[i]->d_name + len - 5, ".json") == 0) {
            char path[PATH_MAX + 512];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
            gs_sim_model *m = NULL;
            if (gs_sim_model_load(path, 1, &m, &err) == 0) {
                printf("%s%-12s %s\n", prefix, m->name, m->description);
                gs_sim_model_free(m);
            } else {
                printf("%s%-12.*s INVALID: %s\n", prefix, (int)(len - 5), names[i]->d_name,
                       err.msg);
                bad = 1;
            }
        }
        free(names[i]);
    }
    free(names);
    return bad ? GS_EXIT_USAGE : GS_EXIT_OK;
}
