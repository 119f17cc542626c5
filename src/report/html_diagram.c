/* The memory hierarchy of a result document as an inline SVG diagram for the HTML report
 * (src/report/html.c): the SM with its shared memory and L1-level caches (data, texture,
 * read-only, constant), the L2 with its near and far partitions (from the cache probe's walks
 * and, where the document has one, the l2-partitions record), DRAM, and the TLB levels. Each
 * box shows what the document measured (size, line, latency) and says "not determined" where a
 * probe could not tell, with its reason as the box's tooltip, or "not measured" where no record
 * is in the document. Names drawn are this file's own; numbers are formatted here; every string
 * from the document goes through gs_html_escape. */
#include "report/html.h"

#include <math.h>
#include <string.h>

#define W 720.0
#define H 540.0
#define COL 560.0          /* the right edge of the SM / L2 / DRAM column */


static const json_t *figure(const json_t *rec, const char *key)
{
    return json_object_get(json_object_get(rec, "figures"), key);
}

static bool number(const json_t *rec, const char *key, double *v)
{
    const json_t *f = json_object_get(figure(rec, key), "value");
    if (!json_is_number(f) || !isfinite(json_number_value(f)))
        return false;
    *v = json_number_value(f);
    return true;
}

/* One line of text inside a box: "what value" or "what not determined" (the reason as its
 * tooltip), or nothing when the record lacks the figure entirely and skip_absent is set. */
typedef enum kind { BYTES, CYCLES, COUNT, GBPS, SHARE } kind;

static void value_text(char *buf, size_t len, double v, kind k)
{
    if (k == BYTES)
        gs_html_format_bytes(v, buf, len);
    else if (k == CYCLES)
        snprintf(buf, len, "%.0f cycles", v);
    else if (k == SHARE)
        snprintf(buf, len, "%.0f%%", v * 100);
    else if (k == GBPS)
        snprintf(buf, len, v >= 1000 ? "%.2f TB/s" : "%.0f GB/s", v >= 1000 ? v / 1000 : v);
    else
        snprintf(buf, len, "%.0f", v);
}

static void text_line(FILE *out, double x, double y, const char *what, const json_t *rec,
                      const char *key, kind k)
{
    double v;
    char buf[64];
    if (number(rec, key, &v)) {
        value_text(buf, sizeof buf, v, k);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s %s</text>\n", x, y, what, buf);
        return;
    }
    const json_t *f = figure(rec, key);
    fprintf(out, "<text class=\"nd\" x=\"%.1f\" y=\"%.1f\">%s %s", x, y, what,
            rec ? (f ? "not determined" : "not reported") : "not measured");
    const char *reason = json_string_value(json_object_get(f, "reason"));
    if (reason) {
        fputs("<title>", out);
        gs_html_escape(out, reason);
        fputs("</title>", out);
    }
    fputs("</text>\n", out);
}

static void box(FILE *out, double x, double y, double w, double h, const char *cls,
                const char *title)
{
    fprintf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
            "rx=\"5\"/>\n<text class=\"name\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", cls, x, y, w, h,
            x + 7, y + 16, title);
}

/* A cache level inside the SM: size, line, hit latency. */
static void cache_box(FILE *out, const json_t *doc, double x, double y, double w,
                      const char *level, const char *title)
{
    const json_t *rec = gs_html_find_record(doc, "cache", level);
    box(out, x, y, w, 78, rec ? "level" : "level absent", title);
    text_line(out, x + 7, y + 34, "size", rec, "size_bytes", BYTES);
    text_line(out, x + 7, y + 50, "line", rec, "line_bytes", BYTES);
    text_line(out, x + 7, y + 66, "hit", rec, "hit_latency_cycles", CYCLES);
}

