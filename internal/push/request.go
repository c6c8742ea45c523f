package push

import (
	"context"
	"encoding/json"

	"tenger/internal/apperr"
)

// Request is one request frame of a connection, as an adapter hands it to
// its RequestFunc: order entry on the socket that carries market data, in
// the manner of Binance's WebSocket API. Clients send
//
//	{"id":"c1","method":"order.place","params":{...},"lang":"mn_MN"}
//
// and get one answer frame echoing the id (see httpapi.WSAnswer). Many
// requests of one connection may be in flight at once and their answers
// come back as they finish, not in the order sent: the hub runs each on its
// own goroutine, up to MaxInFlight per connection; in AWS each frame is an
// invocation of the ws function, counted on the connection's item.
type Request struct {
	// ID is the client's id as the answer echoes it (null when the frame
	// had no valid id).
	ID     json.RawMessage
	Method string
	// Params is a JSON object ({} when the frame had none).
	Params json.RawMessage
	// Lang is the answer's language (exchange-language's values).
	Lang string
	// UserID and SessionID are the connection's binding by an auth frame;
	// "" when it has none: the request is then refused as not signed in.
	UserID, SessionID string
	// Refused, when not nil, is the catalogue error (internal/apperr) the
	// request is answered with instead of being run: its frame is bad (410
	// naming what), or the connection has MaxInFlight requests running
	// (apperr.CodeTooManyInFlight).
	Refused error
}

// RequestFunc runs a request (or answers its refusal) and returns its
// answer frame. It must not panic for any input; the adapters recover
// anyway and answer CodeInternal.
type RequestFunc func(ctx context.Context, r Request) []byte

// RequestOf is the request of a request frame: f and perr are what
// ParseFrame returned; a bad frame is refused with 410 naming what is wrong.
func RequestOf(f Frame, perr error) Request {
	r := Request{ID: f.ID, Method: f.Method, Params: f.Params, Lang: f.Lang}
	if perr != nil {
		r.Refused = apperr.Param(invalidDetail(perr))
	}
	return r
}

// TooManyInFlight is the refusal of a request beyond max in flight.
func TooManyInFlight(max int) error { return apperr.New(apperr.CodeTooManyInFlight, max) }

// ServeRequest runs rf for r and recovers a panic, answering it as
// CodeInternal (logged by the caller through the returned value).
func ServeRequest(ctx context.Context, rf RequestFunc, r Request) (answer []byte, panicked any) {
	func() {
		defer func() { panicked = recover() }()
		answer = rf(ctx, r)
	}()
	if panicked == nil {
		return answer, nil
	}
	r.Refused = apperr.New(apperr.CodeInternal)
	func() {
		defer func() { _ = recover() }()
		answer = rf(ctx, r)
	}()
	return answer, panicked
}
