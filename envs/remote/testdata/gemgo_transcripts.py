"""Random play through the gemgo Python package, printed as JSON for
TestPythonPackageMatchesInProcess (envs/remote) to replay in-process.

    python3 gemgo_transcripts.py URL SEEDS ID...

Every id is played in each mode of MODES (a server-side history, or a
wrapper that asks for one) for seeds 0..SEEDS-1; the vector env plays the
first id with partial steps, sync and async. Output: {"single": [...],
"vector": {...}, "checks": [failures of the checks done here]}.
"""

import json
import sys

import gemgo as gem

# (label, make's keywords, wrapper names): the Go test maps each label to
# envbuild.Config's History and HistoryKeep.
MODES = [
    ("none", {}, ""),
    ("observations", {"history": "observations"}, ""),
    ("actions", {"history": "actions"}, ""),
    ("actions:2", {"history": "actions", "history_keep": 2}, ""),
    ("observations", {}, "concat"),
    ("actions", {}, "concat_with_action"),
    ("actions:2", {}, "concat_with_action:2"),
]

checks = []


def check(ok, what):
    if not ok:
        checks.append(what)


def wrap(env, names):
    if names == "concat_with_action:2":
        return gem.ObservationWrapper(env, include_action=True, include_chat_template=False, max_history_length=2)
    for w in gem.get_wrapper_fns(names):
        env = w(env)
    return env


def play(env, seed, limit=60):
    obs, _ = env.reset(seed=seed)
    turns = [{"obs": obs}]
    for _ in range(limit):
        a = env.sample_random_action()
        obs, reward, terminated, truncated, _ = env.step(a)
        turns.append({"action": a, "obs": obs, "reward": reward, "terminated": terminated, "truncated": truncated})
        if terminated or truncated:
            break
    return turns


def vector_run(url, env_id, async_mode, n=4, steps=40):
    """Plays n envs of env_id, stepping a rotating subset, and returns the
    raw step results and each env's episodes as they ended."""
    vec = gem.make_vec([env_id] * n, wrappers=gem.get_wrapper_fns("concat_with_action,episode_tracking"),
                       async_mode=async_mode, seed=100, server=url)
    obs, _ = vec.reset()
    episodes = [[{"seed": e.unwrapped.seed, "turns": [{"obs": o}]}] for e, o in zip(vec.envs, obs)]
    log = []
    for k in range(steps):
        idx = [i for i in range(n) if (i + k) % 3 != 0]  # some envs wait each step
        acts = {i: vec.envs[i].sample_random_action() for i in idx}
        obs, rewards, terms, truncs, infos = vec.step(acts)
        done_all = terms | truncs  # GEM's idiom, on numpy arrays or FlagLists
        rewards, terms, truncs = [float(r) for r in rewards], [bool(x) for x in terms], [bool(x) for x in truncs]
        check([bool(x) for x in done_all] == [a or b for a, b in zip(terms, truncs)], "vector: terminated | truncated")
        log.append({"idx": idx, "obs": obs, "rewards": rewards, "terminated": terms,
                    "truncated": truncs, "infos": infos})
        for j, i in enumerate(idx):
            done = terms[j] or truncs[j]
            ep = episodes[i][-1]
            final = infos[j]["final_obs"] if done else obs[j]
            ep["turns"].append({"action": acts[i], "obs": final, "reward": rewards[j],
                                "terminated": terms[j], "truncated": truncs[j]})
            check(("final_obs" in infos[j]) == done, f"{env_id} step {k} env {i}: final_obs iff done")
            if done:
                check(infos[j]["final_info"]["step_counter"] == len(ep["turns"]) - 1,
                      f"{env_id} step {k} env {i}: episode_tracking counts the finished episode")
                episodes[i].append({"seed": vec.envs[i].unwrapped.seed, "turns": [{"obs": obs[j]}]})
    vec.close()
    return log, episodes


class FakeTokenizer:
    """A chat template that writes each message as <role>content</role>,
    with the generation prompt <assistant> at the end."""

    def apply_chat_template(self, messages, tokenize=True, add_generation_prompt=False):
        check(tokenize is False and add_generation_prompt is True, "concat_chat: template arguments")
        text = "".join(f"<{m['role']}>{m['content']}</{m['role']}>" for m in messages)
        return text + ("<assistant>" if add_generation_prompt else "")


def chat_check(url, env_id):
    """concat_chat with a tokenizer renders the raw turns as chat messages,
    and keeps the first and the last max_history_length turns."""
    plain = gem.make(env_id, server=url)
    turns = play(plain, 3, limit=4)
    for keep in (None, 1):
        env = gem.ObservationWrapper(gem.make(env_id, server=url), tokenizer=FakeTokenizer(), max_history_length=keep)
        obs, _ = env.reset(seed=3)
        msgs = [("user", turns[0]["obs"])]
        check(obs == f"<user>{turns[0]['obs']}</user><assistant>", "concat_chat: reset")
        for t in turns[1:]:
            obs, *_ = env.step(t["action"])
            msgs += [("assistant", t["action"]), ("user", t["obs"])]
            shown = msgs if keep is None or len(msgs) <= 1 + 2 * keep else msgs[:1] + msgs[-2 * keep:]
            want = "".join(f"<{r}>{c}</{r}>" for r, c in shown) + "<assistant>"
            check(obs == want, f"concat_chat keep={keep}: step {len(msgs) // 2}")
        env.close()
    plain.close()


def main():
    url, seeds, ids = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    out = {"single": [], "checks": checks}
    for env_id in ids:
        for label, kw, wrappers in MODES:
            env = wrap(gem.make(env_id, server=url, **kw), wrappers)
            out["single"].append({"id": env_id, "mode": label, "wrappers": wrappers,
                                  "episodes": [play(env, s) for s in range(seeds)]})
            env.close()
    chat_check(url, ids[0])
    sync_log, sync_eps = vector_run(url, ids[0], False)
    async_log, async_eps = vector_run(url, ids[0], True)
    check(json.dumps(sync_log) == json.dumps(async_log), "vector: sync and async transcripts differ")
    out["vector"] = {"id": ids[0], "mode": "actions", "sync": sync_eps, "async": async_eps,
                     "ended": sum(t for s in sync_log for t in s["terminated"]) +
                     sum(t for s in sync_log for t in s["truncated"])}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
