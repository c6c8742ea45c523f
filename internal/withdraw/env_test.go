package withdraw_test

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
	"tenger/internal/banksim"
	"tenger/internal/chain"
	"tenger/internal/chainsim"
	"tenger/internal/coins"
	"tenger/internal/deposit"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
	"tenger/internal/wallet"
	"tenger/internal/withdraw"
	"tenger/internal/workflow"
)

var ctx = context.Background()

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// verifier is a stand-in for the auth service: one valid code per user and
// channel, used up on success, with the auth service's error codes.
type verifier struct {
	mu     sync.Mutex
	users  map[string]auth.User
	codes  map[string]string // uid|channel → code
	google map[string]string // uid → code
}

func newVerifier() *verifier {
	return &verifier{users: map[string]auth.User{}, codes: map[string]string{}, google: map[string]string{}}
}

func (v *verifier) User(_ context.Context, uid string) (auth.User, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	u, ok := v.users[uid]
	if !ok {
		return auth.User{}, apperr.New(apperr.CodeNotSignedIn)
	}
	return u, nil
}

func (v *verifier) issue(uid string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.codes[uid+"|"+auth.ChannelEmail+"|17"] = "111111"
	v.codes[uid+"|"+auth.ChannelSMS+"|10"] = "222222"
	v.google[uid] = "333333"
}

// VerifyAll checks every factor first and uses the codes up only when all
// are right, as the auth service does.
func (v *verifier) VerifyAll(_ context.Context, uid string, fs ...auth.Factor) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	var used []string
	for _, f := range fs {
		if f.Channel == auth.ChannelGoogle {
			if f.Code == "" {
				return apperr.New(apperr.CodeGoogleCodeRequired)
			}
			if v.google[uid] != f.Code {
				return apperr.New(apperr.CodeGoogleCodeWrong)
			}
			continue
		}
		k := uid + "|" + f.Channel + "|" + itoa(f.Ops[0])
		want, ok := v.codes[k]
		if !ok {
			return apperr.New(apperr.CodeCodeExpired)
		}
		if f.Code != want {
			return apperr.New(apperr.CodeVerifyCodeWrong)
		}
		used = append(used, k)
	}
	for _, k := range used {
		delete(v.codes, k)
	}
	return nil
}

func itoa(n int) string {
	return decimal.NewFromInt(int64(n)).String()
}

// fakeWallet is the accounts side with settable switches.
type fakeWallet struct {
	mu       sync.Mutex
	saved    map[string]bool // uid|coin|chain|address|memo
	verify   map[string]bool
	locked   map[string]time.Time
	banks    map[string][]wallet.BankAccount
	prices   map[string]decimal.Decimal
	perUSDT  map[string]decimal.Decimal
	addrList map[string][]wallet.SavedAddress
}

func newWallet() *fakeWallet {
	return &fakeWallet{saved: map[string]bool{}, verify: map[string]bool{}, locked: map[string]time.Time{},
		banks: map[string][]wallet.BankAccount{}, addrList: map[string][]wallet.SavedAddress{}, perUSDT: map[string]decimal.Decimal{},
		prices: map[string]decimal.Decimal{"BTC": decimal.NewFromInt(50000), "USDT": decimal.NewFromInt(1),
			"ETH": decimal.NewFromInt(3000), "XRP": decimal.RequireFromString("0.5"), "MNT": decimal.RequireFromString("0.0003"),
			"TRX": decimal.RequireFromString("0.1"), "TON": decimal.NewFromInt(5)}}
}

func (w *fakeWallet) save(uid, coin, ch, address, memo string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.saved[strings.Join([]string{uid, coin, ch, address, memo}, "|")] = true
	w.addrList[uid] = append(w.addrList[uid], wallet.SavedAddress{ID: "a1", CoinSymbol: coin, Chain: ch, TrustType: ch, Address: address, Memo: memo, Label: "mine"})
}

func (w *fakeWallet) IsSavedAddress(_ context.Context, uid, coin, ch, address, memo string) (bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.saved[strings.Join([]string{uid, coin, ch, address, memo}, "|")], nil
}

func (w *fakeWallet) VerifyAddressOn(_ context.Context, uid string) (bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.verify[uid], nil
}

