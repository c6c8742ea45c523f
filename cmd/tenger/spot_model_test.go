package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// The spot model test drives a real `tenger serve` (market maker off) with
// two users who trade every order type against each other, and after each
// step compares everything the API shows with an independent model kept
// here: a plain price-time book with the documented fee arithmetic. It does
// not use internal/spot or internal/matching, so a bug shared by the engine
// and its own unit tests still shows up.

// Pair rules of btcusdt from the markets catalogue (markets_default.json).
var (
	btcLot = decimal.RequireFromString("0.000001")
	// btcQuoteUnit is the price tick × the lot: what a market budget counts in.
	btcQuoteUnit = decimal.RequireFromString("0.01").Mul(btcLot)
	// minNotional is btcusdt's minimum order value in USDT.
	minNotional = decimal.RequireFromString("5")
	btcMinQty   = decimal.RequireFromString("0.00001")
)

// Default fee tier (internal/spot/fees.go, DefaultFeeTiers[0]): both users
// stay far below the next tier's 30-day volume of 50 000 USDT. Fees are
// taken from what the user receives, rounded up to 8 decimals.
var (
	makerRate = decimal.RequireFromString("0.001")
	takerRate = decimal.RequireFromString("0.001")
)

const feeDecimals = 8

// Order statuses as the API numbers them.
const (
	stNew       = 1
	stPartial   = 2
	stFilled    = 3
	stCancelled = 4
	stRejected  = 5
)

// mOrder is the model of one order.
type mOrder struct {
	id, typ, side string
	user          int
	seq           int
	price, volume decimal.Decimal // limit price (0 for market); base quantity (0 for a market buy by quote)
	quoteVolume   decimal.Decimal // market buy budget
	rem, budget   decimal.Decimal // what is left to trade
	byQuote       bool
	byBase        bool // a market buy by volume: its budget is the spendable USDT
	dealVol       decimal.Decimal
	dealMoney     decimal.Decimal
	fee           decimal.Decimal
	open          bool
	status        int
	hold          decimal.Decimal
	holdCoin      string
	trades        []*mTrade
}

// shownStatus is the status the API reports: an open order with a fill is
// partially filled.
func (o *mOrder) shownStatus() int {
	if o.open && o.dealVol.IsPositive() {
		return stPartial
	}
	return o.status
}

// mTrade is the model of one trade.
type mTrade struct {
	id                    int
	price, qty, money     decimal.Decimal
	takerSide             string
	taker, maker          *mOrder
	buyFee, sellFee       decimal.Decimal
	buyer, seller         *mOrder
	buyerRole, sellerRole string
}

type mBal struct{ avail, frozen decimal.Decimal }

// spotModel is the test's own exchange: one book, balances, fees.
type spotModel struct {
	bids, asks []*mOrder // best first; FIFO within a price
	orders     []*mOrder
	trades     []*mTrade
	bal        []map[string]*mBal
	fees       map[string]decimal.Decimal
	seq        int
}

func newSpotModel(users int) *spotModel {
	m := &spotModel{fees: map[string]decimal.Decimal{}}
	for i := 0; i < users; i++ {
		m.bal = append(m.bal, map[string]*mBal{"BTC": {}, "USDT": {}})
	}
	return m
}

func (m *spotModel) deposit(user int, coin string, amt decimal.Decimal) {
	m.bal[user][coin].avail = m.bal[user][coin].avail.Add(amt)
}

func feeOn(amount, rate decimal.Decimal) decimal.Decimal {
	f := amount.Mul(rate).RoundCeil(feeDecimals)
	if f.GreaterThan(amount) {
		return amount
	}
	return f
}

