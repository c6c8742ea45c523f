package marketdata

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/markets"
	"tenger/internal/store"
)

// countingStore counts the reads that reach the store, by item or partition.
type countingStore struct {
	store.Store
	mu      sync.Mutex
	gets    map[string]int
	queries map[string]int
}

func newCounting(st store.Store) *countingStore {
	return &countingStore{Store: st, gets: map[string]int{}, queries: map[string]int{}}
}

func (c *countingStore) Get(ctx context.Context, k store.Key) (store.Item, error) {
	c.mu.Lock()
	c.gets[k.PK+"|"+k.SK]++
	c.mu.Unlock()
	return c.Store.Get(ctx, k)
}

func (c *countingStore) Query(ctx context.Context, q store.Query) (store.Page, error) {
	c.mu.Lock()
	c.queries[q.PK]++
	c.mu.Unlock()
	return c.Store.Query(ctx, q)
}

// take returns and resets the counts.
func (c *countingStore) take() (gets, queries map[string]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	gets, queries = c.gets, c.queries
	c.gets, c.queries = map[string]int{}, map[string]int{}
	return
}

// reader builds a reader service on the env's store and clock.
func (e *env) reader(st store.Store) *Service {
	e.t.Helper()
	r, err := New(context.Background(), Options{Store: st, Markets: markets.Defaults(), Log: zerolog.Nop(),
		Now: e.clock.Now, Refresh: time.Second})
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

func (e *env) depth(s *Service, step, limit int) DepthView {
	e.t.Helper()
	v, err := s.Depth("btcusdt", step, limit)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

// book builds n levels per side around 100, one tick (0.01) apart.
func book(n int) (bids, asks []Level) {
	for i := range n {
		q := fmt.Sprintf("%d.5", i%7+1)
		bids = append(bids, lv(fmt.Sprintf("%d.%02d", 99-i/100, 99-i%100), q))
		asks = append(asks, lv(fmt.Sprintf("%d.%02d", 100+i/100, i%100), q))
	}
	return
}

// TestDepthItemRoundTrip: the fed service stores each pair's depth in one
// item, at most once per DepthStoreInterval and only when the book
// changed, and a reader answers every step and limit from it as the fed
// service does, for a short book (stored raw) and for one longer than the
// item keeps raw (the merged steps stored too).
func TestDepthItemRoundTrip(t *testing.T) {
	for _, n := range []int{5, 200, 650} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			e := newEnv(t)
			bids, asks := book(n)
			e.md.OnDepth("btcusdt", bids, asks, e.clock.Now())
			if err := e.md.Sync(context.Background()); err != nil {
				t.Fatal(err)
			}
			it, err := e.st.Get(context.Background(), store.Key{PK: "md#depth", SK: "btcusdt"})
			if err != nil {
				t.Fatalf("depth item: %v", err)
			}
			size := 0
			for k, v := range it {
				size += len(k) + len(fmt.Sprint(v))
			}
			if size > 100_000 {
				t.Errorf("depth item of %d levels a side takes %d bytes", n, size)
			}
			if it.Bool("m") != (n > MaxDepthLimit) {
				t.Errorf("merged views stored = %v for %d levels", it.Bool("m"), n)
			}
			r := e.reader(e.st)
			for step := 0; step <= MaxDepthStep; step++ {
				for _, limit := range []int{0, 3, 150, 200} {
					want, got := e.depth(e.md, step, limit), e.depth(r, step, limit)
					if !reflect.DeepEqual(got, want) {
						t.Errorf("step %d limit %d: reader %v\nwant %v", step, limit, got, want)
					}
				}
			}
			if v := e.depth(r, 0, 200); len(v.Buys) != min(n, 200) || v.TS != e.clock.Now().UnixMilli() {
				t.Errorf("step 0: %d buys, ts %d", len(v.Buys), v.TS)
			}
		})
	}
}

