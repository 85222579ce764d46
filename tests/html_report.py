#!/usr/bin/env python3
"""The --html page in a real browser (headless Chromium), for three reports.

usage: html_report.py PATH/TO/shardsim SOURCE_ROOT OUT_DIR

Reports: `run scenarios/flax_mlp.shard` (a scenario), `run` of JAX's own
lowering of tests/data/jax/transformer_block_adamw (an imported program,
with its Python source lines), and `plan scenarios/flax_mlp.shard` with a
capacity too small (out of memory). Each command runs once with --json and
--html together; the page is loaded headless (--dump-dom, then
--screenshot into OUT_DIR/NAME.png) and checked against the --json
printed beside it: nothing in the file loads a resource (no src=, <link,
url(, fetch ...), tiles drawn = devices x arrays shown, arrays shown with
every array on = the named values of rank >= 1 in --json "values", ledger
rows = ledger entries, the memory plot's peak = memory.plan_peak_bytes,
no error caught by the page (#page-errors) or printed by the browser
("Uncaught"); in the teaching mode, one step per ledger entry, and the
first collective's step names its kind and finishes its animation. Bad uses of --html (an unwritable path, a file of several
meshes, no value) exit 2 with one line. Output is TAP.

Without Chromium the test is skipped, saying so, unless
SS_REQUIRE_CHROMIUM=1 (CI sets it: there it must run). Standard library
only.
"""
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

SHARDSIM, ROOT, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
JAX = os.path.join(ROOT, "tests", "data", "jax", "transformer_block_adamw")
REPORTS = [
    ("flax_mlp_run", ["run", os.path.join(ROOT, "scenarios", "flax_mlp.shard")], 0),
    ("jax_transformer_run", ["run", os.path.join(JAX, "lowered.shardy.loc.mlir"),
                             "--inputs", os.path.join(JAX, "inputs")], 0),
    ("flax_mlp_plan_oom", ["plan", os.path.join(ROOT, "scenarios", "flax_mlp.shard"),
                           "--device-memory", "40MiB"], 1),
]


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Dom(html.parser.HTMLParser):
    """Elements of the dumped DOM as (tag, attrs, text inside up to the next tag)."""

    def __init__(self):
        super().__init__()
        self.elements = []

    def handle_starttag(self, tag, attrs):
        self.elements.append([tag, dict(attrs), ""])

    def handle_data(self, data):
        if self.elements:
            self.elements[-1][2] += data

    def with_class(self, cls):
        return [e for e in self.elements if cls in (e[1].get("class") or "").split()]

    def by_id(self, ident):
        found = [e for e in self.elements if e[1].get("id") == ident]
        return found[0] if found else None


