package engine

import (
	"errors"
	"reflect"
	"testing"

	"tenger/internal/matching"
	"tenger/internal/risk"
)

func TestCommandCodecRoundTrip(t *testing.T) {
	cmds := []Command{
		place(11, 1, matching.Sell, 3_000_000, 1_000_000),
		{Kind: KindCancel, At: 1796500000000, Order: matching.Command{OrderID: 11, UserID: 2, Symbol: btcusdt}},
		{Kind: KindCancelAll, Order: matching.Command{UserID: 1, OrderID: 99}},
		{Kind: KindAmend, Order: matching.Command{OrderID: 11, UserID: 1, Symbol: btcusdt, Qty: 100_000, Price: 7}},
		credit("deposit:TRC20:0xabc:0", 12345678, "USDT", 1<<62),
		{Kind: KindCredit, Ref: "r", User: 1, UserID: "1", Coin: "BTC", Amount: 1, Note: []byte("chain:BTC")},
		{Kind: KindHold, Ref: "wd:9", User: 5, UserID: "00000005", Account: risk.KindSpot, Coin: "BTC", Amount: 3},
		{Kind: KindSettle, Ref: "wd:9", Amount: 3},
		{Kind: KindAddCoin, Coin: "TON", Decimals: 9},
		{Kind: KindAddPair, Pair: PairSpec{Symbol: 42, Name: "tonusdt", Base: "TON", Quote: "USDT", LotUnits: 10_000_000,
			QuoteUnitUnits: 1000, Book: matching.BookConfig{Symbol: 42, MinQty: 10, MinNotional: 5_000_000, MaxPrice: 1 << 30,
				MaxQty: 1 << 30, DefaultSTP: matching.STPCancelMaker, InitialOrders: 64, InitialLevels: 32}}},
	}
	cmds[0].Order.STP = matching.STPCancelBoth
	cmds[0].Spec = risk.OrderSpec{Kind: risk.KindSpot, Maker: 75_000, Taker: 90_000}
	for _, c := range cmds {
		b := AppendCommand(nil, &c)
		var got Command
		if err := DecodeCommand(b, &got); err != nil {
			t.Fatalf("%s: %v", c.Kind, err)
		}
		want := c
		if c.Kind <= KindCancelAll {
			want.Order.Kind = bookKind(c.Kind)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got  %+v\n want %+v", c.Kind, got, want)
		}
		for cut := 1; cut < len(b); cut += 7 {
			if err := DecodeCommand(b[:len(b)-cut], &got); !errors.Is(err, ErrCodec) && err == nil {
				t.Fatalf("%s cut by %d decoded", c.Kind, cut)
			}
		}
	}
	if err := DecodeCommand([]byte{9, 1}, new(Command)); !errors.Is(err, ErrCodec) {
		t.Fatalf("another version: %v", err)
	}
}

func FuzzDecodeCommand(f *testing.F) {
	for _, c := range []Command{place(1, 2, matching.Buy, 3, 4), credit("r", 1, "BTC", 5), {Kind: KindAddCoin, Coin: "X", Decimals: 8}} {
		f.Add(AppendCommand(nil, &c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var c Command
		if DecodeCommand(b, &c) != nil {
			return
		}
		// What decodes encodes back to the same bytes.
		if again := AppendCommand(nil, &c); string(again) != string(b) {
			t.Fatalf("%x decoded to %+v, which encodes as %x", b, c, again)
		}
	})
}
