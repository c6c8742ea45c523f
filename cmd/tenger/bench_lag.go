package main

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The settlement lag of `tenger bench`: for a sample of the orders, the
// time from the order's acknowledgement until the store shows it FILLED
// (its trade and its end settled, readable by /order/detail, as every
// read of the API is served; a futures order by /fe-co-api/order/
// get_trade_info: lagRead). It is what the projection lag costs a
// client: with acknowledgement at the engine's journal and the store
// written behind, an order is "done" for the client who placed it before
// anything it can read says so.
//
// At most every lagSampleEvery the sampler asks for the next acknowledged
// order: the first load-loop worker that sees the request hands over that
// order's id, token and acknowledgement time (otherwise an answer costs
// the load loop an atomic count and load). A single goroutine then reads
// each sampled order back until it is FILLED, sooner for young samples
// (every lagPollMin) than for old ones (a tenth of their age), so the lag
// is known to within the larger of the two. A new sample is only taken
// while the reads so far stay within lagReadShare of the orders
// acknowledged (a read is a single item get, a small fraction of an
// order's cost), so the sampler's load on the server is a small share of
// the run's at any rate. A sample's lag is counted when the read that saw
// it FILLED has been answered, so it is never under-stated.

const (
	lagSampleEvery = 10 * time.Millisecond
	lagPollMin     = 2 * time.Millisecond
	lagMaxPending  = 256
	// lagReadShare bounds the reads to a share of the acknowledged orders;
	// lagReadsPerSample is what a new sample is assumed to need.
	lagReadShare      = 0.1
	lagReadsPerSample = 30
)

// lagRead is how a sampled order is read back: the route and its body for
// an order id, and what the answer's data says of the order: FILLED
// (done), ended otherwise (cancelled or rejected: dropped), or neither
// (read again later).
type lagRead struct {
	path   string
	body   func(orderID string) any
	status func(data json.RawMessage) (filled, ended bool, err error)
}

// spotLagRead reads a spot order with /order/detail (status 3 FILLED, 4
// and above cancelled or rejected).
var spotLagRead = lagRead{
	path: "/fe-ex-api/order/detail",
	body: func(id string) any { return map[string]any{"order_id": id} },
	status: func(data json.RawMessage) (bool, bool, error) {
		var o struct {
			Status int `json:"status"`
		}
		err := json.Unmarshal(data, &o)
		return o.Status == 3, o.Status >= 4, err
	},
}

// lagSample is one sampled order.
type lagSample struct {
	orderID, token string
	acked          time.Time
	next           time.Time // when to read it again
}

// lagSampler samples orders and reads them back until they are settled.
type lagSampler struct {
	c     *benchClient
	read  lagRead
	want  atomic.Bool
	acks  atomic.Int64
	reads int // by run's goroutine only
	in    chan lagSample

	mu      sync.Mutex
	pending []lagSample
	lags    []time.Duration
	dropped int // samples that ended other than FILLED
}

func newLagSampler(c *benchClient, read lagRead) *lagSampler {
	return &lagSampler{c: c, read: read, in: make(chan lagSample, 4)}
}

// offer is called by the load loop for every accepted order; it hands the
// order over when the sampler asked for one.
func (s *lagSampler) offer(orderID, token string, acked time.Time) {
	if s == nil {
		return
	}
	s.acks.Add(1)
	if orderID == "" || !s.want.Load() || !s.want.CompareAndSwap(true, false) {
		return
	}
	select {
	case s.in <- lagSample{orderID: orderID, token: token, acked: acked, next: acked}:
	default:
	}
}

// run samples until ctx ends (stop sampling) and then keeps reading the
// pending samples until done ends.
func (s *lagSampler) run(sampling, done context.Context) {
	tick := time.NewTicker(lagPollMin)
	defer tick.Stop()
	lastAsk := time.Time{}
	for {
		select {
		case <-done.Done():
			return
		case <-tick.C:
		}
		now := time.Now()
		budget := 10 + lagReadShare*float64(s.acks.Load())
		if sampling.Err() == nil && now.Sub(lastAsk) >= lagSampleEvery && float64(s.reads+lagReadsPerSample) <= budget {
			s.mu.Lock()
			room := len(s.pending) < lagMaxPending
			s.mu.Unlock()
			if room {
				s.want.Store(true)
				lastAsk = now
			}
		}
		s.drain()
		s.pollOne(done, now)
	}
}

func (s *lagSampler) drain() {
	for {
		select {
		case x := <-s.in:
			s.mu.Lock()
			s.pending = append(s.pending, x)
			s.mu.Unlock()
		default:
			return
		}
	}
}

// add samples an order directly (the last acknowledged one of a run, so
// that the run is only settled once it is).
func (s *lagSampler) add(orderID, token string, acked time.Time) {
	if s == nil || orderID == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = append(s.pending, lagSample{orderID: orderID, token: token, acked: acked, next: acked})
}

// pollOne reads the sample that is due first, if one is.
func (s *lagSampler) pollOne(ctx context.Context, now time.Time) {
	s.mu.Lock()
	best := -1
	for i, p := range s.pending {
		if !p.next.After(now) && (best < 0 || p.next.Before(s.pending[best].next)) {
			best = i
		}
	}
	if best < 0 {
		s.mu.Unlock()
		return
	}
	p := s.pending[best]
	s.mu.Unlock()

	env, err := s.c.call(ctx, s.read.path, p.token, s.read.body(p.orderID))
	seen := time.Now()
	s.reads++
	filled, ended := false, false
	if err == nil && env.Code == "0" {
		filled, ended, err = s.read.status(env.Data)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.pending, func(x lagSample) bool { return x.orderID == p.orderID })
	if i < 0 {
		return
	}
	switch {
	case err == nil && env.Code == "0" && filled:
		s.lags = append(s.lags, seen.Sub(p.acked))
		s.pending = slices.Delete(s.pending, i, i+1)
	case err == nil && env.Code == "0" && ended: // cancelled or rejected
		s.dropped++
		s.pending = slices.Delete(s.pending, i, i+1)
	default: // not stored yet, still open, or a failed read: again later
		age := seen.Sub(p.acked)
		s.pending[i].next = seen.Add(max(lagPollMin, age/10))
	}
}

// settled reports whether every sample has been seen settled.
func (s *lagSampler) settled() bool {
	if s == nil {
		return true
	}
	s.drain()
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.pending) == 0
}

// result returns the lag percentiles and the number of samples.
func (s *lagSampler) result() (p50, p99 time.Duration, n int) {
	if s == nil {
		return 0, 0, 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.lags) == 0 {
		return 0, 0, 0
	}
	l := slices.Clone(s.lags)
	slices.Sort(l)
	return l[int(0.50*float64(len(l)-1))], l[int(0.99*float64(len(l)-1))], len(l)
}
