"""GEM's README env loop and a make_vec loop, as a GEM user writes them,
with `import gem` replaced by `import gemgo as gem` (and gem.wrappers by
gemgo.wrappers in the from-import); the env loops are unchanged. The env
ids are gemgo's (GEM's "game:GuessTheNumber-v0" is gemgo's
game:GuessTheNumber-v0-hard). The server comes from GEMGO_SERVER."""

import json

import gemgo as gem
from gemgo.wrappers.wrapper_factory import get_wrapper_fns

# Initialize the environment
env = gem.make("game:GuessTheNumber-v0-hard")

# Reset the environment to generate the first observation
observation, info = env.reset()

steps = 0
# Start the agent-environment loop
while True:
    action = env.sample_random_action()  # insert policy here, e.g.,
    # (pseudocode) action = llm.generate(observation)

    # apply action and receive next observation, reward
    # and whether the episode has ended
    next_observation, reward, terminated, truncated, info = env.step(action)
    print("OBS", observation)
    print("ACT", action)
    steps += 1

    observation = next_observation
    # Exit when the episode terminates
    if terminated or truncated:
        break
single_done = terminated or truncated

# A vectorized batch, as GEM's training examples make one.
wrappers = get_wrapper_fns("concat_with_action,episode_tracking", tokenizer=None)
vec = gem.make_vec(["game:GuessTheNumber-v0-easy"] * 8, wrappers=wrappers, async_mode=True, seed=233)
obs, infos = vec.reset()
ended = 0
for _ in range(30):
    actions = [e.sample_random_action() for e in vec.envs]
    obs, rewards, terminated, truncated, infos = vec.step(actions)
    done = terminated | truncated
    ended += int(sum(done))
vec.close()
env.close()

print(json.dumps({"steps": steps, "done": bool(single_done), "vec_steps": 30, "vec_ended": ended}))
