package binance

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tenger/internal/apikey"
	"tenger/internal/spot"
)

func TestOrderRateLimits(t *testing.T) {
	want := []RateLimit{{"ORDERS", "SECOND", 10, 100}, {"ORDERS", "DAY", 1, 200000}}
	if got := OrderRateLimits(0, 0); !reflect.DeepEqual(got, want) {
		t.Fatalf("defaults %+v", got)
	}
	want = []RateLimit{{"ORDERS", "SECOND", 10, 7}, {"ORDERS", "DAY", 1, 14000}}
	if got := OrderRateLimits(7, 14000); !reflect.DeepEqual(got, want) {
		t.Fatalf("OrderRateLimits(7, 14000) = %+v", got)
	}
	for _, bad := range []RateLimit{{"ORDERS", "WEEK", 1, 5}, {"ORDERS", "SECOND", 0, 5}, {"ORDERS", "SECOND", 10, 0},
		{"ORDERS", "DAY", 1000, 5}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("newOrderCounter(%+v) did not panic", bad)
				}
			}()
			newOrderCounter([]RateLimit{bad})
		}()
	}
}

func TestOrderCounterWindows(t *testing.T) {
	oc := newOrderCounter(OrderRateLimits(3, 5))
	t0 := testNow // 2026-02-02 00:00:30 UTC, on a 10-second boundary
	place := func(uid string, at time.Time, want orderCounts, refusal string) {
		t.Helper()
		got, err := oc.place(uid, at)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s at %s: counts %v, want %v", uid, at.Format(time.TimeOnly), got, want)
		}
		switch {
		case refusal == "" && err != nil:
			t.Fatalf("%s at %s: refused %v", uid, at.Format(time.TimeOnly), err)
		case refusal != "" && (err == nil || err.Status != http.StatusTooManyRequests || err.Code != CodeTooManyOrders ||
			err.Msg != refusal || err.RetryAfter != 0):
			t.Fatalf("%s at %s: %+v, want the refusal %q", uid, at.Format(time.TimeOnly), err, refusal)
		}
	}
	per10s := "Too many new orders; current limit is 3 orders per 10 SECOND."
	perDay := "Too many new orders; current limit is 5 orders per 1 DAY."
	place(alice, t0, orderCounts{1, 1}, "")
	place(alice, t0.Add(4*time.Second), orderCounts{2, 2}, "")
	place(alice, t0.Add(9*time.Second), orderCounts{3, 3}, "")
	// Over: refused and not counted, up to the end of the window.
	place(alice, t0.Add(9*time.Second), orderCounts{3, 3}, per10s)
	place(alice, t0.Add(10*time.Second-time.Nanosecond), orderCounts{3, 3}, per10s)
	if got := oc.countsOf(alice, t0.Add(9*time.Second)); !reflect.DeepEqual(got, orderCounts{3, 3}) {
		t.Fatalf("countsOf %v", got)
	}
	// Another account has its own counts.
	place(bob, t0.Add(9*time.Second), orderCounts{1, 1}, "")
	// The next 10 seconds start at :40; the day goes on.
	place(alice, t0.Add(10*time.Second), orderCounts{1, 4}, "")
	place(alice, t0.Add(11*time.Second), orderCounts{2, 5}, "")
	place(alice, t0.Add(12*time.Second), orderCounts{2, 5}, perDay)
	place(alice, t0.Add(time.Hour), orderCounts{0, 5}, perDay)
	// The windows are aligned on Unix time: 23:59:59.9 and midnight are in
	// different 10 seconds and different days.
	midnight := time.Date(2026, 2, 3, 0, 0, 0, 0, time.UTC)
	place(alice, midnight.Add(-100*time.Millisecond), orderCounts{0, 5}, perDay)
	place(alice, midnight, orderCounts{1, 1}, "")
	place(bob, midnight, orderCounts{1, 1}, "")
	// Both limits full: the first one reached is named.
	oc2 := newOrderCounter(OrderRateLimits(1, 1))
	if _, err := oc2.place(alice, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := oc2.place(alice, t0); err == nil || err.Msg != "Too many new orders; current limit is 1 orders per 10 SECOND." {
		t.Fatalf("both full: %v", err)
	}
}

