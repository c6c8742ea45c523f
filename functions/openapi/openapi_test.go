package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/functions/fntest"
	"tenger/internal/apikey"
	"tenger/internal/awslambda"
	"tenger/internal/binance"
	"tenger/internal/coins"
	"tenger/internal/engine/lease"
	"tenger/internal/engine/remote"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
	"tenger/internal/store/dynamo"
)

func TestHandlerNeedsTheEngine(t *testing.T) {
	if _, err := newHandler(&platform.Deps{}); !errors.Is(err, platform.ErrNoEngine) {
		t.Fatalf("newHandler without the engine = %v", err)
	}
}

// TestBinanceAPIFromSampleEvents drives the openapi function as API
// Gateway does, with recorded HTTP API v2 events, against the DynamoDB
// adapter on DynamoDB Local and the engine task's endpoint (the engine
// projecting into the same table and storing market data there, as the
// engine task does). The function and the profile function are separate
// processes (each its own platform.Deps), sharing only the table and the
// auth key, as in AWS.
//
// Public exchangeInfo and depth need no key. A user signs up through the
// profile function and creates two API keys there (with the e-mail code a
// key needs): one bound to the bot's network, one to another network.
// With the first, a signed account read, a limit buy in a base64 form body
// answered with the order (the engine holds the funds; the book and the
// table show it), the open orders and the cancel (signed in the query
// string) work. A wrong signature is -1022 (HTTP 400), an unknown key
// -2015 (401); the second key is -2015 from the bot's address
// (requestContext.http.sourceIp), whatever X-Forwarded-For says, and works
// from its own network. The key's last use shows in the profile function's
// list; deleted there, the key stops at once in the warm openapi function.
func TestBinanceAPIFromSampleEvents(t *testing.T) {
	e := newAPIEnv(t)

	// A function that cannot open API keys' secrets does not start.
	bare := e.deps(t, time.Now, nil)
	fntest.UseEngine(bare)
	if _, err := newHandler(bare); err == nil {
		t.Fatal("newHandler without the key that seals API key secrets started")
	}

	// Public market data.
	a := e.call(t, binanceEvent(t, "http_binance_exchange_info.json", "", "", nil))
	var info struct {
		Timezone string `json:"timezone"`
		Symbols  []struct {
			Symbol, Status, BaseAsset, QuoteAsset string
		} `json:"symbols"`
	}
	a.ok(t, &info)
	if info.Timezone != "UTC" || len(info.Symbols) != 1 || info.Symbols[0].Symbol != "BTCUSDT" || info.Symbols[0].Status != "TRADING" ||
		info.Symbols[0].BaseAsset != "BTC" || info.Symbols[0].QuoteAsset != "USDT" {
		t.Fatalf("exchangeInfo = %s", a.body)
	}
	if a.header("X-Mbx-Used-Weight-1m") == "" {
		t.Errorf("exchangeInfo answer lacks the used weight: %v", a.headers)
	}
	var depth binance.DepthResp
	e.call(t, binanceEvent(t, "http_binance_depth.json", "", "", nil)).ok(t, &depth)
	if len(depth.Bids) != 0 || len(depth.Asks) != 0 {
		t.Fatalf("depth of an empty book = %+v", depth)
	}

	// A web page's preflight is answered by the function (any origin: the
	// key is a header, never a cookie).
	pre := e.call(t, binanceEvent(t, "http_binance_preflight.json", "", "", nil))
	if pre.status != http.StatusNoContent || pre.header("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(pre.header("Access-Control-Allow-Headers"), "X-MBX-APIKEY") {
		t.Fatalf("preflight: %d %v", pre.status, pre.headers)
	}

	// Sign up and in through the profile function.
	const email = "sample.user@tenger.example"
	if env := fntest.Call(t, e.profile, fntest.SampleEvent(t, "http_email_code.json", nil), nil); env.Code != "0" {
		t.Fatalf("emailValidCode: %+v", env)
	}
	var reg struct{ UID string }
	fntest.Call(t, e.profile, fntest.SampleEvent(t, "http_register.json", map[string]string{"code": e.box.LastCode(email)}), &reg)
	var login struct{ Token string }
	fntest.Call(t, e.profile, fntest.SampleEvent(t, "http_login.json", nil), &login)
	uid, tok := reg.UID, login.Token
	if uid == "" || tok == "" {
		t.Fatalf("sign-up: uid %q", uid)
	}
	e.fund(t, "deposit:TRC20:tx-openapi-fn:0", uid, "TRC20", "USDT", "1000")

	// Two keys, each with a fresh e-mail code (operationType 17).
	create := func(label, ips string) apikey.Created {
		t.Helper()
		e.clk.Add(91 * time.Second) // a code may be sent again after 90 s
		fntest.Call(t, e.profile, fntest.SampleEvent(t, "http_wallet_email_code.json", map[string]string{"token": tok}), new(json.RawMessage))
		var c apikey.Created
		fntest.Call(t, e.profile, fntest.SampleEvent(t, "http_openapi_create_open_api.json",
			map[string]string{"token": tok, "label": label, "ips": ips, "code": e.box.LastCode(email)}), &c)
		if len(c.APIKey) != apikey.KeyLen || len(c.SecretKey) != apikey.KeyLen || c.KeyType != apikey.TypeHMAC {
			t.Fatalf("created %+v", c)
		}
		return c
	}
	bot := create("bot", `["198.51.100.0/24"]`)
	other := create("office", `["192.0.2.0/24"]`)

	// The account, signed in the query string.
	acct := e.account(t, bot)
	if !acct.CanTrade || acct.CanWithdraw || acct.AccountType != "SPOT" || acct.UID == 0 || strconv.FormatInt(acct.UID, 10) != uid {
		t.Fatalf("account = %+v", acct)
	}
	e.balance(t, bot, "USDT", "1000", "0")

	// A limit buy in a form body, base64-encoded as API Gateway sends it:
	// 0.01 BTC at 50000 holds 500 USDT.
	a = e.call(t, binanceEvent(t, "http_binance_order_new.json", bot.APIKey, bot.SecretKey,
		map[string]string{"quantity": "0.01", "price": "50000", "clientOrderId": "openapi-fn-1"}))
	var placed struct {
		Symbol        string `json:"symbol"`
		OrderID       int64  `json:"orderId"`
		ClientOrderID string `json:"clientOrderId"`
		Price         string `json:"price"`
		OrigQty       string `json:"origQty"`
		Status        string `json:"status"`
		Type          string `json:"type"`
		Side          string `json:"side"`
		TimeInForce   string `json:"timeInForce"`
		Fills         []any  `json:"fills"`
	}
	a.ok(t, &placed)
	if placed.Symbol != "BTCUSDT" || placed.OrderID <= 0 || placed.ClientOrderID != "openapi-fn-1" || placed.Status != "NEW" ||
		placed.Type != "LIMIT" || placed.Side != "BUY" || placed.TimeInForce != "GTC" || placed.Fills == nil || len(placed.Fills) != 0 {
		t.Fatalf("new order = %s", a.body)
	}
	checkDec(t, "order price", placed.Price, "50000")
	checkDec(t, "order origQty", placed.OrigQty, "0.01")
	orderID := strconv.FormatInt(placed.OrderID, 10)
	o, err := e.d.Spot().GetOrder(e.ctx, uid, orderID)
	if err != nil || o.Status != spot.StatusNew || o.Symbol != "btcusdt" || o.ClientOrderID != "openapi-fn-1" {
		t.Fatalf("stored order = %+v, %v", o, err)
	}
	e.balance(t, bot, "USDT", "500", "500")
	// The engine task stores the book; the function reads it from the table.
	e.waitDepth(t, func(d binance.DepthResp) bool {
		return len(d.Bids) == 1 && decEq(d.Bids[0][0], "50000") && decEq(d.Bids[0][1], "0.01") && len(d.Asks) == 0
	})

	var open []struct {
		Symbol  string `json:"symbol"`
		OrderID int64  `json:"orderId"`
		Status  string `json:"status"`
	}
	e.call(t, binanceEvent(t, "http_binance_open_orders.json", bot.APIKey, bot.SecretKey, nil)).ok(t, &open)
	if len(open) != 1 || open[0].OrderID != placed.OrderID || open[0].Status != "NEW" || open[0].Symbol != "BTCUSDT" {
		t.Fatalf("openOrders = %+v", open)
	}

	// Refused: a wrong signature, an unknown key, another network's key.
	e.call(t, binanceEvent(t, "http_binance_account.json", bot.APIKey, other.SecretKey, nil)).
		fails(t, http.StatusBadRequest, binance.CodeInvalidSignature)
	e.call(t, binanceEvent(t, "http_binance_order_new.json", bot.APIKey, strings.Repeat("x", 64),
		map[string]string{"quantity": "0.01", "price": "50000", "clientOrderId": "openapi-fn-forged"})).
		fails(t, http.StatusBadRequest, binance.CodeInvalidSignature)
	e.call(t, binanceEvent(t, "http_binance_account.json", strings.Repeat("A", 64), bot.SecretKey, nil)).
		fails(t, http.StatusUnauthorized, binance.CodeRejectedAPIKey)
	ev := binanceEvent(t, "http_binance_account.json", other.APIKey, other.SecretKey, nil)
	e.call(t, ev).fails(t, http.StatusUnauthorized, binance.CodeRejectedAPIKey)
	// The address is API Gateway's sourceIp, not a header the client sets.
	ev.Headers["x-forwarded-for"] = "192.0.2.10"
	e.call(t, ev).fails(t, http.StatusUnauthorized, binance.CodeRejectedAPIKey)
	ev = binanceEvent(t, "http_binance_account.json", other.APIKey, other.SecretKey, nil)
	ev.RequestContext.HTTP.SourceIP, ev.Headers["x-forwarded-for"] = "192.0.2.10", "192.0.2.10"
	e.call(t, ev).ok(t, nil)
	if n, err := e.d.Spot().ListOpenOrders(e.ctx, uid, "btcusdt"); err != nil || len(n) != 1 {
		t.Fatalf("open orders after the refused calls: %d, %v", len(n), err)
	}

	// The cancel, signed in the query string, releases the hold.
	a = e.call(t, binanceEvent(t, "http_binance_order_cancel.json", bot.APIKey, bot.SecretKey, map[string]string{"orderId": orderID}))
	var cancelled struct {
		OrderID int64  `json:"orderId"`
		Status  string `json:"status"`
	}
	a.ok(t, &cancelled)
	if cancelled.OrderID != placed.OrderID || cancelled.Status != "CANCELED" {
		t.Fatalf("cancel = %s", a.body)
	}
	e.balance(t, bot, "USDT", "1000", "0")
	e.call(t, binanceEvent(t, "http_binance_open_orders.json", bot.APIKey, bot.SecretKey, nil)).ok(t, &open)
	if len(open) != 0 {
		t.Fatalf("openOrders after the cancel = %+v", open)
	}
	e.call(t, binanceEvent(t, "http_binance_order_cancel.json", bot.APIKey, bot.SecretKey, map[string]string{"orderId": orderID})).
		fails(t, http.StatusBadRequest, binance.CodeCancelRejected)
	e.waitDepth(t, func(d binance.DepthResp) bool { return len(d.Bids) == 0 && len(d.Asks) == 0 })
	e.audit(t, "USDT", "BTC")

	// The profile function lists the keys with their last use (written by
	// the openapi function), and deletes one: it stops at once.
	var list httpapi.APIKeyList
	fntest.Call(t, e.profile, fntest.SampleEvent(t, "http_openapi_sub_user_api_list.json", map[string]string{"token": tok}), &list)
	used := map[string]int64{}
	for _, k := range list.Keys {
		used[k.APIKey] = k.LastUsedAt
	}
	if len(list.Keys) != 2 || used[bot.APIKey] == 0 || used[other.APIKey] == 0 {
		t.Fatalf("key list = %+v", list)
	}
	fntest.Call(t, e.profile, fntest.SampleEvent(t, "http_openapi_delete_open_api.json",
		map[string]string{"token": tok, "apiKey": bot.APIKey}), new(json.RawMessage))
	e.call(t, binanceEvent(t, "http_binance_account.json", bot.APIKey, bot.SecretKey, nil)).
		fails(t, http.StatusUnauthorized, binance.CodeRejectedAPIKey)

	for _, secret := range []string{bot.SecretKey, other.SecretKey, tok} {
		if strings.Contains(e.logs.String(), secret) {
			t.Error("a secret or session token reached the logs")
		}
	}
}

