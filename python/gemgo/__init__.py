"""GEM's Python surface over gemgo's env server.

    import gemgo as gem
    env = gem.make("game:GuessTheNumber-v0-easy")     # GEMGO_SERVER or server=...
    obs, info = env.reset(seed=7)
    obs, reward, terminated, truncated, info = env.step(env.sample_random_action())

make, make_vec and get_wrapper_fns take GEM's arguments; the envs play on
a gemgo env server (go run ./cmd/envserver -addr 127.0.0.1:8000). What is
identical to GEM and what differs: docs/python.md in the repository.
"""

from ._conn import GemgoError, on_loop, server_url
from .core import Env, EnvWrapper, RemoteEnv
from .vector import VectorEnv
from .wrappers import EpisodeTrackingWrapper, ObservationWrapper, get_wrapper_fns

__version__ = "0.1.0"

__all__ = ["Env", "EnvWrapper", "RemoteEnv", "VectorEnv", "ObservationWrapper", "EpisodeTrackingWrapper",
           "GemgoError", "on_loop", "make", "make_vec", "get_wrapper_fns", "server_url"]


def make(env_id, **kwargs):
    """The env env_id on a gemgo env server, as gem.make.

    Keyword arguments: server (a ws:// or http:// URL; default the
    GEMGO_SERVER environment variable, else ws://127.0.0.1:8000), seed (of
    the first reset without one), history ("none", "observations",
    "actions") and history_keep (turns kept, 0 all) rendered on the server,
    tools (a list such as [{"name": "python", "max_uses": 5}], run on the
    server), timeout (seconds per exchange), reconnect (default 5: how many
    times in a row a call whose connection closed or failed opens a new
    session at the same server and replays the episode there, its seed and
    actions, each observation checked against the first play's; 0 or
    negative: none; env.reconnects counts them); every other keyword is an
    env option (docs/envs.md), e.g. max_turns=5.
    """
    return RemoteEnv(env_id, **kwargs)


def make_vec(env_ids, wrappers=None, vec_kwargs=None, async_mode=False, seed=0, **kwargs):
    """A VectorEnv of the envs env_ids names (an id, or a list of them), as
    gem.make_vec: env i is made with vec_kwargs[i] (when given) and kwargs,
    seed seed+i unless its vec_kwargs name one, then wrapped by wrappers in
    order (get_wrapper_fns's list)."""
    if isinstance(env_ids, str):
        env_ids = [env_ids]
    env_ids = list(env_ids)
    if vec_kwargs is not None and len(vec_kwargs) != len(env_ids):
        raise ValueError(f"make_vec: {len(vec_kwargs)} vec_kwargs for {len(env_ids)} env ids")
    envs = []
    try:
        for i, env_id in enumerate(env_ids):
            kw = dict(vec_kwargs[i]) if vec_kwargs is not None else {}
            kw.setdefault("seed", seed + i)
            kw.update(kwargs)
            env = make(env_id, **kw)
            for w in wrappers or ():
                env = w(env)
            envs.append(env)
    except BaseException:
        for e in envs:
            e.close()
        raise
    return VectorEnv(env_ids, envs, async_mode=async_mode)
