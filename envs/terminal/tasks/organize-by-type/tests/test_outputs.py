import os


def test_subdirs():
    assert sorted(os.listdir("inbox/txt")) == ["a.txt", "b.txt"]
    assert sorted(os.listdir("inbox/csv")) == ["data.csv", "report.csv"]
    assert sorted(os.listdir("inbox/md")) == ["plan.md", "readme.md"]


def test_nothing_left_at_top():
    assert sorted(os.listdir("inbox")) == ["csv", "md", "txt"]


def test_content():
    assert open("inbox/csv/data.csv").read() == "content of data.csv\n"
