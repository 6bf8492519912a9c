"""Stand-in for Oat 0.2.3's PPOActor (oat/actors/base.py's ActorBase), as
far as gemgo.integrations.oat uses it: init sets sampling_params; the
actor has args, tokenizer, generate(prompts, sampling_params) returning
vLLM-shaped outputs, and ipc_client.serialize_ipc. The test gives the
actor its args, tokenizer and an llm (generate's backend)."""

from types import SimpleNamespace


class _IPC:
    def serialize_ipc(self, data):
        return data


class PPOActor:
    def __init__(self, args, tokenizer, llm):
        self.args = args
        self.tokenizer = tokenizer
        self.llm = llm
        self.eval_mode = False

    def init(self, actor_id, save_path):
        self.actor_id = actor_id
        self.save_path = save_path
        self.ipc_client = _IPC()
        self.sampling_params = SimpleNamespace(temperature=1.0, max_tokens=self.args.generate_max_length)

    def generate(self, prompts, sampling_params):
        return [self.llm(p, sampling_params) for p in prompts]
