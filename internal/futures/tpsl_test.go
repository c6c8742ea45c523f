package futures_test

import (
	"testing"

	"tenger/internal/apperr"
	"tenger/internal/futures"
)

// A TP/SL placed with an order (parentOrderId) waits for the order: a
// stop-loss for a resting bid does not fire while the bid is unfilled,
// is cancelled with it (reason order_canceled); one for a filled order is
// armed at once; another user's order, or one of another contract, is
// refused.
func TestTriggerWithItsOrder(t *testing.T) {
	e := newEnv(t)
	e.user("1001", "10000")
	e.user("1002", "10000")
	e.index("50000")
	bid := e.order("1001", futures.PlaceRequest{Side: "BUY", Type: "LIMIT", Price: "49500", Volume: "100"})
	sl, err := e.svc.CreateTrigger(ctx, "1001", futures.TriggerRequest{Symbol: "BTCUSDT", TriggerPrice: "48000", ClosePosition: true,
		ParentOrderID: bid.OrderID})
	if err != nil || sl.ParentOrderID != bid.OrderID || sl.Status != futures.TriggerWaiting {
		t.Fatalf("stop-loss with its order %+v %v", sl, err)
	}
	_, err = e.svc.CreateTrigger(ctx, "1002", futures.TriggerRequest{Symbol: "BTCUSDT", TriggerPrice: "48000", ClosePosition: true,
		ParentOrderID: bid.OrderID})
	wantCode(t, err, apperr.CodeFuturesOrderNotFound)
	_, err = e.svc.CreateTrigger(ctx, "1001", futures.TriggerRequest{Symbol: "ETHUSDT", TriggerPrice: "1000", ClosePosition: true,
		ParentOrderID: bid.OrderID})
	if err == nil {
		t.Fatal("a parent of another contract accepted")
	}
	// The index falls below the stop while the bid is unfilled: nothing fires.
	e.index("47000")
	if list, _ := e.svc.Triggers(ctx, "1001", "BTCUSDT", 1, 10); list.Count != 1 {
		t.Fatalf("waiting triggers %+v", list)
	}
	// The bid is cancelled: its stop-loss goes with it.
	if _, err := e.svc.CancelOrder(ctx, "1001", "BTCUSDT", bid.OrderID); err != nil {
		t.Fatal(err)
	}
	if got, err := e.svc.Trigger(ctx, "1001", sl.TriggerID); err != nil || got.Status != futures.TriggerCanceled || got.Reason != "order_canceled" {
		t.Fatalf("after the order's cancel %+v %v", got, err)
	}
	_, err = e.svc.CreateTrigger(ctx, "1001", futures.TriggerRequest{Symbol: "BTCUSDT", TriggerPrice: "40000", ClosePosition: true,
		ParentOrderID: bid.OrderID})
	wantCode(t, err, apperr.CodeFuturesParentEnded)
	// A filled order's take-profit is armed at once (no parent kept).
	e.order("1002", futures.PlaceRequest{Side: "SELL", Type: "LIMIT", Price: "47000", Volume: "100"})
	filled := e.order("1001", futures.PlaceRequest{Side: "BUY", Type: "LIMIT", Price: "47000", Volume: "100"})
	tp, err := e.svc.CreateTrigger(ctx, "1001", futures.TriggerRequest{Symbol: "BTCUSDT", TriggerPrice: "52000", ClosePosition: true,
		ParentOrderID: filled.OrderID})
	if err != nil || tp.ParentOrderID != "" || tp.Status != futures.TriggerWaiting {
		t.Fatalf("take-profit of a filled order %+v %v", tp, err)
	}
}