// place enters an order the API accepted and runs it through the book.
func (m *spotModel) place(o *mOrder) {
	m.seq++
	o.seq, o.open, o.status = m.seq, true, stNew
	switch {
	case o.side == "SELL":
		o.hold, o.holdCoin = o.volume, "BTC"
	case o.byQuote:
		o.hold, o.holdCoin = o.quoteVolume, "USDT"
	case o.byBase:
		// Everything spendable (whole quote units), at most the volume at
		// the last trade price × 1.5 (the price band; the scenario has traded).
		avail := m.bal[o.user]["USDT"].avail
		if len(m.trades) > 0 {
			avail = decimal.Min(avail, o.volume.Mul(m.trades[len(m.trades)-1].price).Mul(decimal.RequireFromString("1.5")))
		}
		o.hold, o.holdCoin = avail.Sub(avail.Mod(btcQuoteUnit)), "USDT"
	default:
		o.hold, o.holdCoin = o.price.Mul(o.volume), "USDT"
	}
	b := m.bal[o.user][o.holdCoin]
	b.avail, b.frozen = b.avail.Sub(o.hold), b.frozen.Add(o.hold)
	o.rem, o.budget = o.volume, o.quoteVolume
	if o.byBase {
		o.budget = o.hold
	}
	m.orders = append(m.orders, o)

	opp := &m.asks
	if o.side == "SELL" {
		opp = &m.bids
	}
	limitOK := func(p decimal.Decimal) bool {
		switch {
		case o.typ == "MARKET":
			return true
		case o.side == "BUY":
			return p.LessThanOrEqual(o.price)
		default:
			return p.GreaterThanOrEqual(o.price)
		}
	}
	crosses := len(*opp) > 0 && o.typ != "MARKET" && limitOK((*opp)[0].price)
	if o.typ == "POST_ONLY" && crosses {
		m.finish(o, stRejected)
		return
	}
	// A market order by volume worth less than the minimum at the best
	// opposite price.
	if o.typ == "MARKET" && !o.byQuote && len(*opp) > 0 && (*opp)[0].price.Mul(o.volume).LessThan(minNotional) {
		m.finish(o, stRejected)
		return
	}
	if o.typ == "FOK" {
		avail := decimal.Zero
		for _, mk := range *opp {
			if limitOK(mk.price) {
				avail = avail.Add(mk.rem)
			}
		}
		if avail.LessThan(o.rem) {
			m.finish(o, stCancelled)
			return
		}
	}
	// Match in price-time priority.
	spentDown := false // a market budget that cannot buy one more lot
	for len(*opp) > 0 && limitOK((*opp)[0].price) {
		mk := (*opp)[0]
		q := mk.rem
		if o.byQuote {
			afford, _ := o.budget.QuoRem(mk.price.Mul(btcLot), 0)
			if afford.IsZero() {
				spentDown = true
				break
			}
			q = decimal.Min(q, afford.Mul(btcLot))
		} else {
			q = decimal.Min(q, o.rem)
		}
		if o.byBase {
			afford, _ := o.budget.QuoRem(mk.price.Mul(btcLot), 0)
			if afford.IsZero() {
				break // out of funds: the rest is cancelled
			}
			q = decimal.Min(q, afford.Mul(btcLot))
		}
		m.trade(o, mk, q)
		if mk.rem.IsZero() || mk.rem.LessThan(btcMinQty) {
			*opp = (*opp)[1:]
			if mk.rem.IsZero() {
				m.finish(mk, stFilled)
			} else {
				m.finish(mk, stCancelled) // a remainder below the minimum quantity is dust
			}
		}
		if !o.byQuote && o.rem.IsZero() {
			break
		}
		if o.byQuote && o.budget.IsZero() {
			break
		}
	}
	switch {
	case o.byQuote && (o.budget.IsZero() || (spentDown && o.dealVol.IsPositive())):
		m.finish(o, stFilled)
	case o.byQuote:
		m.finish(o, stCancelled)
	case o.rem.IsZero():
		m.finish(o, stFilled)
	case o.typ == "IOC" || o.typ == "FOK" || o.typ == "MARKET":
		m.finish(o, stCancelled)
	case o.rem.LessThan(btcMinQty):
		m.finish(o, stCancelled)
	default:
		m.rest(o)
	}
}

func (m *spotModel) rest(o *mOrder) {
	side := &m.bids
	better := func(a, b decimal.Decimal) bool { return a.GreaterThan(b) }
	if o.side == "SELL" {
		side = &m.asks
		better = func(a, b decimal.Decimal) bool { return a.LessThan(b) }
	}
	i := sort.Search(len(*side), func(i int) bool { return better(o.price, (*side)[i].price) })
	*side = append(*side, nil)
	copy((*side)[i+1:], (*side)[i:])
	(*side)[i] = o
}

