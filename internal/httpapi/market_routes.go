package httpapi

import (
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/favourites"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
)

// CoinInfo is a coin of the public coin list (spec §3 coin config).
type CoinInfo struct {
	Name          string `json:"name"`
	ShowName      string `json:"showName"`
	LongName      string `json:"longName"`
	ShowPrecision int32  `json:"showPrecision"`
	Icon          string `json:"icon"`
	IsFiat        bool   `json:"isFiat"`
}

// MarketPairInfo is a pair of the public market list (spec §3 market data).
type MarketPairInfo struct {
	Name            string `json:"name" doc:"BASE/QUOTE"`
	ShowName        string `json:"showName"`
	Symbol          string `json:"symbol" doc:"lower-case id, e.g. btcusdt"`
	Base            string `json:"base"`
	Quote           string `json:"quote"`
	Sort            int    `json:"sort"`
	EtfOpen         bool   `json:"etfOpen"`
	IsOpenCross     bool   `json:"isOpenCross"`
	PricePrecision  int32  `json:"pricePrecision"`
	VolumePrecision int32  `json:"volumePrecision"`
	PriceTick       string `json:"priceTick"`
	// DepthSteps are the price grids of the order book's merge steps 0..2
	// (depth step and market_{symbol}_depth_step{n}).
	DepthSteps  []string `json:"depthSteps"`
	LotSize     string   `json:"lotSize"`
	MinQty      string   `json:"minQty"`
	MinNotional string   `json:"minNotional"`
	// Close, Rose and Vol come from the 24 h ticker (absent without market data).
	Close string `json:"close,omitempty" doc:"last price"`
	Rose  string `json:"rose,omitempty" doc:"24 h change ratio, 0.0123 = +1.23%"`
	Vol   string `json:"vol,omitempty" doc:"24 h base volume"`
}

// PublicInfoMarket is the market data document.
type PublicInfoMarket struct {
	CoinList map[string]CoinInfo `json:"coinList"`
	// Market groups pairs by quote coin: market[quote]["BASE/QUOTE"].
	Market map[string]map[string]MarketPairInfo `json:"market"`
	// MarketOrder lists the quote coins in display order (maps have none).
	MarketOrder []string `json:"marketOrder"`
	// FollowCoinList is the caller's favourite pairs (empty when anonymous).
	FollowCoinList []string `json:"followCoinList"`
	// Tickers holds the 24 h ticker of every pair by symbol (absent without market data).
	Tickers map[string]marketdata.Ticker `json:"tickers,omitempty"`
}

// RecommendedPair is one entry of market_recommend_symbol.
type RecommendedPair struct {
	Symbol   string `json:"symbol"`
	Name     string `json:"name"`
	ShowName string `json:"showName"`
}

func pairInfo(p markets.Pair) MarketPairInfo {
	return MarketPairInfo{
		Name: p.Name(), ShowName: p.Name(), Symbol: p.Symbol, Base: p.Base, Quote: p.Quote, Sort: p.Sort,
		EtfOpen: p.ETFOpen, IsOpenCross: p.IsOpenCross, PricePrecision: p.PricePrecision, VolumePrecision: p.VolumePrecision,
		PriceTick: p.PriceTick.String(), DepthSteps: depthSteps(p), LotSize: p.LotSize.String(), MinQty: p.MinQty.String(), MinNotional: p.MinNotional.String(),
	}
}

// NewMarketRouter serves the public market lists from the coin and pair
// catalogues, without prices.
func NewMarketRouter(cc *coins.Catalogue, mc *markets.Catalogue, opts Options) *Router {
	return NewMarketRouterWith(cc, mc, nil, nil, opts)
}

// NewMarketRouterWith serves the public market lists and, when md is not
// nil, joins the 24 h tickers to them and serves the market data calls
// (depth, trades, tickers, klines; see marketdata_routes.go). With favs it
// keeps signed-in users' favourite pairs (/optional/...) and lists them in
// followCoinList.
func NewMarketRouterWith(cc *coins.Catalogue, mc *markets.Catalogue, md *marketdata.Service, favs *favourites.Service, opts Options) *Router {
	r := NewRouter(opts)
	info := marketInfo(cc, mc, md, favs)
	Handle(r, "/fe-ex-api/common/public_info_market", RouteOpts{Summary: "Coins and pairs grouped by quote coin"}, info)
	Handle(r, "/fe-ex-api/public_info_v5", RouteOpts{Summary: "Coins and pairs grouped by quote coin (v5 path)"}, info)
	Handle(r, "/fe-ex-api/common/market_recommend_symbol", RouteOpts{Summary: "Recommended pairs"},
		func(c *Call, _ *Empty) ([]RecommendedPair, error) {
			out := []RecommendedPair{}
			for _, p := range mc.List() {
				if p.Recommend {
					out = append(out, RecommendedPair{Symbol: p.Symbol, Name: p.Name(), ShowName: p.Name()})
				}
			}
			return out, nil
		})
	if md != nil {
		addMarketDataRoutes(r, md)
	}
	if favs != nil {
		addFavouriteRoutes(r, favs)
	}
	return r
}

