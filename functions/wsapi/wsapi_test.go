package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
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
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/push/apigw"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// secretKey stands for the auth key secret that seals the API keys'
// secrets (the profile function's and this function's).
var secretKey = bytes.Repeat([]byte{0x5a}, 32)

// deps builds the function's ports over the table as platform.NewAWS
// does: market data read from the table, API keys resolved on every
// request, secrets opened with secretKey, the management API of the
// Binance-compatible WebSocket API at api.
func deps(t *testing.T, st store.Store, api apigw.ManagementAPI, now func() time.Time, cfg platform.Config) *platform.Deps {
	t.Helper()
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Stage, cfg.MarketDataRefresh = "test", platform.ConfigFromEnv().MarketDataRefresh
	d := &platform.Deps{Store: st, Notify: &fntest.Recorder{}, Log: zerolog.Nop(), Now: now, Coins: cc, Markets: markets.Defaults(),
		SecretKey: secretKey, Config: cfg}
	d.BinancePush = apigw.New(st, api, apigw.Options{Namespace: wsapiaws.Namespace, TTL: wsapiaws.TTL, Logger: zerolog.Nop(), Now: now})
	return d
}

func TestHandlerNeedsItsEndpointAndTheEngine(t *testing.T) {
	if _, err := newHandler(&platform.Deps{}); !errors.Is(err, errNoEndpoint) {
		t.Fatalf("without BINANCE_WS_ENDPOINT: %v", err)
	}
	d := &platform.Deps{BinancePush: apigw.New(nil, apigwtest.New(), apigw.Options{Namespace: wsapiaws.Namespace})}
	if _, err := newHandler(d); !errors.Is(err, platform.ErrNoEngine) {
		t.Fatalf("without the engine: %v", err)
	}
}

// signer signs a request's payload as the key's owner does: hex
// HMAC-SHA256 with an HMAC key's secret, base64 Ed25519 with the private
// key of an Ed25519 key.
type signer struct {
	apiKey string
	sign   func(payload string) string
}

func hmacSigner(k apikey.Created) signer {
	return signer{k.APIKey, func(p string) string {
		m := hmac.New(sha256.New, []byte(k.SecretKey))
		m.Write([]byte(p))
		return hex.EncodeToString(m.Sum(nil))
	}}
}

func ed25519Signer(apiKey string, priv ed25519.PrivateKey) signer {
	return signer{apiKey, func(p string) string { return base64.StdEncoding.EncodeToString(ed25519.Sign(priv, []byte(p))) }}
}

// signature signs params as a Binance client does: every parameter but
// signature, sorted by name, as key=value joined by &.
func (s signer) signature(params map[string]any) string {
	names := make([]string, 0, len(params))
	for k := range params {
		if k != "signature" {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = fmt.Sprintf("%s=%v", k, params[k])
	}
	return s.sign(strings.Join(parts, "&"))
}

// sampleFrame reads a recorded $default event, fills its placeholders (and
// {{apiKey}} and a fresh {{timestamp}}), then replaces {{signature}} with
// the signature of the frame's params.
func sampleFrame(t *testing.T, name string, s signer, fill map[string]string) events.APIGatewayWebsocketProxyRequest {
	t.Helper()
	ev := fntest.WebSocketEvent(t, name)
	vals := map[string]string{"apiKey": s.apiKey, "timestamp": strconv.FormatInt(time.Now().UnixMilli(), 10)}
	for k, v := range fill {
		vals[k] = v
	}
	for k, v := range vals {
		ev.Body = strings.ReplaceAll(ev.Body, "{{"+k+"}}", v)
	}
	var f struct {
		Params map[string]any `json:"params"`
	}
	dec := json.NewDecoder(strings.NewReader(ev.Body))
	dec.UseNumber()
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("%s: %q: %v", name, ev.Body, err)
	}
	ev.Body = strings.ReplaceAll(ev.Body, "{{signature}}", s.signature(f.Params))
	if strings.Contains(ev.Body, "{{") {
		t.Fatalf("%s: unfilled placeholder in %s", name, ev.Body)
	}
	return ev
}

