import os


def test_current():
    assert os.path.islink("current")
    assert os.readlink("current") == "releases/v2.10"
    assert open("current/VERSION").read() == "v2.10\n"


def test_previous_gone():
    assert not os.path.lexists("previous")
