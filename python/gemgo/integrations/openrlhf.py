"""A gemgo env as an OpenRLHF agent: AgentInstance and AgentExecutor for
OpenRLHF's multi-turn agent training (--train.agent_func_path).

Written against OpenRLHF 0.11 (openrlhf/utils/agent.py): OpenRLHF loads the
file that --train.agent_func_path names, takes its AgentExecutor (a
subclass of AgentExecutorBase) and, per prompt of the dataset, builds one
AgentInstance (a subclass of AgentInstanceBase) through
MultiTurnAgentExecutor. The executor awaits instance.reset({"observation":
prompt, "label": label}) and uses the "observation" it returns as the
prompt; after each generation it awaits instance.step({"observation_text",
"action_text", "label", "sampling_params"}) and reads "rewards" (a tensor:
it calls .item()), "scores", "environment_feedback" (text appended after
the action), "done", "sampling_params" and "extra_logs". Point OpenRLHF at
a file holding

    from gemgo.integrations.openrlhf import AgentInstance, AgentExecutor

Each instance plays one episode over its own server session. The seed is
the dataset row's label when it is a whole number (so a dataset of seeds
names its episodes), else the next of a sequence the server starts. The
env id comes from GEMGO_ENV_ID (default game:GuessTheNumber-v0-easy), the
server from GEMGO_SERVER. To change env_id, server, options or template,
subclass AgentInstance and pass the subclass to MultiTurnAgentExecutor in
your own AgentExecutor, as AgentExecutor here does.

The text: template "chatml" (the default) writes each observation as a
ChatML user turn (<|im_start|>user ... <|im_end|>) followed by the
assistant's turn opener, as the Qwen models expect; "plain" writes the
first observation as it is and each later one after a newline. The
observation the env returns at the end of an episode is appended too, with
no assistant opener after it.
"""

import asyncio
import os

from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor

from .. import _conn
from ..core import RemoteEnv

TEMPLATES = ("chatml", "plain")


def _reward(value):
    """OpenRLHF's executor sums rewards with .item(): a torch scalar where
    torch is installed (it is, with OpenRLHF), else a float that has one.
    float64, so .item() gives the env's reward exactly (torch's default
    float32 would round 2/9 to 0.2222222238779068)."""
    try:
        import torch
    except ImportError:
        return _Scalar(value)
    return torch.tensor(float(value), dtype=torch.float64)


class _Scalar(float):
    def item(self):
        return float(self)


def _seed_of(label):
    """The seed a dataset label names: a whole number >= 0, else None."""
    try:
        n = int(str(label).strip())
    except (TypeError, ValueError):
        return None
    return n if n >= 0 else None


class AgentInstance(AgentInstanceBase):
    """One episode of a gemgo env per instance (OpenRLHF makes one per
    prompt). Class attributes: env_id, server, options (env options for
    make), template ("chatml" or "plain")."""

    env_id = os.environ.get("GEMGO_ENV_ID", "game:GuessTheNumber-v0-easy")
    server = None  # None: GEMGO_SERVER, else ws://127.0.0.1:8000
    options = {}
    template = "chatml"

    def __init__(self, *args, **kwargs):
        if self.template not in TEMPLATES:
            raise ValueError(f"AgentInstance.template={self.template!r}: want one of {', '.join(TEMPLATES)}")
        self.env = None
        self.turn = 0
        self.total = 0.0

    def render(self, obs, first, done):
        """The text OpenRLHF appends for obs: the prompt when first, else
        the environment feedback after the model's action."""
        if self.template == "plain":
            return obs if first else "\n" + obs + "\n"
        text = "" if first else "\n"
        text += f"<|im_start|>user\n{obs}<|im_end|>\n"
        return text if done else text + "<|im_start|>assistant\n"

    async def reset(self, states, **kwargs):
        if self.env is None:
            # RemoteEnv's constructor waits for the server's answer: a worker
            # thread waits, not OpenRLHF's event loop.
            self.env = await asyncio.get_running_loop().run_in_executor(
                None, lambda: RemoteEnv(self.env_id, server=self.server, **self.options))
        obs, _ = await _conn.on_loop(self.env.areset(_seed_of(states.get("label"))))
        self.turn, self.total = 0, 0.0
        return {"observation": self.render(obs, first=True, done=False)}

    async def step(self, states, **kwargs):
        if self.env is None:
            raise RuntimeError("AgentInstance.step before reset: OpenRLHF's executor resets each instance first")
        obs, reward, terminated, truncated, info = await _conn.on_loop(self.env.astep(states["action_text"]))
        self.turn += 1
        self.total += reward
        done = bool(terminated or truncated)
        result = {
            "rewards": _reward(reward),
            "scores": _reward(1.0 if info.get("success") else 0.0),
            "environment_feedback": self.render(obs, first=False, done=done),
            "done": done,
            "sampling_params": states.get("sampling_params"),
            "extra_logs": {"gemgo_turns": _reward(self.turn), "gemgo_return": _reward(self.total)},
        }
        if done:
            await _conn.on_loop(self.env.aclose())
            self.env = None
        return result

    def __del__(self):
        # An executor that runs out of tokens drops its instance mid-episode:
        # end the session on the package's loop instead of leaving it to the
        # server's idle timeout.
        env, lp = getattr(self, "env", None), _conn._loop
        if env is not None and lp is not None and not lp.is_closed():
            try:
                lp.call_soon_threadsafe(lambda: lp.create_task(env.aclose()))
            except RuntimeError:  # the interpreter is shutting down
                pass


class AgentExecutor(MultiTurnAgentExecutor):
    """OpenRLHF's multi-turn executor over AgentInstance."""

    def __init__(self):
        super().__init__(AgentInstance)
