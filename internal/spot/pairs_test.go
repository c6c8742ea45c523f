package spot

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/markets"
)

// catalogueWith loads the default catalogue plus one pair line, the way an
// operator's markets.json would.
func catalogueWith(t *testing.T, pairLine string) *markets.Catalogue {
	t.Helper()
	dir := t.TempDir()
	var lines []string
	for _, p := range markets.Defaults().List() {
		lines = append(lines, `{"symbol":"`+p.Symbol+`","base":"`+p.Base+`","quote":"`+p.Quote+`","sort":`+
			strconv.Itoa(p.Sort)+`,"pricePrecision":`+strconv.Itoa(int(p.PricePrecision))+`,"volumePrecision":`+strconv.Itoa(int(p.VolumePrecision))+
			`,"priceTick":"`+p.PriceTick.String()+`","lotSize":"`+p.LotSize.String()+`","minQty":"`+p.MinQty.String()+
			`","minNotional":"`+p.MinNotional.String()+`"}`)
	}
	lines = append(lines, pairLine)
	if err := os.WriteFile(filepath.Join(dir, markets.FileName), []byte("["+strings.Join(lines, ",\n")+"]"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := markets.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const ethBTCLine = `{"symbol":"ethbtc","base":"ETH","quote":"BTC","sort":1,"pricePrecision":5,"volumePrecision":3,` +
	`"priceTick":"0.00001","lotSize":"0.001","minQty":"0.01","minNotional":"0.0001"}`

// A pair added to the catalogue while the exchange runs is listed in the
// engine without a restart and takes orders and trades, and a restarted
// engine has its book.
func TestPairOpensWithoutRestart(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "ETH", "2")
	e.deposit(bob, "BTC", "1")
	_, err := e.svc.PlaceOrder(e.ctx, alice, limit("ethbtc", "SELL", "0.05", "1"))
	wantCode(t, err, apperr.CodeTradeSymbolUnknown)

	if _, err := e.cat.Replace(catalogueWith(t, ethBTCLine)); err != nil {
		t.Fatal(err)
	}
	// The runtime lists the catalogue's new pairs within 50 ms.
	for deadline := time.Now().Add(5 * time.Second); e.bookHash("ethbtc") == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the engine has no ethbtc book")
		}
	}
	sell := e.place(alice, limit("ethbtc", "SELL", "0.05", "1.5"))
	buy := e.place(bob, limit("ethbtc", "BUY", "0.05", "1"))
	e.drain()
	e.wantOrder(bob, buy, StatusFilled, "1", "0.05", "0.001")
	e.wantOrder(alice, sell, StatusPartiallyFilled, "1", "0.05", "0.00005")
	e.wantBal(alice, "ETH", "0.5", "0.5")
	e.wantBal(bob, "ETH", "0.999", "0")

	hash := e.bookHash("ethbtc")
	users, coins := []string{alice, bob}, []string{"ETH", "BTC"}
	e.wantSameAfter(e.restart, users, coins)
	e.wantSameAfter(e.crash, users, coins)
	if got := e.bookHash("ethbtc"); got != hash {
		t.Fatalf("ethbtc book after the restarts: hash %x, want %x", got, hash)
	}
	e.audit()
}
