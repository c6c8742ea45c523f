package spot

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/engine"
	"tenger/internal/ledger"
	"tenger/internal/store"
)

// Order entry on the engine: the balance check is the engine's, a REST
// answer comes once the store shows the order, fills settle both sides,
// and cancel, amend and cancel-all act on the engine's live book.
func TestOrderEntryOnTheEngine(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "10000")

	_, err := e.svc.PlaceOrder(ctx, bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeLimit, Price: "50000", Volume: "0.3"})
	wantCode(t, err, apperr.CodeTradeInsufficient) // 15,000 USDT of 10,000
	if b := e.balance(bob, "USDT"); !b.Frozen.IsZero() {
		t.Fatalf("a refused order holds %s", b.Frozen)
	}
	sell, err := e.svc.PlaceOrder(ctx, alice, PlaceRequest{Symbol: "btcusdt", Side: "SELL", Type: TypeLimit, Price: "30000", Volume: "0.5"})
	if err != nil {
		t.Fatal(err)
	}
	// Read-your-writes: the order and its hold are in the store already.
	if o, err := e.svc.GetOrder(ctx, alice, sell); err != nil || o.Status != StatusNew || !o.Volume.Equal(dec("0.5")) {
		t.Fatalf("placed order %+v %v", o, err)
	}
	if b := e.balance(alice, "BTC"); !b.Frozen.Equal(dec("0.5")) {
		t.Fatalf("alice's BTC %+v", b)
	}
	buy, err := e.svc.PlaceOrder(ctx, bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeLimit, Price: "30000", Volume: "0.2",
		ClientOrderID: "bob-1"})
	if err != nil {
		t.Fatal(err)
	}
	if o, err := e.svc.GetOrder(ctx, bob, buy); err != nil || o.Status != StatusFilled || o.ClientOrderID != "bob-1" {
		t.Fatalf("filled buy %+v %v", o, err)
	}
	// The buyer paid 6,000 USDT and got 0.2 BTC less the taker fee.
	if b := e.balance(bob, "USDT"); !b.Available.Equal(dec("4000")) || !b.Frozen.IsZero() {
		t.Fatalf("bob's USDT %+v", b)
	}
	if b := e.balance(bob, "BTC"); !b.Available.IsPositive() || !b.Available.LessThan(dec("0.2")) {
		t.Fatalf("bob's BTC %+v", b)
	}
	// A retry with the client id answers the first order; other
	// parameters are refused.
	again, err := e.svc.PlaceOrder(ctx, bob, PlaceRequest{Symbol: "BTC/USDT", Side: "BUY", Type: TypeLimit, Price: "30000.0", Volume: "0.2",
		ClientOrderID: "bob-1"})
	if err != nil || again != buy {
		t.Fatalf("retry: %s %v, want %s", again, err, buy)
	}
	_, err = e.svc.PlaceOrder(ctx, bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeLimit, Price: "30000", Volume: "0.1",
		ClientOrderID: "bob-1"})
	wantCode(t, err, apperr.CodeTradeClientOrderReused)

	// Amend the rest of the sell (0.3 left of 0.5) to a total of 0.4.
	if err := e.svc.AmendOrder(ctx, alice, "btcusdt", sell, "0.4"); err != nil {
		t.Fatal(err)
	}
	if o, _ := e.svc.GetOrder(ctx, alice, sell); !o.Volume.Equal(dec("0.4")) || !o.DealVolume.Equal(dec("0.2")) {
		t.Fatalf("amended order %+v", o)
	}
	if b := e.balance(alice, "BTC"); !b.Frozen.Equal(dec("0.2")) || !b.Available.Equal(dec("0.6")) {
		t.Fatalf("alice's BTC after the amendment %+v", b)
	}
	wantCode(t, e.svc.AmendOrder(ctx, alice, "btcusdt", sell, "0.45"), apperr.CodeTradeAmendVolume)
	if err := e.svc.CancelOrder(ctx, alice, "btcusdt", sell); err != nil {
		t.Fatal(err)
	}
	if o, _ := e.svc.GetOrder(ctx, alice, sell); o.Status.Open() {
		t.Fatalf("cancelled order still open: %+v", o)
	}
	wantCode(t, e.svc.CancelOrder(ctx, alice, "btcusdt", sell), apperr.CodeTradeOrderFinished)
	if b := e.balance(alice, "BTC"); !b.Frozen.IsZero() || !b.Available.Equal(dec("0.8")) {
		t.Fatalf("alice's BTC after the cancel %+v", b)
	}
	for _, p := range []string{"31000", "32000"} {
		if _, err := e.svc.PlaceOrder(ctx, alice, PlaceRequest{Symbol: "btcusdt", Side: "SELL", Type: TypeLimit, Price: p, Volume: "0.1"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.svc.CancelAll(ctx, alice, ""); err != nil {
		t.Fatal(err)
	}
	if open, err := e.svc.ListOpenOrders(ctx, alice, ""); err != nil || len(open) != 0 {
		t.Fatalf("open after cancel-all: %d %v", len(open), err)
	}
	// A stop the last trade (30,000) has already reached is refused at once.
	_, err = e.svc.PlaceOrder(ctx, alice, PlaceRequest{Symbol: "btcusdt", Side: "SELL", Type: TypeStopLimit, Price: "29000", StopPrice: "31000", Volume: "0.1"})
	wantCode(t, err, apperr.CodeTradeStopReached)

	// Verify finds the store agreeing with the engine, and a store balance
	// written around the engine.
	if problems, err := e.rt.Verify(ctx); err != nil || len(problems) != 0 {
		t.Fatalf("verify: %v %v", problems, err)
	}
	if err := e.raw.Transact(ctx, []store.Op{ledger.SetBalanceOp(ledger.UserAccount(alice, ledger.Spot), "BTC",
		dec("5"), dec("0"))}); err != nil {
		t.Fatal(err)
	}
	if problems, err := e.rt.Verify(ctx); err != nil || len(problems) != 1 {
		t.Fatalf("verify after a write around the engine: %v %v", problems, err)
	}
}

// Requests with one client order id sent at once place one order, and
// every answer names it: also when they come through different processes
// (the AWS functions: each its own Service, one engine), since the engine
// itself keeps the client order ids.
func TestClientOrderIDRaceOnTheEngine(t *testing.T) {
	e := newEnv(t)
	ctx := AckAtJournal(context.Background()) // answered before the store shows it
	e.deposit(alice, "BTC", "1")
	services := []*Service{e.svc}
	for range 3 {
		services = append(services, New(Options{Store: e.raw, Markets: e.cat, Engine: e.rt, Log: zerolog.Nop()}))
	}
	ids := make([]string, 8)
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids[i], errs[i] = services[i%len(services)].PlaceOrder(ctx, alice, PlaceRequest{Symbol: "btcusdt", Side: "SELL",
				Type: TypeLimit, Price: "40000", Volume: "0.1", ClientOrderID: "same"})
		}()
	}
	wg.Wait()
	for i := range ids {
		if errs[i] != nil || ids[i] != ids[0] {
			t.Fatalf("answer %d: %s %v, want %s", i, ids[i], errs[i], ids[0])
		}
	}
	// Another order under the id is refused, by any process.
	_, err := services[2].PlaceOrder(ctx, alice, PlaceRequest{Symbol: "btcusdt", Side: "SELL", Type: TypeLimit, Price: "41000",
		Volume: "0.1", ClientOrderID: "same"})
	wantCode(t, err, apperr.CodeTradeClientOrderReused)
	var seq uint64
	e.rt.Engine.Read(func(s *engine.State) { seq = s.Seq() })
	if err := e.rt.runner.WaitProjected(context.Background(), seq); err != nil {
		t.Fatal(err)
	}
	open, err := e.svc.ListOpenOrders(context.Background(), alice, "btcusdt")
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 1 {
		t.Fatalf("%d open orders, want 1", len(open))
	}
}

