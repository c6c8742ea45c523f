package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"tenger/internal/push/apigw/apigwtest"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/functions/fntest"
	"tenger/internal/apikey"
	"tenger/internal/awslambda"
	"tenger/internal/binance"
	"tenger/internal/binance/wsapiaws"
	"tenger/internal/binance/wsstreamsaws"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/push/apigw"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
	"tenger/internal/userfeed"
)

// binanceStreamHandler is the stream function's handler as main builds it
// with $BINANCE_WS_ENDPOINT set: the web app's adapter over web, the
// Binance-compatible WebSocket API's (namespace wsapiaws.Namespace) over
// bin, both on st. The Deps reach no engine, as the function's do not.
func binanceStreamHandler(t *testing.T, st store.Store, web, bin *apigwtest.Mgmt) (awslambda.DynamoDBFunc, *apigw.Fanout) {
	t.Helper()
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	d := &platform.Deps{Store: st, Log: zerolog.Nop(), Now: time.Now, Coins: cc, Markets: markets.Defaults(), Config: platform.ConfigFromEnv()}
	d.BinancePush = apigw.New(st, bin, apigw.Options{Namespace: wsapiaws.Namespace, TTL: wsapiaws.TTL, Logger: zerolog.Nop()})
	fan := apigw.New(st, web, apigw.Options{Logger: zerolog.Nop()})
	f := fanout{pusher: fan, conns: fan.UserConnections, users: userfeed.New(d.Markets)}
	f.binance = newBinanceFanout(d, fan)
	return filtered(f.handler(awslambda.NewRuntime("stream", io.Discard))), d.BinancePush
}

// filtered is h behind the stream function's event filter in AWS
// (stacks: one filter per binance.ChangeKeyPrefixes prefix): records of
// other keys never reach it. The tests that run through it check every
// event users get, so a prefix missing from the filter fails them.
func filtered(h awslambda.DynamoDBFunc) awslambda.DynamoDBFunc {
	return func(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
		ev.Records = keptByFilter(ev.Records)
		return h(ctx, ev)
	}
}

func keptByFilter(recs []events.DynamoDBEventRecord) []events.DynamoDBEventRecord {
	var kept []events.DynamoDBEventRecord
	for _, r := range recs {
		pk := r.Change.Keys["pk"].String()
		for _, p := range binance.ChangeKeyPrefixes() {
			if strings.HasPrefix(pk, p) {
				kept = append(kept, r)
				break
			}
		}
	}
	return kept
}

// TestStreamFilterDropsTheRest: of the recorded trade batch the filter
// keeps the orders and balances and drops the rest (postings, sessions,
// connections), so the function is not woken for them.
func TestStreamFilterDropsTheRest(t *testing.T) {
	ev := loadBatch(t, "ddb_stream_batch.json")
	kept := keptByFilter(ev.Records)
	if len(kept) == 0 || len(kept) == len(ev.Records) {
		t.Fatalf("kept %d of %d records", len(kept), len(ev.Records))
	}
	for _, r := range kept {
		if pk := r.Change.Keys["pk"].String(); !strings.HasPrefix(pk, "SORD#") && !strings.HasPrefix(pk, "BAL#") {
			t.Errorf("kept %s", pk)
		}
	}
}

// written runs write and returns the change it made to the item at k, as
// the table's stream carries it (both images read from the table).
func written(t *testing.T, ctx context.Context, st store.Store, k store.Key, write func() error) store.Change {
	t.Helper()
	get := func() store.Item {
		it, err := st.Get(ctx, k)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			t.Fatal(err)
		}
		return it
	}
	ch := store.Change{Kind: store.ChangeModify, Key: k, Old: get()}
	if err := write(); err != nil {
		t.Fatal(err)
	}
	ch.New, ch.At = get(), time.Now().UnixMilli()
	switch {
	case ch.Old == nil:
		ch.Kind = store.ChangeInsert
	case ch.New == nil:
		ch.Kind = store.ChangeRemove
	}
	return ch
}

