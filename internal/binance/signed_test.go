package binance

import (
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
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apikey"
	"tenger/internal/auth"
	"tenger/internal/coins"
	"tenger/internal/engine"
	"tenger/internal/engine/journal"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
	"tenger/internal/store/embedded"
)

// noCodes is an accounts service whose users have no second factor, so
// keys are made without codes.
type noCodes struct{}

func (noCodes) User(_ context.Context, uid string) (auth.User, error) { return auth.User{ID: uid}, nil }
func (noCodes) VerifyAll(context.Context, string, ...auth.Factor) error {
	return nil
}

// projected answers every command once the store shows it.
type projected struct{ *spot.Runtime }

func (p projected) Submit(ctx context.Context, c engine.Command) engine.Result {
	res, _ := p.SubmitProjected(ctx, c)
	return res
}

type signedEnv struct {
	t     *testing.T
	srv   *Server
	st    *embedded.Store
	keys  *apikey.Service
	now   time.Time
	funds *fakeFunds
}

const (
	alice = "10000001" // 1 BTC
	bob   = "10000002" // 10,000 USDT
)

// newSignedEnv serves the signed endpoints on the engine that owns the
// spot balances (spot.Runtime) over an embedded store.
func newSignedEnv(t *testing.T) *signedEnv {
	t.Helper()
	return newSignedEnvWith(t, nil)
}

