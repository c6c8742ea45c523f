package platform

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/store/embedded"
)

// TestMarketReader: with tenger serve's configuration the routers and the
// wallet read the market data service the engine feeds, in memory; with
// the AWS functions' configuration they read a reader of the store, which
// sees what the engine's process (another Deps here) stores.
func TestMarketReader(t *testing.T) {
	if r := ConfigFromEnv().MarketDataRefresh; r <= 0 || r > 2*time.Second {
		t.Fatalf("AWS market data refresh = %s", r)
	}
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	newDeps := func(refresh time.Duration) *Deps {
		return &Deps{Store: st, Markets: markets.Defaults(), Log: zerolog.Nop(), Now: time.Now,
			Config: Config{MarketDataRefresh: refresh}}
	}

	local := newDeps(0)
	fed, err := local.MarketData()
	if err != nil {
		t.Fatal(err)
	}
	if r, err := local.MarketReader(); err != nil || r != fed {
		t.Fatalf("tenger serve reads %p (%v), not the fed service %p", r, err, fed)
	}

	fed.OnTrades("btcusdt", []marketdata.Trade{{ID: "1", Price: decimal.NewFromInt(50000), Qty: decimal.NewFromInt(1),
		TakerSide: "BUY", At: time.Now()}})
	if err := fed.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	fn := newDeps(marketdata.DefaultRefresh)
	r, err := fn.MarketReader()
	if err != nil || r == fed {
		t.Fatalf("a function reads %p (%v)", r, err)
	}
	if again, _ := fn.MarketReader(); again != r {
		t.Fatal("the reader is built again")
	}
	if p, ok := r.LastPrice("btcusdt"); !ok || !p.Equal(decimal.NewFromInt(50000)) {
		t.Fatalf("the function's last price = %s %v", p, ok)
	}
}
