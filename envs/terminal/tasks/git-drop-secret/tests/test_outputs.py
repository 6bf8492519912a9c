import subprocess

GIT = ["git", "-c", "core.fsmonitor=false", "-C", "repo"]


def git(*args):
    return subprocess.run(GIT + list(args), capture_output=True, text=True, timeout=20, check=True).stdout


def test_secret_out_of_history():
    assert sorted(git("ls-tree", "--name-only", "master").split()) == [".gitignore", "README", "settings.ini"]
    assert git("rev-list", "--count", "master").strip() == "2"
    assert "secrets.env" in git("show", "master:.gitignore").split()


def test_secret_kept_untracked():
    assert open("repo/secrets.env").read() == "DB_PASSWORD=hunter2\n"
    assert git("status", "--porcelain") == ""
    assert git("ls-files", "secrets.env") == ""
