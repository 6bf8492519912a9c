"""A gemgo env for TRL's GRPOTrainer(environment_factory=...).

Written against TRL's environment_factory interface (TRL 0.2x): TRL builds
one environment object per rollout, calls reset() and appends the text it
returns to the prompt, exposes the object's public methods (with
docstrings) to the model as tools, and lets reward functions read the
objects back. GemgoTRLEnv does that over one server session per object:

    from trl import GRPOConfig, GRPOTrainer
    from gemgo.integrations.trl import GemgoTRLEnv, gemgo_reward
    trainer = GRPOTrainer(model=..., train_dataset=..., reward_funcs=gemgo_reward,
                          environment_factory=GemgoTRLEnv, args=GRPOConfig(...))

The env id comes from GEMGO_ENV_ID (default game:GuessTheNumber-v0-easy),
the server from GEMGO_SERVER (or the class attribute server).
"""

import os

from .. import make


class GemgoTRLEnv:
    server = None  # None: GEMGO_SERVER, else ws://127.0.0.1:8000
    env_id = os.environ.get("GEMGO_ENV_ID", "game:GuessTheNumber-v0-easy")

    def __init__(self):
        self._env = make(self.env_id, server=self.server)
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
        text, reward, terminated, truncated, _ = self._env.step(message)
        self.reward += reward
        self.done = terminated or truncated
        return text


def gemgo_reward(environments, **kwargs):
    """TRL reward function: each rollout's summed env reward."""
    return [env.reward for env in environments]
