package binance

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"

	"github.com/shopspring/decimal"

	"tenger/internal/markets"
	"tenger/internal/matching"
)

// General endpoints: ping, time, exchangeInfo; the system status; and the
// futures APIs' ping, time and exchangeInfo, which answer valid documents
// without symbols (Tenger has no futures) so that clients loading every
// market type (CCXT's binance loads spot, USDⓈ-M and COIN-M) succeed.
func (s *Server) addGeneralRoutes() {
	empty := func(*Call) (any, error) { return struct{}{}, nil }
	serverTime := func(c *Call) (any, error) {
		return struct {
			ServerTime int64 `json:"serverTime"`
		}{c.Now.UnixMilli()}, nil
	}
	s.route(http.MethodGet, "/api/v3/ping", 1, SecNone, empty)
	s.route(http.MethodGet, "/api/v3/time", 1, SecNone, serverTime)
	s.route(http.MethodGet, "/api/v3/exchangeInfo", 20, SecNone, s.exchangeInfo).
		params("symbol", "symbols", "permissions", "showPermissionSets", "symbolStatus")
	s.route(http.MethodGet, "/sapi/v1/system/status", 1, SecNone, func(*Call) (any, error) {
		return struct {
			Status int    `json:"status"`
			Msg    string `json:"msg"`
		}{0, "normal"}, nil
	})
	for _, api := range []string{"/fapi/v1", "/dapi/v1"} {
		s.route(http.MethodGet, api+"/ping", 1, SecNone, empty)
		s.route(http.MethodGet, api+"/time", 1, SecNone, serverTime)
	}
	s.route(http.MethodGet, "/fapi/v1/exchangeInfo", 1, SecNone, func(c *Call) (any, error) {
		return futuresInfo{Timezone: "UTC", ServerTime: c.Now.UnixMilli(), FuturesType: "U_MARGINED",
			RateLimits: s.rateLimits(), ExchangeFilters: []any{}, Assets: []any{}, Symbols: []any{}}, nil
	})
	s.route(http.MethodGet, "/dapi/v1/exchangeInfo", 1, SecNone, func(c *Call) (any, error) {
		return deliveryInfo{Timezone: "UTC", ServerTime: c.Now.UnixMilli(), RateLimits: s.rateLimits(),
			ExchangeFilters: []any{}, Symbols: []any{}}, nil
	})
}

type futuresInfo struct {
	Timezone        string      `json:"timezone"`
	ServerTime      int64       `json:"serverTime"`
	FuturesType     string      `json:"futuresType"`
	RateLimits      []RateLimit `json:"rateLimits"`
	ExchangeFilters []any       `json:"exchangeFilters"`
	Assets          []any       `json:"assets"`
	Symbols         []any       `json:"symbols"`
}

type deliveryInfo struct {
	Timezone        string      `json:"timezone"`
	ServerTime      int64       `json:"serverTime"`
	RateLimits      []RateLimit `json:"rateLimits"`
	ExchangeFilters []any       `json:"exchangeFilters"`
	Symbols         []any       `json:"symbols"`
}

// rateLimits are REQUEST_WEIGHT, the ORDERS limits when orders are served
// (order_count.go), then Options.RateLimits' other entries.
func (s *Server) rateLimits() []RateLimit {
	out := []RateLimit{{RateLimitType: "REQUEST_WEIGHT", Interval: "MINUTE", IntervalNum: 1, Limit: s.opts.WeightLimit}}
	if s.servesOrders() {
		out = append(out, s.orderLimits()...)
	}
	for _, r := range s.opts.RateLimits {
		if r.RateLimitType != rateLimitOrders {
			out = append(out, r)
		}
	}
	return out
}

// ExchangeInfo is the exchangeInfo document.
type ExchangeInfo struct {
	Timezone        string       `json:"timezone"`
	ServerTime      int64        `json:"serverTime"`
	RateLimits      []RateLimit  `json:"rateLimits"`
	ExchangeFilters []any        `json:"exchangeFilters"`
	Symbols         []SymbolInfo `json:"symbols"`
}

