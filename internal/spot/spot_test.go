package spot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/queue"
	"tenger/internal/store"
)

const (
	alice = "10000001"
	bob   = "10000002"
)

func TestLimitTradeFeesPartialFillAndCancel(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "20000")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	buy := e.place(bob, limit("btcusdt", "BUY", "30100", "0.4"))
	e.wantBal(alice, "BTC", "0", "1")
	e.wantBal(bob, "USDT", "7960", "12040")
	e.drain()

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
	if len(e.feed.trades) != 1 || e.feed.trades[0].TakerSide != "BUY" || !e.feed.trades[0].Qty.Equal(dec("0.4")) {
		t.Fatalf("feed trades %+v", e.feed.trades)
	}

	if e.feed.depths == 0 || len(e.feed.asks["btcusdt"]) != 1 ||
		!e.feed.asks["btcusdt"][0].Price.Equal(dec("30000")) || !e.feed.asks["btcusdt"][0].Qty.Equal(dec("0.6")) {
		t.Fatalf("depth: %d published, last asks %+v", e.feed.depths, e.feed.asks["btcusdt"])
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
	e.drain()
	e.wantBal(alice, "BTC", "0.6", "0")
	e.wantOrder(alice, sell, StatusCancelled, "0.4", "12000", "12")
	wantCode(t, e.svc.CancelOrder(e.ctx, alice, "btcusdt", sell), apperr.CodeTradeOrderFinished)
	hist, n, err := e.svc.SearchOrders(e.ctx, alice, OrderFilter{Status: []Status{StatusCancelled}})
	if err != nil || n != 1 || hist[0].ID != sell {
		t.Fatalf("history %+v %d %v", hist, n, err)
	}
	e.audit()
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

	// The volume is bought; until it is matched everything spendable is held
	// (before the pair's first trade there is no price to bound it).
	buy := e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Volume: "0.6"})
	e.wantBal(bob, "USDT", "0", "20000")
	e.drain()
	// 0.5 at 30000 + 0.1 at 31000 = 18100; the other 1900 is released.
	e.wantBal(bob, "USDT", "1900", "0")
	e.wantBal(bob, "BTC", "0.5994", "0")
	e.wantOrder(bob, buy, StatusFilled, "0.6", "18100", "0.0006")
	if o := e.order(bob, buy); !o.Volume.Equal(dec("0.6")) || !o.QuoteVolume.IsZero() {
		t.Fatalf("order %+v: volume 0.6 and no quoteVolume wanted (the budget is a hold, not a request)", o)
	}

	// The funds run out first: what 1900 buys at 31000 (whole lots), then cancelled.
	short := e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Volume: "0.1"})
	e.drain()
	e.wantOrder(bob, short, StatusCancelled, "0.06129", "1899.99", "0.00006129")
	e.wantBal(bob, "USDT", "0.01", "0")

	// With a last trade price, the hold is at most the volume at that price
	// × MarketBuyBand: 0.2 × 31000 × 1.5 = 9300 of bob's 10000.01.
	e.deposit(bob, "USDT", "10000")
	banded := e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Volume: "0.2"})
	e.wantBal(bob, "USDT", "700.01", "9300")
	e.drain()
	e.wantOrder(bob, banded, StatusFilled, "0.2", "6200", "0.0002")
	e.wantBal(bob, "USDT", "3800.01", "0")

	// Nothing to spend: refused at entry. Worth less than the minimum at the best ask: rejected, hold released.
	wantCode(t, func() error {
		_, err := e.svc.PlaceOrder(e.ctx, carol, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Volume: "0.1"})
		return err
	}(), apperr.CodeTradeInsufficient)
	e.deposit(carol, "USDT", "100")
	tiny := e.place(carol, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Volume: "0.00001"})
	e.drain()
	e.wantOrder(carol, tiny, StatusRejected, "0", "0", "0")
	e.wantBal(carol, "USDT", "100", "0")
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

