package matching

import "math"

// Side is the side of an order.
type Side uint8

// Sides. The zero value is invalid so that a forgotten field is caught.
const (
	Buy  Side = 1
	Sell Side = 2
)

func (s Side) String() string {
	switch s {
	case Buy:
		return "buy"
	case Sell:
		return "sell"
	}
	return "invalid_side"
}

// OrderType is limit or market.
type OrderType uint8

// Order types.
const (
	Limit  OrderType = 1
	Market OrderType = 2
)

func (t OrderType) String() string {
	switch t {
	case Limit:
		return "limit"
	case Market:
		return "market"
	}
	return "invalid_type"
}

// TimeInForce says what happens to the part of an order that does not fill
// at once.
type TimeInForce uint8

// Time-in-force values.
const (
	GTC      TimeInForce = 1 // rest until filled or cancelled
	IOC      TimeInForce = 2 // cancel the remainder
	FOK      TimeInForce = 3 // fill entirely or not at all
	PostOnly TimeInForce = 4 // rest only, never take
)

func (t TimeInForce) String() string {
	switch t {
	case GTC:
		return "gtc"
	case IOC:
		return "ioc"
	case FOK:
		return "fok"
	case PostOnly:
		return "post_only"
	}
	return "invalid_tif"
}

// STPMode is a self-trade prevention mode: what happens when a taker would
// trade with a resting order of the same user.
type STPMode uint8

// STP modes. STPDefault means "use the book's default" (which itself
// defaults to STPCancelTaker).
const (
	STPDefault     STPMode = 0
	STPCancelTaker STPMode = 1 // the taker's remainder is cancelled
	STPCancelMaker STPMode = 2 // the resting order is cancelled, matching goes on
	STPCancelBoth  STPMode = 3
	// STPDecrement decrements both by the smaller quantity and cancels the
	// smaller one (both when equal). Orders with a quote budget cannot be
	// decremented in lots, so for them it behaves as STPCancelTaker.
	STPDecrement STPMode = 4
)

// ParseSTP reads an explicit mode by its String name (cancel_taker,
// cancel_maker, cancel_both, decrement); "default" and anything else are
// refused.
func ParseSTP(s string) (STPMode, bool) {
	for m := STPCancelTaker; m <= STPDecrement; m++ {
		if s == m.String() {
			return m, true
		}
	}
	return STPDefault, false
}

func (m STPMode) String() string {
	switch m {
	case STPDefault:
		return "default"
	case STPCancelTaker:
		return "cancel_taker"
	case STPCancelMaker:
		return "cancel_maker"
	case STPCancelBoth:
		return "cancel_both"
	case STPDecrement:
		return "decrement"
	}
	return "invalid_stp"
}

// CommandKind is what a command asks for.
type CommandKind uint8

// Command kinds.
const (
	CmdPlace     CommandKind = 1
	CmdCancel    CommandKind = 2
	CmdCancelAll CommandKind = 3 // all orders of UserID (Symbol 0 = every book) with ids below OrderID (0 = all)
	CmdAmend     CommandKind = 4 // new price (0 = keep) and new remaining quantity
)

func (k CommandKind) String() string {
	switch k {
	case CmdPlace:
		return "place"
	case CmdCancel:
		return "cancel"
	case CmdCancelAll:
		return "cancel_all"
	case CmdAmend:
		return "amend"
	}
	return "invalid_kind"
}

// Command is one instruction to a book. It is a flat value (no pointers) so
// that it can be journalled with a fixed binary encoding (see
// EncodeCommand) and passed around without allocating.
type Command struct {
	// Seq is assigned by the engine process, strictly increasing per book
	// (a single global sequence across books is fine). A book ignores a
	// command whose Seq is not above the last one it applied, so replaying
	// an overlapping journal is harmless.
	Seq     uint64
	OrderID uint64 // non-zero; unique among the book's live orders
	UserID  uint64
	// Price is the limit price in ticks (Place, limit), or the new price
	// (Amend; 0 keeps the price). Market orders have Price 0.
	Price int64
	// Qty is the quantity in lots (Place), or the new remaining quantity
	// (Amend).
	Qty int64
	// Quote is the quote budget of a market buy, in quote units (price
	// tick × lot size): with Qty 0 the order spends it (a buy by quote
	// amount); with Qty > 0 it buys Qty lots spending at most Quote (a buy
	// by quantity, capped by the funds held for it).
	Quote int64
	// StopPrice (ticks) makes a limit order a stop-limit order.
	StopPrice int64
	Symbol    uint32 // 0 = whatever book receives it
	// Tag is an opaque value the engine attaches to a new order (Place):
	// the book keeps it with the order and reports it in the order's
	// events (Event.Tag, Event.MakerTag), so a later stage finds its own
	// record of the order without a lookup (the risk stage's hold). It is
	// derived state, set again when a journal is replayed, and not encoded
	// in the journal (EncodeCommand).
	Tag  int32
	Kind CommandKind
	Side Side
	Type OrderType
	TIF  TimeInForce
	STP  STPMode
}

