package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/functions/fntest"
	"tenger/internal/awslambda"
	"tenger/internal/coins"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/platform"
	qembedded "tenger/internal/queue/embedded"
	"tenger/internal/spot"
	"tenger/internal/store"
	"tenger/internal/store/dynamo"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestHandlerNeedsOrdersQueue(t *testing.T) {
	if _, err := newHandler(&platform.Deps{}); err == nil || !strings.Contains(err.Error(), platform.EnvOrdersQueue) {
		t.Fatalf("newHandler without the orders queue = %v", err)
	}
}

// TestTradeFromSampleEvents drives the trade function as API Gateway does,
// with recorded HTTP API v2 events, against the DynamoDB adapter on
// DynamoDB Local and an embedded orders queue (standing in for SQS FIFO): a
// user funded through the ledger places a limit buy (cookie auth): the
// funds are held, the order is stored NEW with its outbox record and the
// place command is queued under the symbol's group; a retry with the same
// clientOrderId holds nothing twice; the order is listed; the cancel (header
// auth) queues a cancel command, and the engine settling it releases the
// hold and finishes the order.
func TestTradeFromSampleEvents(t *testing.T) {
	e := newTradeEnv(t)
	ctx, st, orders, d, h, profile, box, logs, dir := e.ctx, e.st, e.orders, e.d, e.h, e.profile, e.box, e.logs, e.dir

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

	led := e.led
	acct := ledger.UserAccount(uid, ledger.Spot)
	if _, err := led.Post(ctx, ledger.Posting{ID: "deposit:TRC20:tx-trade-fn:0", Reason: "deposit",
		Legs: []ledger.Leg{ledger.Move(ledger.ChainAccount("TRC20"), acct, "USDT", dec("1000"))}}); err != nil {
		t.Fatal(err)
	}
	expectUSDT := func(stage, avail, frozen string) {
		t.Helper()
		b, err := led.Balance(ctx, acct, "USDT")
		if err != nil {
			t.Fatal(err)
		}
		if !b.Available.Equal(dec(avail)) || !b.Frozen.Equal(dec(frozen)) {
			t.Errorf("%s: USDT available %s frozen %s, want %s and %s", stage, b.Available, b.Frozen, avail, frozen)
		}
	}

	// Place: 0.01 BTC at 50000 holds 500 USDT.
	fill := map[string]string{"token": tok, "price": "50000", "volume": "0.01", "clientOrderId": "fn-sample-1"}
	var created struct {
		OrderID string `json:"order_id"`
	}
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_create.json", fill), &created)
	if created.OrderID == "" {
		t.Fatal("no order id")
	}
	expectUSDT("after the order", "500", "500")
	o, err := d.Spot().GetOrder(ctx, uid, created.OrderID)
	if err != nil || o.Status != spot.StatusNew || o.Symbol != "btcusdt" || !o.Price.Equal(dec("50000")) {
		t.Fatalf("stored order = %+v, %v", o, err)
	}
	outbox, err := st.Query(ctx, store.Query{PK: "SOUT#btcusdt"})
	if err != nil || len(outbox.Items) != 1 || strings.TrimLeft(outbox.Items[0].Str(store.AttrSK), "0") != created.OrderID {
		t.Fatalf("outbox = %v, %v", outbox.Items, err)
	}
	// A retry (same clientOrderId) returns the first order and holds nothing more.
	var retried struct {
		OrderID string `json:"order_id"`
	}
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_create.json", fill), &retried)
	if retried.OrderID != created.OrderID {
		t.Errorf("retry made order %s, first %s", retried.OrderID, created.OrderID)
	}
	expectUSDT("after the retry", "500", "500")
	// The place command is on the orders queue, grouped by symbol; put it back.
	ds, err := orders.Receive(ctx, 10, time.Minute, 0)
	if err != nil || len(ds) != 1 {
		t.Fatalf("orders queue holds %d commands, want 1 (%v)", len(ds), err)
	}
	var cmd matching.Command
	if err := matching.DecodeCommand(ds[0].Body, &cmd); err != nil || cmd.Kind != matching.CmdPlace ||
		fmt.Sprint(cmd.OrderID) != created.OrderID || ds[0].Group != "btcusdt" || ds[0].DedupID != "place:"+created.OrderID {
		t.Fatalf("queued command = %+v (group %s dedup %s), %v", cmd, ds[0].Group, ds[0].DedupID, err)
	}
	if err := orders.ChangeVisibility(ctx, ds[0].ReceiptHandle, 0); err != nil {
		t.Fatal(err)
	}

	// Open orders (cookie auth).
	var open httpapi.OrderList
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_list_new.json", map[string]string{"token": tok}), &open)
	if open.Count != 1 || len(open.OrderList) != 1 || open.OrderList[0].OrderID != created.OrderID || open.OrderList[0].Status != 1 {
		t.Fatalf("list/new = %+v", open)
	}

	// Cancel (header auth) queues a cancel command after the place.
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_cancel.json", map[string]string{"token": tok, "orderId": created.OrderID}), new(json.RawMessage))
	// Someone else's token cannot read the order.
	if env := fntest.Call(t, h, fntest.SampleEvent(t, "http_order_cancel.json", map[string]string{"token": "not-a-session", "orderId": created.OrderID}), nil); env.Code == "0" {
		t.Errorf("cancel without a session accepted: %+v", env)
	}

	// The engine consumes both commands and settles them on the same table.
	eng, err := spot.NewEngine(ctx, spot.EngineOptions{Store: st, Ledger: led, Markets: d.Markets, Orders: orders,
		DataDir: filepath.Join(dir, "engine"), Log: zerolog.New(logs)})
	if err != nil {
		t.Fatal(err)
	}
	eng.Start()
	deadline := time.Now().Add(30 * time.Second)
	for {
		o, err = d.Spot().GetOrder(ctx, uid, created.OrderID)
		if err == nil && o.Status == spot.StatusCancelled {
			break
		}
		if time.Now().After(deadline) {
			_ = eng.Stop()
			t.Fatalf("order not cancelled by the engine: %+v, %v", o, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := eng.Stop(); err != nil {
		t.Fatal(err)
	}
	expectUSDT("after the cancel", "1000", "0")
	fntest.Call(t, h, fntest.SampleEvent(t, "http_order_list_new.json", map[string]string{"token": tok}), &open)
	if open.Count != 0 {
		t.Errorf("list/new after the cancel = %+v", open)
	}
	if outbox, err := st.Query(ctx, store.Query{PK: "SOUT#btcusdt"}); err != nil || len(outbox.Items) != 0 {
		t.Errorf("outbox after settlement = %v, %v", outbox.Items, err)
	}
	rep, err := led.Audit(ctx, "USDT", "BTC")
	if err != nil || !rep.Clean() {
		t.Fatalf("audit: %v %v", rep.Problems, err)
	}
	if strings.Contains(logs.String(), tok) {
		t.Error("the session token reached the logs")
	}
}

// tradeEnv is the trade function on DynamoDB Local (a fresh table) with an
// embedded orders queue standing in for SQS FIFO, as the Lambda runs it.
type tradeEnv struct {
	ctx     context.Context
	st      *dynamo.Store
	orders  *qembedded.Queue
	d       *platform.Deps
	led     *ledger.Ledger
	h       awslambda.HTTPFunc // the trade function
	profile awslambda.HTTPFunc // the profile function (sign-up and sign-in)
	box     *fntest.Recorder
	logs    *syncBuffer
	dir     string
}

func newTradeEnv(t *testing.T) *tradeEnv {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)
	st := fntest.Table(t, "trade-fn")
	dir := t.TempDir()
	qdb, err := qembedded.Open(filepath.Join(dir, "queue"), qembedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = qdb.Close() })
	orders, err := qdb.Queue("orders", qembedded.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := &tradeEnv{ctx: ctx, st: st, orders: orders, box: &fntest.Recorder{}, logs: &syncBuffer{}, dir: dir}
	e.d = e.deps(t)
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

// deps builds the platform's ports over the env's table and queue; each
// call is a fresh process (a cold start of another function instance).
func (e *tradeEnv) deps(t *testing.T) *platform.Deps {
	t.Helper()
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	return &platform.Deps{Store: e.st, Notify: e.box, Orders: e.orders, Log: zerolog.New(e.logs), Now: time.Now, Coins: cc,
		Markets: markets.Defaults(), Config: platform.Config{Stage: "test", SecureCookies: true}}
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
