package platform

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/chainsim"
	"tenger/internal/deposit"
	"tenger/internal/engine"
	"tenger/internal/httpapi"
	"tenger/internal/kyc"
	"tenger/internal/ledger"
	"tenger/internal/risk"
	"tenger/internal/spot"
	"tenger/internal/wallet"
	"tenger/internal/withdraw"
)

// TestStackProperty is a seeded property test of the whole local stack
// (OpenLocal + Start, no market maker): a handful of users registered
// through the auth service, and workers running random deposits (the chain
// simulator and the deposit watcher, as /dev/chain/deposit does),
// withdrawals (the withdraw service with the e-mail code from the outbox,
// their holds, sends, settlements through the workflow runner), transfers
// between spot and the other accounts (the wallet) and spot orders, cancels
// and cancel-alls (the spot service on the engine) concurrently, some of
// each too large on purpose. Every call either succeeds or answers a
// catalogue error that the operation may answer (a short balance, a limit);
// anything else fails the test. Whatever the interleaving, nothing may
// overdraw and no money may appear or vanish:
//
//   - during the run, no engine balance and no stored balance is negative;
//   - at the end (deposits credited, withdrawals finished, projection
//     caught up) the engine and the store agree (Engine.Verify), the
//     ledger audit `tenger audit` runs is clean, every balance equals what
//     this test's own record of successful operations gives (deposits,
//     transfers, settled withdrawals and every fill of every order),
//     per coin holdings equal deposits minus settled withdrawals (and the
//     chain accounts are their negation), no order filled beyond its
//     volume, frozen amounts are within what the open orders hold, and
//     nothing stays frozen once no order is open.
//
// The seed is printed; TENGER_PROPERTY_SEED=<seed> reruns the same choices
// of operations, users, coins and amounts (the interleaving of the workers
// still varies, and with it the amounts taken near a balance).
func TestStackProperty(t *testing.T) {
	seed := time.Now().UnixNano()
	if s := os.Getenv("TENGER_PROPERTY_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("TENGER_PROPERTY_SEED=%q: %v", s, err)
		}
		seed = v
	}
	t.Logf("seed %d (rerun with TENGER_PROPERTY_SEED=%d)", seed, seed)
	workers, opsPer := 8, 150
	if testing.Short() {
		opsPer = 40
	}
	start := time.Now()

	dir := t.TempDir()
	// The stack's warnings and errors are kept and shown when the test
	// fails (a projector that cannot write a batch says so only there).
	logs := &propLogs{}
	l, err := OpenLocal(dir, Config{Stage: "test", Dev: true}, zerolog.New(logs).Level(zerolog.WarnLevel))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	runCtx, stopRun := context.WithCancel(ctx)
	if err := l.Start(runCtx, dir, false); err != nil {
		_ = l.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stopRun()
		// Close waits for the projection to write what is queued, which
		// it retries for ever: a stack that broke must not hang the test.
		closed := make(chan error, 1)
		go func() { closed <- l.Close() }()
		select {
		case err := <-closed:
			if err != nil {
				t.Errorf("close: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("closing the local stack took over 30 s")
		}
		if t.Failed() {
			t.Logf("the stack's warnings and errors:\n%s", logs.String())
		}
	})
	funds, err := l.Funds()
	if err != nil {
		t.Fatal(err)
	}
	wctx, stopWorkers := context.WithCancel(ctx)
	defer stopWorkers()
	e := &propEnv{t: t, l: l, funds: funds, book: newPropBook()}
	e.stopWorkers = func() { e.stopped.Store(true); stopWorkers() }
	rng := rand.New(rand.NewSource(seed))
	e.register(ctx, 6)
	t.Logf("%d users registered in %s", len(e.users), time.Since(start).Round(time.Millisecond))

	// The chain moves on by itself: blocks every 40 ms on every chain, and
	// the deposit watcher woken to look at them.
	stopMiner := e.mine(ctx)
	defer stopMiner()

	// Opening balances: every user gets each coin once, by chain deposit.
	for _, u := range e.users {
		for _, d := range []struct {
			coin, chain string
			amount      decimal.Decimal
		}{{"USDT", "TRC20", decimal.NewFromInt(20000)}, {"BTC", "BTC", decimal.RequireFromString("0.25")}, {"ETH", "ETH", decimal.NewFromInt(4)}} {
			e.depositTo(ctx, u, d.coin, d.chain, d.amount)
		}
	}
	e.waitDeposits(ctx)
	t.Logf("opening deposits credited after %s", time.Since(start).Round(time.Millisecond))

	// During the run, a checker reads every engine balance (under the
	// engine's lock) and every stored balance of the users: none may ever
	// be negative.
	stopChecker := e.checkWhileRunning(ctx)
	defer stopChecker()

	runStart := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		r := rand.New(rand.NewSource(rng.Int63()))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < opsPer && wctx.Err() == nil; i++ {
				octx, cancel := context.WithTimeout(wctx, 20*time.Second)
				e.step(octx, r, fmt.Sprintf("w%d-%d", w, i))
				cancel()
			}
		}()
	}
	wg.Wait()
	t.Logf("%d operations by %d workers in %s", workers*opsPer, workers, time.Since(runStart).Round(time.Millisecond))
	stopChecker()
	if wctx.Err() != nil {
		e.report()
		t.Fatal("the workers stopped at an unexpected error")
	}

	// Quiet now: every deposit credited, every withdrawal finished.
	e.waitDeposits(ctx)
	e.waitWithdrawals(ctx)
	stopMiner()
	e.verifyEngine(ctx, "after the run")
	if t.Failed() {
		e.report()
		return
	}

	// Frozen amounts against the open orders, then everything cancelled:
	// nothing may stay frozen.
	e.checkFrozen(ctx, false)
	for _, u := range e.users {
		if err := l.Spot().CancelAll(ctx, u.id, ""); err != nil {
			t.Errorf("final cancel_all of %s: %v", u.id, err)
		}
	}
	e.verifyEngine(ctx, "after the final cancel_all")
	e.checkFrozen(ctx, true)
	e.checkOrders(ctx)
	e.checkBalances(ctx)
	e.audit(ctx)
	e.report()
	if n := logs.Lines(); n > 0 {
		t.Logf("the stack logged %d warnings or errors:\n%s", n, logs.String())
	}
	t.Logf("total %s", time.Since(start).Round(time.Millisecond))
}

