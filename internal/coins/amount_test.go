package coins

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"
)

func TestTruncateToPrecision(t *testing.T) {
	cases := []struct {
		in   string
		prec int32
		want string
		fix  string
	}{
		{"1.23456789", 3, "1.234", "1.234"},
		{"1.9999", 0, "1", "1"},
		{"0.0000001", 4, "0", "0.0000"},
		{"-1.239", 2, "-1.23", "-1.23"},
		{"12", 2, "12", "12.00"},
		{"5.5", -1, "5", "5"},
	}
	for _, c := range cases {
		got := TruncateToPrecision(dec(c.in), c.prec)
		if !got.Equal(dec(c.want)) {
			t.Errorf("TruncateToPrecision(%s, %d) = %s, want %s", c.in, c.prec, got, c.want)
		}
		if f := FormatFixed(dec(c.in), c.prec); f != c.fix {
			t.Errorf("FormatFixed(%s, %d) = %s, want %s", c.in, c.prec, f, c.fix)
		}
	}
	// Futures transfers keep 3 decimals (spec §5).
	if got := TruncateToPrecision(dec("10.98765"), PrecisionFuturesTransfer); got.String() != "10.987" {
		t.Errorf("futures truncation = %s", got)
	}
}

func TestParseAmount(t *testing.T) {
	ok := []struct {
		in   string
		prec int32
		want string
	}{
		{"1", 8, "1"},
		{"0.5", 1, "0.5"},
		{"5.", 2, "5"},
		{".25", 2, "0.25"},
		{"1.50", 1, "1.5"},
		{"00012.3400", 2, "12.34"},
		{"0.00000001", 8, "0.00000001"},
		{"1.000000000000000000000000000000", 6, "1"},
		{"0.100000000000000000000000000000", 1, "0.1"},
		{"7.", 0, "7"},
	}
	for _, c := range ok {
		got, err := ParseAmount(c.in, c.prec)
		// The value carries no more decimals than the precision allows:
		// the ledger refuses amounts of more than 18.
		if err != nil || !got.Equal(dec(c.want)) || got.Exponent() < -c.prec {
			t.Errorf("ParseAmount(%q, %d) = %s, %v; want %s", c.in, c.prec, got, err, c.want)
		}
	}
	bad := []struct {
		in   string
		prec int32
		want error
	}{
		{"", 8, ErrAmountEmpty},
		{"-1", 8, ErrAmountFormat},
		{"+1", 8, ErrAmountFormat},
		{"1e5", 8, ErrAmountFormat},
		{"1,5", 8, ErrAmountFormat},
		{" 1", 8, ErrAmountFormat},
		{"1.2.3", 8, ErrAmountFormat},
		{".", 8, ErrAmountFormat},
		{"NaN", 8, ErrAmountFormat},
		{"١٢", 8, ErrAmountFormat},
		{"0", 8, ErrAmountZero},
		{"0.000", 8, ErrAmountZero},
		{".000", 8, ErrAmountZero},
		{"0.", 0, ErrAmountZero},
		{"1.234", 2, ErrAmountPrecision},
		{"1.5", 0, ErrAmountPrecision},
		{"0.000000001", 8, ErrAmountPrecision},
		{"1" + string(make([]byte, MaxAmountLen)), 8, ErrAmountTooLong},
	}
	for _, c := range bad {
		if _, err := ParseAmount(c.in, c.prec); !errors.Is(err, c.want) {
			t.Errorf("ParseAmount(%q, %d) = %v, want %v", c.in, c.prec, err, c.want)
		}
	}
}

func FuzzParseAmount(f *testing.F) {
	f.Add("1.5", int32(2))
	f.Fuzz(func(t *testing.T, s string, prec int32) {
		prec = prec % (MaxPrecision + 2) // include one out-of-range value
		d, err := ParseAmount(s, prec)
		if err != nil {
			if !d.Equal(decimal.Zero) {
				t.Fatalf("error with a value: %s, %v", d, err)
			}
			return
		}
		if !d.IsPositive() {
			t.Fatalf("ParseAmount(%q) = %s, not positive", s, d)
		}
		if !IsPlainDecimal(s) || len(s) > MaxAmountLen {
			t.Fatalf("accepted %q", s)
		}
		p := max(prec, 0)
		if !TruncateToPrecision(d, p).Equal(d) {
			t.Fatalf("ParseAmount(%q, %d) = %s has more than %d decimals", s, prec, d, p)
		}
		// The value round-trips through its canonical text.
		again, err := ParseAmount(d.String(), prec)
		if err != nil || !again.Equal(d) {
			t.Fatalf("round trip of %s: %s, %v", d, again, err)
		}
	})
}
