package spot

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/coins"
	"tenger/internal/engine"
	"tenger/internal/engine/journal"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/risk"
	"tenger/internal/store/embedded"
)

// The runtime lists the catalogues in the engine, answers REST-style
// submits once the store shows them, feeds market data, and comes back
// after a restart with the same state and nothing projected twice.
func TestRuntimeListsProjectsAndRestarts(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	cat := markets.Defaults()
	dir := t.TempDir()
	feed := &recFeed{}
	start := func() *Runtime {
		r, err := StartRuntime(context.Background(), RuntimeOptions{Dir: dir, Policy: journal.NoFsync, Store: st, Coins: cc,
			Markets: cat, Feed: feed, Counter: chainSide, Log: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := start()
	ctx := context.Background()
	var ton, mnt int32
	r.Engine.Read(func(s *engine.State) {
		for _, c := range s.Accounts().Coins() {
			switch c.Code {
			case "TON":
				ton = c.Decimals
			case "MNT":
				mnt = c.Decimals
			}
		}
		if s.Book(symbolNum("btcmnt")) == nil || s.Book(symbolNum("tonusdt")) == nil {
			t.Fatal("pairs not listed")
		}
	})
	if ton != 9 || mnt != 8 {
		t.Fatalf("engine decimals: TON %d, MNT %d", ton, mnt)
	}
	submit := func(c engine.Command) engine.Result {
		t.Helper()
		res, err := r.SubmitProjected(ctx, c)
		if err != nil || res.Code != engine.OK {
			t.Fatalf("%s: %s %v", c.Kind, res.Code, err)
		}
		return res
	}
	submit(engine.Command{Kind: engine.KindCredit, Ref: "d1", User: userNum(aliceID), UserID: aliceID, Coin: "BTC", Amount: 100_000_000, Note: []byte("chain:BTC")})
	submit(engine.Command{Kind: engine.KindCredit, Ref: "d2", User: userNum(bobID), UserID: bobID, Coin: "USDT", Amount: 10_000_000_000_000, Note: []byte("chain:TRC20")})
	order := func(id uint64, uid string, side matching.Side, ticks, lots int64) engine.Command {
		return engine.Command{Kind: engine.KindPlace, User: userNum(uid), UserID: uid, Note: encodeNote(orderNote{Type: TypeLimit}),
			Order: matching.Command{OrderID: id, UserID: userNum(uid), Symbol: symbolNum("btcusdt"), Side: side, Type: matching.Limit,
				TIF: matching.GTC, Price: ticks, Qty: lots}, Spec: risk.OrderSpec{Maker: 100_000, Taker: 100_000}}
	}
	submit(order(1, aliceID, matching.Sell, 3_000_000, 1_000_000))
	submit(order(2, bobID, matching.Buy, 3_000_000, 400_000))
	// REST reads right after the answer see it.
	svc := New(Options{Store: st, Ledger: ledger.New(st, nil), Markets: cat})
	if o, err := svc.GetOrder(ctx, bobID, "2"); err != nil || o.Status != StatusFilled {
		t.Fatalf("bob's order right after its answer: %+v %v", o, err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		feed.mu.Lock()
		n, d := len(feed.trades), feed.depths
		feed.mu.Unlock()
		if n == 1 && d > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("market data: %d trades, %d depths", n, d)
		}
		time.Sleep(10 * time.Millisecond)
	}
	var before uint64
	r.Engine.Read(func(s *engine.State) { before = s.StateHash() })
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}

	r = start()
	defer r.Close()
	var after uint64
	r.Engine.Read(func(s *engine.State) { after = s.StateHash() })
	if after != before {
		t.Fatal("the restarted engine differs")
	}
	if o, _ := svc.GetOrder(ctx, aliceID, "1"); !o.DealVolume.Equal(dec("0.4")) {
		t.Fatalf("alice's order after the restart %+v", o)
	}
	rep, err := ledger.New(st, nil).Audit(ctx, "BTC", "USDT")
	if err != nil || !rep.Clean() {
		t.Fatalf("audit %v %v", rep.Problems, err)
	}
}
