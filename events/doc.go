// Package events defines the versioned messages that cross process
// boundaries in Tenger: the order commands the trade API sends to the engine
// through the orders FIFO queue, the engine events (accepted, trade, done)
// the engine sends to settlement through the events FIFO queue, and the
// steps of the withdrawal workflow that Step Functions passes to the
// workflow function.
//
// Every message is an Envelope: a type, a schema version, an id that is also
// the queue's deduplication id (an order id for commands,
// "<symbol>:<seq>:<index>" for engine events), the correlation id of the
// request that caused it, and the payload. The payload vocabulary (sides, time in force, self-
// trade prevention, reasons) is the matching core's (internal/matching) in
// wire form. The JSON schemas under schemas/v1 describe the same
// shapes for readers outside Go; a test keeps them in step with these types.
//
// Amounts are decimal strings ("0.015", never floats); the engine converts
// them to int64 ticks and lots per symbol precision.
//
// Compatibility rule: a version only gains optional fields. Removing or
// changing a field makes a new version (schemas/v2, Version 2), and
// consumers accept every version still in flight.
package events

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Version is the schema version this package writes.
const Version = 1

// Message types.
const (
	TypeOrderPlace     = "order.place"
	TypeOrderCancel    = "order.cancel"
	TypeOrderCancelAll = "order.cancel_all"
	TypeOrderAmend     = "order.amend"
	TypeAccepted       = "engine.accepted"
	TypeRejected       = "engine.rejected"
	TypeTrade          = "engine.trade"
	TypeDone           = "engine.done"
	TypeAmended        = "engine.amended"
	TypeTriggered      = "engine.triggered"
)

// ErrInvalid wraps every validation error, so consumers can tell a poison
// message (send it to the dead-letter queue) from a transient failure.
var ErrInvalid = errors.New("events: invalid message")

// Envelope wraps every message.
type Envelope struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	// ID is unique per message and doubles as the FIFO deduplication id
	// (an order id for commands, "<symbol>:<seq>" for engine events).
	ID string `json:"id"`
	// CorrelationID ties the message to the HTTP request that caused it.
	CorrelationID string `json:"correlationId,omitempty"`
	// At is when the producer created the message, Unix milliseconds.
	At      int64           `json:"at"`
	Payload json.RawMessage `json:"payload"`
}

// Decode parses an envelope and checks its header; the payload is decoded
// with the type-specific functions.
func Decode(b []byte) (Envelope, error) {
	var e Envelope
	if err := json.Unmarshal(b, &e); err != nil {
		return Envelope{}, fmt.Errorf("%w: not a JSON envelope: %v", ErrInvalid, err)
	}
	switch {
	case e.Type == "":
		return Envelope{}, fmt.Errorf("%w: type is missing", ErrInvalid)
	case e.Version < 1 || e.Version > Version:
		return Envelope{}, fmt.Errorf("%w: version %d is not supported (1..%d)", ErrInvalid, e.Version, Version)
	case e.ID == "" || len(e.ID) > 128:
		return Envelope{}, fmt.Errorf("%w: id must be 1..128 characters", ErrInvalid)
	case len(e.Payload) == 0:
		return Envelope{}, fmt.Errorf("%w: payload is missing", ErrInvalid)
	}
	return e, nil
}

// Encode wraps a payload in an envelope of this package's version.
func Encode(typ, id, correlationID string, at int64, payload any) ([]byte, error) {
	p, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	return json.Marshal(Envelope{Type: typ, Version: Version, ID: id, CorrelationID: correlationID, At: at, Payload: p})
}

// decodeStrict decodes a payload refusing unknown fields, so a producer's
// typo is caught instead of silently dropped.
func decodeStrict(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytesReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: payload: %v", ErrInvalid, err)
	}
	return nil
}
