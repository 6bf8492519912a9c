"""Stand-in for OpenRLHF 0.11's openrlhf/utils/agent.py: AgentInstanceBase
and MultiTurnAgentExecutor, as far as gemgo.integrations.openrlhf uses
them. execute follows the documented multi-turn loop in text: reset with
{"observation": prompt, "label": label}; then generate from the text so
far, step with observation_text, action_text, label and sampling_params,
add rewards.item(), append action and environment_feedback, until done."""

from abc import ABC, abstractmethod


class AgentInstanceBase(ABC):
    @abstractmethod
    def __init__(self, *args, **kwargs):
        pass

    async def reset(self, states, **kwargs):
        return states

    @abstractmethod
    async def step(self, state_dict, **kwargs):
        raise NotImplementedError


class AgentExecutorBase(ABC):
    @abstractmethod
    async def execute(self, prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine):
        raise NotImplementedError


class MultiTurnAgentExecutor(AgentExecutorBase):
    def __init__(self, agent_instance_cls):
        assert issubclass(agent_instance_cls, AgentInstanceBase)
        self.agent_instance_cls = agent_instance_cls

    async def execute(self, prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine):
        inst = self.agent_instance_cls()
        text = (await inst.reset({"observation": prompt, "label": label}))["observation"]
        total, steps = 0.0, []
        for _ in range(max_length):  # the stand-in's bound: one step per unit of max_length
            action = await llm_engine.generate(text, sampling_params)
            res = await inst.step({"observation_text": text, "action_text": action, "label": label,
                                   "sampling_params": sampling_params})
            total += res["rewards"].item()
            steps.append(res)
            text = text + action + res["environment_feedback"]
            if res["done"]:
                break
        return {"prompt": prompt, "label": label, "reward": total, "text": text, "steps": steps}