// EventKind is the kind of an Event.
type EventKind uint8

// Event kinds.
const (
	EvAccepted  EventKind = 1 // a Place passed validation
	EvRejected  EventKind = 2 // a command was refused; Reason says why; nothing changed
	EvTrade     EventKind = 3
	EvDone      EventKind = 4 // an order left the book (or never entered it) for good
	EvAmended   EventKind = 5 // an order's price or remaining quantity changed
	EvTriggered EventKind = 6 // a stop order's stop was reached; it now behaves as a limit order
)

func (k EventKind) String() string {
	switch k {
	case EvAccepted:
		return "accepted"
	case EvRejected:
		return "rejected"
	case EvTrade:
		return "trade"
	case EvDone:
		return "done"
	case EvAmended:
		return "amended"
	case EvTriggered:
		return "triggered"
	}
	return "invalid_event"
}

// Reason explains a Rejected, Done or Amended event.
type Reason uint8

// Reasons. The Done reasons come first, then the reject reasons.
const (
	ReasonNone Reason = iota
	// Done reasons.
	ReasonFilled       // fully executed (or a market budget is spent down to less than one lot)
	ReasonCancelled    // by Cancel or CancelAll
	ReasonIOCRemainder // IOC or market remainder that found no more liquidity
	ReasonFOKNotFilled // FOK that could not fill entirely; nothing traded
	ReasonSelfTrade    // self-trade prevention (also on Amended for a decrement)
	ReasonDust         // remainder below the minimum quantity, or a budget below one lot
	// Reject reasons.
	ReasonUnknownOrder      // no live order with this id for this user
	ReasonDuplicateOrderID  // a live order already has this id
	ReasonInvalidCommand    // malformed: bad enum, missing or contradictory fields
	ReasonInvalidPrice      // price or stop price out of range
	ReasonInvalidQty        // quantity or budget out of range
	ReasonPriceOffTick      // decimal price not on the tick grid (raised by the decoder)
	ReasonQtyOffLot         // decimal quantity not on the lot grid (raised by the decoder)
	ReasonBelowMinQty       // quantity below the symbol's minimum
	ReasonBelowMinNotional  // price × quantity (or budget) below the symbol's minimum
	ReasonPostOnlyWouldTake // a post-only order (or its amendment) would cross
	ReasonStopWouldTrigger  // the stop is already reached by the last price
	ReasonWrongSymbol       // the command names another book
	ReasonQuoteOffGrid      // decimal quote amount not on the tick × lot grid (raised by the decoder)
	ReasonTooLarge          // a decimal value beyond the engine's int64 units (raised by the decoder)
	reasonCount             // keep last
)

var reasonNames = [reasonCount]string{
	ReasonNone:              "none",
	ReasonFilled:            "filled",
	ReasonCancelled:         "cancelled",
	ReasonIOCRemainder:      "ioc_remainder",
	ReasonFOKNotFilled:      "fok_not_filled",
	ReasonSelfTrade:         "stp",
	ReasonDust:              "dust",
	ReasonUnknownOrder:      "unknown_order",
	ReasonDuplicateOrderID:  "duplicate_order_id",
	ReasonInvalidCommand:    "invalid_command",
	ReasonInvalidPrice:      "invalid_price",
	ReasonInvalidQty:        "invalid_qty",
	ReasonPriceOffTick:      "price_off_tick",
	ReasonQtyOffLot:         "qty_off_lot",
	ReasonBelowMinQty:       "below_min_qty",
	ReasonBelowMinNotional:  "below_min_notional",
	ReasonPostOnlyWouldTake: "post_only_would_take",
	ReasonStopWouldTrigger:  "stop_would_trigger",
	ReasonWrongSymbol:       "wrong_symbol",
	ReasonQuoteOffGrid:      "quote_off_grid",
	ReasonTooLarge:          "too_large",
}

func (r Reason) String() string {
	if r < reasonCount {
		return reasonNames[r]
	}
	return "invalid_reason"
}

// Event is one outcome of a command. All events of a command carry its Seq.
//
// Field meaning by kind:
//
//	Accepted:  OrderID, UserID, Side, Price (limit; 0 for market), Qty, Quote (budget)
//	Rejected:  OrderID, UserID, Reason
//	Trade:     TradeID, OrderID/UserID (taker), MakerOrderID/MakerUserID,
//	           Side (taker side), Price (maker's price), Qty, Quote (= Price × Qty)
//	Done:      OrderID, UserID, Side, Price, Reason, Qty (lots left unexecuted),
//	           Filled (lots executed over the order's life), Quote (quote executed)
//	Amended:   OrderID, UserID, Side, Price (new), Qty (new remaining), Reason
//	           (None, or SelfTrade for an STP decrement of a resting order)
//	Triggered: OrderID, UserID, Side, Price (limit), Qty
//
// Every event of an order carries its Tag; a Trade also the MakerTag.
//
// Settlement should take what was spent from Filled and Quote and release
// the rest of the hold: quantities removed by an STP decrement appear in no
// Trade.
type Event struct {
	Seq          uint64
	TradeID      uint64
	OrderID      uint64
	UserID       uint64
	MakerOrderID uint64
	MakerUserID  uint64
	Price        int64
	Qty          int64
	Quote        int64
	Filled       int64
	Symbol       uint32
	// Tag is the order's Command.Tag (the taker's for a Trade; a rejected
	// Place carries the command's); MakerTag the maker's on a Trade.
	Tag      int32
	MakerTag int32
	Kind     EventKind
	Reason   Reason
	Side     Side
}