func (w *fakeWallet) WithdrawLockedUntil(_ context.Context, uid string) (time.Time, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.locked[uid], nil
}

func (w *fakeWallet) BankAccounts(_ context.Context, uid string) ([]wallet.BankAccount, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]wallet.BankAccount(nil), w.banks[uid]...), nil
}

func (w *fakeWallet) BankAccount(_ context.Context, uid, id string) (wallet.BankAccount, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, b := range w.banks[uid] {
		if b.ID == id {
			return b, nil
		}
	}
	return wallet.BankAccount{}, apperr.New(apperr.CodeNotFound)
}

func (w *fakeWallet) Addresses(_ context.Context, uid, coin string) ([]wallet.SavedAddress, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []wallet.SavedAddress
	for _, a := range w.addrList[uid] {
		if a.CoinSymbol == coin {
			out = append(out, a)
		}
	}
	return out, nil
}

// USDTValue is amount × the coin's price (or, for a coin in perUSDT, amount
// ÷ its units per USDT rounded to 18 places, as the wallet values the fiat);
// a coin with neither has no price (CodeWalletNoPrice, as the wallet says).
func (w *fakeWallet) USDTValue(_ context.Context, coin string, amount decimal.Decimal) (decimal.Decimal, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if per, ok := w.perUSDT[coin]; ok {
		return amount.DivRound(per, 18), nil
	}
	p, ok := w.prices[coin]
	if !ok {
		return decimal.Zero, apperr.New(apperr.CodeWalletNoPrice, coin)
	}
	return amount.Mul(p), nil
}

func (w *fakeWallet) setPrice(coin, usdt string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.perUSDT, coin)
	if usdt == "" {
		delete(w.prices, coin)
		return
	}
	w.prices[coin] = decimal.RequireFromString(usdt)
}

// setPerUSDT values coin as the wallet values the fiat: units per USDT.
func (w *fakeWallet) setPerUSDT(coin, per string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.prices, coin)
	w.perUSDT[coin] = decimal.RequireFromString(per)
}

type env struct {
	t      *testing.T
	dir    string
	st     store.Store
	clk    *clock
	cat    *coins.Catalogue
	led    *ledger.Ledger
	auth   *verifier
	wal    *fakeWallet
	chain  *chainsim.Sim
	bank   *banksim.Sim
	runner *workflow.Runner
	svc    *withdraw.Service
	hook   func(in workflow.Instance, tr workflow.Transition, err error) error
	owners ownerMap
	// deposits, when realDeposits is set, is the real deposit service on
	// the same store, in place of owners.
	realDeposits bool
	deposits     *deposit.Service
	// funds, when set, is the service's spotfunds implementation (nil:
	// the default, the store ledger).
	funds spotfunds.Funds
}

// ownerMap is a deposit-address book: "chain|address|memo" → uid.
type ownerMap map[string]string

func (m ownerMap) OwnerOf(_ context.Context, chainName, address, memo string) (string, error) {
	return m[chainName+"|"+address+"|"+memo], nil
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvWith(t, false)
}

// newEnvWithDeposits is newEnv with the real deposit service (its derived
// addresses and OwnerOf) in place of the owner map.
func newEnvWithDeposits(t *testing.T) *env {
	t.Helper()
	return newEnvWith(t, true)
}

func newEnvWith(t *testing.T, realDeposits bool) *env {
	t.Helper()
	cat, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, dir: t.TempDir(), clk: &clock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}, cat: cat,
		auth: newVerifier(), wal: newWallet(), owners: ownerMap{}, realDeposits: realDeposits}
	e.open()
	t.Cleanup(func() { _ = e.st.Close() })
	return e
}

// open builds every component on the store in e.dir (a "process start").
func (e *env) open() {
	st, err := embedded.Open(e.dir, embedded.Options{SweepInterval: -1})
	if err != nil {
		e.t.Fatal(err)
	}
	e.st = st
	e.build()
}

