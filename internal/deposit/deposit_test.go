package deposit_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/chain"
	"tenger/internal/chainsim"
	"tenger/internal/coins"
	"tenger/internal/deposit"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/spotfunds/spotfundstest"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
	"tenger/internal/store/storetest"
)

var ctx = context.Background()

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

type users map[string]bool

func (u users) User(_ context.Context, uid string) (auth.User, error) {
	if u[uid] {
		return auth.User{ID: uid}, nil
	}
	return auth.User{}, apperr.New(apperr.CodeNotSignedIn)
}

type env struct {
	dir string
	st  store.Store
	clk *clock
	cat *coins.Catalogue
	led *ledger.Ledger
	svc *deposit.Service
	sim *chainsim.Sim
	w   *deposit.Watcher
	// impl and funds are set by openFunds: the implementation under test
	// and the recorder in front of it that the service credits through.
	impl  spotfundstest.Impl
	funds *recFunds
}

// open opens the service with Options.Funds nil (the default: the store
// ledger).
func open(t *testing.T, dir string, clk *clock, cat *coins.Catalogue) *env {
	t.Helper()
	st, err := embedded.Open(dir, embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	return openOn(t, dir, st, clk, cat, nil)
}

func openOn(t *testing.T, dir string, st store.Store, clk *clock, cat *coins.Catalogue, funds spotfunds.Funds) *env {
	t.Helper()
	der, err := deposit.NewDeriver("local", chain.Config{})
	if err != nil {
		t.Fatal(err)
	}
	led := ledger.New(st, clk.Now)
	svc := deposit.New(deposit.Options{Store: st, Ledger: led, Funds: funds, Coins: cat, Deriver: der, Now: clk.Now, Log: zerolog.Nop()})
	sim := chainsim.New(chainsim.Options{Store: st, Coins: cat, Now: clk.Now, Log: zerolog.Nop()})
	return &env{dir: dir, st: st, clk: clk, cat: cat, led: led, svc: svc, sim: sim, w: svc.NewWatcher(sim, time.Millisecond)}
}

func newEnv(t *testing.T) *env {
	t.Helper()
	cat, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	e := open(t, t.TempDir(), &clock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}, cat)
	t.Cleanup(func() { _ = e.st.Close() })
	return e
}

// reopen closes the store and opens everything again on the same data.
func (e *env) reopen(t *testing.T) *env {
	t.Helper()
	if err := e.st.Close(); err != nil {
		t.Fatal(err)
	}
	n := open(t, e.dir, e.clk, e.cat)
	t.Cleanup(func() { _ = n.st.Close() })
	return n
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Entry.Code != code {
		t.Fatalf("want code %s, got %v", code, err)
	}
}

