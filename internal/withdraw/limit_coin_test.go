package withdraw_test

import (
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/wallet"
	"tenger/internal/withdraw"
)

// oneUnitMore is amount plus one unit of precision, at that precision.
func oneUnitMore(t *testing.T, amount string, precision int32) string {
	t.Helper()
	return dec(amount).Add(decimal.New(1, -precision)).StringFixed(precision)
}

// costAndSettings reads u1's get_cost answer and withdraw settings of a coin.
func costAndSettings(t *testing.T, e *env, coin, ch string) (withdraw.Cost, withdraw.Settings) {
	t.Helper()
	c, err := e.svc.Cost(ctx, "u1", coin, ch)
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.svc.Settings(ctx, "u1", coin, ch)
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

// The rest of the 24 h limit in the coin (get_cost and the settings) is the
// submit's own boundary: exactly that amount passes the limit check, one
// unit of precision more fails with the limit error.
func TestLeftInCoinIsTheSubmitBoundary(t *testing.T) {
	for _, tc := range []struct {
		name, price, used, usedPrice, want string
	}{
		// 100000 − 0.12345678 × 30000 = 96296.2966 USDT left; ÷ 30000 = 3.209876553…
		{"inexact quotient", "30000", "0.12345678", "30000", "3.20987655"},
		// 1 BTC at 100000 used the whole limit.
		{"limit used up", "97123.45678901", "1", "100000", "0.00000000"},
		// 100000 − 0.5 × 12345.6789 = 93827.16055 left; ÷ 12345.6789 = 7.6000000737…
		{"price with many decimals", "12345.6789", "0.5", "12345.6789", "7.60000007"},
		// 100000 ÷ 11111.11111111 = 9.0000000000009…; 9.00000001 × 11111.11111111 > 100000.
		{"nothing used yet", "11111.11111111", "", "", "9.00000000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.user("u1", true, false, false)
			e.fund("u1", "BTC", "BTC", "15")
			e.wal.setPrice("BTC", tc.price)
			submit := func(amount string) error {
				e.auth.issue("u1")
				_, err := e.svc.Confirm(ctx, "u1", btcInput(t, amount, allCodes))
				return err
			}
			if tc.used != "" {
				e.wal.setPrice("BTC", tc.usedPrice)
				if err := submit(tc.used); err != nil {
					t.Fatal(err)
				}
				e.wal.setPrice("BTC", tc.price)
			}
			c, s := costAndSettings(t, e, "BTC", "BTC")
			if c.LeftWithdrawDailyCoin != tc.want || s.WithdrawalLeftCoin != tc.want {
				t.Fatalf("left in BTC: cost %q, settings %q, want %q", c.LeftWithdrawDailyCoin, s.WithdrawalLeftCoin, tc.want)
			}
			if tc.want == "0.00000000" {
				// Any amount is over: the smallest one allowed fails with the limit error.
				wantCode(t, submit("0.001"), apperr.CodeDailyLimit)
				return
			}
			wantCode(t, submit(oneUnitMore(t, tc.want, 8)), apperr.CodeDailyLimit)
			if err := submit(tc.want); err != nil {
				t.Fatalf("submit of exactly %s: %v", tc.want, err)
			}
			if c, _ = e.svc.Cost(ctx, "u1", "BTC", "BTC"); c.LeftWithdrawDailyCoin != "0.00000000" {
				t.Fatalf("left after the boundary submit %q", c.LeftWithdrawDailyCoin)
			}
		})
	}
}

// A coin valued by division (the fiat: units per USDT, rounded to 18
// places) gets the boundary of that valuation, not of a rounded quotient.
func TestLeftInCoinOfTheFiatFollowsItsValuation(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, false, false)
	e.fund("u1", "BTC", "BTC", "5")
	e.fund("u1", "MNT", "Bank", "100000000")
	e.wal.banks["u1"] = []wallet.BankAccount{{ID: "b1", Title: "Khan Bank", Account: "MN123456789012345678", UserName: "Bat"}}
	e.auth.issue("u1")
	if _, err := e.svc.Confirm(ctx, "u1", btcInput(t, "1.87654321", allCodes)); err != nil { // 93827.1605 USDT
		t.Fatal(err)
	}
	e.wal.setPerUSDT("MNT", "3421.37")
	c, err := e.svc.Cost(ctx, "u1", "MNT", "Bank")
	if err != nil {
		t.Fatal(err)
	}
	// 6172.8395 USDT left × 3421.37 = 21119567.880115
	if c.LeftWithdrawDailyCoin != "21119567.88" {
		t.Fatalf("left in MNT %q", c.LeftWithdrawDailyCoin)
	}
	bank := func(amount string) error {
		e.auth.issue("u1")
		_, err := e.svc.ConfirmBank(ctx, "u1", withdraw.BankInput{UserID: "u1", Amount: amount, BankAccountID: "b1", Codes: allCodes})
		return err
	}
	wantCode(t, bank(oneUnitMore(t, c.LeftWithdrawDailyCoin, 2)), apperr.CodeDailyLimit)
	if err := bank(c.LeftWithdrawDailyCoin); err != nil {
		t.Fatal(err)
	}
}

// A coin without a price has no amount left in the coin: the client leaves
// the limit to the submit, which refuses it for want of a price.
func TestLeftInCoinIsEmptyWithoutAPrice(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, false, false)
	e.wal.setPrice("BTC", "")
	c, s := costAndSettings(t, e, "BTC", "BTC")
	if c.LeftWithdrawDailyCoin != "" || s.WithdrawalLeftCoin != "" || c.LeftWithdrawDailyAmount != "100000.00" {
		t.Fatalf("cost %+v settings %+v", c, s)
	}
	if c, _ = costAndSettings(t, e, "USDT", "TRC20"); c.LeftWithdrawDailyCoin != "100000.000000" {
		t.Fatalf("USDT left %q", c.LeftWithdrawDailyCoin)
	}
}
