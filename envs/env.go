package envs

import "math/rand/v2"

// Info carries extra, env-specific facts about a reset or a step. Keys that
// every env and wrapper agrees on are the Info* constants below.
type Info map[string]any

// Well-known Info keys.
const (
	// InfoSuccess (bool) is set on the step that ends an episode: true when
	// the task was solved.
	InfoSuccess = "success"
	// InfoFormatError (bool) is true on a step whose action could not be parsed.
	InfoFormatError = "format_error"
	// InfoInvalid (bool) is true on a step whose action parsed but was not a
	// legal move (the episode goes on).
	InfoInvalid = "invalid_move"
	// InfoTurn (int) is the number of turns taken so far in the episode.
	InfoTurn = "turn"
	// InfoMaxTurns (int) is the env's turn limit, set by Reset of every env
	// (1 for single-turn tasks): an episode ends within this many steps.
	InfoMaxTurns = "max_turns"
	// InfoToolUses (int) counts the tool calls of the episode so far, on
	// the steps of a tool-wrapped env (package tools).
	InfoToolUses = "tool_uses"
)

// Step is the result of one Env.Step call.
//
// Terminated means the task itself ended (solved, failed, format error);
// Truncated means a limit outside the task ended it (the turn limit). The two
// are never merged: a learner bootstraps from the value of the next state
// after a truncation and not after a termination.
type Step struct {
	Obs        string
	Reward     float64
	Terminated bool
	Truncated  bool
	Info       Info
}

// Done reports whether the episode ended on this step.
func (s Step) Done() bool { return s.Terminated || s.Truncated }

// Env is a text environment: the observation and the action are strings.
//
// Reset starts a new episode. The episode is a pure function of seed and the
// actions that follow: the same seed and actions give the same observations
// and rewards, always. Step must not be called before Reset or after a step
// that returned Terminated or Truncated (it returns an error then). An action
// that cannot be parsed is not an error: it is a format error, reported in
// the Step (reward and termination by the env's rules). Step returns an error
// only for misuse or for a failure outside the episode (a crashed tool
// process, say).
//
// An Env is not safe for concurrent use: it holds one episode, and Reset
// and Step must not be called from two goroutines at once (a board or a
// turn counter would be torn, and some envs panic). To play in parallel,
// make one Env per goroutine from the same factory (Registry.Make): envs of
// one factory share no mutable state, which envtest.CheckEnv checks, and
// VectorEnv relies on.
type Env interface {
	Reset(seed uint64) (obs string, info Info, err error)
	Step(action string) (Step, error)
}

// ActionSampler is implemented by envs that can draw a random valid action.
// The action always parses (it may still be an illegal move).
type ActionSampler interface {
	SampleAction(r *rand.Rand) string
}

// SolverMaker is implemented by envs that have a solver (every built-in
// game but Game2048): NewSolver returns the solver of the episode the env
// was last reset to. Make one per episode, after Reset; the solver may
// read the env's state (the answer, the board) as the episode goes, so it
// is a ceiling on score rather than a fair player. Find it with SolverOf.
type SolverMaker interface {
	NewSolver() Solver
}

// Solver plays one episode of the env it was made for: Act answers each
// observation with the next action, or fails when it has none (a room
// with no solution within the turns left, say).
type Solver interface {
	Act(obs string) (string, error)
}

// FormatErrorRewarder is implemented by envs whose format-error reward is
// not RewardFormatError (a task family configured with no penalty, say).
type FormatErrorRewarder interface {
	FormatErrorReward() float64
}

// Describer is implemented by envs that describe themselves in one line
// (shown by `play -list`).
type Describer interface {
	Description() string
}
