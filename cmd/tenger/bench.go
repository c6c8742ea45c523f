package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shopspring/decimal"
)

// defaultSettleTimeout bounds the wait for matching and settlement.
const defaultSettleTimeout = 5 * time.Minute

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
}

// runBench is the end-to-end load generator: against a running
// `tenger serve --dev` (best with --market-maker=false) it creates funded
// users through the dev simulators, then sends crossing limit orders over
// HTTP keep-alive from many connections, and reports orders accepted per
// second, the acknowledgement latency percentiles, and how long it took
// until every order was matched and settled.
func runBench(args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var f benchFlags
	fs.StringVar(&f.target, "target", "http://127.0.0.1:8080", "base URL of a tenger serve started with --dev")
	fs.IntVar(&f.users, "users", 8, "traders (pairs of buyers and sellers)")
	fs.IntVar(&f.orders, "orders", 20000, "orders to send")
	fs.IntVar(&f.concurrency, "concurrency", 64, "parallel keep-alive connections")
	fs.StringVar(&f.symbol, "symbol", "btcusdt", "pair to trade")
	fs.StringVar(&f.price, "price", "50000", "price of every order (buys and sells cross at it)")
	fs.StringVar(&f.qty, "qty", "0.0001", "quantity of every order")
	fs.DurationVar(&f.timeout, "settle-timeout", defaultSettleTimeout, "how long to wait for matching and settlement")
	fs.BoolVar(&f.ceiling, "ceiling", false, "measure the load generator's ceiling on this machine: the same order calls against a server that only answers them (no --target needed)")
	fs.StringVar(&f.noopServer, "noop-server", "", "serve the no-op endpoint --ceiling measures against on this address and print it (--ceiling starts it itself)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if f.noopServer != "" {
		return runNoopServer(f.noopServer, os.Stdout)
	}
	if f.users < 2 || f.users%2 != 0 || f.orders < 2 || f.concurrency < 1 {
		return errors.New("bench: users must be an even number ≥ 2, orders ≥ 2, concurrency ≥ 1")
	}
	if f.ceiling {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		rep, err := benchCeiling(context.Background(), exe, f)
		if err != nil {
			return err
		}
		rep.print(os.Stdout)
		return nil
	}
	rep, err := bench(context.Background(), f, os.Stdout)
	if err != nil {
		return err
	}
	rep.print(os.Stdout)
	return nil
}

type benchReport struct {
	Sent, Accepted, Rejected int
	// SendTime is from the first order sent to the last one acknowledged;
	// SettleTime from the first order sent until no order is open any more
	// (every order matched and its trades and end settled).
	SendTime, SettleTime time.Duration
	P50, P99, P999, Max  time.Duration
}

// AcceptedPerSec is the rate at which orders were acknowledged.
func (r benchReport) AcceptedPerSec() float64 { return float64(r.Accepted) / r.SendTime.Seconds() }

// SettledPerSec is the rate at which orders were matched and settled, over
// the whole run (the engine works while orders are still being sent).
func (r benchReport) SettledPerSec() float64 { return float64(r.Accepted) / r.SettleTime.Seconds() }

func (r benchReport) print(w io.Writer) {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
	fmt.Fprintf(w, "orders sent %d, accepted %d, rejected %d\n", r.Sent, r.Accepted, r.Rejected)
	fmt.Fprintf(w, "accepted:            %8.0f orders/s  (all acknowledged in %s)\n", r.AcceptedPerSec(), r.SendTime.Round(time.Millisecond))
	fmt.Fprintf(w, "matched and settled: %8.0f orders/s  (all settled %s after the first order, %s after the last acknowledgement)\n",
		r.SettledPerSec(), r.SettleTime.Round(time.Millisecond), (r.SettleTime - r.SendTime).Round(time.Millisecond))
	fmt.Fprintf(w, "acknowledgement latency: p50 %s, p99 %s, p99.9 %s, max %s\n", ms(r.P50), ms(r.P99), ms(r.P999), ms(r.Max))
}

// benchAnswer is an API answer with its data left raw.
type benchAnswer struct {
	Code string          `json:"code"`
	Msg  string          `json:"msg"`
	Data json.RawMessage `json:"data"`
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
	if err := c.ok(ctx, "/fe-ex-api/v4/common/emailValidCode", "", map[string]any{"email": email, "operationType": 1}, nil); err != nil {
		return "", err
	}
	code, err := c.lastCode(ctx, email)
	if err != nil {
		return "", err
	}
	if err := c.ok(ctx, "/fe-ex-api/user/register", "", map[string]any{"email": email, "loginPword": "Bench2026x", "code": code}, nil); err != nil {
		return "", err
	}
	var login struct{ Token string }
	if err := c.ok(ctx, "/fe-ex-api/user/login_in", "", map[string]any{"email": email, "loginPword": "Bench2026x"}, &login); err != nil {
		return "", err
	}
	var assets struct{ List []benchAsset }
	if err := c.ok(ctx, "/fe-ex-api/wallet/recharge_list", login.Token, map[string]any{}, &assets); err != nil {
		return "", err
	}
	for coin, amount := range funds {
		i := slices.IndexFunc(assets.List, func(a benchAsset) bool { return a.Code == coin })
		switch {
		case i < 0:
			return "", fmt.Errorf("%s is not open for deposits", coin)
		case assets.List[i].IsFiat:
			var me struct{ ID string }
			if err := c.ok(ctx, "/fe-ex-api/common/user_info", login.Token, map[string]any{}, &me); err != nil {
				return "", err
			}
			if err := c.ok(ctx, "/dev/bank/incoming", "", map[string]any{"amount": amount.String(), "reference": me.ID,
				"bankTxId": "bench-" + email}, nil); err != nil {
				return "", err
			}
		case len(assets.List[i].Chains) == 0:
			return "", fmt.Errorf("%s has no deposit chain", coin)
		default:
			chain := assets.List[i].Chains[0].Name
			var addr struct {
				AddressLong string `json:"addressLong"`
			}
			if err := c.ok(ctx, "/fe-ex-api/wallet/get_charge_address", login.Token, map[string]any{"symbol": coin, "chain": chain}, &addr); err != nil {
				return "", err
			}
			if err := c.ok(ctx, "/dev/chain/deposit", "", map[string]any{"coin": coin, "chain": chain, "address": addr.AddressLong, "amount": amount.String()}, nil); err != nil {
				return "", err
			}
			if err := c.ok(ctx, "/dev/chain/mine", "", map[string]any{"chain": chain, "blocks": 64}, nil); err != nil {
				return "", err
			}
		}
	}
	return login.Token, nil
}

