/* The one-page summary (Table III of the roofline paper plus the cache table). Placeholder until
 * the report issue lands: prints nothing, so the per-probe tables stand alone. */
#include "report/report.h"

void gs_report_summary(FILE *out, const json_t *doc)
{
    (void)out;
    (void)doc;
}
