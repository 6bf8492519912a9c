"""The package's env across servers that go away, for the reconnect tests
of envs/remote (pyreconnect_test.go). GEMGO_SERVER is a proxy that the
test points at another server while this script waits.

    python3 gemgo_reconnect.py replay ID DIRECT_URL
    python3 gemgo_reconnect.py differ ID

The script prints a line naming a point ("cut", "between", ...) where the
test is to stop a server, waits for a line on its standard input, then
goes on; its last line is the JSON result.

replay: random play of seed 7, the server stopped after two steps, then
seed 8, the server stopped between the episodes; the same two episodes
played again at DIRECT_URL with no server stopped (the control); the
number of reconnects after each episode.

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


def replay(env_id, direct):
    env = gem.make(env_id)
    out = {"episodes": [play(env, 7, cut=2)], "reconnects": [env.reconnects]}
    wait_for("between")
    out["episodes"].append(play(env, 8))
    out["reconnects"].append(env.reconnects)
    env.close()
    control = gem.make(env_id, server=direct)
    out["control"] = [play(control, 7), play(control, 8)]
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
res = replay(env_id, sys.argv[3]) if mode == "replay" else differ(env_id)
print(json.dumps(res), flush=True)
