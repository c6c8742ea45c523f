package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apikey"
	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/spotfunds/spotfundstest"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

var ctx = context.Background()

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type outbox struct {
	mu   sync.Mutex
	msgs []auth.Message
}

func (o *outbox) send(_ context.Context, m auth.Message) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.msgs = append(o.msgs, m)
	return nil
}

func (o *outbox) last(to string, op int) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := len(o.msgs) - 1; i >= 0; i-- {
		if o.msgs[i].To == to && o.msgs[i].OperationType == op {
			return o.msgs[i].Code
		}
	}
	return ""
}

// pending are counts a test sets.
type pending struct {
	orders, withdrawals, transfers, deposits atomic.Int64
}

func (p *pending) OpenOrders(context.Context, string) (int, error) { return int(p.orders.Load()), nil }
func (p *pending) Withdrawals(context.Context, string) (int, error) {
	return int(p.withdrawals.Load()), nil
}
func (p *pending) Transfers(context.Context, string) (int, error) {
	return int(p.transfers.Load()), nil
}
func (p *pending) Deposits(context.Context, string) (int, error) { return int(p.deposits.Load()), nil }

// anyCodes pass keyAuth.
var anyCodes = auth.Codes{Email: "123456"}

// keyAuth lets the tests make API keys without codes (the key service's
// own tests check its codes).
type keyAuth struct{ *auth.Service }

func (keyAuth) VerifyAll(context.Context, string, ...auth.Factor) error { return nil }

type env struct {
	st      store.Store
	auth    *auth.Service
	keys    *apikey.Service
	svc     *Service
	led     *ledger.Ledger
	eng     *spotfundstest.Engine
	funds   spotfunds.Funds
	pending *pending
	clock   *clock
	box     *outbox
}

func newEnv(t *testing.T) *env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e := &env{st: st, clock: &clock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}, box: &outbox{}, pending: &pending{}}
	e.auth = auth.New(auth.Options{Store: st, Notifier: auth.NotifierFunc(e.box.send), Now: e.clock.Now, Log: zerolog.Nop(),
		Password: &auth.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}, SecretKey: []byte("test-key-0123456789")})
	sealer, err := auth.NewSealer([]byte("test-key-0123456789"), "tenger-apikey-v1")
	if err != nil {
		t.Fatal(err)
	}
	e.keys = apikey.New(apikey.Options{Store: st, Auth: keyAuth{e.auth}, Sealer: sealer, Now: e.clock.Now, CacheTTL: time.Minute})
	e.led = ledger.New(st, e.clock.Now)
	e.eng = spotfundstest.NewEngine(t, st, nil)
	e.funds = e.eng.Funds()
	e.svc = New(Options{Store: st, Auth: e.auth, Keys: e.keys, Ledger: e.led, Pending: e.pending, Now: e.clock.Now, Log: zerolog.Nop()})
	return e
}

func (e *env) register(t *testing.T, email string) (string, auth.Meta) {
	t.Helper()
	m := auth.Meta{IP: "10.0.0.1", Device: "test", Lang: apperr.LangEN}
	if err := e.auth.SendEmailCode(ctx, m, email, auth.OpRegister); err != nil {
		t.Fatal(err)
	}
	uid, err := e.auth.Register(ctx, m, auth.RegisterInput{Account: auth.Account{Email: email}, Password: "secret123",
		Code: e.box.last(email, auth.OpRegister)})
	if err != nil {
		t.Fatal(err)
	}
	return uid, e.signIn(t, email)
}

func (e *env) signIn(t *testing.T, email string) auth.Meta {
	t.Helper()
	res, err := e.auth.Login(ctx, auth.Meta{IP: "10.0.0.2"}, auth.Account{Email: email}, "secret123")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := e.auth.Authenticate(ctx, res.Token)
	if err != nil {
		t.Fatal(err)
	}
	return auth.Meta{IP: "10.0.0.2", Device: "test", Lang: apperr.LangEN, UserID: sess.UserID, SessionID: sess.ID}
}

// codes asks for the cancellation's e-mail code (the resend window moved
// past first) and returns it.
func (e *env) codes(t *testing.T, m auth.Meta, email string) auth.Codes {
	t.Helper()
	e.clock.Add(2 * time.Minute)
	if err := e.auth.SendEmailCode(ctx, m, "", auth.SensitiveEmailOp); err != nil {
		t.Fatal(err)
	}
	return auth.Codes{Email: e.box.last(email, auth.SensitiveEmailOp)}
}

