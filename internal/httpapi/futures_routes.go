package httpapi

import (
	"context"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/futures"
	"tenger/internal/marketdata"
)

// Perpetual futures: the futures service (spec §7, base /fe-co-api). The
// futures function serves it in AWS; `tenger serve` beside the rest.

// FuturesSymbolReq names a contract.
type FuturesSymbolReq struct {
	Symbol     string  `json:"symbol" doc:"BTCUSDT (or contractId)"`
	ContractID FlexInt `json:"contractId" doc:"the contract's number, instead of symbol"`
}

// symbol is the contract the request names.
func (r *FuturesSymbolReq) symbol() string {
	if s := strings.TrimSpace(r.Symbol); s != "" {
		return s
	}
	if r.ContractID.Set {
		return strconv.FormatInt(r.ContractID.V, 10)
	}
	return ""
}

// FuturesDepthReq asks for a contract's book.
type FuturesDepthReq struct {
	FuturesSymbolReq
	Limit FlexInt `json:"limit" doc:"levels per side, default 50, at most 200"`
}

// FuturesLeverageReq is level_edit.
type FuturesLeverageReq struct {
	FuturesSymbolReq
	Leverage FlexInt `json:"leverage" v:"required" doc:"1 to the contract's maximum for the position's size"`
}

// FuturesMarginModeReq is margin_model_edit.
type FuturesMarginModeReq struct {
	FuturesSymbolReq
	MarginMode FlexInt `json:"marginMode" v:"required" doc:"1 cross, 2 isolated"`
}

// FuturesPositionModeReq is position_model_edit.
type FuturesPositionModeReq struct {
	FuturesSymbolReq
	PositionMode FlexInt `json:"positionMode" v:"required" doc:"1 one-way, 2 hedge (a long and a short position per contract)"`
}

// FuturesPageConfigReq is edit_user_page_config.
type FuturesPageConfigReq struct {
	PageConfig map[string]string `json:"pageConfig" v:"required" doc:"preferences to keep (an empty value removes one); at most 32 keys of 64 characters"`
}

// FuturesMarginReq is change_position_margin.
type FuturesMarginReq struct {
	FuturesSymbolReq
	Amount       FlexString `json:"amount" v:"required" doc:"margin coin"`
	Type         FlexInt    `json:"type" v:"required" doc:"1 add, 2 remove"`
	PositionSide string     `json:"positionSide" doc:"hedge mode: LONG or SHORT; left out in one-way mode"`
}

// FuturesOrderReq is order_create.
type FuturesOrderReq struct {
	FuturesSymbolReq
	Side          string     `json:"side" doc:"BUY or SELL (not needed with closePosition)"`
	Type          string     `json:"type" doc:"LIMIT or MARKET"`
	TimeInForce   string     `json:"timeInForce" doc:"GTC (default), IOC, FOK or POST_ONLY; a market order is IOC"`
	Price         FlexString `json:"price" doc:"a limit order's, on the contract's tick, within 10% of the mark on the side it crosses"`
	Volume        FlexString `json:"volume" doc:"whole contracts"`
	ReduceOnly    bool       `json:"reduceOnly" doc:"only reduce the position"`
	ClosePosition bool       `json:"closePosition" doc:"a market order closing the whole position"`
	PositionSide  string     `json:"positionSide" doc:"hedge mode: LONG or SHORT, the position it opens (BUY LONG, SELL SHORT) or closes (SELL LONG, BUY SHORT); left out (or BOTH) in one-way mode"`
	ClientOid     string     `json:"clientOid" doc:"the client's id: a retry with it places nothing more (letters, digits, - _ ., at most 36)"`
}