// userEvent names a posted Binance user data event: its subscription, its
// type and what it says.
func userEvent(t *testing.T, raw string) string {
	t.Helper()
	var m struct {
		SubscriptionID *int64 `json:"subscriptionId"`
		Event          struct {
			E        string `json:"e"`
			Time     int64  `json:"E"`
			Asset    string `json:"a"`
			Delta    string `json:"d"`
			Exec     string `json:"x"`
			Status   string `json:"X"`
			OrderID  int64  `json:"i"`
			Ignore   int64  `json:"I"` // else "I" lands in OrderID: names match regardless of case
			Balances []struct {
				A, F, L string
			} `json:"B"`
		} `json:"event"`
	}
	if err := json.Unmarshal([]byte(raw), &m); err != nil || m.SubscriptionID == nil || m.Event.Time == 0 {
		t.Fatalf("posted %q: not a user data event (%v)", raw, err)
	}
	e := m.Event
	s := fmt.Sprintf("%d %s", *m.SubscriptionID, e.E)
	switch e.E {
	case "outboundAccountPosition":
		for _, b := range e.Balances {
			s += fmt.Sprintf(" %s %s/%s", b.A, b.F, b.L)
		}
	case "balanceUpdate":
		s += " " + e.Asset + " " + e.Delta
	case "executionReport":
		s += fmt.Sprintf(" %s %s %d", e.Exec, e.Status, e.OrderID)
	}
	return s
}

func userEvents(t *testing.T, raws []string) string {
	out := make([]string, len(raws))
	for i, r := range raws {
		out[i] = userEvent(t, r)
	}
	return strings.Join(out, "\n")
}

