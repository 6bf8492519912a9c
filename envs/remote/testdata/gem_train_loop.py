"""The env loops of a GEM training script, written against GEM's documented
API as GEM's training examples use it (examples/train_oat): a vectorized
collection loop (make_vec with vec_kwargs seeds and get_wrapper_fns,
SAME_STEP autoreset, done = terminated | truncated on numpy arrays) and an
evaluation loop that resets each env to a dataset item with
reset(**{"env{j}_kwargs": {"idx": ...}}) and steps only the envs still
playing with a dict of indices. `import gem` is replaced by
`import gemgo as gem` and gem.wrappers by gemgo.wrappers; the loops are
unchanged. The env ids are gemgo's; the server comes from GEMGO_SERVER. A
random action stands in for the LLM's. Needs numpy, as GEM does.

Prints one JSON line: the collection's counts, and each evaluation
episode's transitions for TestPythonPackageRunsGEMTrainLoop to replay.
"""

import json

import numpy as np

import gemgo as gem
from gemgo.wrappers.wrapper_factory import get_wrapper_fns


def collect(env_id, num_env, seed, min_steps, wrappers):
    env = gem.make_vec(
        [env_id] * num_env,
        vec_kwargs=[{"seed": seed + j} for j in range(num_env)],
        wrappers=get_wrapper_fns(wrappers, tokenizer=None),
        async_mode=True,
    )
    obs, _ = env.reset()
    episodes = [[] for _ in range(env.num_envs)]
    finished_episodes = []
    while True:
        action = [e.sample_random_action() for e in env.envs]  # the policy's actions
        next_obs, reward, terminated, truncated, info = env.step(action)
        done = terminated | truncated
        for i in range(env.num_envs):
            episodes[i].append({"obs": obs[i], "action": action[i], "reward": float(reward[i]), "done": bool(done[i])})
            if done[i]:
                finished_episodes.append(episodes[i])
                episodes[i] = []
        obs = next_obs
        if sum(len(ep) for ep in finished_episodes) >= min_steps:
            break
    env.close()
    return finished_episodes


def evaluate(env_id, wrappers, n_items, batch_size):
    vec_env = gem.make_vec([env_id] * batch_size, wrappers=get_wrapper_fns(wrappers, tokenizer=None), async_mode=False)
    finished_episodes = []
    for i in range(0, n_items, batch_size):
        n_parallel = min(batch_size, n_items - i)
        _kwargs_map = {f"env{j}_kwargs": {"idx": i + j} for j in range(n_parallel)}
        obs, info = vec_env.reset(**_kwargs_map)
        obs, info = obs[:n_parallel], info[:n_parallel]
        episodes = [[] for _ in range(len(obs))]
        done = np.array([False] * n_parallel)
        while not all(done):
            action = [vec_env.envs[k].sample_random_action() for k, d in enumerate(done) if not d]
            action_iter = iter(action)
            next_obs, reward, terminated, truncated, info = vec_env.step(
                {k: next(action_iter) for k, d in enumerate(done) if not d}
            )
            cur_done = terminated | truncated
            iter_idx = 0
            for k in range(len(done)):
                if not done[k]:
                    episodes[k].append({
                        "obs": obs[iter_idx],
                        "action": action[iter_idx],
                        "reward": float(reward[iter_idx]),
                        "next_obs": next_obs[iter_idx],
                        "done": bool(cur_done[iter_idx]),
                    })
                    iter_idx += 1
            done[~done] = cur_done
            obs = [o for o, d in zip(next_obs, cur_done) if not d]
        for j, ep in enumerate(episodes):
            finished_episodes.append({"idx": i + j, "transitions": ep})
    vec_env.close()
    return finished_episodes


collected = collect("game:GuessTheNumber-v0-easy", 4, 233, 40, "concat_with_action,episode_tracking")
evals = []
for env_id, wrappers in [("math:Arithmetic-v0", ""), ("game:GuessTheNumber-v0-easy", "concat_with_action")]:
    for ep in evaluate(env_id, wrappers, 10, 4):
        evals.append({"id": env_id, "wrappers": wrappers, **ep})
print(json.dumps({
    "collected_episodes": len(collected),
    "collected_steps": sum(len(ep) for ep in collected),
    "collected_last_done": all(ep[-1]["done"] and not any(t["done"] for t in ep[:-1]) for ep in collected),
    "evals": evals,
}))