// frame is the recorded order.place event carrying another request frame
// on conn: signed by s when it is set (apiKey, a fresh timestamp unless
// params has one, signature).
func frame(t *testing.T, conn, id, method string, params map[string]any, s *signer) events.APIGatewayWebsocketProxyRequest {
	t.Helper()
	ev := fntest.WebSocketEvent(t, "wsapi_default_order_place.json")
	ev.RequestContext.ConnectionID = conn
	p := map[string]any{}
	for k, v := range params {
		p[k] = v
	}
	if s != nil {
		p["apiKey"] = s.apiKey
		if _, ok := p["timestamp"]; !ok {
			p["timestamp"] = time.Now().UnixMilli()
		}
		p["signature"] = s.signature(p)
	}
	f := map[string]any{"id": id, "method": method}
	if len(p) > 0 {
		f["params"] = p
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	ev.Body = string(b)
	return ev
}

// answer is a WebSocket API response frame, with the text it came as.
type answer struct {
	binance.WSAnswer
	raw string
}

func (a answer) ok(t *testing.T, into any) answer {
	t.Helper()
	if a.Status != 200 || a.Error != nil {
		t.Fatalf("%s: want status 200, got %s", a.ID, a.raw)
	}
	if into != nil {
		if err := json.Unmarshal(a.Result, into); err != nil {
			t.Fatalf("%s: %s: %v", a.ID, a.Result, err)
		}
	}
	return a
}

func (a answer) fails(t *testing.T, status, code int) {
	t.Helper()
	if a.Status != status || a.Error == nil || a.Error.Code != code || a.Error.Msg == "" || a.Result != nil {
		t.Fatalf("%s: want status %d code %d, got %s", a.ID, status, code, a.raw)
	}
}

func (a answer) rateLimit(kind string) (limit, count int, ok bool) {
	l, ok := a.RateLimit(kind)
	return l.Limit, l.Count, ok
}

// wsapiEnv is the wsapi function as API Gateway runs it, on DynamoDB
// Local and the engine task's endpoint.
type wsapiEnv struct {
	ctx  context.Context
	st   store.Store
	d    *platform.Deps
	api  *apigwtest.Mgmt
	h    awslambda.WebSocketFunc
	keys *apikey.Service
}

func newEnv(t *testing.T) *wsapiEnv {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)
	e := &wsapiEnv{ctx: ctx, st: fntest.Table(t, "wsapi-fn"), api: apigwtest.New()}
	e.d = deps(t, e.st, e.api, time.Now, platform.Config{})
	fntest.Engine(t, e.d)
	hd, err := newHandler(e.d)
	if err != nil {
		t.Fatal(err)
	}
	e.h = awslambda.NewRuntime("wsapi", io.Discard).WebSocket(hd)
	e.keys = fntest.APIKeys(t, e.st, secretKey)
	return e
}

// event runs an event through the function: API Gateway's status.
func (e *wsapiEnv) event(t *testing.T, ev events.APIGatewayWebsocketProxyRequest) int {
	t.Helper()
	resp, err := e.h(e.ctx, ev)
	if err != nil {
		t.Fatalf("%s: %v", ev.RequestContext.RouteKey, err)
	}
	return resp.StatusCode
}

// send runs a $default event and returns the answer the function posted
// to its connection (exactly one).
func (e *wsapiEnv) send(t *testing.T, ev events.APIGatewayWebsocketProxyRequest) answer {
	t.Helper()
	conn := ev.RequestContext.ConnectionID
	before := len(e.api.PostsTo(conn))
	if status := e.event(t, ev); status != 200 {
		t.Fatalf("$default %s: status %d", ev.Body, status)
	}
	posts := e.api.PostsTo(conn)
	if len(posts) != before+1 {
		t.Fatalf("$default %s: %d answers posted, want 1: %q", ev.Body, len(posts)-before, posts[before:])
	}
	a := answer{raw: posts[before]}
	if err := json.Unmarshal([]byte(a.raw), &a); err != nil {
		t.Fatalf("answer %q: %v", a.raw, err)
	}
	return a
}

