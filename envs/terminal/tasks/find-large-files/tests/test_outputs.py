def test_big_list():
    assert open("big.txt").read().split("\n")[:-1] == [
        "data/a/deep/big.dat",
        "data/a/just-over.bin",
        "data/b/with space.log",
    ]
