package spot

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/markets"
	"tenger/internal/store"
)

// A limit order is answered once the store shows it: its hold, its fills
// and fees on both sides (fees to the engine's fee account), the buyer's
// price improvement released, the trade on the feed and in both users'
// histories; only its owner can cancel it, and a cancel releases exactly
// what is left.
func TestLimitTradeFeesPartialFillAndCancel(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "20000")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	e.wantBal(alice, "BTC", "0", "1")
	e.wantOrder(alice, sell, StatusNew, "0", "0", "0")
	buy := e.place(bob, limit("btcusdt", "BUY", "30100", "0.4"))

	// 0.4 BTC traded at the maker's 30000; bob's 40 USDT price improvement is released.
	e.wantBal(alice, "BTC", "0", "0.6")
	e.wantBal(alice, "USDT", "11988", "0")
	e.wantBal(bob, "BTC", "0.3996", "0")
	e.wantBal(bob, "USDT", "8000", "0")
	e.wantBal("FEES", "BTC", "0.0004", "0")
	e.wantBal("FEES", "USDT", "12", "0")
	e.wantOrder(alice, sell, StatusPartiallyFilled, "0.4", "12000", "12")
	e.wantOrder(bob, buy, StatusFilled, "0.4", "12000", "0.0004")

	open, err := e.svc.ListOpenOrders(e.ctx, alice, "btcusdt")
	if err != nil || len(open) != 1 || open[0].ID != sell {
		t.Fatalf("open orders %v %v", open, err)
	}
	if ids, _ := e.svc.OpenOrders(e.ctx, bob, "btcusdt"); len(ids) != 0 {
		t.Fatalf("bob still has open orders %v", ids)
	}
	tr, err := e.svc.OrderTrades(e.ctx, alice, sell)
	if err != nil || len(tr) != 1 || tr[0].Role != "MAKER" || !tr[0].Price.Equal(dec("30000")) || !tr[0].Volume.Equal(dec("0.4")) {
		t.Fatalf("alice's trades %+v %v", tr, err)
	}
	bt, n, err := e.svc.SearchTrades(e.ctx, bob, OrderFilter{Symbol: "btcusdt"})
	if err != nil || n != 1 || bt[0].Role != "TAKER" || bt[0].Side != "BUY" || !bt[0].Fee.Equal(dec("0.0004")) {
		t.Fatalf("bob's trades %+v %d %v", bt, n, err)
	}
	if _, err := e.svc.OrderTrades(e.ctx, bob, sell); err == nil {
		t.Fatal("bob read alice's order")
	}
	if trades, _, _ := e.rec.published("btcusdt"); len(trades) != 1 || trades[0].TakerSide != "BUY" || !trades[0].Qty.Equal(dec("0.4")) {
		t.Fatalf("feed trades %+v", trades)
	}
	e.rt.PublishDepth()
	if _, depths, asks := e.rec.published("btcusdt"); depths == 0 || len(asks) != 1 ||
		!asks[0].Price.Equal(dec("30000")) || !asks[0].Qty.Equal(dec("0.6")) {
		t.Fatalf("depth: %d published, last asks %+v", depths, asks)
	}

	// Only the owner may cancel; cancel releases exactly the remaining 0.6 BTC.
	wantCode(t, e.svc.CancelOrder(e.ctx, bob, "btcusdt", sell), apperr.CodeTradeOrderNotFound)
	// An id is decimal digits: with trailing text, a sign or in another
	// base it names no order (and must not cancel this one).
	oid, _ := strconv.ParseUint(sell, 10, 64)
	for _, bad := range []string{sell + "abc", sell + ".5", "+" + sell, "0x" + strconv.FormatUint(oid, 16), sell + " 1"} {
		wantCode(t, e.svc.CancelOrder(e.ctx, alice, "btcusdt", bad), apperr.CodeTradeOrderNotFound)
		if _, err := e.svc.OrderTrades(e.ctx, alice, bad); err == nil {
			t.Fatalf("order %q was read", bad)
		}
	}
	e.wantOrder(alice, sell, StatusPartiallyFilled, "0.4", "12000", "12")
	if err := e.svc.CancelOrder(e.ctx, alice, "btcusdt", sell); err != nil {
		t.Fatal(err)
	}
	e.wantBal(alice, "BTC", "0.6", "0")
	e.wantOrder(alice, sell, StatusCancelled, "0.4", "12000", "12")
	wantCode(t, e.svc.CancelOrder(e.ctx, alice, "btcusdt", sell), apperr.CodeTradeOrderFinished)
	hist, n, err := e.svc.SearchOrders(e.ctx, alice, OrderFilter{Status: []Status{StatusCancelled}})
	if err != nil || n != 1 || hist[0].ID != sell {
		t.Fatalf("history %+v %d %v", hist, n, err)
	}
	e.drain()
	e.audit()
}

