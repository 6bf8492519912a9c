"""A small client of gemgo's env server (cmd/envserver), on the Python
standard library and the `websockets` package only (Debian: python3-websockets).

It speaks OpenEnv's WebSocket protocol, as OpenEnv's GenericEnvClient does
(see openenv_client.py for that client); use this one where OpenEnv is not
installed, or from asyncio code (AsyncGemgoEnv).

Run one episode from the command line (start the server first with
`go run ./cmd/envserver`):

    python3 examples/python/gemgo_client.py --url ws://127.0.0.1:8000 \
        --env game:GuessTheNumber-v0-easy --seed 7 '\\boxed{5}' '\\boxed{3}'

It prints one JSON object: the observations, rewards and flags of the episode.
"""

import argparse
import asyncio
import base64
import json
import sys
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

import websockets


class GemgoError(Exception):
    """An error answered by the server, with its OpenEnv code."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass
class StepResult:
    text: str
    reward: float
    terminated: bool
    truncated: bool
    info: dict = field(default_factory=dict)

    @property
    def done(self):
        return self.terminated or self.truncated


def ws_url(url):
    """The WebSocket URL of a server address: http(s) becomes ws(s), and /ws is
    appended unless the path ends with it (as OpenEnv's clients do)."""
    parts = urlsplit(url)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    path = parts.path.rstrip("/")
    if not path.endswith("/ws"):
        path += "/ws"
    return urlunsplit((scheme, parts.netloc, path, parts.query, ""))


def _text(obs):
    if "text_b64" in obs:  # bytes that are not UTF-8
        return base64.b64decode(obs["text_b64"]).decode("utf-8", "surrogateescape")
    return obs["text"]


class AsyncGemgoEnv:
    """One session: one env, one episode at a time, for asyncio code."""

    def __init__(self, url="ws://127.0.0.1:8000", env_id=None, options=None, timeout=60.0):
        self.url = ws_url(url)
        self.env_id = env_id
        self.options = options
        self.timeout = timeout
        self._ws = None

    async def _call(self, typ, data=None):
        if self._ws is None:
            self._ws = await asyncio.wait_for(websockets.connect(self.url, max_size=64 << 20), self.timeout)
        msg = {"type": typ}
        if data is not None:
            msg["data"] = data
        await asyncio.wait_for(self._ws.send(json.dumps(msg)), self.timeout)
        reply = json.loads(await asyncio.wait_for(self._ws.recv(), self.timeout))
        if reply["type"] == "error":
            raise GemgoError(reply["data"].get("code"), reply["data"].get("message"))
        return reply["data"]

    async def reset(self, seed=None):
        """Start an episode; returns (text, info). Without a seed the server
        picks one and reports it in info["seed"]."""
        data = {}
        if seed is not None:
            data["seed"] = seed
        if self.env_id:
            data["env_id"] = self.env_id
        if self.options:
            data["options"] = self.options
        obs = (await self._call("reset", data))["observation"]
        info = dict(obs.get("info") or {})
        info["seed"] = obs["seed"]
        return _text(obs), info

    async def step(self, message):
        data = await self._call("step", {"message": message})
        obs = data["observation"]
        return StepResult(_text(obs), data["reward"], obs["terminated"], obs["truncated"], obs.get("info") or {})

    async def state(self):
        return await self._call("state")

    async def close(self):
        if self._ws is not None:
            await self._ws.close()
            self._ws = None


class GemgoEnv:
    """The same session for synchronous code (it runs a private event loop,
    so do not call it from inside a running asyncio loop: use AsyncGemgoEnv)."""

    def __init__(self, url="ws://127.0.0.1:8000", env_id=None, options=None, timeout=60.0):
        self._loop = asyncio.new_event_loop()
        self._env = AsyncGemgoEnv(url, env_id, options, timeout)

    def reset(self, seed=None):
        return self._loop.run_until_complete(self._env.reset(seed))

    def step(self, message):
        return self._loop.run_until_complete(self._env.step(message))

    def state(self):
        return self._loop.run_until_complete(self._env.state())

    def close(self):
        self._loop.run_until_complete(self._env.close())
        self._loop.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def main(argv=None):
    p = argparse.ArgumentParser(description="Play one episode on a gemgo env server.")
    p.add_argument("--url", default="ws://127.0.0.1:8000")
    p.add_argument("--env", default=None, help="env id (default: the server's -env)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("actions", nargs="*", help="the actions, in order (the episode may end before the last)")
    args = p.parse_args(argv)
    out = {"observations": [], "rewards": [], "terminated": [], "truncated": []}
    with GemgoEnv(args.url, args.env) as env:
        text, info = env.reset(args.seed)
        out["observations"].append(text)
        out["max_turns"] = info.get("max_turns")
        for a in args.actions:
            r = env.step(a)
            out["observations"].append(r.text)
            out["rewards"].append(r.reward)
            out["terminated"].append(r.terminated)
            out["truncated"].append(r.truncated)
            if r.done:
                break
        out["state"] = env.state()
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
