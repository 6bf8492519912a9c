import subprocess

GIT = ["git", "-c", "core.fsmonitor=false", "-C", "site"]


def git(*args):
    return subprocess.run(GIT + list(args), capture_output=True, text=True, timeout=20, check=True).stdout


def test_master_has_the_work():
    assert git("show", "master:about.html") == "<h1>About us</h1>\n"
    assert "about.html" in git("show", "master:index.html")


def test_on_master_and_clean():
    assert git("rev-parse", "--abbrev-ref", "HEAD").strip() == "master"
    assert git("status", "--porcelain") == ""
    assert git("log", "--format=%s", "master").split("\n")[:2] == ["about page", "home page"]
