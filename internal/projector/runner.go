package projector

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/engine"
	"tenger/internal/matching"
)

// Runner writes the engine's durable batches behind it, in order, on its
// own goroutine: the engine hands each batch to Enqueue and answers its
// commands without waiting for the store. A batch that fails to write is
// retried (with a growing pause) until it is written: none is ever
// skipped. After a batch is in the store, the hooks run (market data) and
// its sequence number becomes the projected watermark, which WaitProjected
// waits for (read-your-writes for callers that need it). The one batch
// that is never retried is a fenced one (ErrFenced): another engine holds
// the lease, so this runner writes nothing more, and the new holder
// projects these batches from the journal they share.
type Runner struct {
	p     *Projector
	hooks []func(*engine.Batch)
	log   zerolog.Logger
	q     chan queued

	mu        sync.Mutex
	cond      *sync.Cond
	projected uint64
	lag       matching.LatencyHistogram // enqueue → written, ns
	// fenced is the ErrFenced that stopped the writes (nil while writing).
	fenced error

	done chan struct{}
}

type queued struct {
	b  *engine.Batch
	at time.Time
}

// maxMerge bounds the batches written as one.
const maxMerge = 64

// RunnerQueue is how many batches may wait for the store before Enqueue
// blocks (and with it the engine's answers: backpressure).
const RunnerQueue = 4096

// NewRunner starts the runner's goroutine; Close stops it after the queued
// batches are written. start is the projection's checkpoint.
func NewRunner(p *Projector, start uint64, log zerolog.Logger, hooks ...func(*engine.Batch)) *Runner {
	r := &Runner{p: p, hooks: hooks, log: log, q: make(chan queued, RunnerQueue), projected: start, done: make(chan struct{})}
	r.cond = sync.NewCond(&r.mu)
	go r.run()
	return r
}

// Enqueue hands a durable batch on (engine.Options.Deliver).
func (r *Runner) Enqueue(b *engine.Batch) { r.q <- queued{b: b, at: time.Now()} }

func (r *Runner) run() {
	defer close(r.done)
	first := true
	for q := range r.q {
		if r.fencedErr() != nil {
			continue // drained unwritten: the lease's new holder writes them
		}
		// Batches that queued meanwhile are written as one (the store's
		// cost is per write, and most of a batch's writes net out); never
		// the first after a start, which may be the batch a crash left half
		// written (recovery hands exactly that one on first: it must be
		// written again as it was).
		group := []queued{q}
	more:
		for !first && len(group) < maxMerge {
			select {
			case n, ok := <-r.q:
				if !ok {
					break more
				}
				group = append(group, n)
			default:
				break more
			}
		}
		first = false
		bs := make([]*engine.Batch, len(group))
		for i := range group {
			bs[i] = group[i].b
		}
		q := group[0]
		q.b = engine.Merge(bs)
		pause := 10 * time.Millisecond
		for {
			err := r.p.Apply(context.Background(), q.b)
			if err == nil {
				break
			}
			if errors.Is(err, ErrFenced) {
				r.log.Error().Err(err).Uint64("batch", q.b.Last()).Msg("projector: fenced off; writing nothing more")
				r.mu.Lock()
				r.fenced = err
				r.cond.Broadcast()
				r.mu.Unlock()
				break
			}
			r.log.Error().Err(err).Uint64("batch", q.b.Last()).Dur("retry_in", pause).Msg("projector: batch not written")
			time.Sleep(pause)
			pause = min(pause*2, 5*time.Second)
		}
		if r.fencedErr() != nil {
			continue
		}
		for _, h := range r.hooks {
			h(q.b)
		}
		r.mu.Lock()
		if last := q.b.Last(); last > r.projected {
			r.projected = last
		}
		for _, w := range group {
			r.lag.Record(time.Since(w.at).Nanoseconds())
		}
		r.cond.Broadcast()
		r.mu.Unlock()
	}
}

// Projected is the sequence number of the last batch written.
func (r *Runner) Projected() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.projected
}

// fencedErr is the error that fenced the runner off, if any.
func (r *Runner) fencedErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fenced
}

// WaitProjected waits until the batch holding seq is in the store, or ctx
// ends; ErrFenced when this runner was fenced off before writing it.
func (r *Runner) WaitProjected(ctx context.Context, seq uint64) error {
	stop := context.AfterFunc(ctx, func() {
		r.mu.Lock()
		r.cond.Broadcast()
		r.mu.Unlock()
	})
	defer stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.projected < seq {
		if r.fenced != nil {
			return r.fenced
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		r.cond.Wait()
	}
	return nil
}

// Lag returns the projection lag quantiles (enqueue to written) since the
// last reset, and resets them when reset is set.
func (r *Runner) Lag(reset bool, qs ...float64) []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]time.Duration, len(qs))
	for i, q := range qs {
		out[i] = time.Duration(r.lag.Quantile(q))
	}
	if reset {
		r.lag.Reset()
	}
	return out
}

// Close writes what is queued and stops. Call it after the engine stopped
// delivering.
func (r *Runner) Close() {
	close(r.q)
	<-r.done
}
