package wallet

import (
	"context"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/ledger"
)

// Lookups of the transfer modal (spec §3 "Transfer lists", "Margin balance info").

// MarginListItem is one entry of the cross (mode 1) or isolated (mode 2) coin list.
type MarginListItem struct {
	Name          string `json:"name"`
	Symbol        string `json:"symbol" doc:"pair (BTCUSDT) for isolated, coin for cross"`
	ShowBaseCoin  string `json:"showBaseCoin"`
	ShowQuoteCoin string `json:"showQuoteCoin"`
	SymbolName    string `json:"symbolName"`
	CoinSymbol    string `json:"coinSymbol" doc:"the default coin (for isolated: the base, the first of the base/quote toggle)"`
	Icon          string `json:"icon"`
}

// MarginCoinList is the transfer modal's margin list.
type MarginCoinList struct {
	CoinLists []MarginListItem `json:"coinLists"`
}

// Margin list modes.
const (
	ModeCross    = 1
	ModeIsolated = 2
)

// MarginCoins answers the cross (mode 1) or isolated (mode 2) coin list.
func (s *Service) MarginCoins(mode int) (MarginCoinList, error) {
	out := MarginCoinList{CoinLists: []MarginListItem{}}
	switch mode {
	case ModeCross:
		for _, sym := range s.markets.CrossCoins {
			c, ok := s.cat.Coin(sym)
			if !ok {
				continue
			}
			out.CoinLists = append(out.CoinLists, MarginListItem{Name: c.Name, Symbol: c.Symbol, ShowBaseCoin: c.Symbol,
				SymbolName: c.Name, CoinSymbol: c.Symbol, Icon: c.Icon})
		}
	case ModeIsolated:
		for _, p := range s.markets.Isolated {
			icon := ""
			if c, ok := s.cat.Coin(p.Base); ok {
				icon = c.Icon
			}
			out.CoinLists = append(out.CoinLists, MarginListItem{Name: p.Name(), Symbol: p.Symbol, ShowBaseCoin: p.Base,
				ShowQuoteCoin: p.Quote, SymbolName: p.Name(), CoinSymbol: p.Base, Icon: icon})
		}
	default:
		return MarginCoinList{}, apperr.Param("mode: 1 (cross) or 2 (isolated)")
	}
	return out, nil
}

// MarginInfo is get_margin_cross_isolated: what can move in (the spot
// available, exNormalBalance) and out (the margin available, canTransfer).
type MarginInfo struct {
	Name            string `json:"name,omitempty"`
	ExNormalBalance string `json:"exNormalBalance,omitempty"`
	CanTransfer     string `json:"canTransfer,omitempty"`
	ReturnPrecision *int32 `json:"returnPrecision,omitempty"`

	Symbol               string `json:"symbol,omitempty"`
	BaseCoin             string `json:"baseCoin,omitempty"`
	BaseExNormalBalance  string `json:"baseExNormalBalance,omitempty"`
	BaseCanTransfer      string `json:"baseCanTransfer,omitempty"`
	BaseReturnPrecision  *int32 `json:"baseReturnPrecision,omitempty"`
	QuoteCoin            string `json:"quoteCoin,omitempty"`
	QuoteExNormalBalance string `json:"quoteExNormalBalance,omitempty"`
	QuoteCanTransfer     string `json:"quoteCanTransfer,omitempty"`
	QuoteReturnPrecision *int32 `json:"quoteReturnPrecision,omitempty"`
}

// Margin info types (as margin borrow uses them: 0 isolated, 1 cross; the
// list mode 2 is accepted for isolated too).
const (
	MarginTypeIsolated = 0
	MarginTypeCross    = 1
)

