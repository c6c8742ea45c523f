package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tenger/internal/push/hub"
)

// The binance transport warns when the server's limits (exchangeInfo's
// rateLimits) may refuse part of the run.
func TestBenchLimitsWarning(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v3/exchangeInfo" || r.URL.Query().Get("symbol") != "BTCUSDT" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"rateLimits":[{"rateLimitType":"REQUEST_WEIGHT","interval":"MINUTE","intervalNum":1,"limit":6000},` +
			`{"rateLimitType":"ORDERS","interval":"SECOND","intervalNum":10,"limit":100},` +
			`{"rateLimitType":"ORDERS","interval":"DAY","intervalNum":1,"limit":200000}],"symbols":[]}`))
	}))
	defer srv.Close()
	c := &benchClient{base: srv.URL, hc: srv.Client()}
	if w := benchLimitsWarning(context.Background(), c, "btcusdt", 800, 8); w != "" {
		t.Fatalf("800 orders from 8 traders fit: %q", w)
	}
	w := benchLimitsWarning(context.Background(), c, "btcusdt", 8000, 8)
	for _, want := range []string{"8000 orders, 1000 per trader", "6000 request weight per 1 MINUTE", "100 orders per 10 SECOND per trader",
		"--api-weight-limit 1000000 --api-order-limit 1000000"} {
		if !strings.Contains(w, want) {
			t.Fatalf("warning %q lacks %q", w, want)
		}
	}
	if strings.Contains(w, "DAY") {
		t.Fatalf("warning %q names the day limit", w)
	}
	if w := benchLimitsWarning(context.Background(), &benchClient{base: "http://127.0.0.1:1", hc: srv.Client()}, "btcusdt", 8000, 8); w != "" {
		t.Fatalf("no server: %q", w)
	}
}

// TestBenchOverBinanceWSAPI runs `tenger bench --transport binance-ws`
// against a real server: each trader gets an API key, every order.place
// request over /ws-api/v3 (signed with the connection's trader's key,
// several in flight on each connection) is answered and accepted, every
// order is matched and settled (the store shows all of them FILLED), the
// settlement lag is sampled, and the books audit clean with exactly the
// funding bench computed.
func TestBenchOverBinanceWSAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s := startSpotServer(t)
	t.Setenv("TMPDIR", t.TempDir()) // the kept keys of this server only
	// 100 orders a side: a side's orders go to whichever of its
	// connections is free, so one trader may place all of them, and the
	// server takes 100 per 10 seconds from an account.
	rep, err := bench(context.Background(), benchFlags{target: "http://" + s.addr, users: 4, orders: 200, concurrency: 4, inflight: 8,
		transport: "binance-ws", symbol: "btcusdt", price: "50000", qty: "0.0001", timeout: defaultSettleTimeout}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 200 || rep.Rejected != 0 || rep.P99 <= 0 || rep.SettleTime < rep.SendTime || rep.Transport != "binance-ws" || rep.Inflight != 8 {
		t.Fatalf("report %+v", rep)
	}
	if rep.LagSamples == 0 || rep.LagP99 < rep.LagP50 || rep.LagP50 <= 0 {
		t.Errorf("settlement lag not sampled: %+v", rep)
	}
	if runtime.GOOS == "linux" && (rep.ServerPID != s.cmd.Process.Pid || rep.ServerCPU <= 0) {
		t.Errorf("server CPU: pid %d (server %d), %v", rep.ServerPID, s.cmd.Process.Pid, rep.ServerCPU)
	}
	if got := benchFilled(t, newSpotAPI(t, s.addr), 4); got != 200 {
		t.Fatalf("%d orders FILLED in the store, want 200", got)
	}
	var out strings.Builder
	rep.print(&out)
	if !strings.Contains(out.String(), "transport binance-ws: 4 connections to /ws-api/v3?returnRateLimits=false, up to 8 signed order.place requests in flight") {
		t.Fatalf("printed:\n%s", out.String())
	}
	if m := rep.jsonFields(); m["transport"] != "binance-ws" || m["inflight"] != 8 {
		t.Fatalf("JSON fields %v", m)
	}
	s.kill()
	audit := auditClean(t, s)
	for _, want := range []string{
		"BTC      holdings 0.16 = net external inflow 0.16", // 4 traders × 0.04
		"USDT     holdings 8000 = net external inflow 8000",
	} {
		if !strings.Contains(audit, want) {
			t.Fatalf("audit: want %q in\n%s", want, audit)
		}
	}
}

