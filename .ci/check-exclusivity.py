#!/usr/bin/env python3
"""No run-time exclusivity check in the library's code.

A class's stored `var` and a variable captured by an escaping closure (a `[weak self]` capture is
one) are checked for exclusive access at run time on every access (`swift_beginAccess`, a
thread-local access set), and `@inlinable` code carries the checks into the user's module. The
library keeps such state under a lock, behind `@exclusivity(unchecked)` where one path alone owns
it, or in a constant (`let`, a captured `weak let`); see Docs/FastWithoutTheSpecialiser.md, "No
run-time exclusivity checks on a per-value path".

Reads the object files of an optimised build (the scratch path given as the argument, as
`.ci/run`'s optimised tests leave it) and fails, naming each function, if any function of
TetherCore, TetherExtras or TetherFoundation calls `swift_beginAccess`.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

MODULES = ("TetherCore", "TetherExtras", "TetherFoundation")
FUNCTION = re.compile(r"^[0-9a-f]+ <(.+)>:$")


def checked_functions(objdump, path):
    """The symbols of the functions in `path` that call `swift_beginAccess`."""
    listing = subprocess.run([objdump, "-dr", "--no-show-raw-insn", path], capture_output=True, text=True).stdout
    found, function = set(), None
    for line in listing.splitlines():
        match = FUNCTION.match(line)
        if match:
            function = match.group(1)
        elif function and "swift_beginAccess" in line:
            found.add(function)
    return found


def main():
    scratch = sys.argv[1] if len(sys.argv) > 1 else ".build-release"
    objdump = shutil.which("objdump") or shutil.which("llvm-objdump")
    if objdump is None:
        sys.exit("check-exclusivity: no objdump on this machine")
    symbols = set()
    for module in MODULES:
        objects = glob.glob(os.path.join(scratch, "release", f"{module}.build", "*.o"))
        if not objects:
            sys.exit(f"check-exclusivity: no object files of {module} under {scratch}/release")
        for path in objects:
            symbols |= checked_functions(objdump, path)
    if not symbols:
        print("no function of the library checks exclusivity at run time")
        return
    names = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(sorted(symbols)),
                           capture_output=True, text=True).stdout
    print("functions that check exclusivity at run time (swift_beginAccess):")
    for name in names.splitlines():
        print("  " + name)
    sys.exit(1)


if __name__ == "__main__":
    main()