// cidReads counts the reads of clientOrderId mappings.
type cidReads struct {
	store.Store
	n atomic.Int64
}

func (c *cidReads) Get(ctx context.Context, k store.Key) (store.Item, error) {
	if strings.HasPrefix(k.PK, pkClientID) {
		c.n.Add(1)
	}
	return c.Store.Get(ctx, k)
}

// A client order id the caller just made up (NewClientOrderID) skips the
// retry lookup; one a client sent is looked up, and its retry answers the
// first order.
func TestNewClientOrderIDSkipsTheRetryLookup(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.deposit(alice, "BTC", "1")
	reads := &cidReads{Store: e.raw}
	svc := New(Options{Store: reads, Markets: e.cat, Engine: e.rt, Log: zerolog.Nop()})
	req := PlaceRequest{Symbol: "btcusdt", Side: "SELL", Type: TypeLimit, Price: "90000", Volume: "0.01", ClientOrderID: "tg-fresh", NewClientOrderID: true}
	id, err := svc.PlaceOrder(ctx, alice, req)
	if err != nil || reads.n.Load() != 0 {
		t.Fatalf("fresh id: %s %v, %d lookups", id, err, reads.n.Load())
	}
	if o, err := svc.OrderByClientID(ctx, alice, "tg-fresh"); err != nil || o.ID != id {
		t.Fatalf("the fresh id does not find its order: %+v %v", o, err)
	}
	req.ClientOrderID, req.NewClientOrderID = "sent-by-client", false
	reads.n.Store(0)
	first, err := svc.PlaceOrder(ctx, alice, req)
	if err != nil || reads.n.Load() != 1 {
		t.Fatalf("client's id: %s %v, %d lookups", first, err, reads.n.Load())
	}
	if again, err := svc.PlaceOrder(ctx, alice, req); err != nil || again != first {
		t.Fatalf("retry: %s %v, want %s", again, err, first)
	}
}