// binanceWSFake is a WebSocket API connection that checks each
// order.place request's signature as the server does (every parameter but
// signature, sorted by name, key=value joined by &) and answers after a
// random delay, so answers come back out of order; answer makes the
// answer of a request with a good signature.
type binanceWSFake struct {
	t      *testing.T
	secret string
	send   func([]byte) bool
	seen   *sync.Map
	answer func(id string) string
}

func (f *binanceWSFake) Frame(_ context.Context, frame []byte) {
	var req struct {
		ID     json.RawMessage
		Method string
		Params map[string]json.RawMessage
	}
	dec := json.NewDecoder(bytes.NewReader(frame))
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil || req.Method != "order.place" {
		f.t.Errorf("frame %s: %v", frame, err)
		return
	}
	var names []string
	vals := map[string]string{}
	for k, raw := range req.Params {
		var v string
		if json.Unmarshal(raw, &v) != nil {
			v = string(raw) // a number, as written
		}
		vals[k] = v
		if k != "signature" {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	var payload []string
	for _, k := range names {
		payload = append(payload, k+"="+vals[k])
	}
	id := string(req.ID)
	if _, dup := f.seen.LoadOrStore(id, true); dup || vals["signature"] != hmacHex(f.secret, strings.Join(payload, "&")) ||
		vals["apiKey"] != "key-1" || vals["side"] != "BUY" || vals["newOrderRespType"] != "ACK" || vals["timestamp"] == "" {
		f.t.Errorf("request %s", frame)
	}
	go func() {
		time.Sleep(time.Duration(rand.IntN(2000)) * time.Microsecond)
		f.send([]byte(f.answer(id)))
	}()
}

func (f *binanceWSFake) Close() {}

// TestBenchBinanceWSLoad runs the WebSocket load loop in Binance's dialect
// against the hub serving a fake WebSocket API: each request is signed
// with the connection's key, answered once and counted by its id; an
// error answer counts as a rejected order with its code and message, as
// the ws transport counts its refusals. Against a server that cannot read
// the requests (answers with id null) the run fails fast instead of
// waiting for answers that never come.
func TestBenchBinanceWSLoad(t *testing.T) {
	var seen sync.Map
	var opened atomic.Int64
	answer := func(id string) string {
		n, _ := strconv.Atoi(id)
		if n%10 == 3 {
			return `{"id":` + id + `,"status":400,"error":{"code":-2010,"msg":"Account has insufficient balance for requested action."}}`
		}
		return `{"id":` + id + `,"status":200,"result":{"symbol":"BTCUSDT","orderId":` + strconv.Itoa(1000+n) +
			`,"orderListId":-1,"clientOrderId":"c` + id + `","transactTime":1}}`
	}
	h := hub.New(hub.Options{})
	mux := http.NewServeMux()
	mux.HandleFunc("/ws-api/v3", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("returnRateLimits") != "false" {
			t.Errorf("connection %s asks for rateLimits", r.URL)
		}
		opened.Add(1)
		h.ServeSession(w, r, func(send func([]byte) bool) hub.Session {
			return &binanceWSFake{t: t, secret: "secret-1", send: send, seen: &seen, answer: answer}
		})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	key := benchKey{APIKey: "key-1", Secret: "secret-1"}
	trader := func(int) wsTrader {
		return wsTrader{token: "tok", params: binanceWSOrder(key, "btcusdt", "BUY", "50000", "0.0001")}
	}
	plan := loadPlan{base: srv.URL, n: 500, conc: 3, inflight: 8, timeout: 10 * time.Second}
	rep, last, err := sendWS(context.Background(), plan, binanceWS, trader)
	if rep.Accepted != 450 || rep.Rejected != 50 || err == nil ||
		!strings.Contains(err.Error(), "order.place: -2010 Account has insufficient balance for requested action.") {
		t.Fatalf("report %+v, first error %v", rep, err)
	}
	if opened.Load() != 3 || last.token != "tok" || rep.P50 <= 0 || rep.Pushed != 0 {
		t.Fatalf("%d connections, last %+v, report %+v", opened.Load(), last, rep)
	}
	if n, err := strconv.Atoi(last.orderID); err != nil || n < 1000 {
		t.Fatalf("last order id %q", last.orderID)
	}

	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeSession(w, r, func(send func([]byte) bool) hub.Session {
			return &binanceWSFake{t: t, secret: "secret-1", send: send, seen: &sync.Map{}, answer: func(string) string {
				return `{"id":null,"status":400,"error":{"code":-1100,"msg":"Invalid request"}}`
			}}
		})
	}))
	defer bad.Close()
	start := time.Now()
	plan.base = bad.URL
	rep, _, err = sendWS(context.Background(), plan, binanceWS, trader)
	if rep.Accepted != 0 || rep.Rejected != 500 || err == nil || !strings.Contains(err.Error(), "Invalid request") || time.Since(start) > 5*time.Second {
		t.Fatalf("against a server that reads no request: %+v, %v after %v", rep, err, time.Since(start))
	}
}

