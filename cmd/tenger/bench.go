package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/push"
)

// defaultSettleTimeout bounds the wait for matching and settlement.
const defaultSettleTimeout = 5 * time.Minute

// stalledAfter ends the wait for settlement of a run with failed orders
// once no order has settled for that long.
const stalledAfter = 5 * time.Second

// defaultUsers is --users' default: with the ws transport each trader's
// connections receive all of its private updates, and the hub drops a
// connection that has 256 messages waiting (a slow consumer), so the
// updates of one engine batch must be spread over more traders. The
// binance-ws connections subscribe to no user data, so 8 do.
func defaultUsers(transport string) int {
	if transport == "ws" {
		return 32
	}
	return 8
}

// benchFlags configure `tenger bench`.
type benchFlags struct {
	target      string
	users       int
	orders      int
	concurrency int
	symbol      string
	price       string
	qty         string
	timeout     time.Duration
	ceiling     bool
	noopServer  string
	// transport is "http" (the default when empty), "ws", "binance" or
	// "binance-ws".
	transport string
	// rate is the offered orders a second over all connections (open
	// loop); 0 sends each order as soon as a connection may (closed loop).
	rate float64
	// inflight bounds the WebSocket requests in flight per connection
	// (ws and binance-ws; 0: defaultInflight).
	inflight int
	// json prints the report as one JSON object on the last line.
	json bool
	// serverPID is the server process whose CPU time is read (0: the
	// process listening on the target's port, when it is on this host).
	serverPID int
	// product is "spot" (the default when empty) or "futures": crossing
	// limit orders of a perpetual contract (bench_futures.go).
	product string
}

// futures reports a run of futures orders.
func (f benchFlags) futures() bool { return f.product == "futures" }

// ws reports a WebSocket transport: connections that each trade as one
// trader, with requests pipelined on them.
func (f benchFlags) ws() bool { return f.transport == "ws" || f.transport == "binance-ws" }

// binance reports a transport of the Binance-compatible API: orders
// signed with the traders' API keys.
func (f benchFlags) binance() bool { return f.transport == "binance" || f.transport == "binance-ws" }

// runBench is the end-to-end load generator: against a running
// `tenger serve --dev` (best with --market-maker=false) it signs in (and,
// the first time, creates) funded traders through the dev simulators, then
// sends crossing limit orders from many connections, over HTTP keep-alive
// or over WebSockets with many requests in flight (--transport), as fast as
// they are answered or at a fixed offered rate (--rate), and reports orders
// accepted per second, the acknowledgement latency percentiles, how long it
// took until every order was matched and settled, the lag from an order's
// acknowledgement until the store shows it settled, and the server's CPU
// time per order.
func runBench(args []string) error { return runBenchTo(args, os.Stdout) }

