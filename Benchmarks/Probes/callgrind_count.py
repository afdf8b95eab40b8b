"""Per-operation instructions and atomic read-modify-writes from two callgrind profiles.

Usage: callgrind_count.py SMALL LARGE OPERATIONS NAME [--by-function]

SMALL and LARGE are `--dump-instr=yes` profiles of the same scenario run OPERATIONS and
2 x OPERATIONS times. Instructions are the difference of the two totals, over OPERATIONS. Atomic
read-modify-writes are the executions of `lock`-prefixed instructions and of `xchg` with memory
(which locks implicitly), found with objdump in every object the profile ran, counted the same
way. They are what an uncontended lock, a reference count and a hand-off cost beyond their
instructions.
"""
import collections
import functools
import re
import subprocess
import sys

NAMED = re.compile(r"(c?)(ob|fn)=\((\d+)\)(?: (.*))?")
COST = re.compile(r"^(0x[0-9a-f]+|[+-]\d+|\*)\s+\S+\s+(\d+)$")


def load(path):
    """Executions per instruction address, by object; and each address's function."""
    executions = collections.defaultdict(collections.Counter)
    function_at = {}
    names = {"ob": {}, "fn": {}}
    obj = function = None
    address = 0
    after_call = False
    total = 0
    with open(path) as profile:
        for line in profile:
            line = line.rstrip("\n")
            if line.startswith("summary:"):
                total = int(line.split()[1])
                continue
            named = NAMED.match(line)
            if named:
                called, kind, key, name = named.groups()
                if name:
                    names[kind][key] = name
                if not called:
                    if kind == "ob":
                        obj = names["ob"][key]
                    else:
                        function = names["fn"][key]
                continue
            if line.startswith("calls="):
                after_call = True  # the next cost line is the call's inclusive cost
                continue
            cost = COST.match(line)
            if not cost:
                continue
            position = cost.group(1)
            if position.startswith("0x"):
                address = int(position, 16)
            elif position != "*":
                address += int(position)
            if after_call:
                after_call = False
                continue
            executions[obj][address] += int(cost.group(2))
            function_at[(obj, address)] = function
    return total, executions, function_at


@functools.lru_cache(maxsize=None)
def atomic_addresses(obj):
    """Addresses of the instructions in `obj` that are atomic read-modify-writes."""
    listing = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", obj], capture_output=True, text=True
    ).stdout
    found = set()
    for line in listing.splitlines():
        instruction = re.match(r"\s*([0-9a-f]+):\s+(\S.*)", line)
        if not instruction:
            continue
        text = instruction.group(2)
        if text.startswith("lock") or (text.startswith("xchg") and "(" in text):
            found.add(int(instruction.group(1), 16))
    return found


def main():
    small_path, large_path, operations, name = sys.argv[1:5]
    by_function = "--by-function" in sys.argv[5:]
    operations = int(operations)
    small_total, small, _ = load(small_path)
    large_total, large, function_at = load(large_path)
    atomics = 0
    per_function = collections.Counter()
    for obj in set(small) | set(large):
        if not obj or "valgrind" in obj:
            continue
        for address in atomic_addresses(obj):
            extra = large[obj].get(address, 0) - small[obj].get(address, 0)
            if extra:
                atomics += extra
                per_function[function_at.get((obj, address), "?")] += extra
    print(f"{name:<28} {(large_total - small_total) / operations:14,.0f} {atomics / operations:14.2f}")
    if by_function:
        for function, count in per_function.most_common():
            if abs(count / operations) >= 0.01:
                print(f"    {count / operations:7.2f}  {function[:160]}")


main()