func (e *env) spot(t *testing.T, uid, coin string) ledger.Balance {
	t.Helper()
	b, err := e.led.Balance(ctx, ledger.UserAccount(uid, ledger.Spot), coin)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (e *env) audit(t *testing.T) {
	t.Helper()
	rep, err := e.led.Audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Clean() {
		t.Fatalf("audit: %v", rep.Problems)
	}
}

func (e *env) mine(t *testing.T, ch string, n int) {
	t.Helper()
	if _, err := e.sim.Mine(ctx, ch, n); err != nil {
		t.Fatal(err)
	}
	if err := e.w.Scan(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestChargeAddressFormatsStableAndUnique(t *testing.T) {
	e := newEnv(t)
	get := func(uid, sym, ch string) deposit.Address {
		t.Helper()
		a, err := e.svc.ChargeAddress(ctx, uid, sym, ch)
		if err != nil {
			t.Fatalf("%s %s %s: %v", uid, sym, ch, err)
		}
		return a
	}
	a1 := get("10000001", "BTC", "")
	if !strings.HasPrefix(a1.AddressLong, "bc1q") || chain.Validate(chain.BTC, a1.AddressLong) != nil {
		t.Fatalf("BTC address %q", a1.AddressLong)
	}
	if !strings.HasPrefix(a1.AddressQRCode, "data:image/png;base64,") {
		t.Fatalf("QR %q", a1.AddressQRCode[:30])
	}
	eth := get("10000001", "ETH", "ETH")
	erc := get("10000001", "USDT", "ERC20")
	bep := get("10000001", "USDT_BEP20", "")
	if eth.AddressLong != erc.AddressLong || erc.AddressLong != bep.AddressLong || chain.Validate(chain.ERC20, erc.AddressLong) != nil {
		t.Fatalf("EVM family addresses differ or invalid: %s %s %s", eth.AddressLong, erc.AddressLong, bep.AddressLong)
	}
	trx, trc := get("10000001", "TRX", ""), get("10000001", "USDTTRC20", "")
	if trx.AddressLong != trc.AddressLong || !strings.HasPrefix(trx.AddressLong, "T") || chain.Validate(chain.TRX, trx.AddressLong) != nil {
		t.Fatalf("TRON addresses %s %s", trx.AddressLong, trc.AddressLong)
	}
	x1, x2 := get("10000001", "XRP", ""), get("10000002", "XRP", "")
	if x1.AddressLong != x2.AddressLong || x1.Memo == "" || x1.Memo == x2.Memo || x1.AddressStr != x1.AddressLong+"_"+x1.Memo || x1.TagType != 1 {
		t.Fatalf("XRP memo addresses %+v %+v", x1, x2)
	}
	if b2 := get("10000002", "BTC", ""); b2.AddressLong == a1.AddressLong {
		t.Fatal("two users share a BTC address")
	}
	// Stable: again, and after a restart.
	if again := get("10000001", "BTC", ""); again.AddressLong != a1.AddressLong {
		t.Fatal("address changed")
	}
	e = e.reopen(t)
	a, err := e.svc.ChargeAddress(ctx, "10000001", "USDT", "ERC20")
	if err != nil || a.AddressLong != erc.AddressLong {
		t.Fatalf("after restart %v %v", a.AddressLong, err)
	}
	// The fiat answers the bank block with the user id as the reference.
	m, err := e.svc.ChargeAddress(ctx, "10000001", "MNT", "")
	if err != nil || m.Bank == nil || m.Bank.TransactionValue != "10000001" || m.Bank.AccountNo == "" || m.Bank.BankName == "" {
		t.Fatalf("MNT bank block %+v %v", m.Bank, err)
	}
	_, err = e.svc.ChargeAddress(ctx, "10000001", "DOGE", "")
	wantCode(t, err, apperr.CodeCoinUnknown)
	_, err = e.svc.ChargeAddress(ctx, "10000001", "USDT", "XRP")
	wantCode(t, err, apperr.CodeChainUnknown)
}

func TestClosedDepositsAndProdKeys(t *testing.T) {
	all, _ := coins.Defaults()
	list := all.List()
	for i := range list {
		if list[i].Symbol == "USDT" {
			for j := range list[i].Chains {
				if list[i].Chains[j].Name == "TRC20" {
					list[i].Chains[j].DepositOpen = false
				}
			}
		}
	}
	cat, err := coins.NewCatalogue(list)
	if err != nil {
		t.Fatal(err)
	}
	e := open(t, t.TempDir(), &clock{t: time.Now()}, cat)
	defer e.st.Close()
	_, err = e.svc.ChargeAddress(ctx, "10000001", "USDT", "TRC20")
	wantCode(t, err, apperr.CodeDepositClosed)
	if _, err := deposit.NewDeriver("prod", chain.Config{}); err == nil {
		t.Fatal("prod accepted empty keys")
	}
	if _, err := deposit.NewDeriver("prod", chain.DevelopmentConfig()); err == nil {
		t.Fatal("prod accepted the development keys")
	}
}

func TestChainDepositCreditedOnceAfterConfirmations(t *testing.T) {
	e := newEnv(t)
	const uid = "10000001"
	a, err := e.svc.ChargeAddress(ctx, uid, "USDT", "ERC20")
	if err != nil {
		t.Fatal(err)
	}
	// A lower-case copy of the EIP-55 address still reaches the user.
	tx, err := e.sim.Deposit(ctx, chainsim.DepositReq{Coin: "USDT", Chain: "ERC20", Address: strings.ToLower(a.AddressLong), Amount: "125.5"})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.w.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	hist := func() deposit.Record {
		t.Helper()
		l, n, err := e.svc.History(ctx, uid, deposit.Filter{})
		if err != nil || n != 1 || len(l) != 1 {
			t.Fatalf("history %v %d %v", l, n, err)
		}
		return l[0]
	}
	if r := hist(); r.Status != deposit.StatusConfirming || r.Confirmations != 0 || r.Required != 12 || r.TxID != tx.TxID {
		t.Fatalf("before mining %+v", r)
	}
	e.mine(t, "ERC20", 5)
	if r := hist(); r.Status != deposit.StatusConfirming || r.Confirmations != 5 {
		t.Fatalf("after 5 blocks %+v", r)
	}
	if b := e.spot(t, uid, "USDT"); !b.Available.IsZero() {
		t.Fatalf("credited early: %s", b.Available)
	}
	e.mine(t, "ERC20", 7)
	if r := hist(); r.Status != deposit.StatusCredited || r.Confirmations != 12 {
		t.Fatalf("after 12 blocks %+v", r)
	}
	want := decimal.RequireFromString("125.5")
	if b := e.spot(t, uid, "USDT"); !b.Available.Equal(want) {
		t.Fatalf("balance %s", b.Available)
	}
	// More blocks, a replay of the same transfer and a restart credit nothing more.
	e.mine(t, "ERC20", 20)
	got, _ := e.sim.Get(ctx, "ERC20", tx.TxID)
	if final, err := e.svc.Observe(ctx, got, 100); err != nil || !final {
		t.Fatalf("replay %v %v", final, err)
	}
	e = e.reopen(t)
	e.mine(t, "ERC20", 1)
	if final, err := e.svc.Observe(ctx, got, 200); err != nil || !final {
		t.Fatalf("replay after restart %v %v", final, err)
	}
	if b := e.spot(t, uid, "USDT"); !b.Available.Equal(want) {
		t.Fatalf("balance after replays %s", b.Available)
	}
	if open, _ := e.sim.OpenIncoming(ctx, "ERC20"); len(open) != 0 {
		t.Fatalf("transfer still open: %v", open)
	}
	// The change feed tells the credit once, with its amount (the
	// Binance-compatible user data stream's balanceUpdate reads it).
	var credited []deposit.Record
	for _, ch := range storetest.AllChanges(t, e.st) {
		if r, ok := deposit.CreditedBy(ch); ok {
			credited = append(credited, r)
		}
	}
	if len(credited) != 1 || credited[0].UID != uid || !credited[0].Amount.Equal(want) || credited[0].Coin != "USDT" {
		t.Fatalf("credits in the change feed: %+v", credited)
	}
	e.audit(t)
}

func TestUnknownDestinationsHeldForReview(t *testing.T) {
	e := newEnv(t)
	// A valid address that is not one of ours.
	other, _ := chain.New(chain.DevelopmentConfig())
	foreign, _ := other.DepositAddress(chain.BTC, 4000)
	if _, err := e.sim.Deposit(ctx, chainsim.DepositReq{Coin: "BTC", Chain: "BTC", Address: foreign.Address, Amount: "0.5"}); err != nil {
		t.Fatal(err)
	}
	// An XRP payment without a memo, and one with a memo we issued.
	x, err := e.svc.ChargeAddress(ctx, "10000009", "XRP", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.sim.Deposit(ctx, chainsim.DepositReq{Coin: "XRP", Chain: "XRP", Address: x.AddressLong, Amount: "30"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.sim.Deposit(ctx, chainsim.DepositReq{Coin: "XRP", Chain: "XRP", Address: x.AddressLong, Memo: x.Memo, Amount: "40"}); err != nil {
		t.Fatal(err)
	}
	e.mine(t, "BTC", 3)
	e.mine(t, "XRP", 1)
	rev, err := e.svc.Review(ctx)
	if err != nil || len(rev) != 2 {
		t.Fatalf("review %v %v", rev, err)
	}
	for _, r := range rev {
		if r.Status != deposit.StatusReview {
			t.Fatalf("review record %+v", r)
		}
	}
	if b := e.spot(t, "10000009", "XRP"); !b.Available.Equal(decimal.NewFromInt(40)) {
		t.Fatalf("XRP with memo: %s", b.Available)
	}
	e.audit(t)
}

func TestBankDepositOncePerTxAndReview(t *testing.T) {
	e := newEnv(t)
	us := users{"10000001": true, "10000002": true}
	r, err := e.svc.CreditBank(ctx, us, deposit.BankTransfer{TxID: "KHAN-1", Reference: "10000001", Amount: "150000.50"})
	if err != nil || r.Status != deposit.StatusCredited {
		t.Fatalf("credit %+v %v", r, err)
	}
	for i := 0; i < 3; i++ {
		if _, err := e.svc.CreditBank(ctx, us, deposit.BankTransfer{TxID: "KHAN-1", Reference: "10000001", Amount: "150000.50"}); err != nil {
			t.Fatal(err)
		}
	}
	if b := e.spot(t, "10000001", "MNT"); !b.Available.Equal(decimal.RequireFromString("150000.5")) {
		t.Fatalf("MNT %s", b.Available)
	}
	_, err = e.svc.CreditBank(ctx, us, deposit.BankTransfer{TxID: "KHAN-2", Reference: "10000001", Amount: "1.234"})
	wantCode(t, err, apperr.CodeAmountInvalid)
	held, err := e.svc.CreditBank(ctx, us, deposit.BankTransfer{TxID: "KHAN-3", Reference: "hello", Amount: "7000"})
	if err != nil || held.Status != deposit.StatusReview {
		t.Fatalf("held %+v %v", held, err)
	}
	rev, _ := e.svc.Review(ctx)
	if len(rev) != 1 || rev[0].TxID != "KHAN-3" {
		t.Fatalf("review %+v", rev)
	}
	got, err := e.svc.AssignBank(ctx, us, "KHAN-3", "10000002")
	if err != nil || got.Status != deposit.StatusCredited {
		t.Fatalf("assign %+v %v", got, err)
	}
	_, err = e.svc.AssignBank(ctx, us, "KHAN-3", "10000002")
	wantCode(t, err, apperr.CodeReviewUnknown)
	if b := e.spot(t, "10000002", "MNT"); !b.Available.Equal(decimal.NewFromInt(7000)) {
		t.Fatalf("assigned MNT %s", b.Available)
	}
	if rev, _ := e.svc.Review(ctx); len(rev) != 0 {
		t.Fatalf("still in review %+v", rev)
	}
	l, n, err := e.svc.History(ctx, "10000002", deposit.Filter{Coin: "MNT"})
	if err != nil || n != 1 || l[0].Chain != "Bank" {
		t.Fatalf("history %+v %d %v", l, n, err)
	}
	e.audit(t)
}

func TestHistoryFiltersAndPages(t *testing.T) {
	e := newEnv(t)
	us := users{"10000001": true}
	for i := 0; i < 25; i++ {
		if _, err := e.svc.CreditBank(ctx, us, deposit.BankTransfer{TxID: "T" + string(rune('a'+i)), Reference: "10000001", Amount: "100"}); err != nil {
			t.Fatal(err)
		}
		e.clk.Add(time.Minute)
	}
	l, n, err := e.svc.History(ctx, "10000001", deposit.Filter{Page: 2, PageSize: 10})
	if err != nil || n != 25 || len(l) != 10 || l[0].TxID != "To" {
		t.Fatalf("page 2: n=%d len=%d first=%v err=%v", n, len(l), l, err)
	}
	if _, n, _ := e.svc.History(ctx, "10000001", deposit.Filter{Coin: "BTC"}); n != 0 {
		t.Fatalf("coin filter %d", n)
	}
	if _, n, _ := e.svc.History(ctx, "10000002", deposit.Filter{}); n != 0 {
		t.Fatalf("another user sees %d", n)
	}
	// Older than 180 days is out of the window.
	e.clk.Add(181 * 24 * time.Hour)
	if _, n, _ := e.svc.History(ctx, "10000001", deposit.Filter{}); n != 0 {
		t.Fatalf("window: %d", n)
	}
}