func TestRebuiltOrderKeepsItsSelfTradePrevention(t *testing.T) {
	cfg := symbolConfig(func() markets.Pair { p, _ := newCatalogue().Pair("btcusdt"); return p }())
	item := func(stp string) store.Item {
		it := store.Item{"id": "7", "uid": alice, "side": "BUY", "type": TypeLimit, "price": dec("30000"), "volume": dec("0.1")}
		if stp != "" {
			it["stp"] = stp
		}
		return it
	}
	for stp, want := range map[string]matching.STPMode{"": matching.STPCancelTaker, "cancel_maker": matching.STPCancelMaker, "cancel_both": matching.STPCancelBoth} {
		o, err := openOrderInfo(cfg, item(stp), false)
		if err != nil || o.STP != want {
			t.Errorf("stp %q: %v %v, want %v", stp, o.STP, err, want)
		}
	}
	if _, err := openOrderInfo(cfg, item("default"), false); err == nil {
		t.Error("an unknown stored mode was accepted")
	}
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

// failingQueue refuses sends, as an API process that dies right after its
// commit would never send.
type failingQueue struct{ queue.Queue }

func (failingQueue) Send(context.Context, queue.Message) error { return errors.New("down") }

func TestOrderNotSentIsSweptFromOutbox(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "10000")
	lost := New(Options{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: failingQueue{e.q}})
	sell, err := lost.PlaceOrder(e.ctx, alice, limit("btcusdt", "SELL", "30000", "0.1"))
	if err != nil {
		t.Fatal(err)
	}
	e.drain()
	e.wantOrder(alice, sell, StatusNew, "0", "0", "0") // stored, not yet in the book
	// The engine restarts and sweeps the outbox: the order reaches the book.
	e.eng = e.newEngine()
	e.drain()
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.1"))
	e.drain()
	e.wantOrder(alice, sell, StatusFilled, "0.1", "3000", "3")
	// Sweeping again (a duplicate send) changes nothing.
	if err := e.eng.sweep(e.ctx, true); err != nil {
		t.Fatal(err)
	}
	e.drain()
	e.wantBal(alice, "BTC", "0.9", "0")
	e.audit()
}

// recordingQueue records the messages sent through it.
type recordingQueue struct {
	queue.Queue
	mu   sync.Mutex
	sent []queue.Message
}

func (q *recordingQueue) Send(ctx context.Context, m queue.Message) error {
	q.mu.Lock()
	q.sent = append(q.sent, m)
	q.mu.Unlock()
	return q.Queue.Send(ctx, m)
}

func (q *recordingQueue) SendBatch(ctx context.Context, ms []queue.Message) error {
	q.mu.Lock()
	q.sent = append(q.sent, ms...)
	q.mu.Unlock()
	return q.Queue.SendBatch(ctx, ms)
}

// TestOnlyOutboxCommandsAreBacked: places and amends, which have outbox
// records, and the sweep's resends of those records are sent Backed (the
// queue may answer before its own fsync); a cancel, which has no other
// copy, is not.
func TestOnlyOutboxCommandsAreBacked(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	rec := &recordingQueue{Queue: e.q}
	svc := New(Options{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: rec})
	id, err := svc.PlaceOrder(e.ctx, alice, limit("btcusdt", "SELL", "30000", "0.2"))
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.AmendOrder(e.ctx, alice, "btcusdt", id, "0.1"); err != nil {
		t.Fatal(err)
	}
	// The sweep resends both outbox records before the engine settles them.
	e.eng.o.Orders = rec
	if err := e.eng.sweep(e.ctx, true); err != nil {
		t.Fatal(err)
	}
	e.drain()
	if err := svc.CancelOrder(e.ctx, alice, "btcusdt", id); err != nil {
		t.Fatal(err)
	}
	e.drain()
	e.wantOrder(alice, id, StatusCancelled, "0", "0", "0")
	var kinds []string
	for _, m := range rec.sent {
		kinds = append(kinds, fmt.Sprintf("%s backed=%v", strings.SplitN(m.DedupID, ":", 2)[0], m.Backed))
	}
	want := []string{"place backed=true", "amend backed=true", "place backed=true", "amend backed=true", " backed=false"}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("sent %q, want %q", kinds, want)
	}
	e.audit()
}

