package earn

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
)

// fakePrices are index prices the test sets.
type fakePrices struct {
	mu sync.Mutex
	p  map[string]decimal.Decimal
}

func (f *fakePrices) set(pair, price string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.p[pair] = dec(price)
}

func (f *fakePrices) PairPrice(_ context.Context, base, quote string) (decimal.Decimal, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.p[base+quote]
	return p, ok, nil
}

// fakeSeller sells at the index price less 1% slippage, as a book would
// fill a market order: the base leaves transit to the market, the quote
// comes back, once per reference.
type fakeSeller struct {
	led    *ledger.Ledger
	prices *fakePrices
	sold   int
}

func (f *fakeSeller) Sell(ctx context.Context, ref, base, quote string, volume decimal.Decimal) (decimal.Decimal, decimal.Decimal, error) {
	p, _, _ := f.prices.PairPrice(ctx, base, quote)
	proceeds := volume.Mul(p).Mul(dec("0.99")).Truncate(6)
	res, err := f.led.Post(ctx, ledger.Posting{ID: ref + ":fake-sale", Reason: "test_sale", Legs: []ledger.Leg{
		ledger.Move(spotfunds.TransitAccount(), ledger.ChainAccount("MARKET"), base, volume),
		ledger.Move(ledger.ChainAccount("MARKET"), spotfunds.TransitAccount(), quote, proceeds)}})
	if err == nil && !res.Replayed {
		f.sold++
	}
	return proceeds, decimal.Zero, err
}

func loanEnv(t *testing.T) (*env, *fakePrices, *fakeSeller) {
	e := newEnv(t, true)
	fp := &fakePrices{p: map[string]decimal.Decimal{}}
	fs := &fakeSeller{led: e.led, prices: fp}
	e.svc.prices, e.svc.seller = fp, fs
	fp.set("BTCUSDT", "50000")
	return e, fp, fs
}

// TestLoanLifecycle: a loan taken against BTC, interest by the hour,
// called when the price falls, topped up, collateral taken back within the
// initial LTV, partly repaid, then liquidated through the seller when the
// price falls further: the debt and the fee paid, the rest returned, the
// books exact. Another user reaches nothing of it.
func TestLoanLifecycle(t *testing.T) {
	e, fp, fs := loanEnv(t)
	const u, other = "10000001", "10000002"
	e.deposit(t, u, "BTC", "2")
	e.deposit(t, other, "USDT", "100")
	borrow := func(amount, coll string, term int) (LoanView, error) {
		return e.svc.Borrow(ctx, u, BorrowInput{Coin: "USDT", Amount: amount, Collateral: "BTC", CollateralAmount: coll, Term: term})
	}
	_, err := borrow("30000", "0.9", 30) // 66.7% > 65%
	mustCode(t, err, apperr.CodeLoanLTV)
	_, err = borrow("30000", "1", 10)
	mustCode(t, err, apperr.CodeLoanTerm)
	_, err = e.svc.Borrow(ctx, u, BorrowInput{Coin: "USDT", Amount: "100", Collateral: "XRP", CollateralAmount: "1000", Term: 7})
	mustCode(t, err, apperr.CodeLoanPair)
	_, err = borrow("30000", "3", 30)
	mustCode(t, err, apperr.CodeWalletInsufficient)
	v, err := borrow("30000", "1", 30) // 60%
	if err != nil {
		t.Fatal(err)
	}
	if v.LTV != "60.00" || v.Status != LoanActive || v.LiquidationPrice != "36144.57831325" {
		t.Fatalf("opened: %+v", v)
	}
	if b := e.balance(t, u, ledger.Spot, "USDT"); !b.Available.Equal(dec("30000")) {
		t.Fatalf("borrowed into spot: %s", b.Available)
	}
	if b := e.balance(t, u, ledger.Loan, "BTC"); !b.Frozen.Equal(dec("1")) {
		t.Fatalf("collateral: %s", b.Frozen)
	}
	// Ten hours: 30,000 × 0.0010% = 0.30 USDT an hour.
	e.clk.Set(e.clk.Now().Add(10 * time.Hour))
	if _, err := e.svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	loans, _ := e.svc.Loans(ctx, u)
	if loans[0].Interest != "3.000000" || loans[0].MarginCall {
		t.Fatalf("after 10 hours: %+v", loans[0])
	}
	// The price falls to 40,000: 30,003 ÷ 40,000 = 75.0075%: called.
	fp.set("BTCUSDT", "40000")
	if _, err := e.svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	e.clk.Set(e.clk.Now().Add(time.Hour))
	if _, err := e.svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	loans, _ = e.svc.Loans(ctx, u)
	if !loans[0].MarginCall || loans[0].Interest != "3.300000" {
		t.Fatalf("margin call: %+v", loans[0])
	}
	// Topped up with 0.2 BTC: 30,003.3 ÷ 48,000 = 62.5%.
	v, err = e.svc.AdjustCollateral(ctx, u, v.ID, "0.2", true, "")
	if err != nil || v.MarginCall || v.Collateral != "1.20000000" {
		t.Fatalf("top up: %+v %v", v, err)
	}
	// Taking back 0.05 would leave 65.2%: refused; 0.02 leaves 63.6%.
	_, err = e.svc.AdjustCollateral(ctx, u, v.ID, "0.05", false, "")
	mustCode(t, err, apperr.CodeLoanLTV)
	if v, err = e.svc.AdjustCollateral(ctx, u, v.ID, "0.02", false, ""); err != nil || v.Collateral != "1.18000000" {
		t.Fatalf("take back: %+v %v", v, err)
	}
	if b := e.balance(t, u, ledger.Spot, "BTC"); !b.Available.Equal(dec("0.82")) {
		t.Fatalf("spot BTC after the adjustments: %s", b.Available)
	}
	// Another user cannot repay or touch it.
	_, err = e.svc.Repay(ctx, other, v.ID, "10", "")
	mustCode(t, err, apperr.CodeLoanUnknown)
	// 1,003.30 repaid: the interest (3.30) first, then 1,000 principal.
	if v, err = e.svc.Repay(ctx, u, v.ID, "1003.3", ""); err != nil || v.Principal != "29000.000000" || v.Interest != "0.000000" || v.RepaidInterest != "3.300000" {
		t.Fatalf("repay: %+v %v", v, err)
	}
	// 29,000 ÷ (1.18 × 30,000) = 81.9%: not yet; at 29,000: 84.7%: liquidated
	// by the price index within the hour.
	fp.set("BTCUSDT", "30000")
	if _, err := e.svc.RunDue(ctx); err != nil || fs.sold != 0 {
		t.Fatalf("at 30,000: %v, %d sales", err, fs.sold)
	}
	fp.set("BTCUSDT", "29000")
	if rep, err := e.svc.RunDue(ctx); err != nil || fs.sold != 1 || rep.Loans != 1 {
		t.Fatalf("at 29,000: %+v %v, %d sales", rep, err, fs.sold)
	}
	loans, _ = e.svc.Loans(ctx, u)
	l := loans[0]
	// Proceeds 1.18 × 29,000 × 0.99 = 33,877.8; fee 2% = 677.556; debt
	// 29,000; the rest 4,200.244 back to spot.
	if l.Status != LoanLiquidated || l.Proceeds != "33877.800000" || l.LiquidationFee != "677.556000" || l.SoldCollateral != "1.18000000" {
		t.Fatalf("liquidated: %+v", l)
	}
	if b := e.balance(t, u, ledger.Spot, "USDT"); !b.Available.Equal(dec("30000").Sub(dec("1003.3")).Add(dec("4200.244"))) {
		t.Fatalf("spot USDT after the liquidation: %s", b.Available)
	}
	if b := e.balance(t, u, ledger.Loan, "BTC"); !b.Total().IsZero() {
		t.Fatalf("collateral left: %s", b.Frozen)
	}
	if lend, _ := e.led.Balance(ctx, LendingAccount(), "USDT"); !lend.Available.IsZero() {
		t.Fatalf("the lender is owed %s", lend.Available)
	}
	_, err = e.svc.Repay(ctx, u, l.ID, "1", "")
	mustCode(t, err, apperr.CodeLoanEnded)
	if _, err := e.svc.RunDue(ctx); err != nil || fs.sold != 1 {
		t.Fatalf("sold again: %v %d", err, fs.sold)
	}
	e.audit(t)
}

