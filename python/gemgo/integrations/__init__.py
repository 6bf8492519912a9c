"""Shims for training frameworks that do not take GEM's envs directly:
trl (TRL's GRPOTrainer environment_factory) and rl2 (RL2's async env
hooks). Each module says which interface it was written against."""