// credited reports whether a balance shows the whole funding.
func credited(normal string, want decimal.Decimal) bool {
	d, err := decimal.NewFromString(normal)
	return err == nil && d.GreaterThanOrEqual(want)
}

func bench(ctx context.Context, f benchFlags, progress io.Writer) (benchReport, error) {
	tr := &http.Transport{MaxIdleConns: f.concurrency * 2, MaxIdleConnsPerHost: f.concurrency * 2, IdleConnTimeout: time.Minute}
	c := &benchClient{base: strings.TrimRight(f.target, "/"), hc: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
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
	tokens := make([]string, f.users)
	fmt.Fprintf(progress, "creating %d traders, each funded with %s %s and %s %s...\n", f.users, baseAmt, pair.base, quoteAmt, pair.quote)
	for i := range tokens {
		t, err := benchUser(ctx, c, fmt.Sprintf("bench-%d-%d@bench.tenger", run, i), funds)
		if err != nil {
			return benchReport{}, fmt.Errorf("bench: set-up: %w", err)
		}
		tokens[i] = t
	}
	// Wait until the deposits are credited (the watcher runs in the background).
	deadline := time.Now().Add(30 * time.Second)
	for _, t := range tokens {
		for {
			var bal struct {
				AllCoinMap map[string]struct{ Normal string } `json:"allCoinMap"`
			}
			if err := c.ok(ctx, "/fe-ex-api/finance/v5/account_balance", t, map[string]any{}, &bal); err != nil {
				return benchReport{}, err
			}
			if credited(bal.AllCoinMap[pair.base].Normal, baseAmt) && credited(bal.AllCoinMap[pair.quote].Normal, quoteAmt) {
				break
			}
			if time.Now().After(deadline) {
				return benchReport{}, errors.New("bench: deposits were not credited in time")
			}
			time.Sleep(100 * time.Millisecond)
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
	fmt.Fprintf(progress, "sending %d orders over %d connections...\n", f.orders, f.concurrency)
	start := time.Now()
	rep, firstErr := sendOrders(ctx, c.base, f.orders, f.concurrency, func(i int) (string, []byte) {
		// Even orders buy, odd orders sell, from users of the two halves,
		// so every buy finds a sell at the same price.
		if i%2 == 1 {
			return tokens[f.users/2+(i/2)%(f.users/2)], orderBody["SELL"]
		}
		return tokens[(i/2)%(f.users/2)], orderBody["BUY"]
	})
	if firstErr != nil {
		fmt.Fprintf(progress, "first rejection: %v\n", firstErr)
	}
	fmt.Fprintln(progress, "waiting for matching and settlement...")
	settleDeadline := time.Now().Add(f.timeout)
	for {
		open := 0
		for _, t := range tokens {
			var list struct{ Count int }
			if err := c.ok(ctx, "/fe-ex-api/order/list/new", t, map[string]any{"symbol": f.symbol, "pageSize": 1}, &list); err != nil {
				return rep, err
			}
			open += list.Count
		}
		if open == 0 {
			break
		}
		if time.Now().After(settleDeadline) {
			return rep, fmt.Errorf("bench: %d orders still open after %s", open, f.timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
	rep.SettleTime = time.Since(start)
	return rep, nil
}

// sendOrders sends n order calls over conc keep-alive connections (order i
// with the token and body that orderOf gives) and reports how many were
// accepted, the send time and the acknowledgement latency percentiles,
// with the first refusal or failure.
func sendOrders(ctx context.Context, base string, n, conc int, orderOf func(i int) (token string, body []byte)) (benchReport, error) {
	if _, err := newOrderConn(base, time.Second); err != nil {
		return benchReport{}, err
	}
	lat := make([]time.Duration, n)
	var next, accepted, rejected atomic.Int64
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, _ := newOrderConn(base, 30*time.Second)
			defer c.close()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := ctx.Err(); err != nil {
					errOnce.Do(func() { firstErr = err })
					rejected.Add(1)
					continue
				}
				token, body := orderOf(i)
				t0 := time.Now()
				env, err := c.call("/fe-ex-api/order/create", token, body)
				lat[i] = time.Since(t0)
				switch {
				case err != nil:
					errOnce.Do(func() { firstErr = err })
					rejected.Add(1)
				case env.Code == "0":
					accepted.Add(1)
				default:
					errOnce.Do(func() { firstErr = fmt.Errorf("order/create: %s %s", env.Code, env.Msg) })
					rejected.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	rep := benchReport{Sent: n, Accepted: int(accepted.Load()), Rejected: int(rejected.Load()), SendTime: time.Since(start)}
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))] }
	rep.P50, rep.P99, rep.P999, rep.Max = pct(0.50), pct(0.99), pct(0.999), lat[len(lat)-1]
	return rep, firstErr
}
