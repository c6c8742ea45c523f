package platform

import (
	"math"
	"reflect"
	"testing"

	"tenger/internal/binance"
)

// Config.APIOrderLimit sets the orders per 10 seconds; the day's limit
// keeps Binance's ratio (2000 times as many), without overflowing.
func TestAPIOrderLimits(t *testing.T) {
	for _, c := range []struct {
		per10s           int
		want10s, wantDay int
	}{
		{0, 100, 200000},
		{-1, 100, 200000},
		{7, 7, 14000},
		{1000000, 1000000, 2000000000},
		{math.MaxInt, math.MaxInt, math.MaxInt / 2000 * 2000},
	} {
		if got, want := apiOrderLimits(c.per10s), binance.OrderRateLimits(c.want10s, c.wantDay); !reflect.DeepEqual(got, want) {
			t.Errorf("apiOrderLimits(%d) = %+v, want %+v", c.per10s, got, want)
		}
	}
}
