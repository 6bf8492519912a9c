"""Bad input to the package: each case prints the exception's type and
message, for TestPythonPackageErrors."""

import json
import sys

import gemgo as gem

cases = {
    "unknown_id": lambda: gem.make("game:GuessTheNumbr-v0-easy"),
    "bad_history": lambda: gem.make("game:GuessTheNumber-v0-easy", history="all"),
    "bad_reconnect": lambda: gem.make("game:GuessTheNumber-v0-easy", reconnect="5"),
    "bad_option": lambda: gem.make("game:GuessTheNumber-v0-easy", max_turns=-3),
    "bad_wrapper": lambda: gem.get_wrapper_fns("concat,python_tool"),
    "unknown_wrapper": lambda: gem.get_wrapper_fns("concat_all"),
    "bad_server": lambda: gem.make("game:GuessTheNumber-v0-easy", server="tcp://127.0.0.1:1"),
    "step_before_reset": lambda: gem.make("game:GuessTheNumber-v0-easy").step("\\boxed{3}"),
    "bad_action": lambda: gem.make("game:GuessTheNumber-v0-easy").step(3),
    "vec_short": lambda: gem.make_vec(["game:GuessTheNumber-v0-easy"] * 2).step(["\\boxed{3}"]),
    "bad_idx": lambda: gem.make("math:Arithmetic-v0").reset(idx=-1),
    "vec_reset_kw": lambda: gem.make_vec(["math:Arithmetic-v0"] * 2).reset(env2_kwargs={"idx": 1}),
}
out = {}
for name, f in cases.items():
    try:
        f()
        out[name] = "no error"
    except Exception as e:
        out[name] = f"{type(e).__name__}: {e}"
json.dump(out, sys.stdout)
