package binance

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"tenger/internal/apikey"
)

// Keys resolves the API keys requests carry (apikey.Service).
type Keys interface {
	Resolve(ctx context.Context, apiKey string) (apikey.Resolved, error)
	Touch(ctx context.Context, r apikey.Resolved)
}

// HeaderAPIKey carries the API key, as on Binance.
const HeaderAPIKey = "X-MBX-APIKEY"

// Receive windows (milliseconds), as on Binance.
const (
	DefaultRecvWindow = 5000
	MaxRecvWindow     = 60000
	// aheadTolerance is how far ahead of the server's clock a timestamp may
	// be.
	aheadTolerance = 1000
)

// ErrBadAPIKeyFormat is -2014 (HTTP 401).
func ErrBadAPIKeyFormat() *Error {
	return NewError(http.StatusUnauthorized, CodeBadAPIKeyFormat, "API-key format invalid.")
}

// ErrRejectedKey is -2015 (HTTP 401): an unknown or deleted key, a request
// from an address the key is not bound to, or a permission the key lacks.
func ErrRejectedKey() *Error {
	return NewError(http.StatusUnauthorized, CodeRejectedAPIKey, "Invalid API-key, IP, or permissions for action.")
}

// ErrBadSignature is -1022.
func ErrBadSignature() *Error {
	return badRequest(CodeInvalidSignature, "Signature for this request is not valid.")
}

// ErrOutsideRecvWindow and ErrAhead are -1021.
func ErrOutsideRecvWindow() *Error {
	return badRequest(CodeInvalidTimestamp, "Timestamp for this request is outside of the recvWindow.")
}

// ErrAhead is -1021 for a timestamp ahead of the server's clock.
func ErrAhead() *Error {
	return badRequest(CodeInvalidTimestamp, "Timestamp for this request was 1000ms ahead of the server's time.")
}

// ErrBadRecvWindow is -1131.
func ErrBadRecvWindow() *Error {
	return badRequest(CodeBadRecvWindow, "recvWindow must be less than 60000")
}

// CodeBadRecvWindow is Binance's -1131.
const CodeBadRecvWindow = -1131

// KeyAuth is Options.Authenticate on API keys: the key the call names
// (Call.APIKey) must exist and allow the request's address; a signed call
// must carry a timestamp within its recvWindow and a signature of the key
// over what its transport signs (REST: the query string followed by the
// body, without the signature itself); TRADE endpoints need the key's spot
// permission, withdrawals its withdraw permission (permFor). A WebSocket
// API call that names no key runs for the key its connection logged on
// with (Call.SessionKey), without a signature, as Binance's session.logon
// allows. Call.Account is the apikey.Resolved.
func KeyAuth(keys Keys) func(c *Call, sec Security) error {
	return func(c *Call, sec Security) error {
		raw, bySession := c.APIKey, false
		if raw == "" && c.SessionKey != "" {
			raw, bySession = c.SessionKey, true
		}
		if raw == "" || len(raw) > 128 {
			return ErrBadAPIKeyFormat()
		}
		var ts, window int64
		var payload, sig string
		if sec.Signed() {
			var err error
			if ts, window, err = timing(c.Params); err != nil {
				return err
			}
			if !bySession {
				var ok bool
				if c.signing != nil {
					payload, sig, ok = c.signing()
				}
				if !ok {
					return ErrMandatory("signature")
				}
			}
		}
		key, err := keys.Resolve(c.Ctx, raw)
		if errors.Is(err, apikey.ErrUnknownKey) {
			return ErrRejectedKey()
		}
		if err != nil {
			return err // logged and answered -1001
		}
		if !key.AllowsIP(c.IP) {
			return ErrRejectedKey()
		}
		if sec.Signed() {
			now := c.Now.UnixMilli()
			if ts >= now+aheadTolerance {
				return ErrAhead()
			}
			if now-ts > window {
				return ErrOutsideRecvWindow()
			}
			if !bySession && !key.Verify(payload, sig) {
				return ErrBadSignature()
			}
		}
		if p := permFor(c.Path, sec); p != "" && !key.Can(p) {
			return ErrRejectedKey()
		}
		c.Account = key
		keys.Touch(c.Ctx, key)
		return nil
	}
}

// permFor is the permission an endpoint needs besides read: withdraw for
// withdrawals, spot for the spot TRADE endpoints.
func permFor(path string, sec Security) string {
	switch {
	case strings.HasPrefix(path, "/sapi/v1/capital/withdraw/apply"):
		return apikey.PermWithdraw
	case sec == SecTrade:
		return apikey.PermSpot
	}
	return ""
}

// timing reads timestamp (mandatory) and recvWindow (default 5000, at
// most 60000).
func timing(p *Params) (ts, window int64, err error) {
	ts, _, err = p.Long("timestamp", true)
	if err != nil {
		return 0, 0, err
	}
	window = DefaultRecvWindow
	if v, sent, err := p.Long("recvWindow", false); err != nil {
		return 0, 0, err
	} else if sent {
		if v <= 0 {
			return 0, 0, ErrInvalidParam("recvWindow")
		}
		if v > MaxRecvWindow {
			return 0, 0, ErrBadRecvWindow()
		}
		window = v
	}
	return ts, window, nil
}

// signingPayload is what a signature covers: the query string followed by
// the body, as sent, without the signature parameter (wherever it is).
// ok is false when no signature (or an empty one) was sent.
func signingPayload(rawQuery string, rawBody []byte) (payload, sig string, ok bool) {
	q, s1 := withoutSignature(rawQuery)
	b, s2 := withoutSignature(string(rawBody))
	sig = s1
	if sig == "" {
		sig = s2
	}
	return q + b, sig, sig != ""
}

// withoutSignature drops the signature=… pair from a urlencoded string.
func withoutSignature(s string) (rest, sig string) {
	if !strings.Contains(s, "signature=") {
		return s, ""
	}
	parts := strings.Split(s, "&")
	kept := parts[:0]
	for _, kv := range parts {
		if v, ok := strings.CutPrefix(kv, "signature="); ok {
			if u, err := url.QueryUnescape(v); err == nil {
				sig = u // a base64 (Ed25519) signature travels escaped
			}
			continue
		}
		kept = append(kept, kv)
	}
	return strings.Join(kept, "&"), sig
}

// account is the key a handler of an authenticated route runs for.
func account(c *Call) apikey.Resolved {
	r, _ := c.Account.(apikey.Resolved)
	return r
}
