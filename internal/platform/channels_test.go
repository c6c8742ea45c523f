package platform

import (
	"testing"

	"tenger/internal/markets"
)

// TestKnownChannels: the subscriptions the local hub and, in AWS, the ws
// function's adapter accept: the pairs' market channels, the contracts'
// (btcusdtperp) and the contracts' mark channels, spelled as published.
func TestKnownChannels(t *testing.T) {
	d := &Deps{Markets: markets.Defaults()}
	known := d.knownChannels()
	for ch, want := range map[string]bool{
		"market_btcusdt_ticker":           true,
		"market_btcusdt_depth_step0":      true,
		"market_btcusdtperp_ticker":       true,
		"market_btcusdtperp_trade_ticker": true,
		"market_btcusdtperp_kline_1min":   true,
		"market_btcusdtperp_mark":         true,
		"market_ethusdtperp_mark":         true,
		"market_btcusdt_mark":             false,
		"market_BTCUSDTperp_mark":         false,
		"market_dogeusdtperp_mark":        false,
		"market_btcusdtperp_depth_step3":  false,
	} {
		if known(ch) != want {
			t.Errorf("%s accepted = %v, want %v", ch, !want, want)
		}
	}
}