func runBenchTo(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var f benchFlags
	fs.StringVar(&f.target, "target", "http://127.0.0.1:8080", "base URL of a tenger serve started with --dev")
	fs.IntVar(&f.users, "users", 0, "traders (pairs of buyers and sellers), the same accounts in every run against a server (default 8; 32 with --transport ws)")
	fs.IntVar(&f.orders, "orders", 20000, "orders to send")
	fs.IntVar(&f.concurrency, "concurrency", 64, "parallel keep-alive connections (or WebSockets)")
	fs.StringVar(&f.symbol, "symbol", "btcusdt", "pair to trade (with --product futures: the contract, default BTCUSDT)")
	fs.StringVar(&f.price, "price", "50000", "price of every order (buys and sells cross at it; with --product futures the contract's index is set to it and buys bid 0.05% above it, sells ask 0.05% below)")
	fs.StringVar(&f.qty, "qty", "0.0001", "quantity of every order (with --product futures: whole contracts, default 1)")
	fs.StringVar(&f.product, "product", "spot", "spot: limit orders of a spot pair (/fe-ex-api/order/create); futures: limit orders of a perpetual contract (/fe-co-api/order/order_create) from the traders' futures accounts, funded from spot (http transport only)")
	fs.DurationVar(&f.timeout, "settle-timeout", defaultSettleTimeout, "how long to wait for matching and settlement")
	fs.BoolVar(&f.ceiling, "ceiling", false, "measure the load generator's ceiling on this machine: the same order calls against a server that only answers them (no --target needed)")
	fs.StringVar(&f.noopServer, "noop-server", "", "serve the no-op endpoint --ceiling measures against on this address and print it (--ceiling starts it itself)")
	fs.StringVar(&f.transport, "transport", "http", "http: order/create calls over keep-alive connections; ws: order.place requests over signed-in /ws connections, pipelined; binance: signed POST /api/v3/order calls with API keys (HMAC-SHA256), over keep-alive connections; binance-ws: signed order.place requests of Binance's WebSocket API (/ws-api/v3) with API keys, pipelined")
	fs.Float64Var(&f.rate, "rate", 0, "offered orders per second over all connections, scheduled at fixed intervals (latency counts from each order's scheduled time); 0: as fast as answered")
	fs.IntVar(&f.inflight, "inflight", defaultInflight, fmt.Sprintf("ws, binance-ws: requests in flight per connection (at most the server's bound: %d on ws, %d on binance-ws)", push.MaxInFlight, binanceWSMaxInFlight))
	fs.BoolVar(&f.json, "json", false, "also print the figures as one JSON object on the last line")
	fs.IntVar(&f.serverPID, "server-pid", 0, "the server process to read CPU time from (default: the process listening on --target's port, when local)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch f.product {
	case "spot":
	case "futures":
		if f.transport != "http" {
			return fmt.Errorf("bench: --product futures sends its orders over --transport http only (/fe-co-api has no WebSocket or Binance-compatible order entry), not %q", f.transport)
		}
		if f.ceiling {
			return errors.New("bench: --ceiling measures a transport against a no-op server: it has no --product")
		}
		if !set["symbol"] {
			f.symbol = defaultFuturesSymbol
		}
		if !set["qty"] {
			f.qty = "1"
		}
	default:
		return fmt.Errorf("bench: --product is spot or futures, not %q", f.product)
	}
	if f.transport != "http" && !f.ws() && !f.binance() {
		return fmt.Errorf("bench: --transport is http, ws, binance or binance-ws, not %q", f.transport)
	}
	if f.inflight < 1 || f.inflight > push.MaxInFlight {
		return fmt.Errorf("bench: --inflight must be 1 to %d", push.MaxInFlight)
	}
	if f.transport == "binance-ws" && f.inflight > binanceWSMaxInFlight {
		return fmt.Errorf("bench: --inflight must be 1 to %d with --transport binance-ws (the server runs at most %d requests of a connection at once)",
			binanceWSMaxInFlight, binanceWSMaxInFlight)
	}
	if f.rate < 0 {
		return errors.New("bench: --rate must be ≥ 0")
	}
	if f.noopServer != "" {
		return runNoopServer(f.noopServer, f.transport, out)
	}
	if f.users == 0 {
		f.users = defaultUsers(f.transport)
	}
	if f.users < 2 || f.users%2 != 0 || f.orders < 2 || f.concurrency < 1 {
		return errors.New("bench: users must be an even number ≥ 2, orders ≥ 2, concurrency ≥ 1")
	}
	if f.ceiling {
		if f.binance() {
			return errors.New("bench: --ceiling measures the http and ws transports (a no-op server does not check signatures)")
		}
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		rep, err := benchCeiling(context.Background(), exe, f)
		if err != nil {
			return err
		}
		rep.print(out)
		if f.json {
			return printJSON(out, rep.jsonFields())
		}
		return nil
	}
	if f.ws() && f.concurrency < 2 {
		return fmt.Errorf("bench: --transport %s needs --concurrency ≥ 2 (a connection trades as one trader: buyers and sellers need their own)", f.transport)
	}
	rep, err := bench(context.Background(), f, out)
	if err != nil {
		return err
	}
	rep.print(out)
	if f.json {
		return printJSON(out, rep.jsonFields())
	}
	return nil
}

