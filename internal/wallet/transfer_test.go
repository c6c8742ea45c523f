package wallet_test

import (
	"fmt"
	"math/rand"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/spotfunds/spotfundstest"
	"tenger/internal/store/storetest"
	"tenger/internal/wallet"
	wt "tenger/internal/wallet/wallettest"
)

var ctx = wt.Ctx

// eachFunds runs f once per implementation of spotfunds.Funds (the store
// ledger, the engine with its projection), each on a fresh environment
// whose Wallet and Fund move spot balances through it.
func eachFunds(t *testing.T, f func(t *testing.T, e *wt.Env, impl spotfundstest.Impl)) {
	for i, name := range []string{"ledger", "engine"} {
		t.Run(name, func(t *testing.T) {
			e := wt.New(t)
			impl := spotfundstest.Both(t, e.Store, nil)[i]
			if impl.Name != name {
				t.Fatalf("implementation %d is %s, want %s", i, impl.Name, name)
			}
			e.UseFunds(impl.Funds)
			f(t, e, impl)
		})
	}
}

// wantTransitEmpty checks that no transfer into spot is half done.
func wantTransitEmpty(t *testing.T, e *wt.Env, coins ...string) {
	t.Helper()
	for _, c := range coins {
		e.WantAvail(t, spotfunds.TransitAccount(), c, "0")
	}
}

// wantSpot checks a user's available spot balance where it is kept: the
// store (the ledger's, or the engine's projection) and, with the engine,
// the engine itself.
func wantSpot(t *testing.T, e *wt.Env, impl spotfundstest.Impl, uid, coin, want string) {
	t.Helper()
	e.WantAvail(t, ledger.UserAccount(uid, ledger.Spot), coin, want)
	if impl.Engine == nil {
		return
	}
	avail, _ := impl.Engine.Available(uid, coin)
	if got := decimal.New(avail, -spotfundstest.DefaultCoins[coin]); !got.Equal(decimal.RequireFromString(want)) {
		t.Fatalf("engine: %s spot %s available = %s, want %s", uid, coin, got, want)
	}
}

func xfer(t *testing.T, e *wt.Env, uid string, in wallet.TransferInput, code string) wallet.TransferRecord {
	t.Helper()
	e.Clock.Add(time.Millisecond) // history orders by time; keep the order of the calls
	r, err := e.Wallet.Transfer(ctx, uid, in)
	wt.WantCode(t, err, code)
	return r
}

