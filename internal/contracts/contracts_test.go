package contracts

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tenger/internal/perp"
)

func TestDefaults(t *testing.T) {
	c := Defaults()
	l := c.List()
	if len(l) != 2 || l[0].Symbol != "BTCUSDT" || l[1].Symbol != "ETHUSDT" {
		t.Fatalf("list %+v", l)
	}
	for _, s := range []string{"BTCUSDT", "btcusdt", "BTC-USDT", "btc_usdt", " BTC/USDT "} {
		if k, ok := c.Contract(s); !ok || k.ID != 1 {
			t.Fatalf("%q: %+v %v", s, k, ok)
		}
	}
	if k, ok := c.ByID(2); !ok || k.Symbol != "ETHUSDT" {
		t.Fatalf("by id %+v", k)
	}
	btc, _ := c.Contract("BTCUSDT")
	g, err := btc.Grid(8)
	if err != nil {
		t.Fatal(err)
	}
	// 0.001 BTC × 0.1 USDT = 0.0001 USDT a tick = 10,000 units; Binance's BTCUSDT cums 0 / 50 / 1,300 / 46,300 / 546,300.
	if g.TickValue != 10_000 || g.TakerFee != 50_000 || g.MakerFee != 20_000 || g.FundingCap != 300_000 || g.InterestRate != 10_000 {
		t.Fatalf("grid %+v", g)
	}
	for i, cum := range []int64{0, 50, 1_300, 46_300, 546_300} {
		if g.Tiers[i].Cum != cum*100_000_000 {
			t.Fatalf("tier %d cum %d", i+1, g.Tiers[i].Cum)
		}
	}
	if btc.MaxLeverage() != 125 || g.MaxPrice != 50_000_000*100_000_000/10_000 {
		t.Fatalf("max leverage %d, max price %d", btc.MaxLeverage(), g.MaxPrice)
	}
	// The worked example on this grid (0.1 tick): 1,000 contracts long at 50,000.0 with 5,000 USDT.
	p := perp.Position{Side: perp.Long, Qty: 1_000, Cost: 1_000 * 500_000 * g.TickValue}
	if lp, err := p.LiquidationPrice(5_000*100_000_000, g.TickValue, g.MaxPrice, g.Tiers); err != nil || lp != 451_807 {
		t.Fatalf("LP %d %v, want 451807 (45,180.7)", lp, err)
	}
}

func TestInvalidCatalogues(t *testing.T) {
	base := `{"symbol":"BTCUSDT","id":1,"base":"BTC","quote":"USDT","indexPair":"btcusdt","contractValue":"0.001","priceTick":"0.1",
	 "minQty":1,"maxOrderQty":100,"makerFee":"0.0002","takerFee":"0.0005","liquidationFee":"0.01","fundingIntervalHours":8,
	 "interestRate":"0.0001","fundingCap":"0.003","tiers":[{"cap":"50000","mmr":"0.004","maxLeverage":125}]`
	if _, err := Parse([]byte("[" + base + "}]")); err != nil {
		t.Fatalf("valid: %v", err)
	}
	for name, js := range map[string]string{
		"symbol":           strings.Replace(base, `"BTCUSDT"`, `"btc usdt"`, 1) + "}",
		"unknown field":    base + `,"leverage":5}`,
		"sub-unit grid":    strings.Replace(base, `"0.001"`, `"0.000000001"`, 1) + "}",
		"fine rate":        strings.Replace(base, `"0.0002"`, `"0.000000001"`, 1) + "}",
		"funding interval": strings.Replace(base, `"fundingIntervalHours":8`, `"fundingIntervalHours":7`, 1) + "}",
		"tiers":            strings.Replace(base, `"maxLeverage":125`, `"maxLeverage":300`, 1) + "}",
		"no tiers":         strings.Replace(base, `[{"cap":"50000","mmr":"0.004","maxLeverage":125}]`, `[]`, 1) + "}",
		"order sizes":      strings.Replace(base, `"maxOrderQty":100`, `"maxOrderQty":0`, 1) + "}",
	} {
		if _, err := Parse([]byte("[" + js + "]")); !errors.Is(err, ErrInvalid) {
			t.Fatalf("%s accepted: %v", name, err)
		}
	}
	if _, err := Parse([]byte("[" + base + "}," + base + "}]")); !errors.Is(err, ErrInvalid) {
		t.Fatal("a contract listed twice was accepted")
	}
	if _, err := Parse([]byte("[" + base + "}," + strings.Replace(base, `"BTCUSDT"`, `"BTCUSDC"`, 1) + "}]")); !errors.Is(err, ErrInvalid) {
		t.Fatal("two contracts with one id were accepted")
	}
}

func TestOperatorFileAndReplace(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(dir)
	if err != nil || len(c.List()) != 2 {
		t.Fatalf("no file: %v", err)
	}
	b, _ := os.ReadFile("contracts_default.json")
	// Close ETHUSDT, re-tier nothing, add SOLUSDT.
	text := strings.Replace(string(b), `"sort": 2, "indexPair": "ethusdt",`, `"sort": 2, "indexPair": "ethusdt", "closed": true,`, 1)
	text = strings.TrimSuffix(strings.TrimSpace(text), "]") + `,
	  {"symbol": "SOLUSDT", "id": 3, "base": "SOL", "quote": "USDT", "sort": 3, "indexPair": "solusdt", "contractValue": "1",
	   "priceTick": "0.01", "minQty": 1, "maxOrderQty": 100000, "makerFee": "0.0002", "takerFee": "0.0005", "liquidationFee": "0.015",
	   "fundingIntervalHours": 4, "interestRate": "0.0001", "fundingCap": "0.02", "tiers": [{"cap": "5000", "mmr": "0.01", "maxLeverage": 50}]}]`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	next, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	opened, err := c.Replace(next)
	if err != nil || len(opened) != 1 || opened[0].Symbol != "SOLUSDT" || c.Version() != 2 {
		t.Fatalf("opened %+v %v", opened, err)
	}
	if l := c.List(); len(l) != 2 || l[1].Symbol != "SOLUSDT" {
		t.Fatalf("list %+v", l)
	}
	if eth, ok := c.Contract("ETHUSDT"); !ok || !eth.Closed {
		t.Fatal("a closed contract must still be found")
	}
	// Dropping a contract or changing its grid is refused; the catalogue stays.
	if _, err := c.Replace(Defaults()); !errors.Is(err, ErrIncompatible) {
		t.Fatalf("dropping SOLUSDT: %v", err)
	}
	regrid, _ := Parse([]byte(strings.Replace(text, `"priceTick": "0.1"`, `"priceTick": "0.5"`, 1)))
	if _, err := c.Replace(regrid); !errors.Is(err, ErrIncompatible) {
		t.Fatalf("re-gridding BTCUSDT: %v", err)
	}
	if c.Version() != 2 {
		t.Fatal("a refused catalogue changed the version")
	}
}
