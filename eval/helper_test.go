package eval_test

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/gemgo/gemgo/chat"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/eval"
)

// slowRandom is the random player, delay per action.
type slowRandom struct{ delay time.Duration }

func (s slowRandom) NewEpisode(id string, env envs.Env) (eval.Actor, error) {
	a, err := eval.Random{}.NewEpisode(id, env)
	return slowActor{a, s.delay}, err
}

type slowActor struct {
	a     eval.Actor
	delay time.Duration
}

func (s slowActor) Act(ctx context.Context, msgs []chat.Message, rng *rand.Rand) (eval.Turn, error) {
	time.Sleep(s.delay)
	return s.a.Act(ctx, msgs, rng)
}

func helperCommand(t *testing.T, dir string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillHelper$")
	cmd.Env = append(os.Environ(), "GEMGO_EVAL_KILL_DIR="+dir)
	return cmd
}
