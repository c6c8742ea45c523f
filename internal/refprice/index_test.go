package refprice

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

var t0 = time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)

// steps runs n steps of the default configuration, one Interval apart,
// with the book's mid at m (none when m is zero), starting after start.
func steps(s *series, c Config, start time.Time, n int, m decimal.Decimal, ext ...Quote) (time.Time, Result) {
	var r Result
	now := start
	for range n {
		now = now.Add(c.Interval)
		for i := range ext {
			ext[i].At = now
		}
		r = s.step(c, now, m, m.IsPositive(), ext)
	}
	return now, r
}

func TestMidNeedsATightTwoSidedBook(t *testing.T) {
	c := DefaultConfig()
	for _, tc := range []struct {
		bid, ask string
		want     string // "" = no mid
	}{
		{"99", "101", "100"},
		{"0", "101", ""},         // one-sided
		{"101", "99", ""},        // crossed
		{"95", "105.1", ""},      // spread 10.1 > 5 % of 100.05
		{"97.5", "102.5", "100"}, // exactly 5 %
	} {
		m, ok := mid(d(tc.bid), d(tc.ask), c.MaxSpread)
		if ok != (tc.want != "") || (ok && !m.Equal(d(tc.want))) {
			t.Errorf("mid(%s, %s) = %s, %v; want %q", tc.bid, tc.ask, m, ok, tc.want)
		}
	}
}

// A burst of quotes (or trades that swept the book) far from the market,
// shorter than half the window, leaves the reference price where it was.
func TestBurstFarFromTheMarketLeavesThePrice(t *testing.T) {
	c := DefaultConfig()
	s := &series{ref: d("97000")}
	now, r := steps(s, c, t0, 60, d("97000")) // a full window at the market
	if !r.Price.Equal(d("97000")) {
		t.Fatalf("steady price %s", r.Price)
	}
	// Two minutes of a book held at 100 USDT: 24 samples of 60 in the window.
	now, r = steps(s, c, now, 24, d("100"))
	if !r.Price.Equal(d("97000")) || !r.Raw.Equal(d("97000")) {
		t.Fatalf("after the burst: price %s raw %s, want 97000", r.Price, r.Raw)
	}
	// The book back at the market: nothing moved.
	_, r = steps(s, c, now, 12, d("97000"))
	if !r.Price.Equal(d("97000")) {
		t.Fatalf("after: %s", r.Price)
	}
}

// A book held far away for longer than half the window moves the source,
// but the reference price moves at most MaxMovePerMinute per minute.
func TestSustainedMoveIsBounded(t *testing.T) {
	c := DefaultConfig()
	s := &series{ref: d("97000")}
	now, _ := steps(s, c, t0, 60, d("97000"))
	prev := s.ref
	for minute := 1; minute <= 10; minute++ {
		var r Result
		now, r = steps(s, c, now, 12, d("100"))
		floor := prev.Mul(d("0.98"))
		if r.Price.LessThan(floor.Sub(d("0.000001"))) {
			t.Fatalf("minute %d: %s fell more than 2 %% below %s", minute, r.Price, prev)
		}
		prev = r.Price
	}
	// Ten minutes of a sustained false book: at most 2 % a minute.
	lowest := d("97000").Mul(d("0.98").Pow(d("10")))
	if s.ref.LessThan(lowest.Sub(d("0.01"))) || s.ref.GreaterThanOrEqual(d("97000")) {
		t.Fatalf("after 10 min at 100: %s, want in [%s, 97000)", s.ref, lowest)
	}
}

// The bound counts elapsed time up to one minute, so a step after a long
// pause (the service was stopped) moves at most one minute's worth.
func TestBoundAfterAPause(t *testing.T) {
	c := DefaultConfig()
	s := &series{ref: d("100"), refAt: t0}
	ext := Quote{Source: "x", Price: d("150"), At: t0.Add(time.Hour)}
	r := s.step(c, t0.Add(time.Hour), decimal.Zero, false, []Quote{ext})
	if !r.Price.Equal(d("102")) || !r.Bounded {
		t.Fatalf("after an hour: %s (bounded %v), want 102", r.Price, r.Bounded)
	}
}

func TestBookCountsOnlyWithEnoughSamples(t *testing.T) {
	c := DefaultConfig()
	s := &series{}
	_, r := steps(s, c, t0, c.MinSamples-1, d("50"))
	if r.Price.IsPositive() || len(r.Sources) != 0 {
		t.Fatalf("too few samples gave %s from %v", r.Price, r.Sources)
	}
	_, r = steps(s, c, t0.Add(time.Hour), 1, d("50"))
	// The samples an hour old left the window: one sample is not enough.
	if r.Price.IsPositive() {
		t.Fatalf("old samples counted: %s", r.Price)
	}
	_, r = steps(s, c, t0.Add(2*time.Hour), c.MinSamples, d("50"))
	if !r.Price.Equal(d("50")) || r.Sources[0].Source != SourceBook {
		t.Fatalf("first price %s from %v, want the book's 50 taken as is", r.Price, r.Sources)
	}
}

// Two external sources outvote a book that lies far from them; a stale
// quote does not count.
func TestSourcesCombineByMedian(t *testing.T) {
	c := DefaultConfig()
	s := &series{ref: d("97000")}
	ext := []Quote{{Source: "binance", Price: d("97100")}, {Source: "okx", Price: d("97120")}}
	_, r := steps(s, c, t0, 60, d("90000"), ext...)
	if !r.Raw.Equal(d("97110")) {
		t.Fatalf("raw %s, want the median of the two venues 97110", r.Raw)
	}
	if len(r.Sources) != 2 || r.Sources[0].Source != "binance" {
		t.Fatalf("sources %v, want the book left out", r.Sources)
	}
	stale := Quote{Source: "okx", Price: d("1"), At: t0}
	r = s.step(c, t0.Add(time.Hour), d("97050"), true, []Quote{stale})
	for _, q := range r.Sources {
		if q.Source == "okx" {
			t.Fatal("a quote an hour old counted")
		}
	}
}

func TestCombine(t *testing.T) {
	q := func(ps ...string) []Quote {
		var out []Quote
		for i, p := range ps {
			out = append(out, Quote{Source: string(rune('a' + i)), Price: d(p)})
		}
		return out
	}
	for _, tc := range []struct {
		in   []Quote
		want string
		kept int
	}{
		{q("100"), "100", 1},
		{q("100", "104"), "102", 2},
		{q("100", "120"), "110", 2}, // both 9 % from 110: the median of all
		{q("100", "101", "150"), "100.5", 2},
		{q("100", "101", "102", "103"), "101.5", 4},
	} {
		got, kept := combine(tc.in, d("0.05"))
		if !got.Equal(d(tc.want)) || len(kept) != tc.kept {
			t.Errorf("combine(%v) = %s with %d kept; want %s with %d", tc.in, got, len(kept), tc.want, tc.kept)
		}
	}
}

// The same inputs give the same prices: the series has no hidden state
// (no map order, no wall clock).
func TestStepIsDeterministic(t *testing.T) {
	c := DefaultConfig()
	run := func() decimal.Decimal {
		s := &series{ref: d("3450")}
		now := t0
		for i := range 500 {
			m := d("3450").Add(decimal.NewFromInt(int64(i%37 - 18)))
			now = now.Add(c.Interval)
			s.step(c, now, m, i%5 != 0, []Quote{{Source: "x", Price: d("3449"), At: now}})
		}
		return s.ref
	}
	if a, b := run(), run(); !a.Equal(b) {
		t.Fatalf("%s != %s", a, b)
	}
}
