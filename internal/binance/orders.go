package binance

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/spot"
)

// Trading is the spot order entry and the order queries (spot.Service).
type Trading interface {
	PlaceOrder(ctx context.Context, uid string, req spot.PlaceRequest) (string, error)
	GetOrder(ctx context.Context, uid, orderID string) (spot.Order, error)
	OrderByClientID(ctx context.Context, uid, clientOrderID string) (spot.Order, error)
	CancelOrder(ctx context.Context, uid, symbol, orderID string) error
	ListOpenOrders(ctx context.Context, uid, symbol string) ([]spot.Order, error)
	SearchOrders(ctx context.Context, uid string, f spot.OrderFilter) ([]spot.Order, int, error)
	SearchTrades(ctx context.Context, uid string, f spot.OrderFilter) ([]spot.Trade, int, error)
	OrderTrades(ctx context.Context, uid, orderID string) ([]spot.Trade, error)
	FeeRates(ctx context.Context, uid string) (spot.FeeRates, error)
}

// Balances reads a user's account balances (ledger.Ledger).
type Balances interface {
	Balances(ctx context.Context, owner string, kind ledger.Kind) ([]ledger.Balance, error)
}

// Order types and times in force, as Binance names them.
const (
	TypeLimit           = "LIMIT"
	TypeMarket          = "MARKET"
	TypeLimitMaker      = "LIMIT_MAKER"
	TypeStopLossLimit   = "STOP_LOSS_LIMIT"
	TypeTakeProfitLimit = "TAKE_PROFIT_LIMIT"
	TypeStopLoss        = "STOP_LOSS"
	TypeTakeProfit      = "TAKE_PROFIT"
)

// OrderTypes are the types orders may have here (exchangeInfo's orderTypes).
// TAKE_PROFIT_LIMIT is not among them: the engine's stop orders trigger as
// Binance's STOP_LOSS_LIMIT does (a buy at or above, a sell at or below
// its stop), and a take-profit triggers the other way.
var OrderTypes = []string{TypeLimit, TypeLimitMaker, TypeMarket, TypeStopLossLimit}

// Binance's order errors.
const (
	CodeFilterFailure     = -1013
	CodeUnsupportedCombo  = -1014
	CodeTIFNotRequired    = -1114
	CodeInvalidTIF        = -1115
	CodeInvalidOrderType  = -1116
	CodeInvalidSide       = -1117
	CodeEmptyNewClOrdID   = -1118
	CodeNewOrderRejected  = -2010
	CodeCancelRejected    = -2011
	CodeNoSuchOrder       = -2013
	msgInsufficient       = "Account has insufficient balance for requested action."
	msgUnknownOrder       = "Unknown order sent."
	msgNoSuchOrder        = "Order does not exist."
	msgWouldTake          = "Order would immediately match and take."
	msgStopWouldTrigger   = "Order would trigger immediately."
	msgDuplicateOrder     = "Duplicate order sent."
	msgUnsupportedCombo   = "Unsupported order combination."
	msgMarketClosed       = "Market is closed."
	clientOrderIDAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
)

func errRejected(msg string) *Error { return badRequest(CodeNewOrderRejected, "%s", msg) }
func errFilter(filter string) *Error {
	return badRequest(CodeFilterFailure, "Filter failure: %s", filter)
}
func errCancelRejected() *Error             { return badRequest(CodeCancelRejected, msgUnknownOrder) }
func errNoSuchOrder() *Error                { return badRequest(CodeNoSuchOrder, msgNoSuchOrder) }
func errUnsupportedCombo() *Error           { return badRequest(CodeUnsupportedCombo, msgUnsupportedCombo) }
func errInvalidEnum(c int, m string) *Error { return badRequest(c, "%s", m) }