// Order items stored before the projection wrote PARTIALLY_FILLED kept
// status NEW through their fills: such an item with fills reads as
// partially filled, and one whose fills reached its volume as FILLED, no
// longer listed open nor cancellable.
func TestOrderStoredNewWithFillsReadsByItsFills(t *testing.T) {
	e := newEnv(t)
	for id, deal := range map[string]string{"7": "0.1", "8": "0.2"} {
		if err := e.raw.Put(e.ctx, store.Item{store.AttrPK: pkOrder + id, store.AttrSK: skOrder, "id": id, "uid": alice,
			"symbol": "btcusdt", "side": "SELL", "type": TypeLimit, "price": dec("30000"), "volume": dec("0.2"),
			"dealVolume": dec(deal), "dealMoney": dec(deal).Mul(dec("30000")), "status": int64(StatusNew),
			store.AttrGSI2PK: pkOpen + alice, store.AttrGSI2SK: "btcusdt#" + id}, nil); err != nil {
			t.Fatal(err)
		}
	}
	e.wantOrder(alice, "7", StatusPartiallyFilled, "0.1", "3000", "0")
	e.wantOrder(alice, "8", StatusFilled, "0.2", "6000", "0")
	if open, err := e.svc.ListOpenOrders(e.ctx, alice, ""); err != nil || len(open) != 1 || open[0].ID != "7" {
		t.Fatalf("open orders %+v %v, want 7 only", open, err)
	}
	wantCode(t, e.svc.CancelOrder(e.ctx, alice, "btcusdt", "8"), apperr.CodeTradeOrderFinished)
}

func TestMarketBuyByQuoteLeavesNoHold(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "20000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.5"))
	e.place(alice, limit("btcusdt", "SELL", "31000", "0.5"))
	buy := e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, QuoteVolume: "20000"})
	e.drain()
	// 0.5 at 30000 (15000) + 0.161290 at 31000 (4999.99); 0.01 USDT cannot buy a lot and is released.
	e.wantBal(bob, "USDT", "0.01", "0")
	e.wantBal(bob, "BTC", "0.66062871", "0")
	e.wantBal(alice, "USDT", "19979.99001", "0")
	e.wantBal(alice, "BTC", "0", "0.33871")
	e.wantOrder(bob, buy, StatusFilled, "0.66129", "19999.99", "0.00066129")
	e.audit()
}

