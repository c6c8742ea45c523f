package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"tenger/internal/apperr"
	"tenger/internal/marketdata"
)

// Market data calls (public). Each path answers POST with a JSON body, as
// every call of the platform, and also GET with the same fields in the
// query string (?symbol=btcusdt&step=1), the shape market data clients
// usually use.
//
//	/fe-ex-api/market/depth   {symbol, step?: 0..2 (or type: "step1"), limit?: 1..200}
//	/fe-ex-api/market/trades  {symbol, limit?: 1..200}            newest first
//	/fe-ex-api/market/ticker  {symbol}                            24 h ticker + sparkline
//	/fe-ex-api/market/tickers {}                                  every pair's ticker + sparklines
//	/fe-ex-api/market/kline   {symbol, period, from?, to?, limit?: 1..1500}
//
// Realtime clients call REST first for the snapshot, then subscribe to the
// market_{symbol}_... channels: the hub sends nothing on subscribe.
const (
	PathMarketDepth   = "/fe-ex-api/market/depth"
	PathMarketTrades  = "/fe-ex-api/market/trades"
	PathMarketTicker  = "/fe-ex-api/market/ticker"
	PathMarketTickers = "/fe-ex-api/market/tickers"
	PathMarketKline   = "/fe-ex-api/market/kline"
)

// MarketSymbolReq names a pair.
type MarketSymbolReq struct {
	Symbol FlexString `json:"symbol" v:"required" doc:"btcusdt (BTC/USDT and BTC_USDT are accepted)"`
}

// Validate implements Validator.
func (r *MarketSymbolReq) Validate() error {
	if len(r.Symbol.String()) > 30 {
		return apperr.Param("symbol: too long")
	}
	return nil
}

// MarketDepthReq asks for the order book.
type MarketDepthReq struct {
	MarketSymbolReq
	Step  FlexInt    `json:"step" doc:"0 raw levels; 1 and 2 merged onto the pair's two coarser grids (markets.json depthSteps, else 10x and 100x the price tick)"`
	Type  FlexString `json:"type" doc:"alternative to step: step0, step1 or step2"`
	Limit FlexInt    `json:"limit" doc:"levels per side, default 100, at most 200"`
}

func (r *MarketDepthReq) step() (int, error) {
	if t := strings.ToLower(r.Type.String()); t != "" {
		switch t {
		case "step0", "step1", "step2":
			return int(t[4] - '0'), nil
		}
		return 0, apperr.New(apperr.CodeMarketStepInvalid)
	}
	if r.Step.Set && (r.Step.V < 0 || r.Step.V > marketdata.MaxDepthStep) {
		return 0, apperr.New(apperr.CodeMarketStepInvalid)
	}
	return int(r.Step.V), nil
}

// MarketLimitReq names a pair and a page size.
type MarketLimitReq struct {
	MarketSymbolReq
	Limit FlexInt `json:"limit" doc:"default 50, at most 200"`
}

// MarketKlineReq asks for candles.
type MarketKlineReq struct {
	MarketSymbolReq
	Period FlexString `json:"period" v:"required" doc:"1min 5min 15min 30min 60min 4h 1day 1week 1month"`
	From   FlexInt    `json:"from" doc:"bucket start from, Unix seconds (milliseconds accepted)"`
	To     FlexInt    `json:"to" doc:"bucket start up to, Unix seconds (milliseconds accepted)"`
	Limit  FlexInt    `json:"limit" doc:"default 300, at most 1500; without from the newest are returned"`
}

// MarketTickerResp is one pair's ticker with its sparkline.
type MarketTickerResp struct {
	marketdata.Ticker
	Sparkline []string `json:"sparkline" doc:"24 prices, oldest first: the closes of the last 24 hours, one per hour; for a pair first traded within them, its price at 24 even steps from its first trade's minute to now; empty before the first trade"`
}

// MarketTickersResp is every pair's ticker.
type MarketTickersResp struct {
	Tickers    map[string]marketdata.Ticker `json:"tickers"`
	Sparklines map[string][]string          `json:"sparklines" doc:"per symbol: 24 prices, oldest first, as the ticker call's sparkline"`
}

func limitOf(n FlexInt) (int, error) {
	if n.Set && n.V <= 0 {
		return 0, apperr.New(apperr.CodeMarketRangeInvalid)
	}
	if n.V > 1<<20 {
		n.V = 1 << 20
	}
	return int(n.V), nil
}

// unixSeconds accepts seconds or milliseconds.
func unixSeconds(n FlexInt) int64 {
	if n.V > 100_000_000_000 {
		return n.V / 1000
	}
	return n.V
}

func addMarketDataRoutes(r *Router, md *marketdata.Service) {
	addMarketDataRoutesAt(r, md, PathMarketDepth, PathMarketTrades, PathMarketTicker, PathMarketTickers, PathMarketKline)
}

