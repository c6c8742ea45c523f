package marketdata

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/wallet"
)

func TestWalletPricesFollowLastPrices(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	fallback := wallet.NewStaticPrices(map[string]decimal.Decimal{"BTC": d("60000"), "ETH": d("3000")}, d("3450"))
	wp := NewWalletPrices(e.md, fallback)
	if p, ok, _ := wp.USDTPrice(ctx, "BTC"); !ok || !p.Equal(d("60000")) {
		t.Fatalf("seeded BTC %s", p)
	}
	if f, _ := wp.FiatPerUSDT(ctx); !f.Equal(d("3450")) {
		t.Fatalf("seeded fiat %s", f)
	}
	e.feed("btcusdt", tr("1", "2026-02-02T00:00:00Z", "70000.5", "0.1", "BUY"))
	e.md.OnTrades("usdtmnt", []Trade{{ID: "1", Price: d("3500.1"), Qty: d("10"), TakerSide: "SELL", At: at("2026-02-02T00:00:00Z")}})
	_ = e.md.Sync(ctx)
	if p, ok, _ := wp.USDTPrice(ctx, "btc"); !ok || !p.Equal(d("70000.5")) {
		t.Fatalf("traded BTC %s", p)
	}
	if p, ok, _ := wp.USDTPrice(ctx, "ETH"); !ok || !p.Equal(d("3000")) {
		t.Fatalf("untraded ETH falls back: %s", p)
	}
	if p, ok, _ := wp.USDTPrice(ctx, "USDT"); !ok || !p.Equal(d("1")) {
		t.Fatalf("USDT %s", p)
	}
	if f, _ := wp.FiatPerUSDT(ctx); !f.Equal(d("3500.1")) {
		t.Fatalf("traded fiat %s", f)
	}
	if _, ok, _ := wp.USDTPrice(ctx, "DOGE"); ok {
		t.Fatal("DOGE has a price")
	}
}