// trade executes q at the maker's price.
func (m *spotModel) trade(taker, maker *mOrder, q decimal.Decimal) {
	t := &mTrade{id: len(m.trades) + 1, price: maker.price, qty: q, money: maker.price.Mul(q), takerSide: taker.side,
		taker: taker, maker: maker}
	t.buyer, t.seller, t.buyerRole, t.sellerRole = taker, maker, "TAKER", "MAKER"
	buyRate, sellRate := takerRate, makerRate
	if taker.side == "SELL" {
		t.buyer, t.seller, t.buyerRole, t.sellerRole = maker, taker, "MAKER", "TAKER"
		buyRate, sellRate = makerRate, takerRate
	}
	t.buyFee, t.sellFee = feeOn(q, buyRate), feeOn(t.money, sellRate)
	bq, bb := m.bal[t.buyer.user]["USDT"], m.bal[t.buyer.user]["BTC"]
	sq, sb := m.bal[t.seller.user]["USDT"], m.bal[t.seller.user]["BTC"]
	bq.frozen = bq.frozen.Sub(t.money)
	bb.avail = bb.avail.Add(q.Sub(t.buyFee))
	sb.frozen = sb.frozen.Sub(q)
	sq.avail = sq.avail.Add(t.money.Sub(t.sellFee))
	m.fees["BTC"] = m.fees["BTC"].Add(t.buyFee)
	m.fees["USDT"] = m.fees["USDT"].Add(t.sellFee)
	for _, o := range []*mOrder{taker, maker} {
		o.dealVol, o.dealMoney = o.dealVol.Add(q), o.dealMoney.Add(t.money)
		o.trades = append(o.trades, t)
		if !o.byQuote {
			o.rem = o.rem.Sub(q)
		}
	}
	if taker.byQuote || taker.byBase {
		taker.budget = taker.budget.Sub(t.money)
	}
	t.buyer.fee = t.buyer.fee.Add(t.buyFee)
	t.seller.fee = t.seller.fee.Add(t.sellFee)
	m.trades = append(m.trades, t)
}

// finish ends an order and releases what its trades did not consume.
func (m *spotModel) finish(o *mOrder, status int) {
	o.open, o.status = false, status
	consumed := o.dealVol
	if o.side == "BUY" {
		consumed = o.dealMoney
	}
	rel := o.hold.Sub(consumed)
	b := m.bal[o.user][o.holdCoin]
	b.avail, b.frozen = b.avail.Add(rel), b.frozen.Sub(rel)
}

func (m *spotModel) unrest(o *mOrder) {
	for _, side := range []*[]*mOrder{&m.bids, &m.asks} {
		for i, x := range *side {
			if x == o {
				*side = append((*side)[:i], (*side)[i+1:]...)
				return
			}
		}
	}
}

func (m *spotModel) cancel(o *mOrder) {
	m.unrest(o)
	m.finish(o, stCancelled)
}

func (m *spotModel) cancelAll(user int) {
	for _, o := range m.orders {
		if o.user == user && o.open {
			m.cancel(o)
		}
	}
}

func (m *spotModel) depth() apiDepth {
	bids, asks := map[string]decimal.Decimal{}, map[string]decimal.Decimal{}
	for _, o := range m.bids {
		bids[o.price.String()] = bids[o.price.String()].Add(o.rem)
	}
	for _, o := range m.asks {
		asks[o.price.String()] = asks[o.price.String()].Add(o.rem)
	}
	return depthLevels(bids, asks)
}

// spotModelRun is one run of the model test: the server, the two traders
// and the model they are compared with.
type spotModelRun struct {
	t      *testing.T
	s      *server
	api    *spotAPI
	tokens []string
	names  []string
	m      *spotModel
	ws     *wsWatch
	step   int
}

