import csv


def test_rows():
    with open("users.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows == [
        ["id", "name", "age"],
        ["2", "Mei, Jr.", "27"],
        ["4", "Ana", "38"],
        ["7", "Olu", "31"],
        ["15", "Sven", "45"],
    ]
