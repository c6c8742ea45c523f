package binance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Binance's live subscription frames:
//
//	{"method":"SUBSCRIBE","params":["btcusdt@trade","btcusdt@depth"],"id":1}  → {"result":null,"id":1}
//	{"method":"UNSUBSCRIBE","params":["btcusdt@depth"],"id":312}              → {"result":null,"id":312}
//	{"method":"LIST_SUBSCRIPTIONS","id":3}                                    → {"result":["btcusdt@trade"],"id":3}
//	{"method":"SET_PROPERTY","params":["combined",true],"id":5}               → {"result":null,"id":5}
//	{"method":"GET_PROPERTY","params":["combined"],"id":2}                    → {"result":true,"id":2}
//
// and their errors, {"error":{"code":c,"msg":"..."},"id":...}: code 0
// unknown property, 1 a property value that is not a boolean, 2 an
// invalid request (unknown method, bad id or params, invalid stream, too
// many streams), 3 invalid JSON. The id is a 64-bit integer, a string of
// up to 36 letters, digits and dashes, or null (absent: null).

// Binance's methods.
const (
	wsSubscribe   = "SUBSCRIBE"
	wsUnsubscribe = "UNSUBSCRIBE"
	wsList        = "LIST_SUBSCRIPTIONS"
	wsSetProperty = "SET_PROPERTY"
	wsGetProperty = "GET_PROPERTY"
)

// wsRequest is a parsed request frame.
type wsRequest struct {
	id     json.RawMessage // as answers echo it; nil is null
	method string
	// streams of SUBSCRIBE and UNSUBSCRIBE, as sent.
	streams []string
	// property and value of SET_PROPERTY / GET_PROPERTY.
	property string
	value    bool
}

// wsError is a request's error.
type wsError struct {
	Code int    `json:"code"`
	Msg  string `json:"msg"`
}

func (e *wsError) Error() string { return e.Msg }

func invalidRequest(format string, args ...any) *wsError {
	return &wsError{Code: 2, Msg: "Invalid request: " + fmt.Sprintf(format, args...)}
}

// Errors as Binance words them.
var (
	errWSBadID         = invalidRequest("request ID must be an unsigned integer")
	errWSInvalidStream = invalidRequest("invalid stream")
	errWSTooManyParams = invalidRequest("too many parameters")
	errWSPropertyName  = invalidRequest("property name must be a string")
	errWSUnknownProp   = &wsError{Code: 0, Msg: "Unknown property"}
	errWSExpectedBool  = &wsError{Code: 1, Msg: "Invalid value type: expected Boolean"}
)

// tooManyStreams refuses a subscription past a connection's max streams.
func tooManyStreams(max int) *wsError {
	return invalidRequest("too many streams: a connection listens to at most %d", max)
}

// wsResult is a request's answer.
type wsResult struct {
	Result any             `json:"result"`
	ID     json.RawMessage `json:"id"`
}

// wsErrorAnswer is a request's error answer.
type wsErrorAnswer struct {
	Error *wsError        `json:"error"`
	ID    json.RawMessage `json:"id"`
}

func resultFrame(id json.RawMessage, v any) []byte {
	b, _ := json.Marshal(wsResult{Result: v, ID: id})
	return b
}

func errorFrame(id json.RawMessage, e *wsError) []byte {
	b, _ := json.Marshal(wsErrorAnswer{Error: e, ID: id})
	return b
}

// wsMethods are the methods, in the order the unknown-method error lists
// them.
var wsMethods = []string{wsSubscribe, wsUnsubscribe, wsList, wsSetProperty, wsGetProperty}