func TestTransfersEveryDirection(t *testing.T) {
	eachFunds(t, func(t *testing.T, e *wt.Env, impl spotfundstest.Impl) {
		u := e.NewUser(t, wt.Flags{})
		e.Fund(t, u.UID, "USDT", "1000")
		e.Fund(t, u.UID, "BTC", "1")
		otc := ledger.UserAccount(u.UID, ledger.OTC)
		fut := ledger.UserAccount(u.UID, ledger.Futures)
		cross := ledger.UserAccount(u.UID, ledger.MarginCross)
		iso := ledger.IsolatedAccount(u.UID, "BTCUSDT")

		r := xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "100"}, "")
		if r.Type != wallet.TransferOTC || r.Amount != "100" || r.From != "spot" || r.To != "otc" || r.Status != "success" {
			t.Fatalf("record %+v", r)
		}
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.OTC, To: ledger.Spot, Coin: "USDT", Amount: "40.5"}, "")
		wantSpot(t, e, impl, u.UID, "USDT", "940.5")
		e.WantAvail(t, otc, "USDT", "59.5")

		// Futures amounts are truncated to 3 decimals (spec §5, §9).
		r = xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "USDT", Amount: "12.345678"}, "")
		if r.Amount != "12.345" {
			t.Fatalf("futures amount %s, want 12.345", r.Amount)
		}
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Futures, To: ledger.Spot, Coin: "USDT", Amount: "2.0009"}, "")
		e.WantAvail(t, fut, "USDT", "10.345")
		wantSpot(t, e, impl, u.UID, "USDT", "930.155")

		// Cross margin in (3) and out (4).
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.MarginCross, Coin: "USDT", Amount: "50"}, "")
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.MarginCross, To: ledger.Spot, Coin: "USDT", Amount: "10.25"}, "")
		e.WantAvail(t, cross, "USDT", "39.75")

		// Isolated margin in (1) base and quote, out (2).
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.MarginIsolated, Pair: "BTC/USDT", Coin: "BTC", Amount: "0.5"}, "")
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.MarginIsolated, Pair: "BTCUSDT", Coin: "USDT", Amount: "20"}, "")
		r = xfer(t, e, u.UID, wallet.TransferInput{From: ledger.MarginIsolated, To: ledger.Spot, Pair: "btc_usdt", Coin: "BTC", Amount: "0.1"}, "")
		if r.Symbol != "BTCUSDT" || r.FromName != "Isolated margin BTCUSDT" {
			t.Fatalf("isolated record %+v", r)
		}
		e.WantAvail(t, iso, "BTC", "0.4")
		e.WantAvail(t, iso, "USDT", "20")
		wantSpot(t, e, impl, u.UID, "BTC", "0.6")
		wantSpot(t, e, impl, u.UID, "USDT", "870.405")

		page, err := e.Wallet.Transfers(ctx, u.UID, wallet.HistoryFilter{PageSize: 100})
		wt.WantCode(t, err, "")
		if page.Count != 9 || len(page.List) != 9 || page.List[0].Symbol != "BTCUSDT" || page.List[8].Amount != "100" {
			t.Fatalf("history %+v", page)
		}
		for _, r := range page.List {
			if r.Status != wallet.TransferSuccess {
				t.Fatalf("history shows %+v", r)
			}
		}
		wantTransitEmpty(t, e, "USDT", "BTC")
		// The change feed tells each transfer once (the Binance-compatible
		// user data stream's balanceUpdate reads it).
		done := map[string]wallet.TransferRecord{}
		for _, ch := range storetest.AllChanges(t, e.Store) {
			if uid, r, ok := wallet.TransferDoneBy(ch); ok {
				if _, twice := done[r.ID]; twice || uid != u.UID {
					t.Fatalf("transfer %+v told twice or for %s", r, uid)
				}
				done[r.ID] = r
			}
		}
		if len(done) != 9 {
			t.Fatalf("%d transfers done in the change feed, want 9", len(done))
		}
		e.Audit(t)
	})
}

func TestInsufficientWritesNothing(t *testing.T) {
	eachFunds(t, func(t *testing.T, e *wt.Env, impl spotfundstest.Impl) {
		u := e.NewUser(t, wt.Flags{})
		e.Fund(t, u.UID, "USDT", "10")
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "10.000001"}, apperr.CodeWalletInsufficient)
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Futures, To: ledger.Spot, Coin: "USDT", Amount: "1"}, apperr.CodeWalletInsufficient)
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.MarginIsolated, To: ledger.Spot, Pair: "ETHUSDT", Coin: "ETH", Amount: "1"}, apperr.CodeWalletInsufficient)
		wantSpot(t, e, impl, u.UID, "USDT", "10")
		e.WantAvail(t, ledger.UserAccount(u.UID, ledger.OTC), "USDT", "0")
		page, err := e.Wallet.Transfers(ctx, u.UID, wallet.HistoryFilter{})
		wt.WantCode(t, err, "")
		if page.Count != 0 {
			t.Fatalf("a failed transfer left a record: %+v", page)
		}
		// The whole balance moves.
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "10"}, "")
		wantSpot(t, e, impl, u.UID, "USDT", "0")
		e.Audit(t)
	})
}

