package earn

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/spotfunds/spotfundstest"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

var ctx = context.Background()

// clock is the tests' clock port: days pass by Set, never by sleeping.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// env is a service on an embedded store with spot funds moved by an
// engine (the real path) or the store ledger.
type env struct {
	st    store.Store
	led   *ledger.Ledger
	funds spotfunds.Funds
	svc   *Service
	clk   *clock
	cat   *coins.Catalogue
}

// day0 is the first simulated day (a Monday), at 10:00 UTC.
var day0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

func openStore(t testing.TB, dir string) *embedded.Store {
	t.Helper()
	st, err := embedded.Open(dir, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func newEnv(t testing.TB, withEngine bool) *env {
	t.Helper()
	st := openStore(t, t.TempDir())
	t.Cleanup(func() { _ = st.Close() })
	return envOn(t, st, withEngine)
}

func envOn(t testing.TB, st store.Store, withEngine bool) *env {
	cat, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	e := &env{st: st, led: ledger.New(st, nil), clk: &clock{t: day0}, cat: cat}
	if withEngine {
		e.funds = spotfundstest.NewEngine(t, st, nil).Funds()
	} else {
		e.funds = spotfunds.Ledger{Led: e.led, Store: st}
	}
	e.svc = New(Options{Store: st, Ledger: e.led, Funds: e.funds, Coins: cat, Now: e.clk.Now, Log: zerolog.Nop()})
	for _, p := range DevSavingsProducts() {
		if err := e.svc.PutSavingsProduct(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// deposit credits a user's spot account from the chain.
func (e *env) deposit(t testing.TB, uid, coin, amount string) {
	t.Helper()
	err := e.funds.Credit(ctx, spotfunds.Move{Ref: "dep:" + uid + ":" + coin + ":" + amount + ":" + e.clk.Now().String(), UID: uid, Coin: coin,
		Amount: decimal.RequireFromString(amount), Other: ledger.ChainAccount("TEST"), Reason: "deposit"})
	if err != nil {
		t.Fatal(err)
	}
}

func (e *env) balance(t testing.TB, uid string, kind ledger.Kind, coin string) ledger.Balance {
	t.Helper()
	b, err := e.led.Balance(ctx, ledger.UserAccount(uid, kind), coin)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (e *env) audit(t testing.TB) {
	t.Helper()
	rep, err := e.led.Audit(ctx, "USDT", "BTC")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Clean() {
		t.Fatalf("audit: %v", rep.Problems)
	}
}

// at sets the clock to a day after day0 at an hour.
func (e *env) at(day int, hour int) {
	e.clk.Set(day0.Add(time.Duration(day)*24*time.Hour + time.Duration(hour-10)*time.Hour))
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func mustCode(t testing.TB, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want error %s, got none", code)
	}
	if got := codeOf(err); got != code {
		t.Fatalf("want error %s, got %s (%v)", code, got, err)
	}
}

// parallel runs fn(0..n-1) on 16 goroutines and fails on the first error.
func parallel(t testing.TB, n int, fn func(i int) error) {
	t.Helper()
	next := make(chan int)
	errs := make(chan error, 16)
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
}
