#!/usr/bin/python3
"""Check the DOM that chromium rendered from `gpusonar html RESULT.json` against the document.

usage: html_dom.py RESULT.json RENDERED.dom CHROMIUM.log

Passes (exit 0) when the browser logged no console message, the DOM holds no element or attribute
that could run or load anything (script, img, iframe, on* handlers, src, external href), the
header names the device (with the SIMULATED banner for a simulated one), the environment record's
keys are shown, every probe record has its section with its title, its figures table (one row per
figure, named in document order) and one SVG plot per series whose line visits every plottable
point. Strings are compared as the reader sees them, so a document whose strings hold markup
passes only when that markup is shown as text. Used by tests/e2e/html_browser.sh."""
import json
import re
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
FORBIDDEN = {"script", "img", "iframe", "object", "embed", "link", "base", "frame", "frameset",
             "audio", "video", "source", "foreignobject", "image", "use", "animate", "set"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children = []   # Node or str

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.walk()

    def find(self, tag=None, cls=None, id_=None):
        for n in self.walk():
            if tag and n.tag != tag:
                continue
            if cls and cls not in (n.attrs.get("class") or "").split():
                continue
            if id_ and n.attrs.get("id") != id_:
                continue
            yield n


class Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
    return cond


MEASURE = ('document.body.setAttribute("data-scroll-width",'
           'document.documentElement.scrollWidth)')


def safe(root):
    for n in root.walk():
        if n.tag == "script" and n.attrs.get("id") == "gs-measure" and n.text() == MEASURE:
            continue   # the test's own width probe (tests/e2e/html_browser.sh), not the page's
        check(n.tag not in FORBIDDEN, f"forbidden element <{n.tag}>")
        if n.tag == "style":
            check("url(" not in n.text() and "@import" not in n.text(), "style loads something")
        for name, value in n.attrs.items():
            check(not name.startswith("on"), f"event handler attribute {name} on <{n.tag}>")
            if n.tag == "body" and name == "data-scroll-width":
                continue
            check(name not in ("src", "srcdoc", "xlink:href", "formaction", "style"),
                  f"attribute {name} on <{n.tag}>")
            if name == "href":
                check((value or "").startswith("#"), f"href {value!r} on <{n.tag}>")


def plottable(series, log):
    if not isinstance(series, dict):
        return 0
    xs, ys = series.get("x") or [], series.get("y") or []
    num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
    return sum(1 for x, y in zip(xs, ys) if num(x) and num(y) and (not log or x > 0))


def check_plot(svg, where, name, series):
    check(name in svg.text(), f"{where}: plot does not name its series {name!r}")
    log = svg.attrs.get("data-xscale") == "log2"
    want = plottable(series, log)
    paths = list(svg.find("path", cls="line"))
    if want == 0:
        return
    if not check(len(paths) == 1, f"{where}: {len(paths)} data line paths"):
        return
    visits = len(re.findall(r"[ML]", paths[0].attrs.get("d", "")))
    check(visits == want, f"{where}: the line visits {visits} points of {want}")
    if want <= 400:
        points = len(list(svg.find("circle", cls="point")))
        check(points == want, f"{where}: {points} point markers of {want}")


def check_overlay(sec, where, name, series):
    """A fit or ci95 series is drawn onto the plot of the series it belongs to: as a dashed fit
    line visiting its points, or as error bars."""
    log = False
    for svg in sec.find("svg", cls="plot"):
        log = svg.attrs.get("data-xscale") == "log2"
        want = plottable(series, log)
        for g in svg.find("g", cls="legend"):
            if g.text() == name:
                fits = [p for p in svg.find("path", cls="fit")]
                ok = any(len(re.findall(r"[ML]", p.attrs.get("d", ""))) == want for p in fits)
                check(ok, f"{where}: fit {name!r} is not drawn with its {want} points")
                return
        fig = svg.parent
        if "ci95" in name and fig is not None and "error bars" in fig.text() \
                and name.replace("_ci95", "").replace("ci95_", "") in fig.text():
            return
    check(False, f"{where}: series {name!r} has no plot and is drawn on none")


def check_record(root, i, rec):
    where = f"probe record {i} ({rec.get('name')!r})"
    sections = list(root.find("section", id_=f"probe-{i}"))
    if not check(len(sections) == 1, f"{where}: {len(sections)} sections"):
        return
    sec = sections[0]
    level = (rec.get("params") or {}).get("level")
    title = rec.get("name", "?") + (f" ({level})" if isinstance(level, str) else "")
    h2 = next(sec.find("h2"), None)
    check(h2 is not None and h2.text() == title, f"{where}: title {h2 and h2.text()!r}")
    tables = list(sec.find("table", cls="figures"))
    if check(len(tables) == 1, f"{where}: {len(tables)} figure tables"):
        names = [td.text() for td in tables[0].find("td", cls="name")]
        check(names == list(rec.get("figures", {})), f"{where}: figure rows {names}")
    for j, (name, series) in enumerate((rec.get("series") or {}).items()):
        svgs = list(sec.find("svg", id_=f"plot-{i}-{j}"))
        if svgs:
            check(len(svgs) == 1, f"{where}: series {name!r} has {len(svgs)} plots")
            check_plot(svgs[0], f"{where} series {name!r}", name, series)
        else:
            check_overlay(sec, f"{where} series {name!r}", name, series)
    for w in rec.get("warnings") or []:
        check(any(li.text() == "warning: " + w for li in sec.find("li")), f"{where}: warning {w!r}")
    if rec.get("message"):
        check(any(p.text() == rec["message"] for p in sec.find("p", cls="message")),
              f"{where}: message")


def check_overview(root, doc):
    """The first screen: the hierarchy diagram, the staircase and the roofline, each drawn when
    the document has its record, a line saying what is missing when not."""
    probes = doc.get("probes") or []
    names = {p.get("name") for p in probes}
    diagram = next(root.find("svg", id_="hierarchy"), None)
    if check(diagram is not None, "no hierarchy diagram"):
        text = diagram.text()
        for box in ("SM", "shared memory", "L1 data", "texture", "constant L1", "L2", "DRAM",
                    "L1 TLB", "L2 TLB"):
            check(box in text, f"hierarchy diagram lacks {box!r}")
    walk = next((p for p in probes if p.get("name") == "random-walk"), None)
    stair = next(root.find(id_="chart-staircase"), None)
    if check(stair is not None, "no staircase chart"):
        if walk and (walk.get("series") or {}).get("global_walk"):
            check(stair.tag == "svg" and len(list(stair.find("path", cls="line"))) == 1
                  and len(list(stair.find("path", cls="fit"))) == 1,
                  "staircase: the walk and its Eq. 6 fit are not both drawn")
        elif "cache" not in names:
            check(stair.tag == "p", "staircase drawn without a record")
    roof = next(root.find(id_="chart-roofline"), None)
    rec = next((p for p in probes if p.get("name") == "roofline"), None)
    if check(roof is not None, "no roofline chart") and rec:
        types = [n for n in rec.get("series") or {} if n.endswith("_by_block_size")]
        check(roof.tag == "svg" and len(list(roof.find("path", cls="line"))) == len(types),
              f"roofline: {len(types)} instruction types not all drawn")
    order = [n.attrs.get("id") for n in root.walk() if n.attrs.get("id") in
             ("hierarchy", "chart-staircase", "chart-roofline", "plots", "summary")]
    check(order[:3] == ["hierarchy", "chart-staircase", "chart-roofline"],
          f"the first screen's order is {order}")


def main():
    doc = json.load(open(sys.argv[1]))
    tree = Tree()
    tree.feed(open(sys.argv[2], encoding="utf-8").read())
    root = tree.root
    log = open(sys.argv[3], encoding="utf-8", errors="replace").read().splitlines()
    for line in log:
        check(":CONSOLE" not in line and "Uncaught" not in line, f"browser console: {line}")
    safe(root)
    dev = doc.get("device") or {}
    h1 = next(root.find("h1"), None)
    check(h1 is not None and h1.text() == "gpusonar report: " + dev.get("name", "no device"),
          f"heading {h1 and h1.text()!r}")
    if dev.get("simulated"):
        banner = next(root.find("p", id_="simulated"), None)
        check(banner is not None and dev.get("model", "?") in banner.text(), "SIMULATED banner")
    env = doc.get("environment")
    if isinstance(env, dict):
        sec = next(root.find("section", id_="environment"), None)
        if check(sec is not None, "no environment section"):
            keys = {th.text() for th in sec.find("th")}
            check(set(env) <= keys, f"environment keys missing: {set(env) - keys}")
    check_overview(root, doc)
    probes = doc.get("probes") or []
    check(len(list(root.find("section", cls="probe"))) == len(probes), "probe section count")
    for i, rec in enumerate(probes):
        check_record(root, i, rec)
    for f in failures:
        print("FAIL", sys.argv[1] + ":", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
