import tarfile


def test_archive():
    with tarfile.open("backup.tar.gz", "r:gz") as t:
        files = sorted(m.name for m in t.getmembers() if m.isfile())
        assert files == ["docs/guide/install.md", "docs/intro.md"]
        assert t.extractfile("docs/guide/install.md").read() == b"install steps\n"


def test_docs_untouched():
    with open("backup.tar.gz", "rb") as f:
        assert f.read(2) == b"\x1f\x8b"
    assert open("docs/guide/draft.tmp").read() == "scratch\n"