// TestBinanceWSAPIFromSampleEvents drives the wsapi function as API
// Gateway does, with the recorded $connect, $default and $disconnect
// events of the Binance-compatible WebSocket API, on DynamoDB Local and
// the engine task's endpoint; every answer goes back with
// PostToConnection. Each frame is its own invocation: what the connection
// remembers between them lives in the table (internal/binance/wsapiaws).
//
// $connect records the connection's state (its address, rateLimits on).
// ping and time answer 200 with the request weight used; account.status,
// signed with an HMAC key made on the same table and auth key, shows the
// deposit; the recorded order.place, signed, places a limit buy the engine
// holds the funds for (ORDERS counts in its rateLimits), and order.status
// reads it back; a wrong signature is -1022. The recorded
// userDataStream.subscribe.signature subscribes, and a later frame's
// session.subscriptions lists it. session.logon with an Ed25519 key
// (HMAC refused, -2015) is remembered: the next frames' account.status
// needs neither apiKey nor signature, userDataStream.subscribe subscribes
// the logged-on key and session.status names it. session.logout (after
// the other subscription was unsubscribed) ends the logon's subscription:
// its answer says no user data stream is left, and unsigned requests are
// refused again. A connection that asked ?returnRateLimits=false gets
// answers without them. $disconnect removes the state and the
// subscription; a frame that still arrives for the connection closes it
// (DeleteConnection) without an answer.
func TestBinanceWSAPIFromSampleEvents(t *testing.T) {
	e := newEnv(t)
	ctx := e.ctx
	const conn, uid = "Cq3xYzWsApI0aB=", "10000001"
	if err := e.d.SpotFunds().Credit(ctx, spotfunds.Move{Ref: "deposit:TRC20:tx-wsapi-fn:0", UID: uid, Coin: "USDT",
		Amount: decimal.RequireFromString("1000"), Other: ledger.ChainAccount("TRC20"), Reason: "deposit"}); err != nil {
		t.Fatal(err)
	}
	hk, err := e.keys.Create(ctx, uid, apikey.Input{Label: "ccxt", Permissions: []string{apikey.PermSpot}, IPs: []string{"198.51.100.0/24"}})
	if err != nil {
		t.Fatal(err)
	}
	bot := hmacSigner(hk)

	// $connect: the state is in the table.
	if status := e.event(t, fntest.WebSocketEvent(t, "wsapi_connect.json")); status != 200 {
		t.Fatalf("$connect: status %d", status)
	}
	c, err := wsapiaws.Open(ctx, e.st, e.d.BinancePush, conn, time.Now)
	if err != nil {
		t.Fatalf("the connection's state: %v", err)
	}
	if state, _ := c.State(ctx); c.IP() != "198.51.100.23" || !state.RateLimits || state.LogonKey != "" || len(state.Subs) != 0 ||
		time.Since(state.Connected) > time.Minute {
		t.Fatalf("state %+v ip %s", state, c.IP())
	}

	// Public requests.
	ping := e.send(t, frame(t, conn, "p1", "ping", nil, nil)).ok(t, nil)
	if limit, count, ok := ping.rateLimit("REQUEST_WEIGHT"); string(ping.Result) != "{}" || string(ping.ID) != `"p1"` || !ok ||
		limit != binance.DefaultWeightLimit || count < 1 {
		t.Fatalf("ping: %s", ping.raw)
	}
	var tm struct{ ServerTime int64 }
	e.send(t, frame(t, conn, "t1", "time", nil, nil)).ok(t, &tm)
	if d := time.Since(time.UnixMilli(tm.ServerTime)); d < -time.Second || d > 10*time.Second {
		t.Fatalf("serverTime %d", tm.ServerTime)
	}

	// Signed with the HMAC key: the account, then the recorded order.
	type accountStatus struct {
		CanTrade bool  `json:"canTrade"`
		UID      int64 `json:"uid"`
		Balances []struct {
			Asset, Free, Locked string
		} `json:"balances"`
	}
	usdt := func(a accountStatus) string {
		for _, b := range a.Balances {
			if b.Asset == "USDT" {
				return b.Free + "/" + b.Locked
			}
		}
		return ""
	}
	var acct accountStatus
	e.send(t, frame(t, conn, "a1", "account.status", nil, &bot)).ok(t, &acct)
	if !acct.CanTrade || strconv.FormatInt(acct.UID, 10) != uid || usdt(acct) != "1000.00000000/0.00000000" {
		t.Fatalf("account.status %+v", acct)
	}
	var placed struct {
		Symbol        string `json:"symbol"`
		OrderID       int64  `json:"orderId"`
		ClientOrderID string `json:"clientOrderId"`
		Status        string `json:"status"`
		Side          string `json:"side"`
	}
	a := e.send(t, sampleFrame(t, "wsapi_default_order_place.json", bot,
		map[string]string{"id": "o1", "price": "50000", "quantity": "0.01", "clientOrderId": "wsapi-fn-1"})).ok(t, &placed)
	if placed.Symbol != "BTCUSDT" || placed.OrderID <= 0 || placed.ClientOrderID != "wsapi-fn-1" || placed.Status != "NEW" || placed.Side != "BUY" {
		t.Fatalf("order.place: %s", a.raw)
	}
	if _, count, ok := a.rateLimit("ORDERS"); !ok || count < 1 {
		t.Errorf("order.place's rateLimits lack the order counts: %s", a.raw)
	}
	o, err := e.d.Spot().GetOrder(ctx, uid, strconv.FormatInt(placed.OrderID, 10))
	if err != nil || o.Status != spot.StatusNew || o.ClientOrderID != "wsapi-fn-1" {
		t.Fatalf("stored order %+v %v", o, err)
	}
	var status struct {
		OrderID int64  `json:"orderId"`
		Status  string `json:"status"`
		OrigQty string `json:"origQty"`
		Price   string `json:"price"`
	}
	e.send(t, frame(t, conn, "o2", "order.status", map[string]any{"symbol": "BTCUSDT", "orderId": placed.OrderID}, &bot)).ok(t, &status)
	if status.OrderID != placed.OrderID || status.Status != "NEW" || status.OrigQty != "0.01000000" || status.Price != "50000.00000000" {
		t.Fatalf("order.status %+v", status)
	}
	// The engine holds the buy's funds (the table may trail its answer).
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		e.send(t, frame(t, conn, "a2", "account.status", nil, &bot)).ok(t, &acct)
		if usdt(acct) == "500.00000000/500.00000000" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("USDT after the buy %s", usdt(acct))
		}
	}
	forged := hmacSigner(apikey.Created{Key: apikey.Key{APIKey: hk.APIKey}, SecretKey: strings.Repeat("x", 64)})
	e.send(t, frame(t, conn, "a3", "account.status", nil, &forged)).fails(t, 400, binance.CodeInvalidSignature)
	e.send(t, frame(t, conn, "o3", "order.place", map[string]any{"symbol": "BTCUSDT", "side": "BUY", "type": "LIMIT",
		"timeInForce": "GTC", "quantity": "0.01", "price": "50000"}, &forged)).fails(t, 400, binance.CodeInvalidSignature)
	if open, err := e.d.Spot().ListOpenOrders(ctx, uid, "btcusdt"); err != nil || len(open) != 1 {
		t.Fatalf("open orders after the forged one: %d %v", len(open), err)
	}

	// The recorded subscription; a later frame lists it.
	var sub struct {
		SubscriptionID *int64 `json:"subscriptionId"`
	}
	e.send(t, sampleFrame(t, "wsapi_default_subscribe.json", bot, map[string]string{"id": "s1"})).ok(t, &sub)
	if sub.SubscriptionID == nil || *sub.SubscriptionID != 0 {
		t.Fatalf("userDataStream.subscribe.signature %+v", sub)
	}
	var subs []struct {
		SubscriptionID int64 `json:"subscriptionId"`
	}
	e.send(t, frame(t, conn, "s2", "session.subscriptions", nil, nil)).ok(t, &subs)
	if len(subs) != 1 || subs[0].SubscriptionID != 0 {
		t.Fatalf("session.subscriptions %+v", subs)
	}
	if s, err := wsapiaws.Subscribers(ctx, e.st, uid, time.Now()); err != nil || len(s) != 1 || s[0].ConnID != conn || s[0].APIKey != hk.APIKey {
		t.Fatalf("the user's subscribers %+v %v", s, err)
	}

	// session.logon: Ed25519 keys only; the next frames run for the key.
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	ek, err := e.keys.Create(ctx, uid, apikey.Input{Label: "ed25519", Permissions: []string{apikey.PermSpot},
		PublicKey: string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))})
	if err != nil {
		t.Fatal(err)
	}
	ed := ed25519Signer(ek.APIKey, priv)
	e.send(t, frame(t, conn, "l0", "session.logon", nil, &bot)).fails(t, 401, binance.CodeRejectedAPIKey)
	var session struct {
		APIKey           *string `json:"apiKey"`
		AuthorizedSince  *int64  `json:"authorizedSince"`
		ReturnRateLimits bool    `json:"returnRateLimits"`
		UserDataStream   bool    `json:"userDataStream"`
	}
	e.send(t, frame(t, conn, "l1", "session.logon", nil, &ed)).ok(t, &session)
	if session.APIKey == nil || *session.APIKey != ek.APIKey || session.AuthorizedSince == nil {
		t.Fatalf("session.logon %+v", session)
	}
	acct = accountStatus{}
	e.send(t, frame(t, conn, "a4", "account.status", map[string]any{"timestamp": time.Now().UnixMilli()}, nil)).ok(t, &acct)
	if strconv.FormatInt(acct.UID, 10) != uid || usdt(acct) != "500.00000000/500.00000000" {
		t.Fatalf("account.status after the logon %+v", acct)
	}
	var logonSub struct {
		SubscriptionID int64 `json:"subscriptionId"`
	}
	e.send(t, frame(t, conn, "s3", "userDataStream.subscribe", nil, nil)).ok(t, &logonSub)
	session.APIKey = nil
	e.send(t, frame(t, conn, "l2", "session.status", nil, nil)).ok(t, &session)
	if session.APIKey == nil || *session.APIKey != ek.APIKey || !session.ReturnRateLimits || !session.UserDataStream || logonSub.SubscriptionID != 1 {
		t.Fatalf("session.status %+v (the logon's subscription %d)", session, logonSub.SubscriptionID)
	}
	e.send(t, frame(t, conn, "s4", "session.subscriptions", nil, nil)).ok(t, &subs)
	if len(subs) != 2 || subs[0].SubscriptionID != 0 || subs[1].SubscriptionID != 1 {
		t.Fatalf("session.subscriptions %+v", subs)
	}
	// Logging out ends the logon's subscription: with the other one
	// unsubscribed, the session has no user data stream left.
	e.send(t, frame(t, conn, "u1", "userDataStream.unsubscribe", map[string]any{"subscriptionId": 0}, nil)).ok(t, nil)
	e.send(t, frame(t, conn, "l3", "session.logout", nil, nil)).ok(t, &session)
	if session.APIKey != nil || session.AuthorizedSince != nil || session.UserDataStream {
		t.Fatalf("session.logout %+v", session)
	}
	e.send(t, frame(t, conn, "s5", "session.subscriptions", nil, nil)).ok(t, &subs)
	if len(subs) != 0 {
		t.Fatalf("session.subscriptions after the logout %+v", subs)
	}
	if s, err := wsapiaws.Subscribers(ctx, e.st, uid, time.Now()); err != nil || len(s) != 0 {
		t.Fatalf("the user's subscribers after the logout %+v %v", s, err)
	}
	a = e.send(t, frame(t, conn, "a5", "account.status", map[string]any{"timestamp": time.Now().UnixMilli()}, nil))
	if a.Status != 401 || a.Error == nil || a.Error.Code != binance.CodeBadAPIKeyFormat {
		t.Fatalf("account.status without a key after the logout: %s", a.raw)
	}
	// Subscribed again (a new id) for $disconnect to end.
	e.send(t, sampleFrame(t, "wsapi_default_subscribe.json", bot, map[string]string{"id": "s6"})).ok(t, &sub)
	if sub.SubscriptionID == nil || *sub.SubscriptionID != 2 {
		t.Fatalf("userDataStream.subscribe.signature again %+v", sub)
	}

	// Another connection, without rateLimits (?returnRateLimits=false).
	const other = "Dr4yZaXtBqJ1cC="
	quiet := fntest.WebSocketEvent(t, "wsapi_connect.json")
	quiet.RequestContext.ConnectionID = other
	quiet.QueryStringParameters = map[string]string{"returnRateLimits": "false"}
	if status := e.event(t, quiet); status != 200 {
		t.Fatalf("$connect ?returnRateLimits=false: status %d", status)
	}
	if a := e.send(t, frame(t, other, "p2", "ping", nil, nil)).ok(t, nil); len(a.RateLimits) != 0 {
		t.Fatalf("ping on a connection without rateLimits: %s", a.raw)
	}
	if a := e.send(t, frame(t, other, "a6", "account.status", nil, &bot)).ok(t, nil); len(a.RateLimits) != 0 {
		t.Fatalf("account.status on a connection without rateLimits: %s", a.raw)
	}

	// $disconnect: the state and the subscription go; a late frame closes
	// the connection.
	if status := e.event(t, fntest.WebSocketEvent(t, "wsapi_disconnect.json")); status != 200 {
		t.Fatalf("$disconnect: status %d", status)
	}
	if _, err := wsapiaws.Open(ctx, e.st, e.d.BinancePush, conn, time.Now); !errors.Is(err, wsapiaws.ErrGone) {
		t.Fatalf("state after $disconnect: %v", err)
	}
	if s, err := wsapiaws.Subscribers(ctx, e.st, uid, time.Now()); err != nil || len(s) != 0 {
		t.Fatalf("subscribers after $disconnect %+v %v", s, err)
	}
	posted := len(e.api.PostsTo(conn))
	if status := e.event(t, frame(t, conn, "p3", "ping", nil, nil)); status != 200 {
		t.Fatalf("a frame after $disconnect: status %d", status)
	}
	if n := len(e.api.PostsTo(conn)); n != posted || len(e.api.Deleted) != 1 || e.api.Deleted[0] != conn {
		t.Fatalf("a frame after $disconnect: %d answers, DeleteConnection %v", n-posted, e.api.Deleted)
	}
	page, err := e.st.Query(ctx, store.Query{PK: e.d.BinancePush.ConnPartition(conn)})
	if err != nil || len(page.Items) != 0 {
		t.Fatalf("the connection's items left %v %v", page.Items, err)
	}
	// The other connection was not touched.
	if _, err := wsapiaws.Open(ctx, e.st, e.d.BinancePush, other, time.Now); err != nil {
		t.Fatalf("the other connection: %v", err)
	}
}

