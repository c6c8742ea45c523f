package futures

// The shapes of the futures service (/fe-co-api) as its routes answer
// them. Amounts and prices are decimal strings; order and position sizes
// are whole contracts (a contract is ContractValue of the base coin);
// times are Unix milliseconds.

// ContractInfo is one contract of /common/public_info.
type ContractInfo struct {
	ID     int    `json:"id" doc:"the contract's number (contractId)"`
	Symbol string `json:"symbol" doc:"BTCUSDT"`
	// MarketSymbol names the contract in the market data channels and
	// routes (market_btcusdtperp_depth_step0 ...): never a spot pair's.
	MarketSymbol   string `json:"marketSymbol" doc:"btcusdtperp"`
	Base           string `json:"base"`
	Quote          string `json:"quote"`
	MarginCoin     string `json:"marginCoin"`
	ContractValue  string `json:"contractValue" doc:"base coin per contract"`
	PriceTick      string `json:"priceTick"`
	PricePrecision int32  `json:"pricePrecision"`
	// SizePrecision is the decimals of a size in the base coin (contracts
	// × contract value).
	SizePrecision        int32  `json:"sizePrecision"`
	MinQty               int64  `json:"minQty" doc:"contracts"`
	MaxOrderQty          int64  `json:"maxOrderQty" doc:"contracts"`
	MaxLeverage          int64  `json:"maxLeverage"`
	MakerFee             string `json:"makerFee" doc:"rate of the notional"`
	TakerFee             string `json:"takerFee"`
	LiquidationFee       string `json:"liquidationFee"`
	FundingIntervalHours int    `json:"fundingIntervalHours"`
	FundingCap           string `json:"fundingCap"`
	InterestRate         string `json:"interestRate"`
	Status               string `json:"status" doc:"open or closed"`
}

// PublicInfo is /common/public_info.
type PublicInfo struct {
	Contracts   []ContractInfo `json:"contractList"`
	MarginCoins []string       `json:"marginCoinList"`
	ServerTime  int64          `json:"serverTime"`
}

// MarketInfo is one contract's prices: /common/public_market_info, and
// each entry of /common/price_list.
type MarketInfo struct {
	Symbol     string `json:"symbol"`
	LastPrice  string `json:"lastPrice" doc:"empty before the first trade"`
	MarkPrice  string `json:"markPrice" doc:"what risk uses: PnL, margin, liquidation"`
	IndexPrice string `json:"indexPrice"`
	// FundingRate is the rate the next funding would pay at the samples
	// so far (positive: longs pay shorts); LastFundingRate the last paid.
	FundingRate     string `json:"fundingRate"`
	LastFundingRate string `json:"lastFundingRate"`
	NextFundingTime int64  `json:"nextFundingTime"`
	InsuranceFund   string `json:"insuranceFund"`
	OpenInterest    int64  `json:"openInterest" doc:"contracts held long (= short)"`
	Time            int64  `json:"time" doc:"when the prices were taken"`
	// The 24 h figures: the contract's market data ticker (the rolling
	// window of its one-minute candles, as spot's ticker).
	Open24h     string `json:"open24h" doc:"the price 24 h ago (the window's first trade); empty before the first trade"`
	High24h     string `json:"high24h" doc:"empty before the first trade"`
	Low24h      string `json:"low24h" doc:"empty before the first trade"`
	Change24h   string `json:"change24h" doc:"the last price against open24h in percent, 2 places: -1.25"`
	Volume24h   string `json:"volume24h" doc:"contracts traded in 24 h"`
	Turnover24h string `json:"turnover24h" doc:"margin coin traded in 24 h"`
}

// Tier is one maintenance tier of /common/get_ladder_info.
type Tier struct {
	Tier            int    `json:"tier"`
	MinNotional     string `json:"minNotional"`
	MaxNotional     string `json:"maxNotional"`
	MaintenanceRate string `json:"maintenanceRate"`
	MaxLeverage     int64  `json:"maxLeverage"`
	Cum             string `json:"cum" doc:"maintenance = notional × rate − cum"`
}

// Depth is /common/depth_map: [price, contracts] best first.
type Depth struct {
	Symbol string      `json:"symbol"`
	Asks   [][2]string `json:"asks"`
	Bids   [][2]string `json:"bids"`
	Time   int64       `json:"time"`
}

// Margin modes and position modes (the numbers the routes take).
const (
	MarginCross    = 1
	MarginIsolated = 2
	PositionOneWay = 1
	PositionHedge  = 2
)

// UserConfig is /user/get_user_config: the caller's settings of a
// contract.
type UserConfig struct {
	Symbol       string `json:"symbol"`
	Leverage     int64  `json:"leverage"`
	MarginMode   int    `json:"marginMode" doc:"1 cross, 2 isolated"`
	PositionMode int    `json:"positionMode" doc:"1 one-way, 2 hedge (a long and a short position per contract); the same in every contract"`
	// MaxLeverage is the highest leverage the position's current size
	// allows (the first tier's when flat).
	MaxLeverage int64 `json:"maxLeverage"`
	// PageConfig is what /user/edit_user_page_config saved (the page's
	// preferences), echoed as given.
	PageConfig map[string]string `json:"pageConfig"`
	// OpenContract: the caller opened a futures account (agreed to its
	// terms); orders need it.
	OpenContract bool `json:"openContract"`
}