// addTradeRoutes registers the signed spot endpoints.
func (s *Server) addTradeRoutes() {
	orderParams := []string{"symbol", "side", "type", "timeInForce", "quantity", "quoteOrderQty", "price",
		"newClientOrderId", "stopPrice", "trailingDelta", "icebergQty", "newOrderRespType", "selfTradePreventionMode",
		"strategyId", "strategyType", "pegPriceType", "pegOffsetValue", "pegOffsetType"}
	orders := newOrderCounter(s.orderLimits())
	s.route(http.MethodPost, "/api/v3/order", 1, SecTrade, func(c *Call) (any, error) { return s.newOrder(c, orders) }).
		params(orderParams...)
	s.route(http.MethodPost, "/api/v3/order/test", 1, SecTrade, s.testOrder).params(append(orderParams, "computeCommissionRates")...)
	s.route(http.MethodGet, "/api/v3/order", 4, SecUserData, s.queryOrder).params("symbol", "orderId", "origClientOrderId")
	s.route(http.MethodDelete, "/api/v3/order", 1, SecTrade, s.cancelOrder).
		params("symbol", "orderId", "origClientOrderId", "newClientOrderId", "cancelRestrictions")
	s.route(http.MethodGet, "/api/v3/openOrders", 6, SecUserData, s.openOrders).params("symbol").
		weigh(func(p *Params) int {
			if p.Has("symbol") {
				return 6
			}
			return 80
		})
	s.route(http.MethodDelete, "/api/v3/openOrders", 1, SecTrade, s.cancelOpenOrders).params("symbol")
	s.route(http.MethodGet, "/api/v3/allOrders", 20, SecUserData, s.allOrders).
		params("symbol", "orderId", "startTime", "endTime", "limit")
	s.route(http.MethodGet, "/api/v3/myTrades", 20, SecUserData, s.myTrades).
		params("symbol", "orderId", "startTime", "endTime", "fromId", "limit")
	s.route(http.MethodGet, "/api/v3/account", 20, SecUserData, s.account).params("omitZeroBalances")
	s.route(http.MethodGet, "/api/v3/account/commission", 20, SecUserData, s.commission).params("symbol")
}

// placement is a new order as the engine's order entry takes it.
type placement struct {
	pair     markets.Pair
	req      spot.PlaceRequest
	typ      string // Binance type
	tif      string
	respType string
}