// newSignedEnvWith is newSignedEnv with opt changing the server's options
// (when not nil) before the server is built.
func newSignedEnvWith(t *testing.T, opt func(*Options)) *signedEnv {
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
	cat := markets.Defaults()
	rt, err := spot.StartRuntime(context.Background(), spot.RuntimeOptions{Dir: dir + "/engine", Policy: journal.NoFsync, Store: st,
		Coins: cc, Markets: cat, Counter: spotfunds.Counter, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Close() })
	svc := spot.New(spot.Options{Store: st, Markets: cat, Engine: projected{rt}, Log: zerolog.Nop()})
	funds := spotfunds.Engine{Submit: rt, Decimals: rt.Decimals}
	for uid, amt := range map[string][2]string{alice: {"BTC", "1"}, bob: {"USDT", "10000"}} {
		if err := funds.Credit(context.Background(), spotfunds.Move{Ref: "dep:" + uid, UID: uid, Coin: amt[0],
			Amount: decimal.RequireFromString(amt[1]), Other: ledger.ChainAccount("T"), Reason: "deposit"}); err != nil {
			t.Fatal(err)
		}
	}
	sealer, err := auth.NewSealer([]byte(strings.Repeat("k", 32)), "tenger-apikey-v1")
	if err != nil {
		t.Fatal(err)
	}
	e := &signedEnv{t: t, now: time.Now(), st: st}
	e.keys = apikey.New(apikey.Options{Store: st, Auth: noCodes{}, Sealer: sealer, Log: zerolog.Nop(), CacheTTL: time.Minute})
	md, err := marketdata.New(context.Background(), marketdata.Options{Store: st, Markets: cat, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	e.funds = &fakeFunds{}
	o := Options{Markets: cat, Coins: cc, Data: md, Log: zerolog.Nop(), Keys: e.keys, Trading: svc,
		Balances: ledger.New(st, nil), ClientIP: func(r *http.Request) string { return r.Header.Get("X-Test-IP") },
		Deposits: e.funds, Withdrawals: fakeWithdrawals{e.funds}, ListenKeys: e.keys}
	if opt != nil {
		opt(&o)
	}
	e.srv = New(o)
	return e
}

// key makes a key for uid.
func (e *signedEnv) key(uid string, perms []string, ips ...string) apikey.Created {
	e.t.Helper()
	c, err := e.keys.Create(context.Background(), uid, apikey.Input{Label: "t", Permissions: perms, IPs: ips})
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

type sanswer struct {
	status int
	body   string
	header http.Header
}

func (a sanswer) code() int {
	var e struct {
		Code int `json:"code"`
	}
	_ = json.Unmarshal([]byte(a.body), &e)
	return e.Code
}

// call sends a request signed with the key's secret: params in the query
// string for GET and DELETE, in the body for POST (as CCXT sends them).
func (e *signedEnv) call(method, path string, k apikey.Created, params url.Values, mod ...func(*http.Request, *string)) sanswer {
	e.t.Helper()
	if params == nil {
		params = url.Values{}
	}
	if !params.Has("timestamp") {
		params.Set("timestamp", strconv.FormatInt(time.Now().UnixMilli(), 10))
	}
	payload := params.Encode()
	sig := signHMAC(k.SecretKey, payload)
	signed := payload + "&signature=" + sig
	for _, m := range mod {
		m(nil, &signed)
	}
	var req *http.Request
	if method == http.MethodPost {
		req = httptest.NewRequest(method, path, strings.NewReader(signed))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		req = httptest.NewRequest(method, path+"?"+signed, nil)
	}
	req.Header.Set(HeaderAPIKey, k.APIKey)
	req.Header.Set("X-Test-IP", "203.0.113.5")
	for _, m := range mod {
		m(req, nil)
	}
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	if rec.Code >= 500 {
		e.t.Fatalf("%s %s: HTTP %d %s", method, path, rec.Code, rec.Body.String())
	}
	return sanswer{status: rec.Code, body: rec.Body.String(), header: rec.Header()}
}

func signHMAC(secret, payload string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(payload))
	return hex.EncodeToString(m.Sum(nil))
}

func (e *signedEnv) ok(a sanswer, into any) {
	e.t.Helper()
	if a.status != http.StatusOK {
		e.t.Fatalf("HTTP %d %s", a.status, a.body)
	}
	if into != nil {
		if err := json.Unmarshal([]byte(a.body), into); err != nil {
			e.t.Fatalf("%s: %v", a.body, err)
		}
	}
}

func (e *signedEnv) fails(a sanswer, status, code int, msg string) {
	e.t.Helper()
	var got struct {
		Code int    `json:"code"`
		Msg  string `json:"msg"`
	}
	_ = json.Unmarshal([]byte(a.body), &got)
	if a.status != status || got.Code != code || msg != "" && got.Msg != msg {
		e.t.Fatalf("want HTTP %d %d %q, got HTTP %d %s", status, code, msg, a.status, a.body)
	}
}

func vals(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

func withIP(ip string) func(*http.Request, *string) {
	return func(r *http.Request, _ *string) {
		if r != nil {
			r.Header.Set("X-Test-IP", ip)
		}
	}
}

func TestSignedRequestChecks(t *testing.T) {
	e := newSignedEnv(t)
	k := e.key(alice, []string{"spot"})
	e.ok(e.call(http.MethodGet, "/api/v3/account", k, nil), nil)

	noKey := apikey.Created{Key: apikey.Key{APIKey: ""}, SecretKey: k.SecretKey}
	e.fails(e.call(http.MethodGet, "/api/v3/account", noKey, nil), 401, CodeBadAPIKeyFormat, "API-key format invalid.")
	unknown := apikey.Created{Key: apikey.Key{APIKey: strings.Repeat("A", 64)}, SecretKey: k.SecretKey}
	e.fails(e.call(http.MethodGet, "/api/v3/account", unknown, nil), 401, CodeRejectedAPIKey, "Invalid API-key, IP, or permissions for action.")
	wrong := apikey.Created{Key: k.Key, SecretKey: strings.Repeat("x", 64)}
	e.fails(e.call(http.MethodGet, "/api/v3/account", wrong, nil), 400, CodeInvalidSignature, "Signature for this request is not valid.")
	// The signature covers every parameter: one changed after signing fails.
	e.fails(e.call(http.MethodGet, "/api/v3/account", k, vals("omitZeroBalances", "true"), func(_ *http.Request, s *string) {
		if s != nil {
			*s = strings.Replace(*s, "omitZeroBalances=true", "omitZeroBalances=false", 1)
		}
	}), 400, CodeInvalidSignature, "")
	old := strconv.FormatInt(time.Now().Add(-6*time.Second).UnixMilli(), 10)
	e.fails(e.call(http.MethodGet, "/api/v3/account", k, vals("timestamp", old)), 400, CodeInvalidTimestamp,
		"Timestamp for this request is outside of the recvWindow.")
	e.ok(e.call(http.MethodGet, "/api/v3/account", k, vals("timestamp", old, "recvWindow", "10000")), nil)
	ahead := strconv.FormatInt(time.Now().Add(3*time.Second).UnixMilli(), 10)
	e.fails(e.call(http.MethodGet, "/api/v3/account", k, vals("timestamp", ahead)), 400, CodeInvalidTimestamp,
		"Timestamp for this request was 1000ms ahead of the server's time.")
	e.fails(e.call(http.MethodGet, "/api/v3/account", k, vals("recvWindow", "60001")), 400, CodeBadRecvWindow, "")
	e.fails(e.call(http.MethodGet, "/api/v3/account", k, vals("timestamp", "")), 400, CodeMandatoryParam, "")
	e.fails(e.call(http.MethodGet, "/api/v3/account", k, nil, func(_ *http.Request, s *string) {
		if s != nil {
			*s = (*s)[:strings.Index(*s, "&signature=")]
		}
	}), 400, CodeMandatoryParam, "Mandatory parameter 'signature' was not sent, was empty/null, or malformed.")

	// A read-only key reads but does not trade.
	ro := e.key(alice, nil)
	e.ok(e.call(http.MethodGet, "/api/v3/openOrders", ro, nil), nil)
	e.fails(e.call(http.MethodPost, "/api/v3/order", ro, vals("symbol", "BTCUSDT", "side", "SELL", "type", "LIMIT",
		"timeInForce", "GTC", "price", "30000", "quantity", "0.1")), 401, CodeRejectedAPIKey, "")

	// A deleted key stops at once.
	if err := e.keys.Delete(context.Background(), alice, ro.APIKey); err != nil {
		t.Fatal(err)
	}
	e.fails(e.call(http.MethodGet, "/api/v3/openOrders", ro, nil), 401, CodeRejectedAPIKey, "")
}

func TestIPRestrictedKeys(t *testing.T) {
	e := newSignedEnv(t)
	k := e.key(alice, []string{"spot"}, "203.0.113.5", "198.51.100.0/24", "2001:db8::/32")
	for ip, allowed := range map[string]bool{
		"203.0.113.5": true, "203.0.113.6": false, "198.51.100.77": true, "198.51.99.1": false,
		"2001:db8:5::1": true, "2001:db9::1": false, "::ffff:203.0.113.5": true,
	} {
		a := e.call(http.MethodGet, "/api/v3/account", k, nil, withIP(ip))
		if allowed {
			e.ok(a, nil)
		} else {
			e.fails(a, 401, CodeRejectedAPIKey, "")
		}
	}
}

func TestEd25519SignedRequest(t *testing.T) {
	e := newSignedEnv(t)
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	der, _ := x509.MarshalPKIXPublicKey(pub)
	c, err := e.keys.Create(context.Background(), alice, apikey.Input{Label: "ed", Permissions: []string{"spot"},
		PublicKey: string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))})
	if err != nil {
		t.Fatal(err)
	}
	payload := "timestamp=" + strconv.FormatInt(time.Now().UnixMilli(), 10)
	sig := base64.StdEncoding.EncodeToString(ed25519.Sign(priv, []byte(payload)))
	for _, tc := range []struct {
		sig    string
		status int
	}{{url.QueryEscape(sig), 200}, {url.QueryEscape(base64.StdEncoding.EncodeToString(make([]byte, 64))), 400}} {
		req := httptest.NewRequest(http.MethodGet, "/api/v3/account?"+payload+"&signature="+tc.sig, nil)
		req.Header.Set(HeaderAPIKey, c.APIKey)
		rec := httptest.NewRecorder()
		e.srv.ServeHTTP(rec, req)
		if rec.Code != tc.status {
			t.Fatalf("Ed25519 signature: HTTP %d %s", rec.Code, rec.Body.String())
		}
	}
}

type orderAnswer struct {
	Symbol        string `json:"symbol"`
	OrderID       int64  `json:"orderId"`
	ClientOrderID string `json:"clientOrderId"`
	Status        string `json:"status"`
	Type          string `json:"type"`
	TimeInForce   string `json:"timeInForce"`
	ExecutedQty   string `json:"executedQty"`
	CumQuote      string `json:"cummulativeQuoteQty"`
	Price         string `json:"price"`
	Fills         []struct {
		Price, Qty, Commission, CommissionAsset string
		TradeID                                 int64
	} `json:"fills"`
}

func TestOrderLifecycle(t *testing.T) {
	e := newSignedEnv(t)
	ka, kb := e.key(alice, []string{"spot"}), e.key(bob, []string{"spot"})
	order := func(k apikey.Created, kv ...string) sanswer {
		return e.call(http.MethodPost, "/api/v3/order", k, vals(kv...))
	}

	// Alice offers 0.2 BTC at 30,000, with her own client id.
	var sell orderAnswer
	e.ok(order(ka, "symbol", "BTCUSDT", "side", "SELL", "type", "LIMIT", "timeInForce", "GTC", "price", "30000",
		"quantity", "0.2", "newClientOrderId", "my-sell-1"), &sell)
	if sell.Status != "NEW" || sell.ClientOrderID != "my-sell-1" || sell.Price != "30000.00000000" || sell.Fills == nil {
		t.Fatalf("sell %+v", sell)
	}
	// The same request again finds the same order; other parameters under the id are a duplicate.
	var again orderAnswer
	e.ok(order(ka, "symbol", "BTCUSDT", "side", "SELL", "type", "LIMIT", "timeInForce", "GTC", "price", "30000",
		"quantity", "0.2", "newClientOrderId", "my-sell-1"), &again)
	if again.OrderID != sell.OrderID {
		t.Fatalf("retry placed another order: %d vs %d", again.OrderID, sell.OrderID)
	}
	e.fails(order(ka, "symbol", "BTCUSDT", "side", "SELL", "type", "LIMIT", "timeInForce", "GTC", "price", "31000",
		"quantity", "0.2", "newClientOrderId", "my-sell-1"), 400, CodeNewOrderRejected, "Duplicate order sent.")

	// Bad orders get Binance's codes.
	e.fails(order(kb, "symbol", "BTCUSDT", "side", "BUY", "type", "LIMIT", "price", "30000", "quantity", "0.1"), 400, CodeMandatoryParam,
		"Mandatory parameter 'timeInForce' was not sent, was empty/null, or malformed.")
	e.fails(order(kb, "symbol", "BTCUSDT", "side", "BUY", "type", "LIMIT", "timeInForce", "GTC", "price", "30000.001", "quantity", "0.1"),
		400, CodeFilterFailure, "Filter failure: PRICE_FILTER")
	e.fails(order(kb, "symbol", "BTCUSDT", "side", "BUY", "type", "LIMIT", "timeInForce", "GTC", "price", "30000", "quantity", "5"),
		400, CodeNewOrderRejected, "Account has insufficient balance for requested action.")
	e.fails(order(kb, "symbol", "BTCUSDT", "side", "BUY", "type", "LIMIT_MAKER", "price", "30000", "quantity", "0.01"),
		400, CodeNewOrderRejected, "Order would immediately match and take.")
	e.fails(order(kb, "symbol", "BTCUSDT", "side", "BUY", "type", "TAKE_PROFIT_LIMIT", "timeInForce", "GTC", "price", "1",
		"stopPrice", "1", "quantity", "1"), 400, CodeUnsupportedCombo, "Unsupported order combination.")
	e.fails(order(kb, "symbol", "BTCUSDT", "side", "UP", "type", "LIMIT", "timeInForce", "GTC", "price", "1", "quantity", "1"),
		400, CodeInvalidSide, "Invalid side.")
	e.fails(order(kb, "symbol", "BTCUSDT", "side", "BUY", "type", "SOMETHING", "quantity", "1"), 400, CodeInvalidOrderType, "Invalid orderType.")
	e.fails(order(kb, "symbol", "ETHBTCX", "side", "BUY", "type", "MARKET", "quantity", "1"), 400, CodeBadSymbol, "Invalid symbol.")
	e.fails(order(kb, "symbol", "BTCUSDT", "side", "BUY", "type", "MARKET", "quantity", "1", "quoteOrderQty", "1"), 400, CodeOptionalParamsBadCombo, "")
	e.fails(order(kb, "symbol", "BTCUSDT", "side", "BUY", "type", "MARKET", "quantity", "0.1", "foo", "1"), 400, CodeUnreadParameters, "")

	// Bob buys 3,000 USDT worth at market: filled against Alice's offer, with fills.
	var buy orderAnswer
	e.ok(order(kb, "symbol", "BTCUSDT", "side", "BUY", "type", "MARKET", "quoteOrderQty", "3000"), &buy)
	if buy.Status != "FILLED" || buy.ExecutedQty != "0.10000000" || buy.CumQuote != "3000.00000000" || len(buy.Fills) != 1 ||
		buy.Fills[0].Price != "30000.00000000" || buy.Fills[0].CommissionAsset != "BTC" || buy.Type != "MARKET" ||
		!strings.HasPrefix(buy.ClientOrderID, "tg-") {
		t.Fatalf("market buy %+v", buy)
	}

	// Alice's order is half filled: by id and by client id.
	var q orderAnswer
	e.ok(e.call(http.MethodGet, "/api/v3/order", ka, vals("symbol", "BTCUSDT", "orderId", strconv.FormatInt(sell.OrderID, 10))), &q)
	if q.Status != "PARTIALLY_FILLED" || q.ExecutedQty != "0.10000000" {
		t.Fatalf("query %+v", q)
	}
	e.ok(e.call(http.MethodGet, "/api/v3/order", ka, vals("symbol", "BTCUSDT", "origClientOrderId", "my-sell-1")), &q)
	if q.OrderID != sell.OrderID {
		t.Fatalf("by client id %+v", q)
	}
	// Bob cannot see it.
	e.fails(e.call(http.MethodGet, "/api/v3/order", kb, vals("symbol", "BTCUSDT", "orderId", strconv.FormatInt(sell.OrderID, 10))),
		400, CodeNoSuchOrder, "Order does not exist.")
	e.fails(e.call(http.MethodDelete, "/api/v3/order", kb, vals("symbol", "BTCUSDT", "orderId", strconv.FormatInt(sell.OrderID, 10))),
		400, CodeCancelRejected, "Unknown order sent.")

	var open []orderAnswer
	e.ok(e.call(http.MethodGet, "/api/v3/openOrders", ka, vals("symbol", "BTCUSDT")), &open)
	if len(open) != 1 || open[0].OrderID != sell.OrderID {
		t.Fatalf("open orders %+v", open)
	}

	var trades []struct {
		ID       int64  `json:"id"`
		OrderID  int64  `json:"orderId"`
		Price    string `json:"price"`
		Qty      string `json:"qty"`
		QuoteQty string `json:"quoteQty"`
		IsBuyer  bool   `json:"isBuyer"`
		IsMaker  bool   `json:"isMaker"`
	}
	e.ok(e.call(http.MethodGet, "/api/v3/myTrades", ka, vals("symbol", "BTCUSDT")), &trades)
	if len(trades) != 1 || trades[0].OrderID != sell.OrderID || trades[0].IsBuyer || !trades[0].IsMaker || trades[0].QuoteQty != "3000.00000000" {
		t.Fatalf("alice's trades %+v", trades)
	}
	e.ok(e.call(http.MethodGet, "/api/v3/myTrades", kb, vals("symbol", "BTCUSDT", "orderId", strconv.FormatInt(buy.OrderID, 10))), &trades)
	if len(trades) != 1 || !trades[0].IsBuyer || trades[0].IsMaker {
		t.Fatalf("bob's trades %+v", trades)
	}

	var cancelled orderAnswer
	e.ok(e.call(http.MethodDelete, "/api/v3/order", ka, vals("symbol", "BTCUSDT", "origClientOrderId", "my-sell-1")), &cancelled)
	if cancelled.Status != "CANCELED" || cancelled.ExecutedQty != "0.10000000" {
		t.Fatalf("cancel %+v", cancelled)
	}
	e.fails(e.call(http.MethodDelete, "/api/v3/order", ka, vals("symbol", "BTCUSDT", "origClientOrderId", "my-sell-1")),
		400, CodeCancelRejected, "Unknown order sent.")
	e.fails(e.call(http.MethodGet, "/api/v3/order", ka, vals("symbol", "BTCUSDT", "orderId", "999999")), 400, CodeNoSuchOrder, "")

	var all []orderAnswer
	e.ok(e.call(http.MethodGet, "/api/v3/allOrders", ka, vals("symbol", "BTCUSDT")), &all)
	if len(all) != 1 || all[0].Status != "CANCELED" {
		t.Fatalf("all orders %+v", all)
	}

	var acct struct {
		CanTrade bool `json:"canTrade"`
		Balances []struct{ Asset, Free, Locked string }
	}
	e.ok(e.call(http.MethodGet, "/api/v3/account", ka, vals("omitZeroBalances", "true")), &acct)
	got := map[string]string{}
	for _, b := range acct.Balances {
		got[b.Asset] = b.Free + "/" + b.Locked
	}
	// Alice sold 0.1 BTC for 3,000 USDT less the maker fee.
	if !acct.CanTrade || got["BTC"] != "0.90000000/0.00000000" || !strings.HasPrefix(got["USDT"], "299") || len(got) != 2 {
		t.Fatalf("account %+v", acct)
	}

	// DELETE openOrders with none open is Binance's -2011.
	e.fails(e.call(http.MethodDelete, "/api/v3/openOrders", ka, vals("symbol", "BTCUSDT")), 400, CodeCancelRejected, "")
}

func TestCapitalConfigAndMarginPairs(t *testing.T) {
	e := newSignedEnv(t)
	k := e.key(bob, nil)
	var cfg []struct {
		Coin        string `json:"coin"`
		Free        string `json:"free"`
		NetworkList []struct {
			Network        string `json:"network"`
			WithdrawEnable bool   `json:"withdrawEnable"`
		} `json:"networkList"`
	}
	e.ok(e.call(http.MethodGet, "/sapi/v1/capital/config/getall", k, nil), &cfg)
	var usdt bool
	for _, c := range cfg {
		if c.Coin == "USDT" {
			usdt = c.Free == "10000.00000000" && len(c.NetworkList) > 0
		}
	}
	if !usdt {
		t.Fatalf("config %+v", cfg)
	}
	for _, p := range []string{"/sapi/v1/margin/allPairs", "/sapi/v1/margin/isolated/allPairs"} {
		if a := e.call(http.MethodGet, p, k, nil); a.status != 200 || a.body != "[]" {
			t.Fatalf("%s: %d %s", p, a.status, a.body)
		}
	}
}

func TestPrefixesAreAPIPaths(t *testing.T) {
	for _, p := range prefixes {
		if !httpapi.IsAPIPath(p + "x") {
			t.Errorf("%s is not an API path for the web app's handler", p)
		}
	}
}

func TestRoutesAreListedForTheDocument(t *testing.T) {
	e := newSignedEnv(t)
	seen := map[string]RouteInfo{}
	for _, r := range e.srv.Routes() {
		seen[r.Method+" "+r.Path] = r
	}
	for _, want := range []string{"GET /api/v3/depth", "POST /api/v3/order", "DELETE /api/v3/openOrders", "POST /sapi/v1/capital/withdraw/apply",
		"GET /fapi/v1/exchangeInfo"} {
		if _, ok := seen[want]; !ok {
			t.Errorf("%s is not listed", want)
		}
	}
	order := seen["POST /api/v3/order"]
	if d := order.Describe(); !strings.Contains(d, "security TRADE") || !strings.Contains(d, "newClientOrderId") || !strings.Contains(d, "signature") {
		t.Errorf("POST /api/v3/order: %s", d)
	}
}

// The web app's Open API page lists the endpoints by hand
// (frontend/src/features/info/lib/open-api-reference.ts): every one must be
// served, and every endpoint served must be listed, with its weight.
func TestOpenAPIPageListsTheServedEndpoints(t *testing.T) {
	e := newSignedEnv(t)
	src, err := os.ReadFile("../../frontend/src/features/info/lib/open-api-reference.ts")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for _, m := range regexp.MustCompile(`method: '(\w+)', path: '([^']+)', access: '\w+', weight: '([^']+)'`).FindAllStringSubmatch(string(src), -1) {
		listed[m[1]+" "+m[2]] = m[3]
	}
	served := map[string]RouteInfo{}
	for _, r := range e.srv.Routes() {
		served[r.Method+" "+r.Path] = r
	}
	for k := range listed {
		if _, ok := served[k]; !ok {
			t.Errorf("the page lists %s, which is not served", k)
		}
	}
	for k, r := range served {
		w, ok := listed[k]
		if !ok {
			if !strings.HasSuffix(k, "/ping") && !strings.HasSuffix(k, "/time") && !strings.HasPrefix(k, "GET /sapi/v1/system") {
				t.Errorf("%s is served but not on the page", k)
			}
			continue
		}
		if first := strings.SplitN(w, "–", 2)[0]; first != strconv.Itoa(r.Weight) {
			t.Errorf("%s: the page gives weight %s, the server %d", k, w, r.Weight)
		}
	}
}