// SymbolInfo is a symbol of exchangeInfo, fields in Binance's order.
type SymbolInfo struct {
	Symbol                          string     `json:"symbol"`
	Status                          string     `json:"status"`
	BaseAsset                       string     `json:"baseAsset"`
	BaseAssetPrecision              int32      `json:"baseAssetPrecision"`
	QuoteAsset                      string     `json:"quoteAsset"`
	QuotePrecision                  int32      `json:"quotePrecision"`
	QuoteAssetPrecision             int32      `json:"quoteAssetPrecision"`
	BaseCommissionPrecision         int32      `json:"baseCommissionPrecision"`
	QuoteCommissionPrecision        int32      `json:"quoteCommissionPrecision"`
	OrderTypes                      []string   `json:"orderTypes"`
	IcebergAllowed                  bool       `json:"icebergAllowed"`
	OcoAllowed                      bool       `json:"ocoAllowed"`
	OtoAllowed                      bool       `json:"otoAllowed"`
	OpoAllowed                      bool       `json:"opoAllowed"`
	QuoteOrderQtyMarketAllowed      bool       `json:"quoteOrderQtyMarketAllowed"`
	AllowTrailingStop               bool       `json:"allowTrailingStop"`
	CancelReplaceAllowed            bool       `json:"cancelReplaceAllowed"`
	AmendAllowed                    bool       `json:"amendAllowed"`
	PegInstructionsAllowed          bool       `json:"pegInstructionsAllowed"`
	IsSpotTradingAllowed            bool       `json:"isSpotTradingAllowed"`
	IsMarginTradingAllowed          bool       `json:"isMarginTradingAllowed"`
	Filters                         []any      `json:"filters"`
	Permissions                     []string   `json:"permissions"`
	PermissionSets                  [][]string `json:"permissionSets"`
	DefaultSelfTradePreventionMode  string     `json:"defaultSelfTradePreventionMode"`
	AllowedSelfTradePreventionModes []string   `json:"allowedSelfTradePreventionModes"`
}

// Filters of exchangeInfo, fields in Binance's order.
type priceFilter struct {
	FilterType string `json:"filterType"`
	MinPrice   string `json:"minPrice"`
	MaxPrice   string `json:"maxPrice"`
	TickSize   string `json:"tickSize"`
}

type lotFilter struct {
	FilterType string `json:"filterType"`
	MinQty     string `json:"minQty"`
	MaxQty     string `json:"maxQty"`
	StepSize   string `json:"stepSize"`
}

type notionalFilter struct {
	FilterType       string `json:"filterType"`
	MinNotional      string `json:"minNotional"`
	ApplyMinToMarket bool   `json:"applyMinToMarket"`
	MaxNotional      string `json:"maxNotional"`
	ApplyMaxToMarket bool   `json:"applyMaxToMarket"`
	AvgPriceMins     int    `json:"avgPriceMins"`
}

// STP modes: Tenger's (markets.STPModes) in Binance's names. Tenger has
// no NONE: a self-trade is always prevented.
var stpModes = map[string]string{"cancel_taker": "EXPIRE_TAKER", "cancel_maker": "EXPIRE_MAKER", "cancel_both": "EXPIRE_BOTH"}

// STPModes lists the Binance STP modes a symbol allows.
var STPModes = []string{"EXPIRE_TAKER", "EXPIRE_MAKER", "EXPIRE_BOTH"}

// STPMode is the Binance name of a pair's default self-trade prevention.
func STPMode(p markets.Pair) string {
	if m, ok := stpModes[p.SelfTradePrevention]; ok {
		return m
	}
	return "EXPIRE_TAKER"
}

// defaultAssetPrecision is used for a coin missing from the coin catalogue.
const defaultAssetPrecision = 8

func (s *Server) assetPrecision(coin string) int32 {
	if s.coins != nil {
		if c, ok := s.coins.Coin(coin); ok {
			return c.Precision
		}
	}
	return defaultAssetPrecision
}

