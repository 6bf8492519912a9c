"""Episodes played through gemgo's framework adapters (OpenRLHF, verl, Oat)
against stand-ins of the frameworks (testdata/frameworks), printed as JSON
for TestPythonAdapters (envs/remote) to replay in-process.

    python3 gemgo_adapters.py URL SEEDS ID...

The policy is a fake LLM: a character-level tokenizer, and an action picked
from a fixed list by a checksum of the text it is shown, so every run plays
the same actions. Output: {"openrlhf": [...], "verl": [...], "oat": [...],
"checks": [failures of the checks done here]}.
"""

import asyncio
import json
import os
import sys
import zlib
from types import SimpleNamespace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "frameworks"))

import gemgo as gem  # noqa: E402
from gemgo.integrations import oat as gem_oat  # noqa: E402
from gemgo.integrations import openrlhf as gem_openrlhf  # noqa: E402
from gemgo.integrations import verl as gem_verl  # noqa: E402
from verl.experimental.agent_loop.agent_loop import registry as verl_registry  # noqa: E402

ACTIONS = ["\\boxed{%d}" % k for k in range(1, 21)] + ["I do not know."]
checks = []


def check(ok, what):
    if not ok:
        checks.append(what)


def policy(text):
    return ACTIONS[zlib.crc32(text.encode("utf-8", "surrogateescape")) % len(ACTIONS)]


class CharTokenizer:
    """One token per character; the chat template writes
    <|role|>content<|end|> after a system prompt."""

    bos_token = None

    def encode(self, text):
        return [ord(c) for c in text]

    def decode(self, ids, skip_special_tokens=True):
        return "".join(chr(i) for i in ids)

    def __call__(self, texts):
        return SimpleNamespace(input_ids=[self.encode(t) for t in texts])

    def apply_chat_template(self, messages, tokenize=True, add_generation_prompt=False, **kw):
        text = "<|system|>gemgo<|end|>" + "".join(f"<|{m['role']}|>{m['content']}<|end|>" for m in messages)
        if add_generation_prompt:
            text += "<|assistant|>"
        return self.encode(text) if tokenize else text


TOK = CharTokenizer()


async def run_openrlhf(url, env_id, seeds, template="chatml"):
    class Instance(gem_openrlhf.AgentInstance):
        server = url

    Instance.env_id = env_id
    Instance.template = template

    class Executor(gem_openrlhf.MultiTurnAgentExecutor):
        def __init__(self):
            super().__init__(Instance)

    class Engine:
        def __init__(self):
            self.actions = []

        async def generate(self, text, sampling_params):
            a = policy(text)
            self.actions.append(a)
            return a

    out = []
    for seed in seeds:
        engine = Engine()
        res = await Executor().execute("(the dataset's prompt)", str(seed), None, 60, TOK, engine)
        steps = res["steps"]
        rewards = [s["rewards"].item() for s in steps]
        check(abs(res["reward"] - sum(rewards)) < 1e-12, f"openrlhf {env_id} seed {seed}: summed reward")
        prompt = res["text"][:len(res["text"]) - sum(len(a) + len(s["environment_feedback"])
                                                     for a, s in zip(engine.actions, steps))]
        out.append({"id": env_id, "seed": seed, "template": template, "prompt": prompt, "actions": engine.actions, "rewards": rewards,
                    "feedback": [s["environment_feedback"] for s in steps], "done": [s["done"] for s in steps]})
    return out


