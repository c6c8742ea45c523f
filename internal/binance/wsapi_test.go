package binance

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"tenger/internal/apikey"
	"tenger/internal/push/hub"
	"tenger/internal/store"
	"tenger/internal/userfeed"
)

// apiEnv serves the signed endpoints, the WebSocket API and the market
// streams (listen keys) over HTTP, with the user data events following
// the store's change feed.
type apiEnv struct {
	*signedEnv
	hub  *hub.Hub
	http *httptest.Server
}

func newAPIEnv(t *testing.T) *apiEnv {
	t.Helper()
	e := newSignedEnv(t)
	h := hub.New(hub.Options{})
	st := e.srv.Streams(h)
	mux := http.NewServeMux()
	for _, p := range st.Paths() {
		mux.Handle(p, st)
	}
	mux.Handle(WSAPIPath, e.srv.WSAPI(h))
	for _, p := range e.srv.Prefixes() {
		mux.Handle(p, e.srv)
	}
	a := &apiEnv{signedEnv: e, hub: h, http: httptest.NewServer(mux)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	c := &userfeed.Consumer{Feed: e.st.Changes(), Sink: e.srv.UserData(), Poll: 2 * time.Millisecond}
	go func() { defer close(done); _ = c.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer ccancel()
		_ = h.Close(cctx)
		a.http.Close()
		st.Close()
	})
	return a
}

func (a *apiEnv) dial(path string) *wsClient {
	a.t.Helper()
	return dialWS(a.t, a.http.URL, path, http.Header{"X-Test-Ip": {"203.0.113.5"}})
}

// signWS signs WebSocket API params as Binance does: every parameter but
// the signature, sorted by name, key=value joined by &.
func signWS(params map[string]any, sign func(string) string) map[string]any {
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, k := range names {
		parts = append(parts, fmt.Sprintf("%s=%v", k, params[k]))
	}
	params["signature"] = sign(strings.Join(parts, "&"))
	return params
}

// frame builds a request frame of an HMAC key (nil k: unsigned).
func frame(id, method string, in map[string]any, k *apikey.Created) string {
	params := map[string]any{}
	for n, v := range in {
		params[n] = v
	}
	if k != nil {
		params["apiKey"] = k.APIKey
		if _, ok := params["timestamp"]; !ok {
			params["timestamp"] = time.Now().UnixMilli()
		}
		secret := k.SecretKey
		params = signWS(params, func(p string) string { return signHMAC(secret, p) })
	}
	b, _ := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	return string(b)
}

// wsAnswer is an answer as the tests read it.
type wsAnswer = WSAnswer

func parseAnswer(t *testing.T, s string) wsAnswer {
	t.Helper()
	var a wsAnswer
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return a
}

func (a *apiEnv) wantOK(c *wsClient, f, id string, into any) wsAnswer {
	a.t.Helper()
	ans := parseAnswer(a.t, c.request(f, `"`+id+`"`))
	if ans.Status != 200 || ans.Error != nil {
		a.t.Fatalf("%s: want 200, got %+v (%s)", id, ans, ans.Result)
	}
	if into != nil {
		if err := json.Unmarshal(ans.Result, into); err != nil {
			a.t.Fatalf("%s: %v", ans.Result, err)
		}
	}
	return ans
}

func (a *apiEnv) wantErr(c *wsClient, f, id string, status, code int) wsAnswer {
	a.t.Helper()
	ans := parseAnswer(a.t, c.request(f, `"`+id+`"`))
	if ans.Status != status || ans.Error == nil || ans.Error.Code != code {
		a.t.Fatalf("%s: want %d %d, got %+v", id, status, code, ans)
	}
	return ans
}

