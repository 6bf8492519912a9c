import csv


def test_rows():
    with open("ops.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows == [
        ["id", "name", "dept", "salary"],
        ["1", "Ada", "ops", "52000"],
        ["4", "Dee, the second", "ops", "61000"],
    ]