func TestOrderCounterSweepsPassedWindows(t *testing.T) {
	oc := newOrderCounter(OrderRateLimits(0, 0))
	t0 := testNow
	for i := range 1000 {
		if _, err := oc.place(strconv.Itoa(i), t0.Add(time.Duration(i)*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
	}
	if got := oc.tracked(); !reflect.DeepEqual(got, []int{1000, 1000}) {
		t.Fatalf("tracked %v", got)
	}
	// The next 10 seconds hold only who ordered in them; the day all.
	if _, err := oc.place("x", t0.Add(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	if got := oc.tracked(); !reflect.DeepEqual(got, []int{1, 1001}) {
		t.Fatalf("after 10 s: tracked %v", got)
	}
	// A read rolls the windows too; the next day forgets the accounts.
	oc.countsOf("y", t0.Add(24*time.Hour))
	if got := oc.tracked(); !reflect.DeepEqual(got, []int{0, 0}) {
		t.Fatalf("the next day: tracked %v", got)
	}
}

func TestOrderCounterConcurrentPlacements(t *testing.T) {
	oc := newOrderCounter(OrderRateLimits(50, 0))
	var ok, refused atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if _, err := oc.place(alice, testNow); err != nil {
					refused.Add(1)
				} else {
					ok.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if ok.Load() != 50 || refused.Load() != 110 {
		t.Fatalf("%d placed and %d refused, want 50 and 110", ok.Load(), refused.Load())
	}
	if got := oc.countsOf(alice, testNow); !reflect.DeepEqual(got, orderCounts{50, 50}) {
		t.Fatalf("counts %v", got)
	}
}

// countingTrading counts the orders that reach the order entry.
type countingTrading struct {
	Trading
	placed atomic.Int64
}

func (c *countingTrading) PlaceOrder(ctx context.Context, uid string, req spot.PlaceRequest) (string, error) {
	c.placed.Add(1)
	return c.Trading.PlaceOrder(ctx, uid, req)
}

// rateLimitsOf reads exchangeInfo's rateLimits.
func rateLimitsOf(t *testing.T, srv *Server) []RateLimit {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v3/exchangeInfo?symbol=BTCUSDT", nil))
	var info struct{ RateLimits []RateLimit }
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &info) != nil {
		t.Fatalf("exchangeInfo: %d %s", rec.Code, rec.Body.String())
	}
	return info.RateLimits
}

func TestExchangeInfoListsOrderLimits(t *testing.T) {
	weight := RateLimit{"REQUEST_WEIGHT", "MINUTE", 1, 6000}
	// Orders served: Binance's ORDERS limits after REQUEST_WEIGHT.
	if got, want := rateLimitsOf(t, newSignedEnv(t).srv), []RateLimit{weight, {"ORDERS", "SECOND", 10, 100},
		{"ORDERS", "DAY", 1, 200000}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("defaults: %+v", got)
	}
	// Configured ones, before the other limits listed.
	raw := RateLimit{"RAW_REQUESTS", "MINUTE", 5, 61000}
	e := newSignedEnvWith(t, func(o *Options) { o.RateLimits = append([]RateLimit{raw}, OrderRateLimits(7, 14000)...) })
	if got, want := rateLimitsOf(t, e.srv), []RateLimit{weight, {"ORDERS", "SECOND", 10, 7}, {"ORDERS", "DAY", 1, 14000},
		raw}; !reflect.DeepEqual(got, want) {
		t.Fatalf("configured: %+v", got)
	}
	// Market data only: no ORDERS limits.
	if got := rateLimitsOf(t, newEnv(t, nil).srv); !reflect.DeepEqual(got, []RateLimit{weight}) {
		t.Fatalf("without orders: %+v", got)
	}
}

// TestOrderLimitOnNewOrders places orders until -1015: Binance's 100 per
// 10 seconds, then (10 seconds later) a day limit of 150.
func TestOrderLimitOnNewOrders(t *testing.T) {
	// The server's clock stands still unless moved: the windows change
	// only when the test says. Requests carry its time.
	clk := &clock{t: time.Now().UTC().Truncate(24 * time.Hour).Add(30 * time.Second)}
	var tr *countingTrading
	e := newSignedEnvWith(t, func(o *Options) {
		tr = &countingTrading{Trading: o.Trading}
		o.Trading, o.Now = tr, clk.Now
		o.RateLimits = OrderRateLimits(0, 150)
	})
	ka, kb := e.key(alice, []string{"spot"}), e.key(bob, []string{"spot"})
	call := func(path string, k apikey.Created, kv ...string) sanswer {
		t.Helper()
		return e.call(http.MethodPost, path, k, vals(append(kv, "timestamp", strconv.FormatInt(clk.Now().UnixMilli(), 10))...))
	}
	sell := func(k apikey.Created) sanswer {
		t.Helper()
		return call("/api/v3/order", k, "symbol", "BTCUSDT", "side", "SELL", "type", "LIMIT", "timeInForce", "GTC",
			"price", "90000", "quantity", "0.001", "newOrderRespType", "ACK")
	}
	counts := func(a sanswer, want10s, wantDay int) {
		t.Helper()
		if got10s, gotDay := a.header.Get("X-MBX-ORDER-COUNT-10S"), a.header.Get("X-MBX-ORDER-COUNT-1D"); got10s != strconv.Itoa(want10s) ||
			gotDay != strconv.Itoa(wantDay) {
			t.Fatalf("order counts 10S %q 1D %q, want %d and %d (HTTP %d %s)", got10s, gotDay, want10s, wantDay, a.status, a.body)
		}
	}
	tooMany := func(a sanswer, msg string) {
		t.Helper()
		e.fails(a, http.StatusTooManyRequests, CodeTooManyOrders, msg)
		if ra := a.header.Get("Retry-After"); ra != "" {
			t.Fatalf("Retry-After %q on -1015", ra)
		}
	}

	// Test orders and orders that fail their checks do not count.
	for range 3 {
		e.ok(call("/api/v3/order/test", ka, "symbol", "BTCUSDT", "side", "SELL", "type", "LIMIT", "timeInForce", "GTC",
			"price", "90000", "quantity", "0.001"), nil)
	}
	bad := call("/api/v3/order", ka, "symbol", "BTCUSDT", "side", "UP", "type", "LIMIT", "timeInForce", "GTC",
		"price", "90000", "quantity", "0.001")
	e.fails(bad, 400, CodeInvalidSide, "")
	counts(bad, 0, 0)

	for i := 1; i <= 100; i++ {
		a := sell(ka)
		e.ok(a, nil)
		counts(a, i, i)
	}
	refused := sell(ka)
	tooMany(refused, "Too many new orders; current limit is 100 orders per 10 SECOND.")
	counts(refused, 100, 100)
	if n := tr.placed.Load(); n != 100 {
		t.Fatalf("%d orders reached the order entry, want 100", n)
	}
	// Bob's account has its own counts.
	counts(e.call(http.MethodPost, "/api/v3/order", kb, vals("symbol", "BTCUSDT", "side", "BUY", "type", "LIMIT",
		"timeInForce", "GTC", "price", "20000", "quantity", "0.001", "timestamp", strconv.FormatInt(clk.Now().UnixMilli(), 10))), 1, 1)

	// The next 10 seconds: 50 more reach the day's 150.
	clk.Add(10 * time.Second)
	for i := 1; i <= 50; i++ {
		a := sell(ka)
		e.ok(a, nil)
		counts(a, i, 100+i)
	}
	refused = sell(ka)
	tooMany(refused, "Too many new orders; current limit is 150 orders per 1 DAY.")
	counts(refused, 50, 150)
	if n := tr.placed.Load(); n != 151 { // Alice's 150 and Bob's one
		t.Fatalf("%d orders reached the order entry, want 151", n)
	}
	clk.Add(time.Hour)
	tooMany(sell(ka), "Too many new orders; current limit is 150 orders per 1 DAY.")

	// The next UTC day starts afresh.
	clk.Add(24 * time.Hour)
	a := sell(ka)
	e.ok(a, nil)
	counts(a, 1, 1)
	if got := rateLimitsOf(t, e.srv); !reflect.DeepEqual(got[1:], OrderRateLimits(100, 150)) {
		t.Fatalf("exchangeInfo rateLimits %+v", got)
	}
}

// A key's weight is counted whichever addresses use it: spread over two
// addresses, it still meets the limit.
func TestKeyWeightAcrossAddresses(t *testing.T) {
	e := newSignedEnvWith(t, func(o *Options) { o.WeightLimit = 50 })
	k := e.key(alice, []string{"spot"})
	e.ok(e.call(http.MethodGet, "/api/v3/account", k, nil, withIP("203.0.113.5")), nil)
	e.ok(e.call(http.MethodGet, "/api/v3/account", k, nil, withIP("203.0.113.5")), nil)
	over := e.call(http.MethodGet, "/api/v3/account", k, nil, withIP("198.51.100.20"))
	e.fails(over, http.StatusTooManyRequests, CodeTooManyRequests, "")
	if used := over.header.Get("X-MBX-USED-WEIGHT-1M"); used != "20" {
		t.Fatalf("the second address's own weight: %q, want 20", used)
	}
	// Another key of the same user from that address is not held back.
	k2 := e.key(alice, []string{"spot"})
	e.ok(e.call(http.MethodGet, "/api/v3/account", k2, nil, withIP("198.51.100.20")), nil)
}