// printJSON prints v as one line.
func printJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

type benchReport struct {
	Sent, Accepted, Rejected int
	// SendTime is from the first order sent (or due) to the last one
	// acknowledged; SettleTime from the first order sent until no order is
	// open any more (every order matched and its trades and end settled)
	// and the last acknowledged order reads as filled.
	SendTime, SettleTime time.Duration
	P50, P99, P999, Max  time.Duration

	// What was run: the transport, the offered rate asked for (0: closed
	// loop), the connections and (ws) the requests in flight on each.
	Transport             string
	Rate                  float64
	Concurrency, Inflight int
	// Offered is the rate at which orders were sent, from the first send
	// to the last.
	Offered float64
	// Pushed counts the other messages the WebSockets received: the
	// traders' private updates (user_orders, user_balances).
	Pushed int64
	// LagP50 and LagP99 are the settlement lag of LagSamples sampled
	// orders: from the order's acknowledgement until /order/detail shows it
	// FILLED (bench_lag.go).
	LagP50, LagP99 time.Duration
	LagSamples     int
	// ServerPID is the server process whose CPU time ServerCPU is, over
	// the run from the first order until settled (0: not known); BenchCPU
	// is this process's over the same time.
	ServerPID           int
	ServerCPU, BenchCPU time.Duration
	// Created is how many traders this run signed up.
	Created int
	// Product is "spot" or "futures"; Settled counts the accepted orders
	// seen settled when the wait ended (all of them, or the wait fails).
	Product string
	Settled int
	// Futures is what a futures run traded (bench_futures.go).
	Futures *futuresRun
}

// AcceptedPerSec is the rate at which orders were acknowledged.
func (r benchReport) AcceptedPerSec() float64 { return float64(r.Accepted) / r.SendTime.Seconds() }

// SettledPerSec is the rate at which orders were matched and settled, over
// the whole run (the engine works while orders are still being sent).
func (r benchReport) SettledPerSec() float64 { return float64(r.Accepted) / r.SettleTime.Seconds() }

// perOrder is d per accepted order in µs.
func (r benchReport) perOrder(d time.Duration) float64 {
	if r.Accepted == 0 {
		return 0
	}
	return float64(d.Nanoseconds()) / 1000 / float64(r.Accepted)
}

func (r benchReport) print(w io.Writer) {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
	fmt.Fprintf(w, "orders sent %d, accepted %d, rejected %d\n", r.Sent, r.Accepted, r.Rejected)
	fmt.Fprintf(w, "accepted:            %8.0f orders/s  (all acknowledged in %s)\n", r.AcceptedPerSec(), r.SendTime.Round(time.Millisecond))
	fmt.Fprintf(w, "matched and settled: %8.0f orders/s  (all settled %s after the first order, %s after the last acknowledgement)\n",
		r.SettledPerSec(), r.SettleTime.Round(time.Millisecond), (r.SettleTime - r.SendTime).Round(time.Millisecond))
	fmt.Fprintf(w, "acknowledgement latency: p50 %s, p99 %s, p99.9 %s, max %s\n", ms(r.P50), ms(r.P99), ms(r.P999), ms(r.Max))
	r.printMore(w)
}

