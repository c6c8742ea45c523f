package marketdata

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Period is a kline period name as the channels and REST calls spell it.
type Period string

// The supported kline periods. Buckets are aligned in UTC: minutes and
// hours on the epoch, days at 00:00 UTC, weeks on Monday 00:00 UTC, months on
// the first day 00:00 UTC.
const (
	Min1   Period = "1min"
	Min5   Period = "5min"
	Min15  Period = "15min"
	Min30  Period = "30min"
	Min60  Period = "60min"
	Hour4  Period = "4h"
	Day1   Period = "1day"
	Week1  Period = "1week"
	Month1 Period = "1month"
)

// Periods lists every supported period, shortest first.
var Periods = []Period{Min1, Min5, Min15, Min30, Min60, Hour4, Day1, Week1, Month1}

var periodAliases = map[string]Period{
	"1m": Min1, "5m": Min5, "15m": Min15, "30m": Min30, "1h": Min60, "60m": Min60, "1hour": Min60,
	"4hour": Hour4, "240min": Hour4, "1d": Day1, "day": Day1, "1w": Week1, "week": Week1, "1mon": Month1,
	"month": Month1,
}

// ParsePeriod accepts a period name (or a common alias such as 1h, 1d).
func ParsePeriod(s string) (Period, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, p := range Periods {
		if string(p) == s {
			return p, true
		}
	}
	p, ok := periodAliases[s]
	return p, ok
}

// fixed returns the length of fixed-size periods (0 for weeks and months).
func (p Period) fixed() int64 {
	switch p {
	case Min1:
		return 60
	case Min5:
		return 300
	case Min15:
		return 900
	case Min30:
		return 1800
	case Min60:
		return 3600
	case Hour4:
		return 4 * 3600
	case Day1:
		return 86400
	}
	return 0
}

// BucketStart is the Unix second the bucket holding t starts at.
func (p Period) BucketStart(t time.Time) int64 {
	t = t.UTC()
	if n := p.fixed(); n > 0 {
		s := t.Unix()
		r := s % n
		if r < 0 {
			r += n
		}
		return s - r
	}
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	if p == Week1 {
		// Go's weekday has Sunday = 0; weeks start on Monday.
		back := (int(day.Weekday()) + 6) % 7
		return day.AddDate(0, 0, -back).Unix()
	}
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC).Unix()
}

// candle is one kline bucket. last is the id of the last trade applied, so a
// replayed trade (id not after last) is not counted twice.
type candle struct {
	start                  int64
	open, high, low, close decimal.Decimal
	vol, amount            decimal.Decimal
	count                  int64
	last                   string
}

// apply adds a trade to the candle unless it was already applied. It
// reports whether the candle changed.
func (c *candle) apply(t Trade) bool {
	if c.last != "" && compareIDs(t.ID, c.last) <= 0 {
		return false
	}
	if c.count == 0 {
		c.open, c.high, c.low = t.Price, t.Price, t.Price
	}
	if t.Price.GreaterThan(c.high) {
		c.high = t.Price
	}
	if t.Price.LessThan(c.low) {
		c.low = t.Price
	}
	c.close = t.Price
	c.vol = c.vol.Add(t.Qty)
	c.amount = c.amount.Add(t.Qty.Mul(t.Price))
	c.count++
	c.last = t.ID
	return true
}

// compareIDs orders trade ids: ids made of digits compare as numbers (so
// "10" follows "9"), anything else as strings. The engine's trade ids must
// increase per symbol in this order.
func compareIDs(a, b string) int {
	if isDigits(a) && isDigits(b) {
		a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
		if len(a) != len(b) {
			if len(a) < len(b) {
				return -1
			}
			return 1
		}
	}
	return strings.Compare(a, b)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
