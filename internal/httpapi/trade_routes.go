package httpapi

import (
	"fmt"
	"strings"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/spot"
)

// Spot trading routes (spec §7): order entry, amendment (reducing the
// quantity) and cancellation, open orders, order history and search, the
// user's trades and an order's trades. All are private and owner-checked: a
// user only ever sees, amends and cancels their own orders. Amounts are
// decimal strings; times are Unix milliseconds.

// OrderCreateReq is /order/create.
type OrderCreateReq struct {
	Symbol        string     `json:"symbol" v:"required" doc:"pair, e.g. btcusdt (BTC/USDT and BTC_USDT also accepted)"`
	Side          string     `json:"side" v:"required" doc:"BUY or SELL"`
	Type          string     `json:"type" v:"required" doc:"LIMIT, MARKET, FOK, IOC, POST_ONLY or STOP_LIMIT"`
	Price         FlexString `json:"price" doc:"limit price on the pair's tick grid, digits with at most one decimal point (no sign or exponent); a MARKET order takes none (14023)"`
	Volume        FlexString `json:"volume" doc:"base quantity on the lot grid; a MARKET buy gives volume or quoteVolume (by volume it holds the spendable quote balance, at most the volume at the last trade price + 50%, while it matches, and releases what it does not spend)"`
	QuoteVolume   FlexString `json:"quoteVolume" doc:"quote amount to spend: MARKET buy only, instead of volume"`
	StopPrice     FlexString `json:"stopPrice" doc:"STOP_LIMIT only: the last price that activates the order"`
	ClientOrderID string     `json:"clientOrderId" doc:"optional idempotency key per user (1-64 letters, digits and -_.:/): a retry returns the first order's id"`
	STP           string     `json:"stp" doc:"optional self-trade prevention when the order meets one of your own: cancel_taker, cancel_maker or cancel_both (default: the pair's, cancel_taker unless the operator set another)"`
}

// Validate bounds the fields (the service checks the values).
func (r *OrderCreateReq) Validate() error {
	for _, f := range []string{r.Symbol, r.Side, r.Type, string(r.Price), string(r.Volume), string(r.QuoteVolume), string(r.StopPrice), r.STP} {
		if len(f) > 64 {
			return apperr.Param("field too long")
		}
	}
	if len(r.ClientOrderID) > spot.MaxClientOrderIDLen {
		return apperr.Param("clientOrderId: at most 64 characters")
	}
	return nil
}

// OrderCreateResp carries the new order's id (a decimal string: it does not
// fit a JavaScript number).
type OrderCreateResp struct {
	OrderID string `json:"order_id"`
}

// OrderCancelReq is /order/cancel.
type OrderCancelReq struct {
	Symbol  string     `json:"symbol"`
	OrderID FlexString `json:"order_id" v:"required"`
}

// Validate bounds the fields.
func (r *OrderCancelReq) Validate() error {
	if len(r.Symbol) > 40 || len(r.OrderID) > 24 {
		return apperr.Param("symbol/order_id: too long")
	}
	return nil
}

// OrderAmendReq is /order/amend: reduce an open order's quantity. volume is
// the order's new total quantity (as "volume" shows it, filled part
// included): strictly below the current volume and strictly above
// deal_volume, on the lot grid, leaving a remaining quantity that meets the
// pair's minimum quantity and notional. The price and the order's place in
// the queue do not change; increasing is refused (14020), as is amending a
// MARKET, IOC or FOK order (14021); a finished order answers 14015, as for
// a cancel.
type OrderAmendReq struct {
	Symbol  string     `json:"symbol" doc:"optional: the order's pair, checked when given"`
	OrderID FlexString `json:"order_id" v:"required"`
	Volume  FlexString `json:"volume" v:"required" doc:"new total quantity of the order (base coin), below the current volume and above deal_volume"`
}

// Validate bounds the fields.
func (r *OrderAmendReq) Validate() error {
	if len(r.Symbol) > 40 || len(r.OrderID) > 24 || len(r.Volume) > 64 {
		return apperr.Param("symbol/order_id/volume: too long")
	}
	return nil
}

// OrderSymbolReq carries an optional symbol (/order/cancel_all, /order/list/new).
type OrderSymbolReq struct {
	Symbol   string  `json:"symbol" doc:"optional: one pair, else all"`
	Page     FlexInt `json:"page" doc:"1-based page (list/new), default 1"`
	PageSize FlexInt `json:"pageSize" doc:"default 100 for list/new, at most 500"`
}

// Validate bounds the fields.
func (r *OrderSymbolReq) Validate() error {
	if len(r.Symbol) > 40 {
		return apperr.Param("symbol: too long")
	}
	return checkPaging(r.Page, r.PageSize, maxOpenOrdersPage)
}

// maxOpenOrdersPage is the largest page of /order/list/new.
const maxOpenOrdersPage = 500