func TestSpotModelEveryOrderType(t *testing.T) {
	s := startSpotServer(t)
	api := newSpotAPI(t, s.addr)
	run := &spotModelRun{t: t, s: s, api: api, m: newSpotModel(2), names: []string{"alice", "bob"}}
	stamp := time.Now().UnixNano()
	// Alice mostly sells, bob mostly buys.
	funds := [][2]string{{"2000", "1"}, {"20000", "0.2"}}
	for i, f := range funds {
		run.tokens = append(run.tokens, api.newTrader(fmt.Sprintf("spot-model-%s-%d@example.mn", run.names[i], stamp), f[0], f[1]))
		run.m.deposit(i, "USDT", dec(f[0]))
		run.m.deposit(i, "BTC", dec(f[1]))
	}
	run.ws = watchMarket(t, s.addr)
	run.check("funded, empty book")

	const alice, bob = 0, 1
	// Resting limit orders; two at one price keep their time priority.
	a1 := run.limit(alice, "SELL", "LIMIT", "50100", "0.02")
	a2 := run.limit(alice, "SELL", "LIMIT", "50200", "0.03")
	a3 := run.limit(alice, "SELL", "LIMIT", "50100", "0.01")
	run.check("three resting asks")

	// A crossing buy takes a1 then half of a3 at the makers' 50100; bob's
	// price improvement up to 50150 is released.
	run.limit(bob, "BUY", "LIMIT", "50150", "0.025")
	run.check("limit buy fills a1 and part of a3")
	run.want(a1, stFilled)
	run.want(a3, stPartial)

	// Post-only: refused when it would take, rests otherwise.
	po := run.limit(bob, "BUY", "POST_ONLY", "50100", "0.01")
	run.want(po, stRejected)
	b1 := run.limit(bob, "BUY", "POST_ONLY", "49900", "0.01")
	b2 := run.limit(bob, "BUY", "LIMIT", "49800", "0.02")
	b3 := run.limit(bob, "BUY", "LIMIT", "49900", "0.015")
	run.check("post-only rejected when it would take; resting bids")
	run.want(b1, stNew)

	// FOK: cannot fill (only 0.025 is bid at 49900 or better), then fills.
	fk := run.limit(alice, "SELL", "FOK", "49900", "0.05")
	run.check("FOK that cannot fill")
	run.want(fk, stCancelled)
	fk2 := run.limit(alice, "SELL", "FOK", "49900", "0.02")
	run.check("FOK that fills")
	run.want(fk2, stFilled)
	run.want(b1, stFilled)
	run.want(b3, stPartial)

	// IOC: takes what is left at 49900, not the 49800 bid below its limit.
	ioc := run.limit(alice, "SELL", "IOC", "49850", "0.03")
	run.check("IOC partial fill")
	run.want(ioc, stCancelled)
	run.want(b3, stFilled)

	// Market sell by base volume.
	ms := run.market(alice, "SELL", "0.01", "")
	run.check("market sell by volume")
	run.want(ms, stFilled)
	run.want(b2, stPartial)

	// Market buy by quote volume: the rest of a3 at 50100, then a2 at 50200
	// until less than one lot is affordable (the remainder is released).
	mb := run.market(bob, "BUY", "", "1000")
	run.check("market buy by quote volume")
	run.want(mb, stFilled)
	run.want(a3, stFilled)
	run.want(a2, stPartial)
	// A budget larger than the book: takes every ask, the rest is released.
	mb2 := run.market(bob, "BUY", "", "2000")
	run.check("market buy that empties the asks")
	run.want(mb2, stCancelled)
	run.want(a2, stFilled)
	// A market sell larger than the bids.
	ms2 := run.market(alice, "SELL", "0.05", "")
	run.check("market sell that empties the bids")
	run.want(ms2, stCancelled)
	run.want(b2, stFilled)

	// Refused at entry, nothing held: an order off the tick grid, one
	// beyond the balance.
	run.refused(bob, map[string]any{"symbol": spotSymbol, "side": "BUY", "type": "LIMIT", "price": "50000.001", "volume": "0.01"})
	run.refused(alice, map[string]any{"symbol": spotSymbol, "side": "SELL", "type": "LIMIT", "price": "50000", "volume": "5"})
	run.check("refused orders change nothing")

	// Cancel and cancel_all.
	c1 := run.limit(alice, "SELL", "LIMIT", "50300", "0.01")
	c2 := run.limit(alice, "SELL", "LIMIT", "50400", "0.02")
	c3 := run.limit(bob, "BUY", "LIMIT", "49500", "0.01")
	run.check("new resting orders")
	// 0.0001 BTC fetches at most 4.95 USDT at the 49500 bid: below the 5
	// USDT minimum, so the engine rejects it and the hold comes back.
	tiny := run.market(alice, "SELL", "0.0001", "")
	run.check("market sell below the minimum value")
	run.want(tiny, stRejected)
	run.cancel(alice, c1)
	run.check("cancel one order")
	run.want(c1, stCancelled)
	run.refusedCancel(alice, c1) // already finished
	run.refusedCancel(bob, c2)   // not bob's order
	c4 := run.limit(alice, "SELL", "LIMIT", "50500", "0.005")
	run.check("another resting ask")
	run.cancelAll(alice)
	run.check("cancel_all of alice")
	run.want(c2, stCancelled)
	run.want(c4, stCancelled)
	run.want(c3, stNew)

	// A taker that rests its remainder, then a buy that leaves less than
	// the minimum quantity of it: the dust is cancelled.
	b4 := run.limit(bob, "BUY", "LIMIT", "49600", "0.03")
	a4 := run.limit(alice, "SELL", "LIMIT", "49600", "0.05")
	run.check("taker rests its remainder")
	run.want(b4, stFilled)
	run.want(a4, stPartial)
	b5 := run.limit(bob, "BUY", "LIMIT", "49700", "0.019995")
	run.check("fill leaving dust")
	run.want(b5, stFilled)
	run.want(a4, stCancelled)
	run.cancelAll(bob)
	run.check("cancel_all of bob")
	run.want(c3, stCancelled)

	// End with a book on both sides.
	run.limit(alice, "SELL", "LIMIT", "50000", "0.01")
	run.limit(bob, "BUY", "LIMIT", "49000", "0.01")
	run.check("final book")

	// Market buys by base volume: the volume is bought and what the held
	// budget did not spend comes back; one worth less than the minimum at
	// the best ask (0.00005 × 50000 = 2.5 USDT) is rejected.
	mbb := run.market(bob, "BUY", "0.004", "")
	run.check("market buy by base volume")
	run.want(mbb, stFilled)
	mbbTiny := run.market(bob, "BUY", "0.00005", "")
	run.check("market buy by base volume below the minimum value")
	run.want(mbbTiny, stRejected)

	if len(run.m.trades) < 12 {
		t.Fatalf("only %d trades: the scenario exercised less than intended", len(run.m.trades))
	}
	// A SIGKILL and a restart change nothing the API shows (the WebSocket
	// client went down with the server and is not compared again).
	s.kill()
	api.api.hc.CloseIdleConnections()
	s.start()
	run.ws = nil
	run.check("after kill -9 and restart")
	s.kill()
	t.Logf("%d orders, %d trades; %s", len(run.m.orders), len(run.m.trades), auditClean(t, s))
}

