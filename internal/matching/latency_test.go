package matching

import "testing"

func TestLatencyHistogram(t *testing.T) {
	var h LatencyHistogram
	if h.Quantile(0.5) != 0 {
		t.Fatal("empty histogram")
	}
	for v := int64(1); v <= 10000; v++ {
		h.Record(v)
	}
	for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
		want := q * 10000
		got := float64(h.Quantile(q))
		if got < want || got > want*1.04 {
			t.Errorf("q%.3f = %v, want about %v", q, got, want)
		}
	}
	if h.Count() != 10000 || h.Max() != 10000 || h.Quantile(1) != 10000 {
		t.Errorf("count %d max %d q1 %d", h.Count(), h.Max(), h.Quantile(1))
	}
	// Every bucket's upper bound maps back to that bucket.
	for i := 0; i < len(h.counts)-1; i++ {
		u := histUpper(i)
		if u == 1<<64-1 {
			break // the last bucket
		}
		if histBucket(u) != i || histBucket(u+1) != i+1 {
			t.Fatalf("bucket %d upper %d", i, u)
		}
	}
	h.Reset()
	h.Record(-5)
	if h.Quantile(0.5) != 0 {
		t.Fatal("negative durations count as zero")
	}
	if a, b := Nanotime(), Nanotime(); b < a {
		t.Fatal("clock went backwards")
	}
}

func TestGenerateWorkloadShape(t *testing.T) {
	cfg := WorkloadConfig{Seed: 5, Orders: 50_000, Symbol: 2}
	cmds := GenerateWorkload(cfg)
	again := GenerateWorkload(cfg)
	if len(cmds) != len(again) {
		t.Fatal("not deterministic")
	}
	counts := map[CommandKind]int{}
	ioc := 0
	lastAt := map[uint64]int{}
	for i, c := range cmds {
		if c != again[i] {
			t.Fatal("not deterministic")
		}
		if c.Seq != uint64(i+1) || c.Symbol != 2 {
			t.Fatalf("command %d: seq %d symbol %d", i, c.Seq, c.Symbol)
		}
		counts[c.Kind]++
		if c.Kind == CmdPlace && c.TIF == IOC {
			ioc++
		}
		if c.Kind == CmdPlace {
			lastAt[c.OrderID] = i
		} else if _, ok := lastAt[c.OrderID]; !ok {
			t.Fatalf("command %d follows up order %d before it exists", i, c.OrderID)
		}
	}
	near := func(got int, want float64) bool { return float64(got) > want*0.95 && float64(got) < want*1.05 }
	n := float64(cfg.Orders)
	if counts[CmdPlace] != cfg.Orders || !near(ioc, 0.15*n) || !near(counts[CmdAmend], 0.85*0.2*n) || !near(counts[CmdCancel], 0.85*0.95*n) {
		t.Fatalf("shape: %v, IOC %d", counts, ioc)
	}
	// About two messages per new order.
	if r := float64(len(cmds)) / n; r < 1.9 || r > 2.1 {
		t.Fatalf("%.2f messages per order", r)
	}
}
