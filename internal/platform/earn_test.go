package platform

import (
	"context"
	"testing"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/earn"
	"tenger/internal/ledger"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
)

// `tenger serve` liquidates a loan through the spot books: the collateral
// is sold by a market order of the liquidator into a resting bid, the
// debt and fee are paid from the proceeds (the order's fee paid), the rest
// reaches the borrower's spot account; the books stay exact.
func TestLocalLoanLiquidation(t *testing.T) {
	l, err := OpenLocal(t.TempDir(), Config{}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	if !serves(l.EarnArea(), "/fe-increment-api/borrow/mortgage_borrow", "/fe-increment-api/increment/my_pos", "/fe-ex-api/api/newcoin_purchase") {
		t.Fatal("the earn area does not serve its calls")
	}
	ctx := context.Background()
	index, ok, err := l.RefPrices().PairPrice(ctx, "BTC", "USDT")
	if err != nil || !ok {
		t.Fatalf("index: %v %v", ok, err)
	}
	const maker, borrower = "10000001", "10000002"
	credit := func(uid, coin, amount string) {
		t.Helper()
		if err := l.SpotFunds().Credit(ctx, spotfunds.Move{Ref: "dep:" + uid + coin, UID: uid, Coin: coin, Amount: decimal.RequireFromString(amount),
			Other: ledger.ChainAccount("TEST"), Reason: "deposit"}); err != nil {
			t.Fatal(err)
		}
	}
	credit(maker, "USDT", "1000000")
	credit(borrower, "BTC", "1")
	bid := index.Mul(decimal.RequireFromString("0.9")).Round(2)
	if _, err := l.Spot().PlaceOrder(ctx, maker, spot.PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: "LIMIT", Price: bid.String(), Volume: "2"}); err != nil {
		t.Fatal(err)
	}
	borrowed := index.Mul(decimal.RequireFromString("0.05")).Round(0) // 50% of 0.1 BTC
	v, err := l.Earn().Borrow(ctx, borrower, earn.BorrowInput{Coin: "USDT", Amount: borrowed.String(), Collateral: "BTC", CollateralAmount: "0.1", Term: 30})
	if err != nil {
		t.Fatal(err)
	}
	// The operator lowers the LTVs under the loan's 50%: the next run
	// liquidates it.
	cfg := earn.DefaultLoanConfig()
	cfg.InitialLTV, cfg.MarginCallLTV, cfg.LiquidationLTV = decimal.RequireFromString("0.2"), decimal.RequireFromString("0.3"), decimal.RequireFromString("0.4")
	if err := l.Earn().PutLoanConfig(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	if rep, err := l.Earn().RunDue(ctx); err != nil || rep.Loans != 1 {
		t.Fatalf("run: %+v %v", rep, err)
	}
	loans, err := l.Earn().Loans(ctx, borrower)
	if err != nil || loans[0].ID != v.ID || loans[0].Status != earn.LoanLiquidated || loans[0].SoldCollateral != "0.10000000" {
		t.Fatalf("loans: %+v %v", loans, err)
	}
	o, err := l.Spot().OrderByClientID(ctx, LoanLiquidator, "earn-loan-"+v.ID+"-liq")
	if err != nil || !o.DealVolume.Equal(decimal.RequireFromString("0.1")) {
		t.Fatalf("liquidation order: %+v %v", o, err)
	}
	proceeds := o.DealMoney.Sub(o.Fee)
	if loans[0].Proceeds != proceeds.StringFixed(6) {
		t.Fatalf("proceeds %s, the order brought %s", loans[0].Proceeds, proceeds)
	}
	fee := proceeds.Mul(cfg.LiquidationFee).Shift(6).Ceil().Shift(-6)
	want := borrowed.Add(proceeds.Sub(fee).Sub(borrowed)) // the loan kept + the rest back
	if b, _ := l.Ledger().Balance(ctx, ledger.UserAccount(borrower, ledger.Spot), "USDT"); !b.Available.Equal(want) {
		t.Fatalf("borrower's USDT %s, want %s", b.Available, want)
	}
	open, err := l.Spot().ListOpenOrders(ctx, maker, "btcusdt")
	if err != nil || len(open) != 1 || !open[0].DealVolume.Equal(decimal.RequireFromString("0.1")) {
		t.Fatalf("maker's bid: %+v %v", open, err)
	}
	if b, _ := l.Ledger().Balance(ctx, ledger.UserAccount(maker, ledger.Spot), "BTC"); !b.Available.Add(open[0].Fee).Equal(decimal.RequireFromString("0.1")) {
		t.Fatalf("maker's BTC %s (fee %s)", b.Available, open[0].Fee)
	}
	rep, err := l.Ledger().Audit(ctx, "BTC", "USDT")
	if err != nil || !rep.Clean() {
		t.Fatalf("audit: %v %v", rep.Problems, err)
	}
}
