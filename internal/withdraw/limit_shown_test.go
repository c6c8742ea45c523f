package withdraw

import (
	"testing"

	"github.com/shopspring/decimal"
)

// The used and left figures of the 24 h limit add up to the limit, and the
// left one never shows more than is left.
func TestLimitShownAddsUp(t *testing.T) {
	limit := decimal.RequireFromString("100000")
	for _, c := range []struct{ used, wantUsed, wantLeft string }{
		{"60.354", "60.36", "99939.64"},
		{"60.35", "60.35", "99939.65"},
		{"0", "0.00", "100000.00"},
		{"0.001", "0.01", "99999.99"},
		{"99999.999", "100000.00", "0.00"},
		{"100001", "100001.00", "0.00"},
	} {
		used, left := limitShown(decimal.RequireFromString(c.used), limit)
		if used != c.wantUsed || left != c.wantLeft {
			t.Errorf("used %s: shown %s + %s, want %s + %s", c.used, used, left, c.wantUsed, c.wantLeft)
		}
		exactLeft := limit.Sub(decimal.RequireFromString(c.used))
		if l := decimal.RequireFromString(left); l.GreaterThan(decimal.Max(exactLeft, decimal.Zero)) {
			t.Errorf("used %s: shows %s left, more than %s", c.used, left, exactLeft)
		}
	}
}
