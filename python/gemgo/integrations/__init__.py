"""Adapters for training frameworks, one module each; each says which
version of its framework it was written against and imports that
framework, so import only the one you use:

- openrlhf: AgentInstance and AgentExecutor for OpenRLHF's multi-turn agent
  training (--train.agent_func_path);
- verl: GemgoAgentLoop, a verl agent loop registered as "gemgo_agent";
- oat: GemgoActor, Oat's actor with the env loop of GEM's train_oat example;
- trl: GemgoTRLEnv and gemgo_reward for TRL's GRPOTrainer(environment_factory=...);
- rl2: RL2's async reset and step hooks.

Frameworks that take GEM's envs directly call gemgo.make and make_vec.
"""
