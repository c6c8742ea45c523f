package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestBenchMatchesAndSettles runs a small `tenger bench` against a real
// server, on a USDT pair (traders funded by chain deposits) and an MNT pair
// (the quote funded by bank transfers): every order is accepted, every
// crossing pair matches and settles, and the books audit clean afterwards
// with exactly the funding bench computed.
func TestBenchMatchesAndSettles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s := &server{t: t, bin: buildBinary(t), data: t.TempDir(), addr: freeAddr(t), extra: []string{"--market-maker=false"}}
	s.start()
	defer s.kill()
	for _, run := range []struct{ symbol, price, qty string }{
		{"btcusdt", "50000", "0.0001"},   // 4 traders × 0.04 BTC, 4 × 2,000 USDT
		{"btcmnt", "150000000", "0.001"}, // 4 traders × 0.4 BTC, 4 × 60,000,000 MNT
	} {
		rep, err := bench(context.Background(), benchFlags{target: "http://" + s.addr, users: 4, orders: 200, concurrency: 8,
			symbol: run.symbol, price: run.price, qty: run.qty, timeout: defaultSettleTimeout}, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", run.symbol, err)
		}
		if rep.Accepted != 200 || rep.Rejected != 0 || rep.P99 <= 0 || rep.SettleTime < rep.SendTime {
			t.Fatalf("%s: report %+v", run.symbol, rep)
		}
	}
	s.kill()
	out, err := exec.Command(s.bin, "audit", "--data", s.data).CombinedOutput()
	for _, want := range []string{
		"BTC      holdings 1.76 = net external inflow 1.76",
		"USDT     holdings 8000 = net external inflow 8000",
		"MNT      holdings 240000000 = net external inflow 240000000",
	} {
		if err != nil || !strings.Contains(string(out), want) {
			t.Fatalf("audit: %v, want %q in\n%s", err, want, out)
		}
	}
}

