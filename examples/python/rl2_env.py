"""A gemgo env as an RL2 env module (RL2 runs envs in-process; this shim
forwards its hooks to gemgo's env server).

RL2 imports a module with async hooks; for a multi-turn env it calls
reset(extra_info) for the first state and step(state, action, extra_info) for
each turn, which returns next_state, reward, score, done and extra_info. Each
rollout gets one server session, kept under extra_info["gemgo_session"]; the
episode's seed is extra_info["seed"] (or extra_info["idx"]). Check the hook
names against your RL2 version's env modules.

Without RL2, this file plays one episode through the hooks:

    go run ./cmd/envserver &
    python3 examples/python/rl2_env.py --url ws://127.0.0.1:8000
"""

import argparse
import asyncio
import json
import os
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemgo_client import AsyncGemgoEnv  # noqa: E402

URL = os.environ.get("GEMGO_ENV_URL", "ws://127.0.0.1:8000")
ENV_ID = os.environ.get("GEMGO_ENV_ID", "game:GuessTheNumber-v0-easy")
_sessions = {}


async def reset(extra_info):
    key = extra_info.setdefault("gemgo_session", uuid.uuid4().hex)
    env = _sessions.get(key)
    if env is None:
        env = _sessions[key] = AsyncGemgoEnv(URL, ENV_ID)
    text, _ = await env.reset(extra_info.get("seed", extra_info.get("idx")))
    return text


async def step(state, action, extra_info):
    env = _sessions[extra_info["gemgo_session"]]
    r = await env.step(action)
    if r.done:
        await env.close()
        del _sessions[extra_info["gemgo_session"]]
    return {
        "next_state": None if r.done else state + action + r.text,
        "reward": r.reward,
        "score": 1.0 if r.info.get("success") else 0.0,
        "done": r.done,
        "extra_info": extra_info,
    }


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
    global URL
    p = argparse.ArgumentParser()
    p.add_argument("--url", default=URL)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("moves", nargs="*", default=["\\boxed{5}", "\\boxed{3}", "\\boxed{8}", "\\boxed{1}"])
    args = p.parse_args()
    URL = args.url
    json.dump(asyncio.run(_demo(args.seed, args.moves)), sys.stdout)
    print()


if __name__ == "__main__":
    main()
