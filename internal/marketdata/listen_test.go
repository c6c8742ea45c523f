package marketdata

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"tenger/internal/store"
)

// recorder is a Listener that records what it hears.
type recorder struct {
	mu     sync.Mutex
	books  []string // "symbol seq best-bid best-ask"
	trades []string // "symbol id,id,..."
}

func (r *recorder) BookApplied(symbol string, seq int64, bids, asks []Level) {
	r.mu.Lock()
	defer r.mu.Unlock()
	top := func(ls []Level) string {
		if len(ls) == 0 {
			return "-"
		}
		return ls[0].Price.String()
	}
	r.books = append(r.books, fmt.Sprintf("%s %d %s %s", symbol, seq, top(bids), top(asks)))
}

func (r *recorder) TradesApplied(symbol string, trades []Trade) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := symbol + " "
	for i, t := range trades {
		if i > 0 {
			s += ","
		}
		s += t.ID
	}
	r.trades = append(r.trades, s)
}

func (r *recorder) take() (books, trades []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	books, trades, r.books, r.trades = r.books, r.trades, nil, nil
	return
}

func (e *env) book(bid, ask string, when time.Time) {
	e.t.Helper()
	e.md.OnDepth("btcusdt", []Level{lv(bid, "1")}, []Level{lv(ask, "1")}, when)
	if err := e.md.Sync(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) seq() int64 {
	e.t.Helper()
	v, err := e.md.Depth("btcusdt", 0, 1)
	if err != nil {
		e.t.Fatal(err)
	}
	return v.Seq
}

// TestBookVersions: a snapshot's version is its time in Unix ms, or the
// previous version + 1 when that is not above it (two snapshots in one
// millisecond, a clock that went back, no time): strictly increasing.
func TestBookVersions(t *testing.T) {
	e := newEnv(t)
	if s := e.seq(); s != 0 {
		t.Fatalf("version before any book: %d", s)
	}
	t0 := e.clock.Now()
	ms := t0.UnixMilli()
	steps := []struct {
		at   time.Time
		want int64
	}{
		{t0, ms},
		{t0, ms + 1},                     // same millisecond
		{t0.Add(-time.Second), ms + 2},   // the clock went back
		{time.Time{}, ms + 3},            // no time
		{t0.Add(time.Second), ms + 1000}, // later: its time
		{t0.Add(time.Second + time.Microsecond), ms + 1001}, // same millisecond again
	}
	for i, s := range steps {
		e.book("100", "101", s.at)
		if got := e.seq(); got != s.want {
			t.Fatalf("snapshot %d: version %d, want %d", i, got, s.want)
		}
	}
	// Every step shows the same version.
	for step := 0; step <= MaxDepthStep; step++ {
		if v, _ := e.md.Depth("btcusdt", step, 0); v.Seq != ms+1001 {
			t.Fatalf("step %d version %d", step, v.Seq)
		}
	}
	// The JSON (REST and pushed) does not carry it.
	e.push.take()
	e.book("100", "102", t0.Add(2*time.Second))
	for _, m := range e.push.on(DepthChannel("btcusdt", 0)) {
		var raw map[string]any
		decodeJSON(t, m.Body, &raw)
		tick, _ := raw["tick"].(map[string]any)
		if _, ok := tick["Seq"]; ok || len(tick) != 3 {
			t.Fatalf("pushed depth %s", m.Body)
		}
	}
}

// TestVersionsSurviveRestartAndReaders: the depth item keeps the version,
// readers answer it, an item written before versions were kept reads as
// its time, and a restarted service's versions go on above the old ones.
func TestVersionsSurviveRestartAndReaders(t *testing.T) {
	e := newEnv(t)
	t0 := e.clock.Now()
	e.book("100", "101", t0)
	e.book("100", "102", t0) // version ms+1
	if err := e.md.sync(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	want := t0.UnixMilli() + 1
	r := e.reader(e.st)
	if v := e.depth(r, 0, 0); v.Seq != want || !reflect.DeepEqual(v.Asks, [][2]string{{"102.00", "1"}}) {
		t.Fatalf("reader: version %d asks %v, want %d", v.Seq, v.Asks, want)
	}
	// An item without u (written by an older version of the service).
	ctx := context.Background()
	it, err := e.st.Get(ctx, store.Key{PK: depthPK, SK: "btcusdt"})
	if err != nil {
		t.Fatal(err)
	}
	if it.Int("u") != want {
		t.Fatalf("stored version %v", it["u"])
	}
	delete(it, "u")
	if err := e.st.Put(ctx, it, nil); err != nil {
		t.Fatal(err)
	}
	e.clock.Add(2 * time.Second) // past the reader's refresh
	if v := e.depth(r, 0, 0); v.Seq != t0.UnixMilli() {
		t.Fatalf("item without u: version %d, want its time %d", v.Seq, t0.UnixMilli())
	}
	// A restart: the engine sends the book again, at a later time.
	e.restart()
	e.book("100", "101", e.clock.Now())
	if s := e.seq(); s <= want {
		t.Fatalf("version after restart %d, not above %d", s, want)
	}
}

// TestListener: a listener first hears every current book, then each
// snapshot with its version and each batch of new trades, in order;
// replayed trades are not told again; stop ends it.
func TestListener(t *testing.T) {
	e := newEnv(t)
	t0 := e.clock.Now()
	e.book("100", "101", t0)
	ms := t0.UnixMilli()
	var r recorder
	stop := e.md.Listen(&r)
	books, trades := r.take()
	if !reflect.DeepEqual(books, []string{fmt.Sprintf("btcusdt %d 100 101", ms)}) || trades != nil {
		t.Fatalf("on Listen: books %v trades %v", books, trades)
	}
	e.md.OnDepth("btcusdt", []Level{lv("100", "1")}, []Level{lv("102", "1")}, t0)
	e.md.OnDepth("btcusdt", []Level{lv("99", "1")}, []Level{lv("102", "1")}, t0)
	e.md.OnTrades("btcusdt", []Trade{tr("1", "2026-02-02T00:00:10Z", "100", "1", "BUY"),
		tr("2", "2026-02-02T00:00:11Z", "101", "1", "SELL")})
	e.md.OnTrades("btcusdt", []Trade{tr("2", "2026-02-02T00:00:11Z", "101", "1", "SELL"), // replayed
		tr("3", "2026-02-02T00:00:12Z", "102", "1", "BUY")})
	e.md.OnTrades("btcusdt", []Trade{tr("3", "2026-02-02T00:00:12Z", "102", "1", "BUY")}) // nothing new
	if err := e.md.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	books, trades = r.take()
	wantBooks := []string{fmt.Sprintf("btcusdt %d 100 102", ms+1), fmt.Sprintf("btcusdt %d 99 102", ms+2)}
	if !reflect.DeepEqual(books, wantBooks) || !reflect.DeepEqual(trades, []string{"btcusdt 1,2", "btcusdt 3"}) {
		t.Fatalf("books %v (want %v) trades %v", books, wantBooks, trades)
	}
	if s := e.seq(); s != ms+2 {
		t.Fatalf("depth version %d, want the last told %d", s, ms+2)
	}
	stop()
	e.book("98", "102", t0)
	if books, _ := r.take(); books != nil {
		t.Fatalf("after stop: %v", books)
	}
}
