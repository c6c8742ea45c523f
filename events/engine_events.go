package events

import "fmt"

// Reasons on done, rejected and amended events: the matching core's reason
// names (internal/matching Reason.String).
const (
	// Done reasons.
	ReasonFilled       = "filled"
	ReasonCancelled    = "cancelled"
	ReasonIOCRemainder = "ioc_remainder"
	ReasonFOKNotFilled = "fok_not_filled"
	ReasonSelfTrade    = "stp"
	ReasonDust         = "dust"
	// Reject reasons.
	ReasonUnknownOrder      = "unknown_order"
	ReasonDuplicateOrderID  = "duplicate_order_id"
	ReasonInvalidCommand    = "invalid_command"
	ReasonInvalidPrice      = "invalid_price"
	ReasonInvalidQty        = "invalid_qty"
	ReasonPriceOffTick      = "price_off_tick"
	ReasonQtyOffLot         = "qty_off_lot"
	ReasonBelowMinQty       = "below_min_qty"
	ReasonBelowMinNotional  = "below_min_notional"
	ReasonPostOnlyWouldTake = "post_only_would_take"
	ReasonStopWouldTrigger  = "stop_would_trigger"
	ReasonWrongSymbol       = "wrong_symbol"
)

var doneReasons = set(ReasonFilled, ReasonCancelled, ReasonIOCRemainder, ReasonFOKNotFilled, ReasonSelfTrade, ReasonDust)

var rejectReasons = set(ReasonUnknownOrder, ReasonDuplicateOrderID, ReasonInvalidCommand, ReasonInvalidPrice,
	ReasonInvalidQty, ReasonPriceOffTick, ReasonQtyOffLot, ReasonBelowMinQty, ReasonBelowMinNotional,
	ReasonPostOnlyWouldTake, ReasonStopWouldTrigger, ReasonWrongSymbol)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Every engine event carries the symbol and Seq, the engine's sequence
// number of the command that produced it (strictly increasing per book;
// the events of one command share it). The envelope id is
// "<symbol>:<seq>:<index of the event within the command>", unique and
// stable across a replay, so it is the FIFO deduplication id and settlement's
// idempotency key.

// Accepted says a place command passed the engine's checks.
type Accepted struct {
	Symbol  string `json:"symbol"`
	Seq     int64  `json:"seq"`
	OrderID string `json:"orderId"`
	UserID  string `json:"userId"`
	Side    string `json:"side"`
	Price   string `json:"price,omitempty"`  // limit price; empty for market
	Volume  string `json:"volume,omitempty"` // base quantity; empty for a market buy by funds
	Funds   string `json:"funds,omitempty"`  // quote budget of a market buy
}

// Rejected says a command was refused; nothing changed in the book and
// settlement releases what the command held.
type Rejected struct {
	Symbol  string `json:"symbol"`
	Seq     int64  `json:"seq"`
	OrderID string `json:"orderId"`
	UserID  string `json:"userId"`
	Reason  string `json:"reason"`
}

// Trade is one match between a resting (maker) and an incoming (taker)
// order, at the maker's price. Settlement applies it once, keyed by TradeID.
type Trade struct {
	Symbol       string `json:"symbol"`
	Seq          int64  `json:"seq"`
	TradeID      string `json:"tradeId"`
	Price        string `json:"price"`
	Volume       string `json:"volume"`
	Quote        string `json:"quote"` // price × volume
	TakerSide    string `json:"takerSide"`
	MakerOrderID string `json:"makerOrderId"`
	MakerUserID  string `json:"makerUserId"`
	TakerOrderID string `json:"takerOrderId"`
	TakerUserID  string `json:"takerUserId"`
}

// Done says an order left the book for good (or never entered it).
// Settlement takes what was spent from Filled and Quote and releases the
// rest of the hold.
type Done struct {
	Symbol    string `json:"symbol"`
	Seq       int64  `json:"seq"`
	OrderID   string `json:"orderId"`
	UserID    string `json:"userId"`
	Side      string `json:"side"`
	Reason    string `json:"reason"`
	Remaining string `json:"remaining"` // base volume left unexecuted
	Filled    string `json:"filled"`    // base volume executed over the order's life
	Quote     string `json:"quote"`     // quote executed over the order's life
}

// Amended says a resting order's price or remaining volume changed.
type Amended struct {
	Symbol    string `json:"symbol"`
	Seq       int64  `json:"seq"`
	OrderID   string `json:"orderId"`
	UserID    string `json:"userId"`
	Side      string `json:"side"`
	Price     string `json:"price"`
	Remaining string `json:"remaining"`
	// Reason is empty, or "stp" for a self-trade prevention decrement.
	Reason string `json:"reason,omitempty"`
}