// TestBenchCeiling runs `tenger bench --ceiling`'s measurement: the binary
// started as the no-op server answers every order call of the same client,
// and its CPU time over the run is read from /proc.
func TestBenchCeiling(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	rep, err := benchCeiling(context.Background(), buildBinary(t), benchFlags{orders: 2000, concurrency: 8,
		symbol: "btcusdt", price: "50000", qty: "0.0001"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 2000 || rep.Rejected != 0 || rep.P50 <= 0 || rep.P99 < rep.P50 || rep.SendTime <= 0 {
		t.Fatalf("report %+v", rep)
	}
	if runtime.GOOS == "linux" && rep.ServerCPU <= 0 {
		t.Fatalf("no server CPU time read: %+v", rep)
	}
	var out strings.Builder
	rep.print(&out)
	if !strings.Contains(out.String(), "2000 order calls answered by a no-op server") || !strings.Contains(out.String(), "µs per call") {
		t.Fatalf("printed:\n%s", out.String())
	}
}

// TestProcessCPU reads this process's CPU time, which a busy loop raises.
func TestProcessCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	before, ok := processCPU(os.Getpid())
	if !ok {
		t.Fatal("no CPU time for this process")
	}
	// Busy until the reading has risen by 20 ms of CPU, within 20 s of wall
	// time: on a loaded machine a fixed 50 ms of wall time may get far less
	// CPU (seen: 10 ms while browsers ran beside the tests).
	after := before
	for end := time.Now().Add(20 * time.Second); after < before+20*time.Millisecond && time.Now().Before(end); {
		for spin := time.Now().Add(10 * time.Millisecond); time.Now().Before(spin); {
		}
		after, _ = processCPU(os.Getpid())
	}
	if after < before+20*time.Millisecond {
		t.Fatalf("CPU time %v then %v after 20 s of busy loops", before, after)
	}
	if _, ok := processCPU(-1); ok {
		t.Fatal("a process that does not exist has a CPU time")
	}
}

// benchFilled counts the FILLED orders of the bench traders 0..users-1
// (signing each in again): what the store shows, not what bench reports.
func benchFilled(t *testing.T, a *spotAPI, users int) int {
	t.Helper()
	n := 0
	for i := range users {
		var login struct{ Token string }
		a.ok("/fe-ex-api/user/login_in", "", map[string]any{"email": benchTraderEmail(i), "loginPword": benchPassword}, &login)
		var list struct{ Count int }
		a.ok("/fe-ex-api/order/entrust_history", login.Token, map[string]any{"symbol": "btcusdt", "status": "FILLED", "pageSize": 1}, &list)
		n += list.Count
	}
	return n
}

// TestBenchOverWebSocket runs `tenger bench --transport ws` against a real
// server: every order.place request over the signed-in sockets (several in
// flight on each) is answered and accepted, the traders' private updates
// arrive on the same sockets, every order is matched and settled (the
// store shows all of them FILLED), the settlement lag is sampled, the
// server's CPU time is read, and the books audit clean with exactly the
// funding bench computed.
func TestBenchOverWebSocket(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s := startSpotServer(t)
	rep, err := bench(context.Background(), benchFlags{target: "http://" + s.addr, users: 4, orders: 400, concurrency: 4, inflight: 8,
		transport: "ws", symbol: "btcusdt", price: "50000", qty: "0.0001", timeout: defaultSettleTimeout}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 400 || rep.Rejected != 0 || rep.P99 <= 0 || rep.SettleTime < rep.SendTime || rep.Transport != "ws" || rep.Inflight != 8 {
		t.Fatalf("report %+v", rep)
	}
	if rep.Pushed == 0 {
		t.Errorf("no private update arrived on the signed-in sockets: %+v", rep)
	}
	if rep.LagSamples == 0 || rep.LagP99 < rep.LagP50 || rep.LagP50 <= 0 {
		t.Errorf("settlement lag not sampled: %+v", rep)
	}
	if runtime.GOOS == "linux" && (rep.ServerPID != s.cmd.Process.Pid || rep.ServerCPU <= 0) {
		t.Errorf("server CPU: pid %d (server %d), %v", rep.ServerPID, s.cmd.Process.Pid, rep.ServerCPU)
	}
	if got := benchFilled(t, newSpotAPI(t, s.addr), 4); got != 400 {
		t.Fatalf("%d orders FILLED in the store, want 400", got)
	}
	var out strings.Builder
	rep.print(&out)
	if !strings.Contains(out.String(), "transport ws: 4 connections, up to 8 requests in flight") {
		t.Fatalf("printed:\n%s", out.String())
	}
	s.kill()
	audit := auditClean(t, s)
	for _, want := range []string{
		"BTC      holdings 0.32 = net external inflow 0.32", // 4 traders × 0.08
		"USDT     holdings 16000 = net external inflow 16000",
	} {
		if !strings.Contains(audit, want) {
			t.Fatalf("audit: want %q in\n%s", want, audit)
		}
	}
}

// TestBenchOverBinanceAPI runs `tenger bench --transport binance` against
// a real server: each trader gets an API key (kept for the next run, which
// makes none), every signed order is accepted, matched and settled, and
// the books audit clean.
func TestBenchOverBinanceAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s := startSpotServer(t)
	t.Setenv("TMPDIR", t.TempDir()) // the kept keys of this server only
	f := benchFlags{target: "http://" + s.addr, users: 4, orders: 200, concurrency: 4, transport: "binance", symbol: "btcusdt",
		price: "50000", qty: "0.0001", timeout: defaultSettleTimeout}
	for run := range 2 {
		rep, err := bench(context.Background(), f, io.Discard)
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if rep.Accepted != 200 || rep.Rejected != 0 || rep.Transport != "binance" || rep.LagSamples == 0 {
			t.Fatalf("run %d: report %+v", run, rep)
		}
	}
	if got := benchFilled(t, newSpotAPI(t, s.addr), 4); got != 400 {
		t.Fatalf("%d orders FILLED in the store, want 400", got)
	}
	// The second run used the first run's keys: one key per trader.
	a := newSpotAPI(t, s.addr)
	var login struct{ Token string }
	a.ok("/fe-ex-api/user/login_in", "", map[string]any{"email": benchTraderEmail(0), "loginPword": benchPassword}, &login)
	var keys struct{ Keys []any }
	a.ok("/fe-ex-api/sub_user/openapi/sub_user_api_list", login.Token, map[string]any{}, &keys)
	if len(keys.Keys) != 1 {
		t.Fatalf("trader 0 has %d keys after two runs, want 1", len(keys.Keys))
	}
	s.kill()
	auditClean(t, s)
}

// TestBenchRate runs `tenger bench --rate` over both transports: orders
// leave at the rate asked for, not as fast as they are answered. The
// tolerances are loose (the machine may be shared): the run cannot end
// before its schedule does, and the rate measured from the sends is
// within a quarter of the one asked for, while a closed loop of the same
// orders goes several times faster.
func TestBenchRate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s := startSpotServer(t)
	for _, c := range []struct {
		transport string
		rate      float64
		orders    int
	}{
		{"ws", 400, 600},
		{"http", 200, 300},
	} {
		f := benchFlags{target: "http://" + s.addr, users: 4, orders: c.orders, concurrency: 8, transport: c.transport, rate: c.rate,
			symbol: "btcusdt", price: "50000", qty: "0.0001", timeout: defaultSettleTimeout}
		rep, err := bench(context.Background(), f, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", c.transport, err)
		}
		schedule := time.Duration(float64(c.orders-1) / c.rate * float64(time.Second))
		if rep.Accepted != c.orders || rep.Rejected != 0 || rep.Rate != c.rate {
			t.Fatalf("%s: report %+v", c.transport, rep)
		}
		if rep.SendTime < schedule {
			t.Errorf("%s at %g/s: %d orders sent in %v, before their schedule (%v) ended", c.transport, c.rate, c.orders, rep.SendTime, schedule)
		}
		if rep.Offered < 0.75*c.rate || rep.Offered > 1.1*c.rate {
			t.Errorf("%s: offered %.0f orders/s, asked for %g", c.transport, rep.Offered, c.rate)
		}
		var out strings.Builder
		rep.print(&out)
		if !strings.Contains(out.String(), fmt.Sprintf("open loop at --rate %g", c.rate)) {
			t.Errorf("%s: printed:\n%s", c.transport, out.String())
		}
	}
}

