"""GEM's vector env with SAME_STEP autoreset, over gemgo sessions."""

import asyncio
from collections.abc import Mapping

from . import _conn
from .core import Env

try:
    import numpy as _np
except ImportError:  # numpy is optional: lists that combine as arrays do
    _np = None


class FlagList(list):
    """terminated and truncated without numpy: a list whose | and & work
    element by element, as on GEM's numpy arrays (done = terminated | truncated)."""

    def __or__(self, other):
        return FlagList(bool(a) or bool(b) for a, b in zip(self, other, strict=True))

    def __and__(self, other):
        return FlagList(bool(a) and bool(b) for a, b in zip(self, other, strict=True))

    __ror__, __rand__ = __or__, __and__

    def __invert__(self):
        return FlagList(not a for a in self)


def _rewards(values):
    return _np.array(values, dtype=_np.float64) if _np is not None else list(values)


def _flags(values):
    return _np.array(values, dtype=_np.bool_) if _np is not None else FlagList(bool(v) for v in values)


class VectorEnv(Env):
    """N envs stepped together (GEM's SyncVectorEnv / AsyncVectorEnv).

    step(actions) takes a list of N actions, or a dict {index: action} to
    step only those envs (the others wait where they are), and returns
    (observations, rewards, terminated, truncated, infos) for the envs it
    stepped, in the order given: observations and infos are lists, rewards
    and the flags numpy arrays as GEM's (lists, the flags a FlagList, where
    numpy is not installed). SAME_STEP autoreset: an env whose episode
    ends is reset in the same call; its observation is then the new
    episode's first, its info the reset's, with the finished episode's
    last observation in info["final_obs"] and its step info in
    info["final_info"]. The reward and flags are the finished step's.

    async_mode=True sends every env's message at once over the package's
    event loop; False steps them one after the other. Both give the same
    transcripts: each env's episodes follow from its own seeds.
    """

    def __init__(self, env_ids, envs, async_mode=False):
        self.env_ids = list(env_ids)
        self.envs = list(envs)
        self.num_envs = len(self.envs)
        self.async_mode = async_mode
        self.autoreset_mode = "SameStep"

    def _gather(self, coros):
        if self.async_mode:
            async def all_of():
                return await asyncio.gather(*coros)
            return _conn.run(all_of())
        return [_conn.run(c) for c in coros]

    def reset(self, seed=None, **kwargs):
        """Resets every env: seed=None plays each env's own next seed, an
        int s gives env i seed s+i (as GEM), a list one seed per env.
        env{i}_kwargs (as GEM) are env i's reset keywords: {"idx": k} plays
        item k of a dataset env (seed k)."""
        per_env = [kwargs.pop(f"env{i}_kwargs", None) or {} for i in range(self.num_envs)]
        if kwargs:
            raise TypeError(f"reset: unknown keywords {', '.join(sorted(kwargs))}: want seed and "
                            f"env0_kwargs..env{self.num_envs - 1}_kwargs")
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"reset: {len(seeds)} seeds for {self.num_envs} envs")
        out = self._gather([e.areset(s, **kw) for e, s, kw in zip(self.envs, seeds, per_env)])
        return [o for o, _ in out], [i for _, i in out]

    @staticmethod
    async def _step_one(env, action):
        obs, reward, terminated, truncated, info = await env.astep(action)
        if terminated or truncated:
            final_obs, final_info = obs, info
            obs, info = await env.areset(None)
            info = dict(info)
            info["final_obs"], info["final_info"] = final_obs, final_info
        return obs, reward, terminated, truncated, info

    def step(self, actions):
        if isinstance(actions, Mapping):
            items = list(actions.items())
            for i, _ in items:
                if not isinstance(i, int) or not 0 <= i < self.num_envs:
                    raise IndexError(f"step: env index {i!r}: want 0..{self.num_envs - 1}")
        else:
            actions = list(actions)
            if len(actions) != self.num_envs:
                raise ValueError(f"step: {len(actions)} actions for {self.num_envs} envs (a dict steps some)")
            items = list(enumerate(actions))
        out = self._gather([self._step_one(self.envs[i], a) for i, a in items])
        return ([r[0] for r in out], _rewards([r[1] for r in out]), _flags([r[2] for r in out]),
                _flags([r[3] for r in out]), [r[4] for r in out])

    def sample_random_action(self):
        return [e.sample_random_action() for e in self.envs]

    def close(self):
        for e in self.envs:
            e.close()
