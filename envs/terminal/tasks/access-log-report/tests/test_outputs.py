import collections


def truth():
    lines = open("access.log").read().splitlines()
    ips = collections.Counter(l.split()[0] for l in lines)
    top, n = ips.most_common(1)[0]
    return [
        "requests: %d" % len(lines),
        "clients: %d" % len(ips),
        "not_found: %d" % sum(1 for l in lines if l.split()[8] == "404"),
        "top: %s %d" % (top, n),
    ]


def test_report():
    # The log must still be the generated one (300 lines): the truth is
    # computed from it.
    assert len(open("access.log").read().splitlines()) == 300
    assert open("report.txt").read().splitlines() == truth()