func TestTransferIdempotentRetry(t *testing.T) {
	eachFunds(t, func(t *testing.T, e *wt.Env, impl spotfundstest.Impl) {
		u := e.NewUser(t, wt.Flags{})
		other := e.NewUser(t, wt.Flags{})
		e.Fund(t, u.UID, "USDT", "100")
		e.Fund(t, other.UID, "USDT", "100")
		in := wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "USDT", Amount: "30", RequestID: "req-1"}
		first := xfer(t, e, u.UID, in, "")
		e.Clock.Add(time.Minute)
		again := xfer(t, e, u.UID, in, "")
		if !again.Replayed || first.Replayed || again.ID != first.ID || again.Ctime != first.Ctime || again.Amount != "30" {
			t.Fatalf("retry: first %+v again %+v", first, again)
		}
		wantSpot(t, e, impl, u.UID, "USDT", "70")
		// The same id for another amount is refused, and changes nothing.
		in.Amount = "31"
		xfer(t, e, u.UID, in, apperr.CodeWalletRequestReused)
		wantSpot(t, e, impl, u.UID, "USDT", "70")
		// Another user may use the same client id.
		in.Amount = "30"
		xfer(t, e, other.UID, in, "")
		e.WantAvail(t, ledger.UserAccount(other.UID, ledger.Futures), "USDT", "30")
		// Without a request id every call is a new transfer.
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "USDT", Amount: "1"}, "")
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "USDT", Amount: "1"}, "")
		e.WantAvail(t, ledger.UserAccount(u.UID, ledger.Futures), "USDT", "32")
		page, _ := e.Wallet.Transfers(ctx, u.UID, wallet.HistoryFilter{})
		if page.Count != 3 {
			t.Fatalf("history count %d, want 3", page.Count)
		}
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "USDT", Amount: "1", RequestID: "bad id!"}, apperr.CodeParam)
		e.Audit(t)
	})
}

func TestTransferValidation(t *testing.T) {
	e := wt.New(t)
	u := e.NewUser(t, wt.Flags{})
	e.Fund(t, u.UID, "USDT", "100")
	e.Fund(t, u.UID, "TRX", "100")
	cases := []struct {
		name string
		in   wallet.TransferInput
		code string
	}{
		{"empty", wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: ""}, apperr.CodeParam},
		{"letters", wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "abc"}, apperr.CodeWalletAmountFormat},
		{"two points", wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "1.2.3"}, apperr.CodeWalletAmountFormat},
		{"negative", wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "-1"}, apperr.CodeWalletAmountFormat},
		{"exponent", wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "1e2"}, apperr.CodeWalletAmountFormat},
		{"comma", wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "1,5"}, apperr.CodeWalletAmountFormat},
		{"zero", wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "0.000"}, apperr.CodeWalletAmountZero},
		{"precision", wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "1.1234567"}, apperr.CodeWalletAmountPrecision},
		{"too long", wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "1111111111111111111111111111111111111111111"}, apperr.CodeWalletAmountTooLong},
		{"futures truncates to zero", wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "USDT", Amount: "0.0009"}, apperr.CodeWalletAmountZero},
		{"futures bad format", wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "USDT", Amount: "1..2"}, apperr.CodeWalletAmountFormat},
		{"unknown coin", wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "DOGE", Amount: "1"}, apperr.CodeWalletCoinUnknown},
		{"no coin", wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Amount: "1"}, apperr.CodeParam},
		{"otc coin", wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "TRX", Amount: "1"}, apperr.CodeWalletCoinNotTransferable},
		{"futures coin", wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "TRX", Amount: "1"}, apperr.CodeWalletCoinNotTransferable},
		{"cross fiat", wallet.TransferInput{From: ledger.Spot, To: ledger.MarginCross, Coin: "MNT", Amount: "1"}, apperr.CodeWalletCoinNotTransferable},
		{"pair unknown", wallet.TransferInput{From: ledger.Spot, To: ledger.MarginIsolated, Pair: "DOGEUSDT", Coin: "USDT", Amount: "1"}, apperr.CodeWalletPairUnknown},
		{"pair coin", wallet.TransferInput{From: ledger.Spot, To: ledger.MarginIsolated, Pair: "BTCUSDT", Coin: "TRX", Amount: "1"}, apperr.CodeWalletCoinNotTransferable},
		{"no spot side", wallet.TransferInput{From: ledger.OTC, To: ledger.Futures, Coin: "USDT", Amount: "1"}, apperr.CodeWalletTransferAccount},
		{"spot to spot", wallet.TransferInput{From: ledger.Spot, To: ledger.Spot, Coin: "USDT", Amount: "1"}, apperr.CodeWalletTransferAccount},
		{"earn", wallet.TransferInput{From: ledger.Spot, To: ledger.Earn, Coin: "USDT", Amount: "1"}, apperr.CodeWalletTransferAccount},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { xfer(t, e, u.UID, c.in, c.code) })
	}
	_, err := e.Wallet.Transfer(ctx, "", wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "1"})
	wt.WantCode(t, err, apperr.CodeNotSignedIn)
	e.WantAvail(t, ledger.UserAccount(u.UID, ledger.Spot), "USDT", "100")
	e.Audit(t)
}

