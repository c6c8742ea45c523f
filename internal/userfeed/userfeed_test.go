package userfeed

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/coins"
	"tenger/internal/engine/journal"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/push"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

type envelope struct {
	Channel string          `json:"channel"`
	TS      int64           `json:"ts"`
	Data    json.RawMessage `json:"data"`
}

func decode(t *testing.T, m Message) (envelope, map[string]any) {
	t.Helper()
	var e envelope
	if err := json.Unmarshal(m.Body, &e); err != nil {
		t.Fatalf("body %s: %v", m.Body, err)
	}
	var d map[string]any
	if err := json.Unmarshal(e.Data, &d); err != nil {
		t.Fatalf("data %s: %v", e.Data, err)
	}
	return e, d
}

func orderItem(uid string, extra store.Item) store.Item {
	it := store.Item{
		store.AttrPK: "SORD#42", store.AttrSK: "O", "id": "42", "uid": uid, "symbol": "btcusdt", "side": "BUY",
		"type": "LIMIT", "price": decimal.RequireFromString("65000.5"), "volume": decimal.RequireFromString("0.01"),
		"quoteVolume": decimal.Zero, "stopPrice": decimal.Zero, "dealVolume": decimal.Zero, "dealMoney": decimal.Zero,
		"fee": decimal.Zero, "feeCoin": "BTC", "status": int64(1), "createdAt": int64(1700000000000), "updatedAt": int64(1700000000000),
		"hold": decimal.RequireFromString("650.005"), "holdCoin": "USDT",
	}
	for k, v := range extra {
		it[k] = v
	}
	return it
}

func modify(old, new store.Item) store.Change {
	return store.Change{Kind: store.ChangeModify, Key: new.Key(), Old: old, New: new, At: 1700000000500}
}