// limit places a LIMIT, POST_ONLY, FOK or IOC order through the API and the model.
func (r *spotModelRun) limit(user int, side, typ, price, volume string) *mOrder {
	r.t.Helper()
	code, msg, id := r.api.place(r.tokens[user], map[string]any{"symbol": spotSymbol, "side": side, "type": typ, "price": price, "volume": volume})
	if code != "0" {
		r.t.Fatalf("%s %s %s %s@%s: code %s %s", r.names[user], typ, side, volume, price, code, msg)
	}
	o := &mOrder{id: id, user: user, side: side, typ: typ, price: dec(price), volume: dec(volume)}
	r.m.place(o)
	return o
}

// market places a MARKET order by base volume or, for a buy, quote volume.
func (r *spotModelRun) market(user int, side, volume, quote string) *mOrder {
	r.t.Helper()
	req := map[string]any{"symbol": spotSymbol, "side": side, "type": "MARKET"}
	if volume != "" {
		req["volume"] = volume
	}
	if quote != "" {
		req["quoteVolume"] = quote
	}
	code, msg, id := r.api.place(r.tokens[user], req)
	if code != "0" {
		r.t.Fatalf("%s MARKET %s %v: code %s %s", r.names[user], side, req, code, msg)
	}
	o := &mOrder{id: id, user: user, side: side, typ: "MARKET", volume: dec(volume), quoteVolume: dec(quote), byQuote: quote != "",
		byBase: side == "BUY" && quote == ""}
	r.m.place(o)
	return o
}