static void sm_box(FILE *out, const json_t *doc)
{
    const json_t *dev = json_object_get(doc, "device");
    const json_t *clock = gs_html_find_record(doc, "clock", NULL);
    double sms = 0, khz = 0;
    char head[128] = "SM";
    const json_t *n = json_object_get(dev, "sm_count");
    if (json_is_number(n) && (sms = json_number_value(n)) > 0)
        snprintf(head, sizeof head, "SM (%.0f of them", sms);
    if (number(clock, "sm_clock_khz", &khz) && khz > 0)
        snprintf(head + strlen(head), sizeof head - strlen(head), "%s%.0f MHz", sms > 0 ? ", " :
                 " (", khz / 1000);
    if (sms > 0 || khz > 0)
        strncat(head, ")", sizeof head - strlen(head) - 1);
    box(out, 8, 8, COL - 8, 232, "sm", head);

    const json_t *banks = gs_html_find_record(doc, "smem-banks", NULL);
    const json_t *walk = gs_html_find_record(doc, "random-walk", NULL);
    fprintf(out, "<rect class=\"level\" x=\"18\" y=\"30\" width=\"%.1f\" height=\"70\" rx=\"5\"/>"
            "\n<text class=\"name\" x=\"25\" y=\"46\">shared memory</text>\n", COL - 28);
    const json_t *per_sm = json_object_get(dev, "smem_per_sm_bytes");
    if (json_is_number(per_sm)) {
        char buf[48];
        gs_html_format_bytes(json_number_value(per_sm), buf, sizeof buf);
        fprintf(out, "<text x=\"150\" y=\"46\">%s per SM (device)</text>\n", buf);
    }
    text_line(out, 25, 64, "banks", banks, "banks", COUNT);
    text_line(out, 25, 82, "bank width", banks, "bank_width_bytes", BYTES);
    text_line(out, 250, 64, "latency", walk, "shared_latency_cycles", CYCLES);
    text_line(out, 250, 82, "per way of conflict +", banks, "conflict_cycles_per_way", CYCLES);

    static const char *const levels[][2] = {{"l1", "L1 data"}, {"tex", "texture"},
                                            {"ro", "read-only"}, {"const1", "constant L1"}};
    double w = (COL - 28 - 3 * 8) / 4;
    for (int i = 0; i < 4; i++)
        cache_box(out, doc, 18 + i * (w + 8), 112, w, levels[i][0], levels[i][1]);
    fprintf(out, "<text class=\"note\" x=\"18\" y=\"222\">constant L2: </text>\n");
    const json_t *c2 = gs_html_find_record(doc, "cache", "const2");
    text_line(out, 150, 222, "size", c2, "size_bytes", BYTES);
    text_line(out, 300, 222, "hit", c2, "hit_latency_cycles", CYCLES);
}

static void l2_box(FILE *out, const json_t *doc)
{
    const json_t *l2 = gs_html_find_record(doc, "cache", "l2");
    const json_t *parts = gs_html_find_record(doc, "l2-partitions", NULL);
    double y = 270;
    box(out, 8, y, COL - 8, 124, l2 || parts ? "level" : "level absent", "L2");
    text_line(out, 40, y + 16, "size", l2, "size_bytes", BYTES);
    text_line(out, 200, y + 16, "line", l2, "line_bytes", BYTES);
    text_line(out, 330, y + 16, "hit", l2, "hit_latency_cycles", CYCLES);
    double near_bytes;
    bool near_bytes_known = number(l2, "near_size_bytes", &near_bytes);
    if (near_bytes_known) {
        double half = (COL - 36) / 2;
        fprintf(out, "<rect class=\"part\" x=\"18\" y=\"%.1f\" width=\"%.1f\" height=\"60\" "
                "rx=\"4\"/><rect class=\"part\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                "height=\"60\" rx=\"4\"/>\n", y + 28, half, 26 + half, y + 28, half);
        fprintf(out, "<text class=\"name\" x=\"25\" y=\"%.1f\">near partition</text>\n", y + 44);
        text_line(out, 25, y + 62, "size", l2, "near_size_bytes", BYTES);
        text_line(out, 25, y + 80, "hit", l2, "near_hit_latency_cycles", CYCLES);
        fprintf(out, "<text class=\"name\" x=\"%.1f\" y=\"%.1f\">far partition</text>\n",
                33 + half, y + 44);
        text_line(out, 33 + half, y + 62, "hit", l2, "far_hit_latency_cycles", CYCLES);
    } else if (!parts) {
        text_line(out, 25, y + 50, "near/far partitions:", l2, "near_size_bytes", BYTES);
    }
    if (parts) {   /* the l2-partitions probe: latencies seen from one SM, share of far lines */
        double py = near_bytes_known ? y + 100 : y + 50;
        text_line(out, 25, py, "near hit", parts, "l2_near_latency_cycles", CYCLES);
        text_line(out, 170, py, "far hit", parts, "l2_far_latency_cycles", CYCLES);
        text_line(out, 310, py, "lines far", parts, "l2_far_fraction", SHARE);
    }
    text_line(out, 25, y + 116, "miss penalty +", l2, "miss_penalty_cycles", CYCLES);
}

