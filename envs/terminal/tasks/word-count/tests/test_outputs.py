from pathlib import Path


def test_count_file_exists():
    assert Path("count.txt").is_file()


def test_count_value():
    assert Path("count.txt").read_text().strip() == "13"
