package push

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
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
	// FrameRequest is a request frame {"id","method","params"} (order
	// entry): answered by the adapter's RequestFunc, see Request.
	FrameRequest
)

// Frame is one parsed client frame.
type Frame struct {
	Kind    FrameKind
	Channel string // sub, unsub
	Token   string // auth
	// Ping is the raw value of {"ping": v}, echoed as {"pong": v}; nil for
	// {"event":"ping"}.
	Ping json.RawMessage
	// Request frames: the client's id as its answer echoes it (a JSON
	// string or integer; nil, echoed as null, when the frame has no valid
	// id), the method, its params (a JSON object, {} when absent) and the
	// answer's language (exchange-language's values; "" is English).
	ID     json.RawMessage
	Method string
	Params json.RawMessage
	Lang   string
}

// Request frames. A frame with a "method" and no "event" is a request:
//
//	{"id":"c1","method":"order.place","params":{...},"lang":"mn_MN"}
//
// answered, in any order relative to other requests, by one frame that
// echoes its id (built by the adapter's RequestFunc). Limits of the id and
// method.
const (
	MaxIDLen     = 64
	MaxMethodLen = 64
	// MaxInFlight bounds the requests of one connection that are running
	// (not yet answered); one more is answered at once with
	// apperr.CodeTooManyInFlight.
	MaxInFlight = 100
)

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
	if bytes.Contains(b, []byte(`"method"`)) {
		if f, err, ok := parseRequest(b); ok {
			return f, err
		}
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

// parseRequest parses b as a request frame; ok is false when b is not one
// (no "method" key, or an "event" key: the frame is read as before). The
// frame's own keys are matched exactly and may not repeat; its params are
// left for the method to decode. A request whose frame is bad comes back
// as a FrameRequest (with its id when that is valid) and an error wrapping
// ErrInvalid, so its answer can still name it.
func parseRequest(b []byte) (f Frame, err error, ok bool) {
	keys, dup, err := topLevel(b)
	if err != nil {
		return Frame{}, nil, false
	}
	if _, isReq := keys["method"]; !isReq {
		return Frame{}, nil, false
	}
	if _, isEvent := keys["event"]; isEvent {
		return Frame{}, nil, false
	}
	f = Frame{Kind: FrameRequest}
	bad := func(format string, args ...any) (Frame, error, bool) {
		return f, fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...), true
	}
	id, idErr := requestID(keys["id"])
	f.ID = id
	// Any other language, or none, is English (as exchange-language).
	if json.Unmarshal(keys["lang"], &f.Lang) != nil || len(f.Lang) > 16 {
		f.Lang = ""
	}
	if idErr != "" {
		return bad("id: %s", idErr)
	}
	if dup != "" {
		return bad("%s: duplicate key", dup)
	}
	if json.Unmarshal(keys["method"], &f.Method) != nil || f.Method == "" || len(f.Method) > MaxMethodLen {
		f.Method = ""
		return bad("method: must be a string of 1 to %d characters", MaxMethodLen)
	}
	f.Params = bytes.TrimSpace(keys["params"])
	switch {
	case len(f.Params) == 0 || bytes.Equal(f.Params, []byte("null")):
		f.Params = json.RawMessage("{}")
	case f.Params[0] != '{':
		f.Params = nil
		return bad("params: must be a JSON object")
	}
	return f, nil, true
}

// requestID checks a request's id: a string of 1 to MaxIDLen bytes of
// printable text, or an integer within 64 bits. It returns the id as its
// answer echoes it, or why it is refused.
func requestID(raw json.RawMessage) (json.RawMessage, string) {
	raw = bytes.TrimSpace(raw)
	const rule = "must be a string of 1 to 64 characters or an integer"
	switch {
	case len(raw) == 0:
		return nil, "required"
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) != nil || s == "" || len(s) > MaxIDLen || !utf8.ValidString(s) {
			return nil, rule
		}
		for _, r := range s {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
				return nil, rule
			}
		}
		out, _ := json.Marshal(s)
		return out, ""
	default:
		digits := strings.TrimPrefix(string(raw), "-")
		if digits == "" || strings.Trim(digits, "0123456789") != "" {
			return nil, rule
		}
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return nil, rule
		}
		return json.RawMessage(strconv.FormatInt(n, 10)), ""
	}
}

// topLevel splits a JSON object into its keys' raw values and names the
// first key given twice ("" when none).
func topLevel(b []byte) (map[string]json.RawMessage, string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, "", errors.New("not an object")
	}
	keys := map[string]json.RawMessage{}
	dup := ""
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, "", err
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, "", err
		}
		if _, seen := keys[k]; seen && dup == "" {
			dup = k
		}
		keys[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, "", err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, "", errors.New("data after the object")
	}
	return keys, dup, nil
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
	return ApplyFrame(ctx, p, auth, known, connID, f, err)
}

// ApplyFrame is HandleFrame for a frame already parsed (f and perr are what
// ParseFrame returned). A request frame gets an error reply: adapters that
// serve requests answer them with their RequestFunc before (see Request).
func ApplyFrame(ctx context.Context, p Pusher, auth AuthFunc, known ChannelFunc, connID string, f Frame, perr error) ([]byte, error) {
	if f.Kind == FrameRequest {
		return rep("error", "", "error", "requests are not served on this connection"), nil
	}
	if perr != nil {
		return rep("error", "", "error", invalidDetail(perr)), nil
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

// invalidDetail is what an ErrInvalid error says, without its prefix.
func invalidDetail(err error) string {
	return strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": ")
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
