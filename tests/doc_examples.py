#!/usr/bin/env python3
"""The documentation's examples, run: every figure a README shows is today's.

usage: doc_examples.py PATH/TO/shardsim SOURCE_ROOT [FILE.md ...]

Reads every Markdown file of the repository (README.md, scenarios/, docs/,
bench/; not tests/data, whose files quote upstream projects) or the files
named, and checks three kinds of example, running each command from
SOURCE_ROOT with `shardsim` / `build/shardsim` meaning the program under
test (stdout and stderr together, as a terminal shows them; NO_COLOR=1):

1. A fenced block whose lines start with `$ ` is a shell session: each
   command (continued over lines ending in `\\`) runs under bash -o pipefail,
   after the block's earlier commands that printed nothing (`S=...`), and
   its output must be the lines that follow it, up to the next `$ `
   (a here-document's lines, `<<'EOF'` to `EOF`, belong to its command). It
   must exit 0: to show an error, end the command with `; echo "exit $?"`
   and show that line too. A block shown without output only has to exit 0.

2. A fenced block right after the comment
       <!-- doc-test: output of `build/shardsim run scenarios/x.shard` -->
   must appear, as consecutive lines, in that command's output; with
       <!-- doc-test: excerpt of scenarios/x.shard -->
   its non-blank lines must be lines of that file, in the file's order
   (lines may be left out). `<!-- doc-test: skip (why) -->` exempts a block.

3. Every `shardsim ...` in inline code must work: with no placeholders it
   is run and must exit 0; with placeholders (FILE, DIR, N, a|b, [...]) or
   as bare command words (`shardsim plan`), `shardsim CMD [SUB] --help`
   must exit 0 and name each --option the text uses.

In expected text, a line `...` stands for any number of lines (a line that
starts with `...  # ` too: the rest is a comment for the reader). Trailing
spaces do not count. Figures that depend on the machine are compared by
shape only where the block is marked so: after
    <!-- doc-test: ... timings vary -->
(alone or after the output-of/excerpt part, separated by a comma) a number
followed by a unit of time or rate (ns, us, ms, s, GB/s, GFLOP/s, "x
slower", "x faster") matches any number there; the prose beside such a
block says the figures are from one run. Everything else must match to the
character.

Output is TAP: one line per example; a failure prints where the example is
(FILE:LINE), the command, the first differing line on both sides and a diff,
and how to refresh it.
"""
import difflib
import os
import re
import subprocess
import sys

SHARDSIM = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
FILES = sys.argv[3:]

