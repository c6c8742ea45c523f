package events

import (
	"bytes"
	"fmt"
	"io"
	"regexp"

	"github.com/shopspring/decimal"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// Order sides, types, time-in-force values and self-trade prevention modes;
// the names of the matching core's enums (internal/matching) on the wire.
const (
	SideBuy  = "BUY"
	SideSell = "SELL"

	TypeLimit  = "LIMIT"
	TypeMarket = "MARKET"

	TIFGTC      = "GTC"       // rest until filled or cancelled
	TIFIOC      = "IOC"       // cancel the remainder
	TIFFOK      = "FOK"       // fill entirely or not at all
	TIFPostOnly = "POST_ONLY" // rest only, never take

	STPCancelTaker = "cancel_taker"
	STPCancelMaker = "cancel_maker"
	STPCancelBoth  = "cancel_both"
	STPDecrement   = "decrement"
)

var symbolRE = regexp.MustCompile(`^[a-z0-9]{2,20}$`)

// OrderPlace asks the engine to add an order to a book. The trade API has
// already held the funds and stored the order with status NEW in the same
// transaction, so the engine never checks balances.
type OrderPlace struct {
	OrderID string `json:"orderId"`
	UserID  string `json:"userId"`
	// Symbol is the market, lower case ("btcusdt"); it is also the FIFO
	// message group, so one book's commands stay in order.
	Symbol string `json:"symbol"`
	Side   string `json:"side"`
	Type   string `json:"type"`
	// Price is the limit price (decimal string); empty for market orders.
	Price string `json:"price,omitempty"`
	// Volume is the base quantity (decimal string). A market buy gives
	// either Volume or Funds.
	Volume string `json:"volume,omitempty"`
	// Funds is the quote budget of a market buy (decimal string).
	Funds string `json:"funds,omitempty"`
	// StopPrice makes a limit order a stop-limit order (decimal string).
	StopPrice string `json:"stopPrice,omitempty"`
	// TimeInForce defaults to GTC for limit and IOC for market orders.
	TimeInForce string `json:"timeInForce,omitempty"`
	// STP is the self-trade prevention mode; empty uses the book's default.
	STP string `json:"stp,omitempty"`
}

// OrderCancel asks the engine to remove an order from its book.
type OrderCancel struct {
	OrderID string `json:"orderId"`
	UserID  string `json:"userId"`
	Symbol  string `json:"symbol"`
}

// OrderCancelAll asks one book to remove every order of a user. A cancel of
// several books is one message per book, so each stays in its book's order.
type OrderCancelAll struct {
	UserID string `json:"userId"`
	Symbol string `json:"symbol"`
}

// OrderAmend changes a resting order: a new price (empty keeps it) and the
// new remaining volume. Same price and less volume keeps the queue place.
type OrderAmend struct {
	OrderID string `json:"orderId"`
	UserID  string `json:"userId"`
	Symbol  string `json:"symbol"`
	Price   string `json:"price,omitempty"`
	Volume  string `json:"volume"`
}

// DecodeOrderPlace decodes and validates an order.place payload.
func DecodeOrderPlace(e Envelope) (OrderPlace, error) {
	var o OrderPlace
	if err := decodePayload(e, TypeOrderPlace, &o); err != nil {
		return o, err
	}
	return o, o.Validate()
}

// DecodeOrderCancel decodes and validates an order.cancel payload.
func DecodeOrderCancel(e Envelope) (OrderCancel, error) {
	var o OrderCancel
	if err := decodePayload(e, TypeOrderCancel, &o); err != nil {
		return o, err
	}
	return o, validateRef(o.OrderID, o.UserID, o.Symbol)
}

// DecodeOrderCancelAll decodes and validates an order.cancel_all payload.
func DecodeOrderCancelAll(e Envelope) (OrderCancelAll, error) {
	var o OrderCancelAll
	if err := decodePayload(e, TypeOrderCancelAll, &o); err != nil {
		return o, err
	}
	return o, validateRef("-", o.UserID, o.Symbol)
}

// DecodeOrderAmend decodes and validates an order.amend payload.
func DecodeOrderAmend(e Envelope) (OrderAmend, error) {
	var o OrderAmend
	if err := decodePayload(e, TypeOrderAmend, &o); err != nil {
		return o, err
	}
	if err := validateRef(o.OrderID, o.UserID, o.Symbol); err != nil {
		return o, err
	}
	if o.Price != "" {
		if err := positive("price", o.Price); err != nil {
			return o, err
		}
	}
	return o, positive("volume", o.Volume)
}

func decodePayload(e Envelope, typ string, v any) error {
	if e.Type != typ {
		return fmt.Errorf("%w: type %q is not %s", ErrInvalid, e.Type, typ)
	}
	return decodeStrict(e.Payload, v)
}

func validateRef(orderID, userID, symbol string) error {
	switch {
	case orderID == "" || len(orderID) > 64:
		return fmt.Errorf("%w: orderId must be 1..64 characters", ErrInvalid)
	case userID == "" || len(userID) > 64:
		return fmt.Errorf("%w: userId must be 1..64 characters", ErrInvalid)
	case !symbolRE.MatchString(symbol):
		return fmt.Errorf("%w: symbol %q is not a lower-case market name", ErrInvalid, symbol)
	}
	return nil
}

func validSide(s string) error {
	if s != SideBuy && s != SideSell {
		return fmt.Errorf("%w: side must be BUY or SELL", ErrInvalid)
	}
	return nil
}

// Validate checks an order command the way the engine relies on: it is the
// last gate before an order enters a book. The rules are the matching core's
// (market orders are IOC, post-only and stops are for limit orders, a quote
// budget is for market buys); tick and lot grids are the engine's to check,
// since they depend on the symbol.
func (o OrderPlace) Validate() error {
	if err := validateRef(o.OrderID, o.UserID, o.Symbol); err != nil {
		return err
	}
	if err := validSide(o.Side); err != nil {
		return err
	}
	switch o.STP {
	case "", STPCancelTaker, STPCancelMaker, STPCancelBoth, STPDecrement:
	default:
		return fmt.Errorf("%w: stp %q is unknown", ErrInvalid, o.STP)
	}
	switch o.Type {
	case TypeLimit:
		switch o.TimeInForce {
		case "", TIFGTC, TIFIOC, TIFFOK, TIFPostOnly:
		default:
			return fmt.Errorf("%w: timeInForce must be GTC, IOC, FOK or POST_ONLY", ErrInvalid)
		}
		if err := positive("price", o.Price); err != nil {
			return err
		}
		if o.StopPrice != "" {
			if err := positive("stopPrice", o.StopPrice); err != nil {
				return err
			}
			if o.TimeInForce == TIFPostOnly {
				return fmt.Errorf("%w: a stop order cannot be post-only", ErrInvalid)
			}
		}
		if o.Funds != "" {
			return fmt.Errorf("%w: funds is only for market buys", ErrInvalid)
		}
		return positive("volume", o.Volume)
	case TypeMarket:
		if o.TimeInForce != "" && o.TimeInForce != TIFIOC {
			return fmt.Errorf("%w: a market order is IOC", ErrInvalid)
		}
		if o.Price != "" || o.StopPrice != "" {
			return fmt.Errorf("%w: a market order has no price or stop price", ErrInvalid)
		}
		switch {
		case o.Funds != "" && o.Volume == "":
			if o.Side != SideBuy {
				return fmt.Errorf("%w: funds is only for market buys", ErrInvalid)
			}
			return positive("funds", o.Funds)
		case o.Funds == "":
			return positive("volume", o.Volume)
		default:
			return fmt.Errorf("%w: give volume, or funds for a market buy, not both", ErrInvalid)
		}
	default:
		return fmt.Errorf("%w: type must be LIMIT or MARKET", ErrInvalid)
	}
}

// positive checks a decimal string field: a plain decimal (no sign, no
// exponent, at most 18 fractional digits) greater than zero.
func positive(name, s string) error {
	if err := nonNegative(name, s); err != nil {
		return err
	}
	if d, _ := decimal.NewFromString(s); !d.IsPositive() {
		return fmt.Errorf("%w: %s must be greater than zero", ErrInvalid, name)
	}
	return nil
}

// nonNegative checks a decimal string field that may be zero.
func nonNegative(name, s string) error {
	if s == "" {
		return fmt.Errorf("%w: %s is required", ErrInvalid, name)
	}
	if !decimalRE.MatchString(s) {
		return fmt.Errorf("%w: %s %q is not a decimal string", ErrInvalid, name, s)
	}
	return nil
}

var decimalRE = regexp.MustCompile(`^[0-9]{1,30}(\.[0-9]{1,18})?$`)