// TestBenchJSON runs `tenger bench --json` as the command does: the last
// line of its output is one JSON object with the run's figures.
func TestBenchJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s := startSpotServer(t)
	var out bytes.Buffer
	err := runBenchTo([]string{"--target", "http://" + s.addr, "--users", "2", "--orders", "200", "--concurrency", "4",
		"--transport", "ws", "--inflight", "4", "--rate", "1000", "--json"}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) < 5 || !strings.HasPrefix(lines[0], "signing in 2 traders") {
		t.Fatalf("output:\n%s", out.String())
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &doc); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	for _, k := range []string{"accepted_per_s", "settled_per_s", "ack_p50_ms", "ack_p99_ms", "projection_lag_p99_ms", "offered_per_s"} {
		if v, ok := doc[k].(float64); !ok || v <= 0 {
			t.Errorf("%s: %v", k, doc[k])
		}
	}
	if v, ok := doc["server_cpu_us_per_order"].(float64); runtime.GOOS == "linux" && (!ok || v <= 0) {
		t.Errorf("server_cpu_us_per_order: %v", doc["server_cpu_us_per_order"])
	}
	if doc["transport"] != "ws" || doc["rate"] != 1000.0 || doc["orders"] != 200.0 || doc["concurrency"] != 4.0 || doc["accepted"] != 200.0 {
		t.Errorf("run fields: %v", doc)
	}
	if doc["ack_p99_ms"].(float64) < doc["ack_p50_ms"].(float64) {
		t.Errorf("p99 below p50: %v", doc)
	}
}

