package stacks

import (
	"strings"
	"testing"
)

// TestWSFunctionEntersOrders: the ws function serves order entry over the
// socket (order.place, order.cancel, order.amend, order.cancelAll) with the
// spot service, as the trade function does: it knows the table, the engine
// key and the endpoint, and may read the engine key besides its table and
// connection grants; no queue. Its place in the VPC is
// TestEngineClientFunctions'.
func TestWSFunctionEntersOrders(t *testing.T) {
	var wsFn string
	for id, r := range resources("realtime", "AWS::Lambda::Function") {
		vars := fnVars(r)
		if vars["SERVICE"] != "ws" {
			continue
		}
		wsFn = id
		if vars[envEngineKeySecret] == nil || vars["TABLE_NAME"] == nil || vars["WS_ENDPOINT"] == nil || vars["ORDERS_QUEUE_URL"] != nil {
			t.Errorf("ws function environment lacks the engine key, the table or the endpoint, or names a queue: %v", vars)
		}
	}
	if wsFn == "" {
		t.Fatal("no ws function")
	}
	var doc string
	for id, p := range resources("realtime", "AWS::IAM::Policy") {
		// "wsRole", not "ws": the wsapi function's policy
		// (wsapiRole…) is in this stack too, with the auth key.
		if strings.HasPrefix(id, "wsRole") {
			doc += mustJSON(props(p)["PolicyDocument"])
		}
	}
	for _, want := range []string{"secretsmanager:GetSecretValue", "EngineKey", "dynamodb:PutItem", "dynamodb:ConditionCheckItem", "execute-api:ManageConnections"} {
		if !strings.Contains(doc, want) {
			t.Errorf("ws policy lacks %s: %s", want, doc)
		}
	}
	for _, not := range []string{"sqs:", "AuthKey", "ses:", "sns:", "states:"} {
		if strings.Contains(doc, not) {
			t.Errorf("ws policy allows %s: %s", not, doc)
		}
	}
}
