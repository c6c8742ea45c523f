package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

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
	"tenger/internal/spot"
	"tenger/internal/store/dynamo"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestHandlerNeedsTheEngine(t *testing.T) {
	if _, err := newHandler(&platform.Deps{}); !errors.Is(err, platform.ErrNoEngine) {
		t.Fatalf("newHandler without the engine = %v", err)
	}
}

// TestTradeFromSampleEvents drives the trade function as API Gateway does,
// with recorded HTTP API v2 events, against the DynamoDB adapter on
// DynamoDB Local and the engine task's endpoint (the engine projecting into
// the same table): a user funded through the engine places a limit buy
// (cookie auth): the engine holds the funds and the table shows the order
// NEW when the call answers; a retry with the same clientOrderId holds
// nothing twice; an order beyond the balance is refused in the call; the
// order is listed; the cancel (header auth) releases the hold and ends the
// order; engine, table and postings agree.
func TestTradeFromSampleEvents(t *testing.T) {
	e := newTradeEnv(t)
	ctx, d, h, profile, box, logs := e.ctx, e.d, e.h, e.profile, e.box, e.logs

	// Sign up and in through the profile function's routers.
	const email = "sample.user@tenger.example"
	if env := fntest.Call(t, profile, fntest.SampleEvent(t, "http_email_code.json", nil), nil); env.Code != "0" {
		t.Fatalf("emailValidCode: %+v", env)
	}
	var reg struct{ UID string }
	fntest.Call(t, profile, fntest.SampleEvent(t, "http_register.json", map[string]string{"code": box.LastCode(email)}), &reg)
	var login struct{ Token string }
	fntest.Call(t, profile, fntest.SampleEvent(t, "http_login.json", nil), &login)
	uid, tok := reg.UID, login.Token
	if uid == "" || tok == "" {
		t.Fatalf("sign-up: uid %q", uid)
	}
	e.fund(t, "deposit:TRC20:tx-trade-fn:0", uid, "TRC20", "USDT", "1000")

	// Place: 0.01 BTC at 50000 holds 500 USDT.
	fill := map[string]string{"token": tok, "price": "50000", "volume": "0.01", "clientOrderId": "fn-sample-1"}
	var created struct {
		OrderID string `json:"order_id"`
	}
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_create.json", fill), &created)
	if created.OrderID == "" {
		t.Fatal("no order id")
	}
	e.expect(t, "after the order", uid, "USDT", "500", "500")
	o, err := d.Spot().GetOrder(ctx, uid, created.OrderID)
	if err != nil || o.Status != spot.StatusNew || o.Symbol != "btcusdt" || !o.Price.Equal(dec("50000")) {
		t.Fatalf("stored order = %+v, %v", o, err)
	}
	// A retry (same clientOrderId) returns the first order and holds nothing more.
	var retried struct {
		OrderID string `json:"order_id"`
	}
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_create.json", fill), &retried)
	if retried.OrderID != created.OrderID {
		t.Errorf("retry made order %s, first %s", retried.OrderID, created.OrderID)
	}
	e.expect(t, "after the retry", uid, "USDT", "500", "500")
	// The engine refuses what the balance cannot cover, in the call.
	big := map[string]string{"token": tok, "price": "50000", "volume": "0.02", "clientOrderId": "fn-sample-2"}
	if _, env := fntest.Do(t, h, fntest.SampleEvent(t, "http_order_create.json", big)); env.Code != apperr.CodeTradeInsufficient {
		t.Fatalf("an order beyond the balance: %+v", env)
	}

	// Open orders (cookie auth).
	var open httpapi.OrderList
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_list_new.json", map[string]string{"token": tok}), &open)
	if open.Count != 1 || len(open.OrderList) != 1 || open.OrderList[0].OrderID != created.OrderID || open.OrderList[0].Status != 1 {
		t.Fatalf("list/new = %+v", open)
	}

	// Someone else's token cannot cancel the order; the owner's can.
	if env := fntest.Call(t, h, fntest.SampleEvent(t, "http_order_cancel.json", map[string]string{"token": "not-a-session", "orderId": created.OrderID}), nil); env.Code == "0" {
		t.Errorf("cancel without a session accepted: %+v", env)
	}
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_cancel.json", map[string]string{"token": tok, "orderId": created.OrderID}), new(json.RawMessage))
	e.waitOrder(t, uid, created.OrderID, "cancelled", func(o spot.Order) bool { return o.Status == spot.StatusCancelled })
	e.expect(t, "after the cancel", uid, "USDT", "1000", "0")
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_list_new.json", map[string]string{"token": tok}), &open)
	if open.Count != 0 {
		t.Errorf("list/new after the cancel = %+v", open)
	}
	e.audit(t, "USDT", "BTC")
	if strings.Contains(logs.String(), tok) {
		t.Error("the session token reached the logs")
	}
}

// tradeEnv is the trade function on DynamoDB Local (a fresh table) with
// the engine task's endpoint, as the Lambda runs it.
type tradeEnv struct {
	ctx     context.Context
	st      *dynamo.Store
	eng     *spot.Runtime
	d       *platform.Deps
	led     *ledger.Ledger
	h       awslambda.HTTPFunc // the trade function
	profile awslambda.HTTPFunc // the profile function (sign-up and sign-in)
	box     *fntest.Recorder
	logs    *syncBuffer
}

func newTradeEnv(t *testing.T) *tradeEnv {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)
	st := fntest.Table(t, "trade-fn")
	e := &tradeEnv{ctx: ctx, st: st, box: &fntest.Recorder{}, logs: &syncBuffer{}}
	e.d = e.deps(t)
	e.eng = fntest.Engine(t, e.d)
	e.led = e.d.Ledger()
	handler, err := newHandler(e.d)
	if err != nil {
		t.Fatal(err)
	}
	e.h = awslambda.NewRuntime("trade", e.logs).HTTP(handler)
	profileMux := http.NewServeMux()
	httpapi.Mount(profileMux, e.d.ProfileArea()...)
	e.profile = awslambda.NewRuntime("profile", e.logs).HTTP(profileMux)
	return e
}

// deps builds the platform's ports over the env's table, reaching the
// engine once it runs; each call is a fresh process (a cold start of
// another function instance).
func (e *tradeEnv) deps(t *testing.T) *platform.Deps {
	t.Helper()
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	d := &platform.Deps{Store: e.st, Notify: e.box, Log: zerolog.New(e.logs), Now: time.Now, Coins: cc,
		Markets: markets.Defaults(), Config: platform.Config{Stage: "test", SecureCookies: true}}
	if e.eng != nil {
		fntest.UseEngine(d)
	}
	return d
}

// syncBuffer is a log sink the handlers and the engine's goroutine share.
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
