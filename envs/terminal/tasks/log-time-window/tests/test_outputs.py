def test_window():
    assert open("window.log").read() == (
        "[2024-04-09 10:00:00] request 1\n"
        "[2024-04-09 10:17:31] request 2\n"
        "multi-line detail of request 2\n"
        "[2024-04-09 10:59:59] request 3\n"
    )