// refused: the API answers a catalogue error and creates nothing.
func (r *spotModelRun) refused(user int, req map[string]any) {
	r.t.Helper()
	code, _, id := r.api.place(r.tokens[user], req)
	if code == "0" || id != "" || !strings.HasPrefix(code, "14") {
		r.t.Fatalf("%v: code %s id %q, want a trade error", req, code, id)
	}
}

func (r *spotModelRun) cancel(user int, o *mOrder) {
	r.t.Helper()
	r.api.ok("/fe-ex-api/order/cancel", r.tokens[user], map[string]any{"symbol": spotSymbol, "order_id": o.id}, nil)
	r.m.cancel(o)
}

func (r *spotModelRun) refusedCancel(user int, o *mOrder) {
	r.t.Helper()
	env := r.api.call("/fe-ex-api/order/cancel", r.tokens[user], map[string]any{"symbol": spotSymbol, "order_id": o.id})
	if env.Code == "0" || !strings.HasPrefix(env.Code, "14") {
		r.t.Fatalf("cancel of %s by %s: code %s, want a trade error", o.id, r.names[user], env.Code)
	}
}

func (r *spotModelRun) cancelAll(user int) {
	r.t.Helper()
	r.api.ok("/fe-ex-api/order/cancel_all", r.tokens[user], map[string]any{"symbol": spotSymbol}, nil)
	r.m.cancelAll(user)
}

// want asserts the model's own view of an order, so the scenario says what
// each step is meant to exercise (the API is compared by check).
func (r *spotModelRun) want(o *mOrder, status int) {
	r.t.Helper()
	if got := o.shownStatus(); got != status {
		r.t.Fatalf("model: order %s (%s %s) has status %d, the scenario expects %d", o.id, o.typ, o.side, got, status)
	}
}

// check waits until everything the API shows equals the model.
func (r *spotModelRun) check(what string) {
	r.t.Helper()
	r.step++
	eventually(r.t, fmt.Sprintf("step %d (%s)", r.step, what), 15*time.Second, r.diffs)
}

func (r *spotModelRun) diffs() []string {
	var d []string
	add := func(format string, args ...any) { d = append(d, fmt.Sprintf(format, args...)) }
	m := r.m
	for u, tok := range r.tokens {
		name := r.names[u]
		// Balances, available and frozen.
		bal := r.api.balances(tok)
		for _, coin := range []string{"BTC", "USDT"} {
			got, want := bal[coin], m.bal[u][coin]
			if got.Normal != shown(want.avail, got.ShowPrecision) || got.Freeze != shown(want.frozen, got.ShowPrecision) {
				add("%s %s: available %s frozen %s, want %s and %s", name, coin, got.Normal, got.Freeze,
					shown(want.avail, got.ShowPrecision), shown(want.frozen, got.ShowPrecision))
			}
		}
		// Open orders, finished orders.
		open := map[string]apiOrder{}
		for _, o := range r.api.openOrders(tok) {
			open[o.OrderID] = o
		}
		done := map[string]apiOrder{}
		for _, o := range r.api.searchOrders(tok, true) {
			done[o.OrderID] = o
		}
		nOpen, nDone := 0, 0
		for _, o := range m.orders {
			if o.user != u {
				continue
			}
			src, list := "list/new", open
			if o.open {
				nOpen++
			} else {
				nDone++
				src, list = "entrust_history", done
			}
			got, ok := list[o.id]
			if !ok {
				add("%s: order %s (%s %s) missing from %s", name, o.id, o.typ, o.side, src)
				continue
			}
			d = append(d, orderDiff(src, got, o)...)
			// Its fills.
			d = append(d, tradesDiff("list_by_order "+o.id, u, r.api.orderTrades(tok, o.id), o.trades)...)
		}
		if len(open) != nOpen || len(done) != nDone {
			add("%s: %d open and %d finished orders listed, want %d and %d", name, len(open), len(done), nOpen, nDone)
		}
		// The user's trades, newest first.
		var mine []*mTrade
		for i := len(m.trades) - 1; i >= 0; i-- {
			if t := m.trades[i]; t.buyer.user == u || t.seller.user == u {
				mine = append(mine, t)
			}
		}
		d = append(d, tradesDiff(name+" trade_info_search", u, r.api.userTrades(tok), mine)...)
	}
	// Fees taken, as the users' trades report them.
	feeSum := map[string]decimal.Decimal{}
	for _, tok := range r.tokens {
		for _, t := range r.api.userTrades(tok) {
			feeSum[t.FeeCoin] = feeSum[t.FeeCoin].Add(dec(t.Fee))
		}
	}
	for _, coin := range []string{"BTC", "USDT"} {
		if !feeSum[coin].Equal(m.fees[coin]) {
			add("fees in %s: trades report %s, want %s", coin, feeSum[coin], m.fees[coin])
		}
	}
	// Market data: depth, 24 h ticker, 1-minute candles, recent trades.
	want := m.depth()
	d = append(d, depthDiff("REST depth", r.api.depth(), want)...)
	d = append(d, r.tickerDiff(r.api.ticker())...)
	d = append(d, r.klineDiff(r.api.klines1m())...)
	pub := r.api.publicTrades(200)
	var rev []apiPublicTrade
	for i := len(pub) - 1; i >= 0; i-- {
		rev = append(rev, pub[i])
	}
	d = append(d, r.publicDiff("REST trades", rev)...)
	// WebSocket pushes: every trade once, in order; the last depth.
	if r.ws != nil {
		wsTrades, wsDepth, err := r.ws.snapshot()
		if err != nil {
			add("websocket: %v", err)
		}
		d = append(d, r.publicDiff("trade_ticker pushes", wsTrades)...)
		d = append(d, depthDiff("depth_step0 push", wsDepth, want)...)
	}
	return d
}

