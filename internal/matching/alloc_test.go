package matching

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// warmBook returns a book with a two-sided book of resting orders from
// users 1..50 and an event buffer with room to spare.
func warmBook(t *testing.T) (*Book, *EventBuffer, *uint64) {
	t.Helper()
	buf := NewEventBuffer(1024)
	b := NewBook(BookConfig{Symbol: 1, InitialOrders: 4096, InitialLevels: 512}, buf)
	seq := new(uint64)
	id := uint64(0)
	for i := 0; i < 1000; i++ {
		id++
		*seq++
		side, price := Buy, int64(1000-1-i%50)
		if i%2 == 1 {
			side, price = Sell, int64(1000+1+i%50)
		}
		c := lim(id, uint64(1+i%50), side, 10, price)
		c.Seq = *seq
		b.Apply(&c)
	}
	return b, buf, seq
}

// TestZeroAllocsSteadyState proves that placing, matching, amending and
// cancelling do not allocate once the pools are warm.
func TestZeroAllocsSteadyState(t *testing.T) {
	b, buf, seq := warmBook(t)
	id := uint64(1_000_000)
	apply := func(c Command) {
		*seq++
		c.Seq = *seq
		b.Apply(&c)
	}
	ops := map[string]func(){
		"place+cancel resting": func() {
			buf.Reset()
			id++
			apply(lim(id, 77, Buy, 5, 990))
			apply(cancel(id, 77))
		},
		"match: taker sweeps and maker refills": func() {
			buf.Reset()
			id++
			apply(lim(id, 78, Buy, 10, 1001)) // takes the best ask level's first order
			id++
			apply(lim(id, 79, Sell, 10, 1001)) // puts the liquidity back
		},
		"amend down, amend up, cancel": func() {
			buf.Reset()
			id++
			apply(lim(id, 80, Sell, 8, 1020))
			apply(amend(id, 80, 4, 0))
			apply(amend(id, 80, 9, 1021))
			apply(cancel(id, 80))
		},
		"IOC, FOK, market, post-only reject": func() {
			buf.Reset()
			id++
			apply(withTIF(lim(id, 81, Buy, 3, 1001), IOC))
			id++
			apply(withTIF(lim(id, 81, Buy, 1000, 1001), FOK))
			id++
			apply(mkt(id, 82, Sell, 2))
			id++
			apply(mktQuote(id, 83, 5000))
			id++
			apply(withTIF(lim(id, 84, Buy, 1, 2000), PostOnly))
			// Refill what was taken so the book stays the same shape.
			id++
			apply(lim(id, 85, Sell, 5, 1001))
			id++
			apply(lim(id, 86, Buy, 2, 999))
		},
	}
	for name, op := range ops {
		op() // warm: first use may grow a level or a slice once
		if n := testing.AllocsPerRun(500, op); n != 0 {
			t.Errorf("%s: %v allocations per run", name, n)
		}
		op()
		kinds := map[EventKind]int{}
		for _, e := range buf.Events {
			kinds[e.Kind]++
		}
		if kinds[EvDone] == 0 || (name != "place+cancel resting" && name != "amend down, amend up, cancel" && kinds[EvTrade] == 0) {
			t.Errorf("%s does not exercise its path: %v", name, kinds)
		}
	}
	if err := b.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestZeroAllocsWorkload runs a realistic stream and counts heap
// allocations over the second half: there must be none at all. Mallocs is
// process-wide, so finalizers queued by earlier tests (closed files) can
// allocate in the window; a real allocation in the book is deterministic,
// so a count that does not repeat on a second, identical run is noise.
func TestZeroAllocsWorkload(t *testing.T) {
	cmds := GenerateWorkload(WorkloadConfig{Seed: 9, Orders: 20_000, Symbol: 1})
	var counts []uint64
	for attempt := 0; attempt < 3; attempt++ {
		sink := &countingSink{}
		b := NewBook(BookConfig{Symbol: 1, InitialOrders: 1 << 14, InitialLevels: 1 << 11}, sink)
		half := len(cmds) / 2
		for i := range cmds[:half] {
			b.Apply(&cmds[i])
		}
		runtime.GC()
		time.Sleep(20 * time.Millisecond) // let queued finalizers run
		old := debug.SetGCPercent(-1)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := half; i < len(cmds); i++ {
			b.Apply(&cmds[i])
		}
		runtime.ReadMemStats(&after)
		debug.SetGCPercent(old)
		if sink.kinds[EvTrade] == 0 || sink.kinds[EvDone] == 0 {
			t.Fatalf("workload did nothing: %v", sink.kinds)
		}
		if err := b.Check(); err != nil {
			t.Fatal(err)
		}
		n := after.Mallocs - before.Mallocs
		if n == 0 {
			return
		}
		counts = append(counts, n)
	}
	t.Fatalf("allocations over %d commands in every run: %v", len(cmds)/2, counts)
}
