def test_unique():
    assert open("unique.txt").read() == "maria\njonas\nli wei\nakosua\nLi Wei\n"
