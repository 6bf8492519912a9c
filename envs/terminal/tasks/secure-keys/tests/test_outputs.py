import os
import stat


def mode(p):
    return stat.S_IMODE(os.stat(p).st_mode)


def test_keys():
    assert mode("deploy/keys") == 0o700
    assert mode("deploy/keys/old") == 0o700
    assert mode("deploy/keys/id_main") == 0o600
    assert mode("deploy/keys/old/id_2019") == 0o600
    assert open("deploy/keys/old/id_2019").read() == "k2\n"


def test_public():
    assert mode("deploy/public") == 0o755
    assert mode("deploy/public/index.txt") == 0o644
    assert mode("deploy/public/id_main.pub") == 0o644
    assert open("deploy/public/index.txt").read() == "idx\n"