// symbolInfo describes a pair. The filters are the engine's grid: prices
// are whole ticks from one tick up to matching.DefaultMaxPrice ticks,
// quantities whole lots from the minimum (rounded up to a lot) up to
// matching.DefaultMaxQty lots, and a notional (price × quantity, or a
// market buy's budget) at least the pair's minimum and at most what the
// engine's int64 arithmetic allows. The minimum applies to market orders
// too (the engine values one by quantity at the best opposite price).
func (s *Server) symbolInfo(p markets.Pair, permissionSets bool) SymbolInfo {
	unit := p.PriceTick.Mul(p.LotSize)
	minLots := decimal.Max(p.MinQty.Div(p.LotSize).Ceil(), decimal.NewFromInt(1))
	maxLots := decimal.NewFromInt(matching.DefaultMaxQty)
	maxTicks := decimal.NewFromInt(matching.DefaultMaxPrice)
	minNotional := p.MinNotional.Div(unit).Ceil().Mul(unit)
	lot := lotFilter{MinQty: fmtQty(p, p.LotSize.Mul(minLots)), MaxQty: fmtQty(p, p.LotSize.Mul(maxLots)),
		StepSize: fmtQty(p, p.LotSize)}
	marketLot := lot
	lot.FilterType, marketLot.FilterType = "LOT_SIZE", "MARKET_LOT_SIZE"
	// Quote amounts (a market buy's quoteOrderQty) are on the grid of one
	// tick times one lot: quotePrecision never asks for finer amounts.
	quotePrec := min(s.assetPrecision(p.Quote), max(-unit.Exponent(), 0))
	sets := [][]string{}
	if permissionSets {
		sets = [][]string{{"SPOT"}}
	}
	return SymbolInfo{
		Symbol: SymbolOf(p), Status: statusOf(p),
		BaseAsset: p.Base, BaseAssetPrecision: s.assetPrecision(p.Base),
		QuoteAsset: p.Quote, QuotePrecision: quotePrec, QuoteAssetPrecision: quotePrec,
		BaseCommissionPrecision: s.assetPrecision(p.Base), QuoteCommissionPrecision: s.assetPrecision(p.Quote),
		OrderTypes:                 OrderTypes,
		QuoteOrderQtyMarketAllowed: true,
		IsSpotTradingAllowed:       !p.Closed,
		Filters: []any{
			priceFilter{FilterType: "PRICE_FILTER", MinPrice: fmtPrice(p, p.PriceTick),
				MaxPrice: fmtPrice(p, p.PriceTick.Mul(maxTicks)), TickSize: fmtPrice(p, p.PriceTick)},
			lot,
			marketLot,
			notionalFilter{FilterType: "NOTIONAL", MinNotional: fmtQuote(p, minNotional), ApplyMinToMarket: true,
				MaxNotional: fmtQuote(p, unit.Mul(maxTicks).Mul(maxLots)), ApplyMaxToMarket: false},
		},
		Permissions:                     []string{"SPOT"},
		PermissionSets:                  sets,
		DefaultSelfTradePreventionMode:  STPMode(p),
		AllowedSelfTradePreventionModes: STPModes,
	}
}

var permissionRE = regexp.MustCompile(`^[A-Z0-9_]{1,30}$`)

const legalPermissions = `^[A-Z0-9_]{1,30}$ or a JSON array of them`

// permissionsParam reads permissions: one name (SPOT) or a JSON array.
func permissionsParam(p *Params) ([]string, bool, error) {
	v, sent, err := p.String("permissions", false)
	if err != nil || !sent {
		return nil, false, err
	}
	var list []string
	if v[0] == '[' {
		if json.Unmarshal([]byte(v), &list) != nil {
			return nil, false, ErrIllegalChars("permissions", legalPermissions)
		}
	} else {
		list = []string{v}
	}
	for _, x := range list {
		if !permissionRE.MatchString(x) {
			return nil, false, ErrIllegalChars("permissions", legalPermissions)
		}
	}
	return list, true, nil
}

func (s *Server) exchangeInfo(c *Call) (any, error) {
	p := c.Params
	named := p.Has("symbol") || p.Has("symbols")
	if named && (p.Has("permissions") || p.Has("symbolStatus")) {
		return nil, ErrBadCombo()
	}
	perms, hasPerms, err := permissionsParam(p)
	if err != nil {
		return nil, err
	}
	showSets, err := p.Bool("showPermissionSets", true)
	if err != nil {
		return nil, err
	}
	sel, err := s.selectPairs(p, false)
	if err != nil {
		return nil, err
	}
	// Every Tenger symbol has the SPOT permission only; without a
	// permissions filter Binance lists SPOT, MARGIN and LEVERAGED ones.
	if hasPerms && !slices.Contains(perms, "SPOT") {
		sel.pairs = nil
	}
	info := ExchangeInfo{Timezone: "UTC", ServerTime: c.Now.UnixMilli(), RateLimits: s.rateLimits(),
		ExchangeFilters: []any{}, Symbols: make([]SymbolInfo, 0, len(sel.pairs))}
	for _, pr := range sel.pairs {
		info.Symbols = append(info.Symbols, s.symbolInfo(pr, showSets))
	}
	return info, nil
}