// printMore prints what was added to the report after its first four
// lines.
func (r benchReport) printMore(w io.Writer) {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
	if r.Futures != nil {
		r.Futures.print(w)
	}
	switch r.Transport {
	case "ws":
		fmt.Fprintf(w, "transport ws: %d connections, up to %d requests in flight on each; %d private updates received (%.1f per order)\n",
			r.Concurrency, r.Inflight, r.Pushed, float64(r.Pushed)/float64(max(r.Sent, 1)))
	case "binance-ws":
		fmt.Fprintf(w, "transport binance-ws: %d connections to %s, up to %d signed order.place requests in flight on each\n",
			r.Concurrency, binanceWSPath, r.Inflight)
	}
	if r.Rate > 0 {
		fmt.Fprintf(w, "offered:             %8.0f orders/s  (open loop at --rate %g; latency counts from each order's scheduled time)\n", r.Offered, r.Rate)
		if r.Offered < 0.9*r.Rate {
			fmt.Fprintf(w, "  the connections could not send at the rate asked for: every one was waiting for answers (raise --concurrency or --inflight)\n")
		}
	}
	if r.LagSamples > 0 {
		fmt.Fprintf(w, "settlement lag (acknowledgement until the store shows the order filled, %d sampled orders): p50 %s, p99 %s\n",
			r.LagSamples, ms(r.LagP50), ms(r.LagP99))
	}
	if r.ServerPID > 0 {
		fmt.Fprintf(w, "server CPU: %.1f µs per order (pid %d); load generator CPU: %.1f µs per order\n",
			r.perOrder(r.ServerCPU), r.ServerPID, r.perOrder(r.BenchCPU))
	} else if r.BenchCPU > 0 {
		fmt.Fprintf(w, "server CPU: not known (not a local process: give --server-pid); load generator CPU: %.1f µs per order\n", r.perOrder(r.BenchCPU))
	}
}

// jsonFields is the report as --json prints it; server_cpu_us_per_order
// is null when the server's CPU time is not known.
func (r benchReport) jsonFields() map[string]any {
	ms := func(d time.Duration) float64 { return math.Round(float64(d.Microseconds())) / 1000 }
	round := func(x float64) float64 { return math.Round(x*10) / 10 }
	m := map[string]any{
		"product": r.Product, "transport": r.Transport, "rate": r.Rate, "orders": r.Sent, "concurrency": r.Concurrency,
		"accepted": r.Accepted, "rejected": r.Rejected, "settled": r.Settled,
		"offered_per_s": round(r.Offered), "accepted_per_s": round(r.AcceptedPerSec()), "settled_per_s": round(r.SettledPerSec()),
		"ack_p50_ms": ms(r.P50), "ack_p99_ms": ms(r.P99), "ack_p999_ms": ms(r.P999), "ack_max_ms": ms(r.Max),
		"projection_lag_p50_ms": ms(r.LagP50), "projection_lag_p99_ms": ms(r.LagP99), "projection_lag_samples": r.LagSamples,
		"server_cpu_us_per_order": nil, "bench_cpu_us_per_order": round(r.perOrder(r.BenchCPU)),
		"traders_created": r.Created,
	}
	if r.Transport == "ws" || r.Transport == "binance-ws" {
		m["inflight"] = r.Inflight
	}
	if r.Transport == "ws" {
		m["pushed_per_order"] = round(float64(r.Pushed) / float64(max(r.Sent, 1)))
	}
	if r.ServerPID > 0 {
		m["server_cpu_us_per_order"] = round(r.perOrder(r.ServerCPU))
	}
	return m
}

// benchAnswer is an API answer with its data left raw.
type benchAnswer struct {
	Code string          `json:"code"`
	Msg  string          `json:"msg"`
	Data json.RawMessage `json:"data"`
	// OrderID is data.order_id of a success the load loop did not decode.
	OrderID string `json:"-"`
}

// benchClient is a keep-alive JSON client.
type benchClient struct {
	base string
	hc   *http.Client
}

