package main

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestSelfTradesDoNotMoveLimitsOrValuations is the outside test's attack on
// a running server: two accounts of one person trade 0.05 BTC at 100 USDT
// (the market is near 97,000). Before the reference price, BTC's 24 h
// withdrawal allowance rose from about 1 BTC to 1,000 and the wallet
// valued BTC at 100. Now the reference price, the allowance, the
// valuation and the fee tier's volume all stay with the market.
func TestSelfTradesDoNotMoveLimitsOrValuations(t *testing.T) {
	s := startSpotServer(t)
	api := newSpotAPI(t, s.addr)
	seller := api.newTrader("ref-seller@example.com", "1", "1")
	buyer := api.newTrader("ref-buyer@example.com", "100", "0.001")

	type index struct {
		Symbol, Price string
		Sources       map[string]string
	}
	btcIndex := func() decimal.Decimal {
		var all []index
		api.ok("/fe-ex-api/common/index_price", "", map[string]any{}, &all)
		for _, ix := range all {
			if ix.Symbol == "btcusdt" {
				return dec(ix.Price)
			}
		}
		t.Fatalf("no btcusdt index in %v", all)
		return decimal.Zero
	}
	before := btcIndex()
	if before.LessThan(dec("50000")) {
		t.Fatalf("BTC reference %s before any trade", before)
	}

	for _, o := range []struct{ tok, side string }{{seller, "SELL"}, {buyer, "BUY"}} {
		if code, msg, _ := api.place(o.tok, map[string]any{"symbol": spotSymbol, "side": o.side, "type": "LIMIT",
			"price": "100", "volume": "0.05"}); code != "0" {
			t.Fatalf("%s at 100: %s %s", o.side, code, msg)
		}
	}
	eventually(t, "the self-trade at 100 settled and published", 30*time.Second, func() []string {
		if got := api.balances(buyer)["BTC"]; !dec(got.Normal).GreaterThan(dec("0.001")) {
			return []string{"buyer has no BTC yet: " + got.Normal}
		}
		if last := api.ticker().Close; !dec(last).Equal(dec("100")) {
			return []string{"last price " + last}
		}
		return nil
	})
	// Longer than a reference step and a reader's cache.
	time.Sleep(7 * time.Second)

	after := btcIndex()
	if after.Sub(before).Abs().GreaterThan(before.Mul(dec("0.02"))) {
		t.Fatalf("BTC reference %s → %s: moved more than the bound", before, after)
	}
	var cost struct {
		Left string `json:"left_withdraw_daily_coin_amount"`
		Used string `json:"used_withdraw_daily_amount"`
	}
	api.ok("/fe-ex-api/cost/Getcost", seller, map[string]any{"symbol": "BTC"}, &cost)
	// The seller is unverified: 1,000 USDT a day (the unverified level's
	// limit) at about 97,000 USDT a BTC. Had the self-trade moved the
	// price to 100, it would be 10 BTC.
	if left := dec(cost.Left); left.LessThan(dec("0.009")) || left.GreaterThan(dec("0.011")) {
		t.Fatalf("24 h allowance %s BTC after the self-trade, want about 0.0103", cost.Left)
	}
	var ov struct {
		Balance string `json:"balance"`
	}
	api.ok("/fe-ex-api/wallet/get_overview_balance", buyer, map[string]any{"coinSymbol": "USDT", "currency": "USD"}, &ov)
	// 0.05 BTC (less the fee) at about 97,000, plus the 95 USDT left.
	if v := dec(ov.Balance); v.LessThan(dec("4000")) || v.GreaterThan(dec("6000")) {
		t.Fatalf("buyer's spot account valued at %s USDT, want about 4,950", ov.Balance)
	}
	var rates struct {
		Volume string `json:"volume30d"`
	}
	api.ok("/fe-ex-api/order/fee_rate", seller, map[string]any{}, &rates)
	if v := dec(rates.Volume); v.GreaterThan(dec("5")) {
		t.Fatalf("seller's 30-day volume %s USDT from a 5 USDT trade", rates.Volume)
	}
}