static void dram_box(FILE *out, const json_t *doc)
{
    const json_t *dev = json_object_get(doc, "device");
    const json_t *bw = gs_html_find_record(doc, "mem-bandwidth", NULL);
    const json_t *walk = gs_html_find_record(doc, "random-walk", NULL);
    double y = 420;
    box(out, 8, y, COL - 8, 92, "level", "DRAM");
    const json_t *total = json_object_get(dev, "global_mem_bytes");
    if (json_is_number(total)) {
        char buf[48];
        gs_html_format_bytes(json_number_value(total), buf, sizeof buf);
        fprintf(out, "<text x=\"70\" y=\"%.1f\">%s (device)</text>\n", y + 16, buf);
    }
    text_line(out, 25, y + 36, "read", bw, "dram_read_gbps", GBPS);
    text_line(out, 200, y + 36, "peak", bw, "dram_peak_gbps", GBPS);
    text_line(out, 25, y + 54, "copy", bw, "dram_copy_gbps", GBPS);
    text_line(out, 200, y + 54, "triad", bw, "stream_triad_gbps", GBPS);
    /* The walk's last level is DRAM when its Eq. 6 fit found the caches' steps. */
    const json_t *lats = json_object_get(figure(walk, "global_latencies_cycles"), "value");
    size_t n = json_array_size(lats);
    const json_t *last = n > 1 ? json_array_get(lats, n - 1) : NULL;
    if (json_is_number(last))
        fprintf(out, "<text x=\"25\" y=\"%.1f\">latency %.0f cycles (random walk, last level)"
                "</text>\n", y + 76, json_number_value(last));
    else
        fprintf(out, "<text class=\"nd\" x=\"25\" y=\"%.1f\">latency %s</text>\n", y + 76,
                walk ? "not determined" : "not measured");
}

static void tlb_box(FILE *out, const json_t *doc, double y, const char *level, const char *title)
{
    const json_t *rec = gs_html_find_record(doc, "cache", level);
    double x = COL + 16, w = W - 8 - x;
    box(out, x, y, w, 104, rec ? "level" : "level absent", title);
    text_line(out, x + 7, y + 34, "entries", rec, "entries", COUNT);
    text_line(out, x + 7, y + 50, "covers", rec, "coverage_bytes", BYTES);
    text_line(out, x + 7, y + 66, "page", rec, "page_bytes", BYTES);
    text_line(out, x + 7, y + 82, "miss +", rec, "miss_penalty_cycles", CYCLES);
}

void gs_html_hierarchy(FILE *out, const json_t *doc)
{
    fprintf(out, "<svg class=\"diagram\" id=\"hierarchy\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\""
            " height=\"%.0f\" role=\"img\" aria-label=\"memory hierarchy\">\n"
            "<title>The memory hierarchy as measured (hover a grey line for why a figure was "
            "not determined)</title>\n", W, H, W, H);
    sm_box(out, doc);
    fprintf(out, "<path class=\"link\" d=\"M%.1f 240 L%.1f 270 M%.1f 394 L%.1f 420\"/>\n",
            COL / 2, COL / 2, COL / 2, COL / 2);
    l2_box(out, doc);
    dram_box(out, doc);
    double x = COL + 16;
    fprintf(out, "<text class=\"name\" x=\"%.1f\" y=\"22\">address translation</text>\n", x);
    tlb_box(out, doc, 30, "l1tlb", "L1 TLB");
    tlb_box(out, doc, 150, "l2tlb", "L2 TLB");
    fprintf(out, "<text class=\"note\" x=\"%.1f\" y=\"282\">sizes: binary units</text>\n"
            "<text class=\"note\" x=\"%.1f\" y=\"298\">latencies: SM cycles</text>\n"
            "<text class=\"note\" x=\"%.1f\" y=\"314\">grey: not determined</text>\n", x, x, x);
    fputs("</svg>\n", out);
}