// TestOrderLifecycle: each change of a stored order becomes one message to
// its owner on user_orders, named for what happened, with the status the
// REST API would show.
func TestOrderLifecycle(t *testing.T) {
	tr := New(markets.Defaults())
	placed := orderItem("10000001", nil)
	m, ok := tr.Translate(store.Change{Kind: store.ChangeInsert, Key: placed.Key(), New: placed, At: 1700000000001})
	if !ok || m.User != "10000001" || m.Channel != ChannelOrders {
		t.Fatalf("insert: %+v %v", m, ok)
	}
	env, d := decode(t, m)
	if env.Channel != "user_orders" || env.TS != 1700000000001 || d["event"] != "placed" || d["order_id"] != "42" ||
		d["symbol"] != "btcusdt" || d["side"] != "BUY" || d["type"] != "LIMIT" || d["price"] != "65000.5" ||
		d["volume"] != "0.01" || d["deal_volume"] != "0" || d["avg_price"] != "0" || d["status"] != float64(1) || d["status_text"] != "NEW" {
		t.Fatalf("placed message %s", m.Body)
	}
	for _, internal := range []string{"hold", "holdCoin", "uid", "makerRate"} {
		if _, leaked := d[internal]; leaked {
			t.Errorf("message carries the internal attribute %s", internal)
		}
	}

	accepted := orderItem("10000001", store.Item{"seq": int64(9)})
	m, _ = tr.Translate(modify(placed, accepted))
	if _, d := decode(t, m); d["event"] != "accepted" || d["status_text"] != "NEW" {
		t.Fatalf("accepted message %s", m.Body)
	}

	// A partial fill: settlement leaves status 1, the message says 2.
	filled := orderItem("10000001", store.Item{"seq": int64(9), "dealVolume": decimal.RequireFromString("0.004"),
		"dealMoney": decimal.RequireFromString("260.002"), "fee": decimal.RequireFromString("0.000004")})
	m, _ = tr.Translate(modify(accepted, filled))
	if _, d := decode(t, m); d["event"] != "trade" || d["status"] != float64(2) || d["status_text"] != "PARTIALLY_FILLED" ||
		d["deal_volume"] != "0.004" || d["avg_price"] != "65000.5" || d["fee"] != "0.000004" {
		t.Fatalf("trade message %s", m.Body)
	}

	// An amend's pending volume stored, then withdrawn, shows nothing new:
	// no message. A stop's trigger shows (triggered) and is told.
	pending := filled.Clone()
	pending["amendTo"] = decimal.RequireFromString("0.006")
	for _, ch := range []store.Change{modify(filled, pending), modify(pending, filled)} {
		if m, ok := tr.Translate(ch); ok {
			t.Fatalf("a change the order's view does not show was told: %s", m.Body)
		}
	}
	stop := orderItem("10000001", store.Item{"type": "STOP_LIMIT", "stopPrice": decimal.RequireFromString("65000"), "seq": int64(9)})
	stopPending := stop.Clone()
	stopPending["amendTo"] = decimal.RequireFromString("0.006")
	if m, ok := tr.Translate(modify(stop, stopPending)); ok {
		t.Fatalf("a stop's pending amend was told: %s", m.Body)
	}
	triggered := stop.Clone()
	triggered["triggeredAt"] = int64(1700000000600)
	m, ok = tr.Translate(modify(stop, triggered))
	if _, d := decode(t, m); !ok || d["event"] != "update" || d["triggered"] != true {
		t.Fatalf("trigger message %s %v", m.Body, ok)
	}

	amended := filled.Clone()
	amended["volume"] = decimal.RequireFromString("0.006")
	amended["amendSeq"] = int64(11)
	m, _ = tr.Translate(modify(filled, amended))
	if _, d := decode(t, m); d["event"] != "amended" || d["volume"] != "0.006" || d["status_text"] != "PARTIALLY_FILLED" {
		t.Fatalf("amended message %s", m.Body)
	}

	cancelled := orderItem("10000001", store.Item{"seq": int64(10), "dealVolume": decimal.RequireFromString("0.004"),
		"dealMoney": decimal.RequireFromString("260.002"), "status": int64(4), "doneAt": int64(1700000000900)})
	m, _ = tr.Translate(modify(filled, cancelled))
	if _, d := decode(t, m); d["event"] != "done" || d["status"] != float64(4) || d["status_text"] != "CANCELLED" {
		t.Fatalf("done message %s", m.Body)
	}
	rejected := orderItem("10000001", store.Item{"status": int64(5), "doneAt": int64(1)})
	m, _ = tr.Translate(modify(placed, rejected))
	if _, d := decode(t, m); d["event"] != "done" || d["status_text"] != "REJECTED" {
		t.Fatalf("rejected message %s", m.Body)
	}

	// Another user's order goes to that user only.
	other := orderItem("10000002", nil)
	if m, _ := tr.Translate(store.Change{Kind: store.ChangeInsert, Key: other.Key(), New: other}); m.User != "10000002" {
		t.Fatalf("order of 10000002 addressed to %q", m.User)
	}
	// Removals, trade rows, the client id map and other items push nothing.
	for _, ch := range []store.Change{
		{Kind: store.ChangeRemove, Key: placed.Key(), Old: placed},
		{Kind: store.ChangeInsert, Key: store.Key{PK: "STRD#42", SK: "00000000000000000001"}, New: store.Item{store.AttrPK: "STRD#42", store.AttrSK: "00000000000000000001", "uid": "10000001"}},
		{Kind: store.ChangeInsert, Key: store.Key{PK: "SCID#10000001", SK: "c1"}, New: store.Item{store.AttrPK: "SCID#10000001", store.AttrSK: "c1", "orderId": "42"}},
		{Kind: store.ChangeInsert, Key: store.Key{PK: "SESSION#x", SK: "S"}, New: store.Item{store.AttrPK: "SESSION#x", store.AttrSK: "S", "uid": "10000001"}},
		{Kind: store.ChangeInsert, Key: store.Key{PK: "SORD#43", SK: "O"}, New: store.Item{store.AttrPK: "SORD#43", store.AttrSK: "O"}},
	} {
		if m, ok := tr.Translate(ch); ok {
			t.Errorf("change %v pushed %s to %s", ch.Key, m.Body, m.User)
		}
	}
}

