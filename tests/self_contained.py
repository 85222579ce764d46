#!/usr/bin/env python3
"""The repository stands alone: no file points outside it.

usage: self_contained.py SOURCE_ROOT

Every text file of the repository (sources, tests, scenarios, scripts,
Markdown; not .git or build directories) is read, and these fail:
  - a path into the workspace around the repository (its "shared" folder of
    benchmarks, seeds and research notes) or to a research note that is
    not in the repository (the patterns are OUTSIDE below);
  - a citation `docs/<page>.md` of a page that does not exist, or of a
    numbered section ("docs/gspmd.md 4.1", "section 7", "S12") the page does
    not have (JSON data quotes upstream paths and is not checked for these);
  - a relative Markdown link to a file that does not exist.
Output is TAP, one line per rule, each failure with FILE:LINE.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1])
TEXT = (".c", ".h", ".py", ".sh", ".md", ".shard", ".txt", ".build", ".json", ".in",
        ".options")

# Character classes keep this file from matching its own patterns.
OUTSIDE = re.compile(r"\.\./[s]hared|\b[s]hared/(?:bench|seeds|notes|reliability)\b"
                     r"|\.\./[n]otes/|(?<![\w/.-])[n]otes/[\w-]+\.md")
CITE = re.compile(r"(?<![\w/.-])docs/(\w+)\.md(?:,?\s+(?:section\s+|sections\s+)?"
                  r"(S\d+|\d+(?:\.\d+)?))?")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def files():
    for d, subdirs, names in os.walk(ROOT):
        subdirs[:] = sorted(s for s in subdirs if not s.startswith(".") and
                            not s.startswith("build") and
                            not os.path.exists(os.path.join(d, s, "meson-private")))
        for n in sorted(names):
            if n.endswith(TEXT) or n in ("run", "meson.build", "meson_options.txt"):
                yield os.path.join(d, n)


def sections(page):
    """Numbers ("4", "4.1") and scenario ids ("S5") of a docs page's headings
    and bold paragraph titles."""
    out = set()
    with open(page, encoding="utf-8") as f:
        for ln in f:
            m = re.match(r"#+\s+(\d+(?:\.\d+)?)\.?\s", ln)
            if m:
                out.add(m.group(1))
            for s in re.findall(r"\*\*(S\d+)\.", ln):
                out.add(s)
            for s in re.findall(r"^\| (S\d+) \|", ln):
                out.add(s)
    return out


def main():
    outside, cites, links = [], [], []
    cache = {}
    for path in files():
        rel = os.path.relpath(path, ROOT)
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (UnicodeDecodeError, OSError):
            continue
        # Join comment continuations so "docs/gspmd.md\n * 5.1" is one citation.
        for i, ln in enumerate(lines):
            for m in OUTSIDE.finditer(ln):
                outside.append("%s:%d: points outside the repository: %s" % (rel, i + 1,
                                                                            m.group(0)))
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            joined = ln + " " + re.sub(r"^\s*(?:\*|#|//)?\s*", "", nxt)
            for m in CITE.finditer(ln if not path.endswith(".json") else ""):
                page = os.path.join(ROOT, "docs", m.group(1) + ".md")
                if not os.path.exists(page):
                    cites.append("%s:%d: cites docs/%s.md, which does not exist" % (
                        rel, i + 1, m.group(1)))
                    continue
                jm = CITE.match(joined, m.start())
                sec = jm.group(2) if jm else None
                if sec:
                    if page not in cache:
                        cache[page] = sections(page)
                    have = cache[page]
                    if sec not in have and sec.split(".")[0] not in have:
                        cites.append("%s:%d: cites docs/%s.md %s, which has no such section "
                                     "(it has %s)" % (rel, i + 1, m.group(1), sec,
                                                       ", ".join(sorted(have))))
            if path.endswith(".md"):
                for m in LINK.finditer(ln):
                    target = m.group(1)
                    if re.match(r"\w+:", target):
                        continue
                    if not os.path.exists(os.path.join(os.path.dirname(path), target)):
                        links.append("%s:%d: link to %s, which does not exist" % (
                            rel, i + 1, target))
    print("1..3")
    failed = 0
    for name, problems in (("no file points outside the repository", outside),
                           ("every docs/ citation names an existing page and section", cites),
                           ("every relative Markdown link resolves", links)):
        if problems:
            failed += 1
            print("not ok - " + name)
            for p in problems:
                print("# " + p)
        else:
            print("ok - " + name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
