package matching

import "testing"

func TestRebuildFromOpenOrders(t *testing.T) {
	b, _ := randomBook(t, 41, 6000)
	r := NewBook(BookConfig{Symbol: 7}, discard{})
	var n int
	b.ForEachOrder(func(o OrderInfo) {
		if err := r.LoadOrder(o); err != nil {
			t.Fatal(err)
		}
		n++
	})
	r.SetMarks(b.LastSeq(), b.LastPrice(), b.LastTradeID())
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	if n == 0 || r.StateHash() != b.StateHash() {
		t.Fatalf("rebuilt book differs (%d orders)", n)
	}
	// Refusals: duplicate, crossing, invalid.
	o := bookInfos(b)[0]
	if r.LoadOrder(o) == nil {
		t.Error("duplicate loaded")
	}
	if bp, _, ok := r.BestBid(); ok {
		cross := OrderInfo{ID: 1 << 40, UserID: 1, Side: Sell, TIF: GTC, Price: bp, Qty: 1}
		if r.LoadOrder(cross) == nil {
			t.Error("crossing order loaded")
		}
	}
	for _, bad := range []OrderInfo{
		{ID: 0, Side: Buy, TIF: GTC, Price: 1, Qty: 1},
		{ID: 1 << 41, Side: 3, TIF: GTC, Price: 1, Qty: 1},
		{ID: 1 << 41, Side: Buy, TIF: IOC, Price: 1, Qty: 1},
		{ID: 1 << 41, Side: Buy, TIF: GTC, Price: 0, Qty: 1},
		{ID: 1 << 41, Side: Buy, TIF: GTC, Price: 1, Qty: 0},
		{ID: 1 << 41, Side: Buy, TIF: PostOnly, Price: 1, Qty: 1, StopPrice: 5},
	} {
		if r.LoadOrder(bad) == nil {
			t.Errorf("invalid order loaded: %+v", bad)
		}
	}
	if r.StateHash() != b.StateHash() {
		t.Fatal("refused loads changed the book")
	}
}
