def test_totals():
    assert open("totals.csv").read().split() == [
        "region,total",
        "east,50.00",
        "north,200.00",
        "south,99.75",
        "west,300.00",
    ]
