package binance

import (
	"sort"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/markets"
	"tenger/internal/spot"
)

// Answers of the order endpoints, field for field as Binance's.

type orderAck struct {
	Symbol        string `json:"symbol"`
	OrderID       int64  `json:"orderId"`
	OrderListID   int64  `json:"orderListId"`
	ClientOrderID string `json:"clientOrderId"`
	TransactTime  int64  `json:"transactTime"`
}

type orderResult struct {
	orderAck
	Price                   string `json:"price"`
	OrigQty                 string `json:"origQty"`
	ExecutedQty             string `json:"executedQty"`
	OrigQuoteOrderQty       string `json:"origQuoteOrderQty"`
	CummulativeQuoteQty     string `json:"cummulativeQuoteQty"`
	Status                  string `json:"status"`
	TimeInForce             string `json:"timeInForce"`
	Type                    string `json:"type"`
	Side                    string `json:"side"`
	StopPrice               string `json:"stopPrice,omitempty"`
	WorkingTime             int64  `json:"workingTime"`
	SelfTradePreventionMode string `json:"selfTradePreventionMode"`
}

type fill struct {
	Price           string `json:"price"`
	Qty             string `json:"qty"`
	Commission      string `json:"commission"`
	CommissionAsset string `json:"commissionAsset"`
	TradeID         int64  `json:"tradeId"`
}

type fullResult struct {
	orderResult
	Fills []fill `json:"fills"`
}

type orderQueried struct {
	Symbol                  string `json:"symbol"`
	OrderID                 int64  `json:"orderId"`
	OrderListID             int64  `json:"orderListId"`
	ClientOrderID           string `json:"clientOrderId"`
	Price                   string `json:"price"`
	OrigQty                 string `json:"origQty"`
	ExecutedQty             string `json:"executedQty"`
	CummulativeQuoteQty     string `json:"cummulativeQuoteQty"`
	Status                  string `json:"status"`
	TimeInForce             string `json:"timeInForce"`
	Type                    string `json:"type"`
	Side                    string `json:"side"`
	StopPrice               string `json:"stopPrice"`
	IcebergQty              string `json:"icebergQty"`
	Time                    int64  `json:"time"`
	UpdateTime              int64  `json:"updateTime"`
	IsWorking               bool   `json:"isWorking"`
	WorkingTime             int64  `json:"workingTime"`
	OrigQuoteOrderQty       string `json:"origQuoteOrderQty"`
	SelfTradePreventionMode string `json:"selfTradePreventionMode"`
}

type orderCancelled struct {
	Symbol                  string `json:"symbol"`
	OrigClientOrderID       string `json:"origClientOrderId"`
	OrderID                 int64  `json:"orderId"`
	OrderListID             int64  `json:"orderListId"`
	ClientOrderID           string `json:"clientOrderId"`
	TransactTime            int64  `json:"transactTime"`
	Price                   string `json:"price"`
	OrigQty                 string `json:"origQty"`
	ExecutedQty             string `json:"executedQty"`
	CummulativeQuoteQty     string `json:"cummulativeQuoteQty"`
	Status                  string `json:"status"`
	TimeInForce             string `json:"timeInForce"`
	Type                    string `json:"type"`
	Side                    string `json:"side"`
	SelfTradePreventionMode string `json:"selfTradePreventionMode"`
}

type myTrade struct {
	Symbol          string `json:"symbol"`
	ID              int64  `json:"id"`
	OrderID         int64  `json:"orderId"`
	OrderListID     int64  `json:"orderListId"`
	Price           string `json:"price"`
	Qty             string `json:"qty"`
	QuoteQty        string `json:"quoteQty"`
	Commission      string `json:"commission"`
	CommissionAsset string `json:"commissionAsset"`
	Time            int64  `json:"time"`
	IsBuyer         bool   `json:"isBuyer"`
	IsMaker         bool   `json:"isMaker"`
	IsBestMatch     bool   `json:"isBestMatch"`
}

type commissionRates struct {
	Maker  string `json:"maker"`
	Taker  string `json:"taker"`
	Buyer  string `json:"buyer"`
	Seller string `json:"seller"`
}

type balance struct {
	Asset  string `json:"asset"`
	Free   string `json:"free"`
	Locked string `json:"locked"`
}

type accountInfo struct {
	MakerCommission            int64           `json:"makerCommission"`
	TakerCommission            int64           `json:"takerCommission"`
	BuyerCommission            int64           `json:"buyerCommission"`
	SellerCommission           int64           `json:"sellerCommission"`
	CommissionRates            commissionRates `json:"commissionRates"`
	CanTrade                   bool            `json:"canTrade"`
	CanWithdraw                bool            `json:"canWithdraw"`
	CanDeposit                 bool            `json:"canDeposit"`
	Brokered                   bool            `json:"brokered"`
	RequireSelfTradePrevention bool            `json:"requireSelfTradePrevention"`
	PreventSor                 bool            `json:"preventSor"`
	UpdateTime                 int64           `json:"updateTime"`
	AccountType                string          `json:"accountType"`
	Balances                   []balance       `json:"balances"`
	Permissions                []string        `json:"permissions"`
	UID                        int64           `json:"uid"`
}

type discount struct {
	EnabledForAccount bool   `json:"enabledForAccount"`
	EnabledForSymbol  bool   `json:"enabledForSymbol"`
	DiscountAsset     string `json:"discountAsset"`
	Discount          string `json:"discount"`
}

