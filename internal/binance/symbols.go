package binance

import (
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/markets"
)

// Symbol statuses (Binance's tradingStatus). Tenger's open pairs are
// TRADING; a closed pair is BREAK: it takes no orders, is not listed, but
// its market data can still be read by name.
const (
	StatusTrading = "TRADING"
	StatusHalt    = "HALT"
	StatusBreak   = "BREAK"
)

// SymbolOf is a pair's Binance symbol: its base and quote coins in upper
// case (btcusdt → BTCUSDT).
func SymbolOf(p markets.Pair) string { return strings.ToUpper(p.Symbol) }

func statusOf(p markets.Pair) string {
	if p.Closed {
		return StatusBreak
	}
	return StatusTrading
}

// Pair finds the pair of a Binance symbol (BTCUSDT), open or closed; any
// other spelling (btcusdt, BTC_USDT) is -1121, as on Binance.
func (s *Server) Pair(symbol string) (markets.Pair, error) {
	p, ok := s.mk.Pair(strings.ToLower(symbol))
	if !ok || SymbolOf(p) != symbol {
		return markets.Pair{}, ErrBadSymbol()
	}
	return p, nil
}

// symbolParam reads the mandatory symbol parameter and finds its pair.
func (s *Server) symbolParam(p *Params) (markets.Pair, error) {
	sym, _, err := p.Symbol("symbol", true)
	if err != nil {
		return markets.Pair{}, err
	}
	return s.Pair(sym)
}

// symbolStatusParam reads the optional symbolStatus filter ("" when not
// sent).
func symbolStatusParam(p *Params) (string, error) {
	v, sent, err := p.String("symbolStatus", false)
	if err != nil || !sent {
		return "", err
	}
	switch v {
	case StatusTrading, StatusHalt, StatusBreak:
		return v, nil
	}
	return "", ErrInvalidSymbolStatus()
}

// selection is the pairs a multi-symbol call asked for.
type selection struct {
	pairs []markets.Pair
	// single is set when the call named one symbol (the answer is an
	// object, not an array).
	single bool
}

// selectPairs reads symbol, symbols and symbolStatus: one pair (single), a
// list, or (unless needOne) every open pair. With symbolStatus a named
// symbol of another status is -1220 and listed ones of another status are
// left out.
func (s *Server) selectPairs(p *Params, needOne bool) (selection, error) {
	sym, hasSym, err := p.Symbol("symbol", false)
	if err != nil {
		return selection{}, err
	}
	syms, hasSyms, err := p.Symbols("symbols")
	if err != nil {
		return selection{}, err
	}
	if hasSym && hasSyms {
		return selection{}, ErrBadCombo()
	}
	status, err := symbolStatusParam(p)
	if err != nil {
		return selection{}, err
	}
	keep := func(pr markets.Pair) bool { return status == "" || statusOf(pr) == status }
	switch {
	case hasSym:
		pr, err := s.Pair(sym)
		if err != nil {
			return selection{}, err
		}
		if !keep(pr) {
			return selection{}, ErrSymbolStatusMismatch()
		}
		return selection{pairs: []markets.Pair{pr}, single: true}, nil
	case hasSyms:
		out := make([]markets.Pair, 0, len(syms))
		for _, sy := range syms {
			pr, err := s.Pair(sy)
			if err != nil {
				return selection{}, err
			}
			if keep(pr) {
				out = append(out, pr)
			}
		}
		return selection{pairs: out}, nil
	case needOne:
		return selection{}, ErrEitherMandatory("symbol", "symbols")
	}
	var out []markets.Pair
	for _, pr := range s.mk.List() {
		if keep(pr) {
			out = append(out, pr)
		}
	}
	return selection{pairs: out}, nil
}

// symbolsCount is how many symbols a symbols parameter lists, for weights
// (0 when absent or malformed).
func symbolsCount(p *Params) int {
	v, ok := p.Raw("symbols")
	if !ok || !symbolsRE.MatchString(v) || v == "[]" {
		return 0
	}
	return strings.Count(v, ",") + 1
}

// Number formats: prices with the pair's price decimals, quantities with
// its quantity decimals, quote amounts with both (price × quantity is
// exact there), always with every decimal, as Binance pads its numbers.
func fmtPrice(p markets.Pair, d decimal.Decimal) string { return d.StringFixed(p.PricePrecision) }
func fmtQty(p markets.Pair, d decimal.Decimal) string   { return d.StringFixed(p.VolumePrecision) }
func fmtQuote(p markets.Pair, d decimal.Decimal) string {
	return d.StringFixed(p.PricePrecision + p.VolumePrecision)
}

// dec parses a decimal string market data produced (zero if malformed).
func dec(s string) decimal.Decimal {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero
	}
	return d
}
