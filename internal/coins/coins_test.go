package coins

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/chain"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestDefaultCatalogue(t *testing.T) {
	cat, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	var syms []string
	for _, c := range cat.List() {
		syms = append(syms, c.Symbol)
	}
	if got := strings.Join(syms, ","); got != "BTC,ETH,USDT,TRX,XRP,TON,MNT" {
		t.Errorf("coins = %s", got)
	}
	usdt, ok := cat.Coin("usdt")
	if !ok || len(usdt.Chains) != 3 {
		t.Fatalf("USDT = %+v", usdt)
	}
	for i, want := range []string{"ERC20", "TRC20", "BEP20"} {
		if usdt.Chains[i].Name != want {
			t.Errorf("USDT chain %d = %s, want %s", i, usdt.Chains[i].Name, want)
		}
	}
	wantConf := map[string]int{"BTC/BTC": 2, "ETH/ETH": 12, "USDT/ERC20": 12, "USDT/TRC20": 19, "USDT/BEP20": 15,
		"TRX/TRX": 19, "XRP/XRP": 1, "TON/TON": 1, "MNT/Bank": 0}
	for key, conf := range wantConf {
		sym, ch, _ := strings.Cut(key, "/")
		cc, ok := cat.Chain(sym, ch)
		if !ok {
			t.Errorf("%s missing", key)
			continue
		}
		if cc.Confirmations != conf {
			t.Errorf("%s confirmations = %d, want %d", key, cc.Confirmations, conf)
		}
		if !cc.DepositOpen || !cc.WithdrawOpen {
			t.Errorf("%s not open", key)
		}
		if ac, onChain := cc.AddressChain(); onChain {
			if cc.HasMemo() != ac.IsMemoChain() {
				t.Errorf("%s memo flag %v, chain memo %v", key, cc.HasMemo(), ac.IsMemoChain())
			}
		} else if !cc.IsBank() {
			t.Errorf("%s is neither an address chain nor Bank", key)
		}
	}
	for _, memo := range []string{"XRP", "TON"} {
		if cc, _ := cat.Chain(memo, memo); cc.TagType != TagMemo {
			t.Errorf("%s tagType = %d", memo, cc.TagType)
		}
	}
	// The fiat: MNT for deposits, MONT for withdrawals, one coin, Bank chain.
	mont, ok := cat.Coin("MONT")
	if !ok || mont.Symbol != "MNT" || !mont.IsFiat || mont.WithdrawCode != "MONT" || mont.DepositCode != "MNT" {
		t.Fatalf("MONT lookup = %+v, %v", mont, ok)
	}
	if _, ok := cat.Chain("MONT", "bank"); !ok {
		t.Error("MONT has no Bank chain")
	}
	if f, ok := cat.Fiat(); !ok || f.Symbol != "MNT" {
		t.Errorf("Fiat() = %+v", f)
	}
	if _, ok := cat.Coin("DOGE"); ok {
		t.Error("unknown coin found")
	}
	if _, ok := cat.Chain("BTC", "ERC20"); ok {
		t.Error("BTC on ERC20 found")
	}
	// Lookups hand out copies.
	btc, _ := cat.Coin("BTC")
	btc.Chains[0].WithdrawFee = dec("99")
	if again, _ := cat.Chain("BTC", "BTC"); again.WithdrawFee.Equal(dec("99")) {
		t.Error("catalogue mutated through a returned coin")
	}
	if !btc.DepositOpen() || !btc.WithdrawOpen() {
		t.Error("BTC open flags")
	}
}

