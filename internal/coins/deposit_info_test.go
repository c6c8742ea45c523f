package coins

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// Every on-chain rail of the defaults says what a depositor needs to know
// (a minimum, the block time behind the arrival estimate) and where its
// transactions can be looked up; the bank rail has none of it.
func TestDefaultChainsHaveDepositInfoAndExplorer(t *testing.T) {
	cat, err := Defaults()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cat.List() {
		for _, ch := range c.Chains {
			at := c.Symbol + "/" + ch.Name
			if ch.IsBank() {
				if ch.DepositMin.IsPositive() || ch.BlockSeconds != 0 || ch.ExplorerTxURL != "" || ch.ArrivalSeconds() != 0 {
					t.Errorf("%s has chain-only settings: %+v", at, ch)
				}
				continue
			}
			if !ch.DepositMin.IsPositive() || ch.BlockSeconds <= 0 {
				t.Errorf("%s: depositMin %s, blockSeconds %d", at, ch.DepositMin, ch.BlockSeconds)
			}
			if !strings.HasPrefix(ch.ExplorerTxURL, "https://") || !strings.Contains(ch.ExplorerTxURL, "{txid}") {
				t.Errorf("%s: explorerTxUrl %q", at, ch.ExplorerTxURL)
			}
		}
	}
	// Arrival: the confirmations' worth of blocks.
	for key, want := range map[string]int{"BTC/BTC": 2 * 600, "USDT/TRC20": 19 * 3, "ETH/ETH": 12 * 12, "XRP/XRP": 4} {
		sym, ch, _ := strings.Cut(key, "/")
		if cc, _ := cat.Chain(sym, ch); cc.ArrivalSeconds() != want {
			t.Errorf("%s arrival = %d s, want %d", key, cc.ArrivalSeconds(), want)
		}
	}
	if cc, _ := cat.Chain("USDT", "TRC20"); !cc.DepositMin.Equal(dec("1")) {
		t.Errorf("USDT/TRC20 depositMin = %s", cc.DepositMin)
	}
}

func TestTxURLFillsTheTemplate(t *testing.T) {
	cases := []struct{ template, chain, txid, want string }{
		{"https://mempool.space/tx/{txid}", "BTC", "ab12", "https://mempool.space/tx/ab12"},
		{"https://tronscan.org/#/transaction/{txid}", "TRC20", "ff00", "https://tronscan.org/#/transaction/ff00"},
		{"/dev/chain/tx?chain={chain}&txid={txid}", "ERC20", "0xabc", "/dev/chain/tx?chain=ERC20&txid=0xabc"},
		// An id cannot reach beyond its own place in the address.
		{"https://x.example/tx/{txid}", "BTC", "a/../b?c=d#e", "https://x.example/tx/a%2F..%2Fb%3Fc%3Dd%23e"},
		{"", "BTC", "ab12", ""},
		{"https://mempool.space/tx/{txid}", "BTC", " ", ""},
	}
	for _, c := range cases {
		if got := TxURL(c.template, c.chain, c.txid); got != c.want {
			t.Errorf("TxURL(%q, %q, %q) = %q, want %q", c.template, c.chain, c.txid, got, c.want)
		}
	}
}

func TestDepositInfoAndExplorerAreValidated(t *testing.T) {
	cases := map[string]string{
		"negative deposit min":  `{"coins":[{"symbol":"BTC","chains":[{"name":"BTC","depositMin":"-1"}]}]}`,
		"deposit min decimals":  `{"coins":[{"symbol":"USDT","chains":[{"name":"TRC20","depositMin":"0.0000001"}]}]}`,
		"block seconds range":   `{"coins":[{"symbol":"BTC","chains":[{"name":"BTC","blockSeconds":-5}]}]}`,
		"explorer without txid": `{"coins":[{"symbol":"BTC","chains":[{"name":"BTC","explorerTxUrl":"https://mempool.space/tx/"}]}]}`,
		"explorer script":       `{"coins":[{"symbol":"BTC","chains":[{"name":"BTC","explorerTxUrl":"javascript:alert('{txid}')"}]}]}`,
		"explorer other site":   `{"coins":[{"symbol":"BTC","chains":[{"name":"BTC","explorerTxUrl":"//evil.example/{txid}"}]}]}`,
		"explorer relative":     `{"coins":[{"symbol":"BTC","chains":[{"name":"BTC","explorerTxUrl":"tx/{txid}"}]}]}`,
		"bank deposit min":      `{"coins":[{"symbol":"MNT","chains":[{"name":"Bank","depositMin":"1000"}]}]}`,
		"bank explorer":         `{"coins":[{"symbol":"MNT","chains":[{"name":"Bank","explorerTxUrl":"https://bank.example/{txid}"}]}]}`,
	}
	for name, body := range cases {
		if _, err := Load(writeOperator(t, body)); !errors.Is(err, ErrInvalidCatalogue) {
			t.Errorf("%s: err = %v, want ErrInvalidCatalogue", name, err)
		}
	}
	// A local explorer (a path on this site) and a plain http one are fine.
	dir := writeOperator(t, `{"coins":[{"symbol":"BTC","chains":[{"name":"BTC","explorerTxUrl":"/dev/chain/tx?chain={chain}&txid={txid}"}]},
		{"symbol":"ETH","chains":[{"name":"ETH","explorerTxUrl":"http://127.0.0.1:4000/tx/{txid}","depositMin":"0","blockSeconds":0}]}]}`)
	cat, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if eth, _ := cat.Chain("ETH", "ETH"); eth.DepositMin.IsPositive() || eth.ArrivalSeconds() != 0 {
		t.Errorf("ETH = %+v", eth)
	}
}

func TestSetEditsDepositInfoAndExplorer(t *testing.T) {
	path := filepath.Join(t.TempDir(), OperatorFile)
	for _, s := range [][4]string{
		{"USDT", "TRC20", "depositMin", "5"},
		{"USDT", "TRC20", "blockSeconds", "4"},
		{"BTC", "BTC", "explorerTxUrl", "https://blockstream.info/tx/{txid}"},
	} {
		if err := Set(path, s[0], s[1], s[2], s[3]); err != nil {
			t.Fatalf("Set%v: %v", s, err)
		}
	}
	cat, err := Load(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if trc, _ := cat.Chain("USDT", "TRC20"); !trc.DepositMin.Equal(dec("5")) || trc.ArrivalSeconds() != 19*4 {
		t.Errorf("TRC20 = %+v", trc)
	}
	if btc, _ := cat.Chain("BTC", "BTC"); TxURL(btc.ExplorerTxURL, "BTC", "ab") != "https://blockstream.info/tx/ab" {
		t.Errorf("BTC explorer = %q", btc.ExplorerTxURL)
	}
	for _, s := range [][4]string{
		{"BTC", "BTC", "depositMin", "-1"},
		{"BTC", "BTC", "blockSeconds", "soon"},
		{"BTC", "BTC", "explorerTxUrl", "ftp://x.example/{txid}"},
		{"MNT", "Bank", "blockSeconds", "60"},
	} {
		if err := Set(path, s[0], s[1], s[2], s[3]); !errors.Is(err, ErrInvalidCatalogue) {
			t.Errorf("Set%v = %v, want ErrInvalidCatalogue", s, err)
		}
	}
}
