"""A gemgo env as a verl agent loop: GemgoAgentLoop, registered as
"gemgo_agent".

Written against verl 0.8 (0.8.0.dev, main of January 2026; its agent loop
in verl/experimental/agent_loop/agent_loop.py): verl builds one loop per sample with
AgentLoopBase.__init__(trainer_config, server_manager, tokenizer,
processor, ...), awaits run(sampling_params, **sample fields) and takes an
AgentLoopOutput (prompt_ids, response_ids, response_mask,
response_logprobs, reward_score, num_turns, metrics, extra_fields). The
loop generates with await server_manager.generate(request_id,
prompt_ids=..., sampling_params=...) (a TokenOutput: token_ids,
log_probs) and renders messages with await apply_chat_template(messages,
remove_system_prompt=...), as verl's tool agent loop does. To use it,
import this module where verl's workers import agent loops (an
agent_loop_config_path entry with _target_:
gemgo.integrations.verl.GemgoAgentLoop, or an import in your entry script)
and give the samples agent_name "gemgo_agent".

Each sample plays one episode of a gemgo env over its own server session,
all in one growing response: the env's first observation is the prompt (a
user message through the chat template); after each generation the
decoded action is stepped, and the next observation goes into the
response as a user turn with mask 0 (the tokens the model did not write),
until the episode ends or the response reaches
actor_rollout_ref.rollout.response_length. reward_score is the episode's
summed reward (the env scores the episode: no reward model is needed);
extra_fields holds the seed, the step rewards, the observations and
whether the episode ended. The seed is the sample's extra_info["seed"], else
its index (extra_info["index"]). The env id comes from the sample's
extra_info["env_id"], else GEMGO_ENV_ID (default
game:GuessTheNumber-v0-easy); the server from GEMGO_SERVER.
"""

import asyncio
import os
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopOutput, register

from .. import _conn
from ..core import RemoteEnv


@register("gemgo_agent")
class GemgoAgentLoop(AgentLoopBase):
    env_id = os.environ.get("GEMGO_ENV_ID", "game:GuessTheNumber-v0-easy")
    server = None  # None: GEMGO_SERVER, else ws://127.0.0.1:8000
    options = {}  # env options for make

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.response_length = self.config.actor_rollout_ref.rollout.response_length

    async def run(self, sampling_params, **kwargs):
        extra = dict(kwargs.get("extra_info") or {})
        env_id = extra.get("env_id", self.env_id)
        seed = extra.get("seed", extra.get("index", kwargs.get("index")))
        seed = None if seed is None else int(seed)
        # RemoteEnv's constructor waits for the server's answer: a worker
        # thread waits, not verl's event loop.
        env = await asyncio.get_running_loop().run_in_executor(
            None, lambda: RemoteEnv(env_id, server=self.server, **self.options))
        try:
            return await self._episode(env, seed, sampling_params)
        finally:
            await _conn.on_loop(env.aclose())

    async def _episode(self, env, seed, sampling_params):
        obs, _ = await _conn.on_loop(env.areset(seed))
        observations, rewards, done = [obs], [], False
        prompt_ids = await self.apply_chat_template([{"role": "user", "content": obs}])
        response_ids, mask, logprobs = [], [], []
        request_id = uuid4().hex  # one id: the same server for every turn
        turns = 1
        while len(response_ids) < self.response_length:
            out = await self.server_manager.generate(
                request_id, prompt_ids=prompt_ids + response_ids, sampling_params=sampling_params)
            ids = list(out.token_ids)
            response_ids += ids
            mask += [1] * len(ids)
            logprobs += list(out.log_probs) if out.log_probs else [0.0] * len(ids)
            turns += 1
            if len(response_ids) >= self.response_length:
                break  # cut off: the action is not played
            action = self.tokenizer.decode(ids, skip_special_tokens=True)
            obs, reward, terminated, truncated, _ = await _conn.on_loop(env.astep(action))
            observations.append(obs)
            rewards.append(reward)
            if terminated or truncated:
                done = True
                break
            user = await self.apply_chat_template([{"role": "user", "content": obs}], remove_system_prompt=True)
            response_ids += user
            mask += [0] * len(user)
            logprobs += [0.0] * len(user)
            turns += 1
        n = self.response_length
        return AgentLoopOutput(
            prompt_ids=prompt_ids,
            response_ids=response_ids[:n],
            response_mask=mask[:n],
            response_logprobs=logprobs[:n],
            reward_score=float(sum(rewards)),
            num_turns=turns,
            metrics={},
            extra_fields={"gemgo_seed": env.seed, "gemgo_rewards": rewards,
                          "gemgo_observations": observations, "gemgo_done": done},
        )
