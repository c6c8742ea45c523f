package push

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// MaxFrameLen bounds a client frame; real frames are well under 1 KiB.
const MaxFrameLen = 4096

// FrameKind says what a client frame asks for.
type FrameKind int

// Client frame kinds.
const (
	FrameSub FrameKind = iota + 1
	FrameUnsub
	FramePing
	FrameAuth
)

// Frame is one parsed client frame.
type Frame struct {
	Kind    FrameKind
	Channel string // sub, unsub
	Token   string // auth
	// Ping is the raw value of {"ping": v}, echoed as {"pong": v}; nil for
	// {"event":"ping"}.
	Ping json.RawMessage
}

type rawFrame struct {
	Event  string          `json:"event"`
	Ping   json.RawMessage `json:"ping"`
	Params struct {
		Channel string `json:"channel"`
		Token   string `json:"token"`
	} `json:"params"`
}

// ParseFrame parses a client frame. Every error wraps ErrInvalid.
func ParseFrame(b []byte) (Frame, error) {
	if len(b) > MaxFrameLen {
		return Frame{}, fmt.Errorf("%w: frame longer than %d bytes", ErrInvalid, MaxFrameLen)
	}
	var r rawFrame
	if err := json.Unmarshal(b, &r); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return Frame{}, fmt.Errorf("%w: %s must be %s", ErrInvalid, te.Field, jsonKind(te.Type))
		}
		return Frame{}, fmt.Errorf("%w: frame is not a JSON object", ErrInvalid)
	}
	if len(r.Ping) > 0 && r.Event == "" {
		p := bytes.TrimSpace(r.Ping)
		if bytes.Equal(p, []byte("null")) {
			return Frame{Kind: FramePing}, nil
		}
		// Echo only scalars, so a pong never carries an arbitrary object back.
		var v any
		if err := json.Unmarshal(p, &v); err != nil {
			return Frame{}, fmt.Errorf("%w: bad ping value", ErrInvalid)
		}
		switch v.(type) {
		case float64, string:
		default:
			return Frame{}, fmt.Errorf("%w: ping value must be a number or a string", ErrInvalid)
		}
		return Frame{Kind: FramePing, Ping: append(json.RawMessage(nil), p...)}, nil
	}
	switch r.Event {
	case "sub", "unsub":
		if err := ValidateChannel(r.Params.Channel); err != nil {
			return Frame{}, err
		}
		k := FrameSub
		if r.Event == "unsub" {
			k = FrameUnsub
		}
		return Frame{Kind: k, Channel: r.Params.Channel}, nil
	case "ping":
		return Frame{Kind: FramePing}, nil
	case "auth":
		if r.Params.Token == "" || len(r.Params.Token) > 512 {
			return Frame{}, fmt.Errorf("%w: auth needs params.token", ErrInvalid)
		}
		return Frame{Kind: FrameAuth, Token: r.Params.Token}, nil
	case "":
		return Frame{}, fmt.Errorf("%w: frame has no event", ErrInvalid)
	}
	return Frame{}, fmt.Errorf("%w: unknown event %q", ErrInvalid, r.Event)
}

type eventRep struct {
	EventRep string `json:"event_rep"`
	Channel  string `json:"channel,omitempty"`
	Status   string `json:"status"`
	Msg      string `json:"msg,omitempty"`
	TS       int64  `json:"ts"`
}

// ErrorReply is the reply to a frame that cannot be read at all (a binary frame).
func ErrorReply(msg string) []byte { return rep("error", "", "error", msg) }

func rep(event, channel, status, msg string) []byte {
	b, _ := json.Marshal(eventRep{EventRep: event, Channel: channel, Status: status, Msg: msg, TS: time.Now().UnixMilli()})
	return b
}

// Pong builds the answer to a ping frame.
func Pong(f Frame) []byte {
	if f.Ping == nil {
		return []byte(`{"pong":` + strconv.FormatInt(time.Now().UnixMilli(), 10) + `}`)
	}
	return append(append([]byte(`{"pong":`), f.Ping...), '}')
}

// ChannelFunc reports whether a public channel exists (a pair in the
// catalogue, a known depth step or kline period).
type ChannelFunc func(channel string) bool

// HandleFrame applies one client frame of connection connID to p and
// returns the reply to send back to that connection. A malformed frame, an
// unknown channel or a refused token gets an error reply and a nil error
// (the connection stays open); the error is non-nil only when p failed
// (ErrGone: close the connection). auth may be nil, in which case auth
// frames are refused; known may be nil, in which case any well-formed
// public channel may be subscribed to.
func HandleFrame(ctx context.Context, p Pusher, auth AuthFunc, known ChannelFunc, connID string, raw []byte) ([]byte, error) {
	f, err := ParseFrame(raw)
	if err != nil {
		return rep("error", "", "error", strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": ")), nil
	}
	switch f.Kind {
	case FramePing:
		return Pong(f), nil
	case FrameSub:
		if strings.HasPrefix(f.Channel, PrivateChannelPrefix) {
			return rep("sub", f.Channel, "error", "private channel: send an auth frame, its messages then arrive without a subscription"), nil
		}
		if known != nil && !known(f.Channel) {
			return rep("sub", f.Channel, "error", "unknown channel"), nil
		}
		if err := p.Subscribe(ctx, connID, f.Channel); err != nil {
			return nil, err
		}
		return rep("sub", f.Channel, "ok", ""), nil
	case FrameUnsub:
		if err := p.Unsubscribe(ctx, connID, f.Channel); err != nil {
			return nil, err
		}
		return rep("unsub", f.Channel, "ok", ""), nil
	case FrameAuth:
		if auth == nil {
			return rep("auth", "", "error", "authentication is not available"), nil
		}
		user, session, ok := auth(ctx, f.Token)
		if !ok || ValidateID(user) != nil {
			return rep("auth", "", "error", "invalid token"), nil
		}
		if err := p.Bind(ctx, connID, user, session); err != nil {
			return nil, err
		}
		return rep("auth", "", "ok", ""), nil
	}
	return rep("error", "", "error", "unsupported frame"), nil
}

// jsonKind names what a frame field must hold in JSON terms (never a Go type).
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another type"
}
