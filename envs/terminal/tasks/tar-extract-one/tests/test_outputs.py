import os


def test_settings():
    assert open("settings.ini").read() == "[server]\nport = 9090\nname = release-2.1\n"
    assert sorted(os.listdir(".")) == ["bundle.tar.gz", "settings.ini"]