func TestMarketBuyByBase(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "20000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.5"))
	e.place(alice, limit("btcusdt", "SELL", "31000", "0.5"))

	// The volume is bought; while it is matched everything spendable is
	// held (before the pair's first trade there is no price to bound it).
	buy := e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Volume: "0.6"})
	// 0.5 at 30000 + 0.1 at 31000 = 18100; the other 1900 is released.
	e.wantBal(bob, "USDT", "1900", "0")
	e.wantBal(bob, "BTC", "0.5994", "0")
	e.wantOrder(bob, buy, StatusFilled, "0.6", "18100", "0.0006")
	if o := e.order(bob, buy); !o.Volume.Equal(dec("0.6")) || !o.QuoteVolume.IsZero() {
		t.Fatalf("order %+v: volume 0.6 and no quoteVolume wanted (the budget is a hold, not a request)", o)
	}

	// The funds run out first: what 1900 buys at 31000 (whole lots), then cancelled.
	short := e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Volume: "0.1"})
	e.wantOrder(bob, short, StatusCancelled, "0.06129", "1899.99", "0.00006129")
	e.wantBal(bob, "USDT", "0.01", "0")

	// With a last trade price, the budget is at most the volume at that
	// price × MarketBuyBand: 0.2 × 31000 × 1.5 = 9300 of bob's 10000.01,
	// which buys 0.093 of an ask at 100000 (all of bob's money would have
	// bought 0.1).
	if err := e.svc.CancelAll(e.ctx, alice, "btcusdt"); err != nil {
		t.Fatal(err)
	}
	e.deposit(alice, "BTC", "0.2")
	e.place(alice, limit("btcusdt", "SELL", "100000", "0.2"))
	e.deposit(bob, "USDT", "10000")
	banded := e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Volume: "0.2"})
	e.wantOrder(bob, banded, StatusCancelled, "0.093", "9300", "0.000093")
	e.wantBal(bob, "USDT", "700.01", "0")

	// Nothing to spend: refused at entry. Worth less than the minimum at the best ask: rejected, hold released.
	wantCode(t, func() error {
		_, err := e.svc.PlaceOrder(e.ctx, carol, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Volume: "0.1"})
		return err
	}(), apperr.CodeTradeInsufficient)
	e.deposit(carol, "USDT", "100")
	tiny := e.place(carol, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Volume: "0.00001"})
	e.wantOrder(carol, tiny, StatusRejected, "0", "0", "0")
	e.wantBal(carol, "USDT", "100", "0")
	e.drain()
	e.audit()
}

func TestMarketSell(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "3000")
	e.place(bob, limit("btcusdt", "BUY", "29000", "0.1"))
	sell := e.place(alice, PlaceRequest{Symbol: "btcusdt", Side: "SELL", Type: TypeMarket, Volume: "0.3"})
	e.drain()
	// Only 0.1 is bid: the rest of the market sell is cancelled and released.
	e.wantOrder(alice, sell, StatusCancelled, "0.1", "2900", "2.9")
	e.wantBal(alice, "BTC", "0.9", "0")
	e.wantBal(alice, "USDT", "2897.1", "0")
	e.wantBal(bob, "USDT", "100", "0")
	e.wantBal(bob, "BTC", "0.0999", "0")
	e.audit()
}

func TestIOCFOKPostOnly(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.3"))
	ioc := e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeIOC, Price: "30000", Volume: "0.5"})
	e.drain()
	e.wantOrder(bob, ioc, StatusCancelled, "0.3", "9000", "0.0003")
	e.wantBal(bob, "USDT", "91000", "0")
	e.wantReason(bob, ioc, "ioc_remainder")

	fok := e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeFOK, Price: "30000", Volume: "1"})
	e.drain()
	e.wantOrder(bob, fok, StatusCancelled, "0", "0", "0")
	e.wantBal(bob, "USDT", "91000", "0")
	e.wantReason(bob, fok, "fok_not_filled")

	e.place(alice, limit("btcusdt", "SELL", "30000", "0.1"))
	po := e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypePostOnly, Price: "30000", Volume: "0.1"})
	e.drain()
	e.wantOrder(bob, po, StatusRejected, "0", "0", "0")
	e.wantBal(bob, "USDT", "91000", "0")
	e.wantReason(bob, po, "post_only_would_take")
	// A post-only that does not cross rests.
	po2 := e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypePostOnly, Price: "29000", Volume: "0.1"})
	e.drain()
	e.wantOrder(bob, po2, StatusNew, "0", "0", "0")
	e.wantReason(bob, po2, "")
	e.wantBal(bob, "USDT", "88100", "2900")
	// FOK that can fill: fills entirely.
	fok2 := e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeFOK, Price: "30000", Volume: "0.1"})
	e.drain()
	e.wantOrder(bob, fok2, StatusFilled, "0.1", "3000", "0.0001")
	e.audit()
}

