"""GEM's observation and episode-tracking wrappers, and get_wrapper_fns.

concat and concat_with_action ask the server for the history (the reset
data's history: observations or actions), so the text is byte for byte
what gemgo's in-process envs.WithHistory shows; GEM's own wrappers render a
similar but not identical text on the client (docs/python.md, "GEM
mapping"). concat_chat with a tokenizer keeps the conversation here and
renders it with the tokenizer's chat template, as GEM's does.
"""

from functools import partial

from ..core import EnvWrapper


class ObservationWrapper(EnvWrapper):
    """The episode so far as the observation.

    Without a chat template the history is rendered by the server:
    observations joined by newlines (include_action=False) or with each
    action on its own line after "> " (include_action=True), the first
    observation and the last max_history_length turns kept. With a
    tokenizer and include_chat_template, the turns are chat messages (user:
    observation, assistant: action) rendered by
    tokenizer.apply_chat_template(..., tokenize=False, add_generation_prompt=True),
    the first message and the last max_history_length turns kept.
    """

    def __init__(self, env, include_action=True, include_chat_template=True,
                 max_history_length=None, tokenizer=None):
        super().__init__(env, include_action=include_action, include_chat_template=include_chat_template,
                         max_history_length=max_history_length, tokenizer=tokenizer)
        if max_history_length is not None and (not isinstance(max_history_length, int) or max_history_length < 1):
            raise ValueError(f"max_history_length={max_history_length!r}: want None (all turns) or a whole number >= 1")
        self.tokenizer = tokenizer
        self.chat = include_chat_template and tokenizer is not None
        self.keep = max_history_length or 0
        self.messages = []
        base = self.unwrapped
        want = "none" if self.chat else ("actions" if include_action else "observations")
        have = getattr(base, "history", None)
        if have not in (None, "none") and (have, base.history_keep) != (want, self.keep):
            raise ValueError(f"{base.env_id}: the env already has history={have!r}: make it without history "
                             "to wrap it, or drop the wrapper")
        if not hasattr(base, "history"):
            raise TypeError(f"ObservationWrapper wraps a gemgo env (gemgo.make), not {type(base).__name__}")
        base.history, base.history_keep = want, (0 if self.chat else self.keep)

    def _render(self):
        msgs = self.messages
        if self.keep and len(msgs) > 1 + 2 * self.keep:
            msgs = msgs[:1] + msgs[-2 * self.keep:]
        return self.tokenizer.apply_chat_template(msgs, tokenize=False, add_generation_prompt=True)

    def _after_reset(self, obs, info):
        if not self.chat:
            return obs, info
        self.messages = [{"role": "user", "content": obs}]
        return self._render(), info

    def _after_step(self, action, result):
        if not self.chat:
            return result
        obs, reward, terminated, truncated, info = result
        self.messages += [{"role": "assistant", "content": action}, {"role": "user", "content": obs}]
        return self._render(), reward, terminated, truncated, info


class EpisodeTrackingWrapper(EnvWrapper):
    """GEM's episode statistics in info: step_counter and
    cumulative_rewards after each step; at reset also the previous
    episode's (prev_ep_step_counter, prev_ep_cumulative_rewards)."""

    def __init__(self, env):
        super().__init__(env)
        self.step_counter = 0
        self.cumulative_rewards = 0.0

    def _after_reset(self, obs, info):
        info["prev_ep_step_counter"] = self.step_counter
        info["prev_ep_cumulative_rewards"] = self.cumulative_rewards
        self.step_counter, self.cumulative_rewards = 0, 0.0
        info["step_counter"] = 0
        info["cumulative_rewards"] = 0.0
        return obs, info

    def _after_step(self, action, result):
        obs, reward, terminated, truncated, info = result
        self.step_counter += 1
        self.cumulative_rewards += reward
        info["step_counter"] = self.step_counter
        info["cumulative_rewards"] = self.cumulative_rewards
        return obs, reward, terminated, truncated, info


WRAPPER_FACTORY = {
    "concat": partial(ObservationWrapper, include_action=False, include_chat_template=False),
    "concat_with_action": partial(ObservationWrapper, include_action=True, include_chat_template=False),
    "concat_chat": partial(ObservationWrapper, include_action=True, include_chat_template=True),
    "episode_tracking": EpisodeTrackingWrapper,
}

# GEM's tool wrappers: gemgo runs tools on the server.
_TOOL_WRAPPERS = ("python_tool", "python_tool_no_int_reward", "python_tool_no_int_reward_last_line_error",
                  "search_tool", "search_tool_no_int_reward")


def get_wrapper_fns(wrappers, tokenizer=None):
    """The wrapper functions that a comma-separated list of names gives,
    in order, for make_vec(wrappers=...) or to apply by hand. concat_chat
    uses tokenizer's chat template when one is given; without one it is
    concat_with_action."""
    fns = []
    for name in [w.strip() for w in (wrappers or "").split(",") if w.strip()]:
        if name in _TOOL_WRAPPERS:
            raise ValueError(f"wrapper {name!r}: gemgo runs tools on the server: "
                             "make(env_id, tools=[{\"name\": \"python\", \"max_uses\": 5}]) "
                             "(the server must allow them: cmd/envserver -tools python)")
        if name not in WRAPPER_FACTORY:
            raise ValueError(f"unknown wrapper {name!r}: want a comma-separated list of {', '.join(WRAPPER_FACTORY)}")
        fn = WRAPPER_FACTORY[name]
        if name == "concat_chat" and tokenizer is not None:
            fn = partial(fn, tokenizer=tokenizer)
        fns.append(fn)
    return fns