func TestWSAPIRequests(t *testing.T) {
	a := newAPIEnv(t)
	k := a.key(alice, []string{"spot"})
	c := a.dial(WSAPIPath)

	ping := a.wantOK(c, frame("p", "ping", nil, nil), "p", nil)
	if string(ping.Result) != "{}" || len(ping.RateLimits) == 0 || ping.RateLimits[0].RateLimitType != "REQUEST_WEIGHT" ||
		ping.RateLimits[0].Count < 3 {
		t.Fatalf("ping: %+v %s", ping, ping.Result)
	}
	var tm struct{ ServerTime int64 }
	a.wantOK(c, frame("t", "time", nil, nil), "t", &tm)
	if d := time.Since(time.UnixMilli(tm.ServerTime)); d < 0 || d > 5*time.Second {
		t.Fatalf("serverTime %d", tm.ServerTime)
	}

	// Bad frames and methods.
	bad := parseAnswer(t, c.request(`{"id":"x","method":"order.place","params":`, "null"))
	if bad.Status != 400 || bad.Error == nil || bad.Error.Code != CodeIllegalChars {
		t.Fatalf("malformed frame: %+v", bad)
	}
	a.wantErr(c, frame("u", "no.such", nil, nil), "u", 400, CodeUnsupportedOperation)
	a.wantErr(c, frame("m", "depth", map[string]any{}, nil), "m", 400, CodeMandatoryParam)
	a.wantErr(c, frame("x", "depth", map[string]any{"symbol": "BTCUSDT", "bogus": 1}, nil), "x", 400, CodeUnreadParameters)

	// Signed: a limit sell, read back, cancelled.
	place := map[string]any{"symbol": "BTCUSDT", "side": "SELL", "type": "LIMIT", "timeInForce": "GTC",
		"quantity": "0.01", "price": "90000", "newOrderRespType": "RESULT"}
	var placed orderResult
	ans := a.wantOK(c, frame("o1", "order.place", place, &k), "o1", &placed)
	if placed.OrderID == 0 || placed.Status != "NEW" || placed.Symbol != "BTCUSDT" {
		t.Fatalf("order.place: %s", ans.Result)
	}
	var st orderQueried
	a.wantOK(c, frame("o2", "order.status", map[string]any{"symbol": "BTCUSDT", "orderId": placed.OrderID}, &k), "o2", &st)
	if st.OrderID != placed.OrderID || st.OrigQty != "0.01000000" {
		t.Fatalf("order.status: %+v", st)
	}
	var open []orderQueried
	a.wantOK(c, frame("o3", "openOrders.status", map[string]any{"symbol": "BTCUSDT"}, &k), "o3", &open)
	if len(open) != 1 {
		t.Fatalf("openOrders.status: %+v", open)
	}
	var cancelled orderCancelled
	a.wantOK(c, frame("o4", "order.cancel", map[string]any{"symbol": "BTCUSDT", "orderId": placed.OrderID}, &k), "o4", &cancelled)
	if cancelled.Status != "CANCELED" {
		t.Fatalf("order.cancel: %+v", cancelled)
	}
	var acct accountInfo
	a.wantOK(c, frame("o5", "account.status", nil, &k), "o5", &acct)
	if !acct.CanTrade || len(acct.Balances) == 0 {
		t.Fatalf("account.status: %+v", acct)
	}

	// Signature, key and permission errors are REST's.
	wrong := k
	wrong.SecretKey = strings.Repeat("x", 64)
	a.wantErr(c, frame("e1", "account.status", nil, &wrong), "e1", 400, CodeInvalidSignature)
	a.wantErr(c, frame("e2", "account.status", map[string]any{"timestamp": time.Now().Add(-time.Minute).UnixMilli()}, &k), "e2", 400, CodeInvalidTimestamp)
	unsigned := frame("e3", "account.status", map[string]any{"timestamp": time.Now().UnixMilli()}, nil)
	a.wantErr(c, unsigned, "e3", 401, CodeBadAPIKeyFormat)
	readOnly := a.key(alice, []string{"read"})
	a.wantErr(c, frame("e4", "order.place", place, &readOnly), "e4", 401, CodeRejectedAPIKey)
	// The signature covers every parameter: one changed after signing fails.
	f := frame("e5", "order.test", map[string]any{"symbol": "BTCUSDT", "side": "SELL", "type": "LIMIT", "timeInForce": "GTC",
		"quantity": "0.01", "price": "90000"}, &k)
	a.wantErr(c, strings.Replace(f, `"90000"`, `"91000"`, 1), "e5", 400, CodeInvalidSignature)

	// An HMAC key cannot log on (Ed25519 only, as on Binance); an Ed25519
	// one can, and then its requests need neither apiKey nor signature.
	a.wantErr(c, frame("l1", "session.logon", nil, &k), "l1", 401, CodeRejectedAPIKey)
	ed, sign := a.edKey(alice, []string{"spot"})
	logon := signWS(map[string]any{"apiKey": ed.APIKey, "timestamp": time.Now().UnixMilli()}, sign)
	b, _ := json.Marshal(map[string]any{"id": "l2", "method": "session.logon", "params": logon})
	var status sessionStatus
	a.wantOK(c, string(b), "l2", &status)
	if status.APIKey == nil || *status.APIKey != ed.APIKey || status.AuthorizedSince == nil {
		t.Fatalf("session.logon: %+v", status)
	}
	a.wantOK(c, frame("l3", "account.status", map[string]any{"timestamp": time.Now().UnixMilli()}, nil), "l3", &acct)
	a.wantOK(c, frame("l4", "session.logout", nil, nil), "l4", &status)
	if status.APIKey != nil {
		t.Fatalf("session.logout: %+v", status)
	}
	a.wantErr(c, frame("l5", "account.status", map[string]any{"timestamp": time.Now().UnixMilli()}, nil), "l5", 401, CodeBadAPIKeyFormat)
}

