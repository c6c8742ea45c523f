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

	"tenger/internal/queue"
	"tenger/internal/spot"
)

// watchedQueue is the orders queue as the engine sees it, recording what
// the health answer reports: when a receive last completed (the engine loop
// receives at least every few hundred milliseconds, so a stale time means a
// stalled or dead loop), the last batch, its lag and the acknowledgements.
type watchedQueue struct {
	queue.Queue
	// minWait raises the engine's short receive wait: on SQS a wait under
	// a second is a short poll, and an idle engine would then call
	// ReceiveMessage ten times a second. A long poll returns as soon as a
	// command arrives, so this costs no latency; it only delays the idle
	// engine's periodic work (outbox sweep, snapshot) by up to minWait.
	minWait time.Duration
	now     func() time.Time

	// stopping is cancelled by requestStop; endLoop cancels the engine
	// loop's context. The loop is stopped from inside Receive, where no
	// batch is in hand, so a stop never cuts a batch's settlement short
	// (which would leave it unsettled and skip the final snapshot).
	stopping    context.Context
	requestStop context.CancelFunc
	endLoop     context.CancelFunc

	lastReceive atomic.Int64 // Unix ms of the last successful receive
	lastBatch   atomic.Int64 // Unix ms of the last non-empty receive
	batchSize   atomic.Int64
	lagMs       atomic.Int64 // age of the oldest command of the last batch
	received    atomic.Int64
	deleted     atomic.Int64
	errors      atomic.Int64
	mu          sync.Mutex
	lastErr     string
}

func newWatchedQueue(q queue.Queue, minWait time.Duration, now func() time.Time) *watchedQueue {
	if now == nil {
		now = time.Now
	}
	w := &watchedQueue{Queue: q, minWait: minWait, now: now, endLoop: func() {}}
	w.stopping, w.requestStop = context.WithCancel(context.Background())
	w.lastReceive.Store(now().UnixMilli())
	return w
}

