package main

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/functions/fntest"
	"tenger/internal/auth"
	"tenger/internal/awslambda"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
)

// TestTradeQueriesFromSampleEvents drives the rest of the trade function's
// routes with recorded HTTP API v2 events, on DynamoDB Local with the engine
// the engine task's endpoint
// matching and projecting into the same table: user A (2000 USDT)
// rests two BTC buys and an ETH buy, user B (0.05 BTC) sells into the first
// buy twice (an API client, header auth), so it is partially filled. Then:
// fee_rate (a base64 body, before and after trading), detail and
// list_by_order (and B reading A's order: 14014), trade_info_search and
// entrust_search with filters and paging, GET on a POST route (405/10006),
// B's cancel_all leaving A's orders alone, amend (an increase: 14020, B
// amending A's order: 14014, then a reduction the engine applies),
// entrust_history, cancel_all of one symbol, then of all, with the balances
// checked after each settled step and an audit at the end.
func TestTradeQueriesFromSampleEvents(t *testing.T) {
	e := newTradeEnv(t)
	ctx, h := e.ctx, e.h
	ua, ta := e.signUp(t, "maker.a@tenger.example")
	ub, tb := e.signUp(t, "taker.b@tenger.example")
	e.fund(t, "deposit:TRC20:tx-q-a:0", ua, "TRC20", "USDT", "2000")
	e.fund(t, "deposit:BTC:tx-q-b:0", ub, "BTC", "BTC", "0.05")

	// Fee rates before any trade (API client, base64 body).
	var fr httpapi.FeeRateResp
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_fee_rate.json", map[string]string{"token": ta}), &fr)
	checkDec(t, "fee_rate maker", fr.Maker, "0.001")
	checkDec(t, "fee_rate taker", fr.Taker, "0.001")
	checkDec(t, "fee_rate volume30d", fr.Volume30d, "0")
	if fr.FeeCoin {
		t.Error("fee_rate: feeCoin set")
	}

	place := func(sample string, fill map[string]string) string {
		t.Helper()
		var r httpapi.OrderCreateResp
		fntest.Call(t, h, fntest.SampleEvent(t, sample, fill), &r)
		if r.OrderID == "" {
			t.Fatalf("%s: no order id", sample)
		}
		time.Sleep(3 * time.Millisecond) // distinct creation times for the time filters
		return r.OrderID
	}
	// A: two BTC buys (browser, cookie auth) and an ETH buy (API client).
	o1 := place("http_order_create.json", map[string]string{"token": ta, "price": "50000", "volume": "0.02", "clientOrderId": "q-a-1"})
	o2 := place("http_order_create.json", map[string]string{"token": ta, "price": "49000", "volume": "0.01", "clientOrderId": "q-a-2"})
	o3 := place("http_order_create_api.json", map[string]string{"token": ta, "symbol": "ETH_USDT", "side": "BUY",
		"price": "3000", "volume": "0.1", "clientOrderId": "q-a-3"})
	// B sells 0.004 and 0.006 at 50000: both take from o1 (50000), none from o2 (49000).
	o4 := place("http_order_create_api.json", map[string]string{"token": tb, "symbol": "btcusdt", "side": "SELL",
		"price": "50000", "volume": "0.004", "clientOrderId": "q-b-1"})
	o5 := place("http_order_create_api.json", map[string]string{"token": tb, "symbol": "BTC/USDT", "side": "SELL",
		"price": "50000", "volume": "0.006", "clientOrderId": "q-b-2"})
	for _, id := range []string{o4, o5} {
		e.waitOrder(t, ub, id, "filled", func(o spot.Order) bool { return o.Status == spot.StatusFilled && o.DealVolume.Equal(o.Volume) })
	}
	e.waitOrder(t, ua, o1, "partially filled", func(o spot.Order) bool {
		return o.Status == spot.StatusPartiallyFilled && o.DealVolume.Equal(dec("0.01"))
	})
	// A paid 500 USDT for 0.01 BTC less the maker fee (0.1% of it); B got
	// 500 USDT less the taker fee.
	e.expect(t, "after the fills", ua, "USDT", "210", "1290") // holds: 0.01×50000 + 0.01×49000 + 0.1×3000
	e.expect(t, "after the fills", ua, "BTC", "0.00999", "0")
	e.expect(t, "after the fills", ub, "BTC", "0.04", "0")
	e.expect(t, "after the fills", ub, "USDT", "499.5", "0")

	// Detail (cookie auth); another user cannot read the order.
	var v httpapi.OrderView
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_detail.json", map[string]string{"token": ta, "orderId": o1}), &v)
	checkOrder(t, "detail", v, o1, "BUY", spot.StatusPartiallyFilled, "0.02", "0.01")
	checkDec(t, "detail price", v.Price, "50000")
	checkDec(t, "detail deal_money", v.DealMoney, "500")
	checkDec(t, "detail avg_price", v.AvgPrice, "50000")
	checkDec(t, "detail fee", v.Fee, "0.00001")
	if v.ClientOrderID != "q-a-1" || v.Symbol != "btcusdt" || v.Type != "LIMIT" || v.FeeCoin != "BTC" || v.StatusText != "PARTIALLY_FILLED" || v.CreatedAt == 0 {
		t.Errorf("detail = %+v", v)
	}
	expectCode(t, h, "http_order_detail.json", map[string]string{"token": tb, "orderId": o1}, "14014")

	// The order's fills, oldest first (header auth); B's own taker fill; B reading A's: 14014.
	var lbo httpapi.TradeList
	fntest.Call(t, h, fntest.SampleEvent(t, "http_trade_list_by_order.json", map[string]string{"token": ta, "orderId": o1}), &lbo)
	if lbo.Count != 2 || len(lbo.TradeList) != 2 {
		t.Fatalf("list_by_order = %+v", lbo)
	}
	for i, want := range []struct{ vol, money, fee string }{{"0.004", "200", "0.000004"}, {"0.006", "300", "0.000006"}} {
		tr := lbo.TradeList[i]
		checkDec(t, "list_by_order volume", tr.Volume, want.vol)
		checkDec(t, "list_by_order deal_money", tr.DealMoney, want.money)
		checkDec(t, "list_by_order fee", tr.Fee, want.fee)
		checkDec(t, "list_by_order price", tr.Price, "50000")
		if tr.OrderID != o1 || tr.Symbol != "btcusdt" || tr.Side != "BUY" || tr.Role != "MAKER" || tr.FeeCoin != "BTC" || tr.TradeID == "" || tr.CreatedAt == 0 {
			t.Errorf("list_by_order[%d] = %+v", i, tr)
		}
	}
	var lbB httpapi.TradeList
	fntest.Call(t, h, fntest.SampleEvent(t, "http_trade_list_by_order.json", map[string]string{"token": tb, "orderId": o4}), &lbB)
	if lbB.Count != 1 || lbB.TradeList[0].Role != "TAKER" || lbB.TradeList[0].Side != "SELL" || lbB.TradeList[0].FeeCoin != "USDT" ||
		lbB.TradeList[0].TradeID != lbo.TradeList[0].TradeID {
		t.Errorf("B's list_by_order = %+v", lbB)
	} else {
		checkDec(t, "B's fee", lbB.TradeList[0].Fee, "0.2")
	}
	expectCode(t, h, "http_trade_list_by_order.json", map[string]string{"token": tb, "orderId": o1}, "14014")

	// Trade search (header auth): filters and paging, newest first.
	tradeSearch := func(tok, symbol, side string, page, size int) httpapi.TradeList {
		t.Helper()
		var out httpapi.TradeList
		fntest.Call(t, h, fntest.SampleEvent(t, "http_order_trade_info_search.json", map[string]string{"token": tok,
			"symbol": symbol, "side": side, "page": strconv.Itoa(page), "pageSize": strconv.Itoa(size)}), &out)
		return out
	}
	for page, want := range []string{lbo.TradeList[1].TradeID, lbo.TradeList[0].TradeID} {
		got := tradeSearch(ta, "btcusdt", "BUY", page+1, 1)
		if got.Count != 2 || len(got.TradeList) != 1 || got.TradeList[0].TradeID != want || got.TradeList[0].OrderID != o1 {
			t.Errorf("trade_info_search page %d = %+v, want trade %s", page+1, got, want)
		}
	}
	if got := tradeSearch(ta, "btcusdt", "SELL", 1, 20); got.Count != 0 || len(got.TradeList) != 0 {
		t.Errorf("trade_info_search A SELL = %+v", got)
	}
	if got := tradeSearch(ta, "ethusdt", "", 1, 20); got.Count != 0 {
		t.Errorf("trade_info_search A ethusdt = %+v", got)
	}
	if got := tradeSearch(tb, "", "", 1, 20); got.Count != 2 || len(got.TradeList) != 2 || got.TradeList[0].OrderID != o5 || got.TradeList[1].OrderID != o4 {
		t.Errorf("trade_info_search B = %+v", got)
	}

	// Fee rates after trading, from another (cold) instance of the
	// function: the rates a warm instance cached at the order entry do not
	// show the new volume for a minute. A has the fee-coin switch on.
	if err := e.d.Wallet().SetFeeCoinOpen(ctx, ua, true); err != nil {
		t.Fatal(err)
	}
	cold, err := newHandler(e.deps(t))
	if err != nil {
		t.Fatal(err)
	}
	h2 := awslambda.NewRuntime("trade", e.logs).HTTP(cold)
	fntest.Call(t, h2, fntest.SampleEvent(t, "http_order_fee_rate.json", map[string]string{"token": ta}), &fr)
	checkDec(t, "A's fee_rate maker", fr.Maker, "0.00075")
	checkDec(t, "A's fee_rate taker", fr.Taker, "0.00075")
	checkDec(t, "A's fee_rate volume30d", fr.Volume30d, "500")
	if !fr.FeeCoin {
		t.Error("A's fee_rate: feeCoin not set")
	}
	fntest.Call(t, h2, fntest.SampleEvent(t, "http_order_fee_rate.json", map[string]string{"token": tb}), &fr)
	checkDec(t, "B's fee_rate taker", fr.Taker, "0.001")
	checkDec(t, "B's fee_rate volume30d", fr.Volume30d, "500")
	if fr.FeeCoin {
		t.Error("B's fee_rate: feeCoin set")
	}

	// Order search (cookie auth): filters, paging, time range.
	created := map[string]int64{}
	for _, id := range []string{o1, o2, o3} {
		o, err := e.d.Spot().GetOrder(ctx, ua, id)
		if err != nil {
			t.Fatal(err)
		}
		created[id] = o.CreatedAt.UnixMilli()
	}
	search := func(tok string, f map[string]string) httpapi.OrderList {
		t.Helper()
		fill := map[string]string{"token": tok, "symbol": "", "side": "", "status": "", "startTime": "0", "endTime": "0", "page": "1", "pageSize": "20"}
		for k, v := range f {
			fill[k] = v
		}
		var out httpapi.OrderList
		fntest.Call(t, h, fntest.SampleEvent(t, "http_order_entrust_search.json", fill), &out)
		return out
	}
	ids := func(l httpapi.OrderList) string {
		var s []string
		for _, o := range l.OrderList {
			s = append(s, o.OrderID)
		}
		return strings.Join(s, ",")
	}
	for _, c := range []struct {
		name  string
		f     map[string]string
		count int
		want  []string
	}{
		{"all", nil, 3, []string{o3, o2, o1}},
		{"btcusdt BUY page 1", map[string]string{"symbol": "btcusdt", "side": "BUY", "pageSize": "1"}, 2, []string{o2}},
		{"btcusdt BUY page 2", map[string]string{"symbol": "BTC_USDT", "side": "buy", "page": "2", "pageSize": "1"}, 2, []string{o1}},
		{"page past the end", map[string]string{"page": "3", "pageSize": "2"}, 3, nil},
		{"status by name", map[string]string{"status": "PARTIALLY_FILLED"}, 1, []string{o1}},
		{"status by number", map[string]string{"status": "1"}, 2, []string{o3, o2}},
		{"SELL", map[string]string{"side": "SELL"}, 0, nil},
		{"time range", map[string]string{"startTime": strconv.FormatInt(created[o2], 10), "endTime": strconv.FormatInt(created[o2], 10)}, 1, []string{o2}},
		{"from o2 on", map[string]string{"startTime": strconv.FormatInt(created[o2], 10)}, 2, []string{o3, o2}},
	} {
		got := search(ta, c.f)
		if got.Count != c.count || ids(got) != strings.Join(c.want, ",") {
			t.Errorf("entrust_search %s: count %d orders [%s], want %d [%s]", c.name, got.Count, ids(got), c.count, strings.Join(c.want, ","))
		}
	}
	if got := search(ta, map[string]string{"symbol": "ethusdt"}); len(got.OrderList) == 1 {
		checkOrder(t, "entrust_search ethusdt", got.OrderList[0], o3, "BUY", spot.StatusNew, "0.1", "0")
	} else {
		t.Errorf("entrust_search ethusdt = %+v", got)
	}
	if got := search(tb, map[string]string{"status": "FILLED"}); got.Count != 2 || ids(got) != o5+","+o4 {
		t.Errorf("B's entrust_search FILLED = %+v", got)
	}
	expectCode(t, h, "http_order_entrust_search.json", map[string]string{"token": ta, "symbol": "", "side": "", "status": "bogus",
		"startTime": "0", "endTime": "0", "page": "1", "pageSize": "20"}, "410")
	// The stack routes GET too; the function answers it 405 (every trade route is a POST).
	resp, env := fntest.Do(t, h, fntest.SampleEvent(t, "http_order_entrust_search_get.json", map[string]string{"token": ta}))
	if resp.StatusCode != http.StatusMethodNotAllowed || env.Code != "10006" {
		t.Errorf("GET entrust_search = %d %+v", resp.StatusCode, env)
	}

	// History before anything ended: B's two filled orders, none of A's.
	history := func(tok, symbol string, page, size int) httpapi.OrderList {
		t.Helper()
		var out httpapi.OrderList
		fntest.Call(t, h, fntest.SampleEvent(t, "http_order_entrust_history.json", map[string]string{"token": tok,
			"symbol": symbol, "page": strconv.Itoa(page), "pageSize": strconv.Itoa(size)}), &out)
		return out
	}
	if got := history(ta, "", 1, 20); got.Count != 0 || len(got.OrderList) != 0 {
		t.Errorf("A's entrust_history before the cancels = %+v", got)
	}
	if got := history(tb, "btcusdt", 1, 20); got.Count != 2 || ids(got) != o5+","+o4 || got.OrderList[0].Status != int(spot.StatusFilled) {
		t.Errorf("B's entrust_history = %+v", got)
	}

	// B's cancel_all (cookie auth) cancels none of A's orders; A's amend
	// queued behind it in the same group shows when it has been applied.
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_cancel_all.json", map[string]string{"token": tb, "symbol": "btcusdt"}), new(httpapi.Empty))
	// Amend (header auth): an increase is refused, as is B amending A's order.
	expectCode(t, h, "http_order_amend.json", map[string]string{"token": ta, "orderId": o1, "volume": "0.03"}, "14020")
	expectCode(t, h, "http_order_amend.json", map[string]string{"token": tb, "orderId": o1, "volume": "0.015"}, "14014")
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_amend.json", map[string]string{"token": ta, "orderId": o1, "volume": "0.015"}), new(httpapi.Empty))
	e.waitOrder(t, ua, o1, "amended or ended", func(o spot.Order) bool { return o.Volume.Equal(dec("0.015")) || !o.Status.Open() })
	for _, id := range []string{o1, o2} {
		if o, err := e.d.Spot().GetOrder(ctx, ua, id); err != nil || !o.Status.Open() {
			t.Fatalf("after B's cancel_all, A's order %s = %+v, %v", id, o, err)
		}
	}
	// The amend freed 0.005 × 50000.
	e.expect(t, "after the amend", ua, "USDT", "460", "1040")
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_detail.json", map[string]string{"token": ta, "orderId": o1}), &v)
	checkOrder(t, "detail after the amend", v, o1, "BUY", spot.StatusPartiallyFilled, "0.015", "0.01")

	// cancel_all of btcusdt (cookie auth) ends o1 and o2, not the ETH order.
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_cancel_all.json", map[string]string{"token": ta, "symbol": "btcusdt"}), new(httpapi.Empty))
	for _, id := range []string{o1, o2} {
		e.waitOrder(t, ua, id, "cancelled", func(o spot.Order) bool { return o.Status == spot.StatusCancelled })
	}
	e.expect(t, "after cancel_all btcusdt", ua, "USDT", "1200", "300")
	e.expect(t, "after cancel_all btcusdt", ua, "BTC", "0.00999", "0")
	var open httpapi.OrderList
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_list_new.json", map[string]string{"token": ta}), &open)
	// list_new's sample names btcusdt: nothing open there now.
	if open.Count != 0 {
		t.Errorf("list/new btcusdt after cancel_all = %+v", open)
	}
	if o, err := e.d.Spot().GetOrder(ctx, ua, o3); err != nil || o.Status != spot.StatusNew {
		t.Errorf("ETH order after cancel_all btcusdt = %+v, %v", o, err)
	}
	expectCode(t, h, "http_order_amend.json", map[string]string{"token": ta, "orderId": o1, "volume": "0.012"}, "14015")

	// History (header auth): the two cancelled orders, newest first, paged.
	for page, want := range []struct {
		id, vol, deal string
	}{{o2, "0.01", "0"}, {o1, "0.015", "0.01"}} {
		got := history(ta, "btcusdt", page+1, 1)
		if got.Count != 2 || len(got.OrderList) != 1 {
			t.Errorf("entrust_history page %d = %+v", page+1, got)
			continue
		}
		checkOrder(t, "entrust_history", got.OrderList[0], want.id, "BUY", spot.StatusCancelled, want.vol, want.deal)
		if got.OrderList[0].EndReason == "" {
			t.Errorf("entrust_history %s: no end_reason", want.id)
		}
	}
	if got := history(ta, "", 1, 20); got.Count != 2 {
		t.Errorf("A's entrust_history of all symbols = %+v", got)
	}

	// cancel_all without a symbol ends the ETH order too.
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_cancel_all.json", map[string]string{"token": ta, "symbol": ""}), new(httpapi.Empty))
	e.waitOrder(t, ua, o3, "cancelled", func(o spot.Order) bool { return o.Status == spot.StatusCancelled })
	e.expect(t, "at the end", ua, "USDT", "1500", "0")
	e.expect(t, "at the end", ua, "BTC", "0.00999", "0")
	e.expect(t, "at the end", ub, "BTC", "0.04", "0")
	e.expect(t, "at the end", ub, "USDT", "499.5", "0")
	for coin, want := range map[string]string{"BTC": "0.00001", "USDT": "0.5"} {
		b, err := e.led.Balance(ctx, ledger.EngineFeeAccount(), coin)
		if err != nil || !b.Available.Equal(dec(want)) {
			t.Errorf("fee account %s = %s, %v; want %s", coin, b.Available, err, want)
		}
	}
	e.audit(t, "USDT", "BTC", "ETH")
	if logs := e.logs.String(); strings.Contains(logs, ta) || strings.Contains(logs, tb) {
		t.Error("a session token reached the logs")
	}
}

