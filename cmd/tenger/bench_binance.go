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
	"strconv"
	"strings"
	"time"
)

// The binance transport of `tenger bench`: the same crossing limit orders
// as the http transport, sent as signed POST /api/v3/order calls of the
// Binance-compatible API (HMAC-SHA256 over the form body, a new timestamp
// per order, newOrderRespType=ACK), each trader with an API key of its
// own. Comparing its server CPU per order with the http transport's is the
// cost of API-key signing over a session.

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

// binanceOrder is the part of a signed order body that does not change.
func binanceOrder(symbol, side, price, qty string) string {
	return "symbol=" + strings.ToUpper(symbol) + "&side=" + side + "&type=LIMIT&timeInForce=GTC&quantity=" + qty +
		"&price=" + price + "&newOrderRespType=ACK&timestamp="
}

var binanceOrderIDKey = []byte(`"orderId":`)

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
		i := bytes.Index(raw, binanceOrderIDKey)
		if i < 0 {
			return benchAnswer{}, fmt.Errorf("/api/v3/order: no orderId in %q", raw)
		}
		rest := raw[i+len(binanceOrderIDKey):]
		j := bytes.IndexAny(rest, ",}")
		if j < 0 {
			return benchAnswer{}, fmt.Errorf("/api/v3/order: no orderId in %q", raw)
		}
		return benchAnswer{Code: "0", OrderID: string(rest[:j])}, nil
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
