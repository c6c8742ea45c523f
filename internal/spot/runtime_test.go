package spot

import (
	"testing"
	"time"

	"tenger/internal/engine"
	"tenger/internal/matching"
	"tenger/internal/risk"
)

// The runtime lists the catalogues in the engine, answers REST-style
// submits once the store shows them, feeds market data, and comes back
// after a restart with the same state and nothing projected twice.
func TestRuntimeListsProjectsAndRestarts(t *testing.T) {
	e := newEnv(t)
	r, ctx := e.rt, e.ctx
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
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	order := func(id uint64, uid string, side matching.Side, ticks, lots int64) engine.Command {
		return engine.Command{Kind: engine.KindPlace, User: userNum(uid), UserID: uid, Note: encodeNote(orderNote{Type: TypeLimit}),
			Order: matching.Command{OrderID: id, UserID: userNum(uid), Symbol: symbolNum("btcusdt"), Side: side, Type: matching.Limit,
				TIF: matching.GTC, Price: ticks, Qty: lots}, Spec: risk.OrderSpec{Maker: 100_000, Taker: 100_000}}
	}
	submit(order(1, alice, matching.Sell, 3_000_000, 1_000_000))
	submit(order(2, bob, matching.Buy, 3_000_000, 400_000))
	// REST reads right after the answer see it, and the trade is on the
	// feed by then; the depth loop publishes the book within 50 ms.
	if o, err := e.svc.GetOrder(ctx, bob, "2"); err != nil || o.Status != StatusFilled {
		t.Fatalf("bob's order right after its answer: %+v %v", o, err)
	}
	if trades, _, _ := e.rec.published("btcusdt"); len(trades) != 1 {
		t.Fatalf("market data: %d trades", len(trades))
	}
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		_, _, asks := e.rec.published("btcusdt")
		if len(asks) == 1 && asks[0].Qty.Equal(dec("0.6")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("depth published: asks %v, want 0.6 at 30000", asks)
		}
	}
	e.wantSameAfter(e.restart, []string{alice, bob}, []string{"BTC", "USDT"})
	if o := e.order(alice, "1"); !o.DealVolume.Equal(dec("0.4")) {
		t.Fatalf("alice's order after the restart %+v", o)
	}
	e.audit()
}
