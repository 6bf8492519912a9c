"""Play a gemgo env with OpenEnv's own client, GenericEnvClient.

    pip install openenv-core
    go run ./cmd/envserver &
    python3 examples/python/openenv_client.py --url http://127.0.0.1:8000 --env game:GuessTheNumber-v0-easy

GenericEnvClient turns http into ws, keeps the base URL's path and appends /ws;
the env is chosen by the path (/e/{id}), so no gemgo code is needed on the
Python side. terminated, truncated and info are inside result.observation
(OpenEnv strips metadata from it).
"""

import argparse

from openenv.core import GenericEnvClient


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", default="http://127.0.0.1:8000")
    p.add_argument("--env", default="game:GuessTheNumber-v0-easy")
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args()
    env = GenericEnvClient(base_url=f"{args.url.rstrip('/')}/e/{args.env}").sync()
    with env:
        result = env.reset(seed=args.seed)
        print(result.observation["text"])
        lo, hi = 1, 10  # GuessTheNumber-easy: 1-10, "higher"/"lower" hints
        while not result.done:
            guess = (lo + hi) // 2
            result = env.step({"message": f"\\boxed{{{guess}}}"})
            text = result.observation["text"]
            print(f"> {guess}: {text!r} reward={result.reward}")
            if "higher" in text.lower():
                lo = guess + 1
            elif "lower" in text.lower():
                hi = guess - 1
        obs = result.observation
        print("terminated", obs["terminated"], "truncated", obs["truncated"], "success", obs["info"].get("success"))


if __name__ == "__main__":
    main()
