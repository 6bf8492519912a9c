"""A gemgo env as an RL2 env module (RL2 runs envs in-process; these hooks
forward to gemgo's env server).

Written against RL2's multi-turn env module interface (async hooks
reset(extra_info) and step(state, action, extra_info) returning
next_state, reward, score, done and extra_info); check the hook names
against your RL2 version's env modules. Point RL2's env path at this module
(or a file that does `from gemgo.integrations.rl2 import reset, step`).
Each rollout gets one server session, kept under
extra_info["gemgo_session"]; the episode's seed is extra_info["seed"] (or
extra_info["idx"]). The env id comes from GEMGO_ENV_ID, the server from
GEMGO_SERVER (or the module's SERVER).
"""

import asyncio
import os
import uuid

from .. import _conn
from ..core import RemoteEnv

SERVER = None  # None: GEMGO_SERVER, else ws://127.0.0.1:8000
ENV_ID = os.environ.get("GEMGO_ENV_ID", "game:GuessTheNumber-v0-easy")
_sessions = {}


async def _make():
    # RemoteEnv's constructor blocks until the server answers: a worker
    # thread waits for it, not the caller's loop.
    return await asyncio.get_running_loop().run_in_executor(None, lambda: RemoteEnv(ENV_ID, server=SERVER))


async def reset(extra_info):
    key = extra_info.setdefault("gemgo_session", uuid.uuid4().hex)
    env = _sessions.get(key)
    if env is None:
        env = _sessions[key] = await _make()
    text, _ = await _conn.on_loop(env.areset(extra_info.get("seed", extra_info.get("idx"))))
    return text


async def step(state, action, extra_info):
    key = extra_info["gemgo_session"]
    env = _sessions[key]
    text, reward, terminated, truncated, info = await _conn.on_loop(env.astep(action))
    done = terminated or truncated
    if done:
        await _conn.on_loop(env._session.close())
        del _sessions[key]
    return {
        "next_state": None if done else state + action + text,
        "reward": reward,
        "score": 1.0 if info.get("success") else 0.0,
        "done": done,
        "extra_info": extra_info,
    }
