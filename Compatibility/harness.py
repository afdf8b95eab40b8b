#!/usr/bin/env python3
"""Runs OpenCombine 0.14.0's test suite against Tether and compares it with expected-failures.txt.

The suite is the record of Combine's observable behaviour (its authors run it against Apple's
Combine with -DOPENCOMBINE_COMPATIBILITY_TEST). This script fetches it, compiles it unmodified
through the `Combine` shim in this package, leaves out the files that do not compile, runs one
test class per process (one test per process for a class whose process dies), and compares each
test's outcome with the checked-in list. Entry point: `bash Compatibility/run --help`.
"""

import argparse
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SCRATCH = os.path.join(HERE, ".build-compat")
CLONE = os.path.join(SCRATCH, "OpenCombine")
SUITE = os.path.join(CLONE, "Tests", "OpenCombineTests")
TARGET = os.path.join(SCRATCH, "tests")  # the test target's sources: copies of what compiles
EXPECTED = os.path.join(HERE, "expected-failures.txt")
RESULTS = os.path.join(SCRATCH, "results.tsv")
EXCLUDED = os.path.join(SCRATCH, "excluded.tsv")
BUNDLE = os.path.join(HERE, ".build", "debug", "TetherCompatibilityPackageTests.xctest")

SUITE_URL = "https://github.com/OpenCombine/OpenCombine"
SUITE_TAG = "0.14.0"
MODULE = "OpenCombineTests"
# Without this the driver stops at the first failing batch and one round would not see every
# file that does not compile.
BUILD_FLAGS = ["-Xswiftc", "-continue-building-after-errors"]

PASS, FAIL, TRAP, TIMEOUT, NOCOMPILE = "pass", "fail", "trap", "timeout", "nocompile"
NOCOMPILE_REASON = "file does not compile"


def log(message=""):
    print(message, flush=True)


def fail_harness(message):
    print(f"compat: {message}", file=sys.stderr, flush=True)
    sys.exit(2)


# MARK: Fetching and building