// Coins, chains and pairs the test moves.
var (
	// propWithdrawTo are valid addresses no user of the test owns.
	propWithdrawTo = map[string]string{
		"BTC":   "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
		"ETH":   "0x742d35cc6634c0532925a3b844bc454e4438f44e",
		"ERC20": "0x742d35cc6634c0532925a3b844bc454e4438f44e",
		"TRC20": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
	}
	propChains = []struct{ coin, chain string }{{"USDT", "TRC20"}, {"USDT", "ERC20"}, {"BTC", "BTC"}, {"ETH", "ETH"}}
	propPairs  = []struct {
		symbol, base, quote string
		mid, step           decimal.Decimal
		// lots: volumes are lot × [minLots, maxLots]; big orders
		// [bigLot, 2 bigLot), beyond propCap of the base to sell and of
		// USDT to buy at any of the prices.
		lot                      decimal.Decimal
		minLots, maxLots, bigLot int64
		// lotExp is the decimals of the pair's lot size (volumes near a
		// balance are cut to it).
		lotExp int32
	}{
		{"btcusdt", "BTC", "USDT", decimal.NewFromInt(97250), decimal.NewFromInt(5), decimal.RequireFromString("0.0001"), 1, 100, 90000, 6},
		{"ethusdt", "ETH", "USDT", decimal.RequireFromString("3415"), decimal.RequireFromString("0.5"), decimal.RequireFromString("0.002"), 1, 100, 150000, 5},
	}
	// propOther are the accounts a transfer from or to spot may use, with
	// the coins each takes.
	propOther = []struct {
		kind  ledger.Kind
		pair  string
		coins []string
	}{
		{ledger.OTC, "", []string{"USDT", "BTC", "ETH"}},
		{ledger.Futures, "", []string{"USDT"}},
		{ledger.MarginCross, "", []string{"USDT", "BTC", "ETH"}},
		{ledger.MarginIsolated, "BTCUSDT", []string{"BTC", "USDT"}},
		{ledger.MarginIsolated, "ETHUSDT", []string{"ETH", "USDT"}},
	}
)

// propCap bounds what the test ever deposits of a coin (depositTo skips a
// deposit beyond it); propAmount's big amounts are beyond it, so nothing
// may ever pay them, whatever the interleaving. (A big withdrawal is also
// within the chain's withdrawal maximum, so the balance is what refuses it.)
var propCap = map[string]decimal.Decimal{"USDT": decimal.NewFromInt(800_000), "BTC": decimal.NewFromInt(8), "ETH": decimal.NewFromInt(160)}

// propAmount is a random amount of a coin for deposits, withdrawals and
// transfers: a moderate one, or (big) one beyond propCap.
func propAmount(r *rand.Rand, coin string, big bool) decimal.Decimal {
	between := func(lo, hi int64, exp int32) decimal.Decimal { return decimal.New(lo+r.Int63n(hi-lo+1), exp) }
	switch {
	case coin == "USDT" && big:
		return between(900_000, 1_000_000, 0)
	case coin == "USDT":
		return between(1000, 300000, -2) // 10 .. 3000
	case coin == "BTC" && big:
		return between(900, 1000, -2) // 9 .. 10
	case coin == "BTC":
		return between(1000, 50000, -6) // 0.001 .. 0.05
	case coin == "ETH" && big:
		return between(170, 200, 0)
	default:
		return between(10, 1000, -3) // 0.01 .. 1
	}
}

// propExp is the decimals of the amounts the test moves of a coin.
var propExp = map[string]int32{"USDT": 2, "BTC": 6, "ETH": 3}

// near is an amount around what an account has available now (drawn from
// [0.5, 1.1) of it, cut to the coin's propExp decimals), so that many
// operations race others of the same user for the last of a balance; zero
// when the account holds nothing.
func (e *propEnv) near(ctx context.Context, r *rand.Rand, a ledger.Account, coin string) decimal.Decimal {
	f := decimal.New(50+r.Int63n(60), -2)
	b, err := e.l.Ledger().Balance(ctx, a, coin)
	if err != nil {
		e.t.Errorf("balance of %s %s: %v", a, coin, err)
		e.stopWorkers()
		return decimal.Zero
	}
	return b.Available.Mul(f).Truncate(propExp[coin])
}

// propLogs keeps what the stack logs.
type propLogs struct {
	mu sync.Mutex
	b  strings.Builder
	n  int
}

func (w *propLogs) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.b.Len() < 64<<10 {
		w.b.Write(p)
	}
	w.n++
	return len(p), nil
}

func (w *propLogs) String() string { w.mu.Lock(); defer w.mu.Unlock(); return w.b.String() }

func (w *propLogs) Lines() int { w.mu.Lock(); defer w.mu.Unlock(); return w.n }

type propUser struct {
	id, email string
	addr      map[string]string // chain → deposit address
	// wmu serialises the user's withdrawals, so the e-mail code in hand
	// (code) is known: sent and not yet used up.
	wmu  sync.Mutex
	code string
}