DIRECTIVE = re.compile(r"^<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
WILDCARD = re.compile(r"^\s*\.\.\.(\s+#.*)?\s*$")
SHARDSIM_WORD = re.compile(r"(?<![\w/.$-])(?:build/)?shardsim(?=\s|$)")
MEASURED = re.compile(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?(?=\s*(?:ns|us|µs|ms|s|GB/s|GFLOP/s|x slower"
                      r"|x faster)\b)")
PLACEHOLDER = re.compile(r"(?<![\w.=/-])[A-Z][A-Z0-9_]*(?![\w(])|\||\.\.\.|\[")

_cache = {}


def run(cmd, prelude=""):
    """Run a shell command line from ROOT; (exit status, output lines)."""
    key = (prelude, cmd)
    if key not in _cache:
        line = SHARDSIM_WORD.sub(lambda m: "'" + SHARDSIM + "'", cmd)
        env = dict(os.environ, NO_COLOR="1", COLUMNS="80")
        try:
            p = subprocess.run(["bash", "-o", "pipefail", "-c", prelude + line], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                               timeout=900)
            out = p.stdout.decode("utf-8", "replace")
            _cache[key] = (p.returncode, strip_blank([ln.rstrip() for ln in out.splitlines()]))
        except subprocess.TimeoutExpired:
            _cache[key] = (None, ["(timed out after 900 s)"])
    return _cache[key]


def line_matches(want, got, timings):
    if want == got:
        return True
    if not timings:
        return False
    pattern = ""
    pos = 0
    for m in MEASURED.finditer(want):
        pattern += re.escape(want[pos:m.start()]) + r"\d+(?:\.\d+)?(?:e[-+]?\d+)?"
        pos = m.end()
    pattern += re.escape(want[pos:])
    return pos > 0 and re.fullmatch(pattern, got) is not None


def match_at(want, got, gi, timings, to_end=False):
    """Match want (with ... wildcards) against got from index gi, to got's end
    when to_end; returns the index after the match or None."""
    def rec(wi, gj):
        if wi == len(want):
            return gj if not to_end or gj == len(got) else None
        if WILDCARD.match(want[wi]):
            for k in range(gj, len(got) + 1):
                r = rec(wi + 1, k)
                if r is not None:
                    return r
            return None
        if gj < len(got) and line_matches(want[wi], got[gj], timings):
            return rec(wi + 1, gj + 1)
        return None
    return rec(0, gi)


def first_difference(want, got, timings):
    """(index in want, index in got) of the first line that differs."""
    wi = gi = 0
    while wi < len(want) and gi < len(got):
        if WILDCARD.match(want[wi]):
            return wi, gi
        if not line_matches(want[wi], got[gi], timings):
            return wi, gi
        wi += 1
        gi += 1
    return wi, gi


def strip_blank(lines):
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    while lines and not lines[0].strip():
        lines = lines[1:]
    return lines


class Doc:
    def __init__(self, path):
        self.path = path
        self.rel = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8") as f:
            self.lines = f.read().splitlines()

    def blocks(self):
        """(first content line number, content lines, directive text or None)."""
        out = []
        i = 0
        directive = None
        while i < len(self.lines):
            ln = self.lines[i]
            m = DIRECTIVE.match(ln)
            if m:
                directive = m.group(1)
            elif ln.startswith("```"):
                j = i + 1
                while j < len(self.lines) and not self.lines[j].startswith("```"):
                    j += 1
                out.append((i + 2, self.lines[i + 1:j], directive))
                directive = None
                i = j
            elif ln.strip():
                directive = None
            i += 1
        return out

    def prose_spans(self):
        """(line number, inline code text) outside fenced blocks; spans may
        wrap across two lines."""
        spans = []
        in_fence = False
        para = []
        for n, ln in enumerate(self.lines, 1):
            if ln.startswith("```"):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            para.append((n, ln))
        text = ""
        starts = []
        for n, ln in para:
            starts.append((len(text), n))
            text += ln + "\n"
        for m in re.finditer(r"`([^`]+)`", text):
            n = max(s for s in starts if s[0] <= m.start())[1]
            spans.append((n, " ".join(m.group(1).split())))
        return spans


class Report:
    def __init__(self):
        self.results = []

    def add(self, name, problem=None, skip=None):
        self.results.append((name, problem, skip))

    def finish(self):
        failed = 0
        print("1..%d" % len(self.results))
        for name, problem, skip in self.results:
            if problem:
                failed += 1
                print("not ok - %s" % name)
                for ln in problem.splitlines():
                    print("# " + ln)
            elif skip:
                print("ok - %s # SKIP %s" % (name, skip))
            else:
                print("ok - %s" % name)
        if failed:
            print("# %d example(s) drifted from the program. Each message above names the "
                  "file and line, the command, and the first line that differs." % failed)
        return 1 if failed else 0


def describe(doc, line, cmd, want, got, timings, rc, whole):
    wi, gi = first_difference(want, got, timings)
    msg = ["%s:%d: the example `%s` no longer prints what the text shows." % (
        doc.rel, line, cmd)]
    if rc not in (0, None):
        msg.append("It exits %s (an example must exit 0; to show an error, end the command "
                   "with `; echo \"exit $?\"` and show that line)." % rc)
    if wi < len(want):
        msg.append("first difference, text line %d:" % (line + wi))
        msg.append("  text: %s" % want[wi])
        msg.append("  now:  %s" % (got[gi] if gi < len(got) else "(no more output)"))
    elif whole:
        msg.append("the program prints more lines than the text shows, from: %s"
                   % (got[gi] if gi < len(got) else ""))
    diff = list(difflib.unified_diff(want, got, "text (%s:%d)" % (doc.rel, line),
                                     "output now", lineterm="", n=1))
    if diff:
        msg.append("diff:")
        msg.extend("  " + d for d in diff[:60])
        if len(diff) > 60:
            msg.append("  ... (%d more diff lines)" % (len(diff) - 60))
    msg.append("To refresh: run `%s` from the top of the repository with build/shardsim "
               "built, and paste its output into %s at line %d%s." % (
                   cmd, doc.rel, line,
                   "; figures marked 'timings vary' may differ, the rest must match"
                   if timings else ""))
    return "\n".join(msg)


def check_session(doc, start, body, timings, report):
    """A block of `$ ` commands and their outputs."""
    cmds = []
    i = 0
    while i < len(body):
        ln = body[i]
        if not ln.startswith("$ "):
            i += 1
            continue
        first = start + i
        cmd = ln[2:]
        while cmd.rstrip().endswith("\\") and i + 1 < len(body):
            i += 1
            cmd = cmd.rstrip()[:-1].rstrip() + " " + body[i].strip()
        here = re.search(r"<<-?\s*'?(\w+)'?", cmd)
        if here:                            # a here-document: its lines are input
            while i + 1 < len(body):
                i += 1
                cmd += "\n" + body[i]
                if body[i] == here.group(1):
                    break
        i += 1
        out = []
        while i < len(body) and not body[i].startswith("$ "):
            out.append(body[i].rstrip())
            i += 1
        cmds.append((first, cmd, strip_blank(out)))
    prelude = ""
    for first, cmd, want in cmds:
        name = "%s:%d: %s" % (doc.rel, first, cmd.split("\n")[0])
        if not SHARDSIM_WORD.search(cmd) and not want:
            prelude += cmd + "\n"          # S=... : kept for the block's next commands
            report.add(name)
            continue
        rc, got = run(cmd, prelude)
        ok = rc == 0 and (not want or match_at(want, got, 0, timings, True) is not None)
        report.add(name, None if ok else describe(doc, first + 1 if want else first, cmd, want,
                                                   got if want else [], timings, rc, True))


def check_excerpt(doc, start, body, source, timings, report):
    """A block that must appear in a command's output or in a file."""
    want = strip_blank([b.rstrip() for b in body])
    m = re.match(r"output of `([^`]+)`", source)
    if m:
        cmd = m.group(1)
        rc, got = run(cmd)
        what = "the output of `%s`" % cmd
    else:
        m = re.match(r"excerpt of (\S+)", source)
        path = os.path.join(ROOT, m.group(1))
        cmd = None
        rc = 0
        what = m.group(1)
        try:
            with open(path, encoding="utf-8") as f:
                got = [ln.rstrip() for ln in f.read().splitlines()]
        except OSError as e:
            got = []
            rc = str(e)
    name = "%s:%d: excerpt of %s" % (doc.rel, start, cmd or what)
    if rc == 0 and not cmd:
        # A file excerpt may leave lines out: its lines appear in the file in
        # the same order.
        gi = 0
        for wi, w in enumerate(want):
            if not w.strip() or WILDCARD.match(w):
                continue
            while gi < len(got) and got[gi] != w:
                gi += 1
            if gi == len(got):
                report.add(name, "%s:%d: this line of the block is not in %s (after the "
                           "block's earlier lines):\n  text: %s\nTo refresh: copy the lines "
                           "from %s (the block shows them in the file's order; `...` stands "
                           "for lines left out)." % (doc.rel, start + wi, what, w, what))
                return
            gi += 1
        report.add(name)
        return
    if rc == 0:
        for gi in range(len(got)):
            if line_matches(want[0], got[gi], timings) and \
                    match_at(want, got, gi, timings) is not None:
                report.add(name)
                return
    # Report against the best partial match: the output line most like the
    # block's first line.
    anchor = max(range(len(got)), key=lambda g: difflib.SequenceMatcher(
        None, want[0], got[g]).ratio(), default=0)
    near = got[anchor:anchor + len(want) + 2]
    if cmd:
        report.add(name, describe(doc, start, cmd, want, near, timings, rc, False))
    else:
        wi, gi = first_difference(want, near, timings)
        report.add(name, "%s:%d: this block is no longer an excerpt of %s (%s).\n"
                   "  text: %s\n  file: %s\nTo refresh: copy the lines from %s." % (
                       doc.rel, start + wi, what, rc if rc else "first difference",
                       want[wi] if wi < len(want) else "",
                       near[gi] if gi < len(near) else "(end)", what))


def command_words(words):
    """The leading command and subcommand words of `shardsim ...`."""
    out = []
    for w in words:
        if w.startswith("-") or not re.fullmatch(r"[a-z][a-z0-9_]*", w) or len(out) == 2:
            break
        out.append(w)
    return out


def check_prose(doc, line, span, report):
    words = span.split()
    args = words[1:]
    cmdw = command_words(args)
    name = "%s:%d: `%s`" % (doc.rel, line, span)
    placeholders = PLACEHOLDER.search(" ".join(args)) is not None
    if placeholders or len(cmdw) == len(args):
        if not cmdw:
            report.add(name, skip="no command named")
            return
        # `shardsim ckpt ls|show|verify DIR`: each alternative is a subcommand.
        subs = [None]
        rest = args[len(cmdw):]
        if rest and "|" in rest[0]:
            subs = rest[0].split("|")
        elif len(cmdw) == 1 and "|" in " ".join(args[1:2]):
            subs = args[1].split("|")
        problems = []
        for sub in subs:
            cw = cmdw + ([sub] if sub else [])
            rc, helptext = run("shardsim " + " ".join(cw) + " --help")
            if rc != 0:
                problems.append("`shardsim %s --help` exits %s" % (" ".join(cw), rc))
                continue
            for opt in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", span):
                if not any(opt in h for h in helptext):
                    problems.append("`shardsim %s --help` does not mention %s"
                                    % (" ".join(cw), opt))
        report.add(name, None if not problems else
                   "%s:%d: `%s`: %s (the text names a command or option the program does "
                   "not document)." % (doc.rel, line, span, "; ".join(problems)))
        return
    rc, got = run(span)
    report.add(name, None if rc == 0 else
               "%s:%d: `%s` exits %s, the text implies it works. Its output:\n%s" % (
                   doc.rel, line, span, rc, "\n".join("  " + g for g in got[-15:])))


def markdown_files():
    if FILES:
        return [os.path.abspath(f) for f in FILES]
    found = []
    for d, subdirs, files in os.walk(ROOT):
        rel = os.path.relpath(d, ROOT)
        subdirs[:] = sorted(s for s in subdirs if not s.startswith(".") and
                            not s.startswith("build") and
                            os.path.join(rel, s) not in ("tests/data", "./tests/data") and
                            not os.path.exists(os.path.join(d, s, "meson-private")))
        found += [os.path.join(d, f) for f in sorted(files) if f.endswith(".md")]
    return found


def main():
    report = Report()
    for path in markdown_files():
        doc = Doc(path)
        for start, body, directive in doc.blocks():
            d = directive or ""
            timings = "timings vary" in d
            if d.startswith("skip"):
                continue
            if d.startswith("output of") or d.startswith("excerpt of"):
                check_excerpt(doc, start, body, d, timings, report)
            elif any(b.startswith("$ ") for b in body):
                check_session(doc, start, body, timings, report)
        for line, span in doc.prose_spans():
            if re.match(r"(?:build/)?shardsim\s", span):
                check_prose(doc, line, span, report)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