// edKey makes an Ed25519 key and returns a signer of it.
func (a *apiEnv) edKey(uid string, perms []string) (apikey.Created, func(string) string) {
	a.t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		a.t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		a.t.Fatal(err)
	}
	pemKey := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	c, err := a.keys.Create(context.Background(), uid, apikey.Input{Label: "ed", Permissions: perms, PublicKey: pemKey})
	if err != nil {
		a.t.Fatal(err)
	}
	return c, func(p string) string { return base64.StdEncoding.EncodeToString(ed25519.Sign(priv, []byte(p))) }
}

// event is a user data event as the tests read it.
type event struct {
	E string `json:"e"`
	executionReport
	B []positionBalance `json:"B"`
}

func userEventOf(t *testing.T, m []byte, wrapped bool) event {
	t.Helper()
	raw := m
	if wrapped {
		var w struct {
			SubscriptionID *int64          `json:"subscriptionId"`
			Event          json.RawMessage `json:"event"`
		}
		if err := json.Unmarshal(m, &w); err != nil || w.SubscriptionID == nil {
			t.Fatalf("not a user data event: %s", m)
		}
		raw = w.Event
	}
	var ev event
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	ev.Event = ev.E
	return ev
}

// nextReport waits for alice's executionReport of execution type x.
func nextReport(t *testing.T, c *wsClient, x string, wrapped bool) event {
	t.Helper()
	m := c.nextWith(`"x":"` + x + `"`)
	return userEventOf(t, m, wrapped)
}

func TestWSAPIUserDataStream(t *testing.T) {
	a := newAPIEnv(t)
	ka := a.key(alice, []string{"spot"})
	kb := a.key(bob, []string{"spot"})
	c := a.dial(WSAPIPath)
	var sub subscribed
	a.wantOK(c, frame("s", "userDataStream.subscribe.signature", nil, &ka), "s", &sub)
	var subs []subscriptionInfo
	a.wantOK(c, frame("ss", "session.subscriptions", nil, nil), "ss", &subs)
	if len(subs) != 1 || subs[0].SubscriptionID != sub.SubscriptionID {
		t.Fatalf("session.subscriptions: %+v", subs)
	}

	// Alice's sell rests: NEW. Bob's buy takes it in two fills... one
	// fill here, and alice's order is FILLED.
	sell := map[string]any{"symbol": "BTCUSDT", "side": "SELL", "type": "LIMIT", "timeInForce": "GTC",
		"quantity": "0.02", "price": "30000", "newClientOrderId": "alice-1"}
	var placed orderResult
	a.wantOK(c, frame("o1", "order.place", sell, &ka), "o1", &placed)
	nw := nextReport(t, c, "NEW", true)
	if nw.OrderID != placed.OrderID || nw.ClientOrderID != "alice-1" || nw.Status != "NEW" || nw.CumQty != "0.00000000" ||
		nw.Qty != "0.02000000" || nw.Price != "30000.00000000" || nw.CommissionAsset != nil || !nw.Working {
		t.Fatalf("NEW: %+v", nw)
	}
	bc := a.dial(WSAPIPath)
	for i, q := range []string{"0.005", "0.015"} {
		buy := map[string]any{"symbol": "BTCUSDT", "side": "BUY", "type": "LIMIT", "timeInForce": "GTC", "quantity": q, "price": "30000"}
		id := "b" + strconv.Itoa(i)
		a.wantOK(bc, frame(id, "order.place", buy, &kb), id, nil)
	}
	t1 := nextReport(t, c, "TRADE", true)
	t2 := nextReport(t, c, "TRADE", true)
	if t1.LastQty != "0.00500000" || t1.CumQty != "0.00500000" || t1.Status != "PARTIALLY_FILLED" || t1.LastPrice != "30000.00000000" ||
		!t1.Maker || t1.TradeID <= 0 || t1.CommissionAsset == nil || *t1.CommissionAsset != "USDT" || t1.LastQuote != "150.00000000" {
		t.Fatalf("first TRADE: %+v", t1)
	}
	if t2.LastQty != "0.01500000" || t2.CumQty != "0.02000000" || t2.Status != "FILLED" || t2.CumQuote != "600.00000000" ||
		t2.TradeID <= t1.TradeID {
		t.Fatalf("second TRADE: %+v", t2)
	}
	// The trades are myTrades' ids.
	var mine []myTrade
	a.ok(a.call(http.MethodGet, "/api/v3/myTrades", ka, vals("symbol", "BTCUSDT")), &mine)
	if len(mine) != 2 || mine[0].ID != t1.TradeID || mine[1].ID != t2.TradeID {
		t.Fatalf("myTrades %+v vs reports %d %d", mine, t1.TradeID, t2.TradeID)
	}
	pos := userEventOf(t, c.nextWith(`"e":"outboundAccountPosition"`), true)
	if len(pos.B) != 1 || pos.B[0].Asset == "" {
		t.Fatalf("outboundAccountPosition: %+v", pos)
	}
	// Bob hears nothing of alice: his connection never subscribed.
	select {
	case m := <-bc.msgs:
		t.Fatalf("bob's connection got %s", m)
	case <-time.After(50 * time.Millisecond):
	}

	// A cancelled order: CANCELED with C set.
	sell["newClientOrderId"] = "alice-2"
	a.wantOK(c, frame("o2", "order.place", sell, &ka), "o2", &placed)
	a.wantOK(c, frame("o3", "order.cancel", map[string]any{"symbol": "BTCUSDT", "orderId": placed.OrderID}, &ka), "o3", nil)
	cx := nextReport(t, c, "CANCELED", true)
	if cx.OrderID != placed.OrderID || cx.Status != "CANCELED" || cx.OrigClientOrderID != "alice-2" {
		t.Fatalf("CANCELED: %+v", cx)
	}

	// Deleting the key ends the subscription at its next event.
	if err := a.keys.Delete(context.Background(), alice, ka.APIKey); err != nil {
		t.Fatal(err)
	}
	k2 := a.key(alice, []string{"spot"})
	sell["newClientOrderId"] = "alice-3"
	a.wantOK(bc, frame("o4", "order.place", sell, &k2), "o4", nil)
	c.nextWith(`"e":"eventStreamTerminated"`)
	a.wantOK(c, frame("ss2", "session.subscriptions", nil, nil), "ss2", &subs)
	if len(subs) != 0 {
		t.Fatalf("subscriptions after the key's deletion: %+v", subs)
	}
}

