package spot

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/queue"
	qembedded "tenger/internal/queue/embedded"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// env is one exchange: store, ledger, queue, service and engine.
type env struct {
	t       testing.TB
	ctx     context.Context
	st      store.Store
	led     *ledger.Ledger
	q       queue.Queue
	cat     *markets.Catalogue
	svc     *Service
	eng     *Engine
	journal *matching.MemoryJournal
	feed    *recFeed
	dir     string
}

// recFeed records what the engine publishes.
type recFeed struct {
	mu     sync.Mutex
	trades []marketdata.Trade
	depths int
	asks   map[string][]marketdata.Level // last asks per symbol
}

func (f *recFeed) OnTrades(symbol string, ts []marketdata.Trade) {
	f.mu.Lock()
	f.trades = append(f.trades, ts...)
	f.mu.Unlock()
}

func (f *recFeed) OnDepth(symbol string, bids, asks []marketdata.Level, at time.Time) {
	f.mu.Lock()
	f.depths++
	if f.asks == nil {
		f.asks = map[string][]marketdata.Level{}
	}
	f.asks[symbol] = asks
	f.mu.Unlock()
}

func newEnv(t testing.TB) *env {
	t.Helper()
	dir := t.TempDir()
	st, err := embedded.Open(dir+"/store", embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	qdb, err := qembedded.Open(dir+"/queue", qembedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = qdb.Close() })
	q, err := qdb.Queue("orders", qembedded.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, ctx: context.Background(), st: st, led: ledger.New(st, nil), q: q, cat: markets.Defaults(),
		journal: &matching.MemoryJournal{}, feed: &recFeed{}, dir: dir}
	e.svc = New(Options{Store: st, Ledger: e.led, Markets: e.cat, Orders: q})
	e.eng = e.newEngine()
	return e
}

// newEngine builds an engine on the env's journal (a restart when one ran before).
func (e *env) newEngine() *Engine {
	e.t.Helper()
	eng, err := NewEngine(e.ctx, EngineOptions{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: e.q,
		Journal: e.journal, Feed: e.feed, Visibility: 200 * time.Millisecond, SnapshotEvery: -1})
	if err != nil {
		e.t.Fatal(err)
	}
	return eng
}

// diskEngine builds an engine journalling and snapshotting in dir (a
// restart when one ran there before); snapshots only when a test asks.
func (e *env) diskEngine(dir string) *Engine {
	e.t.Helper()
	eng, err := NewEngine(e.ctx, EngineOptions{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: e.q, DataDir: dir,
		Feed: e.feed, SnapshotEvery: -1})
	if err != nil {
		e.t.Fatal(err)
	}
	return eng
}

// drain runs the engine until the queue is empty.
func (e *env) drain() {
	e.t.Helper()
	if err := drainEngine(e.ctx, e.eng, e.q); err != nil {
		e.t.Fatal(err)
	}
}

func drainEngine(ctx context.Context, eng *Engine, q queue.Queue) error {
	for {
		ds, err := q.Receive(ctx, eng.o.Batch, eng.o.Visibility, 0)
		if err != nil {
			return err
		}
		if len(ds) == 0 {
			return nil
		}
		if err := eng.process(ctx, ds); err != nil {
			return err
		}
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func (e *env) deposit(uid, coin, amt string) {
	e.t.Helper()
	_, err := e.led.Post(e.ctx, ledger.Posting{ID: "dep:" + uid + ":" + coin + ":" + amt, Reason: "deposit",
		Legs: []ledger.Leg{ledger.Move(ledger.ChainAccount("TEST"), spotAccount(uid), coin, dec(amt))}})
	if err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) place(uid string, r PlaceRequest) string {
	e.t.Helper()
	id, err := e.svc.PlaceOrder(e.ctx, uid, r)
	if err != nil {
		e.t.Fatalf("place %+v: %v", r, err)
	}
	return id
}

func limit(sym, side, price, vol string) PlaceRequest {
	return PlaceRequest{Symbol: sym, Side: side, Type: TypeLimit, Price: price, Volume: vol}
}

func (e *env) wantBal(uid, coin, avail, frozen string) {
	e.t.Helper()
	a := spotAccount(uid)
	if uid == "FEES" {
		a = ledger.FeeAccount()
	}
	b, err := e.led.Balance(e.ctx, a, coin)
	if err != nil {
		e.t.Fatal(err)
	}
	if !b.Available.Equal(dec(avail)) || !b.Frozen.Equal(dec(frozen)) {
		e.t.Fatalf("%s %s = %s/%s, want %s/%s", uid, coin, b.Available, b.Frozen, avail, frozen)
	}
}

func (e *env) order(uid, id string) Order {
	e.t.Helper()
	o, err := e.svc.GetOrder(e.ctx, uid, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return o
}

func (e *env) wantOrder(uid, id string, st Status, deal, money, fee string) {
	e.t.Helper()
	o := e.order(uid, id)
	if o.Status != st || !o.DealVolume.Equal(dec(deal)) || !o.DealMoney.Equal(dec(money)) || !o.Fee.Equal(dec(fee)) {
		e.t.Fatalf("order %s: status %s deal %s money %s fee %s; want %s %s %s %s", id, o.Status.Text(),
			o.DealVolume, o.DealMoney, o.Fee, st.Text(), deal, money, fee)
	}
}

// wantReason checks why an order ended, as clients see it (end_reason).
func (e *env) wantReason(uid, id, reason string) {
	e.t.Helper()
	if got := e.order(uid, id).View(2).EndReason; got != reason {
		e.t.Fatalf("order %s: end_reason %q, want %q", id, got, reason)
	}
}

func (e *env) audit() {
	e.t.Helper()
	rep, err := e.led.Audit(e.ctx, "BTC", "USDT", "ETH", "MNT", "TRX", "XRP", "TON")
	if err != nil {
		e.t.Fatal(err)
	}
	if !rep.Clean() {
		var sb strings.Builder
		rep.Write(&sb)
		e.t.Fatalf("audit not clean:\n%s", sb.String())
	}
}

func wantCode(t testing.TB, err error, code string) {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Entry.Code != code {
		t.Fatalf("error %v, want code %s", err, code)
	}
}

// waitVisible waits until messages in flight are delivered again.
func waitVisible(e *env) { time.Sleep(e.eng.o.Visibility + 50*time.Millisecond) }

func newCatalogue() *markets.Catalogue { return markets.Defaults() }