// addMarketDataRoutesAt serves a market data service's calls at the given
// paths (the spot pairs' under /fe-ex-api/market, the contracts' under
// /fe-co-api/market).
func addMarketDataRoutesAt(r *Router, md *marketdata.Service, depth, trades, ticker, tickers, kline string) {
	marketHandle(r, depth, RouteOpts{Summary: "Order book at a depth step"},
		func(c *Call, req *MarketDepthReq) (marketdata.DepthView, error) {
			step, err := req.step()
			if err != nil {
				return marketdata.DepthView{}, err
			}
			limit, err := limitOf(req.Limit)
			if err != nil {
				return marketdata.DepthView{}, err
			}
			sym, err := md.Symbol(req.Symbol.String())
			if err != nil {
				return marketdata.DepthView{}, err
			}
			return md.Depth(sym, step, limit)
		})
	marketHandle(r, trades, RouteOpts{Summary: "Recent trades, newest first"},
		func(c *Call, req *MarketLimitReq) ([]marketdata.TradeView, error) {
			limit, err := limitOf(req.Limit)
			if err != nil {
				return nil, err
			}
			sym, err := md.Symbol(req.Symbol.String())
			if err != nil {
				return nil, err
			}
			return md.Trades(sym, limit)
		})
	marketHandle(r, ticker, RouteOpts{Summary: "24 h ticker of a pair"},
		func(c *Call, req *MarketSymbolReq) (MarketTickerResp, error) {
			sym, err := md.Symbol(req.Symbol.String())
			if err != nil {
				return MarketTickerResp{}, err
			}
			t, err := md.Ticker(sym)
			if err != nil {
				return MarketTickerResp{}, err
			}
			return MarketTickerResp{Ticker: t, Sparkline: md.Sparkline(sym)}, nil
		})
	marketHandle(r, tickers, RouteOpts{Summary: "24 h tickers of every pair, with sparklines"},
		func(c *Call, _ *Empty) (MarketTickersResp, error) {
			out := MarketTickersResp{Tickers: md.Tickers(), Sparklines: map[string][]string{}}
			for sym := range out.Tickers {
				out.Sparklines[sym] = md.Sparkline(sym)
			}
			return out, nil
		})
	marketHandle(r, kline, RouteOpts{Summary: "Candles of a pair"},
		func(c *Call, req *MarketKlineReq) ([]marketdata.KlineView, error) {
			p, ok := marketdata.ParsePeriod(req.Period.String())
			if !ok {
				return nil, apperr.New(apperr.CodeMarketPeriodUnknown, req.Period.String())
			}
			limit, err := limitOf(req.Limit)
			if err != nil {
				return nil, err
			}
			if req.From.V < 0 || req.To.V < 0 {
				return nil, apperr.New(apperr.CodeMarketRangeInvalid)
			}
			sym, err := md.Symbol(req.Symbol.String())
			if err != nil {
				return nil, err
			}
			return md.Klines(c.Ctx, sym, p, unixSeconds(req.From), unixSeconds(req.To), limit)
		})
}

// marketHandle is Handle for public market data: POST with a JSON body, or
// GET with the fields in the query string.
func marketHandle[Req any, Resp any](r *Router, path string, opts RouteOpts, fn func(c *Call, req *Req) (Resp, error)) {
	if opts.Tag == "" {
		opts.Tag = r.opts.Service
	}
	r.routes = append(r.routes, RouteDoc{
		Method: http.MethodPost, Path: path, Summary: opts.Summary + " (GET with query parameters also accepted)",
		Tag: opts.Tag, Auth: opts.Auth, Req: reflect.TypeFor[Req](), Resp: reflect.TypeFor[Resp](),
	})
	r.mux.HandleFunc(path, func(w http.ResponseWriter, hr *http.Request) {
		c := r.newCall(w, hr, opts)
		if hr.Method != http.MethodPost && hr.Method != http.MethodGet {
			r.finish(c, nil, apperr.New(apperr.CodeMethod))
			return
		}
		if err := r.authenticate(c, opts.Auth); err != nil {
			r.finish(c, nil, err)
			return
		}
		req := new(Req)
		if hr.Method == http.MethodGet {
			if err := decodeQuery(hr, req); err != nil {
				r.finish(c, nil, err)
				return
			}
		} else if err := decodeBody(w, hr, DefaultMaxBody, req); err != nil {
			r.finish(c, nil, err)
			return
		}
		if err := validate(req); err != nil {
			r.finish(c, nil, err)
			return
		}
		var (
			resp Resp
			err  error
		)
		func() {
			defer func() {
				if p := recover(); p != nil {
					c.Log.Error().Str("panic", fmt.Sprint(p)).Str("stack", string(debug.Stack())).Msg("handler panic")
					err = apperr.New(apperr.CodeInternal)
				}
			}()
			resp, err = fn(c, req)
		}()
		r.finish(c, resp, err)
	})
}

// decodeQuery decodes query parameters as a JSON object of strings (the
// request fields are FlexString / FlexInt, which accept strings), under the
// body's rules: exact names, each given once, valid UTF-8 text.
func decodeQuery(hr *http.Request, dst any) error {
	if len(hr.URL.RawQuery) > DefaultMaxBody {
		return apperr.New(apperr.CodeBodyTooLarge, DefaultMaxBody)
	}
	m := map[string]string{}
	for k, v := range hr.URL.Query() {
		// json.Marshal would turn bad bytes into U+FFFD unseen.
		if !utf8.ValidString(k) {
			return apperr.Param("a parameter name is not valid UTF-8 text")
		}
		if len(v) > 1 {
			return apperr.Param(k + ": duplicate key")
		}
		if len(v) == 1 && !utf8.ValidString(v[0]) {
			return apperr.Param(k + ": must be valid UTF-8 text")
		}
		if len(v) > 0 {
			m[k] = v[0]
		}
	}
	b, _ := json.Marshal(m)
	if err := checkStrict(b, reflect.TypeOf(dst)); err != nil {
		return err
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return decodeError(err)
	}
	return nil
}