// TestDoneComesLastWithTheFinalFigures: settlement writes an order's end
// concurrently with its last trades. An end that lands first (dealVolume
// below endDeal) is held back, as are trades that still leave fills
// pending; the trade that completes the fills is told as "done", with the
// final figures.
func TestDoneComesLastWithTheFinalFigures(t *testing.T) {
	tr := New(markets.Defaults())
	dec := decimal.RequireFromString
	part := orderItem("10000001", store.Item{"seq": int64(9), "dealVolume": dec("0.004"), "dealMoney": dec("260.002")})
	early := orderItem("10000001", store.Item{"seq": int64(10), "dealVolume": dec("0.004"), "dealMoney": dec("260.002"),
		"status": int64(3), "doneAt": int64(1700000000900), "endDeal": dec("0.01")})
	if m, ok := tr.Translate(modify(part, early)); ok {
		t.Fatalf("an end before its last trades was told: %s", m.Body)
	}
	second := early.Clone()
	second["dealVolume"], second["dealMoney"] = dec("0.007"), dec("455.0035")
	if m, ok := tr.Translate(modify(early, second)); ok {
		t.Fatalf("a trade that leaves fills pending was told: %s", m.Body)
	}
	last := second.Clone()
	last["dealVolume"], last["dealMoney"] = dec("0.01"), dec("650.005")
	m, ok := tr.Translate(modify(second, last))
	if !ok {
		t.Fatal("the completing trade was not told")
	}
	if _, d := decode(t, m); d["event"] != "done" || d["status_text"] != "FILLED" || d["deal_volume"] != "0.01" || d["avg_price"] != "65000.5" {
		t.Fatalf("done message %s", m.Body)
	}
	// The usual order: trades first, then the end, which is told at once.
	ended := last.Clone()
	before := last.Clone()
	delete(before, "doneAt")
	before["status"] = int64(1)
	if _, d := decode(t, mustTranslate(t, tr, modify(before, ended))); d["event"] != "done" || d["deal_volume"] != "0.01" {
		t.Fatalf("done after its trades: %v", d)
	}
}

func mustTranslate(t *testing.T, tr *Translator, ch store.Change) Message {
	t.Helper()
	m, ok := tr.Translate(ch)
	if !ok {
		t.Fatalf("change %v not told", ch.Key)
	}
	return m
}

func balance(owner, sk, avail, frozen string) store.Item {
	return store.Item{store.AttrPK: "BAL#" + owner, store.AttrSK: sk, "avail": decimal.RequireFromString(avail),
		"frozen": decimal.RequireFromString(frozen), "owner": owner}
}

// TestBalances: a user's balance change becomes one user_balances message
// to that user; the exchange's own and external accounts, and writes that
// leave both amounts unchanged, push nothing.
func TestBalances(t *testing.T) {
	tr := New(markets.Defaults())
	old, now := balance("10000001", "spot##USDT", "1000.25", "0"), balance("10000001", "spot##USDT", "991.5", "8.75")
	m, ok := tr.Translate(store.Change{Kind: store.ChangeModify, Key: now.Key(), Old: old, New: now, At: 1700000000002})
	if !ok || m.User != "10000001" || m.Channel != ChannelBalances {
		t.Fatalf("balance: %+v %v", m, ok)
	}
	env, d := decode(t, m)
	if env.Channel != "user_balances" || env.TS != 1700000000002 || d["account"] != "spot" || d["coin"] != "USDT" ||
		d["normal"] != "991.5" || d["lock"] != "8.75" || d["total"] != "1000.25" {
		t.Fatalf("balance message %s", m.Body)
	}
	if _, hasSub := d["sub"]; hasSub {
		t.Errorf("spot balance carries a sub: %s", m.Body)
	}
	iso := balance("10000001", "margin_isolated#BTCUSDT#BTC", "0.5", "0")
	m, ok = tr.Translate(store.Change{Kind: store.ChangeInsert, Key: iso.Key(), New: iso})
	if _, d := decode(t, m); !ok || d["account"] != "margin_isolated" || d["sub"] != "BTCUSDT" || d["coin"] != "BTC" {
		t.Fatalf("isolated balance message %s", m.Body)
	}
	for _, ch := range []store.Change{
		{Kind: store.ChangeModify, Key: store.Key{PK: "BAL#SYS", SK: "fees##USDT"}, Old: balance("SYS", "fees##USDT", "1", "0"), New: balance("SYS", "fees##USDT", "2", "0")},
		{Kind: store.ChangeModify, Key: store.Key{PK: "BAL#SYS", SK: "chain#TRC20#USDT"}, New: balance("SYS", "chain#TRC20#USDT", "-5", "0")},
		{Kind: store.ChangeModify, Key: now.Key(), Old: now, New: func() store.Item { it := now.Clone(); it["kind"] = "spot"; return it }()},
		{Kind: store.ChangeRemove, Key: now.Key(), Old: now},
		{Kind: store.ChangeInsert, Key: store.Key{PK: "BAL#10000001", SK: "garbage"}, New: balance("10000001", "garbage", "1", "0")},
	} {
		if m, ok := tr.Translate(ch); ok {
			t.Errorf("change %v pushed %s to %s", ch.Key, m.Body, m.User)
		}
	}
}

