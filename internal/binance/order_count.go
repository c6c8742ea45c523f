package binance

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Order count limits, as Binance's ORDERS rate limits: each account may
// place DefaultOrderLimit10s new orders per 10 seconds and
// DefaultOrderLimitDay per day, in fixed windows (the 10 seconds aligned on
// multiples of 10 s of Unix time, the UTC day). Every POST /api/v3/order
// whose parameters pass the checks counts one in every window, whatever the
// engine then does with it (POST /api/v3/order/test is not counted, as on
// Binance); an order that fills does not give its count back, a
// simplification of Binance's unfilled order count. An order over a limit
// is refused before it reaches the order entry, with HTTP 429 and -1015,
// and is not counted. The answers to order placements carry the account's
// counts: X-MBX-ORDER-COUNT-10S and X-MBX-ORDER-COUNT-1D.
//
// The limits are the ORDERS entries of Options.RateLimits (OrderRateLimits
// builds them), Binance's two when it has none; exchangeInfo lists them
// when orders are served. Counters live in this process, as the request
// weights' do.
const (
	DefaultOrderLimit10s = 100
	DefaultOrderLimitDay = 200000

	// rateLimitOrders is the rateLimitType of the ORDERS limits.
	rateLimitOrders = "ORDERS"
)

// OrderRateLimits are the ORDERS entries of exchangeInfo's rateLimits:
// per10s orders per 10 seconds and perDay per day (0: the defaults, 100
// and 200000). As Options.RateLimits they are the limits the server
// enforces.
func OrderRateLimits(per10s, perDay int) []RateLimit {
	if per10s <= 0 {
		per10s = DefaultOrderLimit10s
	}
	if perDay <= 0 {
		perDay = DefaultOrderLimitDay
	}
	return []RateLimit{
		{RateLimitType: rateLimitOrders, Interval: "SECOND", IntervalNum: 10, Limit: per10s},
		{RateLimitType: rateLimitOrders, Interval: "DAY", IntervalNum: 1, Limit: perDay},
	}
}

// limitIntervals are the rateLimits intervals in seconds, with the letter
// Binance's count headers use (X-MBX-ORDER-COUNT-10S).
var limitIntervals = map[string]struct {
	seconds int64
	letter  string
}{"SECOND": {1, "S"}, "MINUTE": {60, "M"}, "HOUR": {3600, "H"}, "DAY": {86400, "D"}}

// orderLimits are the ORDERS limits the server enforces: the ORDERS
// entries of Options.RateLimits, or Binance's when it has none.
func (s *Server) orderLimits() []RateLimit {
	var out []RateLimit
	for _, r := range s.opts.RateLimits {
		if r.RateLimitType == rateLimitOrders {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return OrderRateLimits(0, 0)
	}
	return out
}

// servesOrders reports whether POST /api/v3/order is served (Options.Trading
// and Balances set), so that exchangeInfo lists the ORDERS limits.
func (s *Server) servesOrders() bool {
	_, ok := s.routes[http.MethodPost+" /api/v3/order"]
	return ok
}

// orderWindow counts the orders of each account in the current window of
// one limit.
type orderWindow struct {
	limit  RateLimit
	length int64  // seconds
	header string // X-MBX-ORDER-COUNT-10S
	index  int64  // the current window: Unix seconds / length
	counts map[string]int
}

// orderCounter holds the ORDERS windows. Each keeps the accounts of its
// current window only: when the window has passed, its counts are dropped
// at the next order, so memory is bounded by the accounts that ordered in
// the last 10 seconds and in the day.
type orderCounter struct {
	mu      sync.Mutex
	windows []*orderWindow
}

// newOrderCounter counts against limits (ORDERS entries); a malformed one
// (an unknown interval, a number or limit below 1) is a programming error.
func newOrderCounter(limits []RateLimit) *orderCounter {
	oc := &orderCounter{}
	for _, l := range limits {
		iv, ok := limitIntervals[l.Interval]
		if !ok || l.IntervalNum < 1 || l.Limit < 1 || int64(l.IntervalNum) > 366*86400/iv.seconds {
			panic(fmt.Sprintf("binance: bad ORDERS rate limit %+v", l))
		}
		oc.windows = append(oc.windows, &orderWindow{limit: l, length: iv.seconds * int64(l.IntervalNum),
			header: "X-MBX-ORDER-COUNT-" + strconv.Itoa(l.IntervalNum) + iv.letter, index: -1, counts: map[string]int{}})
	}
	return oc
}

// orderCounts are an account's counts, one per window of the counter.
type orderCounts []int

func (oc *orderCounter) roll(now time.Time) {
	sec := now.Unix() // times before 1970 are not served
	for _, w := range oc.windows {
		if i := sec / w.length; i != w.index {
			w.index = i
			w.counts = map[string]int{} // a new map: the old one's buckets are freed
		}
	}
}

// place counts a new order of uid in every window, unless that would go
// over a limit: then it answers the refusal (-1015, HTTP 429, naming the
// first limit reached) and counts nothing. counts are uid's counts after.
func (oc *orderCounter) place(uid string, now time.Time) (counts orderCounts, refused *Error) {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	oc.roll(now)
	counts = make(orderCounts, len(oc.windows))
	for i, w := range oc.windows {
		counts[i] = w.counts[uid]
		if refused == nil && counts[i] >= w.limit.Limit {
			refused = errTooManyOrders(w.limit)
		}
	}
	if refused != nil {
		return counts, refused
	}
	for i, w := range oc.windows {
		counts[i]++
		w.counts[uid] = counts[i]
	}
	return counts, nil
}

// countsOf are uid's counts, without counting an order.
func (oc *orderCounter) countsOf(uid string, now time.Time) orderCounts {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	oc.roll(now)
	counts := make(orderCounts, len(oc.windows))
	for i, w := range oc.windows {
		counts[i] = w.counts[uid]
	}
	return counts
}

// setHeaders writes counts as X-MBX-ORDER-COUNT-<interval> headers (h nil:
// a call without a response header, nothing to write).
func (oc *orderCounter) setHeaders(h http.Header, counts orderCounts) {
	if h == nil {
		return
	}
	for i, w := range oc.windows {
		h.Set(w.header, strconv.Itoa(counts[i]))
	}
}

// tracked is how many accounts each window holds (tests check the sweep).
func (oc *orderCounter) tracked() []int {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	out := make([]int, len(oc.windows))
	for i, w := range oc.windows {
		out[i] = len(w.counts)
	}
	return out
}
