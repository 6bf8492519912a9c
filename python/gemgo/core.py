"""Env: one gemgo env played on an env server, with GEM's Env interface."""

import hashlib
import json
import random

from . import _conn

# make's keyword arguments that are not the env's options.
_RESERVED = ("server", "seed", "history", "history_keep", "tools", "timeout", "reconnect")

HISTORY_MODES = ("none", "observations", "actions")

_MASK = (1 << 64) - 1


def _digest(d):
    """A sum of what an observation reply says (text, reward, flags,
    info), to check a replay against; the server's episode id, which
    differs from one session to the next, is left out."""
    obs = d["observation"]
    said = [obs.get("text"), obs.get("text_b64"), d.get("reward"), obs.get("terminated"),
            obs.get("truncated"), obs.get("info")]
    return hashlib.sha256(json.dumps(said, sort_keys=True).encode()).digest()


def next_seed(seed):
    """The seed of the episode after one played with seed (splitmix64), so
    resets without a seed are reproducible from the first."""
    z = (seed + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Env:
    """GEM's Env base: reset, step, sample_random_action, spawn, close."""

    def reset(self, seed=None, **kwargs):
        raise NotImplementedError

    def step(self, action):
        raise NotImplementedError

    def sample_random_action(self):
        raise NotImplementedError

    def spawn(self, same_state=False, **kwargs):
        raise NotImplementedError

    def close(self):
        pass

    @property
    def unwrapped(self):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class RemoteEnv(Env):
    """An env on a gemgo env server: one WebSocket session.

    reset(seed) plays the episode that seed names on the server (gemgo's
    envs are deterministic per seed); reset() with no seed plays the next
    seed of a reproducible sequence that starts at make's seed=..., or a
    seed the server picks when make had none. self.seed is the seed of the
    current episode.

    A call whose connection closed or failed (the server went away or
    restarts, a balancer's replica stopped) opens a new session at the
    same URL, replays the episode there (describe, a reset with its seed,
    its actions, each observation checked against the first play's) and
    makes the call again, up to reconnect times in a row (0 or negative:
    never); self.reconnects counts the new sessions. A replay that differs
    raises a ConnectionError that names the step; a server that does not
    answer within timeout is not retried.
    """

    def __init__(self, env_id, server=None, seed=None, history=None, history_keep=0,
                 tools=None, timeout=60.0, reconnect=_conn.DEFAULT_RECONNECT, **options):
        if history is not None and history not in HISTORY_MODES:
            raise ValueError(f"history={history!r}: want one of {', '.join(HISTORY_MODES)}")
        if not isinstance(history_keep, int) or history_keep < 0:
            raise ValueError(f"history_keep={history_keep!r}: want a whole number of turns, 0 keeps all")
        if not isinstance(reconnect, int) or isinstance(reconnect, bool):
            raise ValueError(f"reconnect={reconnect!r}: want a whole number of reconnects in a row, 0 for none")
        self.env_id = env_id
        self.server = server
        self.history = history
        self.history_keep = history_keep
        self.tools = tools
        self.timeout = timeout
        self.reconnect = reconnect
        self.options = options
        self._base_seed = seed
        self.seed = None
        self._actions = []
        # The first play's digests (the reset's, then each step's) of the
        # episode a new session replays; empty when there is none to replay.
        self._digests = []
        self._done = False  # the episode has ended: a new session needs no replay
        self._rng = random.Random(seed)
        self._session = _conn.Session(_conn.server_url(server), timeout, reconnect, self._replay)
        try:
            _conn.run(self._describe())
        except BaseException:
            _conn.run(self._session.close())
            raise

    def _env_data(self):
        data = {"env_id": self.env_id, "options": self.options}
        if self.tools:
            data["tools"] = self.tools
        if self.history is not None:
            data["history"] = self.history
            data["history_keep"] = self.history_keep
        return data

    async def _describe(self):
        _, d = await self._session.call("describe", self._env_data())
        self.env_id = d.get("env_id", self.env_id)
        self.description = d.get("description", "")
        self.format_error_reward = d.get("format_error_reward")
        self._sampler = bool(d.get("sampler"))

    @property
    def reconnects(self):
        """How many times the session was opened again after its
        connection broke (make's reconnect)."""
        return self._session.reconnects

    async def _replay(self):
        """Rebuilds the env on a new session (the Session's replay):
        describe, then, in an episode that has not ended, a reset with its
        seed and its actions, each observation equal to the first play's.
        A replay that differs, or that the server refuses, breaks the
        session for good."""
        s = self._session
        where = f"gemgo env {self.env_id}: replaying the episode (seed {self.seed}) on a new session at {s.url}"
        try:
            await s.call_once("describe", self._env_data())
            if not self._digests or self._done:
                return
            data = self._env_data()
            data["seed"] = self.seed
            _, d = await s.call_once("reset", data)
            self._check(where, 0, d)
            for i, a in enumerate(self._actions, 1):
                _, d = await s.call_once("step", _conn.message_data(a))
                self._check(where, i, d)
        except _conn.GemgoError as e:
            raise s.fail(f"{where}: the server answered {e} (make a new env)") from None

    def _check(self, where, i, d):
        if _digest(d) == self._digests[i]:
            return
        what = f"the observation of step {i}" if i else "the reset's observation"
        raise self._session.fail(
            f"{where}: {what} differs from the first play (is the env deterministic, and do all "
            f"servers behind that URL run the same version? make a new env)")

    def _pick_seed(self, seed):
        if seed is not None:
            return int(seed)
        if self.seed is not None:
            return next_seed(self.seed)
        return self._base_seed

    async def areset(self, seed=None, idx=None):
        if idx is not None:
            # GEM's dataset envs take reset(idx=k) for item k; gemgo's play
            # item seed mod n, so item k is seed k (for any env: idx wins).
            if not isinstance(idx, int) or idx < 0:
                raise ValueError(f"reset: idx={idx!r}: want a whole number (the item, played as seed idx)")
            seed = idx
        seed = self._pick_seed(seed)
        data = self._env_data()
        if seed is not None:
            data["seed"] = seed
        self._digests = []  # the episode this reset ends needs no replay
        _, d = await self._session.call("reset", data)
        obs = d["observation"]
        self.seed = obs["seed"]
        self._rng.seed(self.seed)
        self._actions = []
        self._digests, self._done = [_digest(d)], False
        return _conn.text_of(obs), dict(obs.get("info") or {})

    async def astep(self, action):
        if not isinstance(action, str):
            raise TypeError(f"step: the action is a {type(action).__name__}: want the text of the agent's reply (a str)")
        _, d = await self._session.call("step", _conn.message_data(action))
        obs = d["observation"]
        self._actions.append(action)
        if self._digests and not self._done:
            self._digests.append(_digest(d))
            self._done = bool(obs["terminated"] or obs["truncated"])
        return (_conn.text_of(obs), d["reward"], obs["terminated"], obs["truncated"],
                dict(obs.get("info") or {}))

    def reset(self, seed=None, idx=None):
        return _conn.run(self.areset(seed, idx))

    def step(self, action):
        return _conn.run(self.astep(action))

    def sample_random_action(self):
        """A random action from the server env's own sampler, its random
        numbers drawn here from a generator seeded by each reset's seed. A
        draw cut by a broken connection is made again on the new session
        with the same numbers; the action stepped is in the episode's
        actions, so a replay steps it as it is."""
        if not self._sampler:
            raise NotImplementedError(f"env {self.env_id} has no random action sampler")
        return _conn.run(self._session.sample(self._rng))

    def spawn(self, same_state=False, **kwargs):
        """A new session with this env's settings, kwargs overriding them.
        same_state=True replays this episode's seed and actions in it (the
        envs are deterministic per seed), so it starts where this one is."""
        cfg = dict(server=self.server, seed=self._base_seed, history=self.history,
                   history_keep=self.history_keep, tools=self.tools, timeout=self.timeout,
                   reconnect=self.reconnect, **self.options)
        cfg.update(kwargs)
        env = RemoteEnv(self.env_id, **cfg)
        if same_state and self.seed is not None:
            env.reset(self.seed)
            for a in self._actions:
                env.step(a)
        return env

    def close(self):
        _conn.run(self._session.close())

    async def aclose(self):
        """close for asyncio code (await gemgo.on_loop(env.aclose()))."""
        await self._session.close()

    def __repr__(self):
        return f"<gemgo.RemoteEnv {self.env_id} at {self._session.url}>"


class EnvWrapper(Env):
    """GEM's EnvWrapper: forwards to self.env; attributes it lacks come
    from the env it wraps. A subclass changes what passes through with
    _after_reset(obs, info) and _after_step(action, result), which serve
    the synchronous and the asyncio calls (areset, astep) alike."""

    def __init__(self, env, **kwargs):
        self.env = env
        self._kwargs = kwargs

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.env, name)

    def _after_reset(self, obs, info):
        return obs, info

    def _after_step(self, action, result):
        return result

    def reset(self, seed=None, **kwargs):
        return self._after_reset(*self.env.reset(seed, **kwargs))

    async def areset(self, seed=None, **kwargs):
        return self._after_reset(*(await self.env.areset(seed, **kwargs)))

    def step(self, action):
        return self._after_step(action, self.env.step(action))

    async def astep(self, action):
        return self._after_step(action, await self.env.astep(action))

    def sample_random_action(self):
        return self.env.sample_random_action()

    def spawn(self, same_state=False, **kwargs):
        """The inner env's spawn, wrapped the same way (same_state replays
        the episode through the new wrapper too)."""
        inner = self.unwrapped.spawn(same_state=False, **kwargs)
        env = _rewrap(self, inner)
        src = self.unwrapped
        if same_state and src.seed is not None:
            env.reset(src.seed)
            for a in src._actions:
                env.step(a)
        return env

    def close(self):
        self.env.close()

    @property
    def unwrapped(self):
        return self.env.unwrapped


def _rewrap(wrapper, inner):
    """inner wrapped in the chain of wrappers that wrapper is the top of."""
    if not isinstance(wrapper, EnvWrapper):
        return inner
    return type(wrapper)(_rewrap(wrapper.env, inner), **wrapper._kwargs)