type propDeposit struct {
	uid, coin, chain, txid string
	amount                 decimal.Decimal
}

type propWithdrawal struct {
	uid, id, coin, chain string
}

type propOrder struct {
	uid, id, symbol, side string
	price, volume         decimal.Decimal
}

// propAcct names one balance: a user's account (kind, sub) in a coin.
type propAcct struct {
	uid  string
	kind ledger.Kind
	sub  string
	coin string
}

// propBook is the test's own record of every successful operation and of
// every outcome, by kind.
type propBook struct {
	mu          sync.Mutex
	deposited   map[string]decimal.Decimal // coin → sum of deposits sent
	deposits    []propDeposit
	withdrawals []propWithdrawal
	orders      []propOrder
	byUser      map[string][]int // uid → indexes into orders
	// transfers: what successful transfers moved into (+) or out of (-)
	// each account, spot included.
	transfers map[propAcct]decimal.Decimal
	outcomes  map[string]int
}

func newPropBook() *propBook {
	return &propBook{deposited: map[string]decimal.Decimal{}, byUser: map[string][]int{}, transfers: map[propAcct]decimal.Decimal{}, outcomes: map[string]int{}}
}

func (b *propBook) count(what string) {
	b.mu.Lock()
	b.outcomes[what]++
	b.mu.Unlock()
}

type propEnv struct {
	t *testing.T
	// stopWorkers ends the run at an operation's unexpected error (each
	// would otherwise wait out its timeout on a stack that broke).
	stopWorkers func()
	stopped     atomic.Bool
	l           *Local
	funds       *httpapi.Funds
	users       []*propUser
	book        *propBook
	// checks counts the invariant checks made while the workers ran.
	checks atomic.Int64
}

// propCodeOf is the catalogue code of err, or "" when err is not a
// catalogue error.
func propCodeOf(err error) string {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return ae.Entry.Code
	}
	return ""
}

// refused records an operation's error: a catalogue error with one of the
// allowed codes is a refusal, anything else fails the test.
func (e *propEnv) refused(op, detail string, err error, allowed ...string) string {
	c := propCodeOf(err)
	if e.stopped.Load() && errors.Is(err, context.Canceled) {
		e.book.count(op + " cut short by the stop")
		return c // the run is already failing
	}
	for _, a := range allowed {
		if c == a {
			e.book.count(op + " refused " + c)
			return c
		}
	}
	e.t.Errorf("%s (%s): unexpected error %v (allowed: %v)", op, detail, err, allowed)
	e.book.count(op + " failed")
	e.stopWorkers()
	return c
}

// outboxCode is the newest code sent to `to` for the operation.
func (e *propEnv) outboxCode(ctx context.Context, to string, op int) (string, error) {
	list, err := e.l.Outbox.List(ctx)
	if err != nil {
		return "", err
	}
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].To == to && list[i].OperationType == op {
			return list[i].Code, nil
		}
	}
	return "", fmt.Errorf("no code of operation %d for %s in the outbox", op, to)
}

// register signs n users up through the auth service with the codes the
// local outbox received (concurrently: each sign-up hashes a password),
// and gives each a deposit address per chain.
func (e *propEnv) register(ctx context.Context, n int) {
	a := e.l.Auth()
	users := make([]*propUser, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			users[i], errs[i] = e.registerOne(ctx, a, fmt.Sprintf("prop%d@example.com", i))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			e.t.Fatal(err)
		}
	}
	e.users = users
}

func (e *propEnv) registerOne(ctx context.Context, a *auth.Service, email string) (*propUser, error) {
	if err := a.SendEmailCode(ctx, auth.Meta{Lang: apperr.LangEN}, email, auth.OpRegister); err != nil {
		return nil, fmt.Errorf("sign-up code for %s: %w", email, err)
	}
	code, err := e.outboxCode(ctx, email, auth.OpRegister)
	if err != nil {
		return nil, err
	}
	uid, err := a.Register(ctx, auth.Meta{Lang: apperr.LangEN}, auth.RegisterInput{Account: auth.Account{Email: email}, Password: "Passw0rd1", Code: code})
	if err != nil {
		return nil, fmt.Errorf("register %s: %w", email, err)
	}
	// The withdrawals race the user's orders and transfers for the last of
	// a balance, which the unverified daily limit (1000 USDT) would refuse
	// first: the users are verified, so the full limit applies, as before
	// limits followed the verification level.
	if _, err := e.l.KYC().Approve(ctx, uid, kyc.Decision{By: "stack property test"}); err != nil {
		return nil, fmt.Errorf("verify %s: %w", email, err)
	}
	u := &propUser{id: uid, email: email, addr: map[string]string{}}
	for _, c := range propChains {
		ad, err := e.funds.Deposit.ChargeAddress(ctx, uid, c.coin, c.chain)
		if err != nil {
			return nil, fmt.Errorf("deposit address of %s on %s: %w", uid, c.chain, err)
		}
		u.addr[c.chain] = ad.AddressLong
	}
	return u, nil
}

// mine adds blocks to every chain and wakes the deposit watcher until
// stopped (its returned function, which waits for it).
func (e *propEnv) mine(ctx context.Context) func() {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			// Stopped between blocks, not in the middle of delivering
			// their confirmations.
			e.mineOnce(ctx)
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-time.After(40 * time.Millisecond):
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(stop) }); <-done }
}

