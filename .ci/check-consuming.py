#!/usr/bin/env python3
"""An operator consumes the publisher it is called on.

A method in an extension of `Publisher` or of a type in `Publishers` that returns a publisher
built around `self` (or, for an operator fused into the one before it, around that one's
`upstream`) is declared `consuming`: otherwise every call copies the whole chain built so far,
and building a chain of n operators copies its closures n² / 2 times
(Docs/FastWithoutTheSpecialiser.md, "Operators consume the publisher they are called on").
Prints each method that should be and is not, and fails if there is one.
"""
import glob
import re
import sys

RETURNS_PUBLISHER = re.compile(r"->\s*(Publishers\.|AnyPublisher|Publisher|Deferred|Record|Future)")
WRAPS_SELF = re.compile(r"upstream: self\b|[(,:]\s*self\s*[,)]")


def methods(lines):
    """(line index, declaration line, signature, body) of each top-level extension's methods."""
    extension = None
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("extension "):
            extension = line
        elif re.match(r"^\S", line) and line.strip() not in ("}", "") and not line.startswith("//"):
            extension = None
        if extension and re.match(r"^extension (Publisher\b|Publishers\.)", extension) and re.match(
            r"^\s*public (consuming )?func ", line
        ):
            end, depth, started = index, 0, False
            while end < len(lines):
                for character in lines[end]:
                    if character == "{":
                        depth, started = depth + 1, True
                    elif character == "}":
                        depth -= 1
                if started and depth == 0:
                    break
                end += 1
            text = "\n".join(lines[index : end + 1])
            if "{" in text:
                brace = text.index("{")
                yield index, line, text[:brace], text[brace:]
            index = end + 1
            continue
        index += 1


def main():
    missing = []
    for path in sorted(glob.glob("Sources/**/*.swift", recursive=True)):
        lines = open(path, encoding="utf-8").read().split("\n")
        for index, line, signature, body in methods(lines):
            if "consuming" in line or not RETURNS_PUBLISHER.search(signature):
                continue
            wraps_self = (
                len(re.findall(r"\bself\b", body)) == 1 and "self." not in body and WRAPS_SELF.search(body)
            )
            if wraps_self or "(upstream: upstream" in body:
                missing.append(f"{path}:{index + 1}: {line.strip()}")
    if missing:
        print("These operators copy the publisher they are called on; declare them `consuming`:", file=sys.stderr)
        print("\n".join(missing), file=sys.stderr)
        sys.exit(1)
    print("every operator consumes the publisher it is called on")


main()