func TestStopLimit(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	// Establish a last price of 30000.
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.1"))
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.1"))
	e.drain()
	// A stop the last price has already reached is refused at entry, for
	// either side, and holds nothing.
	for _, r := range []PlaceRequest{
		{Symbol: "btcusdt", Side: "BUY", Type: TypeStopLimit, Price: "31000", StopPrice: "30000", Volume: "0.1"},
		{Symbol: "btcusdt", Side: "SELL", Type: TypeStopLimit, Price: "29000", StopPrice: "30000", Volume: "0.1"},
		{Symbol: "btcusdt", Side: "SELL", Type: TypeStopLimit, Price: "29000", StopPrice: "30000.01", Volume: "0.1"},
	} {
		_, err := e.svc.PlaceOrder(e.ctx, bob, r)
		if ae := apperr.As(err); ae.Entry.Code != apperr.CodeTradeStopReached || !strings.Contains(ae.Message(apperr.LangEN), "30000.00") {
			t.Fatalf("%+v: %v", r, err)
		}
	}
	e.wantBal(bob, "USDT", "97000", "0")
	stop := e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeStopLimit, Price: "31000", StopPrice: "30500", Volume: "0.1"})
	e.drain()
	e.wantOrder(bob, stop, StatusNew, "0", "0", "0")
	triggered := func(want bool) {
		t.Helper()
		o, err := e.svc.GetOrder(e.ctx, bob, stop)
		if v := o.View(2); err != nil || v.Triggered == nil || *v.Triggered != want {
			t.Fatalf("triggered %v, want %v (%v)", v.Triggered, want, err)
		}
	}
	triggered(false)
	// A trade at 30500 triggers the stop, which rests at 31000 until the 31000 ask comes.
	e.place(alice, limit("btcusdt", "SELL", "30500", "0.1"))
	e.place(bob, limit("btcusdt", "BUY", "30500", "0.1"))
	e.drain()
	e.wantOrder(bob, stop, StatusNew, "0", "0", "0")
	triggered(true)
	e.place(alice, limit("btcusdt", "SELL", "31000", "0.1"))
	e.drain()
	e.wantOrder(bob, stop, StatusFilled, "0.1", "3100", "0.0001")
	triggered(true)
	e.audit()
}

func TestSelfTradePrevention(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(alice, "USDT", "10000")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "0.1"))
	buy := e.place(alice, limit("btcusdt", "BUY", "30000", "0.1"))
	e.drain()
	e.wantOrder(alice, buy, StatusCancelled, "0", "0", "0")
	e.wantOrder(alice, sell, StatusNew, "0", "0", "0")
	e.wantBal(alice, "USDT", "10000", "0")
	e.wantBal(alice, "BTC", "0.9", "0.1")
	if err := e.svc.CancelAll(e.ctx, alice, ""); err != nil {
		t.Fatal(err)
	}
	e.drain()
	e.wantBal(alice, "BTC", "1", "0")
	e.audit()
}

func TestSelfTradePreventionModes(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(alice, "USDT", "10000")
	stpOf := func(id string) string {
		t.Helper()
		n, _ := strconv.ParseUint(id, 10, 64)
		it, err := e.st.Get(e.ctx, orderKey(n))
		if err != nil {
			t.Fatal(err)
		}
		return it.Str("stp")
	}

	// The order's own mode: cancel_maker removes alice's resting sell, and her buy rests.
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "0.1"))
	req := limit("btcusdt", "BUY", "30000", "0.1")
	req.STP = "CANCEL_MAKER"
	buy := e.place(alice, req)
	e.drain()
	e.wantOrder(alice, sell, StatusCancelled, "0", "0", "0")
	e.wantOrder(alice, buy, StatusNew, "0", "0", "0")
	e.wantBal(alice, "BTC", "1", "0")
	e.wantBal(alice, "USDT", "7000", "3000")
	if stpOf(buy) != "cancel_maker" || stpOf(sell) != "" {
		t.Fatalf("stored modes %q %q: the order's own, none for the default", stpOf(buy), stpOf(sell))
	}
	for _, bad := range []string{"cancel_everything", "decrement", "default"} {
		req.STP = bad
		_, err := e.svc.PlaceOrder(e.ctx, alice, req)
		wantCode(t, err, apperr.CodeTradeSTP)
	}

	// The pair's mode when the order names none: cancel_both ends both.
	dir := t.TempDir()
	pairs, _ := json.Marshal(func() []markets.Pair {
		l := e.cat.List()
		for i := range l {
			if l[i].Symbol == "btcusdt" {
				l[i].SelfTradePrevention = "cancel_both"
			}
		}
		return l
	}())
	if err := os.WriteFile(filepath.Join(dir, markets.FileName), pairs, 0o644); err != nil {
		t.Fatal(err)
	}
	next, err := markets.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cat.Replace(next); err != nil {
		t.Fatal(err)
	}
	sell2 := e.place(alice, limit("btcusdt", "SELL", "30000", "0.05"))
	e.drain()
	e.wantOrder(alice, sell2, StatusCancelled, "0", "0", "0")
	e.wantOrder(alice, buy, StatusCancelled, "0", "0", "0")
	if stpOf(sell2) != "cancel_both" {
		t.Fatalf("stored mode %q, want the pair's cancel_both", stpOf(sell2))
	}
	e.wantBal(alice, "BTC", "1", "0")
	e.wantBal(alice, "USDT", "10000", "0")
	e.audit()
}