def fetch_suite():
    if os.path.isdir(os.path.join(CLONE, ".git")):
        head = git("rev-parse", "HEAD")
        tag = git("rev-parse", f"{SUITE_TAG}^{{commit}}", check=False)
        if head == tag:
            return
        shutil.rmtree(CLONE)
    os.makedirs(SCRATCH, exist_ok=True)
    log(f"== fetching OpenCombine {SUITE_TAG}")
    run = subprocess.run(
        ["git", "-c", "advice.detachedHead=false", "clone", "--quiet", "--depth", "1",
         "--branch", SUITE_TAG, SUITE_URL, CLONE],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if run.returncode != 0:
        fail_harness(f"could not clone {SUITE_URL} at {SUITE_TAG}:\n{run.stdout}")


def git(*args, cwd=CLONE, check=True):
    run = subprocess.run(["git", "-C", cwd, *args], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    if check and run.returncode != 0:
        fail_harness(f"git {' '.join(args)} failed in {cwd}")
    return run.stdout.strip()


def suite_files():
    files = []
    for root, _, names in os.walk(SUITE):
        for name in names:
            if name.endswith(".swift"):
                files.append(os.path.relpath(os.path.join(root, name), SUITE))
    return sorted(files)


def sync_target(included):
    """Makes TARGET hold exact copies of the included files and nothing else."""
    wanted = set(included)
    for root, dirs, names in os.walk(TARGET, topdown=False):
        for name in names:
            path = os.path.join(root, name)
            if os.path.relpath(path, TARGET) not in wanted:
                os.remove(path)
        for name in dirs:
            path = os.path.join(root, name)
            if not os.listdir(path):
                os.rmdir(path)
    for rel in included:
        source, copy = os.path.join(SUITE, rel), os.path.join(TARGET, rel)
        if os.path.exists(copy):
            a, b = os.stat(source), os.stat(copy)
            if a.st_size == b.st_size and int(a.st_mtime) == int(b.st_mtime):
                continue
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        shutil.copy2(source, copy)


ERROR_LINE = re.compile(r"^(/.*?\.swift):(\d+):(\d+): error: (.*)$")


def build(files):
    """Builds, leaving out files until the rest compiles. Returns {file: first error}."""
    excluded = {}
    for round_number in range(1, 30):
        included = [f for f in files if f not in excluded]
        sync_target(included)
        log(f"== build, round {round_number}: {len(included)} files")
        build_log = os.path.join(SCRATCH, f"build-{round_number}.log")
        with open(build_log, "w") as out:
            code = subprocess.run(
                ["swift", "build", "--build-tests", "--package-path", HERE, *BUILD_FLAGS],
                stdout=out, stderr=subprocess.STDOUT).returncode
        if code == 0:
            break
        errors = {}
        with open(build_log, errors="replace") as text:
            for line in text:
                match = ERROR_LINE.match(line.rstrip("\n"))
                if not match:
                    continue
                path = os.path.realpath(match.group(1))
                if not path.startswith(os.path.realpath(TARGET) + os.sep):
                    continue
                rel = os.path.relpath(path, os.path.realpath(TARGET))
                # A missing name is the cause worth reporting; otherwise the earliest error.
                missing = not match.group(4).startswith("cannot find")
                where = (missing, int(match.group(2)), int(match.group(3)))
                if rel not in errors or where < errors[rel][0]:
                    errors[rel] = (where, f"{rel}:{where[1]}: {match.group(4)}")
        if not errors:
            with open(build_log, errors="replace") as text:
                tail = "".join(text.readlines()[-40:])
            fail_harness(f"the build failed outside the suite's files (see {build_log}):\n{tail}")
        for rel, (_, message) in sorted(errors.items()):
            declared = declaring_file(message, excluded)
            if declared:
                message += f" (declared in {declared}, which does not compile)"
            log(f"   leaving out {rel}: {message.split(': ', 1)[1]}")
            excluded[rel] = message
    else:
        fail_harness("the build did not settle after 30 rounds")
    with open(EXCLUDED, "w") as out:
        for rel, message in sorted(excluded.items()):
            out.write(f"{rel}\t{message}\n")
    return excluded


def declaring_file(message, excluded):
    """The file left out earlier that declares the name an error says is missing, if any."""
    match = re.search(r"cannot find (?:type )?'(\w+)' in scope", message)
    if not match:
        return None
    declaration = re.compile(
        rf"^\s*(?:(?:private|fileprivate|internal|public|final)\s+)*"
        rf"(?:typealias|class|struct|enum|protocol|func|let|var)\s+{match.group(1)}\b", re.M)
    for rel in sorted(excluded):
        with open(os.path.join(SUITE, rel), errors="replace") as text:
            if declaration.search(text.read()):
                return rel
    return None


def read_excluded():
    if not os.path.exists(EXCLUDED) or not os.path.exists(BUNDLE):
        fail_harness("--skip-build needs a previous build: run without it once")
    excluded = {}
    with open(EXCLUDED) as text:
        for line in text:
            rel, message = line.rstrip("\n").split("\t", 1)
            excluded[rel] = message
    return excluded


# MARK: The suite's tests

CLASS_DECL = re.compile(r"^\s*(?:(?:final|public|internal|open)\s+)*class\s+(\w+)\s*:\s*XCTestCase\b")
TEST_DECL = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*func\s+(test\w*)\s*\(\s*\)")


def tests_in_source(files):
    """{class: file} and {file: [Class.test]}, from the sources, for files that do not build."""
    class_file, file_tests = {}, {}
    for rel in files:
        current = None
        with open(os.path.join(SUITE, rel), errors="replace") as text:
            for line in text:
                match = CLASS_DECL.match(line)
                if match:
                    current = match.group(1)
                    class_file[current] = rel
                    continue
                match = TEST_DECL.match(line)
                if match and current:
                    file_tests.setdefault(rel, []).append(f"{current}.{match.group(1)}")
    return class_file, file_tests


def listed_tests():
    run = subprocess.run([BUNDLE, "--list-tests"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    tests = []
    for line in run.stdout.splitlines():
        line = line.strip()
        if line.startswith(MODULE + ".") and "/" in line:
            cls, test = line[len(MODULE) + 1:].split("/", 1)
            tests.append(f"{cls}.{test}")
    if not tests:
        fail_harness(f"{BUNDLE} --list-tests listed nothing:\n{run.stdout[-2000:]}")
    return tests


# MARK: Running

CASE_LINE = re.compile(r"^Test Case '(?:-\[)?(?:\w+\.)?(\w+)[ .](\w+)\]?' (started|passed|failed|skipped)")
FAILURE_LINE = re.compile(r"^.*?:\d+: error: (?:-\[)?(?:\w+\.)?(\w+)[ .](\w+)\]? : (.*)$")
TRAP_HINT = re.compile(r"(Fatal error|Precondition failed|Assertion failed|Illegal instruction|"
                       r"Segmentation fault|Trace/breakpoint trap|Aborted|Crash)", re.I)


def no_core_dumps():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run_process(selector, timeout):
    """Runs the bundle on one selector. Returns (output, exit code or None on timeout)."""
    process = subprocess.Popen(
        [BUNDLE, f"{MODULE}.{selector}"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=no_core_dumps, cwd=SCRATCH)
    try:
        output, _ = process.communicate(timeout=timeout)
        code = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # the test and any crash-test child it started
        output, _ = process.communicate()
        code = None
    return output.decode("utf-8", "replace"), code


def parse_run(output):
    """{Class.test: (outcome, first message)} for the tests that finished, and the last one that
    started without finishing (or None)."""
    results, failures, running = {}, {}, None
    for line in output.splitlines():
        match = CASE_LINE.match(line)
        if match:
            name, event = f"{match.group(1)}.{match.group(2)}", match.group(3)
            if event == "started":
                running = name
            else:
                outcome = FAIL if event == "failed" else PASS
                results[name] = (outcome, failures.get(name, ""))
                running = None
            continue
        match = FAILURE_LINE.match(line)
        if match:
            failures.setdefault(f"{match.group(1)}.{match.group(2)}", match.group(3).strip())
    return results, running


def trap_message(output, name):
    lines = output.splitlines()
    start = 0
    for index, line in enumerate(lines):
        if line.startswith(f"Test Case '{name}' started"):
            start = index
    for line in lines[start:]:
        if TRAP_HINT.search(line) and not line.startswith("Test Case"):
            return line.strip()[:300]
    return ""


def run_test_alone(name, timeout):
    cls, test = name.split(".", 1)
    output, code = run_process(f"{cls}/{test}", timeout)
    results, _ = parse_run(output)
    if name in results:
        return results[name]
    if code is None:
        return TIMEOUT, f"no result after {timeout} s"
    return TRAP, trap_message(output, name) or f"process ended with status {code}"


def run_class(cls, tests, timeout, test_timeout):
    output, code = run_process(cls, timeout)
    results, _ = parse_run(output)
    unfinished = [name for name in tests if name not in results]
    for name in unfinished:
        results[name] = run_test_alone(name, test_timeout)
    return {name: results[name] for name in tests}, len(unfinished) > 0


# MARK: The expected list


def read_expected():
    """[(key, reason)] in file order, plus the file's leading comment block."""
    entries, header, in_header = [], [], True
    if not os.path.exists(EXPECTED):
        return entries, header
    with open(EXPECTED) as text:
        for line in text:
            stripped = line.strip()
            if in_header and (stripped.startswith("#") or not stripped):
                header.append(line.rstrip("\n"))
                continue
            in_header = False
            if not stripped or stripped.startswith("#"):
                continue
            key, _, reason = stripped.partition("#")
            entries.append((key.strip(), reason.strip()))
    return entries, header


# Short factual reasons for the list, from a test's outcome, name and first message: the family
# a failure belongs to, so that the list reads as a map of what differs. First match wins.
REASON_RULES = [
    (TRAP, r"", r"must send the subscription before",
     "trap: Tether traps on an event before the subscription, Combine does not"),
    (TRAP, r"", r"Demand must not be zero",
     "trap: Tether traps on a request of .none, Combine does not"),
    (TRAP, r"", r"must not be advanced concurrently",
     "trap: AsyncPublisher iterator traps on concurrent next(), Combine does not"),
    (TRAP, r"", r"non-negative count", "trap: negative count traps, Combine does not"),
    (FAIL, r"", r"Child process should have crashed", "no trap where Combine traps"),
    (FAIL, r"", r"subscriber must also be a subscription",
     "structure: the subscriber Combine hands upstream is not also the downstream's subscription"),
    (FAIL, r"BeforeSubscription", r"",
     "events before the subscription: handled differently from Combine"),
    (FAIL, r"ReceiveSubscriptionTwice", r"",
     "a second subscription is handled differently from Combine"),
    (FAIL, r"CombineIdentifier", r"", "combineIdentifier differs"),
    (FAIL, r"^DispatchQueueSchedulerTests\.|^ImmediateSchedulerTests\.testSchedulerTimeType", r"",
     "scheduler time/stride arithmetic differs"),
    (FAIL, r"^OperationQueueSchedulerTests\.", r"", "OperationQueue scheduler calls differ"),
    (FAIL, r"OperatorSpecialization", r"",
     "Sequence-specialised operators access the collection differently"),
    (FAIL, r"RequestingDemand", r"", "subject demand accounting differs"),
    (FAIL, r"Recursive|Recursion|Reentran", r"", "reentrant delivery differs"),
    (FAIL, r"", r"Lifecycle test #1: deinit should not be called",
     "lifecycle: releases a subscriber that never requested after the upstream fails, "
     "Combine keeps it"),
    (FAIL, r"", r"Lifecycle test", "lifecycle: subscriber released at a different point"),
    (FAIL, r"Lifecycle", r"", "lifecycle: subscriber released at a different point"),
    (FAIL, r"", r"children collections are of different sizes|expected non-nil value of type "
                r"\"(Mirror|\(label)", "description/mirror differs"),
    (FAIL, r"Reflection|Description|Mirror", r"", "description/mirror differs"),
    (FAIL, r"", r"\.subscription\(\"CustomSubscription\"\)",
     "structure: passes the upstream subscription downstream, Combine sends its own"),
    (FAIL, r"", r"scheduleAfterDate|\.now|minimumTolerance|\.schedule\(",
     "scheduler calls differ"),
    (FAIL, r"StrongCapture|WeakCapture", r"", "scheduler closure capture differs"),
    (FAIL, r"", r"TrackingEncoder|_nanoseconds|magnitude\"", "Codable form differs"),
    (FAIL, r"", r"NSURLErrorDomain", "URLSession: error for an empty response differs"),
    (FAIL, r"", r"\(\"\[(\.cancelled)?\]\"\) is not equal to \(\"\[\.requested\(\.unlimited\)",
     "demand: does not request .unlimited upstream where Combine does"),
    (FAIL, r"", r"\(\"\[\.cancelled\]\"\) is not equal to \(\"\[\]\"\)",
     "cancellation: cancels upstream where Combine does not"),
    (FAIL, r"", r"\(\"(max\(\d+\)|unlimited)\"\) is not equal to \(\"(max\(\d+\)|unlimited)\"\)",
     "demand: returned or forwarded demand differs"),
    (FAIL, r"", r"\.requested\(", "demand/cancellation history upstream differs"),
    (FAIL, r"", r"\.cancelled", "demand/cancellation history upstream differs"),
    (FAIL, r"", r"\.subscription\(\"(\w+)\"\).* is not equal to .*\.subscription\(\"(?!\1\")",
     "description differs: subscription named differently"),
    (FAIL, r"", r"\.value\(|\.completion\(", "downstream events differ"),
]


def automatic_reason(name, outcome, message):
    if outcome == TIMEOUT:
        return "hangs: no result within the time limit"
    for rule_outcome, name_pattern, message_pattern, reason in REASON_RULES:
        if rule_outcome == outcome and re.search(name_pattern, name) \
                and re.search(message_pattern, message):
            return reason
    if outcome == TRAP:
        return f"trap: {message[:120]}" if message else "trap"
    # The list names tests and never copies their text: the assertion is in results.tsv.
    return "fails: assertion differs (see results.tsv)"


def write_expected(header, entries):
    with open(EXPECTED, "w") as out:
        for line in header:
            out.write(line + "\n")
        for key, reason in entries:
            reason = re.sub(r"\s+", " ", reason).strip()
            out.write(f"{key}  # {reason}\n" if reason else f"{key}\n")


# MARK: Main


def main():
    parser = argparse.ArgumentParser(
        prog="Compatibility/run",
        description="Run OpenCombine 0.14.0's test suite against Tether and compare the outcome "
                    "with Compatibility/expected-failures.txt.")
    parser.add_argument("--update-expected", action="store_true",
                        help="rewrite the list from this run, keeping the reasons already there")
    parser.add_argument("--filter", action="append", default=[], metavar="CLASS",
                        help="run these test classes only (repeatable; a regular expression "
                             "matched against the whole class name)")
    parser.add_argument("--skip-build", action="store_true",
                        help="reuse the last build and its list of files left out")
    parser.add_argument("--jobs", type=int, default=2, help="processes at once (default 2)")
    parser.add_argument("--timeout", type=int, default=120,
                        help="seconds allowed to one class's process (default 120)")
    parser.add_argument("--test-timeout", type=int, default=30,
                        help="seconds allowed to one test's process (default 30)")
    args = parser.parse_args()
    started = time.monotonic()

    fetch_suite()
    files = suite_files()
    excluded = read_excluded() if args.skip_build else build(files)
    built = time.monotonic()

    class_file, source_tests = tests_in_source(files)
    tests = listed_tests()
    by_class = {}
    for name in tests:
        by_class.setdefault(name.split(".", 1)[0], []).append(name)
    selected = sorted(by_class)
    nocompile_files = sorted(excluded)
    if args.filter:
        patterns = [re.compile(f"(?:{p})") for p in args.filter]
        selected = [c for c in selected if any(p.fullmatch(c) for p in patterns)]
        nocompile_files = [f for f in nocompile_files
                           if any(p.fullmatch(c) for p in patterns
                                  for c, cf in class_file.items() if cf == f)]
        if not selected and not nocompile_files:
            fail_harness(f"no test class matches {args.filter}")

    log(f"== running {len(selected)} classes, {args.jobs} at a time")
    results, trapped_classes = {}, []

    def one(cls):
        return cls, run_class(cls, by_class[cls], args.timeout, args.test_timeout)

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for cls, (class_results, died) in pool.map(one, selected):
            results.update(class_results)
            if died:
                trapped_classes.append(cls)
    for rel in nocompile_files:
        for name in source_tests.get(rel, []):
            results[name] = (NOCOMPILE, f"{NOCOMPILE_REASON}: {excluded[rel]}")
    ran = time.monotonic()

    test_file = {}
    for name in results:
        test_file[name] = class_file.get(name.split(".", 1)[0], "?")
    write_results(results, test_file)
    summarise(results, files, excluded, selected, nocompile_files, trapped_classes, test_file,
              built - started, ran - built)

    entries, header = read_expected()
    summarise_reasons(entries, results, test_file)
    status = compare(entries, results, excluded, nocompile_files, test_file,
                     partial=bool(args.filter))
    if args.update_expected:
        update_expected(entries, header, results, excluded, nocompile_files, test_file)
        log(f"== wrote {os.path.relpath(EXPECTED, REPO)}")
        status = 0
    return status


def write_results(results, test_file):
    with open(RESULTS, "w") as out:
        out.write("test\tfile\toutcome\tfirst failure message\n")
        for name in sorted(results):
            outcome, message = results[name]
            message = message.replace("\t", " ").replace("\n", " ")
            out.write(f"{name}\t{test_file[name]}\t{outcome}\t{message}\n")


def summarise(results, files, excluded, selected, nocompile_files, trapped_classes, test_file,
              build_seconds, run_seconds):
    counts = {}
    for outcome, _ in results.values():
        counts[outcome] = counts.get(outcome, 0) + 1
    total = len(results)
    helpers = [f for f in excluded if f.startswith("Helpers/")]
    tether = git("rev-parse", "--short", "HEAD", cwd=REPO, check=False) or "?"
    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "--", "Sources",
                                                cwd=REPO, check=False) else ""
    log("")
    log(f"== OpenCombine {SUITE_TAG}'s suite against Tether {tether}{dirty}")
    log(f"   files compiled        {len(files) - len(excluded):5} / {len(files)}")
    log(f"   tests passed          {counts.get(PASS, 0):5} / {total}")
    log(f"   tests failed          {counts.get(FAIL, 0):5}")
    log(f"   tests that trap       {counts.get(TRAP, 0):5}")
    log(f"   tests that time out   {counts.get(TIMEOUT, 0):5}")
    log(f"   tests not compiled    {counts.get(NOCOMPILE, 0):5}  ({NOCOMPILE_REASON})")
    log(f"   build {build_seconds:.0f} s, run {run_seconds:.0f} s")
    if helpers:
        log("")
        log("   Helpers files that do not compile (files that use them fail with them):")
        for rel in sorted(helpers):
            log(f"     {excluded[rel]}")
    per_class = {}
    for name, (outcome, _) in results.items():
        row = per_class.setdefault(name.split(".", 1)[0], {})
        row[outcome] = row.get(outcome, 0) + 1
    rows = [(cls, row) for cls, row in sorted(per_class.items())
            if sum(row.values()) != row.get(PASS, 0)]
    if rows:
        log("")
        log(f"   {'class':<40} {'tests':>5} {'pass':>5} {'fail':>5} {'trap':>5} "
            f"{'time':>5} {'n/c':>5}")
        for cls, row in rows:
            log(f"   {cls:<40} {sum(row.values()):5} {row.get(PASS, 0):5} {row.get(FAIL, 0):5} "
                f"{row.get(TRAP, 0):5} {row.get(TIMEOUT, 0):5} {row.get(NOCOMPILE, 0):5}")
    log("")
    log(f"   per-test outcomes: {os.path.relpath(RESULTS, REPO)}")


def summarise_reasons(entries, results, test_file):
    """Failing tests of this run counted by the reason the list gives them: the families."""
    listed = dict(entries)
    families = {}
    for name, (outcome, _) in results.items():
        if outcome == PASS:
            continue
        reason = listed.get(name) or listed.get(test_file[name]) or "(not in the list)"
        if outcome == NOCOMPILE:
            reason = NOCOMPILE_REASON
        families[reason] = families.get(reason, 0) + 1
    if families:
        log("")
        log("   failing tests by the list's reason")
        for reason, count in sorted(families.items(), key=lambda item: (-item[1], item[0])):
            log(f"   {count:5}  {reason}")


def compare(entries, results, excluded, nocompile_files, test_file, partial):
    listed = dict(entries)
    in_scope_files = set(test_file.values()) | set(nocompile_files)
    unexpected_failures, unexpected_passes, stale = [], [], []
    for name, (outcome, message) in sorted(results.items()):
        file_key = test_file[name]
        if outcome == NOCOMPILE:
            if file_key not in listed:
                unexpected_failures.append((name, outcome, message))
        elif outcome != PASS:
            if name not in listed:
                unexpected_failures.append((name, outcome, message))
        elif name in listed:
            unexpected_passes.append(name)
    for key in listed:
        if key.endswith(".swift"):
            if key in in_scope_files and key not in excluded:
                unexpected_passes.append(f"{key} (now compiles; list its failing tests instead)")
            elif not partial and key not in excluded:
                stale.append(key)
        elif key not in results and not partial:
            stale.append(key)
    # A file that does not compile is one failure, however many tests it holds.
    reported, shown = set(), []
    for name, outcome, message in unexpected_failures:
        if outcome == NOCOMPILE:
            if test_file[name] in reported:
                continue
            reported.add(test_file[name])
            name = test_file[name]
        shown.append((name, outcome, message))
    status = 0
    log("")
    if shown:
        status = 1
        log(f"== {len(shown)} unexpected failures (not in "
            f"{os.path.relpath(EXPECTED, REPO)}):")
        for name, outcome, message in shown:
            log(f"   {name}  [{outcome}] {message}")
    if unexpected_passes:
        status = 1
        log(f"== {len(unexpected_passes)} listed as expected failures but now pass: shrink the "
            f"list (`bash Compatibility/run --update-expected`)")
        for name in unexpected_passes:
            log(f"   {name}")
    if stale:
        status = 1
        log(f"== {len(stale)} entries in the list name no test or file of the suite:")
        for key in stale:
            log(f"   {key}")
    if status == 0:
        log("== every outcome matches the list of expected failures")
    return status


def update_expected(entries, header, results, excluded, nocompile_files, test_file):
    reasons = dict(entries)
    selected_classes = {name.split(".", 1)[0] for name, (o, _) in results.items() if o != NOCOMPILE}
    in_scope_files = set(nocompile_files) | {test_file[n] for n in results}
    kept = []
    for key, reason in entries:
        if key.endswith(".swift"):
            if key not in in_scope_files:
                kept.append((key, reason))
        elif key.split(".", 1)[0] not in selected_classes and key not in results:
            kept.append((key, reason))
    fresh = []
    for rel in nocompile_files:
        fresh.append((rel, reasons.get(rel) or f"{NOCOMPILE_REASON}: {excluded[rel]}"))
    for name, (outcome, message) in sorted(results.items()):
        if outcome in (PASS, NOCOMPILE):
            continue
        fresh.append((name, reasons.get(name) or automatic_reason(name, outcome, message)))
    merged = sorted(set(kept + fresh), key=lambda e: (not e[0].endswith(".swift"), e[0]))
    if not header:
        header = [
            "# Tests of OpenCombine 0.14.0's suite that fail against Tether, with the reason.",
            "# One line per test (`Class.testName  # reason`), or per suite file that does not",
            "# compile (`Path/File.swift  # reason`). `bash Compatibility/run` fails when an",
            "# outcome differs from this list either way; `--update-expected` rewrites it from a",
            "# run and keeps the reasons already here.",
            "",
        ]
    write_expected(header, merged)


if __name__ == "__main__":
    sys.exit(main())