// FuturesTriggerReq is condition_create.
type FuturesTriggerReq struct {
	FuturesSymbolReq
	Side          string     `json:"side" doc:"BUY or SELL (not needed with closePosition)"`
	Type          string     `json:"type" doc:"the order placed when it fires: MARKET (default) or LIMIT"`
	Price         FlexString `json:"price" doc:"a limit order's"`
	Volume        FlexString `json:"volume" doc:"whole contracts"`
	TriggerPrice  FlexString `json:"triggerPrice" v:"required" doc:"fires when the price rises to it (above the price now) or falls to it (below)"`
	TriggerBy     string     `json:"triggerBy" doc:"MARK (default) or LAST"`
	ReduceOnly    bool       `json:"reduceOnly"`
	ClosePosition bool       `json:"closePosition" doc:"close the whole position when it fires: the position's take-profit or stop-loss"`
	ParentOrderID string     `json:"parentOrderId" doc:"a TP/SL placed with an order: waits for that order to fill (in part), cancelled if it ends unfilled"`
	PositionSide  string     `json:"positionSide" doc:"hedge mode: LONG or SHORT, the position it opens (BUY LONG, SELL SHORT) or closes (SELL LONG, BUY SHORT); left out (or BOTH) in one-way mode"`
}

// FuturesTriggerIDReq names a trigger order.
type FuturesTriggerIDReq struct {
	TriggerID string `json:"triggerId" v:"required"`
}

// FuturesCancelReq is order_cancel.
type FuturesCancelReq struct {
	FuturesSymbolReq
	OrderID string `json:"orderId" v:"required"`
}

// FuturesOrderIDReq names an order.
type FuturesOrderIDReq struct {
	OrderID string `json:"orderId" v:"required"`
}

// FuturesListReq pages a list.
type FuturesListReq struct {
	FuturesSymbolReq
	Page     FlexInt `json:"page" doc:"1-based, default 1"`
	PageSize FlexInt `json:"pageSize" doc:"1-100, default 20"`
}

// Validate checks the paging.
func (r *FuturesListReq) Validate() error { return checkPaging(r.Page, r.PageSize, 100) }

// FuturesStatsReq is account_statistics.
type FuturesStatsReq struct {
	Coin string  `json:"coin" doc:"margin coin, default USDT"`
	Days FlexInt `json:"days" doc:"1, 7 (default) or 30"`
}

// FuturesClosed is close_all_position's answer: the orders that closed.
type FuturesClosed struct {
	Orders []futures.Order `json:"orders"`
}

// FuturesOK is an answer without data.
type FuturesOK struct {
	OK bool `json:"ok"`
}

