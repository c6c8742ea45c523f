// Package wallettest builds a wallet service on real parts for tests: the
// embedded store, the ledger, the default coin catalogue, the real profile
// service (internal/auth) delivering codes to the local outbox adapter
// (internal/notify/outbox), and a clock the test moves.
package wallettest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/notify/outbox"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
	"tenger/internal/wallet"
)

// Clock is a clock the test moves by hand.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Add moves the clock.
func (c *Clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// Env is a wallet service on real parts.
type Env struct {
	Store  store.Store
	Ledger *ledger.Ledger
	// Funds moves spot balances, for Wallet and Fund: the store ledger
	// unless UseFunds gave another (spotfundstest's engine).
	Funds  spotfunds.Funds
	Auth   *auth.Service
	Wallet *wallet.Service
	Outbox *outbox.Outbox
	Clock  *Clock
	Prices *wallet.StaticPrices
	Coins  *coins.Catalogue
	n      atomic.Int64
	opts   wallet.Options
}

// Ctx is the tests' context.
var Ctx = context.Background()

// New builds an environment in a temporary directory.
func New(t testing.TB) *Env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	ob, err := outbox.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ob.Close(); _ = st.Close() })
	clk := &Clock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	a := auth.New(auth.Options{Store: st, Notifier: ob, Now: clk.Now, Log: zerolog.Nop(), SecretKey: []byte("wallet-test"),
		Password: &auth.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1},
		Limits: &auth.Limits{LoginFailures: 100, LoginIPAttempts: 1000, LoginWindow: time.Minute,
			CodeIPSends: 1_000_000, CodeTargetSends: 1_000_000, CodeSendWindow: time.Hour, TOTPFailures: 100}})
	cat, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	led := ledger.New(st, clk.Now)
	prices := wallet.SeededPrices()
	funds := spotfunds.Ledger{Led: led, Store: st}
	opts := wallet.Options{Store: st, Ledger: led, Funds: funds, Coins: cat, Auth: a, Prices: prices, Now: clk.Now, Log: zerolog.Nop()}
	return &Env{Store: st, Ledger: led, Funds: funds, Auth: a, Wallet: wallet.New(opts), Outbox: ob, Clock: clk,
		Prices: prices, Coins: cat, opts: opts}
}

// UseFunds makes f move spot balances from now on: Wallet is built again
// on it (the same store, ledger, clock and prices), and Fund credits
// through it. Where f is an engine's (spotfundstest), every spot balance
// the test uses must come through it: the engine's projection writes
// those balances absolutely.
func (e *Env) UseFunds(f spotfunds.Funds) {
	e.Funds = f
	e.opts.Funds = f
	e.Wallet = wallet.New(e.opts)
}

// Flags choose a new user's security settings.
type Flags struct {
	// Phone binds a phone number; MobileCheck also turns the SMS check on
	// (isOpenMobileCheck 1, implies Phone).
	Phone, MobileCheck bool
	// Google turns the authenticator on (googleStatus 1).
	Google bool
	// NoEmail registers by phone only (implies Phone).
	NoEmail bool
}

// User is a test account.
type User struct {
	UID, Email, CC, Phone, Password, GoogleSecret string
}

func meta(uid string) auth.Meta {
	return auth.Meta{IP: "10.1.1.1", Device: "test", Lang: apperr.LangEN, UserID: uid}
}

func must(t testing.TB, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// lastCode is the newest code the outbox holds for to and op.
func (e *Env) lastCode(t testing.TB, to string, op int) string {
	t.Helper()
	list, err := e.Outbox.List(Ctx)
	must(t, "outbox", err)
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].To == to && list[i].OperationType == op {
			return list[i].Code
		}
	}
	t.Fatalf("no code for %s op %d in the outbox", to, op)
	return ""
}

