package refprice

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// fakeBook is a book whose best prices a test sets.
type fakeBook struct {
	mu    sync.Mutex
	books map[string][2]decimal.Decimal
}

func (b *fakeBook) set(sym, bid, ask string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.books == nil {
		b.books = map[string][2]decimal.Decimal{}
	}
	b.books[sym] = [2]decimal.Decimal{d(bid), d(ask)}
}

func (b *fakeBook) BestBidAsk(sym string) (decimal.Decimal, decimal.Decimal, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	x, ok := b.books[sym]
	return x[0], x[1], ok
}

// fakeSource answers fixed quotes, or fails.
type fakeSource struct {
	quotes map[string]string
	err    error
	calls  int
}

func (f *fakeSource) Name() string { return "venue" }
func (f *fakeSource) Fetch(_ context.Context, _ []string) (map[string]Quote, error) {
	f.calls++
	if f.err != nil {
		return nil, f.err
	}
	out := map[string]Quote{}
	for k, v := range f.quotes {
		out[k] = Quote{Price: d(v), At: clockNow}
	}
	return out, nil
}

var clockNow time.Time

type env struct {
	st    store.Store
	dir   string
	book  *fakeBook
	now   time.Time
	svc   *Service
	pins  *memPins
	anch  map[string]decimal.Decimal
	extra []Source
}

type memPins struct {
	pins  map[string]Pin
	stamp string
}

func (m *memPins) Read(context.Context) (map[string]Pin, string, error) { return m.pins, m.stamp, nil }

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{dir: t.TempDir(), book: &fakeBook{}, now: t0, pins: &memPins{},
		anch: map[string]decimal.Decimal{"btcusdt": d("97000"), FiatIndex: d("3450")}}
	e.open(t)
	return e
}