// apiEnv is the openapi function and the profile function on DynamoDB
// Local (a fresh table) with the engine task's endpoint.
type apiEnv struct {
	ctx     context.Context
	st      *dynamo.Store
	eng     *spot.Runtime
	d       *platform.Deps     // the openapi function's
	h       awslambda.HTTPFunc // the openapi function
	profile awslambda.HTTPFunc // the profile function (sign-up, API keys)
	clk     *clock             // the profile function's clock
	box     *fntest.Recorder
	logs    *syncBuffer
}

// authKey stands for the auth key secret both functions read.
var authKey = bytes.Repeat([]byte{0x5a}, 32)

func newAPIEnv(t *testing.T) *apiEnv {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)
	e := &apiEnv{ctx: ctx, st: fntest.Table(t, "openapi-fn"), box: &fntest.Recorder{}, logs: &syncBuffer{}, clk: &clock{t: time.Now()}}
	e.eng = e.startEngine(t)
	e.d = e.deps(t, time.Now, authKey)
	fntest.UseEngine(e.d)
	handler, err := newHandler(e.d)
	if err != nil {
		t.Fatal(err)
	}
	e.h = awslambda.NewRuntime("openapi", e.logs).HTTP(handler)
	pd := e.deps(t, e.clk.Now, authKey)
	profileMux := http.NewServeMux()
	httpapi.Mount(profileMux, pd.ProfileArea()...)
	e.profile = awslambda.NewRuntime("profile", e.logs).HTTP(profileMux)
	return e
}

