package main

import (
	"encoding/json"
	"testing"

	"tenger/functions/fntest"
	"tenger/internal/apperr"
	"tenger/internal/httpapi"
	"tenger/internal/spot"
)

// TestOrderBatchFromSample runs /fe-ex-api/order/batch through the trade
// function with the recorded event (header auth) on DynamoDB Local: of a
// place, an off-tick place and the cancel of an order placed before, the
// first and last succeed and the second answers 14007, each in its place;
// the good place holds its funds and the cancel releases the first order's.
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
	// The cancel released the first order's hold; the batch answered at
	// the journal, the table shows it a moment later.
	e.waitOrder(t, uid, first.OrderID, "cancelled", func(o spot.Order) bool { return o.Status == spot.StatusCancelled })
	e.expect(t, "after the batch", uid, "USDT", "500", "500")
	e.audit(t, "USDT", "BTC")
}