func TestListenKeyStream(t *testing.T) {
	a := newAPIEnv(t)
	k := a.key(alice, []string{"spot"})
	userStream := func(method string, params url.Values) sanswer {
		req := httptest.NewRequest(method, "/api/v3/userDataStream?"+params.Encode(), nil)
		req.Header.Set(HeaderAPIKey, k.APIKey)
		req.Header.Set("X-Test-IP", "203.0.113.5")
		rec := httptest.NewRecorder()
		a.srv.ServeHTTP(rec, req)
		return sanswer{status: rec.Code, body: rec.Body.String(), header: rec.Header()}
	}
	var lk struct{ ListenKey string }
	a.ok(userStream(http.MethodPost, nil), &lk)
	if len(lk.ListenKey) != 64 {
		t.Fatalf("listenKey %q", lk.ListenKey)
	}
	var again struct{ ListenKey string }
	a.ok(userStream(http.MethodPost, nil), &again)
	if again.ListenKey != lk.ListenKey {
		t.Fatalf("a second POST answered %q, not the live %q", again.ListenKey, lk.ListenKey)
	}
	a.ok(userStream(http.MethodPut, vals("listenKey", lk.ListenKey)), nil)
	a.fails(userStream(http.MethodPut, vals("listenKey", strings.Repeat("Z", 64))), 400, CodeBadListenKey, "This listenKey does not exist.")
	a.fails(userStream(http.MethodPut, nil), 400, CodeMandatoryParam, "")

	c := a.dial("/ws/" + lk.ListenKey)
	place := vals("symbol", "BTCUSDT", "side", "SELL", "type", "LIMIT", "timeInForce", "GTC", "quantity", "0.01", "price", "90000")
	var placed orderResult
	a.ok(a.call(http.MethodPost, "/api/v3/order", k, place), &placed)
	nw := nextReport(t, c, "NEW", false)
	if nw.OrderID != placed.OrderID || nw.Symbol != "BTCUSDT" {
		t.Fatalf("NEW on the listen key stream: %+v", nw)
	}
	// Closing the key ends the stream at its next event.
	a.ok(userStream(http.MethodDelete, vals("listenKey", lk.ListenKey)), nil)
	a.ok(a.call(http.MethodPost, "/api/v3/order", k, place), nil)
	c.nextWith(`"e":"listenKeyExpired"`)

	// A key that is not live cannot be streamed.
	resp, err := http.Get(a.http.URL + "/ws/" + lk.ListenKey)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a closed listen key's stream: HTTP %d", resp.StatusCode)
	}
}