// do sends one call and returns the answer with its HTTP status; transport
// and decoding failures are errors. A []byte body is sent as it is (the
// load loop encodes its orders once).
func (c *benchClient) do(ctx context.Context, path, token string, body any) (benchAnswer, int, error) {
	b, ok := body.([]byte)
	if !ok {
		b, _ = json.Marshal(body)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(b))
	if err != nil {
		return benchAnswer{}, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("exchange-client", "bench")
	if token != "" {
		req.Header.Set("exchange-token", token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return benchAnswer{}, 0, err
	}
	defer func() {
		// Read to the end, or the connection is not kept alive.
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}()
	var env benchAnswer
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return benchAnswer{}, resp.StatusCode, fmt.Errorf("%s: HTTP %d: %w", path, resp.StatusCode, err)
	}
	return env, resp.StatusCode, nil
}

func (c *benchClient) call(ctx context.Context, path, token string, body any) (benchAnswer, error) {
	env, _, err := c.do(ctx, path, token, body)
	return env, err
}

func (c *benchClient) ok(ctx context.Context, path, token string, body any, out any) error {
	env, err := c.call(ctx, path, token, body)
	if err != nil {
		return err
	}
	if env.Code != "0" {
		return fmt.Errorf("%s: code %s: %s", path, env.Code, env.Msg)
	}
	if out != nil {
		return json.Unmarshal(env.Data, out)
	}
	return nil
}

// lastCode reads the newest code sent to an address from the dev outbox.
func (c *benchClient) lastCode(ctx context.Context, to string) (string, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/dev/outbox?to="+to, nil)
	resp, err := c.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var entries []struct{ To, Code string }
	if err := json.NewDecoder(resp.Body).Decode(&entries); err != nil {
		return "", fmt.Errorf("dev outbox (is the server running with --dev?): %w", err)
	}
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].To == to {
			return entries[i].Code, nil
		}
	}
	return "", fmt.Errorf("no code for %s in the dev outbox", to)
}

// benchPair is the traded pair's two coins, read from the public market list.
type benchPair struct{ base, quote string }

func benchPairOf(ctx context.Context, c *benchClient, symbol string) (benchPair, error) {
	var doc struct {
		Market map[string]map[string]struct{ Symbol, Base, Quote string }
	}
	if err := c.ok(ctx, "/fe-ex-api/common/public_info_market", "", map[string]any{}, &doc); err != nil {
		return benchPair{}, err
	}
	for _, group := range doc.Market {
		for _, p := range group {
			if strings.EqualFold(p.Symbol, symbol) {
				return benchPair{base: p.Base, quote: p.Quote}, nil
			}
		}
	}
	return benchPair{}, fmt.Errorf("pair %q is not in the market list", symbol)
}

// benchFunding is what each trader receives: enough of both coins for every
// order of the run to be a buy (quote) or a sell (base), twice over.
func benchFunding(f benchFlags) (base, quote decimal.Decimal, err error) {
	price, err := decimal.NewFromString(f.price)
	if err != nil || !price.IsPositive() {
		return base, quote, fmt.Errorf("bad --price %q", f.price)
	}
	qty, err := decimal.NewFromString(f.qty)
	if err != nil || !qty.IsPositive() {
		return base, quote, fmt.Errorf("bad --qty %q", f.qty)
	}
	n := decimal.NewFromInt(int64(2 * f.orders))
	return qty.Mul(n), price.Mul(qty).Mul(n).Ceil(), nil
}

// benchAsset is a coin of the deposit asset list.
type benchAsset struct {
	Code   string
	IsFiat bool
	Chains []struct{ Name string }
}

// benchUser signs a new user up and in and funds it with the pair's coins
// through the simulators: a crypto coin by a chain deposit on its first
// deposit chain, the fiat by an incoming bank transfer referenced with the
// user id.
func benchUser(ctx context.Context, c *benchClient, email string, funds map[string]decimal.Decimal) (string, error) {
	token, err := benchSignUp(ctx, c, email)
	if err != nil {
		return "", err
	}
	var assets struct{ List []benchAsset }
	if err := c.ok(ctx, "/fe-ex-api/wallet/recharge_list", token, map[string]any{}, &assets); err != nil {
		return "", err
	}
	for coin, amount := range funds {
		if err := benchDeposit(ctx, c, token, assets.List, coin, amount, "bench-"+email); err != nil {
			return "", err
		}
	}
	return token, nil
}

// credited reports whether a balance shows the whole funding.
func credited(normal string, want decimal.Decimal) bool {
	d, err := decimal.NewFromString(normal)
	return err == nil && d.GreaterThanOrEqual(want)
}