// OrderSearchReq is /order/entrust_history, /order/entrust_search and
// /order/trade_info_search. Only the last 180 days are searched.
type OrderSearchReq struct {
	Symbol    string     `json:"symbol"`
	Side      string     `json:"side" doc:"BUY or SELL"`
	Type      string     `json:"type" doc:"order type (orders only)"`
	Status    FlexString `json:"status" doc:"status number (1 NEW, 2 PARTIALLY_FILLED, 3 FILLED, 4 CANCELLED, 5 REJECTED) or name"`
	StartTime FlexInt    `json:"startTime" doc:"Unix ms, default 180 days ago"`
	EndTime   FlexInt    `json:"endTime" doc:"Unix ms, default now"`
	Page      FlexInt    `json:"page" doc:"1-based, default 1"`
	PageSize  FlexInt    `json:"pageSize" doc:"default 20, at most 100"`
}

// Validate bounds the fields.
func (r *OrderSearchReq) Validate() error {
	if len(r.Symbol) > 40 || len(r.Side) > 8 || len(r.Type) > 16 || len(r.Status) > 20 {
		return apperr.Param("field too long")
	}
	return checkPaging(r.Page, r.PageSize, spot.MaxPageSize)
}

func (r *OrderSearchReq) filter() (spot.OrderFilter, error) {
	f := spot.OrderFilter{Symbol: r.Symbol, Side: r.Side, Type: r.Type, Page: int(r.Page.V), PageSize: int(r.PageSize.V)}
	if r.StartTime.V > 0 {
		f.From = time.UnixMilli(r.StartTime.V)
	}
	if r.EndTime.V > 0 {
		f.To = time.UnixMilli(r.EndTime.V)
	}
	if st := r.Status.String(); st != "" {
		found := false
		for s := spot.StatusNew; s <= spot.StatusRejected; s++ {
			if st == s.Text() || strings.EqualFold(st, s.Text()) || st == string(rune('0'+int(s))) {
				f.Status, found = []spot.Status{s}, true
			}
		}
		if !found {
			return f, apperr.Param("status: unknown")
		}
	}
	return f, nil
}

// OrderIDReq is /trade/list_by_order and /order/detail.
type OrderIDReq struct {
	OrderID FlexString `json:"order_id" v:"required"`
}

// Validate bounds the field.
func (r *OrderIDReq) Validate() error {
	if len(r.OrderID) > 24 {
		return apperr.Param("order_id: too long")
	}
	return nil
}

// OrderView is one order as the API shows it (and as user_orders pushes it).
type OrderView = spot.OrderView

// OrderList is a page of orders.
type OrderList struct {
	Count     int         `json:"count" doc:"all matches, not only this page"`
	OrderList []OrderView `json:"orderList"`
}

// TradeView is one fill of one of the user's orders.
type TradeView struct {
	TradeID   string `json:"trade_id"`
	OrderID   string `json:"order_id"`
	Symbol    string `json:"symbol"`
	Side      string `json:"side"`
	Role      string `json:"role" doc:"MAKER or TAKER"`
	Price     string `json:"price"`
	Volume    string `json:"volume"`
	DealMoney string `json:"deal_money"`
	Fee       string `json:"fee"`
	FeeCoin   string `json:"fee_coin"`
	CreatedAt int64  `json:"created_at" doc:"Unix ms"`
}

// FeeRateResp is the user's spot fee rates.
type FeeRateResp struct {
	Maker     string `json:"maker" doc:"maker rate, a fraction (0.001 = 0.1%)"`
	Taker     string `json:"taker" doc:"taker rate, a fraction"`
	Volume30d string `json:"volume30d" doc:"30-day spot volume in USDT, which picks the tier: each trade counts the lower of its value at the trade price and at the reference price"`
	FeeCoin   bool   `json:"feeCoin" doc:"the fee-coin switch (update_fee_coin_open) lowers both rates"`
}

// TradeList is a page of trades.
type TradeList struct {
	Count     int         `json:"count"`
	TradeList []TradeView `json:"tradeList"`
}

func orderView(svc *spot.Service, o spot.Order) OrderView {
	pp := int32(8)
	if p, ok := svc.Pair(o.Symbol); ok {
		pp = p.PricePrecision
	}
	return o.View(pp)
}

func tradeViews(ts []spot.Trade) []TradeView {
	out := make([]TradeView, len(ts))
	for i, t := range ts {
		out[i] = TradeView{TradeID: t.TradeID, OrderID: t.OrderID, Symbol: t.Symbol, Side: t.Side, Role: t.Role,
			Price: t.Price.String(), Volume: t.Volume.String(), DealMoney: t.Money.String(), Fee: t.Fee.String(),
			FeeCoin: t.FeeCoin, CreatedAt: t.At.UnixMilli()}
	}
	return out
}