// MarginBalanceInfo answers get_margin_cross_isolated {type, symbol}:
// symbol is the coin for cross and the pair for isolated.
func (s *Service) MarginBalanceInfo(ctx context.Context, uid string, typ int, symbol string) (MarginInfo, error) {
	h, err := s.holdingsOf(ctx, uid)
	if err != nil {
		return MarginInfo{}, err
	}
	mp := int32(coins.PrecisionMarginDefault)
	switch typ {
	case MarginTypeCross:
		c, err := s.coin(symbol)
		if err != nil {
			return MarginInfo{}, err
		}
		if !contains(s.markets.CrossCoins, c.Symbol) {
			return MarginInfo{}, apperr.New(apperr.CodeWalletCoinNotTransferable, c.Symbol)
		}
		return MarginInfo{
			Name: c.Symbol, ExNormalBalance: fx(h.get(ledger.Spot, c.Symbol).Available, mp),
			CanTransfer: fx(h.get(ledger.MarginCross, c.Symbol).Available, mp), ReturnPrecision: &mp,
		}, nil
	case MarginTypeIsolated, ModeIsolated:
		p, ok := s.markets.pair(symbol)
		if !ok {
			return MarginInfo{}, apperr.New(apperr.CodeWalletPairUnknown)
		}
		return MarginInfo{
			Name: p.Name(), Symbol: p.Symbol,
			BaseCoin: p.Base, BaseExNormalBalance: fx(h.get(ledger.Spot, p.Base).Available, mp),
			BaseCanTransfer: fx(h.isolated(p.Symbol, p.Base).Available, mp), BaseReturnPrecision: &mp,
			QuoteCoin: p.Quote, QuoteExNormalBalance: fx(h.get(ledger.Spot, p.Quote).Available, mp),
			QuoteCanTransfer: fx(h.isolated(p.Symbol, p.Quote).Available, mp), QuoteReturnPrecision: &mp,
		}, nil
	}
	return MarginInfo{}, apperr.Param("type: 0 (isolated) or 1 (cross)")
}

func (s *Service) holdingsOf(ctx context.Context, uid string) (holdings, error) {
	if uid == "" {
		return holdings{}, errNotSignedIn()
	}
	return s.holdings(ctx, uid)
}

// TransferCoin is one coin of the transfer modal's coin list.
type TransferCoin struct {
	Coin      string `json:"coin"`
	ShowName  string `json:"showName"`
	Icon      string `json:"icon"`
	Normal    string `json:"normal" doc:"available in the spot account"`
	Target    string `json:"targetNormal" doc:"available in the chosen account"`
	Precision int32  `json:"precision" doc:"decimals a transfer amount may have (futures: 3, truncated)"`
}

// TransferCoinList is the coin list with precision of the transfer modal.
type TransferCoinList struct {
	Account string         `json:"account"`
	List    []TransferCoin `json:"list"`
}

// ParseAccount maps an account name of the API to a ledger kind: otc,
// futures (contract), margin_cross (cross), margin_isolated (isolated),
// spot (exchange, account, 1).
func ParseAccount(s string) (ledger.Kind, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "spot", "exchange", "account", "fiat":
		return ledger.Spot, true
	case "otc":
		return ledger.OTC, true
	case "futures", "contract", "future":
		return ledger.Futures, true
	case "margin_cross", "cross", "lever_cross":
		return ledger.MarginCross, true
	case "margin_isolated", "isolated", "lever":
		return ledger.MarginIsolated, true
	}
	return "", false
}

// TransferCoins lists the coins one account takes, with the spot and
// account availability and the transfer precision. For isolated margin,
// pair selects the pair (its base and quote).
func (s *Service) TransferCoins(ctx context.Context, uid string, account ledger.Kind, pair string) (TransferCoinList, error) {
	h, err := s.holdingsOf(ctx, uid)
	if err != nil {
		return TransferCoinList{}, err
	}
	var syms []string
	switch account {
	case ledger.OTC:
		syms = s.markets.OTCCoins
	case ledger.Futures:
		syms = s.markets.FuturesCoins
	case ledger.MarginCross:
		syms = s.markets.CrossCoins
	case ledger.MarginIsolated:
		p, ok := s.markets.pair(pair)
		if !ok {
			return TransferCoinList{}, apperr.New(apperr.CodeWalletPairUnknown)
		}
		pair = p.Symbol
		syms = []string{p.Base, p.Quote}
	default:
		return TransferCoinList{}, apperr.New(apperr.CodeWalletTransferAccount)
	}
	out := TransferCoinList{Account: string(account), List: []TransferCoin{}}
	for _, sym := range syms {
		c, ok := s.cat.Coin(sym)
		if !ok {
			continue
		}
		p := c.Precision
		if account == ledger.Futures {
			p = min(p, int32(coins.PrecisionFuturesTransfer))
		}
		tb := h.get(account, c.Symbol)
		if account == ledger.MarginIsolated {
			tb = h.isolated(pair, c.Symbol)
		}
		out.List = append(out.List, TransferCoin{Coin: c.Symbol, ShowName: c.Name, Icon: c.Icon,
			Normal: fx(h.get(ledger.Spot, c.Symbol).Available, p), Target: fx(tb.Available, p), Precision: p})
	}
	return out, nil
}