// parseWSRequest reads a request frame. An error answer names the
// request's id when that could be read (else null).
func parseWSRequest(b []byte) (wsRequest, *wsError) {
	var req wsRequest
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) || !json.Valid(b) {
			line, col := position(b, se)
			return req, &wsError{Code: 3, Msg: fmt.Sprintf("Invalid JSON: %s at line %d column %d", jsonMsg(err), line, col)}
		}
		return req, invalidRequest("expected a JSON object")
	}
	if keys == nil {
		return req, invalidRequest("expected a JSON object")
	}
	id, ok := wsRequestID(keys["id"])
	if !ok {
		return req, errWSBadID
	}
	req.id = id
	raw, ok := keys["method"]
	if !ok {
		return req, invalidRequest("missing field `method`")
	}
	if json.Unmarshal(raw, &req.method) != nil {
		return req, invalidRequest("method must be a string, one of `%s`", strings.Join(wsMethods, "`, `"))
	}
	params, hasParams := keys["params"]
	if hasParams && bytes.Equal(bytes.TrimSpace(params), []byte("null")) {
		hasParams = false
	}
	var list []json.RawMessage
	if hasParams && json.Unmarshal(params, &list) != nil {
		return req, invalidRequest("params must be a list")
	}
	switch req.method {
	case wsSubscribe, wsUnsubscribe:
		if !hasParams {
			return req, invalidRequest("missing field `params`")
		}
		req.streams = make([]string, 0, len(list))
		for _, p := range list {
			var name string
			if json.Unmarshal(p, &name) != nil {
				return req, invalidRequest("params must be a list of stream names")
			}
			req.streams = append(req.streams, name)
		}
	case wsList:
		if len(list) > 0 {
			return req, errWSTooManyParams
		}
	case wsSetProperty, wsGetProperty:
		want := 1
		if req.method == wsSetProperty {
			want = 2
		}
		if len(list) > want {
			return req, errWSTooManyParams
		}
		if len(list) == 0 || json.Unmarshal(list[0], &req.property) != nil {
			return req, errWSPropertyName
		}
		if req.property != "combined" {
			return req, errWSUnknownProp
		}
		if req.method == wsSetProperty {
			if len(list) < 2 || json.Unmarshal(list[1], &req.value) != nil {
				return req, errWSExpectedBool
			}
		}
	default:
		return req, invalidRequest("unknown variant `%s`, expected one of `%s`", req.method, strings.Join(wsMethods, "`, `"))
	}
	return req, nil
}

// wsRequestID reads an id as Binance takes them: a 64-bit integer, a
// string of 1 to 36 letters and digits (dashes too: a UUID fits), or null
// (also when absent). It returns the id as answers echo it.
func wsRequestID(raw json.RawMessage) (json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, true
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil || s == "" || len(s) > 36 {
			return nil, false
		}
		for _, r := range s {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return nil, false
			}
		}
		return raw, true
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return nil, false
	}
	return json.RawMessage(strconv.FormatInt(n, 10)), true
}

// position is the line and column (from 1) of a syntax error's offset
// (the end of the frame when unknown).
func position(b []byte, se *json.SyntaxError) (line, col int) {
	off := int64(len(b))
	if se != nil {
		off = min(se.Offset, off)
	}
	line, col = 1, 1
	for _, c := range b[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// jsonMsg is a JSON error's text without Go's prefix.
func jsonMsg(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// claimsFrame reports whether a frame on the shared /ws endpoint is
// Binance's: a JSON object with a "method" and no "event" whose method has
// no lower-case letter (SUBSCRIBE, LIST_SUBSCRIPTIONS...; the web app's
// request methods are order.place and the like) or whose params are a
// list (the web app's are an object) and whose method has no dot (a web
// app's request with a malformed params list is the web app's to refuse). Anything else is the web app's
// (its sub/unsub/auth frames have an "event", pings a "ping").
func claimsFrame(b []byte) bool {
	if !bytes.Contains(b, []byte(`"method"`)) {
		return false
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(b, &keys) != nil {
		return false
	}
	raw, ok := keys["method"]
	if !ok {
		return false
	}
	if _, ok := keys["event"]; ok {
		return false
	}
	var m string
	isString := json.Unmarshal(raw, &m) == nil
	if p := bytes.TrimSpace(keys["params"]); len(p) > 0 && p[0] == '[' && !(isString && strings.Contains(m, ".")) {
		return true
	}
	if !isString || m == "" {
		return false
	}
	return strings.ToUpper(m) == m
}