func (e *propEnv) mineOnce(ctx context.Context) {
	for _, ch := range []string{"BTC", "ETH", "ERC20", "TRC20"} {
		if _, err := e.funds.Chain.Mine(ctx, ch, 2); err != nil && ctx.Err() == nil {
			e.t.Errorf("mine %s: %v", ch, err)
		}
	}
	// The watcher's own loop scans (and credits) at once; its errors are
	// logged, and a deposit it failed to credit fails waitDeposits.
	e.funds.Watcher.Kick()
}

// depositTo sends a chain deposit to the user's address; the watcher
// credits it after the chain's confirmations.
func (e *propEnv) depositTo(ctx context.Context, u *propUser, coin, chain string, amount decimal.Decimal) {
	e.book.mu.Lock()
	total := e.book.deposited[coin].Add(amount)
	if total.GreaterThan(propCap[coin]) {
		e.book.mu.Unlock()
		e.book.count("deposit skipped (cap)")
		return
	}
	e.book.deposited[coin] = total // reserved, even if the send fails
	e.book.mu.Unlock()
	tx, err := e.funds.Chain.Deposit(ctx, chainsim.DepositReq{Coin: coin, Chain: chain, Address: u.addr[chain], Amount: amount.String()})
	if err != nil {
		e.t.Errorf("deposit %s %s to %s: %v", amount, coin, u.id, err)
		e.book.count("deposit failed")
		e.stopWorkers()
		return
	}
	e.book.mu.Lock()
	e.book.deposits = append(e.book.deposits, propDeposit{uid: u.id, coin: coin, chain: chain, txid: tx.TxID, amount: amount})
	e.book.mu.Unlock()
	e.book.count("deposit sent")
}

// step runs one random operation, then checks that none of the user's
// engine balances is negative.
func (e *propEnv) step(ctx context.Context, r *rand.Rand, name string) {
	u := e.users[r.Intn(len(e.users))]
	defer func() {
		for _, s := range e.engineNegatives(u.id) {
			e.t.Errorf("after %s: negative balance: %s", name, s)
		}
		e.checks.Add(1)
	}()
	switch p := r.Intn(100); {
	case p < 12:
		c := propChains[r.Intn(len(propChains))]
		e.depositTo(ctx, u, c.coin, c.chain, propAmount(r, c.coin, false))
	case p < 22:
		e.withdraw(ctx, r, u, name)
	case p < 42:
		e.transfer(ctx, r, u, name)
	case p < 85:
		e.place(ctx, r, u)
	case p < 96:
		e.cancelOne(ctx, r, u)
	default:
		symbol := ""
		if r.Intn(2) == 0 {
			symbol = propPairs[r.Intn(len(propPairs))].symbol
		}
		if err := e.l.Spot().CancelAll(ctx, u.id, symbol); err != nil {
			e.refused("cancel_all", u.id, err)
			return
		}
		e.book.count("cancel_all ok")
	}
}

// withdrawCode is an unused e-mail withdrawal code of the user: the one in
// hand, or a new one from the outbox. ok is false when the auth service
// refuses to send one now (its per-target limit of 10 an hour).
func (e *propEnv) withdrawCode(ctx context.Context, u *propUser) (string, bool) {
	if u.code != "" {
		return u.code, true
	}
	err := e.l.Auth().SendEmailCode(ctx, auth.Meta{UserID: u.id, Lang: apperr.LangEN}, "", auth.OpWithdrawEmail)
	if err != nil {
		e.refused("withdraw code", u.id, err, apperr.CodeTooManyRequests)
		return "", false
	}
	code, err := e.outboxCode(ctx, u.email, auth.OpWithdrawEmail)
	if err != nil {
		e.t.Error(err)
		e.stopWorkers()
		return "", false
	}
	u.code = code
	return code, true
}

// withdraw submits a withdrawal with the user's e-mail code. A big one
// (beyond everything ever deposited) must be refused for the balance.
func (e *propEnv) withdraw(ctx context.Context, r *rand.Rand, u *propUser, name string) {
	c := propChains[r.Intn(len(propChains))]
	// A quarter beyond every deposit, half near the balance (so that they
	// race the user's orders and transfers for it), a quarter moderate.
	mode := r.Intn(4)
	big := mode == 0
	amount := propAmount(r, c.coin, big)
	if mode == 1 || mode == 2 {
		cfg, _ := e.l.Coins.Chain(c.coin, c.chain)
		amount = decimal.Min(decimal.Max(e.near(ctx, r, ledger.UserAccount(u.id, ledger.Spot), c.coin), cfg.WithdrawMin), cfg.WithdrawMax)
		e.book.count("withdraw near the balance")
	}
	u.wmu.Lock()
	defer u.wmu.Unlock()
	for try := 0; try < 2; try++ {
		code, ok := e.withdrawCode(ctx, u)
		if !ok {
			return
		}
		in := withdraw.ConfirmInput{RequestID: fmt.Sprintf("%s-%d", name, try), Symbol: c.coin, Chain: c.chain,
			Address: propWithdrawTo[c.chain], Amount: amount.String(), Codes: withdraw.Codes{Email: code}}
		res, err := e.funds.Withdraw.Confirm(ctx, u.id, in)
		detail := fmt.Sprintf("%s %s %s on %s", u.id, amount, c.coin, c.chain)
		if err == nil {
			u.code = "" // used up
			if big {
				e.t.Errorf("withdraw %s: a withdrawal beyond every deposit was accepted: %+v", detail, res)
			}
			e.book.mu.Lock()
			e.book.withdrawals = append(e.book.withdrawals, propWithdrawal{uid: u.id, id: res.ID, coin: c.coin, chain: c.chain})
			e.book.mu.Unlock()
			e.book.count("withdraw accepted " + res.Status)
			return
		}
		if propCodeOf(err) == apperr.CodeCodeExpired {
			// The code in hand was used up by a submit that failed after
			// its codes (its hold found the balance spent): a new one.
			u.code = ""
			continue
		}
		if big {
			e.refused("withdraw big", detail, err, apperr.CodeInsufficientFunds)
			return
		}
		e.refused("withdraw", detail, err, apperr.CodeInsufficientFunds, apperr.CodeDailyLimit)
		return
	}
}