// NewFuturesRouter serves the futures service; md is the contracts'
// market data (depth, trades, tickers, candles under /fe-co-api/market).
func NewFuturesRouter(svc *futures.Service, md *marketdata.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "futures"
	}
	r := NewRouter(opts)
	pub := func(s string) RouteOpts { return RouteOpts{Summary: s, Tag: "futures"} }
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private, Tag: "futures"} }
	const co = "/fe-co-api"

	Handle(r, co+"/common/public_info", pub("The perpetual contracts and their rules"),
		func(c *Call, _ *Empty) (futures.PublicInfo, error) { return svc.PublicInfo(), nil })
	Handle(r, co+"/common/public_market_info", pub("A contract's last, mark and index prices, funding rate and time, insurance fund, open interest and 24 h figures"),
		func(c *Call, req *FuturesSymbolReq) (futures.MarketInfo, error) {
			return svc.MarketInfo(c.Ctx, req.symbol(), md)
		})
	Handle(r, co+"/common/price_list", pub("Every open contract's prices and 24 h figures"),
		func(c *Call, _ *Empty) ([]futures.MarketInfo, error) { return svc.PriceList(c.Ctx, md) })
	Handle(r, co+"/common/get_ladder_info", pub("A contract's maintenance margin tiers"),
		func(c *Call, req *FuturesSymbolReq) ([]futures.Tier, error) { return svc.Ladder(req.symbol()) })
	Handle(r, co+"/common/depth_map", pub("A contract's order book in contracts, best first"),
		func(c *Call, req *FuturesDepthReq) (futures.Depth, error) {
			return svc.Depth(req.symbol(), int(req.Limit.V), func(sym string, limit int) ([][2]string, [][2]string, int64, error) {
				d, err := md.Depth(sym, 0, limit)
				return d.Buys, d.Asks, d.TS, err
			})
		})
	addMarketDataRoutesAt(r, md, co+"/market/depth", co+"/market/trades", co+"/market/ticker", co+"/market/tickers", co+"/market/kline")

	Handle(r, co+"/user/get_user_config", priv("The caller's leverage, margin mode, position mode and page preferences in a contract"),
		func(c *Call, req *FuturesSymbolReq) (futures.UserConfig, error) {
			return svc.UserConfig(c.Ctx, c.Principal.UserID, req.symbol())
		})
	Handle(r, co+"/user/open_contract", priv("Open the caller's futures account (its terms agreed; as the wallet's create_co_id); answers the settings of the contract named, BTCUSDT by default"),
		func(c *Call, req *FuturesSymbolReq) (futures.UserConfig, error) {
			if err := svc.Open(c.Ctx, c.Principal.UserID); err != nil {
				return futures.UserConfig{}, err
			}
			sym := req.symbol()
			if sym == "" {
				sym = "BTCUSDT"
			}
			return svc.UserConfig(c.Ctx, c.Principal.UserID, sym)
		})
	Handle(r, co+"/user/level_edit", priv("Set the caller's leverage in a contract (no open orders; at most the tier of the position's size)"),
		func(c *Call, req *FuturesLeverageReq) (futures.UserConfig, error) {
			return svc.SetLeverage(c.Ctx, c.Principal.UserID, req.symbol(), req.Leverage.V)
		})
	Handle(r, co+"/user/margin_model_edit", priv("Set the caller's margin mode in a contract (no position and no open orders)"),
		func(c *Call, req *FuturesMarginModeReq) (futures.UserConfig, error) {
			return svc.SetMarginMode(c.Ctx, c.Principal.UserID, req.symbol(), int(req.MarginMode.V))
		})
	Handle(r, co+"/user/position_model_edit", priv("Set the caller's position mode in every contract: one-way or hedge (no position, open order or trigger order anywhere)"),
		func(c *Call, req *FuturesPositionModeReq) (futures.UserConfig, error) {
			return svc.SetPositionMode(c.Ctx, c.Principal.UserID, req.symbol(), int(req.PositionMode.V))
		})
	Handle(r, co+"/user/edit_user_page_config", priv("Keep the futures page's preferences"),
		func(c *Call, req *FuturesPageConfigReq) (FuturesOK, error) {
			return FuturesOK{OK: true}, svc.SavePageConfig(c.Ctx, c.Principal.UserID, req.PageConfig)
		})
	Handle(r, co+"/position/get_assets_list", priv("The caller's futures account per margin coin and open positions"),
		func(c *Call, _ *Empty) (futures.Assets, error) { return svc.Assets(c.Ctx, c.Principal.UserID) })
	Handle(r, co+"/position/history_position_list", priv("The caller's closed positions, newest first (the latest 1,000): entry and exit, realized PnL, fees, liquidated or not"),
		func(c *Call, req *FuturesListReq) (futures.ClosedList, error) {
			return svc.ClosedPositions(c.Ctx, c.Principal.UserID, req.symbol(), int(req.Page.V), int(req.PageSize.V))
		})
	Handle(r, co+"/account_statistics", priv("The caller's futures results over 1, 7 or 30 days: realized PnL, fees, funding, net, fills, volume"),
		func(c *Call, req *FuturesStatsReq) (futures.Statistics, error) {
			return svc.Statistics(c.Ctx, c.Principal.UserID, req.Coin, int(req.Days.V))
		})
	Handle(r, co+"/position/change_position_margin", priv("Add margin to or remove it from the caller's isolated position"),
		func(c *Call, req *FuturesMarginReq) (futures.PositionView, error) {
			amount, err := decimal.NewFromString(req.Amount.String())
			if err != nil {
				return futures.PositionView{}, apperr.New(apperr.CodeFuturesAmount, "8")
			}
			if req.Type.V != 1 && req.Type.V != 2 {
				return futures.PositionView{}, apperr.Param("type: 1 add, 2 remove")
			}
			return svc.ChangeMargin(c.Ctx, c.Principal.UserID, req.symbol(), req.PositionSide, amount, req.Type.V == 1)
		})
	Handle(r, co+"/order/order_create", priv("Place a futures order: limit or market, GTC, IOC, FOK or post-only, reduce-only or closing the position"),
		func(c *Call, req *FuturesOrderReq) (futures.Order, error) {
			return svc.PlaceOrder(c.Ctx, c.Principal.UserID, futures.PlaceRequest{Symbol: req.symbol(), Side: req.Side, Type: req.Type,
				TimeInForce: req.TimeInForce, Price: req.Price.String(), Volume: req.Volume.String(), ReduceOnly: req.ReduceOnly,
				ClosePosition: req.ClosePosition, PositionSide: req.PositionSide, ClientOid: req.ClientOid})
		})
	Handle(r, co+"/order/order_cancel", priv("Cancel one of the caller's open futures orders"),
		func(c *Call, req *FuturesCancelReq) (futures.Order, error) {
			return svc.CancelOrder(c.Ctx, c.Principal.UserID, req.symbol(), req.OrderID)
		})
	Handle(r, co+"/order/close_all_position", priv("Cancel the caller's orders and close every position at market (one contract, or all)"),
		func(c *Call, req *FuturesSymbolReq) (FuturesClosed, error) {
			list, err := svc.CloseAll(c.Ctx, c.Principal.UserID, req.symbol())
			return FuturesClosed{Orders: list}, err
		})
	Handle(r, co+"/order/current_order_list", priv("The caller's open futures orders, newest first"),
		func(c *Call, req *FuturesListReq) (futures.OrderList, error) {
			return svc.OpenOrders(c.Ctx, c.Principal.UserID, req.symbol(), int(req.Page.V), int(req.PageSize.V))
		})
	Handle(r, co+"/order/history_order_list", priv("The caller's futures orders, newest first (the latest 1,000)"),
		func(c *Call, req *FuturesListReq) (futures.OrderList, error) {
			return svc.HistoryOrders(c.Ctx, c.Principal.UserID, req.symbol(), int(req.Page.V), int(req.PageSize.V))
		})
	Handle(r, co+"/order/his_trade_list", priv("The caller's futures fills, newest first (the latest 1,000)"),
		func(c *Call, req *FuturesListReq) (futures.TradeList, error) {
			return svc.Trades(c.Ctx, c.Principal.UserID, req.symbol(), int(req.Page.V), int(req.PageSize.V))
		})
	Handle(r, co+"/order/condition_create", priv("Arm a stop or take-profit order: placed when the mark or last price reaches its trigger price"),
		func(c *Call, req *FuturesTriggerReq) (futures.TriggerOrder, error) {
			return svc.CreateTrigger(c.Ctx, c.Principal.UserID, futures.TriggerRequest{Symbol: req.symbol(), Side: req.Side, Type: req.Type,
				Price: req.Price.String(), Volume: req.Volume.String(), TriggerPrice: req.TriggerPrice.String(), TriggerBy: req.TriggerBy,
				ReduceOnly: req.ReduceOnly, ClosePosition: req.ClosePosition, PositionSide: req.PositionSide, ParentOrderID: req.ParentOrderID})
		})
	Handle(r, co+"/order/condition_cancel", priv("Cancel one of the caller's waiting trigger orders"),
		func(c *Call, req *FuturesTriggerIDReq) (futures.TriggerOrder, error) {
			return svc.CancelTrigger(c.Ctx, c.Principal.UserID, req.TriggerID)
		})
	Handle(r, co+"/order/trigger_order_list", priv("The caller's waiting trigger orders, newest first"),
		func(c *Call, req *FuturesListReq) (futures.TriggerList, error) {
			return svc.Triggers(c.Ctx, c.Principal.UserID, req.symbol(), int(req.Page.V), int(req.PageSize.V))
		})
	Handle(r, co+"/order/history_trigger_order_list", priv("The caller's trigger orders, newest first (the latest 1,000)"),
		func(c *Call, req *FuturesListReq) (futures.TriggerList, error) {
			return svc.TriggerHistory(c.Ctx, c.Principal.UserID, req.symbol(), int(req.Page.V), int(req.PageSize.V))
		})
	Handle(r, co+"/order/get_trade_info", priv("One of the caller's futures orders with its fills"),
		func(c *Call, req *FuturesOrderIDReq) (futures.OrderDetail, error) {
			return svc.OrderDetail(c.Ctx, c.Principal.UserID, req.OrderID)
		})
	return r
}