func bench(ctx context.Context, f benchFlags, progress io.Writer) (benchReport, error) {
	if f.transport == "" {
		f.transport = "http"
	}
	if f.product == "" {
		f.product = "spot"
	}
	if f.inflight <= 0 {
		f.inflight = defaultInflight
	}
	if f.users == 0 {
		f.users = defaultUsers(f.transport)
	}
	tr := &http.Transport{MaxIdleConns: f.concurrency * 2, MaxIdleConnsPerHost: f.concurrency * 2, IdleConnTimeout: time.Minute}
	c := &benchClient{base: strings.TrimRight(f.target, "/"), hc: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
	if f.futures() {
		return benchFutures(ctx, c, f, progress)
	}
	run := time.Now().UnixNano()
	pair, err := benchPairOf(ctx, c, f.symbol)
	if err != nil {
		return benchReport{}, fmt.Errorf("bench: %w", err)
	}
	baseAmt, quoteAmt, err := benchFunding(f)
	if err != nil {
		return benchReport{}, fmt.Errorf("bench: %w", err)
	}
	funds := map[string]decimal.Decimal{pair.base: baseAmt, pair.quote: quoteAmt}
	fmt.Fprintf(progress, "signing in %d traders (%s to %s, created when missing), each topped up to %s %s and %s %s...\n",
		f.users, benchTraderEmail(0), benchTraderEmail(f.users-1), baseAmt, pair.base, quoteAmt, pair.quote)
	tokens, created, err := benchTraders(ctx, c, f.users, f.symbol, funds, strconv.FormatInt(run, 10))
	if err != nil {
		return benchReport{}, fmt.Errorf("bench: set-up: %w", err)
	}
	if created > 0 {
		fmt.Fprintf(progress, "created %d traders\n", created)
	}
	var keys []benchKey
	if f.binance() {
		if keys, err = benchKeys(ctx, c, tokens); err != nil {
			return benchReport{}, fmt.Errorf("bench: API keys: %w", err)
		}
		// On a WebSocket transport a connection trades as one trader, so
		// fewer connections than traders leave some traders idle.
		traders := f.users
		if f.ws() {
			traders = 2 * min(f.users/2, f.concurrency/2)
		}
		if warning := benchLimitsWarning(ctx, c, f.symbol, f.orders, traders); warning != "" {
			fmt.Fprintln(progress, warning)
		}
	}
	// Every order of a side is the same request: encode the two bodies once,
	// so the load generator spends its CPU on sending (it shares the
	// machine with the server in the usual set-up).
	orderBody := map[string][]byte{}
	for _, side := range []string{"BUY", "SELL"} {
		orderBody[side], _ = json.Marshal(map[string]any{
			"symbol": f.symbol, "side": side, "type": "LIMIT", "price": f.price, "volume": f.qty})
	}
	m := measured{tokens: tokens, created: created, lagRead: spotLagRead,
		open: func(ctx context.Context, token string) (int, error) {
			var list struct{ Count int }
			err := c.ok(ctx, "/fe-ex-api/order/list/new", token, map[string]any{"symbol": f.symbol, "pageSize": 1}, &list)
			return list.Count, err
		}}
	m.send = func(ctx context.Context, plan loadPlan) (benchReport, lagSample, error) {
		if f.ws() {
			// Connection c trades as one trader: even connections buy (from
			// the first half of the traders), odd ones sell.
			trader := func(conn int) (int, string) {
				if conn%2 == 1 {
					return f.users/2 + (conn/2)%(f.users/2), "SELL"
				}
				return (conn / 2) % (f.users / 2), "BUY"
			}
			d, traderOf := webWS, func(conn int) wsTrader {
				t, side := trader(conn)
				return wsTrader{token: tokens[t], params: fixedParams(orderBody[side])}
			}
			if f.transport == "binance-ws" {
				d, traderOf = binanceWS, func(conn int) wsTrader {
					t, side := trader(conn)
					return wsTrader{token: tokens[t], params: binanceWSOrder(keys[t], f.symbol, side, f.price, f.qty)}
				}
			}
			return sendWS(ctx, plan, d, traderOf)
		}
		if f.transport == "binance" {
			bodies := map[string]string{"BUY": binanceOrder(f.symbol, "BUY", f.price, f.qty), "SELL": binanceOrder(f.symbol, "SELL", f.price, f.qty)}
			return sendCalls(ctx, plan, func(c *orderConn, i int) (string, benchAnswer, error) {
				t, side := (i/2)%(f.users/2), "BUY"
				if i%2 == 1 {
					t, side = f.users/2+(i/2)%(f.users/2), "SELL"
				}
				env, err := c.callBinance(keys[t], bodies[side])
				return tokens[t], env, err
			})
		}
		return sendOrders(ctx, plan, func(i int) (string, []byte) {
			// Even orders buy, odd orders sell, from users of the two halves,
			// so every buy finds a sell at the same price.
			if i%2 == 1 {
				return tokens[f.users/2+(i/2)%(f.users/2)], orderBody["SELL"]
			}
			return tokens[(i/2)%(f.users/2)], orderBody["BUY"]
		})
	}
	return runMeasured(ctx, c, f, progress, m)
}

// measured is what runMeasured needs of a product: the traders' tokens
// (and how many this run created), how a sampled order is read back
// (lagRead), how many orders a trader has open, and the load loop.
type measured struct {
	tokens  []string
	created int
	lagRead lagRead
	open    func(ctx context.Context, token string) (int, error)
	send    func(ctx context.Context, plan loadPlan) (benchReport, lagSample, error)
}

// runMeasured runs a load loop once the traders are ready, as every
// product and transport does: the settlement lag sampled as the orders are
// acknowledged, the wait until no trader has an order open and the order
// acknowledged last reads as filled, and the server's and this process's
// CPU time over the run.
func runMeasured(ctx context.Context, c *benchClient, f benchFlags, progress io.Writer, m measured) (benchReport, error) {
	pid := f.serverPID
	if pid == 0 {
		pid, _ = localServerPID(c.base)
	}
	lag := newLagSampler(c, m.lagRead)
	sampling, stopSampling := context.WithCancel(ctx)
	defer stopSampling()
	lagDone, stopLag := context.WithCancel(ctx)
	defer stopLag()
	lagExited := make(chan struct{})
	go func() {
		defer close(lagExited)
		lag.run(sampling, lagDone)
	}()
	plan := loadPlan{base: c.base, n: f.orders, conc: f.concurrency, rate: f.rate, inflight: f.inflight, lag: lag}
	mode := ""
	if f.rate > 0 {
		mode = fmt.Sprintf(" at %g orders/s", f.rate)
	}
	if f.ws() {
		fmt.Fprintf(progress, "sending %d orders over %d WebSockets (%s, up to %d in flight on each)%s...\n", f.orders, f.concurrency, f.transport, f.inflight, mode)
	} else {
		what := ""
		if f.futures() {
			what = "futures "
		}
		fmt.Fprintf(progress, "sending %d %sorders over %d connections%s...\n", f.orders, what, f.concurrency, mode)
	}
	serverCPU0, serverOK := processCPU(pid)
	benchCPU0, _ := processCPU(os.Getpid())
	rep, last, firstErr := m.send(ctx, plan)
	start := time.Now().Add(-rep.SendTime)
	stopSampling()
	// The last acknowledged order is sampled too: the run is settled once
	// it reads as filled (with acknowledgement at the journal, no order
	// open in the store does not yet mean every order is in the store).
	lag.add(last.orderID, last.token, last.acked)
	rep.Product, rep.Transport, rep.Rate, rep.Concurrency, rep.Created = f.product, f.transport, f.rate, f.concurrency, m.created
	if f.ws() {
		rep.Inflight = f.inflight
	}
	if firstErr != nil {
		fmt.Fprintf(progress, "first rejection: %v\n", firstErr)
	}
	fmt.Fprintln(progress, "waiting for matching and settlement...")
	settleDeadline := time.Now().Add(f.timeout)
	// A failed order may have been placed or not (a connection lost with
	// requests in flight), so after failures some orders may never find
	// their counterpart: the wait ends when nothing more settles.
	lastOpen, lastProgress := -1, time.Now()
	for {
		open := 0
		for _, t := range m.tokens {
			n, err := m.open(ctx, t)
			if err != nil {
				return rep, err
			}
			open += n
		}
		if open == 0 && lag.settled() {
			break
		}
		if time.Now().After(settleDeadline) {
			return rep, fmt.Errorf("bench: %d orders still open after %s", open, f.timeout)
		}
		if open != lastOpen {
			lastOpen, lastProgress = open, time.Now()
		}
		if rep.Rejected > 0 && open > 0 && time.Since(lastProgress) > stalledAfter {
			return rep, fmt.Errorf("bench: %d orders still open and none settled for %s: %d orders failed (first: %v), so some orders have no counterpart",
				open, stalledAfter, rep.Rejected, firstErr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	rep.SettleTime = time.Since(start)
	rep.Settled = rep.Accepted
	if cpu, ok := processCPU(pid); ok && serverOK && pid > 0 {
		rep.ServerPID, rep.ServerCPU = pid, cpu-serverCPU0
	}
	if cpu, ok := processCPU(os.Getpid()); ok {
		rep.BenchCPU = cpu - benchCPU0
	}
	stopLag()
	<-lagExited
	rep.LagP50, rep.LagP99, rep.LagSamples = lag.result()
	return rep, nil
}

// sendOrders sends p.n order calls over p.conc keep-alive connections
// (order i with the token and body that orderOf gives) and reports how
// many were accepted, the send time and the acknowledgement latency
// percentiles, with the order acknowledged last and the first refusal or
// failure.
func sendOrders(ctx context.Context, p loadPlan, orderOf func(i int) (token string, body []byte)) (benchReport, lagSample, error) {
	return sendCalls(ctx, p, func(c *orderConn, i int) (string, benchAnswer, error) {
		token, body := orderOf(i)
		env, err := c.call("/fe-ex-api/order/create", token, body)
		return token, env, err
	})
}

// sendCalls is sendOrders with the call of order i made by send on a
// connection (the http and binance transports); send returns the session
// token the order's settlement is sampled with.
func sendCalls(ctx context.Context, p loadPlan, send func(c *orderConn, i int) (token string, env benchAnswer, err error)) (benchReport, lagSample, error) {
	if _, err := newOrderConn(p.base, time.Second); err != nil {
		return benchReport{}, lagSample{}, err
	}
	st := newLoadStats(p.n)
	var next atomic.Int64
	var wg sync.WaitGroup
	pc := newPacer(p.rate)
	for w := 0; w < p.conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, _ := newOrderConn(p.base, 30*time.Second)
			defer c.close()
			var span sendSpan
			var last lagSample
			defer func() { st.merge(span.first, span.last, last) }()
			for {
				i := int(next.Add(1)) - 1
				if i >= p.n {
					return
				}
				if err := ctx.Err(); err != nil {
					st.fail(i, err, 0)
					continue
				}
				t0 := pc.wait(i)
				span.sent(time.Now())
				token, env, err := send(c, i)
				now := time.Now()
				switch {
				case err != nil:
					st.fail(i, err, now.Sub(t0))
				case env.Code == "0":
					st.ok(i, now.Sub(t0))
					p.lag.offer(env.OrderID, token, now)
					last = lagSample{orderID: env.OrderID, token: token, acked: now}
				default:
					st.fail(i, fmt.Errorf("order: %s %s", env.Code, env.Msg), now.Sub(t0))
				}
			}
		}()
	}
	wg.Wait()
	return st.report(pc.start), st.last, st.firstErr
}