func TestTransferHistoryFiltersAndWindow(t *testing.T) {
	eachFunds(t, func(t *testing.T, e *wt.Env, impl spotfundstest.Impl) {
		u := e.NewUser(t, wt.Flags{})
		e.Fund(t, u.UID, "USDT", "1000")
		e.Fund(t, u.UID, "BTC", "1")
		start := e.Clock.Now()
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "1"}, "") // day 0
		e.Clock.Add(100 * 24 * time.Hour)
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "BTC", Amount: "0.1"}, "")
		for i := 0; i < 5; i++ {
			e.Clock.Add(time.Hour)
			xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "USDT", Amount: fmt.Sprint(i + 1)}, "")
		}
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.MarginCross, Coin: "BTC", Amount: "0.2"}, "")

		get := func(f wallet.HistoryFilter) wallet.TransferPage {
			t.Helper()
			p, err := e.Wallet.Transfers(ctx, u.UID, f)
			wt.WantCode(t, err, "")
			return p
		}
		if p := get(wallet.HistoryFilter{}); p.Count != 8 || len(p.List) != 8 || p.List[0].To != "margin_cross" {
			t.Fatalf("all: %+v", p)
		}
		if p := get(wallet.HistoryFilter{Coin: "BTC"}); p.Count != 2 {
			t.Fatalf("BTC: %+v", p)
		}
		if p := get(wallet.HistoryFilter{Type: "otc"}); p.Count != 2 {
			t.Fatalf("otc: %+v", p)
		}
		if p := get(wallet.HistoryFilter{Account: "futures"}); p.Count != 5 {
			t.Fatalf("futures: %+v", p)
		}
		p := get(wallet.HistoryFilter{Account: "futures", Page: 2, PageSize: 2})
		if p.Count != 5 || len(p.List) != 2 || p.List[0].Amount != "3" || p.List[1].Amount != "2" {
			t.Fatalf("page 2: %+v", p)
		}
		if p := get(wallet.HistoryFilter{Begin: start.Add(time.Hour), End: start.Add(100*24*time.Hour + 90*time.Minute)}); p.Count != 2 {
			t.Fatalf("range: %+v", p)
		}
		_, err := e.Wallet.Transfers(ctx, u.UID, wallet.HistoryFilter{Begin: e.Clock.Now(), End: start})
		wt.WantCode(t, err, apperr.CodeWalletHistoryRange)
		// 181 days after the first transfer it is out of the window.
		e.Clock.Add(81 * 24 * time.Hour)
		if p := get(wallet.HistoryFilter{}); p.Count != 7 {
			t.Fatalf("after 181 days: %d", p.Count)
		}
		// Another user sees nothing of it.
		v := e.NewUser(t, wt.Flags{})
		if p, _ := e.Wallet.Transfers(ctx, v.UID, wallet.HistoryFilter{}); p.Count != 0 {
			t.Fatalf("other user sees %+v", p)
		}
	})
}

