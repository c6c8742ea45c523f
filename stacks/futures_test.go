package stacks

import (
	"slices"
	"strings"
	"testing"
)

// TestFuturesFunction: the futures function serves /fe-co-api/{proxy+}
// (POST, and GET for the market data calls), is arm64, knows the table
// and the engine key (it is an engine client: TestEngineClientFunctions),
// reads the futures items the engine's projection writes and writes only
// the users' futures settings; the engine task may write the futures
// items.
func TestFuturesFunction(t *testing.T) {
	routes := map[string]string{}
	for _, r := range resources("api", "AWS::ApiGatewayV2::Route") {
		routes[props(r)["RouteKey"].(string)] = mustJSON(props(r)["Target"])
	}
	var fn string
	for id, r := range resources("api", "AWS::Lambda::Function") {
		vars := fnVars(r)
		if vars["SERVICE"] == "futures" {
			fn = id
			if vars[envEngineKeySecret] == nil || vars["TABLE_NAME"] == nil {
				t.Errorf("futures function environment lacks the engine key or the table: %v", vars)
			}
			if p := props(r); !strings.Contains(mustJSON(p["Architectures"]), "arm64") {
				t.Errorf("futures function is not arm64: %v", p["Architectures"])
			}
		}
	}
	if fn == "" {
		t.Fatal("no futures function")
	}
	var integ string
	for id, r := range resources("api", "AWS::ApiGatewayV2::Integration") {
		if strings.Contains(mustJSON(props(r)["IntegrationUri"]), `"`+liveAliasOf("api", fn)+`"`) {
			integ = id
		}
	}
	for _, method := range []string{"POST", "GET"} {
		target, ok := routes[method+" /fe-co-api/{proxy+}"]
		if !ok || integ == "" || !strings.Contains(target, integ) {
			t.Errorf("route %s /fe-co-api/{proxy+}: %q, want the futures integration %s", method, target, integ)
		}
	}
	writes := map[string][]string{}
	for name, g := range grantees() {
		for _, st := range statementsOf(g) {
			keys, ok := leadingKeys(st)
			if !ok {
				continue
			}
			for _, a := range actionsOf(st) {
				if a == "dynamodb:PutItem" {
					writes[name] = keys
				}
			}
		}
	}
	if !slices.Equal(writes["futures"], []string{"COMP#*", "COMPU#*", "FUSER#*"}) {
		t.Errorf("futures writes %v, want only the competitions' participants and the futures settings", writes["futures"])
	}
	// The competitions' schedule: every minute, the competition function (an engine client).
	rule := false
	for _, r := range resources("workflows", "AWS::Events::Rule") {
		if p := props(r); p["ScheduleExpression"] == "rate(1 minute)" && strings.Contains(mustJSON(p["Targets"]), "competition") {
			rule = true
		}
	}
	if !rule {
		t.Error("no rule invokes the competition function every minute")
	}
	if !slices.Contains(writes["competition"], "COMPRANK#*") || slices.Contains(writes["competition"], "BAL#*") {
		t.Errorf("competition writes %v: its ranks, never balances (the engine pays the prizes)", writes["competition"])
	}
	for _, p := range []string{"FORD#*", "FPOS#*", "FTRDU#*", "FFUND#*", "FTRIG#*", "FPRICE#*"} {
		if !slices.Contains(writes["engine-fargate"], p) {
			t.Errorf("the engine task may not write %s: %v", p, writes["engine-fargate"])
		}
	}
}