// build builds every component on e.st.
func (e *env) build() {
	st := e.st
	e.led = ledger.New(st, e.clk.Now)
	e.runner = workflow.New(workflow.Options{Store: st, Now: e.clk.Now, Log: zerolog.Nop(), BackoffBase: time.Millisecond,
		BackoffMax: 10 * time.Millisecond, BeforeCommit: func(in workflow.Instance, tr workflow.Transition, err error) error {
			if e.hook != nil {
				return e.hook(in, tr, err)
			}
			return nil
		}})
	e.chain = chainsim.New(chainsim.Options{Store: st, Coins: e.cat, Now: e.clk.Now, Log: zerolog.Nop(), Completer: e.runner})
	e.bank = banksim.New(banksim.Options{Store: st, Now: e.clk.Now, Log: zerolog.Nop(), Completer: e.runner})
	var owners withdraw.DepositOwners = e.owners
	if e.realDeposits {
		der, err := deposit.NewDeriver("local", chain.Config{})
		if err != nil {
			e.t.Fatal(err)
		}
		e.deposits = deposit.New(deposit.Options{Store: st, Ledger: e.led, Coins: e.cat, Deriver: der, Now: e.clk.Now, Log: zerolog.Nop()})
		owners = e.deposits
	}
	e.svc = withdraw.New(withdraw.Options{Store: st, Ledger: e.led, Coins: e.cat, Wallet: e.wal, Auth: e.auth, Chain: e.chain,
		Bank: e.bank, Deposits: owners, Funds: e.funds, Now: e.clk.Now, Log: zerolog.Nop()})
	e.svc.SetRunner(e.runner, e.runner)
	e.runner.Register(e.svc.Steps().Definition())
}

// restart closes the store and opens everything again.
func (e *env) restart() {
	if err := e.st.Close(); err != nil {
		e.t.Fatal(err)
	}
	e.open()
}

// user registers a user with flags and fresh codes.
func (e *env) user(uid string, email, mobileCheck, google bool) {
	u := auth.User{ID: uid, Mobile: "99112233", CountryCode: "976", MobileCheck: mobileCheck, GoogleOn: google}
	if email {
		u.Email = uid + "@example.com"
	}
	e.auth.mu.Lock()
	e.auth.users[uid] = u
	e.auth.mu.Unlock()
	e.auth.issue(uid)
}

// fund credits a user's spot balance from the chain's external account.
func (e *env) fund(uid, coin, ch, amount string) {
	e.t.Helper()
	_, err := e.led.Post(ctx, ledger.Posting{ID: "fund:" + uid + coin + amount + ch, Reason: "deposit",
		Legs: []ledger.Leg{ledger.Move(ledger.ChainAccount(ch), ledger.UserAccount(uid, ledger.Spot), coin, decimal.RequireFromString(amount))}})
	if err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) spot(uid, coin string) ledger.Balance {
	e.t.Helper()
	b, err := e.led.Balance(ctx, ledger.UserAccount(uid, ledger.Spot), coin)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

func (e *env) balance(a ledger.Account, coin string) decimal.Decimal {
	e.t.Helper()
	b, err := e.led.Balance(ctx, a, coin)
	if err != nil {
		e.t.Fatal(err)
	}
	return b.Total()
}

func (e *env) audit() {
	e.t.Helper()
	rep, err := e.led.Audit(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	if !rep.Clean() {
		e.t.Fatalf("audit: %v", rep.Problems)
	}
}

// drive runs due workflow steps until none is left.
func (e *env) drive() {
	e.t.Helper()
	for i := 0; i < 50; i++ {
		n, err := e.runner.RunDue(ctx)
		if err != nil {
			e.t.Fatal(err)
		}
		if n == 0 {
			return
		}
	}
	e.t.Fatal("workflow did not settle down")
}

func (e *env) record(id string) withdraw.Record {
	e.t.Helper()
	r, err := e.svc.Get(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

func wantCode(t *testing.T, err error, code string) *apperr.Error {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Entry.Code != code {
		t.Fatalf("want code %s, got %v", code, err)
	}
	return ae
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// addr is a valid address of a chain that is not the exchange's.
func addr(t *testing.T, c chain.Chain) chain.Address {
	t.Helper()
	d, err := chain.New(chain.DevelopmentConfig())
	if err != nil {
		t.Fatal(err)
	}
	a, err := d.DepositAddress(c, 777)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

var allCodes = withdraw.Codes{Email: "111111", SMS: "222222", Google: "333333"}
