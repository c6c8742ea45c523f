package markets

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestDefaults(t *testing.T) {
	c := Defaults()
	if got := c.Quotes(); len(got) != 2 || got[0] != "USDT" || got[1] != "MNT" {
		t.Fatalf("quotes %v", got)
	}
	l := c.List()
	if l[0].Symbol != "btcusdt" || l[len(l)-1].Quote != "MNT" {
		t.Fatalf("order %v", l)
	}
	for _, s := range []string{"btcusdt", "BTC/USDT", "BTC_USDT", "btc-usdt"} {
		p, ok := c.Pair(s)
		if !ok || p.Name() != "BTC/USDT" || p.PriceTick.String() != "0.01" {
			t.Fatalf("%s: %+v %v", s, p, ok)
		}
	}
	if _, ok := c.Pair("dogeusdt"); ok {
		t.Fatal("unknown pair found")
	}
}

func TestOperatorFile(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(dir)
	if err != nil || len(c.List()) != len(Defaults().List()) {
		t.Fatalf("no file: %v", err)
	}
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`[{"symbol":"ethbtc","base":"ETH","quote":"BTC","sort":1,"pricePrecision":6,"volumePrecision":4,"priceTick":"0.000001","lotSize":"0.0001","minQty":"0.001","minNotional":"0.0001","selfTradePrevention":"cancel_maker"},
	        {"symbol":"btcusdt","base":"BTC","quote":"USDT","sort":1,"pricePrecision":2,"volumePrecision":6,"priceTick":"0.01","lotSize":"0.000001","closed":true}]`)
	c, err = Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if l := c.List(); len(l) != 1 || l[0].Symbol != "ethbtc" || l[0].SelfTradePrevention != "cancel_maker" {
		t.Fatalf("list %v", l)
	}
	if p, ok := c.Pair("btcusdt"); !ok || !p.Closed {
		t.Fatal("closed pair must still be found by symbol")
	}
	// Depth merge grids: the tick, then depthSteps or tick × 10 and × 100.
	eth, _ := c.Pair("ethbtc")
	if eth.DepthStep(0).String() != "0.000001" || eth.DepthStep(1).String() != "0.00001" || eth.DepthStep(2).String() != "0.0001" {
		t.Fatalf("default steps %s %s %s", eth.DepthStep(0), eth.DepthStep(1), eth.DepthStep(2))
	}
	write(`[{"symbol":"btcmnt","base":"BTC","quote":"MNT","pricePrecision":0,"volumePrecision":6,"priceTick":"1","lotSize":"0.000001","depthSteps":["10000","100000"]}]`)
	if c, err = Load(dir); err != nil {
		t.Fatal(err)
	}
	if p, _ := c.Pair("btcmnt"); p.DepthStep(0).String() != "1" || p.DepthStep(1).String() != "10000" || p.DepthStep(2).String() != "100000" {
		t.Fatalf("configured steps %v", p.DepthSteps)
	}
	bad := []string{
		`{`,
		`[{"symbol":"BTCUSDT","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0","lotSize":"1","pricePrecision":2}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.001","lotSize":"1","pricePrecision":2}]`,
		`[{"symbol":"ethusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2,"surprise":1}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2,"selfTradePrevention":"default"}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2,"selfTradePrevention":"decrement"}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2,"depthSteps":["10"]}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2,"depthSteps":["100","10"]}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2,"depthSteps":["0.015","10"]}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2},{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2}]`,
	}
	for i, s := range bad {
		write(s)
		if _, err := Load(dir); !errors.Is(err, ErrInvalid) {
			t.Errorf("bad %d: %v", i, err)
		}
	}
}