func writeOperator(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, OperatorFile), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestOperatorFileMerges(t *testing.T) {
	dir := writeOperator(t, `{"coins": [
		{"symbol": "BTC", "chains": [{"name": "BTC", "withdrawFee": "0.0005", "depositOpen": false}]},
		{"symbol": "usdt", "name": "USDT₮", "chains": [{"name": "trc20", "confirmations": 20}]},
		{"symbol": "DOGE", "name": "DOGE", "longName": "Dogecoin", "precision": 8,
		 "chains": [{"name": "BEP20", "mainChainName": "BSC", "depositOpen": true, "withdrawOpen": true,
		             "precision": 8, "withdrawFee": "1", "withdrawMin": "10", "withdrawMax": "100000", "confirmations": 15}]}
	]}`)
	cat, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	btc, _ := cat.Chain("BTC", "BTC")
	if !btc.WithdrawFee.Equal(dec("0.0005")) || btc.DepositOpen || !btc.WithdrawOpen || btc.Confirmations != 2 {
		t.Errorf("BTC merged = %+v", btc)
	}
	usdt, _ := cat.Coin("USDT")
	if usdt.Name != "USDT₮" || usdt.LongName != "Tether USD" {
		t.Errorf("USDT coin merged = %+v", usdt)
	}
	if trc, _ := usdt.Chain("TRC20"); trc.Confirmations != 20 || !trc.WithdrawFee.Equal(dec("1")) {
		t.Errorf("TRC20 merged = %+v", trc)
	}
	if doge, ok := cat.Coin("DOGE"); !ok || doge.Chains[0].Name != "BEP20" {
		t.Errorf("DOGE = %+v", doge)
	}
	if list := cat.List(); list[len(list)-1].Symbol != "DOGE" {
		t.Errorf("operator coin not appended last")
	}
	// No operator file: the defaults.
	if cat, err := Load(t.TempDir()); err != nil || len(cat.List()) != 7 {
		t.Errorf("empty data dir: %v", err)
	}
}

