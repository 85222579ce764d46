#!/usr/bin/env python3
"""Every command and subcommand of shardsim answers --help and -h.

usage: cli_help.py PATH/TO/shardsim

The commands are read from `shardsim --help` (the lines of its "commands:"
block), the subcommands from each command's own help (the words after
`shardsim CMD` on its usage lines that are not placeholders: `ckpt ls`,
`bench mlp`, ...), so a command added later is checked without editing this
file. Each must exit 0 within 30 s, print its usage on stdout (beginning with
"usage: shardsim CMD", naming the subcommand) and nothing on stderr: help
never runs anything. The options `run` and `plan` list in their help
(`--no-check`, ...) are each accepted by their parser: given alone, without
a FILE, none is refused as an unknown option. Output is TAP, one line per
command and flag.
"""
import re
import subprocess
import sys

SHARDSIM = sys.argv[1]


def run(args):
    try:
        p = subprocess.run([SHARDSIM] + args, capture_output=True, text=True, timeout=30,
                           env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"})
    except subprocess.TimeoutExpired:
        return None, "", "timed out after 30 s (help must not run anything)"
    return p.returncode, p.stdout, p.stderr


def commands(main_help):
    """Names in the "commands:" block of `shardsim --help`."""
    block = main_help.split("\ncommands:\n", 1)
    if len(block) != 2:
        return []
    names = []
    for line in block[1].splitlines():
        if not line.strip():
            break
        m = re.match(r"^  ([a-z][a-z0-9_-]*)\s{2,}", line)
        if m:
            names.append(m.group(1))
    return names


def subcommands(cmd, help_text):
    """Lower-case words right after `shardsim CMD` on the usage lines."""
    subs = []
    for line in help_text.splitlines():
        m = re.match(r"^(?:usage:)?\s*shardsim " + re.escape(cmd) + r" ([a-z][a-z0-9_-]*)\b",
                     line)
        if not m:
            continue
        if m.group(1) not in subs:
            subs.append(m.group(1))
    return subs


def main():
    results = []

    def check(words, flag):
        rc, out, err = run(words + [flag])
        what = "shardsim " + " ".join(words + [flag])
        problems = []
        if rc != 0:
            problems.append("exit %s, expected 0" % rc)
        if not out.startswith("usage: shardsim " + words[0]):
            problems.append("stdout does not begin with 'usage: shardsim %s' (it begins %r)"
                            % (words[0], out[:60]))
        if len(words) > 1 and ("shardsim " + " ".join(words)) not in out:
            problems.append("its usage does not name 'shardsim %s'" % " ".join(words))
        if err:
            problems.append("stderr is not empty: %r" % err[:200])
        results.append((what, problems))
        return out

    rc, main_help, err = run(["--help"])
    top = [("shardsim --help", [] if rc == 0 and main_help.startswith("usage: shardsim")
            else ["exit %s, stdout %r, stderr %r" % (rc, main_help[:60], err[:200])])]
    cmds = commands(main_help)
    if len(cmds) < 5:
        top.append(("commands listed by shardsim --help",
                    ["found only %r in its 'commands:' block" % cmds]))
    results.extend(top)
    for cmd in cmds:
        text = check([cmd], "--help")
        check([cmd], "-h")
        for sub in subcommands(cmd, text):
            check([cmd, sub], "--help")
            check([cmd, sub], "-h")

    for cmd in ("run", "plan"):
        rc, text, err = run([cmd, "--help"])
        flags = []
        for line in text.splitlines():
            if line.lstrip().startswith("--"):
                flags += [f for f in re.findall(r"--[a-z][a-z0-9-]*", line) if f not in flags]
        problems = [] if len(flags) >= 10 else ["only %r listed" % flags]
        if cmd == "run" and "--no-check" not in flags:
            problems.append("--no-check is not listed")
        for f in flags:
            frc, out, ferr = run([cmd, f])
            if "unknown option" in ferr or frc not in (1, 2):
                problems.append("%s: exit %s, stderr %r" % (f, frc, ferr[:200]))
        results.append(("shardsim %s accepts the %d options its help lists" % (cmd, len(flags)),
                        problems))

    print("1..%d" % len(results))
    failed = 0
    for what, problems in results:
        if problems:
            failed += 1
            print("not ok - %s" % what)
            for p in problems:
                print("# %s: %s" % (what, p))
        else:
            print("ok - %s" % what)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
