package binance

import "encoding/json"

// WSAnswer is a WebSocket API answer as a client decodes it (the tests of
// both runtimes read answers with it): Result stays raw for the caller to
// decode into the method's answer.
type WSAnswer struct {
	ID         json.RawMessage `json:"id"`
	Status     int             `json:"status"`
	Result     json.RawMessage `json:"result"`
	Error      *WSAnswerError  `json:"error"`
	RateLimits []WSRateLimit   `json:"rateLimits"`
}

// WSAnswerError is an answer's error.
type WSAnswerError struct {
	Code int    `json:"code"`
	Msg  string `json:"msg"`
}

// WSRateLimit is an entry of an answer's rateLimits.
type WSRateLimit struct {
	RateLimitType string `json:"rateLimitType"`
	Interval      string `json:"interval"`
	IntervalNum   int    `json:"intervalNum"`
	Limit         int    `json:"limit"`
	Count         int    `json:"count"`
}

// RateLimit returns the entry of a kind (REQUEST_WEIGHT, ORDERS; the first
// of several).
func (a WSAnswer) RateLimit(kind string) (WSRateLimit, bool) {
	for _, l := range a.RateLimits {
		if l.RateLimitType == kind {
			return l, true
		}
	}
	return WSRateLimit{}, false
}
