package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/ledger"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/queue"
	qembedded "tenger/internal/queue/embedded"
	"tenger/internal/spot"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// exchange is the engine's world on embedded ports in a temp dir: the
// store and the orders queue the local runtime uses, the ledger, the
// trading service that places orders, and the engine's data directory.
type exchange struct {
	t       *testing.T
	st      store.Store
	q       queue.Queue
	led     *ledger.Ledger
	cat     *markets.Catalogue
	trading *spot.Service
	dataDir string
}

func newExchange(t *testing.T) *exchange {
	t.Helper()
	dir := t.TempDir()
	st, err := embedded.Open(filepath.Join(dir, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	qdb, err := qembedded.Open(filepath.Join(dir, "queue"), qembedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = qdb.Close() })
	q, err := qdb.Queue("orders", qembedded.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x := &exchange{t: t, st: st, q: q, led: ledger.New(st, nil), cat: markets.Defaults(), dataDir: filepath.Join(dir, "engine")}
	x.trading = spot.New(spot.Options{Store: st, Ledger: x.led, Markets: x.cat, Orders: q})
	return x
}

// service builds the engine service as main does (snapshots only on stop,
// so the test sees the stop write one).
func (x *exchange) service(feed marketdata.Feed) *service {
	x.t.Helper()
	svc, err := newService(context.Background(), spot.EngineOptions{Store: x.st, Ledger: x.led, Markets: x.cat, Orders: x.q,
		DataDir: x.dataDir, Feed: feed, SnapshotEvery: -1, Visibility: 2 * time.Second, Log: zerolog.Nop()}, serviceOptions{})
	if err != nil {
		x.t.Fatal(err)
	}
	return svc
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func (x *exchange) deposit(uid, coin, amount string) {
	x.t.Helper()
	if _, err := x.led.Post(context.Background(), ledger.Posting{ID: "dep:" + uid + ":" + coin, Reason: "deposit",
		Legs: []ledger.Leg{ledger.Move(ledger.ChainAccount("TEST"), ledger.UserAccount(uid, ledger.Spot), coin, dec(amount))}}); err != nil {
		x.t.Fatal(err)
	}
}

func (x *exchange) place(uid, side, price, volume string) string {
	x.t.Helper()
	id, err := x.trading.PlaceOrder(context.Background(), uid, spot.PlaceRequest{Symbol: "btcusdt", Side: side, Type: "LIMIT",
		Price: price, Volume: volume})
	if err != nil {
		x.t.Fatalf("place %s %s@%s: %v", side, volume, price, err)
	}
	return id
}

func (x *exchange) balance(uid, coin string) ledger.Balance {
	x.t.Helper()
	b, err := x.led.Balance(context.Background(), ledger.UserAccount(uid, ledger.Spot), coin)
	if err != nil {
		x.t.Fatal(err)
	}
	return b
}

// waitStatus waits until the order has the status.
func (x *exchange) waitStatus(uid, id string, want spot.Status) spot.Order {
	x.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		o, err := x.trading.GetOrder(context.Background(), uid, id)
		if err == nil && o.Status == want {
			return o
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("order %s: status %v (%v), want %v", id, o.Status, err, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// feedRec records the trades the engine publishes.
type feedRec struct {
	mu     sync.Mutex
	trades []marketdata.Trade
}

func (f *feedRec) OnTrades(_ string, ts []marketdata.Trade) {
	f.mu.Lock()
	f.trades = append(f.trades, ts...)
	f.mu.Unlock()
}
func (f *feedRec) OnDepth(string, []marketdata.Level, []marketdata.Level, time.Time) {}

func getHealth(t *testing.T, h http.Handler) (int, healthView) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	var v healthView
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("healthz body %q: %v", rec.Body.String(), err)
	}
	return rec.Code, v
}

// start runs the service until the returned stop (SIGTERM) is called; the
// engine is also stopped at cleanup, before the store and queue close.
func start(t *testing.T, svc *service) (sigterm func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- svc.run(ctx) }()
	var once sync.Once
	var err error
	stop := func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-ran:
			case <-time.After(10 * time.Second):
				err = errors.New("engine did not stop within 10 s")
			}
		})
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

// TestEngineMatchesSettlesAndStopsGracefully: two users cross on btcusdt
// through the queue; the engine matches and settles the trade on the
// ledger (each side receives what it bought less its fee, nothing stays
// held), health reports the batches; a stop (SIGTERM) writes the books'
// snapshot, and a restarted engine restores the resting order from it.
func TestEngineMatchesSettlesAndStopsGracefully(t *testing.T) {
	x := newExchange(t)
	const seller, buyer = "10000001", "10000002"
	x.deposit(seller, "BTC", "1")
	x.deposit(buyer, "USDT", "10000")
	feed := &feedRec{}
	svc := x.service(feed)
	if code, v := getHealth(t, svc.healthHandler()); code != http.StatusServiceUnavailable || v.Running {
		t.Errorf("health before run: %d %+v", code, v)
	}
	sigterm := start(t, svc)

	sell := x.place(seller, "SELL", "50000", "0.1")
	buy := x.place(buyer, "BUY", "50000", "0.1")
	x.waitStatus(seller, sell, spot.StatusFilled)
	bo := x.waitStatus(buyer, buy, spot.StatusFilled)
	if !bo.DealVolume.Equal(dec("0.1")) || !bo.DealMoney.Equal(dec("5000")) {
		t.Errorf("buy order deal = %s for %s", bo.DealVolume, bo.DealMoney)
	}
	// A resting bid, left in the book for the restart.
	x.place(buyer, "BUY", "40000", "0.05")
	deadline := time.Now().Add(10 * time.Second)
	for svc.q.deleted.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}

	// Settlement: the buyer paid 5000 USDT (2000 more held for the resting
	// bid) and got 0.1 BTC less the fee; the seller gave 0.1 BTC and got
	// 5000 USDT less the fee.
	bu, bb := x.balance(buyer, "USDT"), x.balance(buyer, "BTC")
	su, sb := x.balance(seller, "USDT"), x.balance(seller, "BTC")
	if !bu.Available.Equal(dec("3000")) || !bu.Frozen.Equal(dec("2000")) {
		t.Errorf("buyer USDT = %s + %s frozen, want 3000 + 2000", bu.Available, bu.Frozen)
	}
	if !sb.Available.Equal(dec("0.9")) || !sb.Frozen.IsZero() {
		t.Errorf("seller BTC = %s + %s frozen, want 0.9", sb.Available, sb.Frozen)
	}
	buyFee, sellFee := dec("0.1").Sub(bb.Available), dec("5000").Sub(su.Available)
	if buyFee.IsNegative() || buyFee.GreaterThan(dec("0.001")) || sellFee.IsNegative() || sellFee.GreaterThan(dec("50")) {
		t.Errorf("fees: buyer %s BTC, seller %s USDT", buyFee, sellFee)
	}
	rep, err := x.led.Audit(context.Background(), "BTC", "USDT")
	if err != nil || !rep.Clean() {
		t.Fatalf("audit: %v %v", rep.Problems, err)
	}
	feed.mu.Lock()
	if len(feed.trades) != 1 || !feed.trades[0].Price.Equal(dec("50000")) {
		t.Errorf("published trades = %+v", feed.trades)
	}
	feed.mu.Unlock()

	code, v := getHealth(t, svc.healthHandler())
	if code != http.StatusOK || v.Status != "ok" || !v.Running || v.Received < 3 || v.Done != v.Received || v.LastBatchMs == 0 || v.LagMs < 0 {
		t.Errorf("health while running: %d %+v", code, v)
	}

	// SIGTERM with a command in hand: the batch is finished and settled,
	// the loop ends, the snapshot is written, the journal closed.
	late := x.place(seller, "SELL", "60000", "0.2")
	if err := sigterm(); err != nil {
		t.Fatalf("run after SIGTERM: %v", err)
	}
	if code, v := getHealth(t, svc.healthHandler()); code != http.StatusServiceUnavailable || v.Running || v.Status != "stopping" {
		t.Errorf("health after stop: %d %+v", code, v)
	}
	snap, err := os.Stat(filepath.Join(x.dataDir, "spot-snapshots", "btcusdt.snap"))
	if err != nil || snap.Size() == 0 {
		t.Fatalf("snapshot: %v", err)
	}
	seq, err := os.ReadFile(filepath.Join(x.dataDir, "spot-snapshots", "seq"))
	if n, perr := strconv.Atoi(strings.TrimSpace(string(seq))); err != nil || perr != nil || n < 3 {
		t.Errorf("snapshot seq = %q (%v)", seq, err)
	}

	// Restart from the directory: the resting bid (and the late ask, if
	// the engine took it before the stop) are back in the book.
	again := x.service(nil)
	bids := again.eng.BookDepth("btcusdt", matching.Buy, 5)
	if len(bids) != 1 {
		t.Fatalf("bids after restart = %+v", bids)
	}
	asks := again.eng.BookDepth("btcusdt", matching.Sell, 5)
	if lo, err := x.trading.GetOrder(context.Background(), seller, late); err != nil {
		t.Fatal(err)
	} else if svc.q.deleted.Load() == 4 && len(asks) != 1 {
		t.Errorf("late ask acknowledged before the stop but not restored: %+v (order %+v)", asks, lo)
	}
	if err := again.eng.Stop(); err != nil {
		t.Fatal(err)
	}
}