type commissionInfo struct {
	Symbol             string          `json:"symbol"`
	StandardCommission commissionRates `json:"standardCommission"`
	TaxCommission      commissionRates `json:"taxCommission"`
	SpecialCommission  commissionRates `json:"specialCommission"`
	Discount           discount        `json:"discount"`
}

// fixed writes an amount as Binance does: eight decimals.
func fixed(d decimal.Decimal) string { return d.StringFixed(8) }

// number is a decimal id (an order's, a trade's, a user's) as the number
// Binance's id fields hold (0 if it is not one).
func number(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// bps is a fee rate in basis points (makerCommission).
func bps(rate decimal.Decimal) int64 { return rate.Shift(4).Round(0).IntPart() }

// typeAndTIF names an order's type and time in force as Binance does.
func typeAndTIF(t string) (typ, tif string) {
	switch t {
	case "IOC":
		return TypeLimit, "IOC"
	case "FOK":
		return TypeLimit, "FOK"
	case "POST_ONLY":
		return TypeLimitMaker, "GTC"
	case "MARKET":
		return TypeMarket, "GTC"
	case "STOP_LIMIT":
		return TypeStopLossLimit, "GTC"
	}
	return TypeLimit, "GTC"
}

// statusOf names an order's status as Binance does: an IOC, FOK or market
// remainder that ended for want of liquidity is EXPIRED, one that
// self-trade prevention ended EXPIRED_IN_MATCH.
func orderStatus(o spot.Order) string {
	switch o.Status {
	case spot.StatusNew:
		return "NEW"
	case spot.StatusPartiallyFilled:
		return "PARTIALLY_FILLED"
	case spot.StatusFilled:
		return "FILLED"
	case spot.StatusRejected:
		return "REJECTED"
	}
	switch o.Reason {
	case "ioc_remainder", "fok_not_filled":
		return "EXPIRED"
	case "stp":
		return "EXPIRED_IN_MATCH"
	case "filled", "dust":
		return "FILLED"
	}
	return "CANCELED"
}

// stpMode is the order's self-trade prevention as Binance names it.
func stpMode(pair markets.Pair) string {
	if m, ok := stpModes[strings.ToLower(pair.SelfTradePrevention)]; ok {
		return m
	}
	return "EXPIRE_TAKER"
}

func resultOf(pair markets.Pair, o spot.Order) orderResult {
	typ, tif := typeAndTIF(o.Type)
	r := orderResult{
		orderAck: orderAck{Symbol: SymbolOf(pair), OrderID: number(o.ID), OrderListID: -1, ClientOrderID: o.ClientOrderID,
			TransactTime: o.CreatedAt.UnixMilli()},
		Price: fixed(o.Price), OrigQty: fixed(o.Volume), ExecutedQty: fixed(o.DealVolume), OrigQuoteOrderQty: fixed(o.QuoteVolume),
		CummulativeQuoteQty: fixed(o.DealMoney), Status: orderStatus(o), TimeInForce: tif, Type: typ, Side: o.Side,
		WorkingTime: o.CreatedAt.UnixMilli(), SelfTradePreventionMode: stpMode(pair),
	}
	if typ == TypeStopLossLimit {
		r.StopPrice = fixed(o.StopPrice)
		if !o.Triggered {
			r.WorkingTime = -1
		}
	}
	return r
}

func queriedOf(pair markets.Pair, o spot.Order) orderQueried {
	r := resultOf(pair, o)
	working := o.Type != "STOP_LIMIT" || o.Triggered
	return orderQueried{Symbol: r.Symbol, OrderID: r.OrderID, OrderListID: -1, ClientOrderID: r.ClientOrderID, Price: r.Price,
		OrigQty: r.OrigQty, ExecutedQty: r.ExecutedQty, CummulativeQuoteQty: r.CummulativeQuoteQty, Status: r.Status,
		TimeInForce: r.TimeInForce, Type: r.Type, Side: r.Side, StopPrice: fixed(o.StopPrice), IcebergQty: fixed(decimal.Zero),
		Time: o.CreatedAt.UnixMilli(), UpdateTime: o.UpdatedAt.UnixMilli(), IsWorking: working, WorkingTime: r.WorkingTime,
		OrigQuoteOrderQty: r.OrigQuoteOrderQty, SelfTradePreventionMode: r.SelfTradePreventionMode}
}

func cancelledOf(pair markets.Pair, o spot.Order) orderCancelled {
	r := resultOf(pair, o)
	return orderCancelled{Symbol: r.Symbol, OrigClientOrderID: o.ClientOrderID, OrderID: r.OrderID, OrderListID: -1,
		ClientOrderID: o.ClientOrderID, TransactTime: o.UpdatedAt.UnixMilli(), Price: r.Price, OrigQty: r.OrigQty,
		ExecutedQty: r.ExecutedQty, CummulativeQuoteQty: r.CummulativeQuoteQty, Status: r.Status, TimeInForce: r.TimeInForce,
		Type: r.Type, Side: r.Side, SelfTradePreventionMode: r.SelfTradePreventionMode}
}

func sortByID(list []orderQueried) {
	sort.SliceStable(list, func(i, j int) bool { return list[i].OrderID < list[j].OrderID })
}

func sortTrades(list []myTrade) {
	sort.SliceStable(list, func(i, j int) bool { return list[i].ID < list[j].ID })
}
