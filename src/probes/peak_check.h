/* One check for every probe's rates: each rate figure of a record is compared with its peak
 * (analysis/rate_peak.h); one within its peak gains a "peak" member (value, fraction, source),
 * one above its peak beyond its interval becomes "not determined" with the reason. */
#ifndef GS_PEAK_CHECK_H
#define GS_PEAK_CHECK_H

#include <jansson.h>

#include "analysis/rate_peak.h"
#include "plan.h"

/* The device as the check sees it: info, and the measured SM clock (kHz, 0 unknown). */
void gs_peak_device_from(const gs_device_info *info, double measured_clock_khz,
                         gs_peak_device *d);

/* Check every numeric rate figure of one probe record; returns how many were refused. The
 * clock is the higher of d's and the record's own readings before and after it ran. */
int gs_peak_check_record(json_t *record, const gs_peak_device *d);

/* The same over a saved document: the device from doc["device"], the clock from the clock
 * probe's sm_clock_khz (else the driver's); returns how many were refused, -1 when the document
 * has no device. */
int gs_peak_check_document(json_t *doc);

#endif