// TestLoanOverdue: a loan unpaid after its term accrues at three times the
// rate during the grace period, then is liquidated; a loan repaid in full
// gives its collateral back.
func TestLoanOverdue(t *testing.T) {
	e, _, fs := loanEnv(t)
	const u = "10000001"
	e.deposit(t, u, "BTC", "1")
	a, err := e.svc.Borrow(ctx, u, BorrowInput{Coin: "USDT", Amount: "1000", Collateral: "BTC", CollateralAmount: "0.1", Term: 7})
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.svc.Borrow(ctx, u, BorrowInput{Coin: "USDT", Amount: "1000", Collateral: "BTC", CollateralAmount: "0.1", Term: 7})
	if err != nil {
		t.Fatal(err)
	}
	// Seven days and two hours: 168 hours at 0.012 USDT, then 2 at 0.036.
	e.clk.Set(e.clk.Now().Add(7*24*time.Hour + 2*time.Hour))
	if _, err := e.svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	loans, _ := e.svc.Loans(ctx, u)
	for _, l := range loans {
		if l.Interest != "2.088000" || !l.Overdue || l.Status != LoanActive {
			t.Fatalf("in the grace period: %+v", l)
		}
	}
	if v, err := e.svc.Repay(ctx, u, a.ID, "2000", ""); err != nil || v.Status != LoanRepaid || v.Debt != "0.000000" {
		t.Fatalf("repaid in full: %+v %v", v, err)
	}
	if bal := e.balance(t, u, ledger.Spot, "BTC"); !bal.Available.Equal(dec("0.9")) {
		t.Fatalf("collateral back: %s", bal.Available)
	}
	// 71 hours past due: still in the 72-hour grace; 73: liquidated.
	e.clk.Set(e.clk.Now().Add(69 * time.Hour))
	if _, err := e.svc.RunDue(ctx); err != nil || fs.sold != 0 {
		t.Fatalf("before the grace ends: %v %d", err, fs.sold)
	}
	e.clk.Set(e.clk.Now().Add(2 * time.Hour))
	if _, err := e.svc.RunDue(ctx); err != nil || fs.sold != 1 {
		t.Fatalf("after the grace: %v %d", err, fs.sold)
	}
	loans, _ = e.svc.Loans(ctx, u)
	for _, l := range loans {
		if l.ID == b.ID && l.Status != LoanLiquidated {
			t.Fatalf("overdue loan: %+v", l)
		}
	}
	e.audit(t)
}
