package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The binance transports of `tenger bench`: the same crossing limit orders
// as the http and ws transports, each trader with an API key of its own,
// newOrderRespType=ACK and a new timestamp and HMAC-SHA256 signature per
// order. binance sends them as signed POST /api/v3/order calls of the
// Binance-compatible API (signed over the form body) on keep-alive
// connections, as http does; binance-ws as signed order.place requests of
// Binance's WebSocket API (/ws-api/v3, signed over the parameters sorted
// by name), pipelined on connections that each trade as one trader, as ws
// does (bench_ws.go). Comparing their server CPU per order with http's and
// ws's is the cost of API-key signing over a session.

// benchKey is a trader's API key.
type benchKey struct {
	APIKey string `json:"apiKey"`
	Secret string `json:"secretKey"`
}

// benchKeyLabel names the keys the bench makes (older ones are deleted).
const benchKeyLabel = "bench"

// benchKeysFile keeps the traders' keys between runs against one server:
// a secret is shown once, and a new key per run would need a new e-mail
// code per trader (which the server limits).
func benchKeysFile(base string) string {
	name := strings.NewReplacer("http://", "", "https://", "", ":", "_", "/", "_").Replace(base)
	return filepath.Join(os.TempDir(), "tenger-bench-keys-"+name+".json")
}

// benchKeys returns an API key with the spot permission for every trader:
// the kept one while the server still takes it, else a new one (after
// deleting the trader's earlier bench keys).
func benchKeys(ctx context.Context, c *benchClient, tokens []string) ([]benchKey, error) {
	path := benchKeysFile(c.base)
	kept := map[string]benchKey{}
	if b, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(b, &kept)
	}
	keys := make([]benchKey, len(tokens))
	for i, tok := range tokens {
		email := benchTraderEmail(i)
		if k, ok := kept[email]; ok && benchKeyWorks(ctx, c, k) {
			keys[i] = k
			continue
		}
		var list struct {
			Keys []struct{ APIKey, Label string }
		}
		if err := c.ok(ctx, "/fe-ex-api/sub_user/openapi/sub_user_api_list", tok, map[string]any{}, &list); err != nil {
			return nil, err
		}
		for _, k := range list.Keys {
			if k.Label == benchKeyLabel {
				if err := c.ok(ctx, "/fe-ex-api/openapi/delete_open_api", tok, map[string]any{"apiKey": k.APIKey}, nil); err != nil {
					return nil, err
				}
			}
		}
		if err := c.ok(ctx, "/fe-ex-api/v4/common/emailValidCode", tok, map[string]any{"operationType": 17}, nil); err != nil {
			return nil, err
		}
		code, err := c.lastCode(ctx, email)
		if err != nil {
			return nil, err
		}
		var k benchKey
		if err := c.ok(ctx, "/fe-ex-api/openapi/create_open_api", tok, map[string]any{"label": benchKeyLabel,
			"permissions": []string{"spot"}, "emailCode": code}, &k); err != nil {
			return nil, err
		}
		keys[i], kept[email] = k, k
	}
	if b, err := json.Marshal(kept); err == nil {
		_ = os.WriteFile(path, b, 0o600)
	}
	return keys, nil
}

// benchKeyWorks reports whether a kept key still signs (GET /api/v3/account).
func benchKeyWorks(ctx context.Context, c *benchClient, k benchKey) bool {
	q := "timestamp=" + strconv.FormatInt(time.Now().UnixMilli(), 10)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/api/v3/account?"+q+"&signature="+hmacHex(k.Secret, q), nil)
	if err != nil {
		return false
	}
	req.Header.Set("X-MBX-APIKEY", k.APIKey)
	resp, err := c.hc.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

func hmacHex(secret, payload string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(payload))
	return hex.EncodeToString(m.Sum(nil))
}

// binanceOrderFields are the parameters of a bench order on both binance
// transports, besides the key, timestamp and signature.
func binanceOrderFields(symbol, side, price, qty string) [][2]string {
	return [][2]string{{"symbol", strings.ToUpper(symbol)}, {"side", side}, {"type", "LIMIT"}, {"timeInForce", "GTC"},
		{"quantity", qty}, {"price", price}, {"newOrderRespType", "ACK"}}
}

