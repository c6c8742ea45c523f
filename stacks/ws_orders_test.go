package stacks

import (
	"strings"
	"testing"
)

// TestWSFunctionEntersOrders: the ws function serves order entry over the
// socket (order.place, order.cancel, order.amend, order.cancelAll) with the
// spot service, as the trade function does: it knows the orders queue and
// the table, and may send to the orders queue and nothing else of it (no
// receive or delete, no other queue), besides its table and connection
// grants.
func TestWSFunctionEntersOrders(t *testing.T) {
	var wsFn string
	for id, r := range resources("realtime", "AWS::Lambda::Function") {
		vars, _ := props(r)["Environment"].(obj)["Variables"].(obj)
		if vars["SERVICE"] != "ws" {
			continue
		}
		wsFn = id
		if vars["ORDERS_QUEUE_URL"] == nil || vars["TABLE_NAME"] == nil || vars["WS_ENDPOINT"] == nil {
			t.Errorf("ws function environment lacks the orders queue, the table or the endpoint: %v", vars)
		}
	}
	if wsFn == "" {
		t.Fatal("no ws function")
	}
	var doc string
	sends := 0
	for id, p := range resources("realtime", "AWS::IAM::Policy") {
		if !strings.HasPrefix(id, "ws") {
			continue
		}
		doc += mustJSON(props(p)["PolicyDocument"])
		for _, st := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
			if !strings.Contains(mustJSON(st.(obj)["Action"]), "sqs:") {
				continue
			}
			sends++
			if res := mustJSON(st.(obj)["Resource"]); !strings.Contains(res, "FnGetAttOrders") || strings.Contains(res, "DLQ") {
				t.Errorf("ws may use the queue %s, want the orders queue only", res)
			}
		}
	}
	if sends != 1 {
		t.Errorf("ws statements on SQS = %d, want 1 (the orders queue)", sends)
	}
	for _, want := range []string{"sqs:SendMessage", "dynamodb:PutItem", "dynamodb:ConditionCheckItem", "execute-api:ManageConnections"} {
		if !strings.Contains(doc, want) {
			t.Errorf("ws policy lacks %s: %s", want, doc)
		}
	}
	for _, not := range []string{"sqs:ReceiveMessage", "sqs:DeleteMessage", "OrdersDLQ", "ses:", "sns:", "states:"} {
		if strings.Contains(doc, not) {
			t.Errorf("ws policy allows %s: %s", not, doc)
		}
	}
}