// readOrder reads and checks a new order's parameters.
func (s *Server) readOrder(c *Call) (placement, error) {
	p := c.Params
	pair, err := s.symbolParam(p)
	if err != nil {
		return placement{}, err
	}
	side, _, err := p.String("side", true)
	if err != nil {
		return placement{}, err
	}
	if side != "BUY" && side != "SELL" {
		return placement{}, errInvalidEnum(CodeInvalidSide, "Invalid side.")
	}
	typ, _, err := p.String("type", true)
	if err != nil {
		return placement{}, err
	}
	pl := placement{pair: pair, typ: typ, respType: "ACK"}
	tif, tifSent, err := p.String("timeInForce", false)
	if err != nil {
		return placement{}, err
	}
	var ourType string
	switch typ {
	case TypeLimit:
		if !tifSent {
			return placement{}, ErrMandatory("timeInForce")
		}
		switch tif {
		case "GTC":
			ourType = "LIMIT"
		case "IOC":
			ourType = "IOC"
		case "FOK":
			ourType = "FOK"
		default:
			return placement{}, errInvalidEnum(CodeInvalidTIF, "Invalid timeInForce.")
		}
		pl.tif = tif
	case TypeLimitMaker:
		if tifSent {
			return placement{}, errInvalidEnum(CodeTIFNotRequired, "TimeInForce parameter sent when not required.")
		}
		ourType, pl.tif = "POST_ONLY", "GTC"
	case TypeMarket:
		if tifSent {
			return placement{}, errInvalidEnum(CodeTIFNotRequired, "TimeInForce parameter sent when not required.")
		}
		ourType, pl.tif = "MARKET", "GTC"
	case TypeStopLossLimit:
		if !tifSent {
			return placement{}, ErrMandatory("timeInForce")
		}
		if tif != "GTC" {
			return placement{}, errUnsupportedCombo()
		}
		ourType, pl.tif = "STOP_LIMIT", tif
	case TypeTakeProfitLimit, TypeStopLoss, TypeTakeProfit:
		return placement{}, errUnsupportedCombo()
	default:
		return placement{}, errInvalidEnum(CodeInvalidOrderType, "Invalid orderType.")
	}
	for _, unsupported := range []string{"trailingDelta", "icebergQty", "pegPriceType", "pegOffsetValue", "pegOffsetType"} {
		if p.Has(unsupported) {
			return placement{}, errUnsupportedCombo()
		}
	}
	pl.req = spot.PlaceRequest{Symbol: pair.Symbol, Side: side, Type: ourType}
	qty, qtySent, err := p.Decimal("quantity", false, 18)
	if err != nil {
		return placement{}, err
	}
	quote, quoteSent, err := p.Decimal("quoteOrderQty", false, 18)
	if err != nil {
		return placement{}, err
	}
	switch {
	case qtySent && quoteSent:
		return placement{}, ErrBadCombo()
	case quoteSent && (typ != TypeMarket || side != "BUY"):
		// The engine spends a quote amount on market buys only.
		return placement{}, errUnsupportedCombo()
	case !qtySent && !quoteSent && typ == TypeMarket:
		return placement{}, ErrEitherMandatory("quantity", "quoteOrderQty")
	case !qtySent && !quoteSent:
		return placement{}, ErrMandatory("quantity")
	}
	if qtySent {
		pl.req.Volume = qty.String()
	} else {
		pl.req.QuoteVolume = quote.String()
	}
	price, priceSent, err := p.Decimal("price", false, 18)
	if err != nil {
		return placement{}, err
	}
	switch {
	case typ == TypeMarket && priceSent:
		return placement{}, ErrNotRequired("price")
	case typ != TypeMarket && !priceSent:
		return placement{}, ErrMandatory("price")
	case priceSent:
		pl.req.Price = price.String()
	}
	stop, stopSent, err := p.Decimal("stopPrice", false, 18)
	if err != nil {
		return placement{}, err
	}
	switch {
	case typ == TypeStopLossLimit && !stopSent:
		return placement{}, ErrMandatory("stopPrice")
	case typ != TypeStopLossLimit && stopSent:
		return placement{}, ErrNotRequired("stopPrice")
	case stopSent:
		pl.req.StopPrice = stop.String()
	}
	cid, cidSent, err := p.String("newClientOrderId", false)
	if err != nil {
		if cidSent || p.Has("newClientOrderId") {
			return placement{}, errInvalidEnum(CodeEmptyNewClOrdID, "New client order ID was empty.")
		}
		return placement{}, err
	}
	if cidSent && !spot.ValidClientOrderID(cid) {
		return placement{}, ErrIllegalChars("newClientOrderId", `^[\.A-Z\:/a-z0-9_-]{1,64}$`)
	}
	if !cidSent {
		// Binance gives every order a client id; an id also makes a
		// retried request find its first order instead of placing twice.
		cid = randomClientOrderID()
		pl.req.NewClientOrderID = true
	}
	pl.req.ClientOrderID = cid
	if v, sent, err := p.Enum("selfTradePreventionMode", false, "NONE", "EXPIRE_TAKER", "EXPIRE_MAKER", "EXPIRE_BOTH"); err != nil {
		return placement{}, err
	} else if sent {
		switch v {
		case "EXPIRE_TAKER":
			pl.req.STP = "cancel_taker"
		case "EXPIRE_MAKER":
			pl.req.STP = "cancel_maker"
		case "EXPIRE_BOTH":
			pl.req.STP = "cancel_both"
		case "NONE":
			return placement{}, errUnsupportedCombo() // the engine always prevents self-trades
		}
	}
	if v, sent, err := p.Enum("newOrderRespType", false, "ACK", "RESULT", "FULL"); err != nil {
		return placement{}, err
	} else if sent {
		pl.respType = v
	} else if typ == TypeMarket || typ == TypeLimit {
		pl.respType = "FULL" // Binance's default for MARKET and LIMIT
	} else {
		pl.respType = "ACK"
	}
	return pl, nil
}

func randomClientOrderID() string {
	b := make([]byte, 22)
	if _, err := rand.Read(b); err != nil {
		panic("binance: no randomness: " + err.Error())
	}
	for i := range b {
		b[i] = clientOrderIDAlphabet[int(b[i])%len(clientOrderIDAlphabet)]
	}
	return "tg-" + string(b)
}