func orderDiff(src string, got apiOrder, o *mOrder) []string {
	var d []string
	avg := decimal.Zero
	if o.dealVol.IsPositive() {
		avg = o.dealMoney.DivRound(o.dealVol, 6)
	}
	feeCoin := "BTC"
	if o.side == "SELL" {
		feeCoin = "USDT"
	}
	fields := []struct {
		name      string
		got, want string
		num       bool
	}{
		{"side", got.Side, o.side, false},
		{"type", got.Type, o.typ, false},
		{"symbol", got.Symbol, spotSymbol, false},
		{"price", got.Price, o.price.String(), true},
		{"volume", got.Volume, o.volume.String(), true},
		{"quote_volume", got.QuoteVolume, o.quoteVolume.String(), true},
		{"deal_volume", got.DealVolume, o.dealVol.String(), true},
		{"deal_money", got.DealMoney, o.dealMoney.String(), true},
		{"avg_price", got.AvgPrice, avg.String(), true},
		{"fee", got.Fee, o.fee.String(), true},
		{"fee_coin", got.FeeCoin, feeCoin, false},
		{"status", strconv.Itoa(got.Status), strconv.Itoa(o.shownStatus()), false},
	}
	for _, f := range fields {
		if (f.num && !dec(f.got).Equal(dec(f.want))) || (!f.num && f.got != f.want) {
			d = append(d, fmt.Sprintf("%s: order %s (%s %s) %s = %q, want %q", src, o.id, o.typ, o.side, f.name, f.got, f.want))
		}
	}
	return d
}

// tradesDiff compares a list of the user's fills with the model's, in order.
func tradesDiff(src string, user int, got []apiTrade, want []*mTrade) []string {
	if len(got) != len(want) {
		return []string{fmt.Sprintf("%s: %d trades, want %d", src, len(got), len(want))}
	}
	var d []string
	for i, t := range want {
		g := got[i]
		// From this user's side: a user's trade with itself never happens
		// in the scenario (the two users always trade with each other).
		o, side, role, fee, feeCoin := t.seller, "SELL", t.sellerRole, t.sellFee, "USDT"
		if t.buyer.user == user {
			o, side, role, fee, feeCoin = t.buyer, "BUY", t.buyerRole, t.buyFee, "BTC"
		}
		wantID := fmt.Sprintf("%s-%d", spotSymbol, t.id)
		if g.TradeID != wantID || g.OrderID != o.id || g.Side != side || g.Role != role || g.FeeCoin != feeCoin ||
			g.Symbol != spotSymbol || !dec(g.Price).Equal(t.price) || !dec(g.Volume).Equal(t.qty) ||
			!dec(g.DealMoney).Equal(t.money) || !dec(g.Fee).Equal(fee) {
			d = append(d, fmt.Sprintf("%s #%d: %+v, want %s order %s %s %s %s@%s money %s fee %s %s", src, i, g,
				wantID, o.id, side, role, t.qty, t.price, t.money, fee, feeCoin))
		}
	}
	return d
}

