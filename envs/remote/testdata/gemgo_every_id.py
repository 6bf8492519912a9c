"""Random play of many env ids through the gemgo Python package, for
TestPythonPackageEveryID (envs/remote) to replay in-process.

    python3 gemgo_every_id.py SPEC.json > transcripts.jsonl

SPEC.json: {"server": URL, "jobs": [{"id": ID, "options": {...},
"mode": "none"|"observations"|"actions", "seeds": N}, ...]}. A job plays
its id with make's history=mode for seeds 0..N-1, each action drawn by
sample_random_action, at most MAX_STEPS steps an episode. Jobs run on
WORKERS threads, each with its own session (the package's event loop
serves them all), and each prints one JSON line as it ends: {"id", "mode",
"episodes": [[turn, ...], ...]}, the first turn of an episode holding only
the reset observation, or {"id", "mode", "error"} if it failed.
"""

import json
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed

import gemgo as gem

MAX_STEPS = 60
WORKERS = 8


def play(env, seed):
    obs, _ = env.reset(seed=seed)
    turns = [{"obs": obs}]
    for _ in range(MAX_STEPS):
        a = env.sample_random_action()
        obs, reward, terminated, truncated, _ = env.step(a)
        turns.append({"action": a, "obs": obs, "reward": reward,
                      "terminated": terminated, "truncated": truncated})
        if terminated or truncated:
            break
    return turns


def run_job(server, job):
    head = {"id": job["id"], "mode": job["mode"]}
    try:
        with gem.make(job["id"], server=server, history=job["mode"], **job.get("options", {})) as env:
            return json.dumps({**head, "episodes": [play(env, s) for s in range(job["seeds"])]})
    except Exception as e:  # reported to the Go test, which names the id
        return json.dumps({**head, "error": f"{type(e).__name__}: {e}"})


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    with ThreadPoolExecutor(WORKERS) as pool:
        futures = [pool.submit(run_job, spec["server"], job) for job in spec["jobs"]]
        for fut in as_completed(futures):
            sys.stdout.write(fut.result() + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