// transfer moves an amount between spot and another account of the user,
// in a random direction. A big one must be refused for the balance.
func (e *propEnv) transfer(ctx context.Context, r *rand.Rand, u *propUser, name string) {
	o := propOther[r.Intn(len(propOther))]
	coin := o.coins[r.Intn(len(o.coins))]
	mode := r.Intn(10)
	big := mode < 2
	amount := propAmount(r, coin, big)
	in := wallet.TransferInput{From: ledger.Spot, To: o.kind, Pair: o.pair, Coin: coin, RequestID: name}
	if r.Intn(2) == 0 {
		in.From, in.To = in.To, in.From
	}
	if mode < 5 && !big {
		from := ledger.UserAccount(u.id, in.From)
		if in.From == ledger.MarginIsolated {
			from = ledger.IsolatedAccount(u.id, o.pair)
		}
		if n := e.near(ctx, r, from, coin); n.IsPositive() {
			amount = n
			e.book.count("transfer near the balance")
		}
	}
	in.Amount = amount.String()
	detail := fmt.Sprintf("%s %s %s %s → %s %s", u.id, amount, coin, in.From, in.To, o.pair)
	rec, err := e.l.Wallet().Transfer(ctx, u.id, in)
	if err != nil {
		if big {
			e.refused("transfer big", detail, err, apperr.CodeWalletInsufficient)
			return
		}
		e.refused("transfer", detail, err, apperr.CodeWalletInsufficient)
		return
	}
	if big {
		e.t.Errorf("transfer %s: a transfer beyond every deposit was accepted: %+v", detail, rec)
	}
	if rec.Status != wallet.TransferSuccess {
		e.t.Errorf("transfer %s: answered %+v, not done", detail, rec)
		return
	}
	moved, err := decimal.NewFromString(rec.Amount)
	if err != nil || !moved.Equal(amount) {
		e.t.Errorf("transfer %s: moved %q", detail, rec.Amount)
		return
	}
	sub := func(k ledger.Kind) string {
		if k == ledger.MarginIsolated {
			return o.pair
		}
		return ""
	}
	e.book.mu.Lock()
	from := propAcct{uid: u.id, kind: in.From, sub: sub(in.From), coin: coin}
	to := propAcct{uid: u.id, kind: in.To, sub: sub(in.To), coin: coin}
	e.book.transfers[from] = e.book.transfers[from].Sub(moved)
	e.book.transfers[to] = e.book.transfers[to].Add(moved)
	e.book.mu.Unlock()
	e.book.count(fmt.Sprintf("transfer ok %s→%s", in.From, in.To))
}

// place enters a limit order around the pair's mid, so that many cross.
// A big one must be refused for the balance.
func (e *propEnv) place(ctx context.Context, r *rand.Rand, u *propUser) {
	p := propPairs[r.Intn(len(propPairs))]
	side := "BUY"
	if r.Intn(2) == 0 {
		side = "SELL"
	}
	mode := r.Intn(8)
	big := mode == 0
	lots := p.minLots + r.Int63n(p.maxLots-p.minLots+1)
	if big {
		lots = p.bigLot + r.Int63n(p.bigLot)
	}
	price := p.mid.Add(p.step.Mul(decimal.NewFromInt(int64(r.Intn(121) - 60))))
	volume := p.lot.Mul(decimal.NewFromInt(lots))
	if mode == 1 || mode == 2 {
		// All or more than the user has of what the order spends.
		var v decimal.Decimal
		if side == "BUY" {
			v = e.near(ctx, r, ledger.UserAccount(u.id, ledger.Spot), p.quote).Div(price).Truncate(p.lotExp)
		} else {
			v = e.near(ctx, r, ledger.UserAccount(u.id, ledger.Spot), p.base).Truncate(p.lotExp)
		}
		if v.Mul(price).GreaterThan(decimal.NewFromInt(6)) {
			volume = v
			e.book.count("order near the balance")
		}
	}
	req := spot.PlaceRequest{Symbol: p.symbol, Side: side, Type: spot.TypeLimit, Price: price.String(), Volume: volume.String()}
	detail := fmt.Sprintf("%s %s %s %s @ %s", u.id, side, volume, p.symbol, price)
	id, err := e.l.Spot().PlaceOrder(ctx, u.id, req)
	if err != nil {
		if big {
			e.refused("order big", detail, err, apperr.CodeTradeInsufficient)
			return
		}
		e.refused("order", detail, err, apperr.CodeTradeInsufficient)
		return
	}
	if big {
		e.t.Errorf("order %s: an order beyond every deposit was accepted (%s)", detail, id)
	}
	e.book.mu.Lock()
	e.book.byUser[u.id] = append(e.book.byUser[u.id], len(e.book.orders))
	e.book.orders = append(e.book.orders, propOrder{uid: u.id, id: id, symbol: p.symbol, side: side, price: price, volume: volume})
	e.book.mu.Unlock()
	e.book.count("order placed")
}