// deposit credits a spot coin through the engine, as the deposit watcher
// does (the store shows it when the call returns).
func (e *env) deposit(t *testing.T, uid, ref, coin, amount string) {
	t.Helper()
	err := e.funds.Credit(ctx, spotfunds.Move{Ref: "deposit:" + ref, UID: uid, Coin: coin, Amount: decimal.RequireFromString(amount),
		Other: ledger.ChainAccount("TRC20"), Reason: "deposit"})
	if err != nil {
		t.Fatal(err)
	}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if code == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Entry.Code != code {
		t.Fatalf("want code %s, got %v", code, err)
	}
}

// Every reason is listed, in the caller's language, and the cancellation
// is refused with all of them as its data.
func TestCheckListsEveryReason(t *testing.T) {
	e := newEnv(t)
	uid, m := e.register(t, "busy@example.com")
	e.deposit(t, uid, "d1", "USDT", "12.5")
	if _, err := e.led.Post(ctx, ledger.Posting{ID: "earn-1", Reason: "test", Legs: []ledger.Leg{
		ledger.Move(ledger.ChainAccount("ERC20"), ledger.UserAccount(uid, ledger.Earn), "ETH", decimal.RequireFromString("0.3"))}}); err != nil {
		t.Fatal(err)
	}
	e.pending.orders.Store(2)
	e.pending.withdrawals.Store(1)
	e.pending.transfers.Store(3)
	e.pending.deposits.Store(1)
	info, err := e.svc.Check(ctx, uid, apperr.LangEN)
	wantCode(t, err, "")
	if info.CanCancel || len(info.Reasons) != 5 {
		t.Fatalf("info %+v", info)
	}
	want := []struct {
		typ, code string
		count     int
		text      string
	}{
		{ReasonBalance, apperr.CodeCancelBalance, 2, "12.5 USDT (spot), 0.3 ETH (earn)"},
		{ReasonOpenOrders, apperr.CodeCancelOpenOrders, 2, "Open spot orders: 2"},
		{ReasonPendingWithdrawals, apperr.CodeCancelPendingWithdrawals, 1, "being processed: 1"},
		{ReasonPendingTransfers, apperr.CodeCancelPendingTransfers, 3, "on their way: 3"},
		{ReasonPendingDeposits, apperr.CodeCancelPendingDeposits, 1, "confirmations: 1"},
	}
	for i, w := range want {
		r := info.Reasons[i]
		if r.Type != w.typ || r.Code != w.code || r.Count != w.count || !strings.Contains(r.Msg, w.text) {
			t.Errorf("reason %d: %+v, want %+v", i, r, w)
		}
	}
	if b := info.Reasons[0].Balances; len(b) != 2 || b[0].Account != "earn" && b[1].Account != "earn" {
		t.Fatalf("balances %+v", b)
	}
	mn, err := e.svc.Check(ctx, uid, apperr.LangMN)
	wantCode(t, err, "")
	if !strings.Contains(mn.Reasons[1].Msg, "Нээлттэй спот захиалга: 2") {
		t.Fatalf("Mongolian reason %q", mn.Reasons[1].Msg)
	}
	if !info.NeedEmailCode || info.NeedSMSCode || info.NeedGoogleCode {
		t.Fatalf("factors %+v", info)
	}
	_, err = e.svc.Cancel(ctx, m, CancelRequest{Codes: e.codes(t, m, "busy@example.com")})
	wantCode(t, err, apperr.CodeCancellationBlocked)
	var ae *apperr.Error
	errors.As(err, &ae)
	if got, ok := ae.Data.(Info); !ok || len(got.Reasons) != 5 || !strings.Contains(ae.Message(apperr.LangEN), "Items to settle first: 5") {
		t.Fatalf("refusal %+v / %q", ae.Data, ae.Message(apperr.LangEN))
	}
	if when, _ := e.auth.Cancelled(ctx, uid); !when.IsZero() {
		t.Fatal("a refused cancellation cancelled the account")
	}
}