// marketInfo is the handler of the market document (public_info_market):
// coins, pairs by quote coin, with md the 24 h tickers, with favs the
// signed-in caller's favourite pairs.
func marketInfo(cc *coins.Catalogue, mc *markets.Catalogue, md *marketdata.Service, favs *favourites.Service) func(c *Call, _ *Empty) (PublicInfoMarket, error) {
	return func(c *Call, _ *Empty) (PublicInfoMarket, error) {
		doc := PublicInfoMarket{CoinList: map[string]CoinInfo{}, Market: map[string]map[string]MarketPairInfo{},
			MarketOrder: mc.Quotes(), FollowCoinList: []string{}}
		for _, coin := range cc.List() {
			doc.CoinList[coin.Symbol] = CoinInfo{Name: coin.Symbol, ShowName: coin.Name, LongName: coin.LongName,
				ShowPrecision: int32(coin.Precision), Icon: coin.Icon, IsFiat: coin.IsFiat}
		}
		for _, p := range mc.List() {
			if doc.Market[p.Quote] == nil {
				doc.Market[p.Quote] = map[string]MarketPairInfo{}
			}
			doc.Market[p.Quote][p.Name()] = pairInfo(p)
		}
		if favs != nil && c.Signed() {
			list, err := favs.List(c.Ctx, c.Principal.UserID)
			if err != nil {
				return doc, err
			}
			doc.FollowCoinList = list
		}
		if md != nil {
			doc.Tickers = md.Tickers()
			for q, group := range doc.Market {
				for name, pi := range group {
					if t, ok := doc.Tickers[pi.Symbol]; ok {
						pi.Close, pi.Rose, pi.Vol = t.Close, t.Rose, t.Vol
						doc.Market[q][name] = pi
					}
				}
			}
		}
		return doc, nil
	}
}

// FavouritesReq is /optional/update_symbol.
type FavouritesReq struct {
	Symbols       string  `json:"symbols" v:"required" doc:"a pair (btcusdt or BTC/USDT), or several separated by commas with operationType 0"`
	OperationType FlexInt `json:"operationType" v:"required" doc:"0 add several (a visitor's local list at sign-in), 1 add one, 2 remove one"`
}

// Validate bounds the list before it is parsed.
func (r *FavouritesReq) Validate() error {
	if len(r.Symbols) > 4096 {
		return apperr.Param("symbols: too long")
	}
	return nil
}

// FavouritesResp is the caller's list after the call.
type FavouritesResp struct {
	Symbols []string `json:"symbols" doc:"favourite pair symbols in the order they were added"`
}

func addFavouriteRoutes(r *Router, favs *favourites.Service) {
	priv := RouteOpts{Auth: Private}
	priv.Summary = "Add or remove favourite pairs; data.symbols is the new list (followCoinList of public_info_market)"
	Handle(r, "/fe-ex-api/optional/update_symbol", priv, func(c *Call, req *FavouritesReq) (*FavouritesResp, error) {
		var syms []string
		for _, s := range strings.Split(req.Symbols, ",") {
			if s = strings.TrimSpace(s); s != "" {
				syms = append(syms, s)
			}
		}
		list, err := favs.Update(c.Ctx, c.Principal.UserID, favourites.Op(req.OperationType.V), syms)
		if err != nil {
			return nil, err
		}
		return &FavouritesResp{Symbols: list}, nil
	})
	priv.Summary = "The caller's favourite pairs; data.symbols"
	Handle(r, "/fe-ex-api/optional/list_symbol", priv, func(c *Call, _ *Empty) (*FavouritesResp, error) {
		list, err := favs.List(c.Ctx, c.Principal.UserID)
		if err != nil {
			return nil, err
		}
		return &FavouritesResp{Symbols: list}, nil
	})
}

// depthSteps lists a pair's order book merge grids, steps 0..2.
func depthSteps(p markets.Pair) []string {
	out := make([]string, markets.DepthStepCount)
	for i := range out {
		out[i] = p.DepthStep(i).String()
	}
	return out
}
