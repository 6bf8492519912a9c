import os


def test_full_text():
    assert open("full.txt").read() == "".join("line %02d of the story\n" % i for i in range(1, 13))
    assert len([n for n in os.listdir("parts") if n.endswith(".gz")]) == 12
