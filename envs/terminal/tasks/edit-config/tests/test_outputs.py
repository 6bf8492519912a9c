WANT = """# service settings
name = ledger
port = 8081
debug = false
# the port above is the public one
workers = 4
"""


def test_config():
    assert open("app.conf").read() == WANT
