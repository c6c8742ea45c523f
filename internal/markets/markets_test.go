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
	bad := []string{
		`{`,
		`[{"symbol":"BTCUSDT","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0","lotSize":"1","pricePrecision":2}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.001","lotSize":"1","pricePrecision":2}]`,
		`[{"symbol":"ethusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2,"surprise":1}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2,"selfTradePrevention":"default"}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2,"selfTradePrevention":"decrement"}]`,
		`[{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2},{"symbol":"btcusdt","base":"BTC","quote":"USDT","priceTick":"0.01","lotSize":"1","pricePrecision":2}]`,
	}
	for i, s := range bad {
		write(s)
		if _, err := Load(dir); !errors.Is(err, ErrInvalid) {
			t.Errorf("bad %d: %v", i, err)
		}
	}
}