// Sink receives events. Emit must copy what it needs before returning: the
// pointer refers to the book's scratch event and is overwritten by the next
// event. Emit is called on the engine's single thread and must not call
// back into the book.
type Sink interface {
	Emit(e *Event)
}

// EventBuffer is a Sink that appends events to a reusable slice. Reset it
// (Reset keeps the capacity) after the caller has consumed the events of a
// command or batch; in steady state it does not allocate.
type EventBuffer struct {
	Events []Event
}

// NewEventBuffer returns a buffer with room for n events.
func NewEventBuffer(n int) *EventBuffer { return &EventBuffer{Events: make([]Event, 0, n)} }

// Emit implements Sink.
func (b *EventBuffer) Emit(e *Event) { b.Events = append(b.Events, *e) }

// Reset empties the buffer, keeping its capacity.
func (b *EventBuffer) Reset() { b.Events = b.Events[:0] }

// EventRing is a fixed-size ring buffer Sink for a consumer that keeps up
// (or does not care about old events, as in benchmarks): when full, the
// oldest event is overwritten and Dropped counts it.
type EventRing struct {
	buf     []Event
	mask    uint64
	head    uint64 // next to read
	tail    uint64 // next to write
	Dropped uint64
}

// NewEventRing returns a ring with room for at least n events (rounded up to
// a power of two).
func NewEventRing(n int) *EventRing {
	size := 1
	for size < n {
		size <<= 1
	}
	return &EventRing{buf: make([]Event, size), mask: uint64(size - 1)}
}

// Emit implements Sink.
func (r *EventRing) Emit(e *Event) {
	r.buf[r.tail&r.mask] = *e
	r.commit()
}

// commit publishes the slot at tail (already written), dropping the oldest
// unread event when the ring is full. A Book writes events in place and
// then commits them.
func (r *EventRing) commit() {
	if r.tail-r.head == uint64(len(r.buf)) {
		r.head++
		r.Dropped++
	}
	r.tail++
}

// Len returns the number of unread events.
func (r *EventRing) Len() int { return int(r.tail - r.head) }

// Pop removes and returns the oldest unread event.
func (r *EventRing) Pop() (Event, bool) {
	if r.head == r.tail {
		return Event{}, false
	}
	e := r.buf[r.head&r.mask]
	r.head++
	return e, true
}

// Limits that keep every product and sum of the book inside int64.
const (
	// DefaultMaxPrice is the default largest price in ticks.
	DefaultMaxPrice int64 = 1 << 31
	// DefaultMaxQty is the default largest quantity in lots.
	DefaultMaxQty int64 = 1 << 31
)

// BookConfig is a book's configuration in engine units. Build it from a
// SymbolConfig with SymbolConfig.BookConfig.
type BookConfig struct {
	Symbol      uint32
	MinQty      int64 // lots; values below 1 mean 1
	MinNotional int64 // quote units (ticks × lots)
	// MaxPrice and MaxQty bound prices and quantities (0 = defaults). Their
	// product must fit in int64 so that no notional, sum or budget overflows.
	MaxPrice   int64
	MaxQty     int64
	DefaultSTP STPMode // STPDefault means STPCancelTaker
	// Capacity hints: live orders and price levels to preallocate. The
	// book grows past them (allocating) when needed, and never shrinks, so
	// steady state does not allocate. Size them near the expected peak:
	// a much larger hint spreads the hash tables over more memory than the
	// caches hold, which costs more than the occasional growth.
	InitialOrders int
	InitialLevels int
}

func (c *BookConfig) normalise() {
	if c.MinQty < 1 {
		c.MinQty = 1
	}
	if c.MinNotional < 0 {
		c.MinNotional = 0
	}
	if c.MaxPrice <= 0 {
		c.MaxPrice = DefaultMaxPrice
	}
	if c.MaxQty <= 0 {
		c.MaxQty = DefaultMaxQty
	}
	if c.MaxQty > math.MaxInt64/c.MaxPrice {
		// Keep the product inside int64 by lowering the quantity bound.
		c.MaxQty = math.MaxInt64 / c.MaxPrice
	}
	if c.DefaultSTP == STPDefault || c.DefaultSTP > STPDecrement {
		c.DefaultSTP = STPCancelTaker
	}
	if c.InitialOrders <= 0 {
		c.InitialOrders = 1024
	}
	if c.InitialLevels <= 0 {
		c.InitialLevels = 256
	}
}
