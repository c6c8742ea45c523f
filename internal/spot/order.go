package spot

import (
	"hash/fnv"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/engine"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/store"
)

// Status is an order's state. The numbers are what the API returns in
// "status"; statusText gives the name.
type Status int

// Order statuses.
const (
	StatusNew             Status = 1
	StatusPartiallyFilled Status = 2
	StatusFilled          Status = 3
	StatusCancelled       Status = 4
	StatusRejected        Status = 5
)

// Text is the status name shown by the API.
func (s Status) Text() string {
	switch s {
	case StatusNew:
		return "NEW"
	case StatusPartiallyFilled:
		return "PARTIALLY_FILLED"
	case StatusFilled:
		return "FILLED"
	case StatusCancelled:
		return "CANCELLED"
	case StatusRejected:
		return "REJECTED"
	}
	return "UNKNOWN"
}

// Open reports whether the order can still trade.
func (s Status) Open() bool { return s == StatusNew || s == StatusPartiallyFilled }

// Order types accepted by the API.
const (
	TypeLimit     = "LIMIT"
	TypeMarket    = "MARKET"
	TypeFOK       = "FOK"
	TypeIOC       = "IOC"
	TypePostOnly  = "POST_ONLY"
	TypeStopLimit = "STOP_LIMIT"
)

// Order is one spot order as stored and shown.
type Order struct {
	ID          string
	UID         string
	Symbol      string
	Side        string // BUY or SELL
	Type        string
	Price       decimal.Decimal // limit price (0 for market)
	StopPrice   decimal.Decimal
	Volume      decimal.Decimal // base quantity ordered (0 for a market buy by quote)
	QuoteVolume decimal.Decimal // quote budget of a market buy
	DealVolume  decimal.Decimal // base executed
	DealMoney   decimal.Decimal // quote executed
	Fee         decimal.Decimal // fee charged, in FeeCoin (what the user receives)
	FeeCoin     string
	Status      Status
	// Reason is why a finished order ended, as the engine said it
	// (matching.Reason names: filled, cancelled, ioc_remainder,
	// fok_not_filled, post_only_would_take, below_min_notional, ...); empty
	// while it is open.
	Reason        string
	ClientOrderID string
	// Triggered is set once a stop order's stop was reached.
	Triggered bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// AvgPrice is the volume-weighted average execution price (0 before any fill).
func (o Order) AvgPrice(pricePrecision int32) decimal.Decimal {
	if o.DealVolume.IsZero() {
		return decimal.Zero
	}
	return o.DealMoney.DivRound(o.DealVolume, pricePrecision+4).Truncate(pricePrecision + 4)
}

// Trade is one fill as one side of it sees it.
type Trade struct {
	TradeID  string
	OrderID  string
	Symbol   string
	Side     string // this order's side
	Role     string // MAKER or TAKER
	Price    decimal.Decimal
	Volume   decimal.Decimal
	Money    decimal.Decimal // price × volume in the quote coin
	Fee      decimal.Decimal
	FeeCoin  string
	At       time.Time
	UID      string
	BaseCoin string
}

// Store layout (single table; see the package doc):
//
//	order       pk "SORD#<id>"  sk "O"   fields below; gsi1 "SORDU#<uid>" / "<created 13d>#<id>" (history);
//	                                      gsi2 "SOPEN#<uid>" / "<symbol>#<id>" while open
//	client id   pk "SCID#<uid>" sk "<clientOrderId>"   orderId, fp (the order's parameters, fingerprint)
//	trade row   pk "STRD#<orderId>" sk "<tradeId 20d>" gsi1 "STRDU#<uid>" / "<at 13d>#<symbol>#<tradeId 20d>"
//	volume      pk "SVOL#<uid>" sk "<yyyymmdd>#<shard>" the day's trade volume in USDT (tradeVolume), in up
//	                                                    to volumeShards items (tradeId mod volumeShards)
//	marks       pk "SBOOKM#<symbol>" sk "M"            seq, tradeId, price: the pair's last trade (the last
//	                                                    price stop orders are checked against at entry)
//
// attrTriggeredAt is set on a stop order when its stop is reached (Unix ms).
const attrTriggeredAt = "triggeredAt"

const (
	pkOrder    = "SORD#"
	skOrder    = "O"
	pkUserOrds = "SORDU#"
	pkOpen     = "SOPEN#"
	pkClientID = "SCID#"
	pkTrades   = "STRD#"
	pkUserTrds = "STRDU#"
	pkVolume   = "SVOL#"
	pkMarks    = "SBOOKM#"
	skMarks    = "M"
)

// OrderKeyPrefix starts the partition key of every order item.
const OrderKeyPrefix = pkOrder

func orderKey(id uint64) store.Key { return store.Key{PK: pkOrder + fmtID(id), SK: skOrder} }

// marksKey is the pair's marks item: its last trade (project.go).
func marksKey(symbol string) store.Key { return store.Key{PK: pkMarks + symbol, SK: skMarks} }

func fmtID(id uint64) string { return strconv.FormatUint(id, 10) }

// userNum is the user's number in the engine and its books.
func userNum(uid string) uint64 { return engine.UserNumber(uid) }

// symbolNum is a pair's stable numeric id in the engine and its journal: a
// hash of the symbol, so adding a pair to markets.json never renumbers the
// others (an index would, and would corrupt the journal's meaning).
func symbolNum(symbol string) uint32 { return SymbolNum(symbol) }

// SymbolNum is the engine's book id of a market symbol (a pair's, or a
// perpetual contract's market symbol).
func SymbolNum(symbol string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(symbol))
	v := h.Sum32()
	if v == 0 {
		v = 1
	}
	return v
}

