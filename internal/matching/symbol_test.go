package matching

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func btcUSDT() SymbolConfig {
	return SymbolConfig{Symbol: "BTCUSDT", PriceTick: dec("0.01"), LotSize: dec("0.0001"), PricePrecision: 2,
		QtyPrecision: 4, MinQty: dec("0.00015"), MinNotional: dec("5")}
}

func TestSymbolConversions(t *testing.T) {
	c := btcUSDT()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	ticks := []struct {
		in   string
		want int64
		err  error
	}{
		{"65000.01", 6500001, nil}, {"0.01", 1, nil}, {"65000.10", 6500010, nil},
		{"65000.015", 0, ErrOffTick}, {"0", 0, ErrNonPositive}, {"-1", 0, ErrNonPositive}, {"1e30", 0, ErrTooLarge},
	}
	for _, tc := range ticks {
		got, err := c.ToTicks(dec(tc.in))
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("ToTicks(%s) = %d, %v", tc.in, got, err)
		}
		if err == nil && !c.FromTicks(got).Equal(dec(tc.in)) {
			t.Errorf("FromTicks(%d) = %s", got, c.FromTicks(got))
		}
	}
	lots := []struct {
		in   string
		want int64
		err  error
	}{
		{"1.5", 15000, nil}, {"0.0001", 1, nil}, {"0.00015", 0, ErrOffLot}, {"0", 0, ErrNonPositive},
	}
	for _, tc := range lots {
		got, err := c.ToLots(dec(tc.in))
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("ToLots(%s) = %d, %v", tc.in, got, err)
		}
		if err == nil && !c.FromLots(got).Equal(dec(tc.in)) {
			t.Errorf("FromLots(%d) = %s", got, c.FromLots(got))
		}
	}
	// Quote units are 0.01 × 0.0001 = 0.000001 USDT.
	if u, err := c.QuoteToUnits(dec("100.5")); err != nil || u != 100_500_000 {
		t.Errorf("QuoteToUnits = %d, %v", u, err)
	}
	if _, err := c.QuoteToUnits(dec("100.0000005")); !errors.Is(err, ErrOffQuote) {
		t.Errorf("off-grid quote: %v", err)
	}
	if u, err := c.QuoteToUnitsFloor(dec("100.0000005")); err != nil || u != 100_000_000 {
		t.Errorf("QuoteToUnitsFloor = %d, %v", u, err)
	}
	if !c.FromQuoteUnits(100_500_000).Equal(dec("100.5")) {
		t.Error("FromQuoteUnits")
	}
	// A trade's quote in units converts back to price × quantity exactly.
	p, _ := c.ToTicks(dec("65000.01"))
	q, _ := c.ToLots(dec("0.0003"))
	if !c.FromQuoteUnits(p * q).Equal(dec("65000.01").Mul(dec("0.0003"))) {
		t.Error("notional in units")
	}
	bc, err := c.BookConfig(3)
	if err != nil {
		t.Fatal(err)
	}
	// 0.00015 BTC rounds up to 2 lots; 5 USDT is 5,000,000 units.
	if bc.Symbol != 3 || bc.MinQty != 2 || bc.MinNotional != 5_000_000 || bc.MaxPrice != DefaultMaxPrice {
		t.Errorf("book config %+v", bc)
	}
	for r, err := range map[Reason]error{ReasonPriceOffTick: ErrOffTick, ReasonQtyOffLot: ErrOffLot, ReasonQuoteOffGrid: ErrOffQuote, ReasonTooLarge: ErrTooLarge, ReasonInvalidQty: ErrNonPositive, ReasonNone: nil} {
		if ReasonFor(err) != r {
			t.Errorf("ReasonFor(%v) = %s", err, ReasonFor(err))
		}
	}
}

func TestSymbolConfigValidate(t *testing.T) {
	bad := []SymbolConfig{
		{Symbol: "X", PriceTick: dec("0"), LotSize: dec("1")},
		{Symbol: "X", PriceTick: dec("0.001"), LotSize: dec("1"), PricePrecision: 2},
		{Symbol: "X", PriceTick: dec("0.01"), LotSize: dec("0.01"), PricePrecision: 2, QtyPrecision: 1},
		{Symbol: "X", PriceTick: dec("0.01"), LotSize: dec("1"), PricePrecision: 2, MinQty: dec("-1")},
		{Symbol: "X", PriceTick: dec("1"), LotSize: dec("1"), PricePrecision: 19},
	}
	for i, c := range bad {
		if c.Validate() == nil {
			t.Errorf("config %d accepted", i)
		}
		if _, err := c.BookConfig(1); err == nil {
			t.Errorf("config %d: BookConfig accepted", i)
		}
	}
}

func TestBookConfigKeepsProductsInRange(t *testing.T) {
	c := BookConfig{MaxPrice: 1 << 40, MaxQty: 1 << 40}
	c.normalise()
	if c.MaxPrice*c.MaxQty < 0 || c.MaxQty > (1<<63-1)/c.MaxPrice {
		t.Fatalf("product overflows: %d × %d", c.MaxPrice, c.MaxQty)
	}
}

