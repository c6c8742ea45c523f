package spot

import (
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/markets"
	"tenger/internal/matching"
)

// PlaceRequest is a new order as the API receives it. Numbers are decimal
// strings; empty means absent.
type PlaceRequest struct {
	Symbol        string
	Side          string // BUY or SELL
	Type          string // LIMIT, MARKET, FOK, IOC, POST_ONLY, STOP_LIMIT
	Price         string
	Volume        string // base quantity
	QuoteVolume   string // quote amount to spend (market buy only)
	StopPrice     string // STOP_LIMIT only
	ClientOrderID string
	// NewClientOrderID says the caller made ClientOrderID up for this
	// request just now (the Binance-compatible API names every order it is
	// sent without one): no earlier order can carry it, so the retry lookup
	// (a store read, about 8% of a signed order's server time) is skipped.
	NewClientOrderID bool
	// STP is the self-trade prevention mode: cancel_taker, cancel_maker or
	// cancel_both; empty means the pair's (markets.Pair.SelfTradePrevention).
	STP string
}

// MaxClientOrderIDLen bounds clientOrderId.
const MaxClientOrderIDLen = 64

// ValidClientOrderID reports whether id is a clientOrderId the API takes:
// 1 to MaxClientOrderIDLen letters, digits and "-_.:/" (no spaces or control
// characters, which would end up in lists, logs and exports).
func ValidClientOrderID(id string) bool {
	if id == "" || len(id) > MaxClientOrderIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || strings.IndexByte("-_.:/", c) >= 0) {
			return false
		}
	}
	return true
}

// checked is a validated order: the engine command (Seq 0).
type checked struct {
	pair markets.Pair
	cfg  matching.SymbolConfig
	cmd  matching.Command
	side string
	typ  string
	stp  string // the self-trade prevention mode, resolved (never "default")
	// byBase marks a market buy by base quantity: the engine holds what the
	// user can spend for it, at most its budget (cmd.Quote, budgetLimit),
	// which is at most maxBudget quote units (the quantity at the book's
	// top price).
	byBase    bool
	maxBudget int64
}

// checkOrder validates req against the pair's grid without touching any
// state, and returns the command. Every failure is a
// catalogue error naming the rule that was broken; the matching core's
// converter never rounds, so an off-grid value is refused, not adjusted.
func checkOrder(cat *markets.Catalogue, req PlaceRequest, uid, orderID uint64) (checked, error) {
	var c checked
	p, ok := cat.Pair(strings.TrimSpace(req.Symbol))
	if !ok || len(req.Symbol) > 40 {
		return c, apperr.New(apperr.CodeTradeSymbolUnknown, clip(req.Symbol, 40))
	}
	if p.Closed {
		return c, apperr.New(apperr.CodeTradeSymbolClosed, p.Name())
	}
	c.pair, c.cfg = p, symbolConfig(p)
	or := matching.OrderRequest{OrderID: orderID, UserID: uid, Type: matching.Limit, TIF: matching.GTC,
		Price: strings.TrimSpace(req.Price), Qty: strings.TrimSpace(req.Volume), Quote: strings.TrimSpace(req.QuoteVolume),
		StopPrice: strings.TrimSpace(req.StopPrice)}
	switch strings.ToUpper(strings.TrimSpace(req.Side)) {
	case "BUY":
		or.Side, c.side = matching.Buy, "BUY"
	case "SELL":
		or.Side, c.side = matching.Sell, "SELL"
	default:
		return c, apperr.New(apperr.CodeTradeSide)
	}
	c.typ = strings.ToUpper(strings.TrimSpace(req.Type))
	switch c.typ {
	case TypeLimit:
	case TypeFOK:
		or.TIF = matching.FOK
	case TypeIOC:
		or.TIF = matching.IOC
	case TypePostOnly:
		or.TIF = matching.PostOnly
	case TypeStopLimit:
		if or.StopPrice == "" {
			return c, apperr.New(apperr.CodeTradeStopPrice)
		}
	case TypeMarket:
		if or.Price != "" {
			return c, apperr.New(apperr.CodeTradeMarketPrice)
		}
		or.Type, or.TIF = matching.Market, matching.IOC
	default:
		return c, apperr.New(apperr.CodeTradeType)
	}
	// The mode is fixed on the command here, not left to the book's
	// default, so a journal replays the same after the pair's default
	// changes; a mode other than cancel_taker is stored on the order.
	c.stp = strings.ToLower(strings.TrimSpace(req.STP))
	if c.stp == "" {
		c.stp = p.SelfTradePrevention
	}
	if c.stp == "" {
		c.stp = matching.STPCancelTaker.String()
	}
	// Only the modes markets.STPModes offers (not the core's decrement).
	if !slices.Contains(markets.STPModes, c.stp) {
		return c, apperr.New(apperr.CodeTradeSTP)
	}
	or.STP, _ = matching.ParseSTP(c.stp)
	if c.typ != TypeStopLimit && or.StopPrice != "" {
		return c, apperr.New(apperr.CodeTradeStopPrice)
	}
	if or.Qty != "" && or.Quote != "" {
		return c, apperr.New(apperr.CodeTradeVolumeBoth)
	}
	if c.typ == TypeMarket && or.Side == matching.Buy {
		// By quote amount (quoteVolume) or by base quantity (volume).
		if or.Quote == "" && or.Qty == "" {
			return c, apperr.New(apperr.CodeTradeVolumeRequired)
		}
	} else {
		if or.Quote != "" {
			return c, apperr.New(apperr.CodeTradeVolumeBoth)
		}
		if or.Qty == "" {
			return c, apperr.New(apperr.CodeTradeVolumeRequired)
		}
		if c.typ != TypeMarket && or.Price == "" {
			return c, apperr.New(apperr.CodeTradePriceRequired)
		}
	}
	for _, s := range []string{or.Price, or.Qty, or.Quote, or.StopPrice} {
		if s != "" && !plainNumber(s) {
			return c, apperr.New(apperr.CodeTradeNumber)
		}
	}
	sym := symbolNum(p.Symbol)
	bc, err := c.cfg.BookConfig(sym)
	if err != nil {
		return c, apperr.New(apperr.CodeTradeSymbolClosed, p.Name()).WithCause(err)
	}
	cmd, reason := c.cfg.PlaceCommand(sym, &bc, or)
	if reason != matching.ReasonNone {
		return c, reasonError(c.pair, reason)
	}
	c.cmd = cmd
	if or.Side == matching.Buy && cmd.Type == matching.Market && cmd.Quote == 0 {
		// A buy by quantity: how much it may spend depends on the book when
		// it is matched, so it gets a budget at entry.
		c.byBase, c.maxBudget = true, cmd.Qty*bc.MaxPrice
	}
	return c, nil
}