// TestBenchParseBinanceWSAnswer reads the WebSocket API's answers as the
// server writes them, with and without rateLimits.
func TestBenchParseBinanceWSAnswer(t *testing.T) {
	for _, c := range []struct {
		msg         string
		id          int
		code, order string
		ok          bool
	}{
		{`{"id":17,"status":200,"result":{"symbol":"BTCUSDT","orderId":123456,"orderListId":-1,"clientOrderId":"x","transactTime":1}}`, 17, "0", "123456", true},
		{`{"id":2,"status":200,"result":{"symbol":"BTCUSDT","orderId":7,"orderListId":-1},"rateLimits":[{"rateLimitType":"ORDERS","count":1}]}`, 2, "0", "7", true},
		{`{"id":3,"status":400,"error":{"code":-2010,"msg":"Account has insufficient balance for requested action."}}`, 3, "-2010", "", true},
		{`{"id":4,"status":429,"error":{"code":-1015,"msg":"Too many new orders."},"rateLimits":[{"rateLimitType":"ORDERS","count":101}]}`, 4, "-1015", "", true},
		{`{"id":null,"status":400,"error":{"code":-1100,"msg":"Invalid request"}}`, 0, "", "", false},
		{`{"id":"a1","status":200,"result":{}}`, 0, "", "", false},
		{`{"subscriptionId":0,"event":{"e":"executionReport","i":1}}`, 0, "", "", false},
	} {
		id, code, order, ok := parseBinanceWSAnswer([]byte(c.msg))
		if id != c.id || code != c.code || order != c.order || ok != c.ok {
			t.Errorf("%s: %d %q %q %v", c.msg, id, code, order, ok)
		}
	}
	if !binanceWS.fatal([]byte(`{"id":null,"status":400,"error":{"code":-1100,"msg":"x"}}`)) || binanceWS.fatal([]byte(`{"id":1,"status":200,"result":{}}`)) {
		t.Fatal("fatal")
	}
	if got := binanceWS.refusal([]byte(`{"id":3,"status":400,"error":{"code":-2010,"msg":"no funds"}}`)); got != "no funds" {
		t.Fatalf("refusal %q", got)
	}
}
