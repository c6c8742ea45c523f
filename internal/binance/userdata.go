package binance

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/deposit"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/spot"
	"tenger/internal/store"
	"tenger/internal/userfeed"
	"tenger/internal/wallet"
	"tenger/internal/withdraw"
)

// UserData turns the store's change feed into Binance's user data
// events for the users somebody listens to (a WebSocket API
// subscription, userDataStream.subscribe*, or a listen key's stream,
// /ws/<listenKey>). It is a userfeed.Sink: `tenger serve` runs a
// userfeed.Consumer over the embedded store's feed with it, which reads
// nothing while nobody listens.
//
// Events, as Binance's spot user data stream sends them:
//
//	executionReport          an order's change: NEW when it is placed, one
//	                         TRADE per fill (with the fill's trade id, price,
//	                         quantity, commission and maker flag, read from
//	                         the order's trade rows), CANCELED or EXPIRED when
//	                         it ends unfilled, REPLACED when its quantity is
//	                         amended, REJECTED when the engine refused it
//	outboundAccountPosition  a spot balance after a change (free, locked)
//	balanceUpdate            money in or out of the spot account other than
//	                         by trading: a deposit credited (+), a withdrawal
//	                         settled (−), a transfer to or from another
//	                         account (read from their records' changes)
//
// The order's fields are those of GET /api/v3/order (queriedOf), so a
// client that merges events into its order list keeps what REST shows.
type UserData struct {
	s  *Server
	ev *UserEvents

	mu    sync.Mutex
	subs  map[string]map[*userSub]struct{} // by user id
	count atomic.Int64
}

// userSub is one listener of a user's events.
type userSub struct {
	// deliver sends one event (the event object's JSON) and reports
	// false when the listener is gone.
	deliver func(event []byte) bool
	// valid reports whether the listener may still hear the user (its API
	// key still exists); checked before each delivery.
	valid func(ctx context.Context) bool
	// ended is told when valid said no (the listener is then dropped).
	ended func()
}

func newUserData(s *Server) *UserData {
	return &UserData{s: s, ev: NewUserEvents(s.mk, s.opts.Trading, s.log), subs: map[string]map[*userSub]struct{}{}}
}

// UserEvents builds the user data events of committed changes; UserData
// sends them to listeners in `tenger serve`, the stream function to the
// WebSocket API's subscribers in AWS.
type UserEvents struct {
	mk     *markets.Catalogue
	trades OrderTrades
	log    zerolog.Logger
}

// OrderTrades reads an order's fills (spot.Service), for TRADE reports.
type OrderTrades interface {
	OrderTrades(ctx context.Context, uid, orderID string) ([]spot.Trade, error)
}

// NewUserEvents returns the events builder.
func NewUserEvents(mk *markets.Catalogue, trades OrderTrades, log zerolog.Logger) *UserEvents {
	return &UserEvents{mk: mk, trades: trades, log: log}
}

// Of returns the user whose events a change may cause ("" none) and the
// builder of those events (each the event object's JSON; nil for a change
// Binance would not tell). The change is read once; the events, which may
// read the order's fills from the store, are built only when build is
// called, so a reader asks first whether anybody listens.
func (e *UserEvents) Of(ch store.Change) (user string, build func(ctx context.Context) [][]byte) {
	if user, _, _ = userfeed.Owner(ch); user != "" {
		return user, func(ctx context.Context) [][]byte { return e.events(ctx, ch) }
	}
	mover, ev, ok := balanceMove(ch)
	if !ok {
		return "", nil
	}
	return mover, func(context.Context) [][]byte { return marshalEvents(ev) }
}

// UserData is the server's user data events (nil without order entry).
func (s *Server) UserData() *UserData { return s.users }

// Watching implements userfeed.Sink.
func (u *UserData) Watching() bool { return u != nil && u.count.Load() > 0 }

