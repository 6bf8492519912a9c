import subprocess

GIT = ["git", "-c", "core.fsmonitor=false", "-C", "proj"]


def git(*args):
    return subprocess.run(GIT + list(args), capture_output=True, text=True, timeout=20, check=True).stdout


def test_changelog():
    assert git("show", "HEAD:CHANGELOG") == "# Changes\n- add export\n- bump version\n- fix crash on empty input\n"


def test_merge_concluded():
    parents = git("log", "-1", "--format=%P", "HEAD").split()
    assert len(parents) == 2
    assert git("rev-parse", "feature").strip() in parents
    assert git("status", "--porcelain") == ""