// newOrder is POST /api/v3/order. An order whose parameters pass counts
// against the account's ORDERS limits (orders), and one over them is
// refused before the order entry sees it; every answer carries the
// account's order counts.
func (s *Server) newOrder(c *Call, orders *orderCounter) (any, error) {
	uid := account(c).UserID
	pl, err := s.readOrder(c)
	if err != nil {
		orders.setHeaders(c.Header(), orders.countsOf(uid, c.Now))
		return nil, err
	}
	counts, refused := orders.place(uid, c.Now)
	orders.setHeaders(c.Header(), counts)
	if refused != nil {
		return nil, refused
	}
	id, err := s.opts.Trading.PlaceOrder(c.Ctx, uid, pl.req)
	if err != nil {
		return nil, orderError(err)
	}
	o, err := s.opts.Trading.GetOrder(c.Ctx, uid, id)
	if err != nil {
		return nil, err
	}
	if o.Status == spot.StatusRejected {
		return nil, rejectedError(o.Reason)
	}
	ack := orderAck{Symbol: SymbolOf(pl.pair), OrderID: number(o.ID), OrderListID: -1, ClientOrderID: o.ClientOrderID,
		TransactTime: o.CreatedAt.UnixMilli()}
	if pl.respType == "ACK" {
		return ack, nil
	}
	res := resultOf(pl.pair, o)
	if pl.respType == "RESULT" {
		return res, nil
	}
	fills := []fill{}
	trades, err := s.opts.Trading.OrderTrades(c.Ctx, uid, o.ID)
	if err != nil {
		return nil, err
	}
	for _, t := range trades {
		fills = append(fills, fill{Price: fixed(t.Price), Qty: fixed(t.Volume), Commission: fixed(t.Fee),
			CommissionAsset: strings.ToUpper(t.FeeCoin), TradeID: tradeNumber(t.TradeID)})
	}
	return fullResult{orderResult: res, Fills: fills}, nil
}

// testOrder is POST /api/v3/order/test: checked, never placed.
func (s *Server) testOrder(c *Call) (any, error) {
	if _, err := s.readOrder(c); err != nil {
		return nil, err
	}
	if v, _ := c.Params.Raw("computeCommissionRates"); v == "true" {
		return s.commissionRates(c)
	}
	return struct{}{}, nil
}

// findOrder reads the order named by orderId or origClientOrderId.
func (s *Server) findOrder(c *Call) (markets.Pair, spot.Order, error) {
	p := c.Params
	pair, err := s.symbolParam(p)
	if err != nil {
		return markets.Pair{}, spot.Order{}, err
	}
	id, idSent, err := p.Long("orderId", false)
	if err != nil {
		return pair, spot.Order{}, err
	}
	cid, cidSent, err := p.String("origClientOrderId", false)
	if err != nil {
		return pair, spot.Order{}, err
	}
	uid := account(c).UserID
	var o spot.Order
	switch {
	case idSent:
		o, err = s.opts.Trading.GetOrder(c.Ctx, uid, strconv.FormatInt(id, 10))
	case cidSent:
		o, err = s.opts.Trading.OrderByClientID(c.Ctx, uid, cid)
	default:
		return pair, spot.Order{}, ErrEitherMandatory("orderId", "origClientOrderId")
	}
	if err == nil && (o.Symbol != pair.Symbol || cidSent && o.ClientOrderID != cid) {
		err = apperr.New(apperr.CodeTradeOrderNotFound)
	}
	return pair, o, err
}

// queryOrder is GET /api/v3/order.
func (s *Server) queryOrder(c *Call) (any, error) {
	pair, o, err := s.findOrder(c)
	if isNotFound(err) {
		return nil, errNoSuchOrder()
	}
	if err != nil {
		return nil, err
	}
	return queriedOf(pair, o), nil
}

