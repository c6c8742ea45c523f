package main

import (
	"encoding/json"
	"testing"
	"time"

	"tenger/functions/fntest"
	"tenger/internal/apperr"
	"tenger/internal/httpapi"
)

// TestOrderBatchFromSample runs /fe-ex-api/order/batch through the trade
// function with the recorded event (header auth) on DynamoDB Local: of a
// place, an off-tick place and the cancel of an order placed before, the
// first and last succeed and the second answers 14007, each in its place;
// the good place holds its funds and queues its command, and the cancel
// queues one.
func TestOrderBatchFromSample(t *testing.T) {
	e := newTradeEnv(t)
	uid, tok := e.signUp(t, "batch.user@tenger.example")
	e.fund(t, "deposit:TRC20:tx-batch:0", uid, "TRC20", "USDT", "1000")
	var first httpapi.OrderCreateResp
	fntest.Call(t, e.h, fntest.SampleEvent(t, "http_order_create.json",
		map[string]string{"token": tok, "price": "40000", "volume": "0.01", "clientOrderId": "batch-first"}), &first)
	e.expect(t, "after the first order", uid, "USDT", "600", "400")

	var res []httpapi.OrderBatchResult
	fntest.Call(t, e.h, fntest.SampleEvent(t, "http_order_batch.json",
		map[string]string{"token": tok, "price": "50000", "volume": "0.01", "clientOrderId": "batch-1", "orderId": first.OrderID}), &res)
	if len(res) != 3 || res[0].Code != "0" || res[1].Code != apperr.CodeTradePriceTick || res[2].Code != "0" {
		t.Fatalf("batch results %+v", res)
	}
	b, _ := json.Marshal(res[0].Data)
	var placed httpapi.OrderCreateResp
	if json.Unmarshal(b, &placed) != nil || placed.OrderID == "" || placed.OrderID == first.OrderID {
		t.Fatalf("placed %s", b)
	}
	// The new order holds 500 more; the cancel's release is the engine's.
	e.expect(t, "after the batch", uid, "USDT", "100", "900")
	ds, err := e.orders.Receive(e.ctx, 10, time.Minute, 0)
	if err != nil || len(ds) != 3 {
		t.Fatalf("orders queue holds %d commands (%v), want the first place, the batch's place and its cancel", len(ds), err)
	}
	dedup := map[string]bool{}
	for _, m := range ds {
		dedup[m.DedupID] = true
	}
	if !dedup["place:"+first.OrderID] || !dedup["place:"+placed.OrderID] {
		t.Fatalf("queued dedup ids %v", dedup)
	}
}
