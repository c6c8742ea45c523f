package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/events"
	"tenger/functions/fntest"
	"tenger/internal/auth"
	"tenger/internal/awslambda"
	"tenger/internal/chain"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/notify"
	"tenger/internal/platform"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
	"tenger/internal/wallet"
	"tenger/internal/withdraw"
)

// completions records the task-token outcomes the rails deliver (the
// sfntask.Completer's place).
type completions struct {
	mu   sync.Mutex
	list []completion
}

type completion struct {
	Token  string
	OK     bool
	Detail string
}

func (c *completions) Complete(_ context.Context, token string, ok bool, detail string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.list = append(c.list, completion{token, ok, detail})
	return nil
}

func (c *completions) of(token string) []completion {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []completion
	for _, x := range c.list {
		if x.Token == token {
			out = append(out, x)
		}
	}
	return out
}

type outbox struct {
	mu   sync.Mutex
	sent []notify.Message
}

func (o *outbox) Send(_ context.Context, m notify.Message) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = append(o.sent, m)
	return nil
}

func (o *outbox) last() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.sent[len(o.sent)-1].Code
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// env is one DynamoDB Local table with a funded user.
type env struct {
	ctx   context.Context
	st    store.Store
	d     *platform.Deps
	eng   *spot.Runtime
	box   *outbox
	clk   *clock
	comp  *completions
	uid   string
	email string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	st := fntest.Table(t, "workflow-fn")
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	e := &env{ctx: ctx, st: st, box: &outbox{}, clk: &clock{t: time.Now()}, comp: &completions{}, email: "flow@tenger.example"}
	e.d = &platform.Deps{Store: st, Notify: e.box, Log: zerolog.Nop(), Now: e.clk.Now, Coins: cc, Markets: markets.Defaults(),
		Config: platform.Config{Stage: "test"}}
	e.eng = fntest.Engine(t, e.d)
	a := e.d.Auth()
	if err := a.SendEmailCode(ctx, auth.Meta{}, e.email, 1); err != nil {
		t.Fatal(err)
	}
	if e.uid, err = a.Register(ctx, auth.Meta{}, auth.RegisterInput{Account: auth.Account{Email: e.email}, Password: "Passw0rd2026", Code: e.box.last()}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []spotfunds.Move{
		{Ref: "deposit:TRC20:tx-flow:0", UID: e.uid, Coin: "USDT", Amount: dec("500"), Other: ledger.ChainAccount("TRC20"), Reason: "deposit"},
		{Ref: "deposit:bank:K-flow", UID: e.uid, Coin: "MNT", Amount: dec("300000"), Other: ledger.BankAccount("KHAN"), Reason: "deposit"},
	} {
		if err := e.d.SpotFunds().Credit(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func (e *env) worker(t *testing.T, rails string) *worker {
	t.Helper()
	w, err := newWorker(e.d, e.comp, rails)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func (e *env) code(t *testing.T) withdraw.Codes {
	t.Helper()
	e.clk.Add(91 * time.Second)
	if err := e.d.Auth().SendEmailCode(e.ctx, auth.Meta{UserID: e.uid}, e.email, 17); err != nil {
		t.Fatal(err)
	}
	return withdraw.Codes{Email: e.box.last()}
}

// chainWithdrawal submits 100 USDT (fee 1) to a TRC20 address.
func (e *env) chainWithdrawal(t *testing.T, w *worker, key string) string {
	t.Helper()
	der, _ := chain.New(chain.DevelopmentConfig())
	to, err := der.DepositAddress(chain.TRC20, 777)
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.wd.Confirm(e.ctx, e.uid, withdraw.ConfirmInput{RequestID: key, Symbol: "USDT", Chain: "TRC20", Address: to.Address,
		Amount: "100", Fee: "1", Codes: e.code(t)})
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}

// bankWithdrawal submits 100000 MNT to the user's saved bank account.
func (e *env) bankWithdrawal(t *testing.T, w *worker, key string) string {
	t.Helper()
	if _, err := e.d.Wallet().AddBankAccount(e.ctx, e.uid, wallet.AddBankInput{Account: "123456789012345678", Payment: wallet.Banks()[0].Payment}); err != nil {
		t.Fatal(err)
	}
	res, err := w.wd.ConfirmBank(e.ctx, e.uid, withdraw.BankInput{RequestID: key, UserID: e.uid, Amount: "100000", BankAccNo: "MN123456789012345678",
		BankName: "Khan Bank", BankAccName: "Bat", Code: "MONT", Codes: e.code(t)})
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}

func (e *env) balance(t *testing.T, a ledger.Account, coin string) (avail, frozen string) {
	t.Helper()
	b, err := e.d.Ledger().Balance(e.ctx, a, coin)
	if err != nil {
		t.Fatal(err)
	}
	return b.Available.String(), b.Frozen.String()
}

func (e *env) audit(t *testing.T) {
	t.Helper()
	var syms []string
	for _, c := range e.d.Coins.List() {
		syms = append(syms, c.Symbol)
	}
	if problems, err := e.eng.Verify(e.ctx); err != nil || len(problems) != 0 {
		t.Fatalf("engine and table disagree: %v %v", problems, err)
	}
	rep, err := e.d.Ledger().Audit(e.ctx, syms...)
	if err != nil || !rep.Clean() {
		t.Fatalf("audit: %v %v", rep.Problems, err)
	}
}

// sample reads the state machine's task input for a step.
func sample(t *testing.T, step, id, token string) stepInput {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", "sfn_withdrawal_"+step+".json"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer("{{withdrawalId}}", id, "{{taskToken}}", token).Replace(string(b))
	var in stepInput
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		t.Fatal(err)
	}
	if in.Step != step {
		t.Fatalf("sample %s has step %q", step, in.Step)
	}
	return in
}

func run(t *testing.T, w *worker, in stepInput) stepOutput {
	t.Helper()
	h := handler(awslambda.NewRuntime("workflow", io.Discard), w)
	out, err := h(context.Background(), in)
	if err != nil {
		t.Fatalf("%s: %v", in.Step, err)
	}
	// The state machine reads $.result.next and $.result.detail.
	b, _ := json.Marshal(out)
	if !strings.Contains(string(b), `"next":"`+out.Next+`"`) || !strings.Contains(string(b), `"detail":`) {
		t.Fatalf("%s: output JSON %s", in.Step, b)
	}
	return out
}

// TestChainWithdrawalSettlesOnce runs a chain withdrawal through every step
// as the state machine does, on simulated rails: the await step's mining
// completes the task token, and settle delivered twice books once.
func TestChainWithdrawalSettlesOnce(t *testing.T) {
	e := newEnv(t)
	w := e.worker(t, RailsSimulated)
	id := e.chainWithdrawal(t, w, "flow-chain-1")
	spot := ledger.UserAccount(e.uid, ledger.Spot)
	if a, f := e.balance(t, spot, "USDT"); a != "400" || f != "100" {
		t.Fatalf("held: %s/%s", a, f)
	}

	for step, next := range map[string]string{"validate": "hold", "hold": "send"} {
		if out := run(t, w, sample(t, step, id, "")); out.Next != next || out.WithdrawalID != id {
			t.Fatalf("%s = %+v, want next %s", step, out, next)
		}
	}
	sent := run(t, w, sample(t, "send", id, ""))
	if sent.Next != withdraw.StepAwait || sent.Status != withdraw.StatusProcessing || sent.TxID == "" {
		t.Fatalf("send = %+v", sent)
	}
	// A redelivered send sends nothing new: the same transaction.
	if again := run(t, w, sample(t, "send", id, "")); again.TxID != sent.TxID {
		t.Fatalf("second send made %s, first %s", again.TxID, sent.TxID)
	}
	const token = "AQCEAAAAKgAAAAMAAAAAAAAAAf8token-chain"
	run(t, w, sample(t, "await", id, token))
	got := e.comp.of(token)
	if len(got) != 1 || !got[0].OK {
		t.Fatalf("task token completions = %+v", got)
	}
	for i := 0; i < 2; i++ {
		out := run(t, w, sample(t, "settle", id, ""))
		if out.Next != withdraw.NextDone || out.Status != withdraw.StatusSuccess || out.TxID != sent.TxID {
			t.Fatalf("settle #%d = %+v", i+1, out)
		}
	}
	// Release after settle finds it finished and moves nothing.
	if out := run(t, w, sample(t, "release", id, "")); out.Next != withdraw.NextDone {
		t.Fatalf("release after settle = %+v", out)
	}
	if a, f := e.balance(t, spot, "USDT"); a != "400" || f != "0" {
		t.Errorf("user USDT after settle: %s/%s, want 400/0", a, f)
	}
	if a, _ := e.balance(t, ledger.FeeAccount(), "USDT"); a != "1" {
		t.Errorf("fee account USDT = %s, want 1", a)
	}
	if a, _ := e.balance(t, ledger.ChainAccount("TRC20"), "USDT"); a != "-401" {
		t.Errorf("TRC20 chain account = %s, want -401 (500 in, 99 out)", a)
	}
	// An await redelivered after the end completes its token at once.
	run(t, w, sample(t, "await", id, token+"-late"))
	if got := e.comp.of(token + "-late"); len(got) != 1 || !got[0].OK {
		t.Errorf("late await completions = %+v", got)
	}
	e.audit(t)
}

// TestBankWithdrawalReleasesOnce: the bank rejected (the await state's catch
// of RailRejected), release delivered twice returns the hold once, and a
// late settle moves nothing.
func TestBankWithdrawalReleasesOnce(t *testing.T) {
	e := newEnv(t)
	w := e.worker(t, RailsSimulated)
	id := e.bankWithdrawal(t, w, "flow-bank-1")
	spot := ledger.UserAccount(e.uid, ledger.Spot)
	if a, f := e.balance(t, spot, "MNT"); a != "200000" || f != "100000" {
		t.Fatalf("held: %s/%s", a, f)
	}
	run(t, w, sample(t, "validate", id, ""))
	run(t, w, sample(t, "hold", id, ""))
	if out := run(t, w, sample(t, "send", id, "")); out.Next != withdraw.StepAwait {
		t.Fatalf("send = %+v", out)
	}
	for i := 0; i < 2; i++ {
		out := run(t, w, sample(t, "release", id, ""))
		if out.Next != withdraw.NextFailed || out.Status != withdraw.StatusFailed {
			t.Fatalf("release #%d = %+v", i+1, out)
		}
	}
	if out := run(t, w, sample(t, "settle", id, "")); out.Next != withdraw.NextFailed {
		t.Fatalf("settle after release = %+v", out)
	}
	if a, f := e.balance(t, spot, "MNT"); a != "300000" || f != "0" {
		t.Errorf("user MNT after release: %s/%s, want 300000/0", a, f)
	}
	r, err := w.wd.Get(e.ctx, id)
	if err != nil || r.Status != withdraw.StatusFailed || !strings.Contains(r.Reason, "RailRejected") {
		t.Errorf("record = %+v %v", r, err)
	}
	e.audit(t)
}

// TestSimulatedBankApprovesAtAwait: on simulated rails the await step
// approves the bank payment, which completes the task token with success.
func TestSimulatedBankApprovesAtAwait(t *testing.T) {
	e := newEnv(t)
	w := e.worker(t, RailsSimulated)
	id := e.bankWithdrawal(t, w, "flow-bank-2")
	for _, s := range []string{"validate", "hold", "send"} {
		run(t, w, sample(t, s, id, ""))
	}
	run(t, w, sample(t, "await", id, "token-bank"))
	if got := e.comp.of("token-bank"); len(got) != 1 || !got[0].OK {
		t.Fatalf("completions = %+v", got)
	}
	run(t, w, sample(t, "settle", id, ""))
	if a, f := e.balance(t, ledger.UserAccount(e.uid, ledger.Spot), "MNT"); a != "200000" || f != "0" {
		t.Errorf("user MNT after settle: %s/%s", a, f)
	}
	e.audit(t)
}

// TestNoRailsReleases: with RAILS=none (production until real rails exist)
// the send step sends nothing and routes to release, which returns the hold.
func TestNoRailsReleases(t *testing.T) {
	e := newEnv(t)
	w := e.worker(t, RailsNone)
	id := e.chainWithdrawal(t, w, "flow-none-1")
	run(t, w, sample(t, "validate", id, ""))
	run(t, w, sample(t, "hold", id, ""))
	out := run(t, w, sample(t, "send", id, ""))
	if out.Next != withdraw.StepRelease || out.TxID != "" || out.Detail == "" {
		t.Fatalf("send without rails = %+v", out)
	}
	rel := sample(t, "release", id, "")
	rel.Detail, rel.Error = out.Detail, nil // the state machine passes $.result.detail
	if out := run(t, w, rel); out.Next != withdraw.NextFailed {
		t.Fatalf("release = %+v", out)
	}
	if a, f := e.balance(t, ledger.UserAccount(e.uid, ledger.Spot), "USDT"); a != "500" || f != "0" {
		t.Errorf("user USDT: %s/%s, want 500/0", a, f)
	}
	r, _ := w.wd.Get(e.ctx, id)
	if !strings.Contains(r.Reason, "no withdrawal rail") {
		t.Errorf("reason = %q", r.Reason)
	}
	e.audit(t)

	// Production refuses the simulators; an unknown mode is refused.
	e.d.Config.Stage = "prod"
	if _, err := newWorker(e.d, e.comp, RailsSimulated); err == nil {
		t.Error("prod accepted the simulated rails")
	}
	if _, err := newWorker(e.d, e.comp, "real"); err == nil {
		t.Error("unknown rails accepted")
	}
}

// lambdaErrorType is the error type name Lambda reports for err (the
// dynamic type's name, pointer stripped), which Step Functions matches.
func lambdaErrorType(err error) string {
	t := reflect.TypeOf(err)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

func TestStepErrors(t *testing.T) {
	e := newEnv(t)
	w := e.worker(t, RailsSimulated)
	h := handler(awslambda.NewRuntime("workflow", io.Discard), w)
	in := sample(t, "validate", "w000000000000000000000000", "")
	_, err := h(context.Background(), in)
	var unknown *UnknownWithdrawal
	if !errors.As(err, &unknown) || lambdaErrorType(err) != "UnknownWithdrawal" {
		t.Errorf("unknown withdrawal: %v (%s)", err, lambdaErrorType(err))
	}
	in.Step = "teleport"
	if _, err := h(context.Background(), in); lambdaErrorType(err) != "Malformed" {
		t.Errorf("unknown step: %v", err)
	}
	in = sample(t, "await", "w1", "")
	if _, err := h(context.Background(), in); lambdaErrorType(err) != "Malformed" {
		t.Errorf("await without token: %v", err)
	}
	in.Withdrawal = events.Withdrawal{}
	if _, err := h(context.Background(), in); lambdaErrorType(err) != "Malformed" {
		t.Errorf("no id: %v", err)
	}
	if classify("w1", errors.New("throttled")) == nil || lambdaErrorType(classify("w1", errors.New("x"))) != "Transient" {
		t.Error("store errors are not Transient")
	}
	// The error names the state machine matches are these types' names.
	for _, name := range []string{"Transient", "UnknownWithdrawal", "Malformed", "NotSent"} {
		found := false
		for _, err := range []error{&Transient{Err: errors.New("x")}, &UnknownWithdrawal{}, &Malformed{}, &NotSent{}} {
			found = found || lambdaErrorType(err) == name
		}
		if !found {
			t.Errorf("no error type %s", name)
		}
	}
}
