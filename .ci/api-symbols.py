#!/usr/bin/env python3
"""Lists the public symbols in symbol graph files, one per line, as documentation paths:
`Publisher/sink(receiveCompletion:receiveValue:)`, `Publishers/Map/init(upstream:transform:)`,
`DispatchQueue/SchedulerTimeType` (members of other modules' types keep the type's path).

Overloads that differ only in types share a path; what the check can tell apart is names and
argument labels, which is what a clash with a user's own declaration or an extra parameter
changes. Symbols the compiler synthesises (inherited defaults) are left out."""
import json
import sys

paths = set()
for name in sys.argv[1:]:
    with open(name) as f:
        graph = json.load(f)
    for symbol in graph["symbols"]:
        if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
            continue
        paths.add("/".join(symbol["pathComponents"]))
for path in sorted(paths):
    print(path)
