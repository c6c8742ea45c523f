package withdraw_test

import (
	"context"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/chain"
	"tenger/internal/coins"
	"tenger/internal/withdraw"
)

// FuzzCheckAmount: whatever the typed amount and fee, the validator never
// panics, and what it accepts is within the chain's rules.
func FuzzCheckAmount(f *testing.F) {
	for _, s := range [][2]string{{"0.1", "0.0002"}, {"0.001", ""}, {"10", "0.0002"}, {"10.00000001", ""}, {"1e3", ""},
		{"-1", ""}, {".5", ""}, {"5.", ""}, {"00000.0010", "0.00020"}, {"1", "abc"}, {"", ""}, {"0", "0"}} {
		f.Add(s[0], s[1])
	}
	cat, err := coins.Defaults()
	if err != nil {
		f.Fatal(err)
	}
	cfg, _ := cat.Chain("BTC", "BTC")
	f.Fuzz(func(t *testing.T, amount, fee string) {
		amt, gotFee, err := withdraw.CheckAmount(cfg, amount, fee)
		if err != nil {
			return
		}
		if amt.LessThan(cfg.WithdrawMin) || amt.GreaterThan(cfg.WithdrawMax) || !gotFee.Equal(cfg.WithdrawFee) || !amt.GreaterThan(gotFee) {
			t.Fatalf("accepted %q/%q as %s/%s", amount, fee, amt, gotFee)
		}
		if !amt.Equal(amt.Truncate(cfg.Precision)) {
			t.Fatalf("accepted %q with more than %d decimals", amount, cfg.Precision)
		}
		if _, err := decimal.NewFromString(strings.TrimSpace(amount)); err != nil {
			t.Fatalf("accepted unparseable %q", amount)
		}
	})
}

// FuzzValidateAddress: the address check of confirm_withdraw never panics,
// and an accepted address passes the chain's own validator.
func FuzzValidateAddress(f *testing.F) {
	for _, s := range [][2]string{{"BTC", "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"}, {"ERC20", "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"},
		{"TRC20", "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH"}, {"XRP", "rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3_123456"},
		{"TON", "UQDn5Z_v1MEVAC6Okpigcd5Gg063kOyryMUcPMgCEJJD21U6_hello"}, {"Bank", "MN123456789012345678"}, {"ETH", "0x"}, {"XRP", "_"}} {
		f.Add(s[0], s[1])
	}
	cat, err := coins.Defaults()
	if err != nil {
		f.Fatal(err)
	}
	svc := withdraw.New(withdraw.Options{Coins: cat})
	f.Fuzz(func(t *testing.T, chainName, address string) {
		coin := "USDT"
		switch strings.ToUpper(chainName) {
		case "BTC", "ETH", "TRX", "XRP", "TON":
			coin = strings.ToUpper(chainName)
		case "BANK":
			coin = "MONT"
		}
		if err := svc.ValidateAddress(context.Background(), "", coin, chainName, address); err != nil {
			return
		}
		cfg, ok := cat.Chain(coin, chainName)
		if !ok {
			t.Fatalf("accepted unknown chain %q", chainName)
		}
		if cfg.IsBank() {
			if _, err := coins.NormalizeIBAN(address); err != nil {
				t.Fatalf("accepted IBAN %q", address)
			}
			return
		}
		ac, _ := cfg.AddressChain()
		a, _ := chain.ParseAddressMemo(ac, strings.TrimSpace(address))
		if err := chain.Validate(ac, a); err != nil {
			t.Fatalf("accepted %q on %s: %v", address, chainName, err)
		}
	})
}