func TestCrashAfterJournalBeforeSettlement(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "10000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.2"))
	e.drain()
	buy := e.place(bob, limit("btcusdt", "BUY", "30000", "0.1"))
	e.eng.crashAfterJournal = true
	if err := drainEngine(e.ctx, e.eng, e.q); !errors.Is(err, errCrash) {
		t.Fatalf("want the simulated crash, got %v", err)
	}
	e.wantBal(bob, "USDT", "7000", "3000") // nothing settled yet
	hash := e.eng.StateHash("btcusdt")
	// Restart: the journal replay settles the trade; the redelivered
	// message is recognised as already sequenced.
	e.eng = e.newEngine()
	if got := e.eng.StateHash("btcusdt"); got != hash {
		t.Fatalf("state hash %x after restart, %x before", got, hash)
	}
	e.wantOrder(bob, buy, StatusFilled, "0.1", "3000", "0.0001")
	waitVisible(e)
	e.drain()
	e.wantBal(bob, "USDT", "7000", "0")
	e.wantBal(bob, "BTC", "0.0999", "0")
	e.wantBal(alice, "BTC", "0.8", "0.1")
	e.wantBal(alice, "USDT", "2997", "0")
	if got := e.eng.StateHash("btcusdt"); got != hash {
		t.Fatalf("redelivery changed the book")
	}
	e.audit()
}

func TestReplayWholeJournalSettlesOnce(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.5"))
	e.place(alice, limit("btcusdt", "SELL", "30100", "0.5"))
	e.place(bob, limit("btcusdt", "BUY", "30100", "0.7"))
	e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, QuoteVolume: "100"})
	e.drain()
	before := snapshotBalances(e)
	hash := e.eng.StateHash("btcusdt")
	// Same events settled again (a fresh engine replays the whole journal).
	e.eng = e.newEngine()
	e.drain()
	if after := snapshotBalances(e); after != before {
		t.Fatalf("replay changed balances:\n%s\n%s", before, after)
	}
	if e.eng.StateHash("btcusdt") != hash {
		t.Fatal("replay rebuilt a different book")
	}
	e.audit()
}

func snapshotBalances(e *env) string {
	out := ""
	for _, u := range []string{alice, bob} {
		for _, c := range []string{"BTC", "USDT"} {
			b, _ := e.led.Balance(e.ctx, spotAccount(u), c)
			out += u + c + b.Available.String() + "/" + b.Frozen.String() + " "
		}
	}
	return out
}

// TestTradeTimeIsTheBatchTime: a trade has one time, the moment its batch
// was matched, in the users' trade rows and in market data alike (candles
// and the public tape then agree with the users' histories), however long
// settlement takes.
func TestTradeTimeIsTheBatchTime(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	clock := time.UnixMilli(1_800_000_000_000)
	tick := func() time.Time { // every reading is a millisecond later
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Millisecond)
		return clock
	}
	eng, err := NewEngine(e.ctx, EngineOptions{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: e.q,
		Journal: e.journal, Feed: e.feed, Visibility: 200 * time.Millisecond, SnapshotEvery: -1, Now: tick})
	if err != nil {
		t.Fatal(err)
	}
	e.eng = eng
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "10000")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "0.1"))
	buy := e.place(bob, limit("btcusdt", "BUY", "30000", "0.1"))
	e.drain()
	if len(e.feed.trades) != 1 {
		t.Fatalf("feed trades %+v", e.feed.trades)
	}
	pub := e.feed.trades[0].At.UnixMilli()
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
	e.eng.publishDepth(true)
	e.feed.mu.Lock()
	asks := e.feed.asks["btcusdt"]
	e.feed.mu.Unlock()
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
	e.eng.publishDepth(true)
	e.feed.mu.Lock()
	asks := e.feed.asks["btcusdt"]
	e.feed.mu.Unlock()
	if len(asks) != 2 || !asks[1].Price.Equal(dec("90000")) || !asks[1].Qty.Equal(dec("0.002")) {
		t.Fatalf("published asks %v, want 30000 and 90000", asks)
	}
	e.audit()
}