// cancelOrder is DELETE /api/v3/order.
func (s *Server) cancelOrder(c *Call) (any, error) {
	pair, o, err := s.findOrder(c)
	if isNotFound(err) {
		return nil, errCancelRejected()
	}
	if err != nil {
		return nil, err
	}
	uid := account(c).UserID
	if err := s.opts.Trading.CancelOrder(c.Ctx, uid, pair.Symbol, o.ID); err != nil {
		if isNotFound(err) || isFinished(err) {
			return nil, errCancelRejected()
		}
		return nil, orderError(err)
	}
	if o, err = s.opts.Trading.GetOrder(c.Ctx, uid, o.ID); err != nil {
		return nil, err
	}
	return cancelledOf(pair, o), nil
}

// openOrders is GET /api/v3/openOrders (one symbol or all).
func (s *Server) openOrders(c *Call) (any, error) {
	symbol := ""
	if c.Params.Has("symbol") {
		pair, err := s.symbolParam(c.Params)
		if err != nil {
			return nil, err
		}
		symbol = pair.Symbol
	}
	list, err := s.opts.Trading.ListOpenOrders(c.Ctx, account(c).UserID, symbol)
	if err != nil {
		return nil, err
	}
	out := []orderQueried{}
	for _, o := range list {
		if pair, ok := s.mk.Pair(o.Symbol); ok {
			out = append(out, queriedOf(pair, o))
		}
	}
	return out, nil
}

// cancelOpenOrders is DELETE /api/v3/openOrders: every open order of a
// symbol, one by one (an order that ends meanwhile is left out).
func (s *Server) cancelOpenOrders(c *Call) (any, error) {
	pair, err := s.symbolParam(c.Params)
	if err != nil {
		return nil, err
	}
	uid := account(c).UserID
	list, err := s.opts.Trading.ListOpenOrders(c.Ctx, uid, pair.Symbol)
	if err != nil {
		return nil, err
	}
	out := []orderCancelled{}
	for _, o := range list {
		if err := s.opts.Trading.CancelOrder(c.Ctx, uid, pair.Symbol, o.ID); err != nil {
			if isNotFound(err) || isFinished(err) {
				continue
			}
			return nil, orderError(err)
		}
		if o, err = s.opts.Trading.GetOrder(c.Ctx, uid, o.ID); err != nil {
			return nil, err
		}
		out = append(out, cancelledOf(pair, o))
	}
	if len(out) == 0 && len(list) == 0 {
		return nil, errCancelRejected()
	}
	return out, nil
}

// historyFilter reads startTime, endTime and limit (default 500, at most
// 1000) of allOrders and myTrades.
func historyFilter(c *Call, symbol string) (spot.OrderFilter, int, error) {
	p := c.Params
	limit, err := p.Limit("limit", 500, 1000)
	if err != nil {
		return spot.OrderFilter{}, 0, err
	}
	f := spot.OrderFilter{Symbol: symbol, PageSize: spot.MaxPageSize}
	if v, sent, err := p.Time("startTime"); err != nil {
		return f, 0, err
	} else if sent {
		f.From = time.UnixMilli(v)
	}
	if v, sent, err := p.Time("endTime"); err != nil {
		return f, 0, err
	} else if sent {
		f.To = time.UnixMilli(v)
	}
	return f, limit, nil
}

// allOrders is GET /api/v3/allOrders: the symbol's orders, oldest first
// (from orderId when given).
func (s *Server) allOrders(c *Call) (any, error) {
	pair, err := s.symbolParam(c.Params)
	if err != nil {
		return nil, err
	}
	f, limit, err := historyFilter(c, pair.Symbol)
	if err != nil {
		return nil, err
	}
	fromID, fromSent, err := c.Params.Long("orderId", false)
	if err != nil {
		return nil, err
	}
	// Without orderId the newest limit orders are the answer: the
	// newest-first search is read only that far.
	want := limit
	if fromSent {
		want = -1
	}
	all, err := readPages(want, f.PageSize, func(page int) ([]spot.Order, int, error) {
		f.Page = page
		return s.opts.Trading.SearchOrders(c.Ctx, account(c).UserID, f)
	})
	if err != nil {
		return nil, err
	}
	out := []orderQueried{}
	for i := len(all) - 1; i >= 0; i-- { // the search is newest first
		o := all[i]
		if fromSent && number(o.ID) < fromID {
			continue
		}
		out = append(out, queriedOf(pair, o))
	}
	if fromSent {
		sortByID(out)
	}
	return window(out, limit, fromSent), nil
}