func TestClientOrderIDIdempotent(t *testing.T) {
	e := newEnv(t)
	e.deposit(bob, "USDT", "10000")
	r := limit("btcusdt", "BUY", "20000", "0.1")
	r.ClientOrderID = "bot-7:2026/11.21_c-1"
	a := e.place(bob, r)
	b := e.place(bob, r)
	if a != b {
		t.Fatalf("retry made a second order: %s %s", a, b)
	}
	e.wantBal(bob, "USDT", "8000", "2000")
	// The same order written differently is the same order.
	same := r
	same.Symbol, same.Side, same.Price, same.Volume = "BTC/USDT", "buy", "20000.00", "0.100"
	if c := e.place(bob, same); c != a {
		t.Fatalf("a retry written differently made a second order: %s %s", a, c)
	}
	// A mapping stored with the parameters as written (before they were
	// compared by value) still finds its order.
	legacy := r
	legacy.ClientOrderID, legacy.Price = "legacy-1", "20000.0"
	old := e.place(bob, legacy)
	if err := e.st.Put(e.ctx, store.Item{store.AttrPK: pkClientID + bob, store.AttrSK: "legacy-1", "orderId": old,
		"fp": rawFingerprint(legacy)}, nil); err != nil {
		t.Fatal(err)
	}
	if c := e.place(bob, legacy); c != old {
		t.Fatalf("a legacy mapping lost its order: %s %s", old, c)
	}
	e.wantBal(bob, "USDT", "6000", "4000")
	r.Price = "20001"
	_, err := e.svc.PlaceOrder(e.ctx, bob, r)
	wantCode(t, err, apperr.CodeTradeClientOrderReused)
	e.drain()
	e.wantOrder(bob, a, StatusNew, "0", "0", "0")
	e.audit()
}

