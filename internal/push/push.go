// Package push is the realtime fan-out port of Tenger: WebSocket connections
// subscribe to channels (market tickers, depth, trades) and may be bound to a
// user (private order and balance updates); publishers send to a channel, a
// user or one connection.
//
// Two adapters implement Pusher: push/hub, an in-process hub serving /ws for
// the local binary, and push/apigw, which keeps connections in the store and
// delivers through the API Gateway management API for the AWS runtime. Both
// answer client frames with the same HandleFrame, and both pass the contract
// suite in push/pushtest.
//
// Wire format. Clients send JSON text frames:
//
//	{"event":"sub","params":{"channel":"market_btcusdt_ticker"}}
//	{"event":"unsub","params":{"channel":"market_btcusdt_ticker"}}
//	{"event":"auth","params":{"token":"<session token>"}}
//	{"ping":1712345678901}   or   {"event":"ping"}
//
// and receive {"pong":n} for pings, {"event_rep":...,"status":"ok"|"error"}
// for the others, and pushed messages {"channel":...,"ts":...,"data"|"tick":...}
// built with Data or Tick.
//
// Requests. A frame {"id":...,"method":...,"params":{...}} is a request
// (order entry: order.place, order.cancel, order.amend, order.cancelAll),
// answered by one frame {"id","status","code","msg","data"} that echoes its
// id; a connection may have up to MaxInFlight of them running, answered in
// the order they finish. The adapters take the methods as a RequestFunc
// (httpapi.WSOrderEntry), so this package knows no method (request.go).
//
// Private channels. A connection that sent an accepted auth frame is bound
// to its user and from then on receives that user's private messages
// (PublishUser): user_orders and user_balances (internal/userfeed), deposit
// and withdraw. They need no sub frame, and a sub frame for a name starting
// with PrivateChannelPrefix is refused, so nobody can listen to them
// without the user's session.
package push

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Errors returned by every adapter. Callers test them with errors.Is.
var (
	// ErrGone: the connection does not exist (any more); its state has been
	// removed.
	ErrGone = errors.New("push: connection gone")
	// ErrInvalid: a malformed channel, connection id or frame.
	ErrInvalid = errors.New("push: invalid request")
	// ErrClosed: the adapter was shut down.
	ErrClosed = errors.New("push: closed")
)

// Pusher is the port.
type Pusher interface {
	// Subscribe adds the connection to a channel. Subscribing twice is a no-op.
	Subscribe(ctx context.Context, connID, channel string) error
	// Unsubscribe removes the connection from a channel.
	Unsubscribe(ctx context.Context, connID, channel string) error
	// Bind ties the connection to a user, for PublishUser, and remembers
	// the session that authenticated it (its id, never its token; "" when
	// there is none) for DisconnectUser.
	Bind(ctx context.Context, connID, userID, sessionID string) error
	// Disconnect closes the connection (if it is still open) and forgets its
	// subscriptions and binding. Disconnecting an unknown connection is not
	// an error.
	Disconnect(ctx context.Context, connID string) error
	// DisconnectUser closes the connections bound to userID by a session
	// for which ended returns true (every connection of the user when ended
	// is nil) and forgets their subscriptions and bindings, so a revoked
	// session's sockets stop receiving the user's private messages while
	// the user's other sessions keep theirs. A user without connections is
	// not an error.
	DisconnectUser(ctx context.Context, userID string, ended func(sessionID string) bool) error
	// SendTo sends one text message to one connection. It returns ErrGone
	// when the connection is gone (and removes what was left of it).
	SendTo(ctx context.Context, connID string, msg []byte) error
	// Publish sends msg to every subscriber of channel and returns how many
	// connections it was handed to. Connections found gone are removed.
	Publish(ctx context.Context, channel string, msg []byte) (delivered int, err error)
	// PublishUser sends msg to every connection bound to userID.
	PublishUser(ctx context.Context, userID string, msg []byte) (delivered int, err error)
}

// AuthFunc resolves a session token sent in an auth frame to a user id and
// the session's id (a value that names the session without granting it,
// such as a hash of the token). It must not log the token.
type AuthFunc func(ctx context.Context, token string) (userID, sessionID string, ok bool)

// PrivateChannelPrefix starts the names of the channels delivered to bound
// connections only; HandleFrame refuses to subscribe to them.
const PrivateChannelPrefix = "user_"

// MaxChannelLen bounds channel names (and user and connection ids).
const MaxChannelLen = 128

// ValidateChannel checks a channel name: 1..MaxChannelLen printable ASCII
// characters without spaces or quotes, so it can also be part of a store key.
func ValidateChannel(ch string) error {
	if ch == "" || len(ch) > MaxChannelLen {
		return fmt.Errorf("%w: channel must be 1..%d characters", ErrInvalid, MaxChannelLen)
	}
	for i := 0; i < len(ch); i++ {
		c := ch[i]
		if c <= ' ' || c > '~' || c == '"' || c == '#' || c == '\\' {
			return fmt.Errorf("%w: channel %q has a forbidden character", ErrInvalid, ch)
		}
	}
	return nil
}

// ValidateID checks a connection or user id (same rules as channels).
func ValidateID(id string) error {
	if err := ValidateChannel(id); err != nil {
		return fmt.Errorf("%w: bad id", ErrInvalid)
	}
	return nil
}

type envelope struct {
	Channel string `json:"channel"`
	TS      int64  `json:"ts"`
	Data    any    `json:"data,omitempty"`
	Tick    any    `json:"tick,omitempty"`
}

// Data builds a pushed message {"channel","ts","data"} (private updates,
// trades lists).
func Data(channel string, ts time.Time, data any) ([]byte, error) {
	return json.Marshal(envelope{Channel: channel, TS: ts.UnixMilli(), Data: data})
}

// Tick builds a pushed message {"channel","ts","tick"} (market tickers,
// depth, klines).
func Tick(channel string, ts time.Time, tick any) ([]byte, error) {
	return json.Marshal(envelope{Channel: channel, TS: ts.UnixMilli(), Tick: tick})
}