// TestUser: User names the user Translate sends a change's message to,
// without building it, and no user for the changes that concern nobody's
// orders or balances (a caller skips those before looking anything up).
func TestUser(t *testing.T) {
	tr := New(markets.Defaults())
	placed := orderItem("10000001", nil)
	bal, held := balance("10000002", "spot##USDT", "1000", "0"), balance("10000002", "spot##USDT", "760", "240")
	for _, ch := range []store.Change{
		{Kind: store.ChangeInsert, Key: placed.Key(), New: placed, At: 1700000000000},
		modify(placed, orderItem("10000001", store.Item{"seq": int64(9)})),
		modify(bal, held),
	} {
		m := mustTranslate(t, tr, ch)
		if u, ok := tr.User(ch); !ok || u != m.User {
			t.Errorf("User(%v) = %q %v, the message goes to %q", ch.Key, u, ok, m.User)
		}
	}
	// A user's change without a message still names the user.
	if u, ok := tr.User(modify(held, held)); !ok || u != "10000002" {
		t.Errorf("User of an unchanged balance = %q %v", u, ok)
	}
	for _, ch := range []store.Change{
		{Kind: store.ChangeModify, Key: store.Key{PK: "BAL#SYS", SK: "fees##USDT"}, Old: balance("SYS", "fees##USDT", "1", "0"), New: balance("SYS", "fees##USDT", "2", "0")},
		{Kind: store.ChangeRemove, Key: held.Key(), Old: held},
		{Kind: store.ChangeInsert, Key: placed.Key(), New: orderItem("", nil)},
		{Kind: store.ChangeInsert, Key: store.Key{PK: "POST#order:42", SK: "POST"}, New: store.Item{store.AttrPK: "POST#order:42", store.AttrSK: "POST", "reason": "order_hold"}},
		{Kind: store.ChangeInsert, Key: store.Key{PK: "WSCONN#c1", SK: "META"}, New: store.Item{store.AttrPK: "WSCONN#c1", store.AttrSK: "META", "userId": "10000001"}},
	} {
		if u, ok := tr.User(ch); ok {
			t.Errorf("User(%v) = %q, want none", ch.Key, u)
		}
	}
}

// recorder is a pusher that records PublishUser calls.
type recorder struct {
	push.Pusher
	mu   sync.Mutex
	msgs map[string][]envelope
	any  chan struct{}
}

func newRecorder() *recorder {
	return &recorder{msgs: map[string][]envelope{}, any: make(chan struct{}, 1)}
}

func (r *recorder) PublishUser(_ context.Context, user string, msg []byte) (int, error) {
	var e envelope
	if err := json.Unmarshal(msg, &e); err != nil {
		return 0, err
	}
	r.mu.Lock()
	r.msgs[user] = append(r.msgs[user], e)
	r.mu.Unlock()
	select {
	case r.any <- struct{}{}:
	default:
	}
	return 1, nil
}