func TestValidationCodes(t *testing.T) {
	e := newEnv(t)
	e.deposit(bob, "USDT", "100")
	cases := []struct {
		r    PlaceRequest
		code string
	}{
		{limit("nopeusdt", "BUY", "1", "1"), apperr.CodeTradeSymbolUnknown},
		{limit("btcusdt", "HOLD", "1", "1"), apperr.CodeTradeSide},
		{PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: "GTX", Price: "1", Volume: "1"}, apperr.CodeTradeType},
		{limit("btcusdt", "BUY", "", "1"), apperr.CodeTradePriceRequired},
		{limit("btcusdt", "BUY", "30000", ""), apperr.CodeTradeVolumeRequired},
		{limit("btcusdt", "BUY", "30000.001", "0.001"), apperr.CodeTradePriceTick},
		{limit("btcusdt", "BUY", "30000", "0.0010001"), apperr.CodeTradeVolumeLot},
		{limit("btcusdt", "BUY", "30000", "0.000001"), apperr.CodeTradeMinQty},
		{limit("btcusdt", "BUY", "100", "0.0001"), apperr.CodeTradeMinNotional},
		{limit("btcusdt", "BUY", "-5", "1"), apperr.CodeTradeNumber},
		{limit("btcusdt", "BUY", "abc", "1"), apperr.CodeTradeNumber},
		{PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeLimit, Price: "30000", Volume: "0.001", QuoteVolume: "30"}, apperr.CodeTradeVolumeBoth},
		{PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Volume: "0.001", QuoteVolume: "30"}, apperr.CodeTradeVolumeBoth},
		{PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket}, apperr.CodeTradeVolumeRequired},
		{PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Volume: "0.0010001"}, apperr.CodeTradeVolumeLot},
		{PlaceRequest{Symbol: "btcusdt", Side: "SELL", Type: TypeMarket, QuoteVolume: "30"}, apperr.CodeTradeVolumeBoth},
		{PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeLimit, Price: "30000", Volume: "0.001", StopPrice: "1"}, apperr.CodeTradeStopPrice},
		{PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeStopLimit, Price: "30000", Volume: "0.001"}, apperr.CodeTradeStopPrice},
		{limit("btcusdt", "BUY", "30000", "0.01"), apperr.CodeTradeInsufficient},
		// On the grid but beyond what one order may carry.
		{limit("btcusdt", "BUY", "9000000000", "9000000"), apperr.CodeTradeTooLarge},
		{limit("btcusdt", "BUY", "100000000000000000000", "0.001"), apperr.CodeTradeTooLarge},
		{PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, QuoteVolume: "10.123456789"}, apperr.CodeTradeVolumeLot},
		// Numbers are plain decimals, as wallet amounts: no exponent or sign.
		{limit("btcusdt", "BUY", ".5e3", "0.01"), apperr.CodeTradeNumber},
		{limit("btcusdt", "BUY", "1E3", "0.01"), apperr.CodeTradeNumber},
		{limit("btcusdt", "BUY", "30000", "1e-2"), apperr.CodeTradeNumber},
		{limit("btcusdt", "BUY", "+30000", "0.01"), apperr.CodeTradeNumber},
		{limit("btcusdt", "BUY", "30000", "0x10"), apperr.CodeTradeNumber},
		{PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, QuoteVolume: "3e1"}, apperr.CodeTradeNumber},
		// A market order trades at the book's prices: a price sent with it is refused, not ignored.
		{PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Price: "1000", Volume: "0.001"}, apperr.CodeTradeMarketPrice},
		{PlaceRequest{Symbol: "btcusdt", Side: "SELL", Type: TypeMarket, Price: "1000", Volume: "0.001"}, apperr.CodeTradeMarketPrice},
		// A clientOrderId is letters, digits and -_.:/ only.
		{PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeLimit, Price: "30000", Volume: "0.001", ClientOrderID: "a\x00b\nc"}, apperr.CodeParam},
		{PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeLimit, Price: "30000", Volume: "0.001", ClientOrderID: "my order"}, apperr.CodeParam},
		{PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeLimit, Price: "30000", Volume: "0.001", ClientOrderID: strings.Repeat("x", 65)}, apperr.CodeParam},
	}
	for i, c := range cases {
		_, err := e.svc.PlaceOrder(e.ctx, bob, c.r)
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Entry.Code != c.code {
			t.Errorf("case %d %+v: %v, want %s", i, c.r, err, c.code)
		}
	}
	// Minimums name their coin, as the order form shows them.
	for r, want := range map[PlaceRequest]string{
		limit("btcusdt", "BUY", "30000", "0.000001"): "0.00001 BTC",
		limit("btcusdt", "BUY", "100", "0.0001"):     "5 USDT",
		// A market buy's amount is on the grid of the quote coin's units.
		{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, QuoteVolume: "10.123456789"}: "multiple of 0.00000001 USDT",
	} {
		_, err := e.svc.PlaceOrder(e.ctx, bob, r)
		if msg := apperr.As(err).Message(apperr.LangEN); !strings.HasSuffix(msg, want) {
			t.Errorf("%+v: %q, want it to end with %q", r, msg, want)
		}
	}
	e.wantBal(bob, "USDT", "100", "0")
}