// TestEngineRebuildsLostJournal: settled trades with an empty data
// directory (a lost volume, or a new task on empty storage) rebuild the
// books from the stored open orders: the resting order is back with its
// remaining quantity, and trade ids continue.
func TestEngineRebuildsLostJournal(t *testing.T) {
	x := newExchange(t)
	x.deposit("10000001", "BTC", "1")
	x.deposit("10000002", "USDT", "10000")
	sigterm := start(t, x.service(nil))
	sell := x.place("10000001", "SELL", "50000", "0.03")
	x.waitStatus("10000002", x.place("10000002", "BUY", "50000", "0.01"), spot.StatusFilled)
	if err := sigterm(); err != nil {
		t.Fatal(err)
	}
	x.dataDir += "-empty"
	svc := x.service(nil)
	if asks := svc.eng.BookDepth("btcusdt", matching.Sell, 5); len(asks) != 1 || asks[0].Qty != 20000 {
		t.Fatalf("asks after the rebuild = %+v", asks)
	}
	sigterm = start(t, svc)
	x.waitStatus("10000002", x.place("10000002", "BUY", "50000", "0.02"), spot.StatusFilled)
	x.waitStatus("10000001", sell, spot.StatusFilled)
	if err := sigterm(); err != nil {
		t.Fatal(err)
	}
}

