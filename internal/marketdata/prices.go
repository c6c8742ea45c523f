package marketdata

import (
	"context"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/wallet"
)

// WalletPrices is the wallet's price source once trading runs: the last
// price of <COIN>/USDT (and of USDT/MNT for the fiat rate), falling back to
// another source (the seeded table) for coins without a traded pair. On a
// reader (Options.Refresh) each price is at most about Refresh old.
type WalletPrices struct {
	md       *Service
	fallback wallet.Prices
}

var _ wallet.Prices = (*WalletPrices)(nil)

// FiatSymbol is the pair whose last price is the MNT per USDT rate.
const FiatSymbol = "usdtmnt"

// NewWalletPrices builds the price source; fallback may be wallet.SeededPrices().
func NewWalletPrices(md *Service, fallback wallet.Prices) *WalletPrices {
	return &WalletPrices{md: md, fallback: fallback}
}

// USDTPrice implements wallet.Prices.
func (w *WalletPrices) USDTPrice(ctx context.Context, coin string) (decimal.Decimal, bool, error) {
	c := strings.ToLower(coin)
	if c == "usdt" {
		return decimal.NewFromInt(1), true, nil
	}
	p, ok, err := w.md.lastPriceOf(ctx, c+"usdt")
	if err != nil {
		return decimal.Zero, false, err
	}
	if ok && p.IsPositive() {
		return p, true, nil
	}
	if w.fallback == nil {
		return decimal.Zero, false, nil
	}
	return w.fallback.USDTPrice(ctx, coin)
}

// FiatPerUSDT implements wallet.Prices.
func (w *WalletPrices) FiatPerUSDT(ctx context.Context) (decimal.Decimal, error) {
	p, ok, err := w.md.lastPriceOf(ctx, FiatSymbol)
	if err != nil {
		return decimal.Zero, err
	}
	if ok && p.IsPositive() {
		return p, nil
	}
	if w.fallback == nil {
		return decimal.Zero, nil
	}
	return w.fallback.FiatPerUSDT(ctx)
}
