package stacks

import (
	"slices"
	"strings"
	"testing"
)

// earnRoutes are the earn function's routes: the increment service and
// the wallet's named savings operations.
var earnRoutes = []string{
	"/fe-increment-api/{proxy+}",
	"/fe-ex-api/wallet/get_project_list",
	"/fe-ex-api/wallet/confirm_subscription",
	"/fe-ex-api/wallet/confirm_auto_sub",
	"/fe-ex-api/wallet/savings/release",
	"/fe-ex-api/newcoinV2/{proxy+}",
	"/fe-ex-api/common/launchpad_footer",
	"/fe-ex-api/api/newcoin_purchase",
}

// TestEarnAreaRoutedToEarnFunction: every path of the earn area (the
// increment service's, the wallet's four named savings operations and the
// launchpad's) reaches the earn function, not the wallet function's or
// the profile function's {proxy+}; the wallet's other paths, its earn
// view among them, and the profile's other common paths stay theirs; the
// development clock (/dev/earn/advance) is not exposed.
func TestEarnAreaRoutedToEarnFunction(t *testing.T) {
	checkArea(t, "earn", areaDeps(t, false).EarnArea(), 20)
	for path, want := range map[string]string{
		"/fe-ex-api/wallet/get_project_list":            "earn",
		"/fe-ex-api/wallet/confirm_subscription":        "earn",
		"/fe-ex-api/wallet/confirm_auto_sub":            "earn",
		"/fe-ex-api/wallet/savings/release":             "earn",
		"/fe-increment-api/noToken/savings/projectPage": "earn",
		"/fe-increment-api/savings/apply":               "earn",
		"/fe-ex-api/wallet/savings/release2":            "wallet",
		"/fe-ex-api/wallet/savings/":                    "wallet",
		"/fe-ex-api/wallet/get_earn_balance":            "wallet",
		"/fe-ex-api/wallet/confirm_withdraw":            "wallet",
		"/fe-increment-api/":                            "", // a greedy route needs a segment
	} {
		if fn, route := selectRoute(path); fn != want {
			t.Errorf("%s → %q (%s), want %q", path, fn, route, want)
		}
	}
	for _, r := range areaDeps(t, true).EarnArea() {
		for _, rt := range r.Routes() {
			if strings.HasPrefix(rt.Path, "/dev/") {
				if fn, route := selectRoute(rt.Path); fn != "" {
					t.Errorf("%s is exposed through %s (%s)", rt.Path, route, fn)
				}
			}
		}
	}
	if spec := apiFunctionSpec(t, "earn"); !slices.Equal(spec.Routes, earnRoutes) {
		t.Errorf("earn routes %v, want %v", spec.Routes, earnRoutes)
	}
}

