package main

import (
	"context"
	"time"

	"tenger/internal/emf"
	"tenger/internal/push"
)

// MetricsNamespace is the CloudWatch namespace of the engine task's
// metrics, and MetricsEvery how often it reports them.
const (
	MetricsNamespace = "Tenger/Engine"
	MetricsEvery     = 10 * time.Second
)

// metrics remembers what the last report counted from.
type metrics struct {
	lastSeq     uint64
	seqSeen     bool
	lastDropped int64
}

// reportMetrics writes the engine's metrics every MetricsEvery until ctx
// ends (CloudWatch embedded metric format on stdout: the awslogs driver
// ships the lines and CloudWatch Logs turns them into metrics):
//
//   - ActiveEngine: 1 from the task holding the lease and serving, else 0
//     (summed over the tasks, a period with none is a halted exchange: the
//     deployment alarm and the no-active-engine alarm watch it);
//   - CommandsApplied: commands the active engine applied since the last report;
//   - ProjectionLagP99: how far the store trailed the journal (ms, p99);
//   - PushesDropped: market pushes dropped for slow delivery since the last report.
func (s *service) reportMetrics(ctx context.Context, w *emf.Writer, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	var m metrics
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if err := s.putMetrics(w, now, &m); err != nil {
				s.log.Warn().Err(err).Msg("engine metrics not written")
			}
		}
	}
}

// putMetrics writes one report.
func (s *service) putMetrics(w *emf.Writer, at time.Time, m *metrics) error {
	active := 0.0
	out := []emf.Metric{}
	if s.currentRole() == roleActive && s.d.Engine != nil {
		active = 1
		seq := s.d.Engine.Seq()
		if m.seqSeen && seq >= m.lastSeq {
			out = append(out, emf.Metric{Name: "CommandsApplied", Unit: emf.Count, Value: float64(seq - m.lastSeq)})
		}
		m.lastSeq, m.seqSeen = seq, true
		if q := s.d.Engine.ProjectionLag(true, 0.99); len(q) == 1 {
			out = append(out, emf.Metric{Name: "ProjectionLagP99", Unit: emf.Milliseconds, Value: float64(q[0].Microseconds()) / 1000})
		}
	}
	if a, ok := s.d.Push.(*push.Async); ok {
		d := a.Dropped()
		out = append(out, emf.Metric{Name: "PushesDropped", Unit: emf.Count, Value: float64(d - m.lastDropped)})
		m.lastDropped = d
	}
	return w.Put(at, append([]emf.Metric{{Name: "ActiveEngine", Unit: emf.Count, Value: active}}, out...)...)
}