// cancelOne cancels one of the user's orders (it may have finished).
func (e *propEnv) cancelOne(ctx context.Context, r *rand.Rand, u *propUser) {
	e.book.mu.Lock()
	idx := e.book.byUser[u.id]
	var o propOrder
	if len(idx) > 0 {
		o = e.book.orders[idx[r.Intn(len(idx))]]
	}
	e.book.mu.Unlock()
	if o.id == "" {
		e.book.count("cancel nothing to cancel")
		return
	}
	if err := e.l.Spot().CancelOrder(ctx, u.id, o.symbol, o.id); err != nil {
		e.refused("cancel", o.id, err, apperr.CodeTradeOrderFinished)
		return
	}
	e.book.count("cancel ok")
}

// engineNegatives lists the negative engine balances of a user (of every
// user when uid is ""), read under the engine's lock, so each is a value
// the engine really held at one moment.
func (e *propEnv) engineNegatives(uid string) []string {
	var bad []string
	e.l.Engine.Engine.Read(func(s *engine.State) {
		a := s.Accounts()
		for i, u := range a.Users() {
			if uid != "" && u.ID != uid {
				continue
			}
			for c, ci := range a.Coins() {
				if b := a.At(risk.Slot(i), risk.KindSpot, risk.Coin(c)); b.Avail < 0 || b.Held < 0 {
					bad = append(bad, fmt.Sprintf("engine: %s spot %s avail %d held %d", u.ID, ci.Code, b.Avail, b.Held))
				}
			}
		}
	})
	return bad
}

