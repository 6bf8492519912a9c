"""A gemgo env for TRL's GRPOTrainer(environment_factory=...).

TRL builds one environment object per rollout, calls reset() and appends the
text it returns to the prompt, exposes the object's public methods (with
docstrings) to the model as tools, and lets reward functions read the objects
back. GemgoTRLEnv does that over one server session per object:

    from trl import GRPOConfig, GRPOTrainer
    from trl_env import GemgoTRLEnv, gemgo_reward
    trainer = GRPOTrainer(model=..., train_dataset=..., reward_funcs=gemgo_reward,
                          environment_factory=GemgoTRLEnv, args=GRPOConfig(...))

The server and env come from GEMGO_ENV_URL and GEMGO_ENV_ID. Without TRL, this
file plays one episode through the shim (a check that it works):

    go run ./cmd/envserver &
    python3 examples/python/trl_env.py --url ws://127.0.0.1:8000
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemgo_client import GemgoEnv  # noqa: E402


class GemgoTRLEnv:
    url = os.environ.get("GEMGO_ENV_URL", "ws://127.0.0.1:8000")
    env_id = os.environ.get("GEMGO_ENV_ID", "game:GuessTheNumber-v0-easy")

    def __init__(self):
        self._env = GemgoEnv(self.url, self.env_id)
        self.reward = 0.0
        self.done = False

    def reset(self, **kwargs):
        """Start a new game; returns its instructions."""
        text, _ = self._env.reset(kwargs.get("seed"))
        self.reward, self.done = 0.0, False
        return text

    def act(self, message: str) -> str:
        """Play one move of the game and read its answer.

        Args:
            message: the move, with the answer in \\boxed{...}, e.g. \\boxed{5}

        Returns:
            What the game says next.
        """
        if self.done:
            raise ValueError("The game is over: no more moves.")
        r = self._env.step(message)
        self.reward += r.reward
        self.done = r.done
        return r.text


def gemgo_reward(environments, **kwargs):
    """TRL reward function: each rollout's summed env reward."""
    return [env.reward for env in environments]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", default=GemgoTRLEnv.url)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("moves", nargs="*", default=["\\boxed{5}", "\\boxed{3}", "\\boxed{8}", "\\boxed{1}"])
    args = p.parse_args()
    GemgoTRLEnv.url = args.url
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
