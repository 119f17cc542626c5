/* The peak check over result records (peak_check.h): the one place where every rate gpusonar
 * prints meets its physical peak, after the probe that measured it and before any printer. */
#include "probes/peak_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/rate_peak.h"
#include "analysis/tensor_peak.h"

void gs_peak_device_from(const gs_device_info *info, double measured_clock_khz,
                         gs_peak_device *d)
{
    memset(d, 0, sizeof *d);
    d->cc_major = info->cc_major;
    d->cc_minor = info->cc_minor;
    d->sm_count = info->sm_count;
    d->warp_size = info->warp_size;
    d->clock_khz = measured_clock_khz;
    d->mem_clock_khz = info->mem_clock_khz;
    d->mem_bus_bits = info->mem_bus_bits;
    d->l2_bytes = (double)info->l2_bytes;
    d->consumer = gs_tensor_consumer_name(info->name);
}

static double number(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* One figure: its peak recorded, or the figure refused; true when refused. */
static bool check_figure(json_t *f, const gs_peak_device *d, const char *probe, const char *name,
                         double footprint_bytes)
{
    const json_t *value = json_object_get(f, "value");
    const char *unit = json_string_value(json_object_get(f, "unit"));
    if (!json_is_number(value) || !unit)
        return false;
    gs_peak peak;
    char why[200], reason[900];
    if (gs_rate_peak(d, probe, name, unit, footprint_bytes, &peak, why, sizeof why) ||
        !(isfinite(peak.value) && peak.value > 0))
        return false;
    double measured = json_number_value(value), ci95 = number(f, "ci95");
    double fraction = gs_tensor_fraction_of_peak(measured, peak.value);
    json_object_set_new(f, "peak", json_pack("{s:f, s:o, s:s}", "value", peak.value, "fraction",
                                             isfinite(fraction) ? json_real(fraction) : json_null(),
                                             "source", peak.source));
    if (!gs_rate_refused(measured, ci95, unit, &peak, reason, sizeof reason))
        return false;
    json_object_set_new(f, "value", json_null());
    json_object_set_new(f, "ci95", json_null());
    json_object_set_new(f, "reason", json_string(reason));
    return true;
}

int gs_peak_check_record(json_t *record, const gs_peak_device *d)
{
    gs_peak_device dev = *d;
    double before = number(record, "clock_khz_before"), after = number(record, "clock_khz_after");
    if (before > dev.clock_khz)
        dev.clock_khz = before;
    if (after > dev.clock_khz)
        dev.clock_khz = after;
    const char *probe = json_string_value(json_object_get(record, "name"));
    double footprint = number(json_object_get(record, "params"), "bytes");
    const char *name;
    json_t *f;
    int refused = 0;
    json_object_foreach(json_object_get(record, "figures"), name, f)
        refused += check_figure(f, &dev, probe ? probe : "", name, isfinite(footprint) ? footprint : 0);
    return refused;
}

/* The clock probe's measured SM clock in a document, 0 when it has none. */
static double document_clock_khz(const json_t *doc)
{
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p) {
        const char *name = json_string_value(json_object_get(p, "name"));
        double khz = number(json_object_get(json_object_get(p, "figures"), "sm_clock_khz"),
                            "value");
        if (name && strcmp(name, "clock") == 0 && khz > 0)
            return khz;
    }
    return 0;
}

int gs_peak_check_document(json_t *doc)
{
    const json_t *dev = json_object_get(doc, "device");
    if (!json_is_object(dev))
        return -1;
    gs_peak_device d;
    memset(&d, 0, sizeof d);
    const char *cc = json_string_value(json_object_get(dev, "compute_capability"));
    if (!cc || sscanf(cc, "%d.%d", &d.cc_major, &d.cc_minor) != 2)
        return -1;
    d.sm_count = (int)number(dev, "sm_count");
    d.warp_size = (int)number(dev, "warp_size");
    d.mem_clock_khz = number(dev, "mem_clock_khz");
    d.mem_bus_bits = (int)number(dev, "mem_bus_bits");
    d.l2_bytes = number(dev, "l2_bytes");
    d.consumer = gs_tensor_consumer_name(json_string_value(json_object_get(dev, "name")));
    d.clock_khz = document_clock_khz(doc);
    if (!(d.clock_khz > 0))
        d.clock_khz = number(dev, "sm_clock_khz");
    int refused = 0;
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "probes"), i, p)
        refused += gs_peak_check_record(p, &d);
    return refused;
}