// checkWhileRunning checks, until stopped, that no balance is negative:
// every engine balance (read under the engine's lock, so each is a value
// the engine really held) and every stored balance of the users. The
// returned function stops it and waits for it (again: at once).
func (e *propEnv) checkWhileRunning(ctx context.Context) func() {
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	led := e.l.Ledger()
	go func() {
		defer close(done)
		for cctx.Err() == nil {
			bad := e.engineNegatives("")
			for _, u := range e.users {
				bals, err := led.Balances(cctx, u.id, "")
				if err != nil {
					if cctx.Err() == nil {
						e.t.Errorf("read balances of %s: %v", u.id, err)
					}
					break
				}
				for _, b := range bals {
					if b.Available.IsNegative() || b.Frozen.IsNegative() {
						bad = append(bad, fmt.Sprintf("store: %s %s available %s frozen %s", b.Account, b.Coin, b.Available, b.Frozen))
					}
				}
			}
			for _, s := range bad {
				e.t.Errorf("while running: negative balance: %s", s)
			}
			e.checks.Add(1)
			select {
			case <-cctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return func() { cancel(); <-done }
}

// waitDeposits waits until every recorded deposit is credited.
func (e *propEnv) waitDeposits(ctx context.Context) {
	deadline := time.Now().Add(60 * time.Second)
	for {
		e.book.mu.Lock()
		want := append([]propDeposit(nil), e.book.deposits...)
		e.book.mu.Unlock()
		status := map[string]string{}
		for _, u := range e.users {
			for page := 1; ; page++ {
				recs, total, err := e.funds.Deposit.History(ctx, u.id, deposit.Filter{Page: page, PageSize: deposit.MaxPageSize})
				if err != nil {
					e.t.Fatalf("deposit history of %s: %v", u.id, err)
				}
				for _, r := range recs {
					status[r.ID] = r.Status
				}
				if page*deposit.MaxPageSize >= total {
					break
				}
			}
		}
		var open []string
		for _, d := range want {
			if st := status[deposit.DepositID(d.chain, d.txid, 0)]; st != deposit.StatusCredited {
				open = append(open, fmt.Sprintf("%s %s %s: %q", d.chain, d.txid, d.amount, st))
			}
		}
		if len(open) == 0 {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%d of %d deposits not credited: %v", len(open), len(want), open)
		}
		e.mineOnce(ctx)
		time.Sleep(40 * time.Millisecond)
	}
}

// waitWithdrawals waits until every accepted withdrawal is SUCCESS or
// FAILED, mining the blocks that confirm their sends.
func (e *propEnv) waitWithdrawals(ctx context.Context) {
	deadline := time.Now().Add(60 * time.Second)
	for {
		var open []string
		for _, w := range e.book.withdrawals {
			r, err := e.funds.Withdraw.Get(ctx, w.id)
			if err != nil {
				e.t.Fatalf("withdrawal %s: %v", w.id, err)
			}
			if r.Status != withdraw.StatusSuccess && r.Status != withdraw.StatusFailed {
				open = append(open, w.id+" "+r.Status)
			}
		}
		if len(open) == 0 {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%d withdrawals not finished: %v", len(open), open)
		}
		e.mineOnce(ctx)
		time.Sleep(40 * time.Millisecond)
	}
}

// verifyEngine waits for the projection and compares every engine balance
// with the store's.
func (e *propEnv) verifyEngine(ctx context.Context, when string) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	problems, err := e.l.Engine.Verify(ctx)
	if err != nil {
		e.t.Fatalf("engine verify %s: %v", when, err)
	}
	for _, p := range problems {
		e.t.Errorf("engine verify %s: %s", when, p)
	}
}

// checkFrozen checks each user's frozen spot amounts against the open
// orders (no withdrawal is pending now): at least what the open orders
// still need (a buy: its price × what is left; a sell: what is left), at
// most what they held when placed, and zero in a coin no open order uses.
// After the final cancel_all (none) no balance of any account is frozen.
func (e *propEnv) checkFrozen(ctx context.Context, none bool) {
	led := e.l.Ledger()
	for _, u := range e.users {
		open, err := e.l.Spot().ListOpenOrders(ctx, u.id, "")
		if err != nil {
			e.t.Fatalf("open orders of %s: %v", u.id, err)
		}
		if none && len(open) > 0 {
			e.t.Errorf("%s: %d orders open after cancel_all", u.id, len(open))
		}
		need, held := map[string]decimal.Decimal{}, map[string]decimal.Decimal{}
		for _, o := range open {
			p, _ := e.l.Markets.Pair(o.Symbol)
			left := o.Volume.Sub(o.DealVolume)
			if o.Side == "BUY" {
				need[p.Quote] = need[p.Quote].Add(o.Price.Mul(left))
				held[p.Quote] = held[p.Quote].Add(o.Price.Mul(o.Volume))
			} else {
				need[p.Base] = need[p.Base].Add(left)
				held[p.Base] = held[p.Base].Add(o.Volume)
			}
		}
		bals, err := led.Balances(ctx, u.id, "")
		if err != nil {
			e.t.Fatal(err)
		}
		for _, b := range bals {
			if b.Account.Kind != ledger.Spot {
				if !b.Frozen.IsZero() {
					e.t.Errorf("%s %s: %s frozen", b.Account, b.Coin, b.Frozen)
				}
				continue
			}
			if b.Frozen.LessThan(need[b.Coin]) || b.Frozen.GreaterThan(held[b.Coin]) {
				e.t.Errorf("%s spot %s: frozen %s, the %d open orders need %s and held at most %s",
					u.id, b.Coin, b.Frozen, len(open), need[b.Coin], held[b.Coin])
			}
		}
	}
}

// checkOrders checks every order placed: it exists with what was asked,
// never filled beyond its volume, a FILLED one filled exactly, nothing is
// open any more, and its fills add up to its executed volume, money and
// fee. Per pair the fills of buyers and sellers match.
func (e *propEnv) checkOrders(ctx context.Context) {
	type sums struct{ buyVol, sellVol, buyMoney, sellMoney decimal.Decimal }
	perPair := map[string]*sums{}
	statuses := map[string]int{}
	for _, po := range e.book.orders {
		o, err := e.l.Spot().GetOrder(ctx, po.uid, po.id)
		if err != nil {
			e.t.Errorf("order %s of %s: %v", po.id, po.uid, err)
			continue
		}
		statuses[o.Status.Text()]++
		if o.Symbol != po.symbol || o.Side != po.side || !o.Price.Equal(po.price) || !o.Volume.Equal(po.volume) {
			e.t.Errorf("order %s: stored %s %s %s @ %s, placed %s %s %s @ %s", po.id, o.Symbol, o.Side, o.Volume, o.Price,
				po.symbol, po.side, po.volume, po.price)
		}
		if o.DealVolume.IsNegative() || o.DealVolume.GreaterThan(o.Volume) {
			e.t.Errorf("order %s: filled %s of %s", po.id, o.DealVolume, o.Volume)
		}
		if o.Status == spot.StatusFilled && !o.DealVolume.Equal(o.Volume) {
			e.t.Errorf("order %s: FILLED with %s of %s", po.id, o.DealVolume, o.Volume)
		}
		if o.Status.Open() {
			e.t.Errorf("order %s: still %s after cancel_all", po.id, o.Status.Text())
		}
		trades, err := e.l.Spot().OrderTrades(ctx, po.uid, po.id)
		if err != nil {
			e.t.Errorf("fills of %s: %v", po.id, err)
			continue
		}
		var vol, money, fee decimal.Decimal
		s := perPair[po.symbol]
		if s == nil {
			s = &sums{}
			perPair[po.symbol] = s
		}
		for _, tr := range trades {
			if tr.Side != po.side || tr.Price.IsNegative() || !tr.Volume.IsPositive() {
				e.t.Errorf("order %s: fill %+v", po.id, tr)
			}
			vol, money, fee = vol.Add(tr.Volume), money.Add(tr.Money), fee.Add(tr.Fee)
			if po.side == "BUY" {
				s.buyVol, s.buyMoney = s.buyVol.Add(tr.Volume), s.buyMoney.Add(tr.Money)
				if tr.Price.GreaterThan(po.price) {
					e.t.Errorf("order %s: buy at %s filled at %s", po.id, po.price, tr.Price)
				}
			} else {
				s.sellVol, s.sellMoney = s.sellVol.Add(tr.Volume), s.sellMoney.Add(tr.Money)
				if tr.Price.LessThan(po.price) {
					e.t.Errorf("order %s: sell at %s filled at %s", po.id, po.price, tr.Price)
				}
			}
		}
		if !vol.Equal(o.DealVolume) || !money.Equal(o.DealMoney) || !fee.Equal(o.Fee) {
			e.t.Errorf("order %s: fills give %s/%s/%s, the order %s/%s/%s", po.id, vol, money, fee, o.DealVolume, o.DealMoney, o.Fee)
		}
	}
	for sym, s := range perPair {
		if !s.buyVol.Equal(s.sellVol) || !s.buyMoney.Equal(s.sellMoney) {
			e.t.Errorf("%s: buyers got %s for %s, sellers gave %s for %s", sym, s.buyVol, s.buyMoney, s.sellVol, s.sellMoney)
		}
		e.t.Logf("%s: %s traded for %s", sym, s.buyVol, s.buyMoney)
	}
	keys := make([]string, 0, len(statuses))
	for k := range statuses {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, statuses[k]))
	}
	e.t.Logf("orders at the end: %s", strings.Join(parts, ", "))
}

