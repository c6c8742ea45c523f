package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"tenger/internal/emf"
)

// TestEngineMetrics: the active task reports ActiveEngine 1, the commands
// it applied since its previous report and its projection lag; a standby
// reports ActiveEngine 0 and nothing of an engine it does not run.
func TestEngineMetrics(t *testing.T) {
	w := newWorld(t)
	a := w.task("task-a", nil)
	a.waitRole(t, roleActive)
	b := w.task("task-b", nil)
	b.waitRole(t, roleStandby)

	var buf bytes.Buffer
	out := emf.New(&buf, MetricsNamespace, map[string]string{"Stage": "test"})
	report := func(tk *task, m *metrics) map[string]any {
		t.Helper()
		buf.Reset()
		if err := tk.svc.putMetrics(out, time.Now(), m); err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), `"Namespace":"Tenger/Engine"`) {
			t.Fatalf("line %s", buf.String())
		}
		return doc
	}
	var am, bm metrics
	first := report(a, &am)
	if first["ActiveEngine"] != 1.0 || first["CommandsApplied"] != nil {
		t.Fatalf("first report %v", first)
	}
	fn := w.client()
	credit(t, fn, "10000001", "USDT", "1000")
	place(t, fn, "10000001", "BUY", "50000", "0.01")
	place(t, fn, "10000001", "BUY", "49000", "0.01")
	second := report(a, &am)
	if second["ActiveEngine"] != 1.0 || second["CommandsApplied"] != 3.0 {
		t.Fatalf("second report %v (want the credit and the two orders)", second)
	}
	if _, ok := second["ProjectionLagP99"]; !ok {
		t.Errorf("no projection lag: %v", second)
	}
	standby := report(b, &bm)
	if standby["ActiveEngine"] != 0.0 || standby["CommandsApplied"] != nil || standby["ProjectionLagP99"] != nil {
		t.Fatalf("standby report %v", standby)
	}
	// The standby first: stopping the active one would hand it the lease.
	if err := b.stop(); err != nil {
		t.Fatal(err)
	}
	if err := a.stop(); err != nil {
		t.Fatal(err)
	}
}