// AccountView is the futures account in one margin coin.
type AccountView struct {
	Coin string `json:"coin"`
	// WalletBalance changes only by transfers, realized PnL, fees and
	// funding; MarginBalance adds the unrealized PnL.
	WalletBalance string `json:"walletBalance"`
	MarginBalance string `json:"marginBalance"`
	// Available is what new orders and transfers out may use: the free
	// balance less the cross positions' unrealized losses.
	Available         string `json:"availableBalance"`
	PositionMargin    string `json:"positionMargin" doc:"held by positions"`
	OrderMargin       string `json:"orderMargin" doc:"held by open orders"`
	UnrealizedPnl     string `json:"unrealizedPnl"`
	MaintenanceMargin string `json:"maintenanceMargin" doc:"of the cross positions"`
	// MarginRatio is the cross positions' maintenance ÷ the cross margin
	// balance, in percent: at 100 they are liquidated.
	MarginRatio string `json:"marginRatio"`
}

// PositionView is an open position.
type PositionView struct {
	Symbol     string `json:"symbol"`
	ContractID int    `json:"contractId"`
	Side       string `json:"side" doc:"LONG or SHORT"`
	// PositionSide is BOTH in one-way mode; in hedge mode the position's
	// side (a user may hold both).
	PositionSide string `json:"positionSide" doc:"BOTH, LONG or SHORT"`
	Volume       int64  `json:"volume" doc:"contracts"`
	Size         string `json:"size" doc:"base coin"`
	OpenPrice    string `json:"openPrice" doc:"average entry"`
	MarkPrice    string `json:"markPrice"`
	Notional     string `json:"notional" doc:"at mark"`
	Liquidation  string `json:"liquidationPrice" doc:"empty when none (a long whose margin covers a fall to zero)"`
	Margin       string `json:"margin"`
	Leverage     int64  `json:"leverage"`
	MarginMode   int    `json:"marginMode"`
	// UnrealizedPnl is at mark; ROE is it ÷ the initial margin at entry, in percent.
	UnrealizedPnl     string `json:"unrealizedPnl"`
	ROE               string `json:"roe"`
	MaintenanceMargin string `json:"maintenanceMargin"`
	// MarginRatio is maintenance ÷ (margin + unrealized PnL) in percent
	// for an isolated position; the account's for a cross one.
	MarginRatio string `json:"marginRatio"`
	// ADLLevel is 1-5: the fifth of its side's auto-deleveraging queue it
	// stands in (5: the first fifth, deleveraged first), as the price loop
	// ranked the side's positions last (every 5 s); 0 before any ranking.
	ADLLevel int `json:"adlLevel" doc:"1-5 (5: deleveraged first), 0 before the first ranking"`
}

// Assets is /position/get_assets_list.
type Assets struct {
	Accounts  []AccountView  `json:"accountList"`
	Positions []PositionView `json:"positionList"`
}

// Order sides, types and statuses.
const (
	Buy  = "BUY"
	Sell = "SELL"

	TypeLimit  = "LIMIT"
	TypeMarket = "MARKET"

	TIFGTC      = "GTC"
	TIFIOC      = "IOC"
	TIFFOK      = "FOK"
	TIFPostOnly = "POST_ONLY"

	StatusNew             = "NEW"
	StatusPartiallyFilled = "PARTIALLY_FILLED"
	StatusFilled          = "FILLED"
	StatusCanceled        = "CANCELED"
	StatusRejected        = "REJECTED"
)

// Order is a futures order.
type Order struct {
	OrderID       string `json:"orderId"`
	ClientOid     string `json:"clientOid"`
	Symbol        string `json:"symbol"`
	Side          string `json:"side"`
	Type          string `json:"type"`
	TimeInForce   string `json:"timeInForce"`
	Price         string `json:"price" doc:"empty for a market order"`
	Volume        int64  `json:"volume" doc:"contracts"`
	DealVolume    int64  `json:"dealVolume"`
	AvgPrice      string `json:"avgPrice"`
	Fee           string `json:"fee"`
	RealizedPnl   string `json:"realizedPnl"`
	ReduceOnly    bool   `json:"reduceOnly"`
	ClosePosition bool   `json:"closePosition"`
	PositionSide  string `json:"positionSide" doc:"BOTH (one-way mode), or in hedge mode the position it opens or closes: LONG or SHORT"`
	Liquidation   bool   `json:"liquidation" doc:"the exchange's liquidation order"`
	Status        string `json:"status"`
	Reason        string `json:"reason" doc:"why it ended when not filled: canceled, post_only, no_liquidity, fok, self_trade, liquidation"`
	Ctime         int64  `json:"ctime"`
	Mtime         int64  `json:"mtime"`
}