// checkBalances rebuilds every balance from the test's own record and
// compares it with the store's: each user's spot total (deposits, transfers,
// settled withdrawals, fills), each other account (transfers), the fee
// accounts (trading fees, withdrawal fees), the clearing accounts (zero),
// the chain accounts (minus what came in and went out on the chain), and
// per coin holdings equal deposits minus settled withdrawals. No balance
// anywhere may be negative.
func (e *propEnv) checkBalances(ctx context.Context) {
	want := map[propAcct]decimal.Decimal{}
	add := func(a propAcct, d decimal.Decimal) { want[a] = want[a].Add(d) }
	sysAcct := func(a ledger.Account, coin string) propAcct {
		return propAcct{uid: a.Owner, kind: a.Kind, sub: a.Sub, coin: coin}
	}
	// inflow: per coin, deposits less what settled withdrawals sent out
	// (their amount less the fee, which stays in the fee account).
	inflow := map[string]decimal.Decimal{}
	for _, d := range e.book.deposits {
		add(propAcct{uid: d.uid, kind: ledger.Spot, coin: d.coin}, d.amount)
		add(sysAcct(ledger.ChainAccount(d.chain), d.coin), d.amount.Neg())
		inflow[d.coin] = inflow[d.coin].Add(d.amount)
	}
	var settled, failed int
	for _, w := range e.book.withdrawals {
		r, err := e.funds.Withdraw.Get(ctx, w.id)
		if err != nil {
			e.t.Fatal(err)
		}
		if r.Status != withdraw.StatusSuccess {
			failed++
			continue
		}
		settled++
		add(propAcct{uid: w.uid, kind: ledger.Spot, coin: w.coin}, r.Amount.Neg())
		add(sysAcct(ledger.ChainAccount(w.chain), w.coin), r.Net)
		add(sysAcct(ledger.FeeAccount(), w.coin), r.Fee)
		inflow[w.coin] = inflow[w.coin].Sub(r.Net)
	}
	e.t.Logf("withdrawals: %d settled, %d failed", settled, failed)
	for a, d := range e.book.transfers {
		add(a, d)
	}
	for _, po := range e.book.orders {
		p, _ := e.l.Markets.Pair(po.symbol)
		trades, err := e.l.Spot().OrderTrades(ctx, po.uid, po.id)
		if err != nil {
			e.t.Fatal(err)
		}
		for _, tr := range trades {
			base, quote := propAcct{uid: po.uid, kind: ledger.Spot, coin: p.Base}, propAcct{uid: po.uid, kind: ledger.Spot, coin: p.Quote}
			if po.side == "BUY" {
				add(base, tr.Volume)
				add(quote, tr.Money.Neg())
			} else {
				add(base, tr.Volume.Neg())
				add(quote, tr.Money)
			}
			add(propAcct{uid: po.uid, kind: ledger.Spot, coin: tr.FeeCoin}, tr.Fee.Neg())
			add(sysAcct(ledger.EngineFeeAccount(), tr.FeeCoin), tr.Fee)
		}
	}

	led := e.l.Ledger()
	got := map[propAcct]decimal.Decimal{}
	holdings := map[string]decimal.Decimal{}
	owners := []string{ledger.SystemOwner}
	for _, u := range e.users {
		owners = append(owners, u.id)
	}
	for _, owner := range owners {
		bals, err := led.Balances(ctx, owner, "")
		if err != nil {
			e.t.Fatal(err)
		}
		for _, b := range bals {
			a := sysAcct(b.Account, b.Coin)
			got[a] = b.Total()
			if b.Account.Kind.External() {
				continue
			}
			holdings[b.Coin] = holdings[b.Coin].Add(b.Total())
			if b.Available.IsNegative() || b.Frozen.IsNegative() {
				e.t.Errorf("%s %s is negative: available %s, frozen %s", b.Account, b.Coin, b.Available, b.Frozen)
			}
		}
	}
	for a, w := range want {
		if g := got[a]; !g.Equal(w) {
			e.t.Errorf("%s/%s/%s %s: the store holds %s, the operations give %s", a.uid, a.kind, a.sub, a.coin, g, w)
		}
	}
	for a, g := range got {
		if _, ok := want[a]; !ok && !g.IsZero() {
			e.t.Errorf("%s/%s/%s %s: the store holds %s, no operation explains it", a.uid, a.kind, a.sub, a.coin, g)
		}
	}
	coinsSeen := map[string]bool{}
	for c := range inflow {
		coinsSeen[c] = true
	}
	for c := range holdings {
		coinsSeen[c] = true
	}
	for c := range coinsSeen {
		if !holdings[c].Equal(inflow[c]) {
			e.t.Errorf("%s: holdings %s, deposits minus settled withdrawals %s", c, holdings[c], inflow[c])
			continue
		}
		e.t.Logf("%s: holdings %s = deposits − settled withdrawals", c, holdings[c])
	}
}

// audit runs the ledger audit `tenger audit` runs, over the same coins.
func (e *propEnv) audit(ctx context.Context) {
	var list []string
	for _, c := range e.l.Coins.List() {
		list = append(list, c.Symbol)
	}
	for _, p := range e.l.Markets.List() {
		list = append(list, p.Base, p.Quote)
	}
	rep, err := ledger.New(e.l.Store, nil).Audit(ctx, list...)
	if err != nil {
		e.t.Fatalf("audit: %v", err)
	}
	for _, p := range rep.Problems {
		e.t.Errorf("audit: %s", p)
	}
	e.t.Logf("audit: %d postings replayed, %d coins, clean %v", rep.Postings, len(rep.Coins), rep.Clean())
}

// report logs how many operations of each kind succeeded or were refused.
func (e *propEnv) report() {
	e.book.mu.Lock()
	defer e.book.mu.Unlock()
	keys := make([]string, 0, len(e.book.outcomes))
	for k := range e.book.outcomes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %-40s %d", k, e.book.outcomes[k])
	}
	e.t.Logf("outcomes (%d invariant checks while running):%s", e.checks.Load(), b.String())
}
