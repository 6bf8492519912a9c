import os


def test_names():
    assert sorted(os.listdir("photos")) == sorted(
        ["beach.jpg", "city night.jpg", "dog.jpg", "cat.jpg", "notes.txt", "old.jpeg.bak"]
    )


def test_contents_kept():
    assert open("photos/city night.jpg").read() == "city night.jpeg\n"
    assert open("photos/dog.jpg").read() == "dog.JPEG\n"