func TestDepthItemThrottled(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	stored := func() string {
		t.Helper()
		it, err := e.st.Get(ctx, store.Key{PK: "md#depth", SK: "btcusdt"})
		if err == store.ErrNotFound {
			return ""
		}
		if err != nil {
			t.Fatal(err)
		}
		return it.Str("b")
	}
	setBid := func(price string) {
		t.Helper()
		e.md.OnDepth("btcusdt", []Level{lv(price, "1")}, nil, e.clock.Now())
		if err := e.md.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	setBid("100")
	if got := stored(); got != "100,1" {
		t.Fatalf("first book stored %q", got)
	}
	// Changes within the interval wait; the newest is written once it is due.
	e.clock.Add(300 * time.Millisecond)
	setBid("101")
	e.clock.Add(300 * time.Millisecond)
	setBid("102")
	if got := stored(); got != "100,1" {
		t.Fatalf("stored within the interval: %q", got)
	}
	e.clock.Add(400 * time.Millisecond)
	if err := e.md.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if got := stored(); got != "102,1" {
		t.Fatalf("after the interval: %q", got)
	}
	// Nothing changed: nothing written (the item is not rewritten on every tick).
	if err := e.st.Delete(ctx, store.Key{PK: "md#depth", SK: "btcusdt"}, nil); err != nil {
		t.Fatal(err)
	}
	e.clock.Add(2 * time.Second)
	if err := e.md.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if got := stored(); got != "" {
		t.Fatalf("an unchanged book was written again: %q", got)
	}
	// A change not yet due is written when the loop stops.
	setBid("103")
	e.md.Start()
	e.clock.Add(100 * time.Millisecond)
	setBid("104")
	e.md.Stop()
	if got := stored(); got != "104,1" {
		t.Fatalf("after Stop: %q", got)
	}
}

// TestReaderFollowsStore: a reader (a Lambda container in AWS) answers at
// once from what the fed service stored, serves reads within the refresh
// time from memory, and after it reloads only what the call needs, one
// store read per part however many requests ask at once.
func TestReaderFollowsStore(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.feed("btcusdt", sequence()[:3]...)
	e.md.OnDepth("btcusdt", []Level{lv("94", "1")}, []Level{lv("96", "2")}, e.clock.Now())
	if err := e.md.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	cs := newCounting(e.st)
	r := e.reader(cs)

	same := func(stage string) {
		t.Helper()
		wantT, _ := e.md.Trades("btcusdt", 0)
		gotT, err := r.Trades("btcusdt", 0)
		if err != nil || !reflect.DeepEqual(gotT, wantT) {
			t.Errorf("%s: trades %v %v, want %v", stage, gotT, err, wantT)
		}
		wantK, _ := e.md.Ticker("btcusdt")
		gotK, err := r.Ticker("btcusdt")
		if err != nil || gotK != wantK {
			t.Errorf("%s: ticker %+v %v, want %+v", stage, gotK, err, wantK)
		}
		if got, want := r.Tickers()["btcusdt"], e.md.Tickers()["btcusdt"]; got != want {
			t.Errorf("%s: tickers %+v, want %+v", stage, got, want)
		}
		for _, p := range Periods {
			want, _ := e.md.Klines(ctx, "btcusdt", p, 0, 0, 0)
			got, err := r.Klines(ctx, "btcusdt", p, 0, 0, 0)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %s klines %v %v, want %v", stage, p, got, err, want)
			}
		}
		if got, want := r.Sparkline("btcusdt"), e.md.Sparkline("btcusdt"); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: sparkline %v, want %v", stage, got, want)
		}
		for step := 0; step <= MaxDepthStep; step++ {
			if got, want := e.depth(r, step, 0), e.depth(e.md, step, 0); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: depth step %d %v, want %v", stage, step, got, want)
			}
		}
		wp, _ := e.md.LastPrice("btcusdt")
		if gp, ok := r.LastPrice("btcusdt"); !ok || !gp.Equal(wp) {
			t.Errorf("%s: last price %s, want %s", stage, gp, wp)
		}
	}
	same("cold start")

	// More trades and a new book: within the refresh time the reader
	// answers from memory without reading the store.
	e.feed("btcusdt", sequence()[3:]...)
	e.md.OnDepth("btcusdt", []Level{lv("100", "3")}, []Level{lv("102", "4")}, e.clock.Now())
	e.clock.Add(DepthStoreInterval)
	if err := e.md.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	e.clock.Add(-DepthStoreInterval + 999*time.Millisecond)
	cs.take()
	if v := e.depth(r, 0, 0); !reflect.DeepEqual(v.Buys, [][2]string{{"94.00", "1"}}) {
		t.Errorf("depth reloaded within the refresh time: %v", v)
	}
	if tr, _ := r.Trades("btcusdt", 0); len(tr) != 3 {
		t.Errorf("trades reloaded within the refresh time: %d", len(tr))
	}
	if g, q := cs.take(); len(g)+len(q) != 0 {
		t.Errorf("reads within the refresh time reached the store: gets %v queries %v", g, q)
	}

	// Once the refresh time has passed each call reloads what it needs,
	// once however many ask at the same time.
	e.clock.Add(time.Millisecond)
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := r.Depth("btcusdt", 0, 0); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if g, q := cs.take(); !reflect.DeepEqual(g, map[string]int{"md#depth|btcusdt": 1}) || len(q) != 0 {
		t.Errorf("20 concurrent depth calls read: gets %v queries %v", g, q)
	}
	if _, err := r.Trades("btcusdt", 0); err != nil {
		t.Fatal(err)
	}
	if g, q := cs.take(); !reflect.DeepEqual(g, map[string]int{"md#recent|btcusdt": 1}) || len(q) != 0 {
		t.Errorf("trades read: gets %v queries %v", g, q)
	}
	if _, err := r.Klines(ctx, "btcusdt", Min5, 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	if g, q := cs.take(); len(g) != 0 || !reflect.DeepEqual(q, map[string]int{"md#k#btcusdt#5min": 1}) {
		t.Errorf("5min klines read: gets %v queries %v", g, q)
	}
	same("after the refresh time")
	// The candles were merged, not replaced: the reader still has the
	// ones before its last reload.
	e.checkKlinesOf(r)
}

