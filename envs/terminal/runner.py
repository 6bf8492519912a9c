# The terminal env's test runner: python3 -I runner.py REPORT TESTS INI WORK.
#
# Runs pytest in WORK on TESTS (rootdir and confcutdir TESTS, ini file INI, no
# cache, no plugin autoload), records each test's outcome in memory, kills
# every other process it may signal, and only then writes REPORT (JSON). No
# process that the tests started is left to rewrite the report, and
# nothing is read from screen text.
import json
import os
import signal
import sys

import pytest


class Collect:
    def __init__(self):
        self.outcomes = {}  # nodeid -> outcome
        self.collect_errors = []

    def pytest_collectreport(self, report):
        if report.failed:
            self.collect_errors.append(report.nodeid or "<session>")

    def pytest_runtest_logreport(self, report):
        prev = self.outcomes.get(report.nodeid)
        if report.when == "setup":
            if report.failed:
                self.outcomes[report.nodeid] = "error"
            elif report.skipped:
                self.outcomes[report.nodeid] = "xfailed" if hasattr(report, "wasxfail") else "skipped"
        elif report.when == "call":
            if prev is None:
                if hasattr(report, "wasxfail"):
                    out = "xfailed" if report.skipped else "xpassed"
                else:
                    out = report.outcome
                self.outcomes[report.nodeid] = out
        elif report.failed:  # teardown
            self.outcomes[report.nodeid] = "error"


def main():
    report, tests, ini, work = sys.argv[1:5]
    os.chdir(work)
    c = Collect()
    code = pytest.main(
        [tests, "-q", "-p", "no:cacheprovider", "-c", ini, "--rootdir", tests, "--confcutdir", tests],
        plugins=[c],
    )
    if os.getpid() == 1:
        # pid 1 of the run's PID namespace: -1 reaches every other process
        # in it. Elsewhere it would reach the caller's processes too.
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
    short = {}
    for nodeid in c.outcomes:
        name = nodeid.split("::", 1)[-1]
        short[name] = short.get(name, 0) + 1
    tests_out = {}
    for nodeid, out in c.outcomes.items():
        name = nodeid.split("::", 1)[-1]
        tests_out[name if short[name] == 1 else nodeid] = out
    data = json.dumps({"exit_code": int(code), "tests": tests_out, "collect_errors": c.collect_errors})
    tmp = report + ".tmp"
    with open(tmp, "w") as f:
        f.write(data)
    os.replace(tmp, report)


main()
