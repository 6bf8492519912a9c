"""Env steps per second that one Python process drives through the gemgo
package: N sessions in one make_vec(async_mode=True), every env stepped on
each call, episodes autoreset as they end.

    go run ./cmd/envserver -addr 127.0.0.1:8000 &
    PYTHONPATH=python python3 examples/python/gemgo_throughput.py --envs 64 --seconds 10

Prints one JSON object: envs, steps, seconds, steps_per_s (env steps, not
counting the resets of autoreset).
"""

import argparse
import json
import sys
import time

import gemgo as gem


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", default=None, help="default: GEMGO_SERVER, else ws://127.0.0.1:8000")
    p.add_argument("--env", default="game:GuessTheNumber-v0-hard")
    p.add_argument("--envs", type=int, default=64)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--sync", action="store_true", help="step the envs one after the other")
    args = p.parse_args()
    vec = gem.make_vec([args.env] * args.envs, async_mode=not args.sync, server=args.server)
    vec.reset(seed=0)
    guesses = ["\\boxed{%d}" % g for g in (50, 25, 75, 12, 37, 62, 88, 6, 18, 31)]
    steps, k = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        vec.step([guesses[(k + i) % len(guesses)] for i in range(args.envs)])
        steps += args.envs
        k += 1
    elapsed = time.perf_counter() - start
    vec.close()
    json.dump({"env": args.env, "envs": args.envs, "async": not args.sync, "steps": steps,
               "seconds": round(elapsed, 2), "steps_per_s": round(steps / elapsed)}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
