#!/usr/bin/env python3
"""tools/setup.sh on each platform it supports, without installing anything.

usage: setup_paths.py SOURCE_ROOT

Only Debian is exercised for real (CI runs the script). Here the script runs
with --dry-run under /bin/sh with stand-ins for uname, brew, rpm, dpkg-query
and dnf first on PATH, as a Fedora machine or a Mac with Homebrew would
answer, and must pick that platform's package manager, its package names and,
on macOS, meson's pkg-config path for Homebrew's keg-only OpenBLAS. Each
platform must name a package for every dependency meson.build asks for.
Output is TAP.
"""
import os
import re
import stat
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1])
SCRIPT = os.path.join(ROOT, "tools", "setup.sh")

# meson.build's dependencies and the package that provides each, per platform.
NEEDS = {
    "debian": {"openblas": "libopenblas-dev", "libzstd": "libzstd-dev",
               "libcjson": "libcjson-dev", "libpcre2-8": "libpcre2-dev", "yaml-0.1": "libyaml-dev",
               "criterion": "libcriterion-dev", "meson": "meson", "ninja": "ninja-build",
               "pkg-config": "pkg-config", "Python.h": "python3-dev"},
    "fedora": {"openblas": "openblas-devel", "libzstd": "libzstd-devel",
               "libcjson": "cjson-devel", "libpcre2-8": "pcre2-devel", "yaml-0.1": "libyaml-devel",
               "criterion": "criterion-devel", "meson": "meson", "ninja": "ninja-build",
               "pkg-config": "pkgconf-pkg-config", "Python.h": "python3-devel"},
    "macos": {"openblas": "openblas", "libzstd": "zstd", "libcjson": "cjson",
              "libpcre2-8": "pcre2", "yaml-0.1": "libyaml", "criterion": "criterion", "meson": "meson",
              "ninja": "ninja", "pkg-config": "pkgconf"},
}

STUBS = {
    # A Mac: uname says Darwin, brew knows openblas' prefix and has only zstd.
    "macos": {
        "uname": 'echo Darwin',
        "brew": 'case "$1" in --prefix) echo /opt/homebrew/opt/$2;; '
                'list) [ "$3" = zstd ];; *) exit 1;; esac',
        "cc": 'exit 0',
    },
    # Fedora: no apt-get, dnf present, rpm knows gcc only.
    "fedora": {
        "uname": 'echo Linux',
        "dnf": 'exit 0',
        "rpm": '[ "$2" = gcc ]',
    },
    # Debian: apt-get present, dpkg-query knows gcc only.
    "debian": {
        "uname": 'echo Linux',
        "apt-get": 'exit 0',
        "dpkg-query": 'case "$*" in *" gcc") printf "install ok installed";; *) exit 1;; esac',
    },
}


def run(platform):
    with tempfile.TemporaryDirectory() as d:
        for name, body in STUBS[platform].items():
            p = os.path.join(d, name)
            with open(p, "w") as f:
                f.write("#!/bin/sh\n" + body + "\n")
            os.chmod(p, stat.S_IRWXU)
        # Only the stubs and the basic tools: a real apt-get or dnf on this
        # machine must not be found first.
        tools = os.path.join(d, "bin")
        os.mkdir(tools)
        for t in ("sh", "grep", "id", "dirname", "cat", "echo", "printf"):
            for where in ("/bin", "/usr/bin"):
                src = os.path.join(where, t)
                if os.path.exists(src):
                    os.symlink(src, os.path.join(tools, t))
                    break
        env = {"PATH": d + ":" + tools, "HOME": d}
        p = subprocess.run(["/bin/sh", SCRIPT, "--dry-run"], capture_output=True, text=True,
                           env=env, cwd=ROOT, timeout=60)
        return p.returncode, p.stdout, p.stderr


def main():
    results = []
    for platform in ("debian", "fedora", "macos"):
        rc, out, err = run(platform)
        problems = []
        if rc != 0:
            problems.append("exit %d; stderr: %s" % (rc, err.strip()))
        if not out.startswith("setup: %s;" % platform):
            problems.append("did not detect %s: %r" % (platform, out[:80]))
        m = re.search(r"^setup: would run: (.*install.*)$", out, re.M)
        install = m.group(1) if m else ""
        manager = {"debian": "apt-get install", "fedora": "dnf install",
                   "macos": "brew install"}[platform]
        if manager not in install:
            problems.append("no '%s' command in %r" % (manager, out))
        words = install.split()
        for dep, pkg in NEEDS[platform].items():
            already = {"macos": "zstd"}.get(platform)
            if pkg == already:
                if pkg in words:
                    problems.append("installs %s, which is already installed" % pkg)
            elif pkg not in words:
                problems.append("installs no %s (for %s)" % (pkg, dep))
        if "gcc" in words:
            problems.append("installs gcc, which is already installed")
        if platform == "macos" and \
                "-Dpkg_config_path=/opt/homebrew/opt/openblas/lib/pkgconfig" not in out:
            problems.append("meson is not given Homebrew openblas' pkg-config path: %r" % out)
        results.append(("setup.sh --dry-run on " + platform, problems))
    print("1..%d" % len(results))
    failed = 0
    for name, problems in results:
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
