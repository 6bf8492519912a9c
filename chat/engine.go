package chat

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gemgo/gemgo/policy"
)

// EngineConfig sizes an Engine. Zero values mean the defaults.
type EngineConfig struct {
	Name     string   // the model's name in responses; default "gemgo"
	Settings Settings // how the checkpoint reads and answers (CheckpointSettings)
	Queue    int      // requests waiting at most, beyond which Complete answers ErrQueueFull; default 256
	MaxBatch int      // rows (prompts × n) per sampler call at most; default 64
	MaxN     int      // choices per request at most; default 16
	Seed     uint64   // seeds the sampling of requests without a seed
}

// Engine runs a checkpoint as a Model. One goroutine owns the KV-cache
// sampler: it takes every request waiting in the queue (up to MaxBatch
// rows), and samples all requests with the same sampling settings in one
// call of policy.Sampler.SampleEach, each row with its own rng, so a
// request's answer does not depend on what it was batched with. A request
// that finds the queue full fails at once with ErrQueueFull.
type Engine struct {
	cfg     EngineConfig
	tok     *policy.Tokenizer
	sampler *policy.Sampler
	context int

	queue chan *job
	done  chan struct{}
	wg    sync.WaitGroup
	mu    sync.RWMutex // guards closed against sends to queue
	close bool

	seedMu  sync.Mutex
	seedRNG *rand.Rand
	nextID  atomic.Uint64

	// Batches counts sampler calls (for tests and benchmarks).
	Batches atomic.Int64
}

var _ Model = (*Engine)(nil)

type job struct {
	ctx     context.Context
	prompt  []int
	sc      policy.SampleConfig
	rngs    []*rand.Rand // one per choice; nil when greedy
	n       int
	stop    []string
	samples []policy.Sample
	err     error
	reply   chan struct{}
}

// NewEngine starts an engine over ck's policy. Close stops it.
func NewEngine(ck *policy.Checkpoint, cfg EngineConfig) (*Engine, error) {
	if ck == nil || ck.Policy == nil || ck.Tokenizer == nil {
		return nil, fmt.Errorf("chat engine: the checkpoint has no policy or tokenizer")
	}
	if err := cfg.Settings.Format.Validate(); err != nil {
		return nil, fmt.Errorf("chat engine: %w", err)
	}
	c := ck.Policy.Config
	if cfg.Name == "" {
		cfg.Name = "gemgo"
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 256
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = 64
	}
	if cfg.MaxN <= 0 {
		cfg.MaxN = 16
	}
	if cfg.Settings.MaxTokens <= 0 || cfg.Settings.MaxTokens > c.Context-2 {
		cfg.Settings.MaxTokens = min(8, c.Context-2)
	}
	e := &Engine{
		cfg: cfg, tok: ck.Tokenizer, sampler: policy.NewSampler(ck.Policy), context: c.Context,
		queue: make(chan *job, cfg.Queue), done: make(chan struct{}),
		seedRNG: rand.New(rand.NewPCG(cfg.Seed, 0x656e67696e65)),
	}
	// The engine never changes its weights, and reports no log-probs.
	e.sampler.Freeze()
	e.wg.Add(1)
	go e.loop()
	return e, nil
}

// Name is the model name the engine answers as.
func (e *Engine) Name() string { return e.cfg.Name }

// Settings are the engine's checkpoint settings (defaults filled in).
func (e *Engine) Settings() Settings { return e.cfg.Settings }

// Close stops the engine: waiting and later requests fail with ErrClosed.
// It waits for the batch in progress.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.close {
		e.mu.Unlock()
		return nil
	}
	e.close = true
	close(e.done)
	e.mu.Unlock()
	e.wg.Wait()
	for {
		select {
		case j := <-e.queue:
			j.err = ErrClosed
			close(j.reply)
		default:
			return nil
		}
	}
}

// Complete answers req. The conversation is rendered with the checkpoint's
// Format; a prompt longer than the context keeps BOS and its end.
func (e *Engine) Complete(ctx context.Context, req Request) (Response, error) {
	if e.QueueFull() { // before the work of rendering and tokenizing
		return Response{}, ErrQueueFull
	}
	j, err := e.prepare(ctx, req)
	if err != nil {
		return Response{}, err
	}
	e.mu.RLock()
	if e.close {
		e.mu.RUnlock()
		return Response{}, ErrClosed
	}
	select {
	case e.queue <- j:
	default:
		e.mu.RUnlock()
		return Response{}, ErrQueueFull
	}
	e.mu.RUnlock()
	select {
	case <-j.reply:
	case <-ctx.Done():
		return Response{}, ctx.Err()
	}
	if j.err != nil {
		return Response{}, j.err
	}
	resp := Response{ID: fmt.Sprintf("chatcmpl-gemgo-%d", e.nextID.Add(1)), Model: e.cfg.Name}
	resp.Usage.PromptTokens = len(j.prompt)
	for i, s := range j.samples {
		text := e.tok.Decode(s.Tokens)
		finish := FinishLength
		if s.Stopped {
			finish = FinishStop
		}
		if k := firstStop(text, j.stop); k >= 0 {
			text, finish = text[:k], FinishStop
		}
		resp.Choices = append(resp.Choices, Choice{Index: i, Text: text, FinishReason: finish})
		resp.Usage.CompletionTokens += len(s.Tokens)
	}
	resp.Usage.TotalTokens = resp.Usage.PromptTokens + resp.Usage.CompletionTokens
	return resp, nil
}