def chromium(exe, args, profile):
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0"] + args
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def check_report(exe, name, args, want_rc, profile, results):
    page = os.path.join(OUT, name + ".html")
    p = subprocess.run([SHARDSIM] + args + ["--json", "--html", page], capture_output=True,
                       text=True, timeout=600, env=dict(os.environ, NO_COLOR="1"))

    def check(what, ok, detail=""):
        results.append((name + ": " + what, ok, detail))

    check("exit status %d" % want_rc, p.returncode == want_rc,
          "got %d; stderr %s" % (p.returncode, p.stderr[-500:]))
    if p.returncode != want_rc or not os.path.exists(page):
        return
    report = json.loads(p.stdout)
    url = "file://" + os.path.abspath(page)
    with open(page, encoding="utf-8") as f:
        text = f.read()
    fetches = [w for w in ("src=", "href=\"http", "url(", "@import", "fetch(", "XMLHttpRequest",
                           "<link", "import(") if w in text]
    check("self-contained: nothing in the page loads a resource", not fetches, fetches)
    for view, suffix in (("one array", ""), ("every array", "#all-arrays")):
        b = chromium(exe, ["--dump-dom", url + suffix], profile)
        dom = Dom()
        dom.feed(b.stdout)
        body = [e for e in dom.elements if e[0] == "body"]
        check(view + ": the page's script ran to its end",
              bool(body) and body[0][1].get("data-ready") == "1", b.stderr[-800:])
        errors = [e[2] for e in dom.with_class("console-error")]
        uncaught = [line for line in b.stderr.splitlines() if "Uncaught" in line]
        check(view + ": no error on the page or in the browser's console",
              not errors and not uncaught, "; ".join(errors + uncaught)[:800])
        shown = int((dom.by_id("layout-view") or ["", {}])[1].get("data-arrays-shown", "0"))
        tiles = len(dom.with_class("tile"))
        devices = report["mesh"]["devices"]
        check(view + ": tiles = devices x arrays shown (%d x %d)" % (devices, shown),
              shown > 0 and tiles == devices * shown, "%d tiles" % tiles)
        check(view + ": one layout picture per array shown",
              len(dom.with_class("layout")) == shown, "%d pictures" % len(dom.with_class("layout")))
        if suffix:
            named = [v for v in report["values"] if v["name"] is not None and v["shape"]]
            check("every array shown = the named values of rank >= 1 in --json (%d)" % len(named),
                  shown == len(named), "shown %d" % shown)
        else:
            rows = len(dom.with_class("ledger-row"))
            n = len(report["ledger"]["entries"])
            check("ledger rows = ledger entries in --json (%d)" % n, rows == n, "%d rows" % rows)
            ops = len(dom.with_class("op-row"))
            check("op rows = values in --json (%d)" % len(report["values"]),
                  ops == len(report["values"]), "%d rows" % ops)
            plot = dom.by_id("memory-svg")
            peak = report["memory"]["plan_peak_bytes"]
            check("the memory plot's peak = memory.plan_peak_bytes in --json (%d)" % peak,
                  plot is not None and int(plot[1].get("data-peak", -1)) == peak,
                  plot[1].get("data-peak") if plot else "no plot")
            mark = dom.by_id("mem-peak")
            check("the peak's marker holds the same bytes",
                  mark is not None and int(mark[1].get("data-bytes", -1)) == peak)
            check("the buffers at the peak are listed (%d)" % len(report["memory"]["largest_at_peak"]),
                  len(dom.with_class("peak-buffer")) == len(report["memory"]["largest_at_peak"]))
            if report["command"] == "plan" and not report["fits"]:
                check("out of memory: the capacity line is drawn", dom.by_id("mem-capacity") is not None)
                check("out of memory: the page says it does not fit",
                      any("DOES NOT FIT" in e[2] for e in dom.with_class("badge")))
            if "transformer" in name:
                wheres = [e for e in dom.elements if e[0] == "td" and ".py:" in e[2]]
                check("an imported program's ops name their Python source lines", len(wheres) > 0)
    entries = report["ledger"]["entries"]
    if entries:
        # teaching mode: the first collective's step, its animation run to its end
        b = chromium(exe, ["--virtual-time-budget=6000", "--dump-dom", url + "#teach=c1"], profile)
        dom = Dom()
        dom.feed(b.stdout)
        view = dom.by_id("teach-view")
        check("teaching mode: a step per collective (%d)" % len(entries),
              view is not None and view[1].get("data-collective-steps") == str(len(entries)))
        sentence = (dom.by_id("teach-sentence") or ["", {}, ""])[2]
        check("teaching mode: collective #1's sentence names its kind (%s)" % entries[0]["kind"],
              sentence.startswith("Collective #1 ") and entries[0]["kind"] in sentence, sentence)
        pic = dom.with_class("teach-collective")
        check("teaching mode: its tiles moved to the end",
              len(pic) == 1 and pic[0][1].get("data-done") == "1"
              and pic[0][1].get("data-kind") == entries[0]["kind"])
        errors = [e[2] for e in dom.with_class("console-error")]
        check("teaching mode: no error on the page", not errors, "; ".join(errors))
    shot = os.path.join(OUT, name + ".png")
    if os.path.exists(shot):
        os.remove(shot)
    b = chromium(exe, ["--window-size=1200,1500", "--hide-scrollbars", "--screenshot=" + shot, url],
                 profile)
    check("screenshot written to " + shot, os.path.exists(shot) and os.path.getsize(shot) > 1000,
          b.stderr[-500:])


def check_errors(results):
    """Bad uses of --html: one line on stderr, exit 2, no page."""
    mlp = os.path.join(ROOT, "scenarios", "flax_mlp.shard")
    sections = os.path.join(ROOT, "scenarios", "restore_on_new_mesh.shard")
    page = os.path.join(OUT, "not-written.html")
    for args, says in (
            (["run", mlp, "--html", os.path.join(OUT, "no-such-dir", "x.html")], "cannot write"),
            (["plan", sections, "--html", page], "take a file with one mesh"),
            (["run", mlp, "--html"], "needs a value")):
        p = subprocess.run([SHARDSIM] + args, capture_output=True, text=True, timeout=120)
        lines = p.stderr.strip().splitlines()
        results.append(("error: shardsim %s ... %s" % (args[0], " ".join(args[2:])),
                        p.returncode == 2 and len(lines) == 1 and says in lines[0]
                        and not os.path.exists(page), "exit %d, stderr %r" % (p.returncode, p.stderr)))


def main():
    os.makedirs(OUT, exist_ok=True)
    results = []
    check_errors(results)
    exe = browser()
    skip = None
    if not exe:
        if os.environ.get("SS_REQUIRE_CHROMIUM") == "1":
            results.append(("chromium is installed (SS_REQUIRE_CHROMIUM=1)", False, ""))
        else:
            skip = ("the page in a browser # SKIP chromium is not installed: apt-get install "
                    "chromium to run the browser tests of the --html page")
    else:
        with tempfile.TemporaryDirectory() as profile:
            for name, args, rc in REPORTS:
                check_report(exe, name, args, rc, profile, results)
    print("1..%d" % (len(results) + (1 if skip else 0)))
    if skip:
        print("ok - " + skip)
    failed = 0
    for what, ok, detail in results:
        if ok:
            print("ok - %s" % what)
        else:
            failed += 1
            print("not ok - %s" % what)
            for line in str(detail).splitlines():
                print("# " + line)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
