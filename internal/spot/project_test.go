package spot

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/engine"
	"tenger/internal/engine/journal"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/projector"
	"tenger/internal/risk"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// projEnv runs the engine with the store projection and spot's extras, as
// the runtime will, and reads orders back through the spot service.
type projEnv struct {
	t       *testing.T
	st      store.Store
	eng     *engine.Engine
	svc     *Service
	cat     *markets.Catalogue
	mu      sync.Mutex
	batches []*engine.Batch
	err     error
}

func chainSide(c *engine.Command) ([]projector.Side, error) {
	return []projector.Side{{Account: ledger.ChainAccount(strings.TrimPrefix(string(c.Note), "chain:")), Units: c.Amount}}, nil
}

func newProjEnv(t *testing.T) *projEnv {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e := &projEnv{t: t, st: st, cat: markets.Defaults()}
	proj := NewProjection(ProjectionOptions{Markets: e.cat, Decimals: func(string) int32 { return 8 }})
	p := projector.New(projector.Options{Store: st, Counter: chainSide, Extras: []projector.Extra{proj.Ops}})
	e.eng, err = engine.Open(context.Background(), engine.Options{Dir: t.TempDir(), Policy: journal.NoFsync, Log: zerolog.Nop(),
		Checkpoint: p.Checkpoint, Deliver: func(b *engine.Batch) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.batches = append(e.batches, b)
			if err := p.Apply(context.Background(), b); err != nil && e.err == nil {
				e.err = err
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.eng.Close() })
	e.svc = New(Options{Store: st, Markets: e.cat, Engine: e})
	pair, _ := e.cat.Pair("btcusdt")
	for _, c := range []engine.Command{{Kind: engine.KindAddCoin, Coin: "BTC", Decimals: 8}, {Kind: engine.KindAddCoin, Coin: "USDT", Decimals: 8},
		{Kind: engine.KindAddPair, Pair: engine.PairSpec{Symbol: symbolNum("btcusdt"), Name: "btcusdt", Base: "BTC", Quote: "USDT",
			LotUnits: pair.LotSize.Shift(8).IntPart(), QuoteUnitUnits: pair.PriceTick.Mul(pair.LotSize).Shift(8).IntPart()}}} {
		e.submit(c)
	}
	return e
}

// Submit and SubmitProjected make projEnv the service's engine: the engine
// delivers each batch, which the projection writes, before it answers.
func (e *projEnv) Submit(ctx context.Context, c engine.Command) engine.Result {
	return e.eng.Submit(ctx, c)
}

func (e *projEnv) SubmitProjected(ctx context.Context, c engine.Command) (engine.Result, error) {
	return e.eng.Submit(ctx, c), nil
}

func (e *projEnv) submit(c engine.Command) engine.Result {
	e.t.Helper()
	r := e.eng.Submit(context.Background(), c)
	if r.Code != engine.OK {
		e.t.Fatalf("%s: %s %s", c.Kind, r.Code, r.Reason)
	}
	if e.err != nil {
		e.t.Fatal(e.err)
	}
	return r
}

func (e *projEnv) place(id uint64, uid string, side matching.Side, ticks, lots int64, note orderNote) engine.Result {
	num := userNum(uid)
	return e.submit(engine.Command{Kind: engine.KindPlace, User: num, UserID: uid, Note: encodeNote(note),
		Order: matching.Command{OrderID: id, UserID: num, Symbol: symbolNum("btcusdt"), Side: side, Type: matching.Limit,
			TIF: matching.GTC, Price: ticks, Qty: lots, STP: matching.STPCancelTaker},
		Spec: risk.OrderSpec{Maker: 100_000, Taker: 100_000}})
}

// Orders placed, filled and cancelled through the engine read back from
// the store as the order entry path stored them: statuses, deal figures
// and fees, open orders, fill rows.
func TestProjectedOrdersAndTrades(t *testing.T) {
	e := newProjEnv(t)
	ctx := context.Background()
	e.submit(engine.Command{Kind: engine.KindCredit, Ref: "d1", User: userNum(alice), UserID: alice, Coin: "BTC", Amount: 100_000_000, Note: []byte("chain:BTC")})
	e.submit(engine.Command{Kind: engine.KindCredit, Ref: "d2", User: userNum(bob), UserID: bob, Coin: "USDT", Amount: 10_000_000_000_000, Note: []byte("chain:TRC20")})
	e.place(1, alice, matching.Sell, 3_000_000, 1_000_000, orderNote{Type: TypeLimit, ClientOrderID: "a-1"}) // 1 BTC at 30,000
	e.place(2, bob, matching.Buy, 3_000_000, 400_000, orderNote{Type: TypeLimit})                            // 0.4
	e.place(3, bob, matching.Buy, 3_000_000, 100_000, orderNote{Type: TypeLimit})                            // 0.1
	e.submit(engine.Command{Kind: engine.KindCancel, Order: matching.Command{OrderID: 1, UserID: userNum(alice), Symbol: symbolNum("btcusdt")}})

	a, err := e.svc.GetOrder(ctx, alice, "1")
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != StatusCancelled || !a.DealVolume.Equal(dec("0.5")) || !a.DealMoney.Equal(dec("15000")) ||
		!a.Fee.Equal(dec("15")) || a.FeeCoin != "USDT" || a.ClientOrderID != "a-1" || a.Type != TypeLimit {
		t.Fatalf("alice's order %+v", a)
	}
	b, _ := e.svc.GetOrder(ctx, bob, "2")
	if b.Status != StatusFilled || !b.DealVolume.Equal(dec("0.4")) || !b.Fee.Equal(dec("0.0004")) || b.FeeCoin != "BTC" {
		t.Fatalf("bob's order %+v", b)
	}
	if open, err := e.svc.ListOpenOrders(ctx, alice, "btcusdt"); err != nil || len(open) != 0 {
		t.Fatalf("alice's open orders %v %v", open, err)
	}
	trades, err := e.svc.OrderTrades(ctx, alice, "1")
	if err != nil || len(trades) != 2 || trades[0].Role != "MAKER" || !trades[0].Fee.Equal(dec("12")) {
		t.Fatalf("alice's fills %+v %v", trades, err)
	}
	bt, err := e.svc.OrderTrades(ctx, bob, "3")
	if err != nil || len(bt) != 1 || bt[0].Role != "TAKER" || bt[0].UID != bob {
		t.Fatalf("bob's fill %+v %v", bt, err)
	}
	vol, err := thirtyDayVolume(ctx, e.st, alice, e.svc.now())
	if err != nil || !vol.Equal(dec("15000")) {
		t.Fatalf("alice's 30-day volume %s %v", vol, err)
	}

	// The batches written again (a crash before their checkpoints) change
	// nothing.
	if err := e.st.Delete(ctx, store.Key{PK: "ENGPROJ", SK: "CHECKPOINT"}, nil); err != nil {
		t.Fatal(err)
	}
	again := projector.New(projector.Options{Store: e.st, Counter: chainSide,
		Extras: []projector.Extra{NewProjection(ProjectionOptions{Markets: e.cat, Decimals: func(string) int32 { return 8 }}).Ops}})
	for _, bt := range e.batches {
		if err := again.Apply(ctx, bt); err != nil {
			t.Fatal(err)
		}
	}
	a2, _ := e.svc.GetOrder(ctx, alice, "1")
	if !a2.DealVolume.Equal(a.DealVolume) || !a2.Fee.Equal(a.Fee) || a2.Status != a.Status {
		t.Fatalf("after writing the batches again: %+v", a2)
	}
	if vol2, _ := thirtyDayVolume(ctx, e.st, alice, e.svc.now()); !vol2.Equal(vol) {
		t.Fatalf("volume %s after writing the batches again", vol2)
	}
	rep, err := ledger.New(e.st, nil).Audit(ctx, "BTC", "USDT")
	if err != nil || !rep.Clean() {
		t.Fatalf("audit %v %v", rep.Problems, err)
	}
}

// The publisher hands the engine's trades to market data at once and each
// changed book's depth at most every 100 ms.
func TestPublisherTradesAndDepth(t *testing.T) {
	e := newProjEnv(t)
	feed := &recFeed{}
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	pub := NewPublisher(feed, e.cat, e.eng.Read, func() time.Time { return now })
	e.submit(engine.Command{Kind: engine.KindCredit, Ref: "d1", User: userNum(alice), UserID: alice, Coin: "BTC", Amount: 200_000_000, Note: []byte("chain:BTC")})
	e.submit(engine.Command{Kind: engine.KindCredit, Ref: "d2", User: userNum(bob), UserID: bob, Coin: "USDT", Amount: 10_000_000_000_000, Note: []byte("chain:TRC20")})
	e.place(1, alice, matching.Sell, 3_000_000, 1_000_000, orderNote{Type: TypeLimit})
	e.place(2, bob, matching.Buy, 3_000_000, 400_000, orderNote{Type: TypeLimit})
	for _, b := range e.batches {
		pub.OnBatch(b)
	}
	if len(feed.trades) != 1 || !feed.trades[0].Price.Equal(dec("30000")) || !feed.trades[0].Qty.Equal(dec("0.4")) ||
		feed.trades[0].TakerSide != "BUY" || feed.trades[0].ID != "1" {
		t.Fatalf("trades %+v", feed.trades)
	}
	pub.Depth(false)
	if asks := feed.asks["btcusdt"]; feed.depths != 1 || len(asks) != 1 || !asks[0].Qty.Equal(dec("0.6")) {
		t.Fatalf("depth %d, asks %+v", feed.depths, asks)
	}
	// Another change within 100 ms waits; forced, or later, it goes.
	e.place(3, alice, matching.Sell, 3_100_000, 1000, orderNote{Type: TypeLimit})
	pub.OnBatch(e.batches[len(e.batches)-1])
	now = now.Add(50 * time.Millisecond)
	pub.Depth(false)
	if feed.depths != 1 {
		t.Fatalf("depth published again within 100 ms")
	}
	now = now.Add(60 * time.Millisecond)
	pub.Depth(false)
	if asks := feed.asks["btcusdt"]; feed.depths != 2 || len(asks) != 2 {
		t.Fatalf("depth %d, asks %+v", feed.depths, asks)
	}
}

// An amendment's new volume and hold reach the order item; a stop's
// trigger is marked once.
func TestProjectedAmendAndTrigger(t *testing.T) {
	e := newProjEnv(t)
	ctx := context.Background()
	e.submit(engine.Command{Kind: engine.KindCredit, Ref: "d2", User: userNum(bob), UserID: bob, Coin: "USDT", Amount: 10_000_000_000_000, Note: []byte("chain:TRC20")})
	e.place(1, bob, matching.Buy, 3_000_000, 400_000, orderNote{Type: TypeLimit}) // 0.4 at 30,000
	r := e.submit(engine.Command{Kind: engine.KindAmend, User: userNum(bob), UserID: bob, Note: encodeNote(orderNote{Volume: "0.1"}),
		Order: matching.Command{OrderID: 1, UserID: userNum(bob), Symbol: symbolNum("btcusdt"), Qty: 100_000}})
	if r.Code != engine.OK {
		t.Fatal(r.Code)
	}
	o, err := e.svc.GetOrder(ctx, bob, "1")
	if err != nil || !o.Volume.Equal(dec("0.1")) || o.Status != StatusNew {
		t.Fatalf("amended order %+v %v", o, err)
	}
	it, _ := e.st.Get(ctx, orderKey(1))
	if !it.Dec("hold").Equal(dec("3000")) || it.Int("seq") != int64(r.Seq) {
		t.Fatalf("amended item %v", it)
	}
	if held, _ := ledger.New(e.st, nil).Balance(ctx, ledger.UserAccount(bob, ledger.Spot), "USDT"); !held.Frozen.Equal(dec("3000")) {
		t.Fatalf("bob's USDT after the amendment %+v", held)
	}
}