// QueueFull reports whether Complete would now answer ErrQueueFull: a
// server asks before it reads a request's body.
func (e *Engine) QueueFull() bool { return len(e.queue) >= cap(e.queue) }

// firstStop is the index of the earliest stop string in text, or −1.
func firstStop(text string, stop []string) int {
	best := -1
	for _, s := range stop {
		if s == "" {
			continue
		}
		if k := strings.Index(text, s); k >= 0 && (best < 0 || k < best) {
			best = k
		}
	}
	return best
}

// prepare validates req and builds its job.
func (e *Engine) prepare(ctx context.Context, req Request) (*job, error) {
	if req.Model != "" && req.Model != e.cfg.Name {
		return nil, &InvalidError{Param: "model", Msg: fmt.Sprintf("model %q is not served here; this server serves %q", req.Model, e.cfg.Name)}
	}
	obs, err := e.cfg.Settings.Format.Render(req.Messages)
	if err != nil {
		return nil, err
	}
	n := req.N
	if n == 0 {
		n = 1
	}
	if n < 1 || n > e.cfg.MaxN {
		return nil, invalid("n", "%d: allowed [1, %d]", req.N, e.cfg.MaxN)
	}
	maxTok := e.cfg.Settings.MaxTokens
	if req.MaxTokens != 0 {
		if req.MaxTokens < 1 || req.MaxTokens > e.context-2 {
			return nil, invalid("max_completion_tokens", "%d: allowed [1, %d] (the model's context is %d tokens)", req.MaxTokens, e.context-2, e.context)
		}
		maxTok = req.MaxTokens
	}
	if len(req.Stop) > 4 {
		return nil, invalid("stop", "%d stop strings: at most 4", len(req.Stop))
	}
	// Without a temperature, a request samples at the training run's.
	sc := policy.SampleConfig{MaxNewTokens: maxTok, EOS: e.tok.EOS(), Temperature: e.cfg.Settings.Temperature, NoLogProbs: true}
	if sc.Temperature == 0 {
		sc.Temperature = 1
	}
	if t := req.Temperature; t != nil {
		if math.IsNaN(*t) || *t < 0 || *t > 2 {
			return nil, invalid("temperature", "%v: allowed [0, 2] (0: greedy)", *t)
		}
		if *t == 0 {
			sc.Greedy = true
		} else {
			sc.Temperature = *t
		}
	}
	if p := req.TopP; p != nil {
		if math.IsNaN(*p) || *p <= 0 || *p > 1 {
			return nil, invalid("top_p", "%v: allowed (0, 1]", *p)
		}
		if *p < 1 {
			sc.TopP = *p
		}
	}
	prompt := e.tok.EncodePromptCut(obs, e.context-maxTok) // tokenizes only what the cut keeps
	j := &job{ctx: ctx, prompt: prompt, sc: sc, n: n, stop: req.Stop, reply: make(chan struct{})}
	if !sc.Greedy {
		j.rngs = make([]*rand.Rand, n)
		var base uint64
		if req.Seed != nil {
			base = uint64(*req.Seed)
		} else {
			e.seedMu.Lock()
			base = e.seedRNG.Uint64()
			e.seedMu.Unlock()
		}
		for i := range j.rngs {
			j.rngs[i] = rand.New(rand.NewPCG(base, uint64(i)))
		}
	}
	return j, nil
}

// loop owns the sampler: it batches the waiting jobs until Close.
func (e *Engine) loop() {
	defer e.wg.Done()
	for {
		var batch []*job
		select {
		case <-e.done:
			return
		case j := <-e.queue:
			batch = append(batch, j)
		}
		rows := batch[0].n
	drain:
		for rows < e.cfg.MaxBatch {
			select {
			case j := <-e.queue:
				batch = append(batch, j)
				rows += j.n
			default:
				break drain
			}
		}
		e.run(batch)
	}
}

// run samples a batch: one sampler call per distinct sampling config.
func (e *Engine) run(batch []*job) {
	groups := map[policy.SampleConfig][]*job{}
	var order []policy.SampleConfig
	for _, j := range batch {
		if j.ctx.Err() != nil { // the caller has gone
			j.err = j.ctx.Err()
			close(j.reply)
			continue
		}
		if _, ok := groups[j.sc]; !ok {
			order = append(order, j.sc)
		}
		groups[j.sc] = append(groups[j.sc], j)
	}
	for _, sc := range order {
		jobs := groups[sc]
		var prompts [][]int
		var rngs []*rand.Rand
		for _, j := range jobs {
			for i := 0; i < j.n; i++ {
				prompts = append(prompts, j.prompt)
			}
			rngs = append(rngs, j.rngs...)
		}
		if sc.Greedy {
			rngs = nil
		}
		e.Batches.Add(1)
		out, err := e.sampler.SampleEach(prompts, sc, rngs)
		k := 0
		for _, j := range jobs {
			if err != nil {
				j.err = fmt.Errorf("chat engine: %w", err)
			} else {
				j.samples = out[k : k+j.n]
			}
			k += j.n
			close(j.reply)
		}
	}
}