// DevIndexReq moves a contract's index (--dev).
type DevIndexReq struct {
	Symbol string     `json:"symbol" v:"required" doc:"BTCUSDT"`
	Price  FlexString `json:"price" v:"required" doc:"the index price; 0 gives it back to the reference price"`
}

// DevIndexer moves contracts' index prices, pays funding rounds now and
// runs the price loop.
type DevIndexer interface {
	SetDevIndex(symbol string, price decimal.Decimal) error
	FundNow(symbol string) error
	Step(ctx context.Context) error
}

// DevFundingReq pays a contract's funding round now (--dev).
type DevFundingReq struct {
	Symbol string `json:"symbol" v:"required" doc:"BTCUSDT"`
}

// NewDevFuturesRouter serves the index simulator in --dev.
func NewDevFuturesRouter(rt DevIndexer, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "dev-futures"
	}
	r := NewRouter(opts)
	Handle(r, "/dev/index", RouteOpts{Summary: "Futures: set a contract's index price and run the price loop now (marks, liquidations) (--dev only)",
		Auth: Public, Tag: "dev"},
		func(c *Call, req *DevIndexReq) (FuturesOK, error) {
			p, err := decimal.NewFromString(req.Price.String())
			if err != nil || p.IsNegative() {
				return FuturesOK{}, apperr.Param("price")
			}
			if err := rt.SetDevIndex(req.Symbol, p); err != nil {
				return FuturesOK{}, apperr.New(apperr.CodeFuturesSymbol, req.Symbol)
			}
			return FuturesOK{OK: true}, rt.Step(c.Ctx)
		})
	Handle(r, "/dev/funding", RouteOpts{Summary: "Futures: pay a contract's funding round now, at the rate its samples give, as at the end of its interval (--dev only)",
		Auth: Public, Tag: "dev"},
		func(c *Call, req *DevFundingReq) (FuturesOK, error) {
			if err := rt.FundNow(req.Symbol); err != nil {
				return FuturesOK{}, apperr.New(apperr.CodeFuturesSymbol, req.Symbol)
			}
			return FuturesOK{OK: true}, rt.Step(c.Ctx)
		})
	return r
}

// FuturesAccountState is the wallet's view of the futures account.
type FuturesAccountState struct {
	OpenContract bool `json:"openContract" doc:"the caller opened a futures account"`
}

// NewFuturesAccountRouter serves the wallet's named operations of the
// futures account (spec §7): get_user_config (opened or not) and
// create_co_id (open it).
func NewFuturesAccountRouter(svc *futures.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "wallet-futures"
	}
	r := NewRouter(opts)
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private, Tag: "wallet"} }
	Handle(r, "/fe-ex-api/wallet/get_user_config", priv("Whether the caller opened a futures account (contractId is accepted and not needed)"),
		func(c *Call, _ *FuturesSymbolReq) (FuturesAccountState, error) {
			ok, err := svc.Opened(c.Ctx, c.Principal.UserID)
			return FuturesAccountState{OpenContract: ok}, err
		})
	Handle(r, "/fe-ex-api/wallet/create_co_id", priv("Open the caller's futures account (its terms agreed); again changes nothing"),
		func(c *Call, _ *Empty) (FuturesAccountState, error) {
			return FuturesAccountState{OpenContract: true}, svc.Open(c.Ctx, c.Principal.UserID)
		})
	return r
}
