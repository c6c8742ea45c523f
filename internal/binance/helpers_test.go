package binance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/coins"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/store/embedded"
)

// testNow is the clock's start: Monday 2026-02-02 00:00:30 UTC.
var testNow = time.Date(2026, 2, 2, 0, 0, 30, 0, time.UTC)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

type env struct {
	t     *testing.T
	srv   *Server
	md    *marketdata.Service
	clock *clock
}

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// newEnv builds a server on a real market data service over an embedded
// store, with the default catalogues, three btcusdt trades and a book:
//
//	1  100 × 1    BUY   2026-02-01 22:00:30
//	2  110 × 2    SELL  2026-02-02 00:00:10
//	3  105 × 0.5  BUY   2026-02-02 00:00:20
//	bids 100.57 × 1, 100.51 × 2; asks 100.61 × 1
func newEnv(t *testing.T, opt func(*Options)) *env {
	t.Helper()
	return newEnvOn(t, markets.Defaults(), opt)
}

// newEnvOn is newEnv on another pair catalogue (which must have btcusdt).
func newEnvOn(t *testing.T, mk *markets.Catalogue, opt func(*Options)) *env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	clk := &clock{t: testNow}
	md, err := marketdata.New(context.Background(), marketdata.Options{Store: st, Markets: mk, Log: zerolog.Nop(),
		Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	md.OnTrades("btcusdt", []marketdata.Trade{
		{ID: "1", Price: d("100"), Qty: d("1"), TakerSide: "BUY", At: testNow.Add(-2 * time.Hour)},
		{ID: "2", Price: d("110"), Qty: d("2"), TakerSide: "SELL", At: testNow.Add(-20 * time.Second)},
		{ID: "3", Price: d("105"), Qty: d("0.5"), TakerSide: "BUY", At: testNow.Add(-10 * time.Second)},
	})
	md.OnDepth("btcusdt", []marketdata.Level{{Price: d("100.57"), Qty: d("1")}, {Price: d("100.51"), Qty: d("2")}},
		[]marketdata.Level{{Price: d("100.61"), Qty: d("1")}}, testNow)
	if err := md.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Markets: mk, Coins: cc, Data: md, Now: clk.Now, Log: zerolog.Nop()}
	if opt != nil {
		opt(&o)
	}
	return &env{t: t, srv: New(o), md: md, clock: clk}
}

type answer struct {
	status int
	header http.Header
	body   string
}

func (e *env) do(method, target, body string) answer {
	e.t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	return answer{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
}

func (e *env) get(target string) answer {
	e.t.Helper()
	return e.do(http.MethodGet, target, "")
}

// errorOf decodes a Binance error answer.
func errorOf(t *testing.T, a answer) Error {
	t.Helper()
	var e Error
	if err := json.Unmarshal([]byte(a.body), &e); err != nil {
		t.Fatalf("not an error answer: %d %q", a.status, a.body)
	}
	return e
}

// errCase is a request that must fail with status, code and message (msg
// empty: any).
type errCase struct {
	name, target string
	status, code int
	msg          string
}

func runErrCases(t *testing.T, e *env, cases []errCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := e.get(c.target)
			if a.status != c.status {
				t.Fatalf("%s: status %d (%s), want %d", c.target, a.status, a.body, c.status)
			}
			got := errorOf(t, a)
			if got.Code != c.code || (c.msg != "" && got.Msg != c.msg) {
				t.Fatalf("%s: %d %q, want %d %q", c.target, got.Code, got.Msg, c.code, c.msg)
			}
		})
	}
}

// okCase is a request whose 200 body must equal want exactly (field order
// included).
type okCase struct {
	name, target, want string
}

func runOKCases(t *testing.T, e *env, cases []okCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := e.get(c.target)
			if a.status != http.StatusOK {
				t.Fatalf("%s: status %d: %s", c.target, a.status, a.body)
			}
			if a.body != c.want {
				t.Fatalf("%s:\n got %s\nwant %s", c.target, a.body, c.want)
			}
		})
	}
}

func fmtSscan(s string, n *int) (int, error) { return fmt.Sscan(s, n) }