// failingQueue fails every receive: the engine loop keeps retrying, and
// health must notice that no receive completes.
type failingQueue struct{ queue.Queue }

func (failingQueue) Receive(context.Context, int, time.Duration, time.Duration) ([]queue.Delivery, error) {
	return nil, errors.New("sqs: access denied")
}

func TestHealthStalledAndHealthcheck(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	q := newWatchedQueue(failingQueue{}, 0, clock)
	svc := &service{q: q, now: clock, staleAfter: time.Minute, started: clock(), log: zerolog.Nop()}
	svc.running.Store(true)
	if _, err := q.Receive(context.Background(), 10, time.Second, 0); err == nil {
		t.Fatal("failing receive succeeded")
	}
	srv := httptest.NewServer(svc.healthHandler())
	defer srv.Close()
	if code, v := getHealth(t, svc.healthHandler()); code != http.StatusOK || v.ReceiveErrors != 1 || v.LastError != "sqs: access denied" {
		t.Errorf("fresh engine: %d %+v", code, v)
	}
	mu.Lock()
	now = now.Add(61 * time.Second)
	mu.Unlock()
	if code, v := getHealth(t, svc.healthHandler()); code != http.StatusServiceUnavailable || !strings.Contains(v.Status, "stalled") {
		t.Errorf("stalled engine: %d %+v", code, v)
	}

	// The healthcheck subcommand probes the same endpoint.
	addr := strings.TrimPrefix(srv.URL, "http://")
	if code := healthcheck(addr); code != 1 {
		t.Errorf("healthcheck of a stalled engine = %d", code)
	}
	mu.Lock()
	now = time.UnixMilli(q.lastReceive.Load())
	mu.Unlock()
	if code := healthcheck(addr); code != 0 {
		t.Errorf("healthcheck of a healthy engine = %d", code)
	}
	if code := healthcheck("127.0.0.1:1"); code != 1 {
		t.Errorf("healthcheck without an engine = %d", code)
	}
}

// TestWatchedQueueRaisesShortWaits: the engine's 100 ms receive wait is
// raised to minWait (a long poll on SQS), longer waits are kept.
func TestWatchedQueueRaisesShortWaits(t *testing.T) {
	rq := &waitRec{}
	q := newWatchedQueue(rq, time.Second, nil)
	for _, w := range []time.Duration{100 * time.Millisecond, 5 * time.Second} {
		if _, err := q.Receive(context.Background(), 1, time.Second, w); err != nil {
			t.Fatal(err)
		}
	}
	if len(rq.waits) != 2 || rq.waits[0] != time.Second || rq.waits[1] != 5*time.Second {
		t.Errorf("waits = %v", rq.waits)
	}
}

type waitRec struct {
	queue.Queue
	waits []time.Duration
}

func (w *waitRec) Receive(_ context.Context, _ int, _, wait time.Duration) ([]queue.Delivery, error) {
	w.waits = append(w.waits, wait)
	return nil, nil
}