// Each reason on its own refuses the cancellation; once nothing remains
// it goes through.
func TestEachReasonBlocksAlone(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(e *env, uid string, t *testing.T)
		typ  string
	}{
		{"balance", func(e *env, uid string, t *testing.T) { e.deposit(t, uid, "b1", "BTC", "0.00000001") }, ReasonBalance},
		{"orders", func(e *env, _ string, _ *testing.T) { e.pending.orders.Store(1) }, ReasonOpenOrders},
		{"withdrawals", func(e *env, _ string, _ *testing.T) { e.pending.withdrawals.Store(1) }, ReasonPendingWithdrawals},
		{"transfers", func(e *env, _ string, _ *testing.T) { e.pending.transfers.Store(1) }, ReasonPendingTransfers},
		{"deposits", func(e *env, _ string, _ *testing.T) { e.pending.deposits.Store(1) }, ReasonPendingDeposits},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			uid, m := e.register(t, "one@example.com")
			c.set(e, uid, t)
			info, err := e.svc.Check(ctx, uid, apperr.LangEN)
			wantCode(t, err, "")
			if info.CanCancel || len(info.Reasons) != 1 || info.Reasons[0].Type != c.typ {
				t.Fatalf("info %+v", info)
			}
			_, err = e.svc.Cancel(ctx, m, CancelRequest{Codes: e.codes(t, m, "one@example.com")})
			wantCode(t, err, apperr.CodeCancellationBlocked)
		})
	}
}