// readPages reads a newest-first history page by page (pages from 1, of
// pageSize entries, total in all) until it holds want entries, or all of
// it when want < 0.
func readPages[T any](want, pageSize int, read func(page int) ([]T, int, error)) ([]T, error) {
	var all []T
	for page := 1; want < 0 || len(all) < want; page++ {
		list, total, err := read(page)
		if err != nil {
			return nil, err
		}
		all = append(all, list...)
		if len(list) == 0 || page*pageSize >= total {
			break
		}
	}
	return all, nil
}

// window keeps at most limit entries of an oldest-first list: the first
// ones when the client asked from an id, else the newest (as Binance).
func window[T any](list []T, limit int, fromStart bool) []T {
	if len(list) <= limit {
		return list
	}
	if fromStart {
		return list[:limit]
	}
	return list[len(list)-limit:]
}

// myTrades is GET /api/v3/myTrades.
func (s *Server) myTrades(c *Call) (any, error) {
	pair, err := s.symbolParam(c.Params)
	if err != nil {
		return nil, err
	}
	f, limit, err := historyFilter(c, pair.Symbol)
	if err != nil {
		return nil, err
	}
	uid := account(c).UserID
	orderID, orderSent, err := c.Params.Long("orderId", false)
	if err != nil {
		return nil, err
	}
	fromID, fromSent, err := c.Params.Long("fromId", false)
	if err != nil {
		return nil, err
	}
	if orderSent && fromSent {
		return nil, ErrBadCombo()
	}
	var trades []spot.Trade
	if orderSent {
		if trades, err = s.opts.Trading.OrderTrades(c.Ctx, uid, strconv.FormatInt(orderID, 10)); isNotFound(err) {
			trades, err = nil, nil
		}
		if err != nil {
			return nil, err
		}
	} else {
		want := limit
		if fromSent {
			want = -1
		}
		if trades, err = readPages(want, f.PageSize, func(page int) ([]spot.Trade, int, error) {
			f.Page = page
			return s.opts.Trading.SearchTrades(c.Ctx, uid, f)
		}); err != nil {
			return nil, err
		}
	}
	out := []myTrade{}
	for _, t := range trades {
		if t.Symbol != pair.Symbol || fromSent && tradeNumber(t.TradeID) < fromID {
			continue
		}
		out = append(out, myTrade{Symbol: SymbolOf(pair), ID: tradeNumber(t.TradeID), OrderID: number(t.OrderID), OrderListID: -1,
			Price: fixed(t.Price), Qty: fixed(t.Volume), QuoteQty: fixed(t.Money), Commission: fixed(t.Fee),
			CommissionAsset: strings.ToUpper(t.FeeCoin), Time: t.At.UnixMilli(), IsBuyer: t.Side == "BUY",
			IsMaker: t.Role == "MAKER", IsBestMatch: true})
	}
	sortTrades(out)
	return window(out, limit, fromSent), nil
}

// account is GET /api/v3/account.
func (s *Server) account(c *Call) (any, error) {
	key := account(c)
	omitZero, err := c.Params.Bool("omitZeroBalances", false)
	if err != nil {
		return nil, err
	}
	rates, err := s.opts.Trading.FeeRates(c.Ctx, key.UserID)
	if err != nil {
		return nil, err
	}
	bals, err := s.opts.Balances.Balances(c.Ctx, key.UserID, ledger.Spot)
	if err != nil {
		return nil, err
	}
	held := map[string]ledger.Balance{}
	for _, b := range bals {
		held[strings.ToUpper(b.Coin)] = b
	}
	out := accountInfo{MakerCommission: bps(rates.Maker), TakerCommission: bps(rates.Taker), BuyerCommission: 0, SellerCommission: 0,
		CommissionRates: commissionRates{Maker: fixed(rates.Maker), Taker: fixed(rates.Taker), Buyer: fixed(decimal.Zero), Seller: fixed(decimal.Zero)},
		CanTrade:        key.Can("spot"), CanWithdraw: key.Can("withdraw"), CanDeposit: true, Brokered: false,
		RequireSelfTradePrevention: false, PreventSor: false, UpdateTime: c.Now.UnixMilli(), AccountType: "SPOT",
		Balances: []balance{}, Permissions: []string{"SPOT"}, UID: number(key.UserID)}
	for _, coin := range s.coins.List() {
		b := held[strings.ToUpper(coin.Symbol)]
		if omitZero && b.Total().IsZero() {
			continue
		}
		out.Balances = append(out.Balances, balance{Asset: strings.ToUpper(coin.Symbol), Free: fixed(b.Available), Locked: fixed(b.Frozen)})
	}
	return out, nil
}

