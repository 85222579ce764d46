#!/usr/bin/env python3
"""The library's global names carry its prefixes, and ss_ means public.

usage: exported_names.py LIBSHARDSIM.a INCLUDE/shardsim.h

Lists the global symbols the static library defines (nm -g --defined-only)
and checks, as TAP:
  1. each starts with ss_ : public names ss_, internal ones ss__, nothing
     bare that could collide with a program's own names (names beginning
     with two underscores, the compiler's and sanitizers', are not ours);
  2. each ss_ name (one underscore) is named in the public header, so an
     internal helper cannot pass as public by its prefix alone.
Skipped (TAP "1..0 # SKIP") where nm is missing.
"""
import os
import re
import shutil
import subprocess
import sys

lib, header = sys.argv[1], sys.argv[2]
nm = os.environ.get("NM") or shutil.which("nm")
if not nm:
    print("1..0 # SKIP nm not found")
    sys.exit(0)
out = subprocess.run([nm, "-g", "--defined-only", lib], capture_output=True, text=True)
if out.returncode != 0:
    why = out.stderr.strip().splitlines()[0] if out.stderr.strip() else "exit %d" % out.returncode
    print("1..0 # SKIP nm failed: " + why)
    sys.exit(0)
names = set()
for line in out.stdout.splitlines():
    parts = line.split()
    if len(parts) != 3:  # "file.o:" headers and blank lines
        continue
    name = parts[2]
    if sys.platform == "darwin" and name.startswith("_"):
        name = name[1:]  # Mach-O's leading underscore
    if name.startswith("__") or "." in name:
        continue  # the implementation's (sanitizers, coverage)
    names.add(name)

print("1..2")
bare = sorted(n for n in names if not n.startswith("ss_"))
if bare:
    print("not ok 1 - every global name starts with ss_ or ss__")
    for n in bare:
        print("#   bare global: " + n)
else:
    print("ok 1 - every global name starts with ss_ or ss__ (%d names)" % len(names))

with open(header, encoding="utf-8") as f:
    declared = set(re.findall(r"\bss_[A-Za-z0-9_]+", f.read()))
hidden = sorted(n for n in names if n.startswith("ss_") and not n.startswith("ss__")
                and n not in declared)
if hidden:
    print("not ok 2 - every ss_ name is named in the public header")
    for n in hidden:
        print("#   ss_ name missing from %s (internal: rename it ss__): %s"
              % (os.path.basename(header), n))
else:
    print("ok 2 - every ss_ name is named in the public header")
sys.exit(0)
