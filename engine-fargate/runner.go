package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"tenger/events"
	"tenger/internal/queue"
)

// runner polls the orders queue and hands each command to the engine. The
// matching core arrives with the spot issue; until then a valid command is
// logged and acknowledged, and no trade is ever invented.
type runner struct {
	orders     queue.Queue
	log        zerolog.Logger
	visibility time.Duration // how long a received command stays hidden
	wait       time.Duration // long-poll wait per receive
	batch      int
	// handleTimeout bounds the work on one command; it also bounds how long
	// a SIGTERM waits for in-flight commands.
	handleTimeout time.Duration
	now           func() time.Time

	lastPoll atomic.Int64 // Unix ms of the last completed receive
	stopping atomic.Bool
	mu       sync.Mutex
	handled  map[string]int // by outcome, for the health answer
}

func newRunner(orders queue.Queue, log zerolog.Logger) *runner {
	return &runner{
		orders: orders, log: log,
		visibility: 60 * time.Second, wait: 20 * time.Second, batch: queue.MaxBatch,
		handleTimeout: 30 * time.Second, now: time.Now,
		handled: map[string]int{},
	}
}

// run polls until ctx is cancelled (SIGTERM), then returns after the
// commands already received are finished: they are processed with a context
// that the signal does not cancel, so none is left half-done.
func (r *runner) run(ctx context.Context) error {
	r.lastPoll.Store(r.now().UnixMilli())
	for {
		if ctx.Err() != nil {
			r.stopping.Store(true)
			r.log.Info().Msg("engine stopping: no more receives")
			return nil
		}
		msgs, err := r.orders.Receive(ctx, r.batch, r.visibility, r.wait)
		if err != nil {
			if ctx.Err() != nil {
				continue // shutdown during the long poll
			}
			r.log.Error().Err(err).Msg("receive failed")
			sleep(ctx, 2*time.Second) // back off; a cancelled ctx ends the loop above
			continue
		}
		r.lastPoll.Store(r.now().UnixMilli())
		work := context.WithoutCancel(ctx)
		for _, d := range msgs {
			r.handle(work, d)
		}
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// handle processes one delivery. A valid command is acknowledged (deleted);
// an invalid one is made visible again at once so that it reaches the
// dead-letter queue after the queue's maxReceiveCount attempts instead of
// being dropped silently.
func (r *runner) handle(ctx context.Context, d queue.Delivery) {
	ctx, cancel := context.WithTimeout(ctx, r.handleTimeout)
	defer cancel()
	log := r.log.With().
		Str("message_id", d.ID).
		Str("group", d.Group).
		Int("receive_count", d.ReceiveCount).
		Str("correlation_id", d.Attributes[queue.AttrCorrelationID]).
		Int64("lag_ms", r.now().Sub(d.SentAt).Milliseconds()).
		Logger()
	kind, err := r.validate(d)
	if err != nil {
		r.count("invalid")
		log.Warn().Err(err).Msg("invalid order command; left for the dead-letter queue")
		if err := r.orders.ChangeVisibility(ctx, d.ReceiptHandle, 0); err != nil && !errors.Is(err, queue.ErrInvalidReceipt) {
			log.Error().Err(err).Msg("change visibility failed")
		}
		return
	}
	log.Info().Str("command", kind).Msg("order command received; matching is not enabled yet, acknowledged without trading")
	if err := r.orders.Delete(ctx, d.ReceiptHandle); err != nil {
		// The command comes back after its visibility timeout; the engine
		// is idempotent on the order id, so that is safe.
		r.count("ack_failed")
		log.Error().Err(err).Msg("acknowledge failed")
		return
	}
	r.count(kind)
}

// validate decodes the envelope and its payload; the message group must be
// the order's symbol, or the per-book ordering the engine relies on is lost.
func (r *runner) validate(d queue.Delivery) (string, error) {
	env, err := events.Decode(d.Body)
	if err != nil {
		return "", err
	}
	var symbol string
	switch env.Type {
	case events.TypeOrderPlace:
		o, err := events.DecodeOrderPlace(env)
		if err != nil {
			return "", err
		}
		symbol = o.Symbol
	case events.TypeOrderCancel:
		o, err := events.DecodeOrderCancel(env)
		if err != nil {
			return "", err
		}
		symbol = o.Symbol
	case events.TypeOrderCancelAll:
		o, err := events.DecodeOrderCancelAll(env)
		if err != nil {
			return "", err
		}
		symbol = o.Symbol
	case events.TypeOrderAmend:
		o, err := events.DecodeOrderAmend(env)
		if err != nil {
			return "", err
		}
		symbol = o.Symbol
	default:
		return "", errors.Join(events.ErrInvalid, errors.New("not an order command: "+env.Type))
	}
	if d.Group != symbol {
		return "", errors.Join(events.ErrInvalid, errors.New("message group "+d.Group+" is not the symbol "+symbol))
	}
	return env.Type, nil
}

func (r *runner) count(outcome string) {
	r.mu.Lock()
	r.handled[outcome]++
	r.mu.Unlock()
}

// healthy reports whether the poll loop is alive: a receive completed within
// two long-poll waits plus a margin, and no shutdown has begun.
func (r *runner) healthy() (bool, string) {
	if r.stopping.Load() {
		return false, "stopping"
	}
	age := r.now().Sub(time.UnixMilli(r.lastPoll.Load()))
	if age > 2*r.wait+15*time.Second {
		return false, "poll loop stalled for " + age.Round(time.Second).String()
	}
	return true, "ok"
}

// healthHandler serves GET /healthz for the container health check.
func (r *runner) healthHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		ok, status := r.healthy()
		r.mu.Lock()
		handled := make(map[string]int, len(r.handled))
		for k, v := range r.handled {
			handled[k] = v
		}
		r.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if !ok {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"status": status, "lastPollMs": r.lastPoll.Load(), "handled": handled,
		})
	})
	return mux
}