// TestConcurrentRandomTransfers moves random amounts between every account
// kind from several goroutines; per user and coin the total is conserved,
// nothing goes negative, and the audit is clean.
func TestConcurrentRandomTransfers(t *testing.T) {
	eachFunds(t, func(t *testing.T, e *wt.Env, impl spotfundstest.Impl) {
		users := []string{e.NewUser(t, wt.Flags{}).UID, e.NewUser(t, wt.Flags{}).UID}
		for _, u := range users {
			e.Fund(t, u, "USDT", "500")
			e.Fund(t, u, "BTC", "2")
		}
		type route struct {
			other ledger.Kind
			pair  string
			coin  string
		}
		routes := []route{
			{ledger.OTC, "", "USDT"}, {ledger.OTC, "", "BTC"}, {ledger.Futures, "", "USDT"},
			{ledger.MarginCross, "", "USDT"}, {ledger.MarginCross, "", "BTC"},
			{ledger.MarginIsolated, "BTCUSDT", "BTC"}, {ledger.MarginIsolated, "BTCUSDT", "USDT"},
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		okCount, shortCount := 0, 0
		for g := 0; g < 6; g++ {
			wg.Add(1)
			go func(seed int64) {
				defer wg.Done()
				rng := rand.New(rand.NewSource(seed))
				for i := 0; i < 60; i++ {
					uid := users[rng.Intn(len(users))]
					r := routes[rng.Intn(len(routes))]
					amt := decimal.NewFromInt(int64(rng.Intn(20000) + 1)).Shift(-3) // 0.001 .. 20
					in := wallet.TransferInput{From: ledger.Spot, To: r.other, Pair: r.pair, Coin: r.coin, Amount: amt.String()}
					if rng.Intn(2) == 0 {
						in.From, in.To = in.To, in.From
					}
					if rng.Intn(4) == 0 {
						in.RequestID = fmt.Sprintf("g%d-%d", seed, i/2) // some retries of the same id
					}
					_, err := e.Wallet.Transfer(ctx, uid, in)
					mu.Lock()
					switch {
					case err == nil:
						okCount++
					case apperr.As(err).Entry.Code == apperr.CodeWalletInsufficient || apperr.As(err).Entry.Code == apperr.CodeWalletRequestReused:
						shortCount++
					default:
						t.Errorf("transfer %+v: %v", in, err)
					}
					mu.Unlock()
				}
			}(int64(g + 1))
		}
		wg.Wait()
		if okCount == 0 {
			t.Fatal("no transfer succeeded")
		}
		for _, u := range users {
			bs, err := e.Ledger.Balances(ctx, u, "")
			wt.WantCode(t, err, "")
			sum := map[string]decimal.Decimal{}
			for _, b := range bs {
				if b.Available.IsNegative() || b.Frozen.IsNegative() {
					t.Fatalf("negative balance %+v", b)
				}
				sum[b.Coin] = sum[b.Coin].Add(b.Total())
			}
			if !sum["USDT"].Equal(decimal.NewFromInt(500)) || !sum["BTC"].Equal(decimal.NewFromInt(2)) {
				t.Fatalf("user %s totals %v", u, sum)
			}
			for _, coin := range []string{"USDT", "BTC"} {
				b, err := e.Ledger.Balance(ctx, ledger.UserAccount(u, ledger.Spot), coin)
				wt.WantCode(t, err, "")
				wantSpot(t, e, impl, u, coin, b.Available.String())
			}
			page, err := e.Wallet.Transfers(ctx, u, wallet.HistoryFilter{PageSize: 100})
			wt.WantCode(t, err, "")
			for _, r := range page.List {
				if r.Status != wallet.TransferSuccess {
					t.Fatalf("history shows %+v", r)
				}
			}
		}
		t.Logf("%d transfers applied, %d refused", okCount, shortCount)
		e.Clock.Add(time.Minute) // past TransferResumeAge: no transfer was left pending
		if n, err := e.Wallet.ResumeTransfers(ctx); err != nil || n != 0 {
			t.Fatalf("resume after the run: %d, %v", n, err)
		}
		wantTransitEmpty(t, e, "USDT", "BTC")
		e.Audit(t)
	})
}