// NewUser registers an account with the flags.
func (e *Env) NewUser(t testing.TB, f Flags) User {
	t.Helper()
	n := e.n.Add(1)
	u := User{Password: "passw0rd-" + fmt.Sprint(n)}
	if f.MobileCheck || f.NoEmail {
		f.Phone = true
	}
	if f.Phone {
		u.CC, u.Phone = "976", fmt.Sprintf("9%07d", n)
	}
	var err error
	if f.NoEmail {
		must(t, "sms", e.Auth.SendSMSCode(Ctx, meta(""), u.CC, u.Phone, auth.OpRegister))
		u.UID, err = e.Auth.Register(Ctx, meta(""), auth.RegisterInput{Account: auth.Account{CountryCode: u.CC, Mobile: u.Phone},
			Password: u.Password, Code: e.lastCode(t, "+"+u.CC+u.Phone, auth.OpRegister)})
		must(t, "register", err)
	} else {
		u.Email = fmt.Sprintf("user%d@example.com", n)
		must(t, "email", e.Auth.SendEmailCode(Ctx, meta(""), u.Email, auth.OpRegister))
		u.UID, err = e.Auth.Register(Ctx, meta(""), auth.RegisterInput{Account: auth.Account{Email: u.Email},
			Password: u.Password, Code: e.lastCode(t, u.Email, auth.OpRegister)})
		must(t, "register", err)
		if f.Phone {
			must(t, "bind sms", e.Auth.SendSMSCode(Ctx, meta(u.UID), u.CC, u.Phone, auth.OpBindPhone))
			must(t, "bind", e.Auth.BindMobile(Ctx, meta(u.UID), u.CC, u.Phone, e.lastCode(t, "+"+u.CC+u.Phone, auth.OpBindPhone), ""))
		}
	}
	if f.MobileCheck {
		must(t, "open mobile check", e.Auth.OpenMobileCheck(Ctx, meta(u.UID), e.SMSCode(t, u, auth.OpSecurity)))
	}
	if f.Google {
		g, err := e.Auth.GoogleSetupStart(Ctx, meta(u.UID))
		must(t, "google setup", err)
		u.GoogleSecret = g.Secret
		must(t, "google enable", e.Auth.GoogleEnable(Ctx, meta(u.UID), e.totp(t, g.Secret), u.Password))
	}
	return u
}

// SMSCode requests an SMS code of op to the user's bound phone and returns
// it (the clock first moves past the 90 s resend window).
func (e *Env) SMSCode(t testing.TB, u User, op int) string {
	t.Helper()
	e.Clock.Add(91 * time.Second)
	must(t, "send sms", e.Auth.SendSMSCode(Ctx, meta(u.UID), "", "", op))
	return e.lastCode(t, "+"+u.CC+u.Phone, op)
}

// EmailCode requests an e-mail code of op to the user's bound address.
func (e *Env) EmailCode(t testing.TB, u User, op int) string {
	t.Helper()
	e.Clock.Add(91 * time.Second)
	must(t, "send email", e.Auth.SendEmailCode(Ctx, meta(u.UID), "", op))
	return e.lastCode(t, u.Email, op)
}

func (e *Env) totp(t testing.TB, secret string) string {
	t.Helper()
	c, err := totp.GenerateCodeCustom(secret, e.Clock.Now(),
		totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	must(t, "totp", err)
	return c
}

// GoogleCode returns a fresh authenticator code (the clock first moves to
// the next 30 s step, since a code is accepted once).
func (e *Env) GoogleCode(t testing.TB, u User) string {
	t.Helper()
	e.Clock.Add(31 * time.Second)
	return e.totp(t, u.GoogleSecret)
}

// WrongCode returns a 6-digit code that differs from code.
func WrongCode(code string) string {
	if code == "000000" {
		return "111111"
	}
	return "000000"
}

// Fund credits the user's spot account from the coin's first chain (a
// deposit; the bank for fiat) through Funds.
func (e *Env) Fund(t testing.TB, uid, coin, amount string) {
	t.Helper()
	c, ok := e.Coins.Coin(coin)
	if !ok {
		t.Fatalf("unknown coin %s", coin)
	}
	ext := ledger.ChainAccount(c.Chains[0].Name)
	if c.IsFiat {
		ext = ledger.BankAccount("TESTBANK")
	}
	err := e.Funds.Credit(Ctx, spotfunds.Move{Ref: fmt.Sprintf("test-deposit:%s:%d", uid, e.n.Add(1)), UID: uid,
		Coin: c.Symbol, Amount: decimal.RequireFromString(amount), Other: ext, Reason: "deposit"})
	must(t, "fund", err)
}

// Balance returns available and frozen of one account.
func (e *Env) Balance(t testing.TB, a ledger.Account, coin string) (avail, frozen string) {
	t.Helper()
	b, err := e.Ledger.Balance(Ctx, a, coin)
	must(t, "balance", err)
	return b.Available.String(), b.Frozen.String()
}

// WantAvail fails unless the account's available amount equals want.
func (e *Env) WantAvail(t testing.TB, a ledger.Account, coin, want string) {
	t.Helper()
	b, err := e.Ledger.Balance(Ctx, a, coin)
	must(t, "balance", err)
	if !b.Available.Equal(decimal.RequireFromString(want)) {
		t.Fatalf("%s %s available = %s, want %s", a, coin, b.Available, want)
	}
}

// Audit fails unless the ledger's audit is clean.
func (e *Env) Audit(t testing.TB) {
	t.Helper()
	rep, err := e.Ledger.Audit(Ctx)
	must(t, "audit", err)
	if !rep.Clean() {
		var sb strings.Builder
		rep.Write(&sb)
		t.Fatalf("audit not clean:\n%s", sb.String())
	}
}

// WantCode fails unless err is the catalogue error code ("" means no error).
func WantCode(t testing.TB, err error, code string) {
	t.Helper()
	if code == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("want code %s, got success", code)
	}
	if ae := apperr.As(err); ae.Entry.Code != code {
		t.Fatalf("want code %s, got %v", code, err)
	}
}