// TestStreamBinanceUserData runs the stream function with the
// Binance-compatible WebSocket API's subscribers on DynamoDB Local. A bot's
// connection (wsapiaws.Connect, Open, Subscribe, as the wsapi function
// records it) holds two subscriptions, one for another user's key (id 0)
// and one for the user's (id 1); a second connection of the user is gone.
//
//   - The recorded batch of an order placed and cancelled gives the bot the
//     user's USDT outboundAccountPosition and the NEW and CANCELED
//     executionReports, each wrapped with subscriptionId 1; the gone
//     connection is tried once and forgotten; the other user of the batch,
//     who has no subscriber, costs no post; nothing goes to the web app's
//     API.
//   - A deposit credited (its record inserted confirming, the spot credit,
//     the record marked credited: changes of the table's items) gives the
//     balance's outboundAccountPosition and one balanceUpdate.
//   - Once the key is deleted, the user's next event is
//     eventStreamTerminated on its subscription, which is gone from the
//     table (Subscribers) and the connection's state; the other
//     subscription stays, and later events of the user cost no post.
func TestStreamBinanceUserData(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st := fntest.Table(t, "stream-binance")
	web, bin := apigwtest.New(), apigwtest.New()
	h, bfan := binanceStreamHandler(t, st, web, bin)
	keys := fntest.APIKeys(t, st, bytes.Repeat([]byte{0x5a}, 32))
	const user, other, carol = "10000001", "10000002", "10000003"
	key := func(uid string) apikey.Resolved {
		t.Helper()
		c, err := keys.Create(ctx, uid, apikey.Input{Label: "bot", Permissions: []string{apikey.PermSpot}})
		if err != nil {
			t.Fatal(err)
		}
		r, err := keys.Resolve(ctx, c.APIKey)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	carolKey, userKey := key(carol), key(user)
	const conn, gone = "Cq3xYzWsApI0aB=", "Gn0nEwSaPi9Zz="
	open := func(id string) *wsapiaws.Conn {
		t.Helper()
		c, err := wsapiaws.Open(ctx, st, bfan, id, time.Now)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	subscribe := func(id string, k apikey.Resolved) int64 {
		t.Helper()
		sub, err := open(id).Subscribe(ctx, k, false)
		if err != nil {
			t.Fatal(err)
		}
		return sub
	}
	for _, id := range []string{conn, gone} {
		if err := wsapiaws.Connect(ctx, st, bfan, id, "198.51.100.23", true, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	carolSub, userSub := subscribe(conn, carolKey), subscribe(conn, userKey)
	if carolSub != 0 || userSub != 1 {
		t.Fatalf("subscriptions %d %d, want 0 and 1", carolSub, userSub)
	}
	if id := subscribe(gone, userKey); id != 0 {
		t.Fatalf("the second connection's subscription %d", id)
	}
	bin.Gone[gone] = true
	subscribers := func(uid string) []wsapiaws.Subscriber {
		t.Helper()
		s, err := wsapiaws.Subscribers(ctx, st, uid, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	run := func(ev events.DynamoDBEvent) {
		t.Helper()
		resp, err := h(ctx, ev)
		if err != nil || len(resp.BatchItemFailures) != 0 {
			t.Fatalf("batch: %+v %v", resp, err)
		}
	}

	// (a) The recorded batch: the user's balance and order events.
	run(loadBatch(t, "ddb_stream_user_updates.json"))
	want := strings.Join([]string{
		"1 outboundAccountPosition USDT 760.00000000/240.00000000",
		"1 executionReport NEW NEW 1795252400000123",
		"1 executionReport CANCELED CANCELED 1795252400000123",
	}, "\n")
	if got := userEvents(t, bin.Posts[conn]); got != want {
		t.Errorf("the bot got\n%s\nwant\n%s", got, want)
	}
	if n := bin.Attempts[gone]; n != 1 {
		t.Errorf("the gone connection was tried %d times, want once", n)
	}
	if s := subscribers(user); len(s) != 1 || s[0].ConnID != conn || s[0].SubscriptionID != userSub || s[0].APIKey != userKey.APIKey {
		t.Errorf("the user's subscribers after the gone connection %+v", s)
	}
	// (d) The other user's BTC hold has no subscriber: no post anywhere.
	if s := subscribers(other); len(s) != 0 {
		t.Fatalf("the other user's subscribers %+v", s)
	}
	if len(bin.Attempts) != 2 || len(web.Attempts) != 0 {
		t.Errorf("posts went to %v (Binance API) and %v (web app's), want the user's two connections only", bin.Attempts, web.Attempts)
	}

	// (b) A deposit credited, as the deposit watcher writes it.
	bin.Reset()
	const dep = "TRC20:tx-binance-stream:0"
	depKey := store.Key{PK: "DEP#" + dep, SK: "DEP"}
	created := time.Now().UnixMilli()
	confirming := written(t, ctx, st, depKey, func() error {
		return st.Put(ctx, store.Item{store.AttrPK: depKey.PK, store.AttrSK: depKey.SK, "id": dep, "uid": user, "coin": "USDT",
			"chain": "TRC20", "txid": "tx-binance-stream", "vout": 0, "address": "TXyz", "memo": "", "amount": decimal.RequireFromString("250"),
			"confirmations": 1, "required": 20, "status": "confirming", "created": created,
			store.AttrGSI1PK: "DEPHIST#" + user, store.AttrGSI1SK: fmt.Sprintf("%013d#%s", created, dep)}, store.ItemNotExists())
	})
	led := spotfunds.Ledger{Led: ledger.New(st, nil), Store: st}
	credit := func(ref, amount string) store.Change {
		t.Helper()
		return written(t, ctx, st, store.Key{PK: "BAL#" + user, SK: "spot##USDT"}, func() error {
			return led.Credit(ctx, spotfunds.Move{Ref: ref, UID: user, Coin: "USDT", Amount: decimal.RequireFromString(amount),
				Other: ledger.ChainAccount("TRC20"), Reason: "deposit"})
		})
	}
	balance := credit("deposit:"+dep, "250")
	credited := written(t, ctx, st, depKey, func() error {
		_, err := st.Update(ctx, depKey, store.NewUpdate().Set("status", "credited").Set("confirmations", 20).
			Set("credited", time.Now().UnixMilli()), store.Eq("status", "confirming"))
		return err
	})
	run(fntest.StreamEvent(t, confirming, balance, credited))
	want = "1 outboundAccountPosition USDT 250.00000000/0.00000000\n1 balanceUpdate USDT 250.00000000"
	if got := userEvents(t, bin.Posts[conn]); got != want {
		t.Errorf("the bot got\n%s\nwant\n%s", got, want)
	}
	var bu struct {
		Event struct {
			ClearTime int64 `json:"T"`
		} `json:"event"`
	}
	if p := bin.Posts[conn]; len(p) == 2 {
		_ = json.Unmarshal([]byte(p[1]), &bu)
		if bu.Event.ClearTime != credited.New.Int("credited") {
			t.Errorf("balanceUpdate T = %d, want the credit time %d", bu.Event.ClearTime, credited.New.Int("credited"))
		}
	}

	// (c) The key deleted: its subscription ends at the user's next event.
	bin.Reset()
	deleted := written(t, ctx, st, store.Key{PK: "APIKEY#" + userKey.APIKey, SK: "APIKEY"}, func() error {
		return keys.Delete(ctx, user, userKey.APIKey)
	})
	run(fntest.StreamEvent(t, deleted, credit("deposit:TRC20:tx-binance-stream:1", "5")))
	if got := userEvents(t, bin.Posts[conn]); got != "1 eventStreamTerminated" {
		t.Errorf("after the key's deletion the bot got\n%s\nwant its subscription's eventStreamTerminated only", got)
	}
	if s := subscribers(user); len(s) != 0 {
		t.Errorf("the user's subscribers after the key's deletion %+v", s)
	}
	if s := subscribers(carol); len(s) != 1 || s[0].SubscriptionID != carolSub {
		t.Errorf("the other key's subscription %+v", s)
	}
	if state, _ := open(conn).State(ctx); len(state.Subs) != 1 || state.Subs[0] != carolSub {
		t.Errorf("the connection's subscriptions %v, want [%d]", state.Subs, carolSub)
	}
	bin.Reset()
	run(fntest.StreamEvent(t, credit("deposit:TRC20:tx-binance-stream:2", "5")))
	if len(bin.Attempts) != 0 {
		t.Errorf("posts after the subscription ended: %v", bin.Attempts)
	}
}

// TestStreamListenKeyStreams runs the stream function with two connections
// of the web app's WebSocket API streaming the user's listen key (as the
// ws function records a $connect with ?streams=<listenKey>), one raw and
// one combined, on DynamoDB Local:
//
//   - the recorded batch of an order placed and cancelled gives both the
//     user's outboundAccountPosition and the NEW and CANCELED
//     executionReports, as they are on the raw connection and as
//     {"stream":<listenKey>,"data":…} on the combined one;
//   - once the listen key is closed, the user's next event is
//     listenKeyExpired on each, whose streams are then gone, and later
//     events cost no post.
func TestStreamListenKeyStreams(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st := fntest.Table(t, "stream-listenkey")
	web, bin := apigwtest.New(), apigwtest.New()
	h, _ := binanceStreamHandler(t, st, web, bin)
	webFan := apigw.New(st, web, apigw.Options{Logger: zerolog.Nop()})
	keys := fntest.APIKeys(t, st, bytes.Repeat([]byte{0x5b}, 32))
	const user = "10000001"
	c, err := keys.Create(ctx, user, apikey.Input{Label: "bot", Permissions: []string{apikey.PermSpot}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := keys.Resolve(ctx, c.APIKey)
	if err != nil {
		t.Fatal(err)
	}
	lk, err := keys.OpenListenKey(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	const rawConn, combConn = "Lk1RaWcOnNeCt=", "Lk2CoMbInEd0a="
	for _, conn := range []string{rawConn, combConn} {
		if err := webFan.OnConnect(ctx, conn); err != nil {
			t.Fatal(err)
		}
		if err := wsstreamsaws.Open(st, webFan, conn, time.Now).Listen(ctx, lk, c.APIKey, user, conn == combConn); err != nil {
			t.Fatal(err)
		}
	}
	run := func(ev events.DynamoDBEvent) {
		t.Helper()
		resp, err := h(ctx, ev)
		if err != nil || len(resp.BatchItemFailures) != 0 {
			t.Fatalf("batch: %+v %v", resp, err)
		}
	}
	type event struct {
		E      string `json:"e"`
		Time   int64  `json:"E"`
		Exec   string `json:"x"`
		Key    string `json:"listenKey"`
		Ignore string `json:"X"`
	}
	kinds := func(conn string, combined bool) string {
		t.Helper()
		var out []string
		for _, p := range web.Posts[conn] {
			var ev event
			if combined {
				var w struct {
					Stream string          `json:"stream"`
					Data   json.RawMessage `json:"data"`
				}
				if err := json.Unmarshal([]byte(p), &w); err != nil || w.Stream != lk {
					t.Fatalf("combined post %s (%v)", p, err)
				}
				p = string(w.Data)
			}
			if err := json.Unmarshal([]byte(p), &ev); err != nil || ev.Time == 0 {
				t.Fatalf("post %s (%v)", p, err)
			}
			s := ev.E
			if ev.Exec != "" {
				s += " " + ev.Exec
			}
			if ev.Key != "" && ev.Key != lk {
				t.Fatalf("listenKeyExpired of %s", ev.Key)
			}
			out = append(out, s)
		}
		return strings.Join(out, ",")
	}

	run(loadBatch(t, "ddb_stream_user_updates.json"))
	const want = "outboundAccountPosition,executionReport NEW,executionReport CANCELED"
	if got := kinds(rawConn, false); got != want {
		t.Errorf("raw stream got %s, want %s", got, want)
	}
	if got := kinds(combConn, true); got != want {
		t.Errorf("combined stream got %s, want %s", got, want)
	}
	if len(bin.Attempts) != 0 {
		t.Errorf("posts to the WebSocket API: %v", bin.Attempts)
	}

	web.Reset()
	if err := keys.CloseListenKey(ctx, r, lk); err != nil {
		t.Fatal(err)
	}
	run(loadBatch(t, "ddb_stream_user_updates.json"))
	for conn, comb := range map[string]bool{rawConn: false, combConn: true} {
		if got := kinds(conn, comb); got != "listenKeyExpired" {
			t.Errorf("%s after the key closed: %s", conn, got)
		}
	}
	if ls, err := wsstreamsaws.Listeners(ctx, st, user, time.Now()); err != nil || len(ls) != 0 {
		t.Fatalf("listeners after the key closed %+v %v", ls, err)
	}
	web.Reset()
	run(loadBatch(t, "ddb_stream_user_updates.json"))
	if len(web.Attempts) != 0 {
		t.Errorf("posts after the streams ended: %v", web.Attempts)
	}
}