// A command in the journal that the store does not show yet (the process
// died while its batch was being written) is written on restart, once: the
// store then shows the trade, and the engine's books and balances are what
// they were before the crash.
func TestCrashAfterJournalBeforeTheStoreShowsIt(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "10000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.2"))
	e.drain()
	e.st.dead.Store(true) // the projection writes nothing more
	buy, err := e.svc.PlaceOrder(AckAtJournal(e.ctx), bob, limit("btcusdt", "BUY", "30000", "0.1"))
	if err != nil {
		t.Fatal(err)
	}
	e.wantBal(bob, "USDT", "10000", "0") // the store does not show it yet
	if _, err := e.svc.GetOrder(e.ctx, bob, buy); err == nil {
		t.Fatal("the store shows an order it could not write")
	}
	hash := e.engineHash()
	e.crash()
	if got := e.engineHash(); got != hash {
		t.Fatalf("state hash %x after restart, %x before", got, hash)
	}
	e.drain()
	e.wantOrder(bob, buy, StatusFilled, "0.1", "3000", "0.0001")
	e.wantBal(bob, "USDT", "7000", "0")
	e.wantBal(bob, "BTC", "0.0999", "0")
	e.wantBal(alice, "BTC", "0.8", "0.1")
	e.wantBal(alice, "USDT", "2997", "0")
	// Another restart writes nothing again.
	e.wantSameAfter(e.restart, []string{alice, bob, "FEES"}, []string{"BTC", "USDT"})
	e.audit()
}

// A restart that replays the whole journal (no snapshot was written)
// comes back with the same books and balances and writes nothing twice.
func TestReplayWholeJournalSettlesOnce(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.5"))
	e.place(alice, limit("btcusdt", "SELL", "30100", "0.5"))
	e.place(bob, limit("btcusdt", "BUY", "30100", "0.7"))
	e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, QuoteVolume: "100"})
	e.wantSameAfter(e.crash, []string{alice, bob, "FEES"}, []string{"BTC", "USDT"})
	e.audit()
}

// TestTradeTimeIsTheBatchTime: a trade has one time, the moment its batch
// was matched, in the users' trade rows and in market data alike (candles
// and the public tape then agree with the users' histories), however long
// settlement takes.
func TestTradeTimeIsTheBatchTime(t *testing.T) {
	var mu sync.Mutex
	clock := time.UnixMilli(1_800_000_000_000)
	tick := func() time.Time { // every reading is a millisecond later
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Millisecond)
		return clock
	}
	e := newEnv(t, func(e *env) { e.now = tick })
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "10000")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "0.1"))
	buy := e.place(bob, limit("btcusdt", "BUY", "30000", "0.1"))
	e.drain()
	trades, _, _ := e.rec.published("btcusdt")
	if len(trades) != 1 {
		t.Fatalf("feed trades %+v", trades)
	}
	pub := trades[0].At.UnixMilli()
	for _, o := range []struct{ uid, id string }{{alice, sell}, {bob, buy}} {
		tr, err := e.svc.OrderTrades(e.ctx, o.uid, o.id)
		if err != nil || len(tr) != 1 {
			t.Fatalf("trades of %s: %+v %v", o.id, tr, err)
		}
		if row := tr[0].At.UnixMilli(); row != pub {
			t.Fatalf("the trade is stored at %d ms for order %s and published at %d ms", row, o.id, pub)
		}
	}
}

// The depth the engine publishes holds every level the merged steps group:
// 250 asks 0.01 apart fall in one bucket of btcusdt's coarsest step (100
// USDT), so all of them are published, not only the 200 step 0 shows.
func TestDepthCoversTheMergedSteps(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	for i := 1; i <= 250; i++ {
		e.place(alice, limit("btcusdt", "SELL", fmt.Sprintf("%d.%02d", 30000+i/100, i%100), "0.001"))
	}
	e.drain()
	e.rt.PublishDepth()
	_, _, asks := e.rec.published("btcusdt")
	if len(asks) != 250 || !asks[0].Price.Equal(dec("30000.01")) || !asks[249].Price.Equal(dec("30002.5")) {
		t.Fatalf("%d ask levels published, from %v to %v", len(asks), asks[0], asks[len(asks)-1])
	}
	e.audit()
}

// An order far from the best price is in the published depth: btcusdt's
// coarsest step is 100 USDT, so an ask at 90000 lies more than 200 such
// buckets above one at 30000, with only empty buckets between.
func TestDepthShowsFarOrders(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.001"))
	e.place(alice, limit("btcusdt", "SELL", "90000", "0.002"))
	e.drain()
	e.rt.PublishDepth()
	_, _, asks := e.rec.published("btcusdt")
	if len(asks) != 2 || !asks[1].Price.Equal(dec("90000")) || !asks[1].Qty.Equal(dec("0.002")) {
		t.Fatalf("published asks %v, want 30000 and 90000", asks)
	}
	e.audit()
}