func (r *recorder) of(user string) []envelope {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]envelope(nil), r.msgs[user]...)
}

// waitFor waits until the user's messages satisfy ok (or fails after a
// generous deadline).
func (r *recorder) waitFor(t *testing.T, user, what string, ok func([]envelope) bool) []envelope {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		if got := r.of(user); ok(got) {
			return got
		}
		select {
		case <-r.any:
		case <-deadline:
			t.Fatalf("%s never arrived; %s got %d messages", what, user, len(r.of(user)))
		}
	}
}

// exchange is the spot service on the engine that owns the balances
// (spot.Runtime), with the store projection behind it, on an embedded
// store.
type exchange struct {
	st    store.Store
	led   *ledger.Ledger
	svc   *spot.Service
	funds spotfunds.Funds
}

func newExchange(t *testing.T) *exchange {
	t.Helper()
	dir := t.TempDir()
	st, err := embedded.Open(dir+"/store", embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	rt, err := spot.StartRuntime(context.Background(), spot.RuntimeOptions{Dir: dir + "/engine", Policy: journal.NoFsync, Store: st,
		Coins: cc, Markets: markets.Defaults(), Counter: spotfunds.Counter, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Close() })
	return &exchange{st: st, led: ledger.New(st, nil), funds: spotfunds.Engine{Submit: rt, Decimals: rt.Decimals},
		svc: spot.New(spot.Options{Store: st, Markets: markets.Defaults(), Engine: rt, Log: zerolog.Nop()})}
}

func (x *exchange) deposit(t *testing.T, uid, coin, amount string) {
	t.Helper()
	if err := x.funds.Credit(context.Background(), spotfunds.Move{Ref: "dep:" + uid + ":" + coin, UID: uid, Coin: coin,
		Amount: decimal.RequireFromString(amount), Other: ledger.ChainAccount("TEST"), Reason: "deposit"}); err != nil {
		t.Fatal(err)
	}
}

func orderData(t *testing.T, e envelope) OrderUpdate {
	t.Helper()
	var o OrderUpdate
	if err := json.Unmarshal(e.Data, &o); err != nil {
		t.Fatal(err)
	}
	return o
}

func balanceData(t *testing.T, e envelope) BalanceUpdate {
	t.Helper()
	var b BalanceUpdate
	if err := json.Unmarshal(e.Data, &b); err != nil {
		t.Fatal(err)
	}
	return b
}

func lastOf(t *testing.T, msgs []envelope, channel string) (envelope, bool) {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Channel == channel {
			return msgs[i], true
		}
	}
	return envelope{}, false
}

