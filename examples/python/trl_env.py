"""Plays one episode through gemgo's TRL shim (gemgo.integrations.trl,
in the package at python/ of this repository), a check that it works
without TRL installed:

    go run ./cmd/envserver &
    python3 examples/python/trl_env.py --url ws://127.0.0.1:8000

With TRL: `pip install ./python`, then
GRPOTrainer(environment_factory=GemgoTRLEnv, reward_funcs=gemgo_reward)
with `from gemgo.integrations.trl import GemgoTRLEnv, gemgo_reward`.
"""

import argparse
import json
import os
import sys

# The package from this clone when it is not installed.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from gemgo.integrations.trl import GemgoTRLEnv, gemgo_reward  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", default=None, help="default: GEMGO_SERVER, else ws://127.0.0.1:8000")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("moves", nargs="*", default=["\\boxed{5}", "\\boxed{3}", "\\boxed{8}", "\\boxed{1}"])
    args = p.parse_args()
    GemgoTRLEnv.server = args.url
    env = GemgoTRLEnv()
    env.reset(seed=args.seed)
    for m in args.moves:
        env.act(m)
        if env.done:
            break
    json.dump({"rewards": gemgo_reward([env]), "done": env.done}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
