"""Stand-in for Oat 0.2.3's oat/types.py: Transition and TransitionData
with Oat's fields."""

from dataclasses import dataclass


@dataclass
class Transition:
    obs: str
    action: str
    rewards: float
    done: bool
    prompt: str
    prompt_ids: list
    response: str
    response_ids: list
    response_logprobs: list
    response_is_truncated: bool
    action_is_formatted: bool
    loss_mask: bool = True
    info: dict = None


@dataclass
class TransitionData:
    prompt: str
    prompt_ids: list
    response: str
    response_ids: list
    response_logprobs: list
    rewards: list
    loss_mask: bool = True
    info: dict = None