async def run_verl(url, env_id, seeds, response_length):
    class Server:
        def __init__(self):
            self.actions = []

        async def generate(self, request_id, *, prompt_ids, sampling_params, **kw):
            a = policy(TOK.decode(prompt_ids))
            self.actions.append(a)
            return SimpleNamespace(token_ids=TOK.encode(a), log_probs=None)

    cfg = SimpleNamespace(config=SimpleNamespace(actor_rollout_ref=SimpleNamespace(
        rollout=SimpleNamespace(response_length=response_length))))
    check(verl_registry.get("gemgo_agent") == "gemgo.integrations.verl.GemgoAgentLoop", "verl: registered as gemgo_agent")
    out = []
    for seed in seeds:
        server = Server()
        loop = gem_verl.GemgoAgentLoop(cfg, server, TOK, None, dataset_cls=None, dataset_config=None)
        loop.server = url
        res = await loop.run({"temperature": 1.0}, extra_info={"seed": seed, "env_id": env_id}, raw_prompt=[])
        x = res.extra_fields
        check(len(res.response_ids) == len(res.response_mask) == len(res.response_logprobs) <= response_length,
              f"verl {env_id} seed {seed}: response, mask and logprobs of one length within response_length")
        # The response is the actions (mask 1) and the user turns (mask 0).
        want, mask, played = "", [], len(x["gemgo_rewards"])
        for i, a in enumerate(server.actions):
            want += a
            mask += [1] * len(a)
            if i < played and not (x["gemgo_done"] and i == played - 1):  # a user turn follows
                u = TOK.apply_chat_template([{"role": "user", "content": x["gemgo_observations"][i + 1]}],
                                            tokenize=False, add_generation_prompt=True)[len("<|system|>gemgo<|end|>"):]
                want += u
                mask += [0] * len(u)
        check(TOK.decode(res.response_ids) == want[:response_length], f"verl {env_id} seed {seed}: response text")
        check(res.response_mask == mask[:response_length], f"verl {env_id} seed {seed}: response mask")
        check(TOK.decode(res.prompt_ids) == TOK.apply_chat_template(
            [{"role": "user", "content": x["gemgo_observations"][0]}], tokenize=False, add_generation_prompt=True),
            f"verl {env_id} seed {seed}: prompt")
        out.append({"id": env_id, "seed": x["gemgo_seed"], "actions": server.actions[:len(x["gemgo_rewards"])],
                    "observations": x["gemgo_observations"], "rewards": x["gemgo_rewards"],
                    "done": x["gemgo_done"], "reward_score": res.reward_score, "response_length": response_length})
    return out


class Recorder(gem.EnvWrapper):
    """What the env played, episode by episode, with its seed."""

    def __init__(self, env):
        super().__init__(env)
        self.episodes = []

    def _after_reset(self, obs, info):
        self.episodes.append({"seed": self.unwrapped.seed, "obs": [obs], "actions": [], "rewards": [], "done": []})
        return obs, info

    def _after_step(self, action, result):
        ep = self.episodes[-1]
        ep["obs"].append(result[0])
        ep["actions"].append(action)
        ep["rewards"].append(result[1])
        ep["done"].append(bool(result[2] or result[3]))
        return result


def run_oat(url, env_id, gamma):
    args = SimpleNamespace(env_id=env_id, num_env=3, wrappers="concat_with_action", async_env=True, gamma=gamma,
                           seed=5, rollout_batch_size_per_device=20, max_model_len=10 ** 6,
                           apply_chat_template=False, ignore_no_eos=False, generate_max_length=64, gemgo_server=url)

    def llm(prompt, sampling_params):
        a = policy(prompt)
        return SimpleNamespace(prompt_token_ids=TOK.encode(prompt), outputs=[SimpleNamespace(
            text=a, token_ids=TOK.encode(a), logprobs=None, finish_reason="stop")])

    actor = gem_oat.GemgoActor(args, TOK, llm)
    actor.init(0, "/nonexistent")
    actor.env.envs = [Recorder(e) for e in actor.env.envs]
    episodes = actor.collect_experience()
    check(sum(len(ep) for ep in episodes) >= 20, f"oat {env_id}: at least rollout_batch_size_per_device transitions")
    recorded = [ep for r in actor.env.envs for ep in r.episodes]
    out = []
    for ep in episodes:
        # The episode's seed: one the envs played with these observations,
        # actions, rewards and flags (seeds may share a transcript: each is
        # matched once).
        key = ([t.obs for t in ep], [t.action for t in ep], [t.rewards for t in ep], [t.done for t in ep])
        match = [r for r in recorded if (r["obs"][:-1], r["actions"], r["rewards"], r["done"]) == key]
        check(len(match) > 0, f"oat {env_id}: an episode the envs did not play")
        if not match:
            continue
        recorded.remove(match[0])
        data = actor.prepare_trajectories(ep)
        out.append({"id": env_id, "seed": match[0]["seed"], "obs": key[0], "actions": key[1], "rewards": key[2],
                    "done": key[3], "returns": [d.rewards[-1] for d in data], "gamma": gamma})
    handle = actor.step()
    check(len(handle) >= 20 and all(type(d).__name__ == "TransitionData" for d in handle),
          f"oat {env_id}: step returns TransitionData")
    actor.env.close()
    return out


async def main_async(url, seeds, ids):
    out = {"openrlhf": [], "verl": [], "oat": [], "checks": checks}
    for env_id in ids:
        out["openrlhf"] += await run_openrlhf(url, env_id, seeds)
        out["openrlhf"] += await run_openrlhf(url, env_id, seeds[:2], "plain")
        out["verl"] += await run_verl(url, env_id, seeds, 10 ** 6)
        out["verl"] += await run_verl(url, env_id, seeds[:2], 40)  # cut off by response_length
    return out


def main():
    url, n, ids = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    out = asyncio.run(main_async(url, list(range(n)), ids))
    for env_id in ids:
        out["oat"] += run_oat(url, env_id, 0.5)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