// symbolConfig converts a catalogue pair into the matching core's rules.
func symbolConfig(p markets.Pair) matching.SymbolConfig {
	return matching.SymbolConfig{Symbol: p.Symbol, PriceTick: p.PriceTick, LotSize: p.LotSize,
		PricePrecision: p.PricePrecision, QtyPrecision: p.VolumePrecision, MinQty: p.MinQty, MinNotional: p.MinNotional}
}

func sideText(s matching.Side) string {
	if s == matching.Buy {
		return "BUY"
	}
	return "SELL"
}

func orderFromItem(it store.Item) Order {
	o := Order{
		ID: it.Str("id"), UID: it.Str("uid"), Symbol: it.Str("symbol"), Side: it.Str("side"), Type: it.Str("type"),
		Price: it.Dec("price"), StopPrice: it.Dec("stopPrice"), Volume: it.Dec("volume"), QuoteVolume: it.Dec("quoteVolume"),
		DealVolume: it.Dec("dealVolume"), DealMoney: it.Dec("dealMoney"), Fee: it.Dec("fee"), FeeCoin: it.Str("feeCoin"),
		Status: Status(it.Int("status")), Reason: it.Str("reason"), ClientOrderID: it.Str("clientOrderId"), Triggered: it.Has(attrTriggeredAt),
		CreatedAt: time.UnixMilli(it.Int("createdAt")).UTC(), UpdatedAt: time.UnixMilli(it.Int("updatedAt")).UTC(),
	}
	// The projection stores PARTIALLY_FILLED itself; items stored before it
	// (by a settlement that stored a trade and the order's end separately)
	// kept NEW through their fills: such an open order with a fill is
	// partially filled, and one whose fills reached its volume is filled.
	if o.Status == StatusNew && o.DealVolume.IsPositive() {
		o.Status = StatusPartiallyFilled
		if o.Volume.IsPositive() && o.DealVolume.GreaterThanOrEqual(o.Volume) {
			o.Status = StatusFilled
		}
	}
	return o
}

func tradeFromItem(it store.Item) Trade {
	return Trade{TradeID: it.Str("tradeId"), OrderID: it.Str("orderId"), Symbol: it.Str("symbol"), Side: it.Str("side"),
		Role: it.Str("role"), Price: it.Dec("price"), Volume: it.Dec("volume"), Money: it.Dec("money"), Fee: it.Dec("fee"),
		FeeCoin: it.Str("feeCoin"), At: time.UnixMilli(it.Int("at")).UTC(), UID: it.Str("uid")}
}