// TestEarnFunction: the earn function is deployed in the Api stack (arm64,
// 512 MiB, 29 s, the table and the engine key; an engine client:
// TestEngineClientFunctions), the HTTP API sends every earn route to its
// live alias with GET and POST (the wallet's {proxy+} keeps its own
// integration), an EventBridge rule invokes that alias every 5 minutes
// and may (a resource policy for events.amazonaws.com from that rule),
// and its role holds the table as the earn key space declares: the
// savings, stakes, loans, commitments, records and postings written (and
// the products' partition, for the staking totals and the sales' states),
// sessions, reference prices and the liquidator's orders read, both
// indexes queried; the admin function writes the products; the wallet
// function reads the savings for its earn view and writes none of them.
func TestEarnFunction(t *testing.T) {
	var fn string
	for id, r := range resources("api", "AWS::Lambda::Function") {
		vars := fnVars(r)
		if vars["SERVICE"] != "earn" {
			continue
		}
		fn = id
		p := props(r)
		if vars[envEngineKeySecret] == nil || vars["TABLE_NAME"] == nil || vars["STAGE"] != StageDev {
			t.Errorf("earn function environment lacks the engine key, the table or the stage: %v", vars)
		}
		if !strings.Contains(mustJSON(p["Architectures"]), "arm64") || p["MemorySize"] != float64(512) || p["Timeout"] != float64(29) {
			t.Errorf("earn function: %v, %v MiB, %v s; want arm64, 512, 29", p["Architectures"], p["MemorySize"], p["Timeout"])
		}
	}
	if fn == "" {
		t.Fatal("no earn function in the Api stack")
	}
	alias := liveAliasOf("api", fn)
	integrationOf := func(aliasID string) string {
		for id, r := range resources("api", "AWS::ApiGatewayV2::Integration") {
			if strings.Contains(mustJSON(props(r)["IntegrationUri"]), `"`+aliasID+`"`) {
				return id
			}
		}
		return ""
	}
	integ := integrationOf(alias)
	if alias == "" || integ == "" {
		t.Fatalf("earn live alias %q, integration %q", alias, integ)
	}
	routes := map[string]string{}
	for _, r := range resources("api", "AWS::ApiGatewayV2::Route") {
		routes[props(r)["RouteKey"].(string)] = mustJSON(props(r)["Target"])
	}
	for _, path := range earnRoutes {
		for _, method := range []string{"GET", "POST"} {
			if target, ok := routes[method+" "+path]; !ok || !strings.Contains(target, integ) {
				t.Errorf("route %s %s: %q, want the earn integration %s", method, path, target, integ)
			}
		}
	}
	if target := routes["POST /fe-ex-api/wallet/{proxy+}"]; target == "" || strings.Contains(target, integ) {
		t.Errorf("POST /fe-ex-api/wallet/{proxy+} → %q: the wallet function's, not the earn function's", target)
	}

	// The schedule: every 5 minutes, the live alias, allowed by the rule.
	var rule string
	for id, r := range resources("api", "AWS::Events::Rule") {
		p := props(r)
		if p["ScheduleExpression"] == "rate(5 minutes)" && p["State"] == "ENABLED" {
			targets := asList(p["Targets"])
			if len(targets) == 1 && mustJSON(targets[0].(obj)["Arn"]) == mustJSON(obj{"Ref": alias}) {
				rule = id
			}
		}
	}
	if rule == "" {
		t.Fatal("no enabled rule invokes the earn function's live alias every 5 minutes")
	}
	allowed := false
	for _, r := range resources("api", "AWS::Lambda::Permission") {
		p := props(r)
		if p["Principal"] == "events.amazonaws.com" && p["Action"] == "lambda:InvokeFunction" &&
			mustJSON(p["FunctionName"]) == mustJSON(obj{"Ref": alias}) && strings.Contains(mustJSON(p["SourceArn"]), `"`+rule+`"`) {
			allowed = true
		}
	}
	if !allowed {
		t.Error("EventBridge may not invoke the earn function's live alias from its rule")
	}

	// The table as the key spaces say.
	reads, writes := map[string][]string{}, map[string][]string{}
	indexes := map[string][]string{}
	for name, g := range grantees() {
		for _, st := range statementsOf(g) {
			res := mustJSON(st["Resource"])
			if strings.Contains(res, "/index/") && slices.Contains(actionsOf(st), "dynamodb:Query") {
				for _, ix := range []string{"gsi1", "gsi2"} {
					if strings.Contains(res, "/index/"+ix+`"`) {
						indexes[name] = append(indexes[name], ix)
					}
				}
			}
			keys, ok := leadingKeys(st)
			if !ok {
				continue
			}
			for _, a := range actionsOf(st) {
				switch a {
				case "dynamodb:GetItem":
					reads[name] = keys
				case "dynamodb:PutItem":
					writes[name] = keys
				}
			}
		}
	}
	if !sameSet(writes["earn"], []string{"BAL#*", "EARN#*", "EARNLOG#*", "EARNSTATE", "LPC#*", "POST#*"}) {
		t.Errorf("earn writes %v, want its positions, records, commitments, its own state and the earn accounts' postings only (never the operator's products)", writes["earn"])
	}
	for _, p := range []string{"EARNCFG", "ENGLEASE", "SESSION#*", "USER#*", "CONFIG#*", "refprice", "SORD#*", "SCID#*"} {
		if !slices.Contains(reads["earn"], p) {
			t.Errorf("earn may not read %s: %v", p, reads["earn"])
		}
	}
	for _, p := range []string{"SORD#*", "SCID#*", "WALLET#*", "USER#*", "SESSION#*", "refprice"} {
		if slices.Contains(writes["earn"], p) {
			t.Errorf("earn may write %s (the engine writes orders; the profile and wallet functions the rest): %v", p, writes["earn"])
		}
	}
	if !sameSet(indexes["earn"], []string{"gsi1", "gsi2"}) {
		t.Errorf("earn queries %v, want gsi2 (the due and pending indexes) and gsi1 (the loans' liquidation prices)", indexes["earn"])
	}
	if !slices.Contains(writes[adminFunction], "EARNCFG") {
		t.Errorf("the admin function may not write the savings products: %v", writes[adminFunction])
	}
	for _, p := range []string{"EARN#*", "EARNLOG#*", "EARNCFG"} {
		if !slices.Contains(reads["wallet"], p) || slices.Contains(writes["wallet"], p) {
			t.Errorf("wallet reads %v, writes %v: want %s read (its earn view), not written", reads["wallet"], writes["wallet"], p)
		}
	}
}