func (e *env) checkKlinesOf(s *Service) {
	e.t.Helper()
	for _, p := range Periods {
		ks, err := s.Klines(context.Background(), "btcusdt", p, 0, 0, 0)
		if err != nil {
			e.t.Fatal(err)
		}
		var rows []string
		for _, k := range ks {
			rows = append(rows, row(k))
		}
		if got := strings.Join(rows, "\n"); got != wantKlines[p] {
			e.t.Errorf("%s:\n%s\nwant\n%s", p, got, wantKlines[p])
		}
	}
}

// TestReaderLastPrice: a reader's last price follows the stored recent
// trades, and a store failure is an error rather than no price.
func TestReaderLastPrice(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	r := e.reader(e.st)
	if _, ok, err := r.lastPriceOf(ctx, "btcusdt"); ok || err != nil {
		t.Fatalf("price before any trade: %v %v", ok, err)
	}
	e.feed("btcusdt", tr("1", "2026-02-02T00:00:10Z", "50000", "1", "BUY"))
	e.clock.Add(time.Second)
	if p, ok, err := r.lastPriceOf(ctx, "btcusdt"); !ok || err != nil || !p.Equal(d("50000")) {
		t.Fatalf("price %s %v %v", p, ok, err)
	}
	e.feed("btcusdt", tr("2", "2026-02-02T00:00:20Z", "51000", "1", "BUY"))
	e.clock.Add(time.Second)
	if p, _, _ := r.lastPriceOf(ctx, "btcusdt"); !p.Equal(d("51000")) {
		t.Fatalf("price after a new trade %s", p)
	}
	// A reader that cannot read at all says so.
	broken := e.reader(failingStore{e.st})
	if _, _, err := broken.lastPriceOf(ctx, "btcusdt"); err == nil {
		t.Fatal("no error from a store that fails")
	}
	if _, err := broken.Depth("btcusdt", 0, 0); err == nil {
		t.Fatal("depth without an error from a store that fails")
	}
}

// TestBestBidAsk: the fed service answers the top of the book the engine
// last published, for the reference prices to sample.
func TestBestBidAsk(t *testing.T) {
	e := newEnv(t)
	if _, _, ok := e.md.BestBidAsk("btcusdt"); ok {
		t.Fatal("a book before any depth")
	}
	e.md.OnDepth("btcusdt", []Level{{Price: d("99"), Qty: d("1")}, {Price: d("98"), Qty: d("1")}},
		[]Level{{Price: d("101"), Qty: d("2")}}, at("2026-02-02T00:00:00Z"))
	_ = e.md.Sync(context.Background())
	bid, ask, ok := e.md.BestBidAsk("btcusdt")
	if !ok || !bid.Equal(d("99")) || !ask.Equal(d("101")) {
		t.Fatalf("best %s / %s %v", bid, ask, ok)
	}
	e.md.OnDepth("btcusdt", nil, []Level{{Price: d("101"), Qty: d("2")}}, at("2026-02-02T00:00:01Z"))
	_ = e.md.Sync(context.Background())
	if bid, _, ok := e.md.BestBidAsk("btcusdt"); !ok || !bid.IsZero() {
		t.Fatalf("one-sided book: bid %s %v", bid, ok)
	}
	if _, _, ok := e.md.BestBidAsk("nopair"); ok {
		t.Fatal("an unknown pair has a book")
	}
}

type failingStore struct{ store.Store }

func (failingStore) Get(context.Context, store.Key) (store.Item, error) {
	return nil, fmt.Errorf("store down")
}
