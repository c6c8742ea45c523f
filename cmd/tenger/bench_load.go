package main

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// loadPlan is what a load loop sends: n orders over conc connections, at
// rate orders a second in all (open loop) or as fast as they are answered
// (rate 0, closed loop), the WebSocket transport with up to inflight
// requests in flight per connection; lag (when not nil) samples the
// accepted orders.
type loadPlan struct {
	base     string
	n, conc  int
	rate     float64
	inflight int
	timeout  time.Duration
	lag      *lagSampler
}

// pacer is the schedule of an open-loop run: order i is due at start +
// i/rate, and its latency is counted from then, not from when it could be
// sent, so a server that falls behind shows its queue in the latencies
// (no coordinated omission). A closed loop (rate 0) sends each order when
// a connection is free and counts from the send.
type pacer struct {
	start time.Time
	every float64 // nanoseconds between two orders; 0: closed loop
}

func newPacer(rate float64) pacer {
	p := pacer{start: time.Now()}
	if rate > 0 {
		p.every = float64(time.Second) / rate
	}
	return p
}

func (p pacer) open() bool { return p.every > 0 }

func (p pacer) due(i int) time.Time { return p.start.Add(time.Duration(float64(i) * p.every)) }

// wait sleeps until order i is due (open loop) and returns the time its
// latency counts from.
func (p pacer) wait(i int) time.Time {
	if !p.open() {
		return time.Now()
	}
	d := p.due(i)
	if w := time.Until(d); w > 0 {
		time.Sleep(w)
	}
	return d
}

// loadStats gathers a load loop's outcomes across its workers.
type loadStats struct {
	lat                []time.Duration
	accepted, rejected atomic.Int64
	pushed             atomic.Int64
	errOnce            sync.Once
	firstErr           error

	mu                  sync.Mutex
	firstSend, lastSend time.Time
	last                lagSample // the order acknowledged last
}

func newLoadStats(n int) *loadStats { return &loadStats{lat: make([]time.Duration, n)} }

func (s *loadStats) ok(i int, lat time.Duration) {
	s.lat[i] = lat
	s.accepted.Add(1)
}

func (s *loadStats) fail(i int, err error, lat time.Duration) {
	s.lat[i] = lat
	s.rejected.Add(1)
	s.errOnce.Do(func() { s.firstErr = err })
}

// merge takes a worker's send span and its last acknowledged order.
func (s *loadStats) merge(first, last time.Time, ack lagSample) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !first.IsZero() && (s.firstSend.IsZero() || first.Before(s.firstSend)) {
		s.firstSend = first
	}
	if last.After(s.lastSend) {
		s.lastSend = last
	}
	if ack.acked.After(s.last.acked) {
		s.last = ack
	}
}

// report is the run's figures; start is when the first order was due.
func (s *loadStats) report(start time.Time) benchReport {
	n := len(s.lat)
	rep := benchReport{Sent: n, Accepted: int(s.accepted.Load()), Rejected: int(s.rejected.Load()), SendTime: time.Since(start),
		Pushed: s.pushed.Load()}
	if span := s.lastSend.Sub(s.firstSend); n > 1 && span > 0 {
		rep.Offered = float64(n-1) / span.Seconds()
	}
	lat := slices.Clone(s.lat)
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))] }
	rep.P50, rep.P99, rep.P999, rep.Max = pct(0.50), pct(0.99), pct(0.999), lat[len(lat)-1]
	return rep
}

// sendSpan is one worker's first and last send.
type sendSpan struct{ first, last time.Time }

func (s *sendSpan) sent(t time.Time) {
	if s.first.IsZero() {
		s.first = t
	}
	s.last = t
}
