"""The package's env across servers that go away, for the reconnect tests
of envs/remote (pyreconnect_test.go). GEMGO_SERVER is a proxy that the
test points at another server while this script waits.

    python3 gemgo_reconnect.py replay ID DIRECT_URL
    python3 gemgo_reconnect.py midsample ID DIRECT_URL
    python3 gemgo_reconnect.py differ ID

The script prints a line naming a point ("cut", "between", ...) where the
test is to stop a server, waits for a line on its standard input, then
goes on; its last line is the JSON result.

replay: random play of seed 7, the server stopped after two steps, then
seed 8, the server stopped between the episodes; the same two episodes
played again at DIRECT_URL with no server stopped (the control); the
number of reconnects after each episode. A vector env of two envs (async)
is reset before the cut and stepped with random actions after it, and
played again at DIRECT_URL.

midsample: random play of seed 11 through a proxy that drops the
connection once, in the middle of a sample; the control at DIRECT_URL.

differ: three envs reset with seed 3: reconnect=5 (the default), 0 and 2.
At "refused" the proxy leads nowhere: the third env's step raises after
2 failed reconnects. At "differ" it leads to a server whose ID is another
env: the first env's replay differs, twice; the second env raises at the
broken connection; the third reconnects again, and its replay differs.
"""

import json
import sys

import gemgo as gem


def wait_for(point):
    print(point, flush=True)
    if sys.stdin.readline().strip() != "go":
        sys.exit(f"{point}: the test did not say go")


def play(env, seed, cut=None):
    obs, _ = env.reset(seed=seed)
    turns = [{"obs": obs}]
    for i in range(50):
        if i == cut:
            wait_for("cut")
        a = env.sample_random_action()
        obs, reward, terminated, truncated, _ = env.step(a)
        turns.append({"action": a, "obs": obs, "reward": reward, "terminated": terminated, "truncated": truncated})
        if terminated or truncated:
            break
    return {"seed": seed, "turns": turns}


def error_of(f):
    try:
        f()
        return "no error"
    except Exception as e:
        return f"{type(e).__name__}: {e}"


def vector_steps(vec, n=12):
    """n steps of random actions: each step's observations, rewards and flags."""
    steps = []
    for _ in range(n):
        obs, rewards, terminated, truncated, _ = vec.step(vec.sample_random_action())
        steps.append([obs, [float(r) for r in rewards], [bool(t) for t in terminated], [bool(t) for t in truncated]])
    return steps


def replay(env_id, direct):
    env = gem.make(env_id)
    vec = gem.make_vec([env_id] * 2, async_mode=True, seed=100)
    vec_first = vec.reset()[0]
    out = {"episodes": [play(env, 7, cut=2)], "reconnects": [env.reconnects]}
    out["vector"] = [vec_first, vector_steps(vec)]
    out["vector_reconnects"] = [e.reconnects for e in vec.envs]
    vec.close()
    wait_for("between")
    out["episodes"].append(play(env, 8))
    out["reconnects"].append(env.reconnects)
    env.close()
    control = gem.make(env_id, server=direct)
    out["control"] = [play(control, 7), play(control, 8)]
    control.close()
    vec = gem.make_vec([env_id] * 2, async_mode=True, seed=100, server=direct)
    out["vector_control"] = [vec.reset()[0], vector_steps(vec)]
    vec.close()
    return out


def midsample(env_id, direct):
    env = gem.make(env_id)
    control = gem.make(env_id, server=direct)
    out = {"episode": play(env, 11), "control": play(control, 11), "reconnects": env.reconnects}
    env.close()
    control.close()
    return out


def differ(env_id):
    far, off, few = gem.make(env_id), gem.make(env_id, reconnect=0), gem.make(env_id, reconnect=2)
    for env in (far, off, few):
        env.reset(seed=3)
    wait_for("refused")
    out = {"refused": error_of(lambda: few.step("\\boxed{50}")), "refused_reconnects": few.reconnects}
    wait_for("differ")
    out["first"] = error_of(lambda: far.step("\\boxed{50}"))
    out["second"] = error_of(lambda: far.step("\\boxed{50}"))
    out["far_reconnects"] = far.reconnects
    out["off"] = error_of(lambda: off.step("\\boxed{50}"))
    out["off_reconnects"] = off.reconnects
    out["again"] = error_of(lambda: few.step("\\boxed{50}"))
    out["again_reconnects"] = few.reconnects
    for env in (far, off, few):
        env.close()
    return out


mode, env_id = sys.argv[1], sys.argv[2]
if mode == "replay":
    res = replay(env_id, sys.argv[3])
elif mode == "midsample":
    res = midsample(env_id, sys.argv[3])
else:
    res = differ(env_id)
print(json.dumps(res), flush=True)