func TestPlaceCommand(t *testing.T) {
	c := btcUSDT()
	cfg, err := c.BookConfig(3)
	if err != nil {
		t.Fatal(err)
	}
	ok := OrderRequest{OrderID: 1, UserID: 2, Side: Buy, Type: Limit, TIF: GTC, Price: "65000.01", Qty: "0.0003"}
	cmd, r := c.PlaceCommand(3, &cfg, ok)
	if r != ReasonNone || cmd.Price != 6500001 || cmd.Qty != 3 || cmd.Symbol != 3 || cmd.Kind != CmdPlace {
		t.Fatalf("%+v %s", cmd, r)
	}
	cases := map[string]struct {
		mod  func(*OrderRequest)
		want Reason
	}{
		"off tick":       {func(o *OrderRequest) { o.Price = "65000.001" }, ReasonPriceOffTick},
		"off lot":        {func(o *OrderRequest) { o.Qty = "0.00031" }, ReasonQtyOffLot},
		"not a number":   {func(o *OrderRequest) { o.Qty = "1e" }, ReasonInvalidCommand},
		"negative price": {func(o *OrderRequest) { o.Price = "-1" }, ReasonInvalidPrice},
		"huge qty":       {func(o *OrderRequest) { o.Qty = "1e40" }, ReasonTooLarge},
		"huge exponent":  {func(o *OrderRequest) { o.Qty = "1e9999" }, ReasonTooLarge},
		"qty over max":   {func(o *OrderRequest) { o.Qty = "9000000000000" }, ReasonTooLarge},
		"price over max": {func(o *OrderRequest) { o.Price = "900000000000000000" }, ReasonTooLarge},
		"zero qty":       {func(o *OrderRequest) { o.Qty = "0.000" }, ReasonInvalidQty},
		"tiny exponent":  {func(o *OrderRequest) { o.Price = "1e-9999" }, ReasonPriceOffTick},
		"long digits":    {func(o *OrderRequest) { o.Price = "1234567890123456789012345678901234567890.5" }, ReasonTooLarge},
		"below min qty":  {func(o *OrderRequest) { o.Qty = "0.0001"; o.Price = "60000" }, ReasonBelowMinQty},
		"below notional": {func(o *OrderRequest) { o.Price = "1" }, ReasonBelowMinNotional},
		"market by quote": {func(o *OrderRequest) {
			o.Type, o.TIF, o.Price, o.Qty, o.Quote = Market, IOC, "", "", "100.5"
		}, ReasonNone},
		"quote off grid": {func(o *OrderRequest) {
			o.Type, o.TIF, o.Price, o.Qty, o.Quote = Market, IOC, "", "", "100.0000001"
		}, ReasonQuoteOffGrid},
		"quote over max": {func(o *OrderRequest) {
			o.Type, o.TIF, o.Price, o.Qty, o.Quote = Market, IOC, "", "", "90000000000000000000"
		}, ReasonTooLarge},
	}
	for name, tc := range cases {
		o := ok
		tc.mod(&o)
		if _, r := c.PlaceCommand(3, &cfg, o); r != tc.want {
			t.Errorf("%s: %s, want %s", name, r, tc.want)
		}
	}
}

// FuzzPlaceCommand fuzzes the decimal order validator: any strings and
// enum values must yield either a valid command (which the book then
// accepts or rejects for a state reason, keeping its invariants) or a
// reject reason, and never a panic.
func FuzzPlaceCommand(f *testing.F) {
	f.Add(uint8(1), uint8(1), uint8(1), "65000.01", "0.0003", "", "")
	f.Add(uint8(1), uint8(2), uint8(2), "", "", "100.5", "")
	f.Add(uint8(2), uint8(1), uint8(3), "64000", "1.2345", "", "64500")
	f.Add(uint8(2), uint8(1), uint8(4), "1e3", "-0", "x", "0.0000001")
	c := btcUSDT()
	cfg, _ := c.BookConfig(1)
	f.Fuzz(func(t *testing.T, side, typ, tif uint8, price, qty, quote, stop string) {
		req := OrderRequest{OrderID: 99, UserID: 5, Side: Side(side), Type: OrderType(typ), TIF: TimeInForce(tif),
			Price: price, Qty: qty, Quote: quote, StopPrice: stop}
		cmd, r := c.PlaceCommand(1, &cfg, req)
		if r != ReasonNone {
			if cmd != (Command{}) {
				t.Fatal("rejected request returned a command")
			}
			return
		}
		if cmd.Validate(&cfg) != ReasonNone {
			t.Fatal("accepted command does not validate")
		}
		b := NewBook(cfg, discard{})
		setup := []Command{lim(1, 1, Buy, 10, 6400000), lim(2, 2, Sell, 10, 6500000)}
		for i := range setup {
			setup[i].Seq = uint64(i + 1)
			setup[i].Symbol = 1
			b.Apply(&setup[i])
		}
		buf := NewEventBuffer(8)
		b.SetSink(buf)
		cmd.Seq = 10
		b.Apply(&cmd)
		if err := b.Check(); err != nil {
			t.Fatal(err)
		}
		if len(buf.Events) == 0 {
			t.Fatal("no event for a place")
		}
		if e := buf.Events[0]; e.Kind == EvRejected && e.Reason != ReasonPostOnlyWouldTake && e.Reason != ReasonStopWouldTrigger {
			t.Fatalf("valid command rejected for %s", e.Reason)
		}
	})
}
