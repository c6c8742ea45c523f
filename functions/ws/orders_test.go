package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"tenger/internal/push/apigw/apigwtest"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/functions/fntest"
	"tenger/internal/apperr"
	"tenger/internal/awslambda"
	"tenger/internal/coins"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/push"
	"tenger/internal/push/apigw"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

func TestNewConnectionsNeedsPushAndTheEngine(t *testing.T) {
	if _, err := newConnections(&platform.Deps{}); !errors.Is(err, errNoPush) {
		t.Fatalf("without WS_ENDPOINT: %v", err)
	}
	fan := apigw.New(nil, apigwtest.New(), apigw.Options{})
	if _, err := newConnections(&platform.Deps{Push: fan}); !errors.Is(err, platform.ErrNoEngine) {
		t.Fatalf("without the engine: %v", err)
	}
}

// TestOrderEntryFromSamples drives the ws function as API Gateway does,
// with the recorded $connect and $default events, on DynamoDB Local and
// the engine task's endpoint, the spot service built from platform.Deps as
// the trade function builds it: an order.place before the auth frame is
// refused (10002) with its id; after it the order is placed (the engine
// holds the funds, the table shows it NEW), a retry with its clientOrderId
// answers the same order, an off-tick price answers 14007 as /order/create
// would, the amend and the cancel end it with the hold released, and a bad
// frame is answered 410 with its id; every answer goes back through PostToConnection. A connection
// whose count of requests in flight is full is refused 10011, and once
// the requests end the count is back to zero.
func TestOrderEntryFromSamples(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	st := fntest.Table(t, "ws-orders")
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	box := &fntest.Recorder{}
	d := &platform.Deps{Store: st, Notify: box, Log: zerolog.Nop(), Now: time.Now, Coins: cc,
		Markets: markets.Defaults(), Config: platform.Config{Stage: "test", SecureCookies: true}}
	eng := fntest.Engine(t, d)
	api := apigwtest.New()
	d.Push = apigw.New(st, api, apigw.Options{Auth: platform.PushAuth(d.Auth()), Logger: zerolog.Nop()})
	c, err := newConnections(d)
	if err != nil {
		t.Fatal(err)
	}
	h := awslambda.NewRuntime("ws", io.Discard).WebSocket(c)
	profileMux := http.NewServeMux()
	httpapi.Mount(profileMux, d.ProfileArea()...)
	profile := awslambda.NewRuntime("profile", io.Discard).HTTP(profileMux)
	tradeMux := http.NewServeMux()
	httpapi.Mount(tradeMux, d.TradeArea()...)
	trade := awslambda.NewRuntime("trade", io.Discard).HTTP(tradeMux)

	// Sign up and in through the profile function's routers, and fund.
	const email = "sample.user@tenger.example"
	fntest.Call(t, profile, fntest.SampleEvent(t, "http_email_code.json", nil), nil)
	var reg struct{ UID string }
	fntest.Call(t, profile, fntest.SampleEvent(t, "http_register.json", map[string]string{"code": box.LastCode(email)}), &reg)
	var login struct{ Token string }
	fntest.Call(t, profile, fntest.SampleEvent(t, "http_login.json", nil), &login)
	uid, tok := reg.UID, login.Token
	if uid == "" || tok == "" {
		t.Fatal("sign-up failed")
	}
	led := d.Ledger()
	acct := ledger.UserAccount(uid, ledger.Spot)
	if err := d.SpotFunds().Credit(ctx, spotfunds.Move{Ref: "deposit:TRC20:tx-ws-fn:0", UID: uid, Coin: "USDT",
		Amount: decimal.RequireFromString("1000"), Other: ledger.ChainAccount("TRC20"), Reason: "deposit"}); err != nil {
		t.Fatal(err)
	}
	// Order entry over the socket answers at the journal: the table shows
	// the engine's state once it projected what the engine applied.
	projected := func() {
		t.Helper()
		if problems, err := eng.Verify(ctx); err != nil || len(problems) != 0 {
			t.Fatalf("engine and table disagree: %v %v", problems, err)
		}
	}
	usdt := func(stage, avail, frozen string) {
		t.Helper()
		projected()
		if b, err := led.Balance(ctx, acct, "USDT"); err != nil || !b.Available.Equal(decimal.RequireFromString(avail)) ||
			!b.Frozen.Equal(decimal.RequireFromString(frozen)) {
			t.Fatalf("USDT %s: %+v %v, want %s available, %s frozen", stage, b, err, avail, frozen)
		}
	}

	const conn = "Ab1CdEfGhIjKlM="
	if resp, err := h(ctx, fntest.WebSocketEvent(t, "ws_connect.json")); err != nil || resp.StatusCode != 200 {
		t.Fatalf("$connect: %+v %v", resp, err)
	}
	send := func(ev events.APIGatewayWebsocketProxyRequest) httpapi.WSAnswer {
		t.Helper()
		before := len(api.Posts[conn])
		if resp, err := h(ctx, ev); err != nil || resp.StatusCode != 200 {
			t.Fatalf("$default %s: %+v %v", ev.Body, resp, err)
		}
		if len(api.Posts[conn]) != before+1 {
			t.Fatalf("$default %s: %d answers posted", ev.Body, len(api.Posts[conn])-before)
		}
		var a httpapi.WSAnswer
		if err := json.Unmarshal([]byte(api.Posts[conn][before]), &a); err != nil {
			t.Fatalf("answer %s: %v", api.Posts[conn][before], err)
		}
		return a
	}
	place := func(id, price, clientOrderID string) events.APIGatewayWebsocketProxyRequest {
		ev := fntest.WebSocketEvent(t, "ws_default_order_place.json")
		ev.Body = strings.NewReplacer("{{id}}", id, "{{price}}", price, "{{volume}}", "0.01", "{{clientOrderId}}", clientOrderID).Replace(ev.Body)
		return ev
	}
	frame := func(body string) events.APIGatewayWebsocketProxyRequest {
		ev := fntest.WebSocketEvent(t, "ws_default_order_place.json")
		ev.Body = body
		return ev
	}

	if a := send(place("before-auth", "50000", "ws-fn-1")); a.Code != apperr.CodeNotSignedIn || string(a.ID) != `"before-auth"` {
		t.Fatalf("before auth: %+v", a)
	}
	auth := fntest.WebSocketEvent(t, "ws_default_auth.json")
	auth.Body = strings.ReplaceAll(auth.Body, "{{token}}", tok)
	if resp, err := h(ctx, auth); err != nil || resp.StatusCode != 200 || !strings.Contains(api.Posts[conn][len(api.Posts[conn])-1], `"status":"ok"`) {
		t.Fatalf("auth: %+v %v %v", resp, err, api.Posts[conn])
	}

	// Place: 0.01 BTC at 50000 holds 500 USDT.
	a := send(place("p1", "50000", "ws-fn-1"))
	var placed httpapi.OrderCreateResp
	if b, _ := json.Marshal(a.Data); a.Code != "0" || a.Status != 200 || string(a.ID) != `"p1"` || json.Unmarshal(b, &placed) != nil || placed.OrderID == "" {
		t.Fatalf("place: %+v", a)
	}
	usdt("after the order", "500", "500")
	o, err := d.Spot().GetOrder(ctx, uid, placed.OrderID)
	if err != nil || o.Status != spot.StatusNew || o.Symbol != "btcusdt" || !o.Price.Equal(decimal.RequireFromString("50000")) {
		t.Fatalf("stored order %+v %v", o, err)
	}
	if a := send(place("p1-retry", "50000", "ws-fn-1")); a.Code != "0" || !strings.Contains(mustJSON(a.Data), placed.OrderID) {
		t.Fatalf("retry: %+v", a)
	}
	usdt("after the retry", "500", "500")
	// The same off-tick input answers as /order/create does.
	off := send(place("p2", "50000.001", "ws-fn-2"))
	rest := fntest.Call(t, trade, fntest.SampleEvent(t, "http_order_create.json",
		map[string]string{"token": tok, "price": "50000.001", "volume": "0.01", "clientOrderId": "ws-fn-2"}), nil)
	if off.Code != apperr.CodeTradePriceTick || off.Code != rest.Code || off.Msg != rest.Msg {
		t.Fatalf("off tick: ws %+v, rest %+v", off, rest)
	}

	if a := send(frame(`{"id":7,"method":"order.amend","params":{"symbol":"btcusdt","order_id":"` + placed.OrderID + `","volume":"0.005"}}`)); a.Code != "0" || string(a.ID) != "7" {
		t.Fatalf("amend: %+v", a)
	}
	if a := send(frame(`{"id":"c1","method":"order.cancel","params":{"symbol":"btcusdt","order_id":"` + placed.OrderID + `"}}`)); a.Code != "0" || string(a.ID) != `"c1"` {
		t.Fatalf("cancel: %+v", a)
	}
	if a := send(frame(`{"id":"bad","method":"order.cancel","params":["x"]}`)); a.Code != apperr.CodeParam || string(a.ID) != `"bad"` || !strings.Contains(a.Msg, "params") {
		t.Fatalf("bad frame: %+v", a)
	}
	// The amend halved the order, the cancel ended it and released the hold.
	usdt("after the cancel", "1000", "0")
	if o, err := d.Spot().GetOrder(ctx, uid, placed.OrderID); err != nil || o.Status != spot.StatusCancelled ||
		!o.Volume.Equal(decimal.RequireFromString("0.005")) {
		t.Fatalf("order after the amend and cancel %+v %v", o, err)
	}

	// The count of requests in flight is on the connection's item.
	key := store.Key{PK: "WSCONN#" + conn, SK: "META"}
	if meta, err := st.Get(ctx, key); err != nil || meta.Int("inflight") != 0 || meta.Str("userId") != uid {
		t.Fatalf("META after the requests %v %v", meta, err)
	}
	if _, err := st.Update(ctx, key, store.NewUpdate().Set("inflight", push.MaxInFlight).Set("inflightAt", time.Now().UnixMilli()), nil); err != nil {
		t.Fatal(err)
	}
	if a := send(place("full", "50000", "ws-fn-3")); a.Code != apperr.CodeTooManyInFlight || a.Status != 429 || string(a.ID) != `"full"` {
		t.Fatalf("full count: %+v", a)
	}
	if _, err := st.Update(ctx, key, store.NewUpdate().Set("inflight", 0), nil); err != nil {
		t.Fatal(err)
	}

	// After $disconnect a request is nobody's: no answer, no failure.
	if resp, err := h(ctx, fntest.WebSocketEvent(t, "ws_disconnect.json")); err != nil || resp.StatusCode != 200 {
		t.Fatalf("$disconnect: %+v %v", resp, err)
	}
	before := len(api.Posts[conn])
	if resp, err := h(ctx, place("gone", "50000", "ws-fn-4")); err != nil || resp.StatusCode != 200 || len(api.Posts[conn]) != before {
		t.Fatalf("request after $disconnect: %+v %v, %d answers", resp, err, len(api.Posts[conn])-before)
	}
	// Neither the refused request nor the one after $disconnect placed an
	// order.
	usdt("at the end", "1000", "0")
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