// Money that enters or leaves the spot account other than by trading is
// told as balanceUpdate (the records' own parsers, tested with their real
// writers in deposit, withdraw and wallet, say which changes these are).
func TestBalanceUpdateEvents(t *testing.T) {
	a := newAPIEnv(t)
	var got []balanceUpdate
	stop := a.srv.UserData().listen(alice, &userSub{
		deliver: func(ev []byte) bool {
			var b balanceUpdate
			if err := json.Unmarshal(ev, &b); err != nil || b.Event != "balanceUpdate" {
				t.Fatalf("event %s", ev)
			}
			got = append(got, b)
			return true
		},
		valid: func(context.Context) bool { return true },
		ended: func() {},
	})
	defer stop()
	at := int64(1796000000000)
	changes := []store.Change{
		// A deposit credited: +125.5 USDT.
		{Key: store.Key{PK: "DEP#d1", SK: "DEP"}, At: at, Kind: store.ChangeModify,
			Old: store.Item{"id": "d1", "uid": alice, "coin": "USDT", "amount": d("125.5"), "status": "confirming"},
			New: store.Item{"id": "d1", "uid": alice, "coin": "USDT", "amount": d("125.5"), "status": "credited", "credited": at}},
		// The same record written again: nothing.
		{Key: store.Key{PK: "DEP#d1", SK: "DEP"}, At: at + 1, Kind: store.ChangeModify,
			Old: store.Item{"id": "d1", "uid": alice, "coin": "USDT", "amount": d("125.5"), "status": "credited"},
			New: store.Item{"id": "d1", "uid": alice, "coin": "USDT", "amount": d("125.5"), "status": "credited", "confirmations": int64(13)}},
		// A withdrawal settled: −100 USDT.
		{Key: store.Key{PK: "WD#w1", SK: "WD"}, At: at + 2, Kind: store.ChangeModify,
			Old: store.Item{"id": "w1", "uid": alice, "coin": "USDT", "amount": d("100"), "status": "PROCESSING"},
			New: store.Item{"id": "w1", "uid": alice, "coin": "USDT", "amount": d("100"), "status": "SUCCESS"}},
		// Transfers: spot → OTC (−), OTC → spot (+), OTC → futures (not spot: nothing).
		{Key: store.Key{PK: "WALLET#" + alice, SK: "XFER#x1"}, At: at + 3, Kind: store.ChangeInsert,
			New: store.Item{"id": "x1", "coin": "BTC", "amount": "0.5", "from": "spot", "to": "otc", "status": "success"}},
		{Key: store.Key{PK: "WALLET#" + alice, SK: "XFER#x2"}, At: at + 4, Kind: store.ChangeModify,
			Old: store.Item{"id": "x2", "coin": "BTC", "amount": "0.25", "from": "otc", "to": "spot", "status": "pending"},
			New: store.Item{"id": "x2", "coin": "BTC", "amount": "0.25", "from": "otc", "to": "spot", "status": "success"}},
		{Key: store.Key{PK: "WALLET#" + alice, SK: "XFER#x3"}, At: at + 5, Kind: store.ChangeInsert,
			New: store.Item{"id": "x3", "coin": "USDT", "amount": "7", "from": "otc", "to": "futures", "status": "success"}},
		// Bob's deposit: not alice's.
		{Key: store.Key{PK: "DEP#d2", SK: "DEP"}, At: at + 6, Kind: store.ChangeInsert,
			New: store.Item{"id": "d2", "uid": bob, "coin": "USDT", "amount": d("1"), "status": "credited"}},
	}
	for _, ch := range changes {
		a.srv.UserData().Change(context.Background(), ch)
	}
	want := []balanceUpdate{
		{Event: "balanceUpdate", EventTime: at, Asset: "USDT", Delta: "125.50000000", ClearTime: at},
		{Event: "balanceUpdate", EventTime: at + 2, Asset: "USDT", Delta: "-100.00000000", ClearTime: at + 2},
		{Event: "balanceUpdate", EventTime: at + 3, Asset: "BTC", Delta: "-0.50000000", ClearTime: at + 3},
		{Event: "balanceUpdate", EventTime: at + 4, Asset: "BTC", Delta: "0.25000000", ClearTime: at + 4},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("balanceUpdate events\n got %+v\nwant %+v", got, want)
	}
}
