"""Stand-in for verl 0.8's verl/experimental/agent_loop/agent_loop.py:
AgentLoopBase, AgentLoopOutput and register, as far as
gemgo.integrations.verl uses them. The constructor keeps the config,
server manager and tokenizer; apply_chat_template renders messages with
the tokenizer's template (a system prompt first) and drops the system
prompt's tokens when asked, as verl's does."""

from types import SimpleNamespace

registry = {}


def register(name):
    def deco(cls):
        registry[name] = f"{cls.__module__}.{cls.__qualname__}"
        return cls
    return deco


class AgentLoopOutput(SimpleNamespace):
    """The fields an agent loop returns (verl's is a pydantic model)."""


class AgentLoopBase:
    def __init__(self, trainer_config, server_manager, tokenizer, processor, **kwargs):
        self.config = trainer_config.config
        self.server_manager = server_manager
        self.tokenizer = tokenizer
        self.processor = processor
        self.system_prompt = tokenizer.apply_chat_template([], add_generation_prompt=False, tokenize=True)

    async def apply_chat_template(self, messages, tools=None, images=None, videos=None, remove_system_prompt=False):
        ids = self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
        return ids[len(self.system_prompt):] if remove_system_prompt else ids

    async def run(self, sampling_params, **kwargs):
        raise NotImplementedError