// OrderList is a page of orders.
type OrderList struct {
	Count int     `json:"count"`
	List  []Order `json:"orderList"`
}

// Trade is one fill of the caller's.
type Trade struct {
	TradeID     string `json:"tradeId"`
	OrderID     string `json:"orderId"`
	Symbol      string `json:"symbol"`
	Side        string `json:"side"`
	Price       string `json:"price"`
	Volume      int64  `json:"volume"`
	Fee         string `json:"fee"`
	RealizedPnl string `json:"realizedPnl"`
	Role        string `json:"role" doc:"MAKER or TAKER"`
	Liquidation bool   `json:"liquidation"`
	Ctime       int64  `json:"ctime"`
}

// TradeList is a page of fills.
type TradeList struct {
	Count int     `json:"count"`
	List  []Trade `json:"tradeList"`
}

// OrderDetail is /order/get_trade_info: an order with its fills.
type OrderDetail struct {
	Order  Order   `json:"order"`
	Trades []Trade `json:"tradeList"`
}

// Trigger order statuses.
const (
	TriggerWaiting   = "NOT_TRIGGERED"
	TriggerTriggered = "TRIGGERED"
	TriggerCanceled  = "CANCELED"
	TriggerFailed    = "FAILED"
)

// TriggerOrder is a stop or take-profit order waiting for its price.
type TriggerOrder struct {
	TriggerID string `json:"triggerId" doc:"also the id of the order it places"`
	Symbol    string `json:"symbol"`
	Side      string `json:"side"`
	Type      string `json:"type" doc:"LIMIT or MARKET: the order it places"`
	Price     string `json:"price" doc:"a limit order's"`
	Volume    int64  `json:"volume" doc:"contracts (0 with closePosition)"`
	// TriggerPrice is reached by the mark (MARK) or last (LAST) price
	// rising to it (RISE) or falling to it (FALL).
	TriggerPrice  string `json:"triggerPrice"`
	TriggerBy     string `json:"triggerBy" doc:"MARK or LAST"`
	Direction     string `json:"direction" doc:"RISE or FALL"`
	ClosePosition bool   `json:"closePosition" doc:"closes the whole position when it fires (TP/SL of the position)"`
	ReduceOnly    bool   `json:"reduceOnly"`
	PositionSide  string `json:"positionSide" doc:"BOTH, LONG or SHORT (see Order)"`
	// ParentOrderID: a TP/SL placed with an order waits for it to fill;
	// cancelled (reason order_canceled) if it ends unfilled.
	ParentOrderID string `json:"parentOrderId,omitempty"`
	Status        string `json:"status" doc:"NOT_TRIGGERED, TRIGGERED, CANCELED or FAILED"`
	Reason        string `json:"reason" doc:"why it failed: no_position, insufficient, reduce_only ..."`
	Ctime         int64  `json:"ctime"`
	Mtime         int64  `json:"mtime"`
}

// TriggerList is a page of trigger orders.
type TriggerList struct {
	Count int            `json:"count"`
	List  []TriggerOrder `json:"triggerList"`
}

// ClosedPosition is a position of the history: opened, then back to flat.
type ClosedPosition struct {
	Symbol       string `json:"symbol"`
	Side         string `json:"side" doc:"LONG or SHORT"`
	PositionSide string `json:"positionSide" doc:"BOTH (one-way mode), LONG or SHORT"`
	MaxVolume    int64  `json:"maxVolume" doc:"the largest size it had, in contracts"`
	OpenPrice    string `json:"openPrice" doc:"average entry"`
	ClosePrice   string `json:"closePrice" doc:"average exit"`
	// RealizedPnl is the PnL its closing realized (before fees); Fee what
	// its orders paid.
	RealizedPnl string `json:"realizedPnl"`
	Fee         string `json:"fee"`
	Liquidated  bool   `json:"liquidated" doc:"closed by a liquidation (or its take-over)"`
	OpenTime    int64  `json:"openTime"`
	CloseTime   int64  `json:"closeTime"`
}

// ClosedList is a page of closed positions.
type ClosedList struct {
	Count int              `json:"count"`
	List  []ClosedPosition `json:"positionList"`
}

// Statistics is /account_statistics: the caller's futures results over a
// period, in the margin coin.
type Statistics struct {
	Coin        string `json:"coin"`
	Days        int    `json:"days"`
	From        int64  `json:"from"`
	To          int64  `json:"to"`
	RealizedPnl string `json:"realizedPnl" doc:"of the fills in the period"`
	Fee         string `json:"fee"`
	Funding     string `json:"funding" doc:"received (positive) or paid"`
	NetPnl      string `json:"netPnl" doc:"realized − fees + funding"`
	Trades      int    `json:"trades" doc:"fills"`
	Volume      string `json:"volume" doc:"traded notional"`
}
