"""Plays one episode through gemgo's RL2 hooks (gemgo.integrations.rl2,
in the package at python/ of this repository), a check that they work
without RL2 installed:

    go run ./cmd/envserver &
    python3 examples/python/rl2_env.py --url ws://127.0.0.1:8000

With RL2: `pip install ./python` and point RL2's env module at
gemgo.integrations.rl2 (async reset(extra_info) and
step(state, action, extra_info)).
"""

import argparse
import asyncio
import json
import os
import sys

# The package from this clone when it is not installed.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from gemgo.integrations import rl2  # noqa: E402
from gemgo.integrations.rl2 import reset, step  # noqa: E402


async def _demo(seed, moves):
    extra = {"seed": seed}
    state = await reset(extra)
    rewards, done = [], False
    for m in moves:
        out = await step(state, m, extra)
        rewards.append(out["reward"])
        done = out["done"]
        if done:
            break
        state = out["next_state"]
    return {"rewards": rewards, "done": done}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", default=None, help="default: GEMGO_SERVER, else ws://127.0.0.1:8000")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("moves", nargs="*", default=["\\boxed{5}", "\\boxed{3}", "\\boxed{8}", "\\boxed{1}"])
    args = p.parse_args()
    rl2.SERVER = args.url
    json.dump(asyncio.run(_demo(args.seed, args.moves)), sys.stdout)
    print()


if __name__ == "__main__":
    main()