// commission is GET /api/v3/account/commission.
func (s *Server) commission(c *Call) (any, error) {
	if _, err := s.symbolParam(c.Params); err != nil {
		return nil, err
	}
	return s.commissionRates(c)
}

func (s *Server) commissionRates(c *Call) (any, error) {
	rates, err := s.opts.Trading.FeeRates(c.Ctx, account(c).UserID)
	if err != nil {
		return nil, err
	}
	sym, _ := c.Params.Raw("symbol")
	std := commissionRates{Maker: fixed(rates.Maker), Taker: fixed(rates.Taker), Buyer: fixed(decimal.Zero), Seller: fixed(decimal.Zero)}
	zero := commissionRates{Maker: fixed(decimal.Zero), Taker: fixed(decimal.Zero), Buyer: fixed(decimal.Zero), Seller: fixed(decimal.Zero)}
	return commissionInfo{Symbol: sym, StandardCommission: std, SpecialCommission: zero, TaxCommission: zero,
		Discount: discount{EnabledForAccount: rates.FeeCoin, EnabledForSymbol: rates.FeeCoin, DiscountAsset: "", Discount: fixed(decimal.Zero)}}, nil
}

// orderError maps the order entry's catalogue errors onto Binance's.
func orderError(err error) error {
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		return err
	}
	switch ae.Entry.Code {
	case apperr.CodeTradeInsufficient:
		return errRejected(msgInsufficient)
	case apperr.CodeTradePriceTick, apperr.CodeTradeStopPrice:
		return errFilter("PRICE_FILTER")
	case apperr.CodeTradeVolumeLot, apperr.CodeTradeMinQty, apperr.CodeTradeTooLarge:
		return errFilter("LOT_SIZE")
	case apperr.CodeTradeMinNotional:
		return errFilter("NOTIONAL")
	case apperr.CodeTradeStopReached:
		return errRejected(msgStopWouldTrigger)
	case apperr.CodeTradeClientOrderReused:
		return errRejected(msgDuplicateOrder)
	case apperr.CodeTradeSymbolClosed, apperr.CodeTradeSymbolUnknown:
		return errRejected(msgMarketClosed)
	case apperr.CodeTradeOrderNotFound:
		return errNoSuchOrder()
	case apperr.CodeTradeBusy, apperr.CodeInternal:
		return err // -1001
	}
	return badRequest(CodeFilterFailure, "%s", ae.Message(apperr.LangEN))
}

// rejectedError is the answer for an order the engine refused.
func rejectedError(reason string) error {
	switch reason {
	case "post_only_would_take":
		return errRejected(msgWouldTake)
	case "stop_would_trigger":
		return errRejected(msgStopWouldTrigger)
	case "price_off_tick", "invalid_price":
		return errFilter("PRICE_FILTER")
	case "qty_off_lot", "below_min_qty", "invalid_qty", "too_large":
		return errFilter("LOT_SIZE")
	case "below_min_notional", "quote_off_grid":
		return errFilter("NOTIONAL")
	}
	return errRejected("Order was rejected: " + reason)
}

func isNotFound(err error) bool {
	var ae *apperr.Error
	return errors.As(err, &ae) && ae.Entry.Code == apperr.CodeTradeOrderNotFound
}

func isFinished(err error) bool {
	var ae *apperr.Error
	return errors.As(err, &ae) && ae.Entry.Code == apperr.CodeTradeOrderFinished
}