// deps builds a function's ports over the env's table as platform.NewAWS
// does: market data read from the table (ConfigFromEnv's refresh), API
// keys resolved on every request (no cache), secrets sealed with key.
func (e *apiEnv) deps(t *testing.T, now func() time.Time, key []byte) *platform.Deps {
	t.Helper()
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	return &platform.Deps{Store: e.st, Notify: e.box, Log: zerolog.New(e.logs), Now: now, Coins: cc, Markets: markets.Defaults(),
		SecretKey: key, Config: platform.Config{Stage: "test", SecureCookies: true, MarketDataRefresh: platform.ConfigFromEnv().MarketDataRefresh}}
}

// startEngine runs the engine task as fntest.Engine does, with its market
// data service fed by the engine and storing the book and trades in the
// table, where the functions read them.
func (e *apiEnv) startEngine(t *testing.T) *spot.Runtime {
	t.Helper()
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	log := zerolog.New(e.logs)
	cat := markets.Defaults()
	// The engine task's calls go through its own store (fntest.EngineStore).
	st := fntest.EngineStore(e.st)
	md, err := marketdata.New(e.ctx, marketdata.Options{Store: st, Markets: cat, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	md.Start()
	t.Cleanup(md.Stop)
	rt, err := spot.StartRuntime(context.Background(), spot.RuntimeOptions{Dir: t.TempDir(), Store: st, Coins: cc, Markets: cat,
		Feed: md, Counter: spotfunds.Counter, Log: log, SnapshotEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(remote.Handler(rt, fntest.EngineKey, nil))
	t.Cleanup(func() {
		srv.Close()
		_ = rt.Close()
	})
	l := lease.New(st, platform.EngineLease, "openapi-test", time.Hour, nil)
	l.Advertise(strings.TrimPrefix(srv.URL, "http://"))
	if ok, err := l.TryAcquire(e.ctx); !ok || err != nil {
		t.Fatalf("engine lease: %v %v", ok, err)
	}
	return rt
}

// fund credits a deposit through the engine, as the deposit flow does.
func (e *apiEnv) fund(t *testing.T, ref, uid, chain, coin, amount string) {
	t.Helper()
	if err := e.d.SpotFunds().Credit(e.ctx, spotfunds.Move{Ref: ref, UID: uid, Coin: coin, Amount: decimal.RequireFromString(amount),
		Other: ledger.ChainAccount(chain), Reason: "deposit"}); err != nil {
		t.Fatal(err)
	}
}

type accountInfo struct {
	CanTrade    bool   `json:"canTrade"`
	CanWithdraw bool   `json:"canWithdraw"`
	AccountType string `json:"accountType"`
	UID         int64  `json:"uid"`
	Balances    []struct {
		Asset, Free, Locked string
	} `json:"balances"`
}

func (e *apiEnv) account(t *testing.T, k apikey.Created) accountInfo {
	t.Helper()
	var out accountInfo
	e.call(t, binanceEvent(t, "http_binance_account.json", k.APIKey, k.SecretKey, nil)).ok(t, &out)
	return out
}

// balance waits (the table may trail the engine's answer by the
// projection) until the signed account read shows the balance.
func (e *apiEnv) balance(t *testing.T, k apikey.Created, asset, free, locked string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		acct := e.account(t, k)
		var got string
		for _, b := range acct.Balances {
			if b.Asset == asset {
				got = b.Free + " " + b.Locked
				if decEq(b.Free, free) && decEq(b.Locked, locked) {
					return
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("account %s = %q, want free %s locked %s", asset, got, free, locked)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitDepth reads the public depth until ok accepts it (the engine task
// stores the book every 100 ms; the function reloads a pair older than
// its refresh time).
func (e *apiEnv) waitDepth(t *testing.T, ok func(binance.DepthResp) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var d binance.DepthResp
		e.call(t, binanceEvent(t, "http_binance_depth.json", "", "", nil)).ok(t, &d)
		if ok(d) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("depth = %+v", d)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// audit checks that the engine's balances are the table's and that the
// postings explain them.
func (e *apiEnv) audit(t *testing.T, coins ...string) {
	t.Helper()
	if problems, err := e.eng.Verify(e.ctx); err != nil || len(problems) != 0 {
		t.Fatalf("engine and table disagree: %v %v", problems, err)
	}
	rep, err := e.d.Ledger().Audit(e.ctx, coins...)
	if err != nil || !rep.Clean() {
		t.Fatalf("audit: %v %v", rep.Problems, err)
	}
}

// binanceEvent reads a recorded Binance API event and signs it as a client
// does: the fill and a fresh timestamp go into the query string and the
// body (decoded first when API Gateway base64-encoded it), then
// {{signature}} becomes the HMAC-SHA256 under secret of the query string
// followed by the body, without the signature parameter.
func binanceEvent(t *testing.T, name, apiKey, secret string, fill map[string]string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	ev := fntest.SampleEvent(t, name, map[string]string{"apiKey": apiKey})
	body := ev.Body
	if ev.IsBase64Encoded {
		b, err := base64.StdEncoding.DecodeString(body)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		body = string(b)
	}
	vals := map[string]string{"timestamp": strconv.FormatInt(time.Now().UnixMilli(), 10)}
	maps.Copy(vals, fill)
	replace := func(s string) string {
		for k, v := range vals {
			s = strings.ReplaceAll(s, "{{"+k+"}}", v)
		}
		return s
	}
	query, body := replace(ev.RawQueryString), replace(body)
	const sigParam = "&signature={{signature}}"
	if strings.Contains(query+body, sigParam) {
		m := hmac.New(sha256.New, []byte(secret))
		m.Write([]byte(strings.Replace(query, sigParam, "", 1) + strings.Replace(body, sigParam, "", 1)))
		vals["signature"] = hex.EncodeToString(m.Sum(nil))
		query, body = replace(query), replace(body)
	}
	for k, v := range ev.QueryStringParameters {
		ev.QueryStringParameters[k] = replace(v)
	}
	if strings.Contains(query+body, "{{") {
		t.Fatalf("%s: unfilled placeholder in %q %q", name, query, body)
	}
	ev.RawQueryString, ev.Body = query, body
	if ev.IsBase64Encoded {
		ev.Body = base64.StdEncoding.EncodeToString([]byte(body))
	}
	return ev
}

// answer is a Binance API answer: JSON, an error as {"code", "msg"}.
type answer struct {
	path    string
	status  int
	body    string
	headers map[string]string
}

func (e *apiEnv) call(t *testing.T, ev events.APIGatewayV2HTTPRequest) answer {
	t.Helper()
	ctx := lambdacontext.NewContext(e.ctx, &lambdacontext.LambdaContext{AwsRequestID: "test-" + ev.RequestContext.RequestID})
	resp, err := e.h(ctx, ev)
	if err != nil {
		t.Fatalf("%s: %v", ev.RawPath, err)
	}
	body := resp.Body
	if resp.IsBase64Encoded {
		t.Fatalf("%s: a JSON answer was base64-encoded: %+v", ev.RawPath, resp)
	}
	if resp.StatusCode >= 500 {
		t.Fatalf("%s: HTTP %d %s", ev.RawPath, resp.StatusCode, body)
	}
	return answer{path: ev.RawPath, status: resp.StatusCode, body: body, headers: resp.Headers}
}

func (a answer) header(name string) string { return a.headers[http.CanonicalHeaderKey(name)] }

func (a answer) ok(t *testing.T, into any) {
	t.Helper()
	if a.status != http.StatusOK {
		t.Fatalf("%s: HTTP %d %s", a.path, a.status, a.body)
	}
	if ct := a.header("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s: content type %q", a.path, ct)
	}
	if into != nil {
		if err := json.Unmarshal([]byte(a.body), into); err != nil {
			t.Fatalf("%s: %s: %v", a.path, a.body, err)
		}
	}
}

func (a answer) fails(t *testing.T, status, code int) {
	t.Helper()
	var got struct {
		Code int    `json:"code"`
		Msg  string `json:"msg"`
	}
	_ = json.Unmarshal([]byte(a.body), &got)
	if a.status != status || got.Code != code || got.Msg == "" {
		t.Fatalf("%s: want HTTP %d code %d, got HTTP %d %s", a.path, status, code, a.status, a.body)
	}
}

func decEq(got, want string) bool {
	d, err := decimal.NewFromString(got)
	return err == nil && d.Equal(decimal.RequireFromString(want))
}

func checkDec(t *testing.T, what, got, want string) {
	t.Helper()
	if !decEq(got, want) {
		t.Errorf("%s = %q, want %s", what, got, want)
	}
}

// clock is a settable clock (the profile function's: codes may be sent
// again only after a while).
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// syncBuffer is a log sink the handlers and the engine's goroutines share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