// listen adds a listener of a user's events; the returned func removes it.
func (u *UserData) listen(user string, sub *userSub) (stop func()) {
	u.mu.Lock()
	defer u.mu.Unlock()
	set := u.subs[user]
	if set == nil {
		set = map[*userSub]struct{}{}
		u.subs[user] = set
	}
	set[sub] = struct{}{}
	u.count.Add(1)
	var once sync.Once
	return func() {
		once.Do(func() {
			u.mu.Lock()
			defer u.mu.Unlock()
			if set := u.subs[user]; set != nil {
				if _, ok := set[sub]; ok {
					delete(set, sub)
					u.count.Add(-1)
				}
				if len(set) == 0 {
					delete(u.subs, user)
				}
			}
		})
	}
}

func (u *UserData) listeners(user string) []*userSub {
	u.mu.Lock()
	defer u.mu.Unlock()
	set := u.subs[user]
	out := make([]*userSub, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	return out
}

// Change implements userfeed.Sink: the events of one committed change,
// sent to the user's listeners.
func (u *UserData) Change(ctx context.Context, ch store.Change) {
	user, build := u.ev.Of(ch)
	if user == "" {
		return
	}
	subs := u.listeners(user)
	if len(subs) == 0 {
		return
	}
	events := build(ctx)
	if len(events) == 0 {
		return
	}
	for _, sub := range subs {
		if !sub.valid(ctx) {
			sub.ended()
			continue
		}
		for _, ev := range events {
			if !sub.deliver(ev) {
				break
			}
		}
	}
}

// events builds a change's events (nil for a change Binance would not
// tell).
func (e *UserEvents) events(ctx context.Context, ch store.Change) [][]byte {
	if b, ok := userfeed.BalanceOf(ch); ok {
		if b.Account != string(ledger.Spot) {
			return nil
		}
		return marshalEvents(accountPosition{Event: "outboundAccountPosition", EventTime: ch.At, LastUpdate: ch.At,
			Balances: []positionBalance{{Asset: strings.ToUpper(b.Coin), Free: fixedString(b.Normal), Locked: fixedString(b.Lock)}}})
	}
	user, o, isOrder := userfeed.Owner(ch)
	if !isOrder || o.ID == "" {
		return nil
	}
	pair, ok := e.mk.Pair(o.Symbol)
	if !ok {
		return nil
	}
	event := userfeed.OrderEvent(ch)
	if event == "" {
		return nil
	}
	var out []any
	report := func(x string, cur spot.Order) executionReport {
		return newExecutionReport(pair, cur, x, ch.At)
	}
	prevDeal := decimal.Zero
	if event == userfeed.EventPlaced {
		if o.Status == spot.StatusRejected {
			r := report("REJECTED", o)
			r.RejectReason = strings.ToUpper(o.Reason)
			return marshalEvents(r)
		}
		// The order as it was placed: nothing filled yet.
		placed := o
		placed.Status, placed.DealVolume, placed.DealMoney, placed.Fee = spot.StatusNew, decimal.Zero, decimal.Zero, decimal.Zero
		placed.Reason = ""
		out = append(out, report("NEW", placed))
	} else if old, ok := spot.OrderFromItem(ch.Key, ch.Old); ok {
		prevDeal = old.DealVolume
	}
	if o.DealVolume.GreaterThan(prevDeal) {
		fills, err := e.fills(ctx, user, o, prevDeal)
		if err != nil {
			e.log.Warn().Err(err).Str("order", o.ID).Msg("binance: reading an order's fills for its executionReport")
		}
		for _, f := range fills {
			out = append(out, f)
		}
	}
	switch {
	case event == userfeed.EventAmended:
		out = append(out, report("REPLACED", o))
	case o.Status == spot.StatusCancelled && (event == userfeed.EventDone || event == userfeed.EventPlaced):
		x := orderStatus(o)
		if x == "EXPIRED_IN_MATCH" {
			x = "TRADE_PREVENTION"
		}
		out = append(out, report(x, o))
	case o.Status == spot.StatusRejected && event == userfeed.EventDone:
		r := report("REJECTED", o)
		r.RejectReason = strings.ToUpper(o.Reason)
		out = append(out, r)
	}
	return marshalEvents(out...)
}

// fills are the TRADE reports of an order's fills after the first
// prevDeal of its quantity, up to what the order now shows: its trade
// rows are written before the order (one projected batch), so they are
// there when the order's change is read.
func (e *UserEvents) fills(ctx context.Context, user string, o spot.Order, prevDeal decimal.Decimal) ([]executionReport, error) {
	trades, err := e.trades.OrderTrades(ctx, user, o.ID)
	if err != nil {
		return nil, err
	}
	pair, _ := e.mk.Pair(o.Symbol)
	var out []executionReport
	cum, cash := decimal.Zero, decimal.Zero
	for _, t := range trades {
		before := cum
		cum, cash = cum.Add(t.Volume), cash.Add(t.Money)
		if !before.GreaterThanOrEqual(prevDeal) || cum.GreaterThan(o.DealVolume) {
			continue
		}
		cur := o
		cur.DealVolume, cur.DealMoney = cum, cash
		if cum.LessThan(o.DealVolume) || o.Status != spot.StatusFilled {
			cur.Status, cur.Reason = spot.StatusPartiallyFilled, ""
		}
		r := newExecutionReport(pair, cur, "TRADE", t.At.UnixMilli())
		r.LastQty, r.LastPrice, r.LastQuote = fixed(t.Volume), fixed(t.Price), fixed(t.Money)
		asset := strings.ToUpper(t.FeeCoin)
		r.Commission, r.CommissionAsset = fixed(t.Fee), &asset
		r.TradeID, r.Maker, r.TransactTime = tradeNumber(t.TradeID), t.Role == "MAKER", t.At.UnixMilli()
		out = append(out, r)
	}
	return out, nil
}

// tradeNumber is a trade row's id ("BTCUSDT-42") as Binance's trade id.
func tradeNumber(id string) int64 {
	if i := strings.LastIndexByte(id, '-'); i >= 0 {
		id = id[i+1:]
	}
	return number(id)
}

// executionReport is Binance's order event, field for field.
type executionReport struct {
	Event             string  `json:"e"`
	EventTime         int64   `json:"E"`
	Symbol            string  `json:"s"`
	ClientOrderID     string  `json:"c"`
	Side              string  `json:"S"`
	Type              string  `json:"o"`
	TimeInForce       string  `json:"f"`
	Qty               string  `json:"q"`
	Price             string  `json:"p"`
	StopPrice         string  `json:"P"`
	IcebergQty        string  `json:"F"`
	OrderListID       int64   `json:"g"`
	OrigClientOrderID string  `json:"C"`
	ExecutionType     string  `json:"x"`
	Status            string  `json:"X"`
	RejectReason      string  `json:"r"`
	OrderID           int64   `json:"i"`
	LastQty           string  `json:"l"`
	CumQty            string  `json:"z"`
	LastPrice         string  `json:"L"`
	Commission        string  `json:"n"`
	CommissionAsset   *string `json:"N"` // null on reports without a fill
	TransactTime      int64   `json:"T"`
	TradeID           int64   `json:"t"`
	Ignore1           int64   `json:"I"`
	Working           bool    `json:"w"`
	Maker             bool    `json:"m"`
	Ignore2           bool    `json:"M"`
	CreatedAt         int64   `json:"O"`
	CumQuote          string  `json:"Z"`
	LastQuote         string  `json:"Y"`
	QuoteOrderQty     string  `json:"Q"`
	WorkingTime       int64   `json:"W"`
	STP               string  `json:"V"`
}

func newExecutionReport(pair markets.Pair, o spot.Order, x string, at int64) executionReport {
	q := queriedOf(pair, o)
	zero := fixed(decimal.Zero)
	r := executionReport{Event: "executionReport", EventTime: at, Symbol: q.Symbol, ClientOrderID: q.ClientOrderID,
		Side: q.Side, Type: q.Type, TimeInForce: q.TimeInForce, Qty: q.OrigQty, Price: q.Price, StopPrice: q.StopPrice,
		IcebergQty: zero, OrderListID: -1, ExecutionType: x, Status: q.Status, RejectReason: "NONE", OrderID: q.OrderID,
		LastQty: zero, CumQty: q.ExecutedQty, LastPrice: zero, Commission: zero, TransactTime: at, TradeID: -1,
		Working: q.IsWorking && o.Status != spot.StatusRejected, CreatedAt: q.Time, CumQuote: q.CummulativeQuoteQty,
		LastQuote: zero, QuoteOrderQty: q.OrigQuoteOrderQty, WorkingTime: q.WorkingTime, STP: q.SelfTradePreventionMode}
	if x == "CANCELED" {
		r.OrigClientOrderID = q.ClientOrderID
	}
	return r
}

// accountPosition is Binance's outboundAccountPosition.
type accountPosition struct {
	Event      string            `json:"e"`
	EventTime  int64             `json:"E"`
	LastUpdate int64             `json:"u"`
	Balances   []positionBalance `json:"B"`
}

type positionBalance struct {
	Asset  string `json:"a"`
	Free   string `json:"f"`
	Locked string `json:"l"`
}

// balanceUpdate is Binance's event for money that entered or left the
// spot account other than by trading: a deposit credited, a withdrawal
// settled, a transfer to or from another account.
type balanceUpdate struct {
	Event     string `json:"e"`
	EventTime int64  `json:"E"`
	Asset     string `json:"a"`
	Delta     string `json:"d"`
	ClearTime int64  `json:"T"`
}

// balanceMove reads a change that moved money into or out of a user's
// spot account from outside trading (the deposit, withdrawal and transfer
// records' own parsers say which).
func balanceMove(ch store.Change) (user string, ev balanceUpdate, ok bool) {
	ev = balanceUpdate{Event: "balanceUpdate", EventTime: ch.At, ClearTime: ch.At}
	if r, done := deposit.CreditedBy(ch); done {
		ev.Asset, ev.Delta = strings.ToUpper(r.Coin), fixed(r.Amount)
		if r.Credited > 0 {
			ev.ClearTime = r.Credited
		}
		return r.UID, ev, true
	}
	if r, done := withdraw.SettledBy(ch); done {
		ev.Asset, ev.Delta = strings.ToUpper(r.Coin), fixed(r.Amount.Neg())
		return r.UID, ev, true
	}
	if uid, r, done := wallet.TransferDoneBy(ch); done {
		amt, err := decimal.NewFromString(r.Amount)
		if err != nil || r.From != string(ledger.Spot) && r.To != string(ledger.Spot) || r.From == r.To {
			return "", ev, false
		}
		if r.From == string(ledger.Spot) {
			amt = amt.Neg()
		}
		ev.Asset, ev.Delta = strings.ToUpper(r.CoinSymbol), fixed(amt)
		return uid, ev, true
	}
	return "", ev, false
}

// eventStreamTerminated tells a listener that its stream ended (its key
// was deleted, or the WebSocket API session logged out).
type eventStreamTerminated struct {
	Event     string `json:"e"`
	EventTime int64  `json:"E"`
}

// StreamTerminated is the eventStreamTerminated event at now.
func StreamTerminated(now time.Time) []byte {
	b, _ := json.Marshal(eventStreamTerminated{Event: "eventStreamTerminated", EventTime: now.UnixMilli()})
	return b
}

// fixedString writes a decimal string with eight decimals.
func fixedString(s string) string {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return s
	}
	return fixed(d)
}

func marshalEvents(evs ...any) [][]byte {
	out := make([][]byte, 0, len(evs))
	for _, ev := range evs {
		if b, err := json.Marshal(ev); err == nil {
			out = append(out, b)
		}
	}
	return out
}

// ChangeKeyPrefixes are the partition key prefixes of every change a
// user's updates come from: orders, balances and futures positions, orders
// and trigger orders (the web app's private channels, userfeed) and the
// deposits, withdrawals and transfers that
// Binance's balanceUpdate tells. AWS filters the stream function's
// records with them, so it is not woken for anything else.
func ChangeKeyPrefixes() []string {
	return append([]string{spot.OrderKeyPrefix, userfeed.BalanceKeyPrefix, deposit.KeyPrefix, withdraw.KeyPrefix, wallet.KeyPrefix},
		userfeed.FuturesKeyPrefixes()...)
}
