package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/trace"

	"tenger/internal/engine/lease"
	"tenger/internal/engine/remote"
	"tenger/internal/platform"
	"tenger/internal/refprice"
)

// config is what main (or a test) chooses for one engine task.
type config struct {
	// DataDir holds the engine's journal and snapshots (the EFS mount both
	// tasks share).
	DataDir string
	// Listen is the endpoint's listen address; Advertise the address the
	// functions reach it at (the listener's own when empty).
	Listen, Advertise string
	// Owner names this task in the lease.
	Owner    string
	LeaseTTL time.Duration
	// Key signs the endpoint's requests.
	Key []byte
	// Tracer, when set, traces the endpoint's requests (traced); nil
	// when tracing is off.
	Tracer trace.Tracer
}

// The task's roles, in the order it takes them.
const (
	roleStandby    = "standby"    // waiting for the lease
	roleRecovering = "recovering" // holds the lease, replaying the journal
	roleActive     = "active"     // serving commands
	roleStopping   = "stopping"
	roleFailed     = "failed"
)

// service is one engine task: a standby until it holds the engine lease,
// then the active engine serving its endpoint.
type service struct {
	d   *platform.Deps
	cfg config
	log zerolog.Logger
	// onLost is called when the lease is lost while held (main exits).
	onLost  func(error)
	started time.Time

	role    atomic.Value // string
	mu      sync.Mutex
	failure string
	lease   *lease.Lease
	remote  atomic.Pointer[http.Handler]
	// bound is the endpoint's listen address once bound.
	bound atomic.Value // string
}

func newService(d *platform.Deps, cfg config, log zerolog.Logger) *service {
	s := &service{d: d, cfg: cfg, log: log, started: time.Now(), onLost: func(error) {}}
	s.role.Store(roleStandby)
	return s
}

func (s *service) currentRole() string { return s.role.Load().(string) }

// run binds the endpoint, waits for the lease as a standby, then recovers
// the engine and serves until ctx ends (SIGTERM): the endpoint drains, the
// engine writes a snapshot and closes its journal, and only then is the
// lease given up, so a standby never replays a journal still written to.
func (s *service) run(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("engine endpoint: %w", err)
	}
	s.bound.Store(ln.Addr().String())
	adv := s.cfg.Advertise
	if adv == "" {
		adv = ln.Addr().String()
	}
	srv := &http.Server{Handler: s.endpoint(), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error().Err(err).Msg("engine endpoint stopped")
		}
	}()
	drain := func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}

	s.lease = lease.New(s.d.Store, platform.EngineLease, s.cfg.Owner, s.cfg.LeaseTTL, nil)
	s.lease.Advertise(adv)
	s.log.Info().Str("advertise", adv).Msg("engine standby: waiting for the lease")
	if err := s.lease.Acquire(ctx); err != nil {
		drain()
		if ctx.Err() != nil {
			return nil // stopped as a standby
		}
		return s.fail(fmt.Errorf("engine lease: %w", err))
	}
	s.role.Store(roleRecovering)
	s.log.Info().Int64("term", s.lease.Term()).Msg("engine lease taken: recovering")
	// Renewals start before the recovery, which may outlast the lease.
	kctx, stopKeep := context.WithCancel(context.Background())
	defer stopKeep()
	go s.lease.Keep(kctx, func(err error) {
		s.role.Store(roleFailed)
		s.onLost(err)
	})
	// Every store write of the projection carries this term: once a
	// standby has taken the lease, this engine's writes are refused even
	// before it notices.
	if fence, ok := s.lease.Fence(); ok {
		s.d.EngineFence = &fence
	}
	start := time.Now()
	if err := s.d.StartEngine(ctx, s.cfg.DataDir, refprice.StoreSource{Store: s.d.Store}); err != nil {
		drain()
		stopKeep()
		_ = s.lease.Release(context.Background())
		return s.fail(fmt.Errorf("engine start (data dir %s): %w", s.cfg.DataDir, err))
	}
	// Binance's market streams of the WebSocket API's connections are
	// published from here, beside the web app's market channels.
	if err := s.d.StartBinanceStreams(); err != nil {
		s.log.Error().Err(err).Msg("binance market streams not started")
	}
	h := remote.Handler(s.d.Engine, s.cfg.Key, nil)
	if s.cfg.Tracer != nil {
		h = traced(s.cfg.Tracer, h)
	}
	s.remote.Store(&h)
	s.role.Store(roleActive)
	s.log.Info().Dur("recovery", time.Since(start)).Msg("engine active")

	<-ctx.Done()
	s.role.Store(roleStopping)
	s.log.Info().Msg("engine stopping: draining the endpoint")
	drain()
	err = s.d.Engine.Close()
	stopKeep()
	if rerr := s.lease.Release(context.Background()); rerr != nil {
		s.log.Warn().Err(rerr).Msg("engine lease not given up; a standby takes it when it lapses")
	}
	if err != nil {
		s.log.Error().Err(err).Msg("engine stop (snapshot, journal)")
		return err
	}
	s.log.Info().Msg("engine stopped: snapshot written, journal closed, lease given up")
	return nil
}

func (s *service) fail(err error) error {
	s.role.Store(roleFailed)
	s.mu.Lock()
	s.failure = err.Error()
	s.mu.Unlock()
	return err
}

// endpoint serves the engine's commands while this task is the active
// engine; otherwise it answers 503, which tells a client to look the
// active engine up again.
func (s *service) endpoint() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := s.remote.Load()
		if role := s.currentRole(); role != roleActive || h == nil {
			http.Error(w, "engine "+role, http.StatusServiceUnavailable)
			return
		}
		(*h).ServeHTTP(w, r)
	})
}

// healthView is the /healthz answer.
type healthView struct {
	Status    string `json:"status"`
	Role      string `json:"role"`
	Term      int64  `json:"term,omitempty"`
	StartedMs int64  `json:"startedMs"`
	// Seq is the engine's last applied command; ProjectionLagP99Ms how far
	// the store trailed the journal lately.
	Seq                uint64  `json:"seq,omitempty"`
	ProjectionLagP99Ms float64 `json:"projectionLagP99Ms,omitempty"`
	LastError          string  `json:"lastError,omitempty"`
}

// health: a standby, a recovering and an active engine are healthy; a
// stopping or failed one is not.
func (s *service) health() (bool, healthView) {
	role := s.currentRole()
	v := healthView{Role: role, StartedMs: s.started.UnixMilli()}
	if s.lease != nil {
		v.Term = s.lease.Term()
	}
	if role == roleActive && s.d.Engine != nil {
		v.Seq = s.d.Engine.Seq()
		if q := s.d.Engine.ProjectionLag(false, 0.99); len(q) == 1 {
			v.ProjectionLagP99Ms = float64(q[0].Microseconds()) / 1000
		}
	}
	s.mu.Lock()
	v.LastError = s.failure
	s.mu.Unlock()
	switch role {
	case roleStandby, roleRecovering, roleActive:
		v.Status = "ok"
		return true, v
	}
	v.Status = role
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
