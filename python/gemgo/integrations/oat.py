"""Oat's actor over gemgo envs: GemgoActor, the env loop of GEM's
examples/train_oat/train_oat.py written for gemgo's vector env.

Written against Oat 0.2.3 (oat.algorithms.ppo.PPOActor; oat.types.Transition
and TransitionData): Oat calls actor.init(actor_id, save_path), after which
the actor has self.args, self.tokenizer, self.sampling_params and
self.generate(prompts, sampling_params) (vLLM outputs: .prompt_token_ids,
.outputs[0].text, .token_ids, .logprobs, .finish_reason), and
self.ipc_client.serialize_ipc(data); the learner calls actor.step(...),
which returns the serialized list of TransitionData. Use it as GEM's
example uses its Actor:

    from gemgo.integrations.oat import GemgoActor
    program, resources = get_program(args, learner_cls=YourLearner, actor_cls=GemgoActor)

args needs GEM's example's fields: env_id, num_env, wrappers (names for
get_wrapper_fns), async_env, gamma, seed, rollout_batch_size_per_device
and max_model_len, plus PPOArgs' apply_chat_template and ignore_no_eos;
gemgo_server (a ws:// URL) is read when present, else GEMGO_SERVER. Env i
of actor k plays seeds from args.seed + 1000k + i on.

The loop: each step() resets the vector env, plays every env with the
policy's actions until at least rollout_batch_size_per_device transitions
of finished episodes are in (episodes still running are dropped, as in
GEM's example), and turns each episode into TransitionData with the
discounted return of each turn on the last token of its response. A prompt
longer than max_model_len is not generated: the env gets INVALID_ACTION
and the episode is dropped. The vector env autoresets (SAME_STEP), so an
env whose episode ends plays its next seed at once.
"""

import os
from copy import deepcopy

from oat.algorithms.ppo import PPOActor
from oat.types import Transition, TransitionData

from .. import make_vec
from ..wrappers import get_wrapper_fns

# What the env gets when no action was generated: a reply with no answer
# in it, which gemgo's envs score as a format error.
INVALID_ACTION = "<INVALID_ACTION>"


class GemgoActor(PPOActor):
    def init(self, actor_id, save_path):
        super().init(actor_id, save_path)
        a = self.args
        self.env = make_vec([a.env_id] * a.num_env, wrappers=get_wrapper_fns(a.wrappers, tokenizer=self.tokenizer),
                            async_mode=a.async_env, seed=a.seed + 1000 * actor_id,
                            server=getattr(a, "gemgo_server", None) or os.environ.get("GEMGO_SERVER"))

    def step(self, prompts=None, formatted_prompts=None, references=None):
        """Plays episodes and returns their TransitionData, serialized for
        the learner (the dataset's prompts are not used: the envs make
        them)."""
        del prompts, formatted_prompts, references
        episodes = self.collect_experience()
        data = [t for ep in episodes for t in self.prepare_trajectories(ep)]
        return self.ipc_client.serialize_ipc(data)

    def collect_experience(self):
        """Finished episodes (lists of Transition), at least
        rollout_batch_size_per_device transitions in all."""
        env, want = self.env, self.args.rollout_batch_size_per_device
        obs, _ = env.reset()
        running = [[] for _ in range(env.num_envs)]
        finished = []
        while sum(len(ep) for ep in finished) < want:
            actions, extras = self.agent_act(obs)
            next_obs, rewards, terminated, truncated, _ = env.step(actions)
            done = terminated | truncated
            for i in range(env.num_envs):
                x = extras[i]
                if x is None:  # nothing generated: the episode is dropped
                    running[i].clear()
                    if not done[i]:
                        next_obs[i] = env.envs[i].reset()[0]
                    continue
                running[i].append(Transition(
                    obs=obs[i], action=actions[i], rewards=float(rewards[i]), done=bool(done[i]),
                    prompt=x["prompt"], prompt_ids=x["prompt_ids"], response=x["response"],
                    response_ids=x["response_ids"], response_logprobs=x["response_logprobs"],
                    response_is_truncated=x["response_is_truncated"], action_is_formatted=True))
                if done[i]:
                    finished.append(deepcopy(running[i]))
                    running[i].clear()
            obs = next_obs
        return finished

    def format_prompt(self, observation):
        """The prompt for an observation: through the tokenizer's chat
        template as one user message when args.apply_chat_template (the
        history wrappers put the episode so far in the observation)."""
        if getattr(self.args, "apply_chat_template", False):
            return self.tokenizer.apply_chat_template(
                [{"role": "user", "content": observation}], tokenize=False, add_generation_prompt=True)
        return observation

    def agent_act(self, observations):
        """The policy's actions for a batch of observations and, for each,
        what a Transition needs (None where no action was generated)."""
        prompts = [self.format_prompt(o) for o in observations]
        lengths = [len(ids) for ids in self.tokenizer(prompts).input_ids]
        fit = [i for i, n in enumerate(lengths) if n < self.args.max_model_len]
        outputs = self.generate([prompts[i] for i in fit], self.sampling_params) if fit else []
        actions, extras = [INVALID_ACTION] * len(prompts), [None] * len(prompts)
        for i, out in zip(fit, outputs):
            gen = out.outputs[0]
            ids = list(gen.token_ids)
            logprobs = [lp[t].logprob for lp, t in zip(gen.logprobs, ids)] if gen.logprobs else [0.0] * len(ids)
            cut = gen.finish_reason == "length"  # no end of turn: not played, scored as a format error
            actions[i] = INVALID_ACTION if cut else gen.text
            extras[i] = {"prompt": prompts[i], "prompt_ids": list(out.prompt_token_ids), "response": gen.text,
                         "response_ids": ids, "response_logprobs": logprobs, "response_is_truncated": cut}
        return actions, extras

    def prepare_trajectories(self, episode):
        """TransitionData per turn: the turn's discounted return
        (args.gamma) as the reward of its response's last token."""
        out, ret = [], 0.0
        returns = [0.0] * len(episode)
        for i in reversed(range(len(episode))):
            ret = episode[i].rewards + self.args.gamma * ret
            returns[i] = ret
        for t, g in zip(episode, returns):
            dense = [0.0] * len(t.response_ids)
            if dense:
                dense[-1] = g
            out.append(TransitionData(
                prompt=t.prompt, prompt_ids=t.prompt_ids, response=t.response, response_ids=t.response_ids,
                response_logprobs=t.response_logprobs, rewards=dense,
                loss_mask=not t.response_is_truncated if getattr(self.args, "ignore_no_eos", False) else True,
                info={"actor/step_reward": t.rewards, "actor/discounted_step_return": g}))
        return out
