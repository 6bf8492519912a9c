"""A server that stops answering: the package's env raises a
ConnectionError that says so within its timeout, and every later call
raises the same error. Prints {"first": ..., "second": ...}."""

import json
import sys

import gemgo as gem

# make's connect and describe get a loaded machine's time; the reset the
# server never answers gets 1 s
env = gem.make("game:GuessTheNumber-v0-easy", timeout=60)
env._session.timeout = 1
out = {}
for key in ("first", "second"):
    try:
        env.reset(seed=1)
        out[key] = "no error"
    except ConnectionError as e:
        out[key] = str(e)
env.close()
json.dump(out, sys.stdout)