// TestConnectOverTheWeightLimit: opening a connection costs its address
// binance.WSAPIConnectWeight of the Binance-compatible API's request
// weight; past the limit $connect is refused (403) and nothing is
// recorded.
func TestConnectOverTheWeightLimit(t *testing.T) {
	st := fntest.Table(t, "wsapi-limit")
	api := apigwtest.New()
	at := time.Now()
	d := deps(t, st, api, func() time.Time { return at }, platform.Config{APIWeightLimit: binance.WSAPIConnectWeight})
	fntest.UseEngine(d) // never called: $connect places no order
	hd, err := newHandler(d)
	if err != nil {
		t.Fatal(err)
	}
	h := awslambda.NewRuntime("wsapi", io.Discard).WebSocket(hd)
	ctx := context.Background()
	first, second := fntest.WebSocketEvent(t, "wsapi_connect.json"), fntest.WebSocketEvent(t, "wsapi_connect.json")
	second.RequestContext.ConnectionID = "Ez5aAbYuCrK2dD="
	if resp, err := h(ctx, first); err != nil || resp.StatusCode != 200 {
		t.Fatalf("first $connect: %+v %v", resp, err)
	}
	if resp, err := h(ctx, second); err != nil || resp.StatusCode != 403 {
		t.Fatalf("$connect over the limit: %+v %v, want 403", resp, err)
	}
	if _, err := wsapiaws.Open(ctx, st, d.BinancePush, second.RequestContext.ConnectionID, d.Now); !errors.Is(err, wsapiaws.ErrGone) {
		t.Fatalf("the refused connection's state: %v", err)
	}
	if _, err := wsapiaws.Open(ctx, st, d.BinancePush, first.RequestContext.ConnectionID, d.Now); err != nil {
		t.Fatalf("the first connection's state: %v", err)
	}
}