// TestConsumerFollowsTrading runs the real spot service and engine (with
// its store projection) on the embedded store with the Consumer on its
// change feed: a deposit, a trade
// between two users and a cancel each reach the users concerned as order
// and balance messages, each user only their own, and the final order
// messages show what the REST API shows.
func TestConsumerFollowsTrading(t *testing.T) {
	x := newExchange(t)
	rec := newRecorder()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	// Follow from the head as it is now, so the deposits below, made right
	// after the consumer starts, cannot land before it reads the head.
	head, err := x.st.Changes().(headFeed).Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := &Consumer{Feed: x.st.Changes(), Pusher: rec, Translator: New(markets.Defaults()), Poll: 5 * time.Millisecond, From: &head}
	go func() { done <- c.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()

	const buyer, seller, bystander = "10000001", "10000002", "10000003"
	x.deposit(t, buyer, "USDT", "1000")
	x.deposit(t, seller, "BTC", "1")
	x.deposit(t, bystander, "USDT", "5")
	rec.waitFor(t, buyer, "the buyer's deposit", func(ms []envelope) bool {
		e, ok := lastOf(t, ms, ChannelBalances)
		return ok && balanceData(t, e) == BalanceUpdate{Account: "spot", Coin: "USDT", Normal: "1000", Lock: "0", Total: "1000"}
	})

	// The seller rests 0.01 BTC at 60000; the buyer takes 0.004 of it, then
	// the seller cancels the rest.
	sellID, err := x.svc.PlaceOrder(ctx, seller, spot.PlaceRequest{Symbol: "btcusdt", Side: "SELL", Type: "LIMIT", Price: "60000", Volume: "0.01"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, seller, "the sell order's acceptance", func(ms []envelope) bool {
		for _, m := range ms {
			if m.Channel == ChannelOrders && orderData(t, m).OrderID == sellID && orderData(t, m).Event == EventAccepted {
				return true
			}
		}
		return false
	})
	buyID, err := x.svc.PlaceOrder(ctx, buyer, spot.PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: "LIMIT", Price: "60000", Volume: "0.004"})
	if err != nil {
		t.Fatal(err)
	}
	// The buy fills and ends in the engine batch that places it: the store
	// shows it first as it is after that batch, told as its events.
	buys := rec.waitFor(t, buyer, "the buy order's fill", func(ms []envelope) bool {
		for _, m := range ms {
			if m.Channel == ChannelOrders && orderData(t, m).OrderID == buyID && orderData(t, m).Event == EventDone {
				return true
			}
		}
		return false
	})
	if err := x.svc.CancelOrder(ctx, seller, "btcusdt", sellID); err != nil {
		t.Fatal(err)
	}
	sells := rec.waitFor(t, seller, "the cancel", func(ms []envelope) bool {
		e, ok := lastOf(t, ms, ChannelOrders)
		return ok && orderData(t, e).OrderID == sellID && orderData(t, e).Event == EventDone
	})
	// The seller's BTC hold is released with the cancel.
	sells = rec.waitFor(t, seller, "the released BTC", func(ms []envelope) bool {
		for i := len(ms) - 1; i >= 0; i-- {
			if ms[i].Channel == ChannelBalances && balanceData(t, ms[i]).Coin == "BTC" {
				return balanceData(t, ms[i]).Lock == "0"
			}
		}
		return false
	})

	// Every event of each order arrived, in order, and the last state is
	// what the REST API reports.
	events := func(ms []envelope, id string) (out []string, last OrderUpdate) {
		for _, m := range ms {
			if m.Channel == ChannelOrders && orderData(t, m).OrderID == id {
				last = orderData(t, m)
				out = append(out, last.Event)
			}
		}
		return out, last
	}
	buyEvents, buyLast := events(buys, buyID)
	// The taker's acceptance, fill and end are in one engine batch, which
	// the store shows at once: the fill is told with the end.
	if fmt.Sprint(buyEvents) != "[placed accepted done]" {
		t.Errorf("buy order events %v", buyEvents)
	}
	sellEvents, sellLast := events(sells, sellID)
	if fmt.Sprint(sellEvents) != "[placed accepted trade done]" {
		t.Errorf("sell order events %v", sellEvents)
	}
	for _, got := range []OrderUpdate{buyLast, sellLast} {
		uid := buyer
		if got.OrderID == sellID {
			uid = seller
		}
		o, err := x.svc.GetOrder(ctx, uid, got.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		want := New(markets.Defaults()).orderUpdate(got.Event, o)
		if got != want {
			t.Errorf("pushed order %+v\nREST order  %+v", got, want)
		}
	}
	if buyLast.StatusText != "FILLED" || buyLast.DealVolume != "0.004" || buyLast.AvgPrice != "60000" {
		t.Errorf("buy order ended as %+v", buyLast)
	}
	if sellLast.StatusText != "CANCELLED" || sellLast.DealVolume != "0.004" {
		t.Errorf("sell order ended as %+v", sellLast)
	}
	// The buyer's USDT was held, then spent: the last USDT message matches
	// the ledger.
	for _, u := range []struct{ uid, coin string }{{buyer, "USDT"}, {buyer, "BTC"}, {seller, "USDT"}, {seller, "BTC"}} {
		b, err := x.led.Balance(ctx, ledger.UserAccount(u.uid, ledger.Spot), u.coin)
		if err != nil {
			t.Fatal(err)
		}
		ms := rec.of(u.uid)
		var last *BalanceUpdate
		for i := range ms {
			if ms[i].Channel == ChannelBalances && balanceData(t, ms[i]).Coin == u.coin {
				v := balanceData(t, ms[i])
				last = &v
			}
		}
		if last == nil || last.Normal != b.Available.String() || last.Lock != b.Frozen.String() {
			t.Errorf("%s %s: last pushed balance %+v, ledger %s/%s", u.uid, u.coin, last, b.Available, b.Frozen)
		}
	}
	// Nobody got anything of anyone else: the bystander saw only the
	// deposit, and no message names another user's order.
	if got := rec.of(bystander); len(got) != 1 || got[0].Channel != ChannelBalances {
		t.Errorf("bystander got %d messages: %+v", len(got), got)
	}
	for _, m := range rec.of(buyer) {
		if m.Channel == ChannelOrders && orderData(t, m).OrderID != buyID {
			t.Errorf("buyer got the order %s", orderData(t, m).OrderID)
		}
	}
	for _, m := range rec.of(seller) {
		if m.Channel == ChannelOrders && orderData(t, m).OrderID != sellID {
			t.Errorf("seller got the order %s", orderData(t, m).OrderID)
		}
	}
	if got := rec.of(ledger.SystemOwner); len(got) != 0 {
		t.Errorf("the exchange's own accounts pushed %d messages", len(got))
	}
}

// plainFeed hides the embedded feed's Head, as a feed without one.
type plainFeed struct{ store.Feed }

func depositor(t *testing.T, st store.Store, uid string) func(id, amount string) {
	led := ledger.New(st, nil)
	return func(id, amount string) {
		t.Helper()
		if _, err := led.Post(context.Background(), ledger.Posting{ID: id, Reason: "deposit",
			Legs: []ledger.Leg{ledger.Move(ledger.ChainAccount("TEST"), ledger.UserAccount(uid, ledger.Spot), "USDT", decimal.RequireFromString(amount))}}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestConsumerSkipsHistory: what was committed before the consumer started
// is read past without messages (at the feed's head, or by commit time for
// a feed without one); later changes are delivered.
func TestConsumerSkipsHistory(t *testing.T) {
	for _, headless := range []bool{false, true} {
		t.Run(fmt.Sprintf("headless=%v", headless), func(t *testing.T) {
			st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			post := depositor(t, st, "10000009")
			post("old", "1")
			time.Sleep(5 * time.Millisecond) // commit times are milliseconds: keep the two apart
			// Watching is first asked after Run has read the head: the new
			// deposit must come after that, or it would be history too.
			started := make(chan struct{})
			var once sync.Once
			c := &Consumer{Feed: st.Changes(), Pusher: nil, Translator: New(nil), Poll: 5 * time.Millisecond,
				Watching: func() bool { once.Do(func() { close(started) }); return true }}
			if headless {
				c.Feed, c.Since = plainFeed{st.Changes()}, time.Now()
			}
			rec := newRecorder()
			c.Pusher = rec
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- c.Run(ctx) }()
			if !headless {
				<-started
			}
			post("new", "2")
			got := rec.waitFor(t, "10000009", "the new deposit", func(ms []envelope) bool { return len(ms) > 0 })
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || balanceData(t, got[0]).Normal != "3" {
				t.Fatalf("messages %+v, want only the deposit after the start (normal 3)", got)
			}
		})
	}
}

// TestConsumerIdlesWhileNobodyWatches: while Watching says no connection is
// bound, changes are passed over unread; once someone is, the changes that
// follow are delivered.
func TestConsumerIdlesWhileNobodyWatches(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	post := depositor(t, st, "10000010")
	var watching atomic.Bool
	asked := make(chan struct{}, 100)
	rec := newRecorder()
	c := &Consumer{Feed: st.Changes(), Pusher: rec, Translator: New(nil), Poll: time.Millisecond,
		Watching: func() bool {
			select {
			case asked <- struct{}{}:
			default:
			}
			return watching.Load()
		}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	post("unwatched", "1")
	// Two questions after the commit: the second round read the head after
	// it, so the unwatched deposit is behind the checkpoint.
	for len(asked) > 0 {
		<-asked
	}
	<-asked
	<-asked
	watching.Store(true)
	post("watched", "2")
	got := rec.waitFor(t, "10000010", "the watched deposit", func(ms []envelope) bool { return len(ms) > 0 })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || balanceData(t, got[0]).Normal != "3" {
		t.Fatalf("messages %+v, want only the watched deposit (normal 3)", got)
	}
}

// An order the engine's projection writes for the first time already
// sequenced is told as placed and accepted, and also done when it ended in
// the batch that placed it; one the old entry transaction stored (no seq
// yet) is told as placed only.
func TestTranslateAllTellsAProjectedOrdersEvents(t *testing.T) {
	tr := New(markets.Defaults())
	events := func(it store.Item) []string {
		t.Helper()
		var out []string
		for _, m := range tr.TranslateAll(store.Change{Kind: store.ChangeInsert, Key: it.Key(), New: it, At: 1700000000001}) {
			_, d := decode(t, m)
			out = append(out, d["event"].(string))
		}
		return out
	}
	if got := fmt.Sprint(events(orderItem("10000001", nil))); got != "[placed]" {
		t.Fatalf("an entry transaction's order: %s", got)
	}
	if got := fmt.Sprint(events(orderItem("10000001", store.Item{"seq": int64(7)}))); got != "[placed accepted]" {
		t.Fatalf("a projected resting order: %s", got)
	}
	filled := orderItem("10000001", store.Item{"seq": int64(7), "status": int64(2), "doneAt": int64(1700000000001),
		"dealVolume": decimal.RequireFromString("0.01"), "dealMoney": decimal.RequireFromString("650.005")})
	if got := fmt.Sprint(events(filled)); got != "[placed accepted done]" {
		t.Fatalf("a projected order filled at once: %s", got)
	}
}

// Futures positions, orders and trigger orders are told on user_futures,
// to their owner only; the insurance fund's positions to nobody.
func TestFuturesChanges(t *testing.T) {
	tr := New(markets.Defaults())
	for _, c := range []struct {
		ch    store.Change
		user  string
		event string
	}{
		{store.Change{Key: store.Key{PK: "FPOS#10000001", SK: "BTCUSDT"}, New: store.Item{"symbol": "BTCUSDT", "qty": int64(5)}},
			"10000001", "position"},
		{store.Change{Key: store.Key{PK: "FORD#99", SK: "O"}, New: store.Item{"uid": "10000002", "symbol": "ETHUSDT", "id": "99", "status": "FILLED"}},
			"10000002", "order"},
		{store.Change{Key: store.Key{PK: "FTRIG#98", SK: "T"}, New: store.Item{"uid": "10000003", "symbol": "BTCUSDT", "id": "98",
			"status": "NOT_TRIGGERED"}}, "10000003", "trigger"},
		{store.Change{Key: store.Key{PK: "FPOS#SYS", SK: "BTCUSDT"}, New: store.Item{"symbol": "BTCUSDT"}}, "", ""},
		{store.Change{Key: store.Key{PK: "FPRICE#BTCUSDT", SK: "P"}, New: store.Item{"symbol": "BTCUSDT"}}, "", ""},
	} {
		m, ok := tr.Translate(c.ch)
		if c.user == "" {
			if ok {
				t.Errorf("%s: told %s", c.ch.Key, m.User)
			}
			continue
		}
		if !ok || m.User != c.user || m.Channel != ChannelFutures {
			t.Fatalf("%s: %+v %v", c.ch.Key, m, ok)
		}
		_, d := decode(t, m)
		if d["event"] != c.event || d["symbol"] != c.ch.New.Str("symbol") {
			t.Errorf("%s: data %v", c.ch.Key, d)
		}
		if u, ok := tr.User(c.ch); !ok || u != c.user {
			t.Errorf("%s: User = %q %v", c.ch.Key, u, ok)
		}
	}
}
