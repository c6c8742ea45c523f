package matching

import (
	"errors"
	"fmt"

	"github.com/shopspring/decimal"
)

// SymbolConfig is a symbol's trading rules in decimal, as stored and shown.
// The engine converts prices and quantities to ticks and lots once, at the
// edge, with these helpers; the book never sees a decimal.
type SymbolConfig struct {
	Symbol         string
	PriceTick      decimal.Decimal // e.g. 0.01
	LotSize        decimal.Decimal // e.g. 0.0001
	PricePrecision int32           // decimals shown for prices; the tick must be representable
	QtyPrecision   int32           // decimals shown for quantities; the lot must be representable
	MinQty         decimal.Decimal // base units, 0 = one lot
	MinNotional    decimal.Decimal // quote units (price × quantity), 0 = none
}

// Conversion errors. Each maps to a Reason (see ReasonFor).
var (
	ErrOffTick     = errors.New("matching: price not a multiple of the tick size")
	ErrOffLot      = errors.New("matching: quantity not a multiple of the lot size")
	ErrOffQuote    = errors.New("matching: quote amount not a multiple of tick × lot")
	ErrNonPositive = errors.New("matching: value must be positive")
	ErrTooLarge    = errors.New("matching: value too large")
)

// ReasonFor maps a conversion error to the reject reason the engine reports.
func ReasonFor(err error) Reason {
	switch {
	case err == nil:
		return ReasonNone
	case errors.Is(err, ErrOffTick):
		return ReasonPriceOffTick
	case errors.Is(err, ErrOffLot):
		return ReasonQtyOffLot
	case errors.Is(err, ErrOffQuote):
		return ReasonQuoteOffGrid
	case errors.Is(err, ErrTooLarge):
		return ReasonTooLarge
	case errors.Is(err, ErrNonPositive):
		return ReasonInvalidQty
	}
	return ReasonInvalidCommand
}

// Validate checks that the configuration is usable.
func (c SymbolConfig) Validate() error {
	if !c.PriceTick.IsPositive() || !c.LotSize.IsPositive() {
		return fmt.Errorf("matching: %s: tick and lot size must be positive", c.Symbol)
	}
	if c.PricePrecision < 0 || c.QtyPrecision < 0 || c.PricePrecision > 18 || c.QtyPrecision > 18 {
		return fmt.Errorf("matching: %s: precisions must be in 0..18", c.Symbol)
	}
	if !c.PriceTick.Equal(c.PriceTick.Truncate(c.PricePrecision)) {
		return fmt.Errorf("matching: %s: tick %s finer than price precision %d", c.Symbol, c.PriceTick, c.PricePrecision)
	}
	if !c.LotSize.Equal(c.LotSize.Truncate(c.QtyPrecision)) {
		return fmt.Errorf("matching: %s: lot %s finer than quantity precision %d", c.Symbol, c.LotSize, c.QtyPrecision)
	}
	if c.MinQty.IsNegative() || c.MinNotional.IsNegative() {
		return fmt.Errorf("matching: %s: minimums must not be negative", c.Symbol)
	}
	return nil
}

// toUnits converts v to a whole number of units; off-grid values fail with
// offGrid.
func toUnits(v, unit decimal.Decimal, offGrid error) (int64, error) {
	if !v.IsPositive() {
		return 0, ErrNonPositive
	}
	// Bound the representation before any arithmetic: "1e999999999" is a
	// valid decimal whose rescaling would take forever.
	if v.NumDigits() > 40 || v.Exponent() > 40 {
		return 0, ErrTooLarge
	}
	if v.Exponent() < -40 {
		return 0, offGrid
	}
	q, r := v.QuoRem(unit, 0)
	if !r.IsZero() {
		return 0, offGrid
	}
	if !q.IsInteger() || q.Cmp(decimal.New(1, 18)) > 0 {
		return 0, ErrTooLarge
	}
	return q.IntPart(), nil
}

// ToTicks converts a decimal price to ticks; a price not on the tick grid
// is rejected, never rounded.
func (c SymbolConfig) ToTicks(price decimal.Decimal) (int64, error) {
	return toUnits(price, c.PriceTick, ErrOffTick)
}

// ToLots converts a decimal base quantity to lots; a quantity not on the
// lot grid is rejected, never rounded.
func (c SymbolConfig) ToLots(qty decimal.Decimal) (int64, error) {
	return toUnits(qty, c.LotSize, ErrOffLot)
}

// FromTicks converts ticks back to a decimal price.
func (c SymbolConfig) FromTicks(ticks int64) decimal.Decimal {
	return c.PriceTick.Mul(decimal.NewFromInt(ticks))
}

// FromLots converts lots back to a decimal base quantity.
func (c SymbolConfig) FromLots(lots int64) decimal.Decimal {
	return c.LotSize.Mul(decimal.NewFromInt(lots))
}

