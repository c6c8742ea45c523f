package spot

import (
	"errors"
	"reflect"
	"testing"

	"tenger/internal/matching"
)

// TestRebuildCompletesHalfSettledBatch: the engine dies while a batch is
// half settled (the taker's trade stored, not its end nor the book
// records) and its journal is lost. The restart rebuilds the books from
// the store, after settling the stored batch again: the taker is not
// sequenced a second time when its message comes back (it used to trade
// twice, and the second trade found no hold, which stopped the engine),
// and the maker rests with what is left.
func TestRebuildCompletesHalfSettledBatch(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "10000")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "0.2"))
	e.drain()
	buy := e.place(bob, limit("btcusdt", "BUY", "30000", "0.1"))
	// Only the first job runs: the trade posting.
	e.eng.crashMidSettle = func(jobs []job) []job {
		for _, j := range jobs {
			if j != nil {
				return []job{j}
			}
		}
		return nil
	}
	if err := drainEngine(e.ctx, e.eng, e.q); !errors.Is(err, errCrash) {
		t.Fatalf("want the simulated crash, got %v", err)
	}
	e.wantBal(bob, "BTC", "0.0999", "0") // the trade is stored

	e.journal = &matching.MemoryJournal{} // the engine's volume is lost
	e.eng = e.newEngine()
	waitVisible(e)
	e.drain()
	e.wantOrder(bob, buy, StatusFilled, "0.1", "3000", "0.0001")
	e.wantOrder(alice, sell, StatusPartiallyFilled, "0.1", "3000", "3")
	e.wantBal(bob, "USDT", "7000", "0")
	e.wantBal(bob, "BTC", "0.0999", "0")
	e.wantBal(alice, "BTC", "0.8", "0.1")
	e.wantBal(alice, "USDT", "2997", "0")
	// The book holds alice's rest, 0.1 BTC at 30000, and nothing else.
	cfg := e.eng.set.cfgs[e.eng.bySym["btcusdt"]]
	price, _ := cfg.ToTicks(dec("30000"))
	qty, _ := cfg.ToLots(dec("0.1"))
	sells, buys := e.eng.BookDepth("btcusdt", matching.Sell, 5), e.eng.BookDepth("btcusdt", matching.Buy, 5)
	if want := []matching.DepthLevel{{Price: price, Qty: qty, Orders: 1}}; !reflect.DeepEqual(sells, want) || len(buys) != 0 {
		t.Fatalf("book after the rebuild: sells %v buys %v, want sells %v", sells, buys, want)
	}
	e.audit()
}

// The stored batch decodes to what was encoded.
func TestPendingCodecRoundTrip(t *testing.T) {
	cmds := []matching.Command{
		{Kind: matching.CmdPlace, Side: matching.Buy, Type: matching.Limit, Symbol: 2, Seq: 7, OrderID: 11, UserID: 5, Price: 300, Qty: 4},
		{Kind: matching.CmdCancel, Symbol: 2, Seq: 8, OrderID: 9, UserID: 6},
	}
	evs := []matching.Event{
		{Seq: 7, OrderID: 11, UserID: 5, Symbol: 2, Kind: matching.EvAccepted, Side: matching.Buy},
		{Seq: 7, TradeID: 3, OrderID: 11, UserID: 5, MakerOrderID: 9, MakerUserID: 6, Price: 300, Qty: 4, Quote: -1, Filled: 4,
			Symbol: 2, Kind: matching.EvTrade, Side: matching.Buy, Reason: 3},
	}
	starts := []int{0, 2} // the cancel has no events
	gc, gs, ge, err := decodePending(encodePending(cmds, starts, evs))
	if err != nil || !reflect.DeepEqual(gc, cmds) || !reflect.DeepEqual(gs, starts) || !reflect.DeepEqual(ge, evs) {
		t.Fatalf("round trip: %v\n%+v\n%v\n%+v", err, gc, gs, ge)
	}
	if _, _, _, err := decodePending(encodePending(cmds, starts, evs)[:30]); err == nil {
		t.Fatal("a cut record decoded")
	}
}

// TestFilledBeforeItsEndIsSettled: between a trade that fills an order and
// the order's end (a separate job of the same batch), the stored order is
// still "new" with all its volume dealt. It reads as FILLED, not
// PARTIALLY_FILLED, and is no longer listed as open.
func TestFilledBeforeItsEndIsSettled(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "10000")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "0.2"))
	e.drain()
	buy := e.place(bob, limit("btcusdt", "BUY", "30000", "0.1"))
	e.eng.crashMidSettle = func(jobs []job) []job { // only the trade posting
		for _, j := range jobs {
			if j != nil {
				return []job{j}
			}
		}
		return nil
	}
	if err := drainEngine(e.ctx, e.eng, e.q); !errors.Is(err, errCrash) {
		t.Fatalf("want the simulated crash, got %v", err)
	}
	e.wantOrder(bob, buy, StatusFilled, "0.1", "3000", "0.0001")
	e.wantOrder(alice, sell, StatusPartiallyFilled, "0.1", "3000", "3")
	if open, err := e.svc.ListOpenOrders(e.ctx, bob, ""); err != nil || len(open) != 0 {
		t.Fatalf("bob's open orders %+v %v, want none", open, err)
	}
	if open, err := e.svc.ListOpenOrders(e.ctx, alice, ""); err != nil || len(open) != 1 || open[0].ID != sell {
		t.Fatalf("alice's open orders %+v %v, want her sell", open, err)
	}
	if err := e.svc.CancelOrder(e.ctx, bob, "btcusdt", buy); err == nil {
		t.Fatal("a filled order could be cancelled")
	}
}