// TestBenchRepeatedRuns runs `tenger bench` eight times against one server
// within a minute, as a measurement session does: the first run creates
// the traders (eight e-mail codes), the later ones sign in to the same
// traders, send no code and top up only what ran low, so none is refused
// by the sign-up code limits (before, the seventh run's set-up got 10004:
// 50 codes an hour per IP). A trader left with an open order (a run that
// failed) has it cancelled before the next run, which settles.
func TestBenchRepeatedRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s := startSpotServer(t)
	base := "http://" + s.addr
	a := newSpotAPI(t, s.addr)
	for run := range 8 {
		if run == 4 {
			// A resting order that nothing crosses, as a failed run leaves.
			var login struct{ Token string }
			a.ok("/fe-ex-api/user/login_in", "", map[string]any{"email": benchTraderEmail(0), "loginPword": benchPassword}, &login)
			a.ok("/fe-ex-api/order/create", login.Token, map[string]any{"symbol": "btcusdt", "side": "BUY", "type": "LIMIT", "price": "40000", "volume": "0.0002"}, nil)
		}
		transport := []string{"http", "ws"}[run%2]
		rep, err := bench(context.Background(), benchFlags{target: base, users: 8, orders: 40, concurrency: 4, transport: transport,
			symbol: "btcusdt", price: "50000", qty: "0.0001", timeout: time.Minute}, io.Discard)
		if err != nil {
			t.Fatalf("run %d (%s): %v", run+1, transport, err)
		}
		want := 0
		if run == 0 {
			want = 8
		}
		if rep.Accepted != 40 || rep.Created != want {
			t.Fatalf("run %d: accepted %d, created %d traders (want %d)", run+1, rep.Accepted, rep.Created, want)
		}
	}
	// One sign-up code per trader was sent in all.
	resp, err := http.Get(base + "/dev/outbox")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var sent []struct{ To string }
	if err := json.NewDecoder(resp.Body).Decode(&sent); err != nil {
		t.Fatal(err)
	}
	if len(sent) != 8 {
		t.Fatalf("%d codes sent over eight runs, want 8", len(sent))
	}
}