// MarketBuyBand is the price protection of a market buy by quantity: its
// budget is at most its volume at the pair's reference price (the last
// trade price when it has none) times this, so it never pays more than half
// as much again as that price on average, and holds no more of the balance
// than that while it matches.
var MarketBuyBand = decimal.RequireFromString("1.5")

// budgetLimit is the most a market buy by quantity may spend (quote
// units): what the quantity could cost at the book's top price and, once
// the pair has a price (band > 0: its reference price, or its last trade
// price), its volume at band × MarketBuyBand. The engine holds everything
// of the quote coin the user can spend, at most this, for the moment the
// order takes to match, and releases what it did not spend.
func budgetLimit(c *checked, band decimal.Decimal) int64 {
	limit := c.maxBudget
	if band.IsPositive() {
		most := c.cfg.FromLots(c.cmd.Qty).Mul(band).Mul(MarketBuyBand)
		if units, err := c.cfg.QuoteToUnitsFloor(most); err == nil {
			limit = min(limit, units)
		}
	}
	return limit
}

// reasonError maps a matching reject reason to the catalogue. Minimums
// name their coin ("5 USDT"), as the order form shows them.
func reasonError(p markets.Pair, r matching.Reason) error {
	cfg := symbolConfig(p)
	switch r {
	case matching.ReasonPriceOffTick:
		return apperr.New(apperr.CodeTradePriceTick, cfg.PriceTick.String())
	case matching.ReasonQtyOffLot:
		return apperr.New(apperr.CodeTradeVolumeLot, cfg.LotSize.String())
	case matching.ReasonQuoteOffGrid:
		return apperr.New(apperr.CodeTradeVolumeLot, cfg.QuoteUnit().String()+" "+p.Quote)
	case matching.ReasonTooLarge:
		return apperr.New(apperr.CodeTradeTooLarge)
	case matching.ReasonBelowMinQty:
		min := cfg.MinQty
		if !min.IsPositive() {
			min = cfg.LotSize
		}
		return apperr.New(apperr.CodeTradeMinQty, min.String()+" "+p.Base)
	case matching.ReasonBelowMinNotional:
		return apperr.New(apperr.CodeTradeMinNotional, cfg.MinNotional.String()+" "+p.Quote)
	case matching.ReasonStopWouldTrigger:
		return apperr.New(apperr.CodeTradeStopReached, "")
	case matching.ReasonInvalidQty, matching.ReasonInvalidPrice:
		return apperr.New(apperr.CodeTradeNumber)
	}
	return apperr.New(apperr.CodeTradeNumber)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// plainNumber reports whether a price or quantity is written as the API
// takes it: digits with at most one decimal point (no sign or exponent),
// at most 40 characters.
func plainNumber(s string) bool { return len(s) <= 40 && coins.IsPlainDecimal(s) }