func (e *env) open(t *testing.T) {
	t.Helper()
	if e.st != nil {
		_ = e.st.(*embedded.Store).Close()
	}
	st, err := embedded.Open(e.dir, embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e.st = st
	e.svc, err = New(context.Background(), Options{Store: st, Symbols: func() []string { return []string{"btcusdt", "ethusdt", FiatIndex} },
		Book: e.book, Sources: e.extra, Pins: e.pins, Anchors: e.anch, Now: func() time.Time { return e.now }, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
}

func (e *env) step(t *testing.T, n int) {
	t.Helper()
	for range n {
		e.now = e.now.Add(DefaultConfig().Interval)
		clockNow = e.now
		if err := e.svc.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

func (e *env) reader() *Reader {
	return NewReader(e.st, e.anch, time.Nanosecond, func() time.Time { return e.now })
}

func TestServiceWritesWhatReadersAnswer(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	r := e.reader()
	// Nothing stored yet: the anchors answer; ETH has none.
	if p, ok, _ := r.USDTPrice(ctx, "BTC"); !ok || !p.Equal(d("97000")) {
		t.Fatalf("anchor BTC %s %v", p, ok)
	}
	if _, ok, _ := r.USDTPrice(ctx, "ETH"); ok {
		t.Fatal("ETH has a price before any source")
	}
	e.book.set("btcusdt", "97100", "97300")
	e.book.set("ethusdt", "3400", "3402")
	e.book.set(FiatIndex, "3449", "3451")
	e.step(t, 12)
	if p, _, _ := r.USDTPrice(ctx, "BTC"); !p.Equal(d("97200")) {
		t.Fatalf("BTC %s, want the book's 97200 (within 2 %% of the anchor)", p)
	}
	// ETH had no anchor: its first price is the book's, as is.
	if p, _, _ := r.USDTPrice(ctx, "eth"); !p.Equal(d("3401")) {
		t.Fatalf("ETH %s", p)
	}
	if f, _ := r.FiatPerUSDT(ctx); !f.Equal(d("3450")) {
		t.Fatalf("MNT per USDT %s", f)
	}
	if p, ok, _ := r.USDTPrice(ctx, "MNT"); !ok || !p.Equal(d("1").DivRound(d("3450"), divScale)) {
		t.Fatalf("MNT in USDT %s", p)
	}
	if p, _, _ := r.PairPrice(ctx, "BTC", "MNT"); !p.Equal(d("97200").Mul(d("3450"))) {
		t.Fatalf("BTC in MNT %s", p)
	}
	if p, _, _ := r.PairPrice(ctx, "USDT", "MNT"); !p.Equal(d("3450")) {
		t.Fatalf("USDT in MNT %s", p)
	}
	all, _ := r.Indexes(ctx)
	if ix := all["btcusdt"]; ix.Pinned || !ix.Sources[SourceBook].Equal(d("97200")) || !ix.At.Equal(e.now) {
		t.Fatalf("stored index %+v", ix)
	}
}

// The must-show of the hardening issue at this layer: a burst of
// self-trades that sweep the book and leave it quoted far from the market
// moves neither the published price nor what a restarted service starts
// from.
func TestBurstDoesNotMoveThePublishedPrice(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.book.set("btcusdt", "96990", "97010")
	e.step(t, 60)
	e.book.set("btcusdt", "99", "101")
	e.step(t, 24) // two minutes
	r := e.reader()
	if p, _, _ := r.USDTPrice(ctx, "BTC"); !p.Equal(d("97000")) {
		t.Fatalf("BTC %s after the burst", p)
	}
	// A restart in the middle of the burst starts from the stored price,
	// not from the burst.
	e.open(t)
	e.step(t, 12)
	if p, _, _ := e.reader().USDTPrice(ctx, "BTC"); p.LessThan(d("97000").Mul(d("0.98"))) {
		t.Fatalf("BTC %s a minute after a restart during the burst", p)
	}
}

func TestPinsArePublishedAndTheComputedPriceGoesOn(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.book.set("btcusdt", "97100", "97300")
	e.step(t, 12)
	e.pins.pins, e.pins.stamp = map[string]Pin{"btcusdt": {Price: d("90000"), Note: "test"}}, "1"
	e.step(t, 1)
	r := e.reader()
	if p, _, _ := r.USDTPrice(ctx, "BTC"); !p.Equal(d("90000")) {
		t.Fatalf("pinned BTC %s", p)
	}
	all, _ := r.Indexes(ctx)
	if ix := all["btcusdt"]; !ix.Pinned || !ix.Computed.Equal(d("97200")) {
		t.Fatalf("pinned index %+v", ix)
	}
	e.pins.pins, e.pins.stamp = nil, ""
	e.step(t, 1)
	if p, _, _ := r.USDTPrice(ctx, "BTC"); !p.Equal(d("97200")) {
		t.Fatalf("unpinned BTC %s", p)
	}
}

func TestExternalSourcesArePolledAndOutliveAnOutage(t *testing.T) {
	e := newEnv(t)
	src := &fakeSource{quotes: map[string]string{"btcusdt": "97500", "ethusdt": "3410"}}
	e.extra = []Source{src}
	e.open(t)
	e.step(t, 1)
	r := e.reader()
	ctx := context.Background()
	if p, _, _ := r.USDTPrice(ctx, "ETH"); !p.Equal(d("3410")) {
		t.Fatalf("ETH %s from the venue", p)
	}
	e.step(t, 1) // 5 s later: not polled again
	if src.calls != 1 {
		t.Fatalf("%d fetches in 5 s", src.calls)
	}
	src.err = errors.New("unreachable")
	e.step(t, 3)
	all, _ := r.Indexes(ctx)
	if _, ok := all["ethusdt"].Sources["venue"]; !ok {
		t.Fatalf("the venue's last quote stopped counting at once: %+v", all["ethusdt"])
	}
	e.step(t, 12) // past Stale
	all, _ = r.Indexes(ctx)
	if _, ok := all["ethusdt"].Sources["venue"]; ok {
		t.Fatal("a quote older than a minute still counts")
	}
	if p, _, _ := r.USDTPrice(ctx, "ETH"); !p.Equal(d("3410")) {
		t.Fatalf("ETH %s: a price with no source now keeps its last value", p)
	}
}

func TestReaderCachesAndServesStaleOnErrors(t *testing.T) {
	e := newEnv(t)
	e.book.set("btcusdt", "97100", "97300")
	e.step(t, 12)
	ctx := context.Background()
	r := NewReader(e.st, nil, time.Hour, func() time.Time { return e.now })
	if p, _, _ := r.USDTPrice(ctx, "BTC"); !p.Equal(d("97200")) {
		t.Fatalf("BTC %s", p)
	}
	e.book.set("btcusdt", "97300", "97500")
	e.step(t, 60)
	if p, _, _ := r.USDTPrice(ctx, "BTC"); !p.Equal(d("97200")) {
		t.Fatalf("BTC %s within the reader's TTL", p)
	}
	e.now = e.now.Add(time.Hour)
	if p, _, _ := r.USDTPrice(ctx, "BTC"); !p.Equal(d("97400")) {
		t.Fatalf("BTC %s after the TTL", p)
	}
}

// failingQueries is a store whose queries fail.
type failingQueries struct{ store.Store }

func (failingQueries) Query(context.Context, store.Query) (store.Page, error) {
	return store.Page{}, errors.New("unreachable")
}

// A reader that cannot read the store answers what it last read for a
// minute, then the error: never a made-up price.
func TestReaderOnStoreErrors(t *testing.T) {
	e := newEnv(t)
	e.book.set("btcusdt", "97100", "97300")
	e.step(t, 12)
	ctx := context.Background()
	r := NewReader(e.st, e.anch, time.Second, func() time.Time { return e.now })
	if p, _, _ := r.USDTPrice(ctx, "BTC"); !p.Equal(d("97200")) {
		t.Fatalf("BTC %s", p)
	}
	r.st = failingQueries{e.st}
	e.now = e.now.Add(30 * time.Second)
	if p, _, err := r.USDTPrice(ctx, "BTC"); err != nil || !p.Equal(d("97200")) {
		t.Fatalf("BTC %s %v while the store fails for 30 s", p, err)
	}
	e.now = e.now.Add(time.Minute)
	if _, _, err := r.USDTPrice(ctx, "BTC"); err == nil {
		t.Fatal("no error after the store failed for 90 s")
	}
	fresh := NewReader(failingQueries{e.st}, e.anch, time.Second, nil)
	if _, _, err := fresh.USDTPrice(ctx, "BTC"); err == nil {
		t.Fatal("a reader that never read answered the anchor instead of the error")
	}
}