// Receive counts the batch and its lag. Once a stop is requested it ends
// the engine loop instead: a receive waiting for commands is interrupted,
// and commands it already got are still handed over (the next call ends).
func (w *watchedQueue) Receive(ctx context.Context, max int, visibility, wait time.Duration) ([]queue.Delivery, error) {
	if w.stopping.Err() != nil {
		w.endLoop()
		return nil, context.Canceled
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	unhook := context.AfterFunc(w.stopping, cancel)
	defer unhook()
	ds, err := w.Queue.Receive(rctx, max, visibility, max64(wait, w.minWait))
	now := w.now()
	if len(ds) == 0 && w.stopping.Err() != nil {
		w.endLoop()
		return nil, context.Canceled
	}
	if err != nil {
		if ctx.Err() == nil {
			w.errors.Add(1)
			w.mu.Lock()
			w.lastErr = err.Error()
			w.mu.Unlock()
		}
		return ds, err
	}
	w.lastReceive.Store(now.UnixMilli())
	if len(ds) > 0 {
		var lag time.Duration
		for i := range ds {
			if !ds[i].SentAt.IsZero() {
				lag = max64(lag, now.Sub(ds[i].SentAt))
			}
		}
		w.lastBatch.Store(now.UnixMilli())
		w.batchSize.Store(int64(len(ds)))
		w.lagMs.Store(lag.Milliseconds())
		w.received.Add(int64(len(ds)))
	}
	return ds, nil
}

// Delete counts the commands the engine has finished (journalled, applied
// and settled).
func (w *watchedQueue) Delete(ctx context.Context, receipt string) error {
	err := w.Queue.Delete(ctx, receipt)
	if err == nil {
		w.deleted.Add(1)
	}
	return err
}

// DeleteBatch counts the commands of a batch delete that succeeded (the
// engine acknowledges a settled batch with one DeleteBatch).
func (w *watchedQueue) DeleteBatch(ctx context.Context, receipts []string) error {
	err := w.Queue.DeleteBatch(ctx, receipts)
	n := len(receipts)
	if be := (*queue.BatchError)(nil); errors.As(err, &be) {
		n -= len(be.Failed)
	} else if err != nil {
		n = 0
	}
	w.deleted.Add(int64(n))
	return err
}

func max64(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// service runs the spot engine loop and answers for its health.
type service struct {
	eng *spot.Engine
	q   *watchedQueue
	log zerolog.Logger
	now func() time.Time
	// staleAfter: no receive completed for this long means the loop is
	// stuck (a receive waits at most about a second; a batch settles in
	// well under this).
	staleAfter time.Duration
	// stopGrace bounds the wait for the batch in hand after SIGTERM; then
	// the loop's context is cancelled (the batch is settled again from the
	// journal at the next start). Below the task's 90 s stop timeout.
	stopGrace time.Duration
	started   time.Time

	running  atomic.Bool
	stopping atomic.Bool
	mu       sync.Mutex
	failure  string
}

// serviceOptions are what main (or a test) chooses beyond the engine's own
// options.
type serviceOptions struct {
	MinWait    time.Duration
	StaleAfter time.Duration
	StopGrace  time.Duration
}

// newService builds the engine on a watched orders queue. spot.NewEngine
// recovers: it restores the snapshots under DataDir, replays the journal
// and settles its events again (idempotently) and resends the outbox; it
// refuses with spot.ErrJournalLost when the directory is empty but trades
// were settled (a lost or unmounted volume).
func newService(ctx context.Context, o spot.EngineOptions, so serviceOptions) (*service, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if so.StaleAfter <= 0 {
		so.StaleAfter = 60 * time.Second
	}
	if so.StopGrace <= 0 {
		so.StopGrace = 60 * time.Second
	}
	q := newWatchedQueue(o.Orders, so.MinWait, o.Now)
	o.Orders = q
	eng, err := spot.NewEngine(ctx, o)
	if err != nil {
		return nil, err
	}
	return &service{eng: eng, q: q, log: o.Log, now: o.Now, staleAfter: so.StaleAfter, stopGrace: so.StopGrace, started: o.Now()}, nil
}

// run runs the engine loop until ctx ends (SIGTERM) or the loop fails, and
// then stops the engine: the batch in hand is finished, a snapshot is
// written when every applied command is settled, and the journal is
// closed. A loop failure is returned (the task exits and ECS starts a new
// one, which recovers from the journal); the shutdown itself is not one.
func (s *service) run(ctx context.Context) error {
	loop, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.q.endLoop = cancel
	done := make(chan error, 1)
	s.running.Store(true)
	go func() { done <- s.eng.Run(loop) }()
	var err error
	select {
	case <-ctx.Done():
		s.stopping.Store(true)
		s.log.Info().Msg("engine stopping: finishing the batch in hand")
		s.q.requestStop()
		select {
		case err = <-done:
		case <-time.After(s.stopGrace):
			s.log.Warn().Dur("grace", s.stopGrace).Msg("batch not finished in time; cancelling it")
			cancel()
			err = <-done
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			// A batch cut short by the stop is settled again from the
			// journal at the next start.
			s.log.Warn().Err(err).Msg("engine loop ended during shutdown")
		}
		err = nil
	case err = <-done:
		s.stopping.Store(true)
		s.mu.Lock()
		s.failure = err.Error()
		s.mu.Unlock()
		s.log.Error().Err(err).Msg("engine loop failed")
	}
	s.running.Store(false)
	start := time.Now()
	stopErr := s.eng.Stop()
	if stopErr != nil {
		s.log.Error().Err(stopErr).Msg("engine stop (snapshot, journal)")
	} else {
		s.log.Info().Dur("stop", time.Since(start)).Msg("engine stopped: snapshot written, journal closed")
	}
	return errors.Join(err, stopErr)
}

// healthView is the /healthz answer.
type healthView struct {
	Status        string `json:"status"`
	Running       bool   `json:"running"`
	StartedMs     int64  `json:"startedMs"`
	LastReceiveMs int64  `json:"lastReceiveMs"`
	LastBatchMs   int64  `json:"lastBatchMs"`
	LastBatchSize int64  `json:"lastBatchSize"`
	LagMs         int64  `json:"lagMs"`
	Received      int64  `json:"received"`
	Done          int64  `json:"done"`
	ReceiveErrors int64  `json:"receiveErrors"`
	LastError     string `json:"lastError,omitempty"`
}

// health reports whether the engine loop is alive: running, not stopping,
// and a receive completed within staleAfter.
func (s *service) health() (bool, healthView) {
	v := healthView{
		Running: s.running.Load(), StartedMs: s.started.UnixMilli(),
		LastReceiveMs: s.q.lastReceive.Load(), LastBatchMs: s.q.lastBatch.Load(), LastBatchSize: s.q.batchSize.Load(),
		LagMs: s.q.lagMs.Load(), Received: s.q.received.Load(), Done: s.q.deleted.Load(), ReceiveErrors: s.q.errors.Load(),
	}
	s.q.mu.Lock()
	v.LastError = s.q.lastErr
	s.q.mu.Unlock()
	s.mu.Lock()
	failure := s.failure
	s.mu.Unlock()
	age := s.now().Sub(time.UnixMilli(v.LastReceiveMs))
	switch {
	case failure != "":
		v.Status = "failed: " + failure
	case s.stopping.Load():
		v.Status = "stopping"
	case !v.Running:
		v.Status = "not started"
	case age > s.staleAfter:
		v.Status = "engine loop stalled for " + age.Round(time.Second).String()
	default:
		v.Status = "ok"
		return true, v
	}
	return false, v
}

// healthHandler serves GET /healthz for the container health check.
func (s *service) healthHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		ok, v := s.health()
		w.Header().Set("Content-Type", "application/json")
		if !ok {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		_ = json.NewEncoder(w).Encode(v)
	})
	return mux
}
