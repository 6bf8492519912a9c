def rows():
    return open("summary.csv").read().split()


def test_header():
    assert rows()[0] == "level,count"


def test_counts():
    assert rows()[1:] == ["ERROR,3", "WARNING,1", "INFO,4"]