func TestOperatorFileErrors(t *testing.T) {
	cases := map[string]string{
		"unknown chain":     `{"coins":[{"symbol":"BTC","chains":[{"name":"LIGHTNING","mainChainName":"BTC","precision":8,"withdrawMax":"1"}]}]}`,
		"negative fee":      `{"coins":[{"symbol":"BTC","chains":[{"name":"BTC","withdrawFee":"-0.1"}]}]}`,
		"min > max":         `{"coins":[{"symbol":"ETH","chains":[{"name":"ETH","withdrawMin":"300"}]}]}`,
		"precision range":   `{"coins":[{"symbol":"ETH","precision":19}]}`,
		"chain precision":   `{"coins":[{"symbol":"ETH","chains":[{"name":"ETH","precision":-1}]}]}`,
		"fee decimals":      `{"coins":[{"symbol":"MNT","chains":[{"name":"Bank","withdrawFee":"0.001"}]}]}`,
		"fee above min":     `{"coins":[{"symbol":"TRX","chains":[{"name":"TRX","withdrawFee":"11"}]}]}`,
		"memo flag":         `{"coins":[{"symbol":"XRP","chains":[{"name":"XRP","tagType":0}]}]}`,
		"memo on BTC":       `{"coins":[{"symbol":"BTC","chains":[{"name":"BTC","tagType":1}]}]}`,
		"bank on crypto":    `{"coins":[{"symbol":"BTC","chains":[{"name":"Bank","mainChainName":"Bank","precision":2,"withdrawMax":"1"}]}]}`,
		"typo field":        `{"coins":[{"symbol":"BTC","chains":[{"name":"BTC","withdrawFees":"1"}]}]}`,
		"syntax":            "{\"coins\": [\n{\"symbol\": \"BTC\",,}]}",
		"no symbol":         `{"coins":[{"name":"X"}]}`,
		"incomplete coin":   `{"coins":[{"symbol":"NEW"}]}`,
		"bad symbol":        `{"coins":[{"symbol":"B-TC","name":"x","chains":[]}]}`,
		"duplicate code":    `{"coins":[{"symbol":"USDT","withdrawCode":"MONT"}]}`,
		"zero max":          `{"coins":[{"symbol":"BTC","chains":[{"name":"BTC","withdrawMax":"0","withdrawMin":"0","withdrawFee":"0"}]}]}`,
		"trailing data":     `{"coins":[]} {}`,
		"negative confirms": `{"coins":[{"symbol":"BTC","chains":[{"name":"BTC","confirmations":-1}]}]}`,
	}
	for name, body := range cases {
		_, err := Load(writeOperator(t, body))
		if !errors.Is(err, ErrInvalidCatalogue) {
			t.Errorf("%s: err = %v, want ErrInvalidCatalogue", name, err)
			continue
		}
		if !strings.Contains(err.Error(), OperatorFile) {
			t.Errorf("%s: error does not name the file: %v", name, err)
		}
	}
	_, err := Load(writeOperator(t, "{\"coins\": [\n{\"symbol\": \"BTC\",,}]}"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("syntax error should give the line: %v", err)
	}
	_, err = Load(writeOperator(t, `{"coins":[{"symbol":"BTC","chains":[{"name":"LIGHTNING"}]}]}`))
	if err == nil || !strings.Contains(err.Error(), `unknown chain "LIGHTNING"`) {
		t.Errorf("unknown chain message: %v", err)
	}
}

func TestSetEditsOperatorFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, OperatorFile)
	steps := []struct{ sym, ch, field, value string }{
		{"btc", "btc", "withdrawFee", "0.0003"},
		{"BTC", "BTC", "depositOpen", "false"},
		{"USDT", "trc20", "confirmations", "25"},
		{"XRP", "", "longName", "Ripple XRP"},
		{"MONT", "bank", "withdrawMax", "20000000"},
	}
	for _, s := range steps {
		if err := Set(path, s.sym, s.ch, s.field, s.value); err != nil {
			t.Fatalf("Set%v: %v", s, err)
		}
	}
	cat, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if btc, _ := cat.Chain("BTC", "BTC"); !btc.WithdrawFee.Equal(dec("0.0003")) || btc.DepositOpen {
		t.Errorf("BTC = %+v", btc)
	}
	if trc, _ := cat.Chain("USDT", "TRC20"); trc.Confirmations != 25 {
		t.Errorf("TRC20 = %+v", trc)
	}
	if xrp, _ := cat.Coin("XRP"); xrp.LongName != "Ripple XRP" {
		t.Errorf("XRP = %+v", xrp)
	}
	// MONT resolves to the fiat coin, and the file keeps the canonical spelling.
	if bank, _ := cat.Chain("MNT", "Bank"); !bank.WithdrawMax.Equal(dec("20000000")) {
		t.Errorf("Bank = %+v", bank)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"name": "Bank"`) || !strings.Contains(string(data), `"name": "TRC20"`) {
		t.Errorf("operator file:\n%s", data)
	}
	if strings.Contains(string(data), "withdrawMin") {
		t.Errorf("Set wrote fields it was not asked to:\n%s", data)
	}

	// Bad edits are refused and leave the file as it was.
	bad := []struct{ sym, ch, field, value string }{
		{"BTC", "BTC", "withdrawFee", "-1"},
		{"BTC", "BTC", "withdrawFee", "abc"},
		{"BTC", "BTC", "withdrawFee", "1e-3"},
		{"BTC", "BTC", "withdrawMin", "11"},
		{"BTC", "BTC", "colour", "red"},
		{"BTC", "", "precision", "99"},
		{"BTC", "BTC", "depositOpen", "maybe"},
		{"BTC", "DOGECHAIN", "withdrawFee", "1"},
		{"", "", "name", "x"},
	}
	for _, s := range bad {
		if err := Set(path, s.sym, s.ch, s.field, s.value); !errors.Is(err, ErrInvalidCatalogue) {
			t.Errorf("Set%v = %v, want ErrInvalidCatalogue", s, err)
		}
	}
	after, _ := os.ReadFile(path)
	if string(after) != string(data) {
		t.Errorf("refused edits changed the file")
	}
}

func TestCatalogueChainsAreKnownToChainPackage(t *testing.T) {
	cat, _ := Defaults()
	for _, c := range cat.List() {
		for _, ch := range c.Chains {
			if ch.IsBank() {
				continue
			}
			if _, err := chain.Parse(ch.Name); err != nil {
				t.Errorf("%s/%s: %v", c.Symbol, ch.Name, err)
			}
		}
	}
}