// QuoteUnit is the quote value of one lot at one tick: trade notionals and
// market budgets are counted in it.
func (c SymbolConfig) QuoteUnit() decimal.Decimal { return c.PriceTick.Mul(c.LotSize) }

// QuoteToUnits converts a decimal quote amount (a market buy's budget) to
// quote units; an amount not on the grid is rejected.
func (c SymbolConfig) QuoteToUnits(amount decimal.Decimal) (int64, error) {
	return toUnits(amount, c.QuoteUnit(), ErrOffQuote)
}

// QuoteToUnitsFloor converts a quote amount to quote units rounding down,
// for callers that hold the full amount and release the unusable fraction.
func (c SymbolConfig) QuoteToUnitsFloor(amount decimal.Decimal) (int64, error) {
	if !amount.IsPositive() {
		return 0, ErrNonPositive
	}
	return toUnits(amount.Sub(amount.Mod(c.QuoteUnit())), c.QuoteUnit(), ErrOffQuote)
}

// FromQuoteUnits converts quote units back to a decimal quote amount.
func (c SymbolConfig) FromQuoteUnits(units int64) decimal.Decimal {
	return c.QuoteUnit().Mul(decimal.NewFromInt(units))
}

// BookConfig derives the engine configuration for the book with this
// numeric symbol id. Minimums are rounded up to whole lots and quote
// units, so the engine never accepts less than the configured minimum.
func (c SymbolConfig) BookConfig(symbolID uint32) (BookConfig, error) {
	if err := c.Validate(); err != nil {
		return BookConfig{}, err
	}
	bc := BookConfig{Symbol: symbolID, MinQty: 1}
	if c.MinQty.IsPositive() {
		bc.MinQty = ceilDiv(c.MinQty, c.LotSize)
	}
	if c.MinNotional.IsPositive() {
		bc.MinNotional = ceilDiv(c.MinNotional, c.QuoteUnit())
	}
	bc.normalise()
	return bc, nil
}

// ceilDiv returns ⌈v / unit⌉ exactly (no division precision involved).
func ceilDiv(v, unit decimal.Decimal) int64 {
	q, r := v.QuoRem(unit, 0)
	if r.IsPositive() {
		q = q.Add(decimal.NewFromInt(1))
	}
	return q.IntPart()
}

// OrderRequest is a new order in decimal form, as the trading API receives
// it. Empty strings mean "absent".
type OrderRequest struct {
	OrderID   uint64
	UserID    uint64
	Side      Side
	Type      OrderType
	TIF       TimeInForce
	STP       STPMode
	Price     string // limit price (limit orders)
	Qty       string // base quantity
	Quote     string // quote amount (market buys by amount)
	StopPrice string // stop price (stop-limit orders)
}

// PlaceCommand converts a decimal order request into a Place command for
// the book with this symbol id, and validates it against cfg (the book's
// configuration). It returns ReasonNone and the command, or the reason to
// reject it: malformed numbers and off-grid values are refused here, never
// rounded, so the book only ever sees exact ticks and lots; a value beyond
// the book's maximum price, quantity or budget is ReasonTooLarge.
func (c SymbolConfig) PlaceCommand(symbolID uint32, cfg *BookConfig, r OrderRequest) (Command, Reason) {
	cmd := Command{Kind: CmdPlace, Symbol: symbolID, OrderID: r.OrderID, UserID: r.UserID, Side: r.Side,
		Type: r.Type, TIF: r.TIF, STP: r.STP}
	conv := []struct {
		s    string
		dst  *int64
		f    func(decimal.Decimal) (int64, error)
		bad  Reason
		name string
	}{
		{r.Price, &cmd.Price, c.ToTicks, ReasonInvalidPrice, "price"},
		{r.Qty, &cmd.Qty, c.ToLots, ReasonInvalidQty, "qty"},
		{r.Quote, &cmd.Quote, c.QuoteToUnits, ReasonInvalidQty, "quote"},
		{r.StopPrice, &cmd.StopPrice, c.ToTicks, ReasonInvalidPrice, "stop"},
	}
	for _, cv := range conv {
		if cv.s == "" {
			continue
		}
		d, err := decimal.NewFromString(cv.s)
		if err != nil {
			return Command{}, ReasonInvalidCommand
		}
		v, err := cv.f(d)
		if err != nil {
			if errors.Is(err, ErrNonPositive) {
				return Command{}, cv.bad
			}
			return Command{}, ReasonFor(err)
		}
		*cv.dst = v
	}
	// Values on the grid but beyond what one order may carry are refused
	// as too large (the book's own check calls them out of range).
	if cmd.Price > cfg.MaxPrice || cmd.StopPrice > cfg.MaxPrice || cmd.Qty > cfg.MaxQty || cmd.Quote > cfg.MaxPrice*cfg.MaxQty {
		return Command{}, ReasonTooLarge
	}
	if reason := cmd.Validate(cfg); reason != ReasonNone {
		return Command{}, reason
	}
	return cmd, ReasonNone
}