// Triggered says a stop order's stop price was reached; it now works as a
// limit order.
type Triggered struct {
	Symbol  string `json:"symbol"`
	Seq     int64  `json:"seq"`
	OrderID string `json:"orderId"`
	UserID  string `json:"userId"`
	Side    string `json:"side"`
	Price   string `json:"price"`
	Volume  string `json:"volume"`
}

// DecodeAccepted decodes and validates an engine.accepted payload.
func DecodeAccepted(e Envelope) (Accepted, error) {
	var a Accepted
	if err := decodePayload(e, TypeAccepted, &a); err != nil {
		return a, err
	}
	return a, firstErr(
		validateRef(a.OrderID, a.UserID, a.Symbol), validSeq(a.Seq), validSide(a.Side),
		optionalPositive("price", a.Price), optionalPositive("volume", a.Volume), optionalPositive("funds", a.Funds),
		func() error {
			if a.Volume == "" && a.Funds == "" {
				return fmt.Errorf("%w: volume or funds is required", ErrInvalid)
			}
			return nil
		}(),
	)
}

// DecodeRejected decodes and validates an engine.rejected payload.
func DecodeRejected(e Envelope) (Rejected, error) {
	var r Rejected
	if err := decodePayload(e, TypeRejected, &r); err != nil {
		return r, err
	}
	return r, firstErr(validateRef(r.OrderID, r.UserID, r.Symbol), validSeq(r.Seq), reasonIn(r.Reason, rejectReasons))
}

// DecodeTrade decodes and validates an engine.trade payload.
func DecodeTrade(e Envelope) (Trade, error) {
	var t Trade
	if err := decodePayload(e, TypeTrade, &t); err != nil {
		return t, err
	}
	var idErr error
	if t.TradeID == "" || len(t.TradeID) > 64 {
		idErr = fmt.Errorf("%w: tradeId must be 1..64 characters", ErrInvalid)
	}
	return t, firstErr(idErr,
		validateRef(t.MakerOrderID, t.MakerUserID, t.Symbol), validateRef(t.TakerOrderID, t.TakerUserID, t.Symbol),
		validSeq(t.Seq), validSide(t.TakerSide),
		positive("price", t.Price), positive("volume", t.Volume), positive("quote", t.Quote))
}

// DecodeDone decodes and validates an engine.done payload.
func DecodeDone(e Envelope) (Done, error) {
	var d Done
	if err := decodePayload(e, TypeDone, &d); err != nil {
		return d, err
	}
	err := firstErr(validateRef(d.OrderID, d.UserID, d.Symbol), validSeq(d.Seq), validSide(d.Side),
		reasonIn(d.Reason, doneReasons),
		nonNegative("remaining", d.Remaining), nonNegative("filled", d.Filled), nonNegative("quote", d.Quote))
	if err == nil && d.Reason == ReasonFilled && !zero(d.Remaining) {
		err = fmt.Errorf("%w: a filled order has nothing remaining", ErrInvalid)
	}
	return d, err
}

// DecodeAmended decodes and validates an engine.amended payload.
func DecodeAmended(e Envelope) (Amended, error) {
	var a Amended
	if err := decodePayload(e, TypeAmended, &a); err != nil {
		return a, err
	}
	var reasonErr error
	if a.Reason != "" && a.Reason != ReasonSelfTrade {
		reasonErr = fmt.Errorf("%w: reason of an amendment is empty or stp", ErrInvalid)
	}
	return a, firstErr(validateRef(a.OrderID, a.UserID, a.Symbol), validSeq(a.Seq), validSide(a.Side),
		positive("price", a.Price), nonNegative("remaining", a.Remaining), reasonErr)
}

// DecodeTriggered decodes and validates an engine.triggered payload.
func DecodeTriggered(e Envelope) (Triggered, error) {
	var t Triggered
	if err := decodePayload(e, TypeTriggered, &t); err != nil {
		return t, err
	}
	return t, firstErr(validateRef(t.OrderID, t.UserID, t.Symbol), validSeq(t.Seq), validSide(t.Side),
		positive("price", t.Price), positive("volume", t.Volume))
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func optionalPositive(name, s string) error {
	if s == "" {
		return nil
	}
	return positive(name, s)
}

func zero(s string) bool {
	for _, c := range s {
		if c != '0' && c != '.' {
			return false
		}
	}
	return true
}

func reasonIn(r string, allowed map[string]bool) error {
	if !allowed[r] {
		return fmt.Errorf("%w: reason %q is not allowed here", ErrInvalid, r)
	}
	return nil
}

func validSeq(seq int64) error {
	if seq < 1 {
		return fmt.Errorf("%w: seq must be positive", ErrInvalid)
	}
	return nil
}