// binanceOrder is the part of a signed order body that does not change.
func binanceOrder(symbol, side, price, qty string) string {
	var b strings.Builder
	for _, kv := range binanceOrderFields(symbol, side, price, qty) {
		b.WriteString(kv[0] + "=" + kv[1] + "&")
	}
	return b.String() + "timestamp="
}

var binanceOrderIDKey = []byte(`"orderId":`)

// numberField is the value of the first "key":<number> in b (key includes
// the quotes and colon).
func numberField(b, key []byte) (string, bool) {
	i := bytes.Index(b, key)
	if i < 0 {
		return "", false
	}
	rest := b[i+len(key):]
	j := bytes.IndexAny(rest, ",}")
	if j <= 0 {
		return "", false
	}
	return string(rest[:j]), true
}

// callBinance sends one signed POST /api/v3/order (fixed is binanceOrder's
// text) and returns the order id, or the refusal as an error answer.
func (c *orderConn) callBinance(k benchKey, fixed string) (benchAnswer, error) {
	if c.conn == nil {
		if err := c.dial(); err != nil {
			return benchAnswer{}, err
		}
	}
	body := fixed + strconv.FormatInt(time.Now().UnixMilli(), 10)
	body += "&signature=" + hmacHex(k.Secret, body)
	c.req = append(c.req[:0], "POST /api/v3/order HTTP/1.1\r\nHost: "...)
	c.req = append(c.req, c.host...)
	c.req = append(c.req, "\r\nContent-Type: application/x-www-form-urlencoded\r\nX-MBX-APIKEY: "...)
	c.req = append(c.req, k.APIKey...)
	c.req = append(c.req, "\r\nContent-Length: "...)
	c.req = strconv.AppendInt(c.req, int64(len(body)), 10)
	c.req = append(c.req, "\r\n\r\n"...)
	c.req = append(c.req, body...)
	status, raw, err := c.exchange()
	if err != nil {
		c.close()
		return benchAnswer{}, err
	}
	if status == http.StatusOK {
		id, ok := numberField(raw, binanceOrderIDKey)
		if !ok {
			return benchAnswer{}, fmt.Errorf("/api/v3/order: no orderId in %q", raw)
		}
		return benchAnswer{Code: "0", OrderID: id}, nil
	}
	var e struct {
		Code int    `json:"code"`
		Msg  string `json:"msg"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return benchAnswer{}, fmt.Errorf("/api/v3/order: HTTP %d: %w", status, err)
	}
	return benchAnswer{Code: strconv.Itoa(e.Code), Msg: e.Msg}, nil
}

// binanceWSPath is Binance's WebSocket API, its answers without
// rateLimits (which the load loop does not read, and cost the server a
// look-up of the counts and their encoding per answer).
const binanceWSPath = "/ws-api/v3?returnRateLimits=false"

// binanceWSMaxInFlight is how many requests of a /ws-api/v3 connection
// the server runs at once (internal/binance's wsAPIMaxInFlight): it reads
// no more of the connection's frames until one ends.
const binanceWSMaxInFlight = 32

// binanceWS is Binance's WebSocket API: no sign-in (every request carries
// its apiKey and signature), answered {"id":n,"status":200,"result":
// {...,"orderId":x,...}} or {"id":n,"status":400,"error":{"code":c,
// "msg":"..."}}; a frame the server could not read is answered with id
// null.
var binanceWS = &wsDialect{
	path:  binanceWSPath,
	parse: parseBinanceWSAnswer,
	refusal: func(msg []byte) string {
		var a struct{ Error struct{ Msg string } }
		_ = json.Unmarshal(msg, &a)
		return a.Error.Msg
	},
	fatal: func(msg []byte) bool { return bytes.HasPrefix(msg, binanceWSNullID) },
}

var (
	binanceWSOK     = []byte(`,"status":200,"result":`)
	binanceWSCode   = []byte(`"code":`)
	binanceWSNullID = []byte(`{"id":null,`)
)

// parseBinanceWSAnswer reads an answer of Binance's WebSocket API as the
// server writes it (id, status, then result or error): an accepted order
// has code "0" and its orderId, a refusal the error's code; ok is false
// for any other message.
func parseBinanceWSAnswer(msg []byte) (id int, code, orderID string, ok bool) {
	id, rest, ok := answerID(msg)
	if !ok {
		return 0, "", "", false
	}
	if bytes.HasPrefix(rest, binanceWSOK) {
		orderID, _ = numberField(rest, binanceOrderIDKey)
		return id, "0", orderID, true
	}
	if code, ok = numberField(rest, binanceWSCode); !ok {
		return 0, "", "", false
	}
	return id, code, "", true
}

// binanceWSOrder is a connection's order.place params for key k: the
// order's fields, apiKey, a new timestamp and the signature over them all
// (every parameter but signature, sorted by name, key=value joined by &),
// appended to b.
func binanceWSOrder(k benchKey, symbol, side, price, qty string) func(b []byte) []byte {
	fields := append(binanceOrderFields(symbol, side, price, qty), [2]string{"apiKey", k.APIKey}, [2]string{"timestamp", ""})
	slices.SortFunc(fields, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	// The signed text before and after the timestamp's value, and the
	// params object up to it.
	var signed [2]strings.Builder
	half := 0
	head := []byte("{")
	for i, kv := range fields {
		if i > 0 {
			signed[half].WriteByte('&')
		}
		signed[half].WriteString(kv[0] + "=")
		if kv[0] == "timestamp" {
			half = 1
			continue
		}
		signed[half].WriteString(kv[1])
		name, _ := json.Marshal(kv[0])
		value, _ := json.Marshal(kv[1])
		head = append(append(append(append(head, name...), ':'), value...), ',')
	}
	head = append(head, `"timestamp":`...)
	before, after := signed[0].String(), signed[1].String()
	return func(b []byte) []byte {
		ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
		b = append(b, head...)
		b = append(b, ts...)
		b = append(b, `,"signature":"`...)
		b = append(b, hmacHex(k.Secret, before+ts+after)...)
		return append(b, `"}`...)
	}
}

// benchLimitsWarning reads the server's rateLimits (exchangeInfo) and, when
// the run may go over them, says how to start the server: from one address
// the orders weigh 1 each against the IP's REQUEST_WEIGHT per minute, and
// each trader places orders/users of them against its account's ORDERS
// limits (100 per 10 seconds by default). A refused order leaves its
// counterpart open, so such a run never settles. "" when they fit (or the
// limits cannot be read).
func benchLimitsWarning(ctx context.Context, c *benchClient, symbol string, orders, users int) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/api/v3/exchangeInfo?symbol="+strings.ToUpper(symbol), nil)
	if err != nil {
		return ""
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	var info struct {
		RateLimits []struct {
			RateLimitType, Interval string
			IntervalNum, Limit      int
		}
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&info) != nil {
		return ""
	}
	perTrader := (orders + users - 1) / users
	var over []string
	for _, l := range info.RateLimits {
		switch {
		case l.RateLimitType == "REQUEST_WEIGHT" && orders > l.Limit:
			over = append(over, fmt.Sprintf("%d request weight per %d %s from this address (--api-weight-limit)", l.Limit, l.IntervalNum, l.Interval))
		case l.RateLimitType == "ORDERS" && perTrader > l.Limit:
			over = append(over, fmt.Sprintf("%d orders per %d %s per trader (--api-order-limit)", l.Limit, l.IntervalNum, l.Interval))
		}
	}
	if len(over) == 0 {
		return ""
	}
	return fmt.Sprintf("warning: this run sends %d orders, %d per trader, and the server allows ", orders, perTrader) +
		strings.Join(over, " and ") + ": orders over a limit are refused (HTTP 429) and leave their counterparts open; " +
		"start tenger serve with --api-weight-limit 1000000 --api-order-limit 1000000 to measure"
}
