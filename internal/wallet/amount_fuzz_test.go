package wallet

import (
	"testing"

	"tenger/internal/coins"
)

// FuzzTransferAmount: any input is either refused with a catalogue error or
// yields a positive amount within the allowed decimals (3 for futures).
func FuzzTransferAmount(f *testing.F) {
	for _, s := range []string{"1", "0.1", "12.3456789", ".5", "5.", "0", "", "1e5", "-1", "1..2", "99999999999999999999.999999"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	cat, err := coins.Defaults()
	if err != nil {
		f.Fatal(err)
	}
	usdt, _ := cat.Coin("USDT")
	f.Fuzz(func(t *testing.T, s string, futures bool) {
		d, err := parseTransferAmount(s, usdt, futures)
		if err != nil {
			return
		}
		max := usdt.Precision
		if futures {
			max = coins.PrecisionFuturesTransfer
		}
		if !d.IsPositive() || -d.Exponent() > max && !d.Equal(d.Truncate(max)) {
			t.Fatalf("%q -> %s", s, d)
		}
	})
}