// TestBenchCeilingWS runs `tenger bench --ceiling --transport ws`: the
// binary started as a no-op WebSocket server (tenger serve's hub answering
// every request with a fixed success) answers every order.place request of
// the pipelined sockets, and its CPU time over the run is read.
func TestBenchCeilingWS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	rep, err := benchCeiling(context.Background(), buildBinary(t), benchFlags{orders: 5000, concurrency: 4, inflight: 16, transport: "ws",
		symbol: "btcusdt", price: "50000", qty: "0.0001"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 5000 || rep.Rejected != 0 || rep.P50 <= 0 || rep.P99 < rep.P50 || rep.SendTime <= 0 || rep.Transport != "ws" {
		t.Fatalf("report %+v", rep)
	}
	if runtime.GOOS == "linux" && rep.ServerCPU <= 0 {
		t.Fatalf("no server CPU time read: %+v", rep)
	}
	var out strings.Builder
	rep.print(&out)
	if !strings.Contains(out.String(), "5000 order.place requests answered by a no-op WebSocket server") || !strings.Contains(out.String(), "µs per request") {
		t.Fatalf("printed:\n%s", out.String())
	}
}

// TestBenchFlags: the new flags' values are checked before anything runs.
func TestBenchFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--transport", "tcp"},
		{"--inflight", "0"},
		{"--inflight", "101"},
		{"--rate", "-1"},
		{"--transport", "ws", "--concurrency", "1", "--target", "http://127.0.0.1:1"},
		{"--transport", "binance-ws", "--concurrency", "1", "--target", "http://127.0.0.1:1"},
		{"--transport", "binance-ws", "--inflight", "33", "--target", "http://127.0.0.1:1"},
		{"--transport", "binance-ws", "--ceiling"},
		{"--product", "options"},
		{"--product", "futures", "--transport", "ws", "--target", "http://127.0.0.1:1"},
		{"--product", "futures", "--transport", "binance", "--target", "http://127.0.0.1:1"},
		{"--product", "futures", "--transport", "binance-ws", "--target", "http://127.0.0.1:1"},
		{"--product", "futures", "--ceiling"},
	} {
		if err := runBenchTo(args, io.Discard); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// benchFuturesState is what the store shows of a bench trader's futures
// account: its signed position in BTCUSDT (long positive), its filled
// orders and fills (the latest 1,000), and its closed positions.
type benchFuturesState struct {
	position              int64
	filled, fills, closed int
}

func benchFuturesOf(t *testing.T, a *spotAPI, trader int) benchFuturesState {
	t.Helper()
	var login struct{ Token string }
	a.ok("/fe-ex-api/user/login_in", "", map[string]any{"email": benchTraderEmail(trader), "loginPword": benchPassword}, &login)
	var st benchFuturesState
	var assets futuresAssets
	a.ok("/fe-co-api/position/get_assets_list", login.Token, map[string]any{}, &assets)
	st.position = assets.position("BTCUSDT")
	for page := 1; ; page++ {
		var hist struct {
			Count int
			List  []struct{ Status string } `json:"orderList"`
		}
		a.ok("/fe-co-api/order/history_order_list", login.Token, map[string]any{"symbol": "BTCUSDT", "page": page, "pageSize": 100}, &hist)
		for _, o := range hist.List {
			if o.Status == "FILLED" {
				st.filled++
			}
		}
		if len(hist.List) < 100 {
			break
		}
	}
	var fills, closed struct{ Count int }
	a.ok("/fe-co-api/order/his_trade_list", login.Token, map[string]any{"symbol": "BTCUSDT", "pageSize": 1}, &fills)
	a.ok("/fe-co-api/position/history_position_list", login.Token, map[string]any{"symbol": "BTCUSDT", "pageSize": 1}, &closed)
	st.fills, st.closed = fills.Count, closed.Count
	return st
}

// TestBenchFutures runs `tenger bench --product futures` twice against a
// real server: the traders open their futures accounts and fund them from
// spot, every futures order is accepted and settled (the store shows all
// of them FILLED), the first run opens the positions (traders 0-1 long,
// 2-3 short) and the second, whose halves swap sides, closes them (closed
// positions in the history), and the books audit clean.
func TestBenchFutures(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s := startSpotServer(t)
	a := newSpotAPI(t, s.addr)
	var out bytes.Buffer
	if err := runBenchTo([]string{"--target", "http://" + s.addr, "--product", "futures", "--users", "4", "--orders", "200",
		"--concurrency", "4", "--json"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var doc map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &doc); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	if doc["product"] != "futures" || doc["accepted"] != 200.0 || doc["settled"] != 200.0 || doc["rejected"] != 0.0 {
		t.Fatalf("report: %v\n%s", doc, out.String())
	}
	if v, ok := doc["projection_lag_samples"].(float64); !ok || v <= 0 {
		t.Errorf("no settlement lag sampled: %v", doc)
	}
	if !strings.Contains(out.String(), "product futures: BTCUSDT, orders of 1 contract; traders 0-1 bought at 50025.0, 2-3 sold at 49975.0") {
		t.Errorf("output:\n%s", out.String())
	}
	filled := 0
	for i, want := range []int64{50, 50, -50, -50} { // 100 buys over traders 0-1, 100 sells over 2-3
		st := benchFuturesOf(t, a, i)
		if st.position != want || st.fills == 0 {
			t.Fatalf("trader %d after the first run: %+v, want a position of %d", i, st, want)
		}
		filled += st.filled
	}
	if filled != 200 {
		t.Fatalf("%d futures orders FILLED in the store, want 200", filled)
	}

	// The second run: the long half sells, so every position closes.
	rep, err := bench(context.Background(), benchFlags{target: "http://" + s.addr, product: "futures", users: 4, orders: 200, concurrency: 4,
		symbol: "BTCUSDT", price: "50000", qty: "1", timeout: defaultSettleTimeout}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 200 || rep.Settled != 200 || rep.Rejected != 0 || rep.Futures == nil || rep.Futures.Buyers != "2-3" || rep.SettleTime < rep.SendTime {
		t.Fatalf("second run: %+v (%+v)", rep, rep.Futures)
	}
	filled = 0
	for i := range 4 {
		st := benchFuturesOf(t, a, i)
		if st.position != 0 || st.closed != 1 {
			t.Fatalf("trader %d after the second run: %+v, want flat with one closed position", i, st)
		}
		filled += st.filled
	}
	if filled != 400 {
		t.Fatalf("%d futures orders FILLED in the store, want 400", filled)
	}
	s.kill()
	auditClean(t, s)
}
