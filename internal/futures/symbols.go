package futures

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/contracts"
	"tenger/internal/engine"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/risk"
	"tenger/internal/spot"
)

// MarketSuffix ends a contract's market symbol: the market data of a
// contract is kept under a pair of its own ("btcusdtperp"), never a spot
// pair's ("btcusdt").
const MarketSuffix = "perp"

// MarketSymbol is a contract's symbol in the market data routes and
// channels.
func MarketSymbol(c contracts.Contract) string { return strings.ToLower(c.Symbol) + MarketSuffix }

// BookSymbol is a contract's book id in the engine and its journal (the
// hash of its market symbol, as a pair's is of its symbol).
func BookSymbol(c contracts.Contract) uint32 { return spot.SymbolNum(MarketSymbol(c)) }

// marketPair is the pair the market data keeps a contract's trades,
// depth, tickers and candles under: sizes in the base coin (a lot is one
// contract), prices on the contract's tick.
func marketPair(c contracts.Contract) markets.Pair {
	return markets.Pair{Symbol: MarketSymbol(c), Base: c.Base, Quote: c.Quote, Sort: c.Sort,
		PricePrecision: max(0, -c.PriceTick.Exponent()), VolumePrecision: max(0, -c.ContractValue.Exponent()),
		PriceTick: c.PriceTick, LotSize: c.ContractValue, MinQty: c.ContractValue.Mul(decimal.NewFromInt(max(c.MinQty, 1))),
		Closed: c.Closed}
}

// MarketCatalogue is the market data's catalogue of the contracts.
func MarketCatalogue(cat *contracts.Catalogue) (*markets.Catalogue, error) {
	var pairs []markets.Pair
	for _, c := range cat.List() {
		pairs = append(pairs, marketPair(c))
	}
	return markets.FromPairs(pairs)
}

// Spec is a contract in engine terms, for a margin coin of the given
// engine decimals.
func Spec(c contracts.Contract, quoteDecimals int32) (engine.ContractSpec, error) {
	g, err := c.Grid(quoteDecimals)
	if err != nil {
		return engine.ContractSpec{}, err
	}
	if c.MaxOrderQty <= 0 || c.MaxOrderQty > (1<<62)/g.MaxPrice {
		return engine.ContractSpec{}, fmt.Errorf("futures: %s: maxOrderQty × the highest price leaves int64", c.Symbol)
	}
	id := BookSymbol(c)
	return engine.ContractSpec{Symbol: id, Name: c.Symbol, Quote: c.Quote, TickValue: g.TickValue, MaxPrice: g.MaxPrice,
		Maker: risk.Rate(g.MakerFee), Taker: risk.Rate(g.TakerFee), LiqFee: risk.Rate(g.LiquidationFee), Tiers: g.Tiers,
		Book: matching.BookConfig{Symbol: id, MinQty: max(c.MinQty, 1), MaxPrice: g.MaxPrice, MaxQty: c.MaxOrderQty,
			InitialOrders: 1 << 10, InitialLevels: 1 << 8}}, nil
}
