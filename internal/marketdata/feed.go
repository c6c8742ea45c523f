package marketdata

import (
	"context"
	"time"

	"github.com/shopspring/decimal"
)

// Trade is one executed trade as market data sees it.
type Trade struct {
	ID        string // trade id (unique per symbol)
	Symbol    string // "btcusdt"
	Price     decimal.Decimal
	Qty       decimal.Decimal // base quantity
	TakerSide string          // "BUY" or "SELL"
	At        time.Time
}

// Level is one price level of a book side.
type Level struct {
	Price decimal.Decimal
	Qty   decimal.Decimal
}

// Feed receives what the engine produces. The engine calls it from its own goroutine; implementations must
// not block for long (buffer and return). Trades arrive in execution order per symbol; Depth is a full
// snapshot of the top levels (up to 200 per side, best first), sent at most every 100 ms per symbol and
// only when the book changed.
type Feed interface {
	OnTrades(symbol string, trades []Trade)
	OnDepth(symbol string, bids, asks []Level, at time.Time)
}

// TradeMarks is a Feed that keeps market data from the trades: it applies
// a symbol's trades in id order, skips ids at or below the last it applied,
// and says which that is ("" when none). Trades are handed to the feed
// before it stores them, so a crash can lose some that the engine will not
// replay; at start the engine reads them back from the store and sends
// them again from the id after LastTradeID.
type TradeMarks interface {
	Feed
	LastTradeID(symbol string) string
}

// OrderPlacer is what the market maker needs from the trading service.
type OrderPlacer interface {
	PlaceLimit(ctx context.Context, uid, symbol, side string, price, qty decimal.Decimal) (orderID string, err error)
	Cancel(ctx context.Context, uid, symbol, orderID string) error
	OpenOrders(ctx context.Context, uid, symbol string) ([]string, error) // order ids
}