// publicDiff compares public trades (oldest first) with the model's trades.
func (r *spotModelRun) publicDiff(src string, got []apiPublicTrade) []string {
	want := r.m.trades
	if len(got) != len(want) {
		return []string{fmt.Sprintf("%s: %d trades, want %d", src, len(got), len(want))}
	}
	var d []string
	for i, t := range want {
		g := got[i]
		if g.ID != strconv.Itoa(t.id) || g.Side != t.takerSide || !dec(g.Price).Equal(t.price) || !dec(g.Vol).Equal(t.qty) ||
			!dec(g.Amount).Equal(t.money) {
			d = append(d, fmt.Sprintf("%s #%d: %+v, want id %d %s %s@%s", src, i, g, t.id, t.takerSide, t.qty, t.price))
		}
	}
	return d
}

func (r *spotModelRun) tickerDiff(tk apiTicker) []string {
	ts := r.m.trades
	open, high, low, last := decimal.Zero, decimal.Zero, decimal.Zero, decimal.Zero
	vol, amount := decimal.Zero, decimal.Zero
	rose := decimal.Zero
	if len(ts) > 0 {
		open, high, low, last = ts[0].price, ts[0].price, ts[0].price, ts[len(ts)-1].price
		for _, t := range ts {
			high, low = decimal.Max(high, t.price), decimal.Min(low, t.price)
			vol, amount = vol.Add(t.qty), amount.Add(t.money)
		}
		rose = last.Sub(open).DivRound(open, 6)
	}
	if !dec(tk.Open).Equal(open) || !dec(tk.High).Equal(high) || !dec(tk.Low).Equal(low) || !dec(tk.Close).Equal(last) ||
		!dec(tk.Vol).Equal(vol) || !dec(tk.Amount).Equal(amount) || !dec(tk.Rose).Equal(rose) || tk.Count != int64(len(ts)) {
		return []string{fmt.Sprintf("ticker %+v, want open %s high %s low %s close %s vol %s amount %s rose %s count %d",
			tk, open, high, low, last, vol, amount, rose, len(ts))}
	}
	return nil
}

// klineDiff: the 1-minute candles, oldest first, partition the trades in
// execution order (a run may cross a minute boundary, so the test does not
// guess which minute a trade fell in; it checks that each candle is exactly
// the next run of trades).
func (r *spotModelRun) klineDiff(ks []apiKline) []string {
	var d []string
	i := 0
	for n, k := range ks {
		if k.ID%60 != 0 || (n > 0 && k.ID <= ks[n-1].ID) {
			d = append(d, fmt.Sprintf("kline %d: bucket %d not a new minute", n, k.ID))
		}
		if k.Count <= 0 || i+int(k.Count) > len(r.m.trades) {
			return append(d, fmt.Sprintf("klines %+v count more trades than the %d made", ks, len(r.m.trades)))
		}
		run := r.m.trades[i : i+int(k.Count)]
		i += int(k.Count)
		high, low, vol, amount := run[0].price, run[0].price, decimal.Zero, decimal.Zero
		for _, t := range run {
			high, low = decimal.Max(high, t.price), decimal.Min(low, t.price)
			vol, amount = vol.Add(t.qty), amount.Add(t.money)
		}
		if !dec(k.Open).Equal(run[0].price) || !dec(k.Close).Equal(run[len(run)-1].price) || !dec(k.High).Equal(high) ||
			!dec(k.Low).Equal(low) || !dec(k.Vol).Equal(vol) || !dec(k.Amount).Equal(amount) {
			d = append(d, fmt.Sprintf("kline %d %+v, want open %s high %s low %s close %s vol %s amount %s", n, k,
				run[0].price, high, low, run[len(run)-1].price, vol, amount))
		}
	}
	if i != len(r.m.trades) {
		d = append(d, fmt.Sprintf("1min klines hold %d trades, want %d", i, len(r.m.trades)))
	}
	return d
}