// A clear account is cancelled: its sessions and API keys stop working,
// sign-in answers that it is closed, the record keeps what happened and
// until when the records are kept, and nothing else is deleted.
func TestCancelWhenClear(t *testing.T) {
	e := newEnv(t)
	uid, m := e.register(t, "clear@example.com")
	// A balance that went back to zero is no reason.
	e.deposit(t, uid, "z1", "USDT", "5")
	if err := e.funds.Debit(ctx, spotfunds.Move{Ref: "out:z1", UID: uid, Coin: "USDT", Amount: decimal.NewFromInt(5),
		Other: ledger.ChainAccount("TRC20"), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for i := range 2 {
		k, err := e.keys.Create(ctx, uid, apikey.Input{Label: fmt.Sprintf("bot%d", i), Permissions: []string{"spot"}, Codes: anyCodes})
		wantCode(t, err, "")
		keys = append(keys, k.APIKey)
		if _, err := e.keys.Resolve(ctx, k.APIKey); err != nil {
			t.Fatal(err)
		}
	}
	info, err := e.svc.Check(ctx, uid, apperr.LangEN)
	wantCode(t, err, "")
	if !info.CanCancel || len(info.Reasons) != 0 || info.APIKeys != 2 {
		t.Fatalf("info %+v", info)
	}
	other := e.signIn(t, "clear@example.com")
	long := strings.Repeat("ж", MaxReasonLen+1)
	_, err = e.svc.Cancel(ctx, m, CancelRequest{Reason: long})
	wantCode(t, err, apperr.CodeCancellationReason)
	_, err = e.svc.Cancel(ctx, m, CancelRequest{})
	wantCode(t, err, apperr.CodeEmailCodeRequired)
	res, err := e.svc.Cancel(ctx, m, CancelRequest{Codes: e.codes(t, m, "clear@example.com"), Reason: "moving abroad"})
	wantCode(t, err, "")
	if res.CancelledAt != e.clock.Now().UnixMilli() {
		t.Fatalf("answer %+v", res)
	}
	for _, k := range keys {
		if _, err := e.keys.Resolve(ctx, k); !errors.Is(err, apikey.ErrUnknownKey) {
			t.Fatalf("key %s still resolves: %v", k[:8], err)
		}
	}
	if list, _ := e.keys.List(ctx, uid); len(list) != 0 {
		t.Fatalf("keys left %+v", list)
	}
	for _, s := range []auth.Meta{m, other} {
		if _, err := e.auth.UserInfo(ctx, s); err != nil {
			t.Fatal(err) // the profile is kept: an operator reads it
		}
	}
	_, err = e.auth.Login(ctx, auth.Meta{IP: "1.1.1.1"}, auth.Account{Email: "clear@example.com"}, "secret123")
	wantCode(t, err, apperr.CodeAccountCancelled)
	st, err := e.svc.Show(ctx, uid)
	wantCode(t, err, "")
	if st.CancelledAt.IsZero() || st.Reason != "moving abroad" || len(st.APIKeys) != 2 || len(st.Holdings) != 0 ||
		!st.RetainUntil.Equal(time.UnixMilli(res.CancelledAt).Add(RetentionPeriod)) {
		t.Fatalf("status %+v", st)
	}
	// The records stay: the balance item, its postings, the profile.
	if bals, _ := e.led.Balances(ctx, uid, ""); len(bals) != 1 {
		t.Fatalf("balances %+v", bals)
	}
	all, err := e.svc.Review(ctx, false)
	wantCode(t, err, "")
	funded, err := e.svc.Review(ctx, true)
	wantCode(t, err, "")
	if len(all) != 1 || all[0].UID != uid || len(funded) != 0 {
		t.Fatalf("review all %+v funded %+v", all, funded)
	}
	_, err = e.svc.Check(ctx, uid, apperr.LangEN)
	wantCode(t, err, apperr.CodeAccountCancelled)
}

// A deposit the store shows between the check and the commit, on a
// balance the check read, refuses the cancellation; the codes stay valid,
// and the next try lists the balance.
func TestCancelRacingDepositOnReadBalanceIsRefused(t *testing.T) {
	e := newEnv(t)
	uid, m := e.register(t, "race@example.com")
	e.deposit(t, uid, "r0", "USDT", "1")
	if err := e.funds.Debit(ctx, spotfunds.Move{Ref: "out:r0", UID: uid, Coin: "USDT", Amount: decimal.NewFromInt(1),
		Other: ledger.ChainAccount("TRC20"), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	e.svc.beforeCommit = func() { e.deposit(t, uid, "r1", "USDT", "7") }
	codes := e.codes(t, m, "race@example.com")
	_, err := e.svc.Cancel(ctx, m, CancelRequest{Codes: codes})
	wantCode(t, err, apperr.CodeAccountChanged)
	e.svc.beforeCommit = nil
	if when, _ := e.auth.Cancelled(ctx, uid); !when.IsZero() {
		t.Fatal("cancelled although the deposit landed first")
	}
	if _, err := e.auth.UserInfo(ctx, m); err != nil {
		t.Fatalf("session ended by a refused cancellation: %v", err)
	}
	_, err = e.svc.Cancel(ctx, m, CancelRequest{Codes: codes})
	wantCode(t, err, apperr.CodeCancellationBlocked)
}

// A key made between the check and the commit fails the cancellation (the
// key count moved), so no key outlives a cancelled account.
func TestCancelRacingNewKeyIsRefused(t *testing.T) {
	e := newEnv(t)
	uid, m := e.register(t, "keys@example.com")
	e.svc.beforeCommit = func() {
		if _, err := e.keys.Create(ctx, uid, apikey.Input{Label: "late", Permissions: []string{"spot"}, Codes: anyCodes}); err != nil {
			t.Error(err)
		}
	}
	_, err := e.svc.Cancel(ctx, m, CancelRequest{Codes: e.codes(t, m, "keys@example.com")})
	wantCode(t, err, apperr.CodeAccountChanged)
}

// Money that reaches a cancelled account (a deposit the engine credited
// just after the check, on a coin it never held, or one that arrives any
// time later) is credited and held: the account shows in the review,
// stays closed, and once an operator reopens it the owner signs in to it.
func TestDepositAfterCancellationIsHeldUntilReopened(t *testing.T) {
	e := newEnv(t)
	uid, m := e.register(t, "late@example.com")
	e.svc.beforeCommit = func() { e.deposit(t, uid, "l1", "BTC", "0.5") }
	_, err := e.svc.Cancel(ctx, m, CancelRequest{Codes: e.codes(t, m, "late@example.com")})
	wantCode(t, err, "")
	e.svc.beforeCommit = nil
	e.deposit(t, uid, "l2", "USDT", "30")
	if avail, _ := e.eng.Available(uid, "USDT"); avail != 30_00000000 {
		t.Fatalf("engine holds %d USDT units", avail)
	}
	funded, err := e.svc.Review(ctx, true)
	wantCode(t, err, "")
	if len(funded) != 1 || funded[0].UID != uid || len(funded[0].Holdings) != 2 {
		t.Fatalf("review %+v", funded)
	}
	_, err = e.auth.Login(ctx, auth.Meta{IP: "1.1.1.1"}, auth.Account{Email: "late@example.com"}, "secret123")
	wantCode(t, err, apperr.CodeAccountCancelled)
	wantCode(t, e.svc.Reopen(ctx, uid, "identified by video call"), "")
	back := e.signIn(t, "late@example.com")
	if back.UserID != uid {
		t.Fatal("signed in to another account")
	}
	st, _ := e.svc.Show(ctx, uid)
	if !st.CancelledAt.IsZero() || st.ReopenedAt.IsZero() || len(st.Holdings) != 2 {
		t.Fatalf("status %+v", st)
	}
	if all, _ := e.svc.Review(ctx, false); len(all) != 0 {
		t.Fatalf("a reopened account is still listed: %+v", all)
	}
	wantCode(t, e.svc.Reopen(ctx, uid, ""), apperr.CodeAccountNotCancelled)
	wantCode(t, e.svc.Reopen(ctx, "00000000", ""), apperr.CodeAccountUnknown)
	// Closed again once the owner took the money out.
	info, _ := e.svc.Check(ctx, uid, apperr.LangEN)
	if info.CanCancel {
		t.Fatal("a funded account may be closed")
	}
}

// Cancellations racing deposits, concurrently: each ends either refused
// (the account stays open) or cancelled, and a cancelled account that
// received the deposit shows in the review; the money is credited either
// way.
func TestCancelAndDepositConcurrently(t *testing.T) {
	e := newEnv(t)
	const n = 8
	type user struct {
		uid, email string
		m          auth.Meta
		codes      auth.Codes
	}
	var users []user
	for i := range n {
		email := fmt.Sprintf("c%d@example.com", i)
		uid, m := e.register(t, email)
		// A zero balance the check reads, so a deposit on it is caught
		// when the store shows it before the commit.
		e.deposit(t, uid, "z"+uid, "USDT", "1")
		if err := e.funds.Debit(ctx, spotfunds.Move{Ref: "out:" + uid, UID: uid, Coin: "USDT", Amount: decimal.NewFromInt(1),
			Other: ledger.ChainAccount("TRC20"), Reason: "test"}); err != nil {
			t.Fatal(err)
		}
		users = append(users, user{uid: uid, email: email, m: m})
	}
	e.clock.Add(2 * time.Minute)
	for i := range users {
		if err := e.auth.SendEmailCode(ctx, users[i].m, "", auth.SensitiveEmailOp); err != nil {
			t.Fatal(err)
		}
		users[i].codes = auth.Codes{Email: e.box.last(users[i].email, auth.SensitiveEmailOp)}
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, u := range users {
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, errs[i] = e.svc.Cancel(ctx, u.m, CancelRequest{Codes: u.codes})
		}()
		go func() {
			defer wg.Done()
			if err := e.funds.Credit(ctx, spotfunds.Move{Ref: "deposit:c" + u.uid, UID: u.uid, Coin: "USDT",
				Amount: decimal.NewFromInt(3), Other: ledger.ChainAccount("TRC20"), Reason: "deposit"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	funded, err := e.svc.Review(ctx, true)
	wantCode(t, err, "")
	inReview := map[string]bool{}
	for _, c := range funded {
		inReview[c.UID] = true
	}
	for i, u := range users {
		when, _ := e.auth.Cancelled(ctx, u.uid)
		b, _ := e.led.Balance(ctx, ledger.UserAccount(u.uid, ledger.Spot), "USDT")
		if !b.Available.Equal(decimal.NewFromInt(3)) {
			t.Errorf("%s: balance %s after the deposit", u.uid, b.Available)
		}
		switch {
		case errs[i] == nil && (when.IsZero() || !inReview[u.uid]):
			t.Errorf("%s: cancelled=%v, in review=%v", u.uid, !when.IsZero(), inReview[u.uid])
		case errs[i] != nil:
			var ae *apperr.Error
			if !errors.As(errs[i], &ae) || (ae.Entry.Code != apperr.CodeAccountChanged && ae.Entry.Code != apperr.CodeCancellationBlocked) {
				t.Errorf("%s: refused with %v", u.uid, errs[i])
			}
			if !when.IsZero() {
				t.Errorf("%s: refused but cancelled", u.uid)
			}
		}
	}
}