// NewTradeRouter serves the spot trading API under /fe-ex-api.
func NewTradeRouter(svc *spot.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "trade"
	}
	r := NewRouter(opts)
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private} }
	uid := func(c *Call) string { return c.Principal.UserID }
	const p = "/fe-ex-api"
	// Order entry: the same calls serve the WebSocket methods and the
	// batch (order_entry.go).
	oe := orderEntry{svc: svc}
	Handle(r, p+"/order/create", priv("Place a spot order: funds are held at once; data.order_id"),
		func(c *Call, req *OrderCreateReq) (*OrderCreateResp, error) { return oe.place(c.Ctx, uid(c), req) })
	Handle(r, p+"/order/cancel", priv("Cancel one of your open orders (the engine releases the remaining hold)"),
		func(c *Call, req *OrderCancelReq) (*Empty, error) { return oe.cancel(c.Ctx, uid(c), req) })
	Handle(r, p+"/order/amend", priv("Reduce one of your open orders to a new total volume; it keeps its price and queue place, and the engine releases the freed hold"),
		func(c *Call, req *OrderAmendReq) (*Empty, error) { return oe.amend(c.Ctx, uid(c), req) })
	Handle(r, p+"/order/cancel_all", priv("Cancel all your open orders of a symbol, or of every symbol"),
		func(c *Call, req *OrderSymbolReq) (*Empty, error) { return oe.cancelAll(c.Ctx, uid(c), req) })
	Handle(r, p+"/order/batch", priv(fmt.Sprintf("Place or cancel up to %d orders in one call: each entry is validated and run on its own, as /order/create or /order/cancel would; data holds one {code, msg, data} per entry, in order", MaxBatchOrders)),
		func(c *Call, req *OrderBatchReq) ([]OrderBatchResult, error) {
			return oe.batch(c.Ctx, c.Lang, uid(c), req.Orders, c.Log), nil
		})
	Handle(r, p+"/order/fee_rate", priv("Your spot fee rates now (fixed on an order when it is placed); the fee is taken from what you receive, rounded up to 8 decimals"),
		func(c *Call, _ *Empty) (*FeeRateResp, error) {
			fr, err := svc.FeeRates(c.Ctx, uid(c))
			if err != nil {
				return nil, err
			}
			return &FeeRateResp{Maker: fr.Maker.String(), Taker: fr.Taker.String(), Volume30d: fr.Volume30d.String(), FeeCoin: fr.FeeCoin}, nil
		})
	Handle(r, p+"/order/list/new", priv("Your open orders (data.count, data.orderList), newest first"),
		func(c *Call, req *OrderSymbolReq) (*OrderList, error) {
			os, err := svc.ListOpenOrders(c.Ctx, uid(c), req.Symbol)
			if err != nil {
				return nil, err
			}
			page, size := int(req.Page.V), int(req.PageSize.V)
			if !req.Page.Set {
				page = 1
			}
			if !req.PageSize.Set {
				size = 100
			}
			out := &OrderList{Count: len(os), OrderList: []OrderView{}}
			for i := (page - 1) * size; i < len(os) && i < page*size; i++ {
				out.OrderList = append(out.OrderList, orderView(svc, os[i]))
			}
			return out, nil
		})
	search := func(finishedOnly bool) func(c *Call, req *OrderSearchReq) (*OrderList, error) {
		return func(c *Call, req *OrderSearchReq) (*OrderList, error) {
			f, err := req.filter()
			if err != nil {
				return nil, err
			}
			if finishedOnly {
				switch {
				case len(f.Status) == 0:
					f.Status = []spot.Status{spot.StatusFilled, spot.StatusCancelled, spot.StatusRejected}
				case f.Status[0].Open():
					// The history holds no open order.
					return &OrderList{OrderList: []OrderView{}}, nil
				}
			}
			os, n, err := svc.SearchOrders(c.Ctx, uid(c), f)
			if err != nil {
				return nil, err
			}
			out := &OrderList{Count: n, OrderList: make([]OrderView, len(os))}
			for i, o := range os {
				out.OrderList[i] = orderView(svc, o)
			}
			return out, nil
		}
	}
	Handle(r, p+"/order/entrust_history", priv("Your finished orders of the last 180 days, newest first"), search(true))
	Handle(r, p+"/order/entrust_search", priv("Search your orders of the last 180 days (symbol, side, type, status, time)"), search(false))
	Handle(r, p+"/order/trade_info_search", priv("Your trades of the last 180 days (symbol, side, time), newest first"),
		func(c *Call, req *OrderSearchReq) (*TradeList, error) {
			f, err := req.filter()
			if err != nil {
				return nil, err
			}
			ts, n, err := svc.SearchTrades(c.Ctx, uid(c), f)
			if err != nil {
				return nil, err
			}
			return &TradeList{Count: n, TradeList: tradeViews(ts)}, nil
		})
	Handle(r, p+"/trade/list_by_order", priv("The fills of one of your orders, oldest first"),
		func(c *Call, req *OrderIDReq) (*TradeList, error) {
			ts, err := svc.OrderTrades(c.Ctx, uid(c), req.OrderID.String())
			if err != nil {
				return nil, err
			}
			return &TradeList{Count: len(ts), TradeList: tradeViews(ts)}, nil
		})
	Handle(r, p+"/order/detail", priv("One of your orders, open or finished (for an order's own page)"),
		func(c *Call, req *OrderIDReq) (*OrderView, error) {
			o, err := svc.GetOrder(c.Ctx, uid(c), req.OrderID.String())
			if err != nil {
				return nil, err
			}
			v := orderView(svc, o)
			return &v, nil
		})
	return r
}