// signUp registers and signs in a user through the auth service.
func (e *tradeEnv) signUp(t *testing.T, email string) (uid, token string) {
	t.Helper()
	a := e.d.Auth()
	if err := a.SendEmailCode(e.ctx, auth.Meta{}, email, 1); err != nil {
		t.Fatal(err)
	}
	uid, err := a.Register(e.ctx, auth.Meta{}, auth.RegisterInput{Account: auth.Account{Email: email}, Password: "Passw0rd2026", Code: e.box.LastCode(email)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Login(e.ctx, auth.Meta{}, auth.Account{Email: email}, "Passw0rd2026")
	if err != nil || res.Token == "" {
		t.Fatalf("sign-in %s: %+v, %v", email, res, err)
	}
	return uid, res.Token
}

// fund deposits amount of coin to the user's spot account from a chain.
// fund credits a deposit through the engine, as the deposit flow does.
func (e *tradeEnv) fund(t *testing.T, id, uid, chain, coin, amount string) {
	t.Helper()
	if err := e.d.SpotFunds().Credit(e.ctx, spotfunds.Move{Ref: id, UID: uid, Coin: coin, Amount: dec(amount),
		Other: ledger.ChainAccount(chain), Reason: "deposit"}); err != nil {
		t.Fatal(err)
	}
}

// expect waits (the table trails the engine by the projection, for the
// answers given at the journal) until the table shows the balance.
func (e *tradeEnv) expect(t *testing.T, stage, uid, coin, avail, frozen string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := e.led.Balance(e.ctx, ledger.UserAccount(uid, ledger.Spot), coin)
		if err != nil {
			t.Fatal(err)
		}
		if b.Available.Equal(dec(avail)) && b.Frozen.Equal(dec(frozen)) {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s: %s %s available %s frozen %s, want %s and %s", stage, uid, coin, b.Available, b.Frozen, avail, frozen)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// audit checks that the engine's balances are the table's and that the
// postings explain them.
func (e *tradeEnv) audit(t *testing.T, coins ...string) {
	t.Helper()
	if problems, err := e.eng.Verify(e.ctx); err != nil || len(problems) != 0 {
		t.Fatalf("engine and table disagree: %v %v", problems, err)
	}
	rep, err := e.led.Audit(e.ctx, coins...)
	if err != nil || !rep.Clean() {
		t.Fatalf("audit: %v %v", rep.Problems, err)
	}
}

// waitOrder waits until the engine has settled the stored order into the
// state ok accepts.
func (e *tradeEnv) waitOrder(t *testing.T, uid, id, what string, ok func(spot.Order) bool) spot.Order {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		o, err := e.d.Spot().GetOrder(e.ctx, uid, id)
		if err == nil && ok(o) {
			return o
		}
		if time.Now().After(deadline) {
			t.Fatalf("order %s not %s: %+v, %v", id, what, o, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// expectCode runs a sample that must be refused with code.
func expectCode(t *testing.T, h awslambda.HTTPFunc, sample string, fill map[string]string, code string) {
	t.Helper()
	if _, env := fntest.Do(t, h, fntest.SampleEvent(t, sample, fill)); env.Code != code {
		t.Errorf("%s %v: code %s (%s), want %s", sample, fill["orderId"], env.Code, env.Msg, code)
	}
}

// checkDec compares a decimal string with the expected value.
func checkDec(t *testing.T, what, got, want string) {
	t.Helper()
	d, err := decimal.NewFromString(got)
	if err != nil {
		t.Errorf("%s = %q, not a decimal string", what, got)
		return
	}
	if !d.Equal(dec(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func checkOrder(t *testing.T, what string, v httpapi.OrderView, id, side string, status spot.Status, volume, deal string) {
	t.Helper()
	if v.OrderID != id || v.Side != side || v.Status != int(status) || v.StatusText != status.Text() {
		t.Errorf("%s: order %s %s status %d %s, want %s %s %d", what, v.OrderID, v.Side, v.Status, v.StatusText, id, side, status)
	}
	checkDec(t, what+" volume", v.Volume, volume)
	checkDec(t, what+" deal_volume", v.DealVolume, deal)
}
