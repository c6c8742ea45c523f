package stacks

import (
	"slices"
	"strings"
	"testing"

	"github.com/aws/jsii-runtime-go"

	"tenger/internal/platform"
)

// webSocketAPIs returns the logical ids of the realtime stack's two
// WebSocket APIs: the web app's (tenger-dev-ws) and the Binance-compatible
// one (tenger-dev-ws-api).
func webSocketAPIs(t *testing.T) (web, binance string) {
	t.Helper()
	apis := resources("realtime", "AWS::ApiGatewayV2::Api")
	for id, r := range apis {
		if props(r)["ProtocolType"] != "WEBSOCKET" {
			t.Errorf("%s: protocol %v", id, props(r)["ProtocolType"])
		}
		switch props(r)["Name"] {
		case "tenger-" + StageDev + "-ws":
			web = id
		case "tenger-" + StageDev + "-ws-api":
			binance = id
		}
	}
	if len(apis) != 2 || web == "" || binance == "" {
		t.Fatalf("WebSocket APIs %v, want the web app's (-ws) and the Binance-compatible one (-ws-api)", mustJSON(apis))
	}
	return web, binance
}

// connectionsResource splits one resource of a ManageConnections statement,
// {"Fn::Join": ["", ["arn:", …, {"Ref": <api>}, "/<stage>/<METHOD>/@connections/*"]]},
// into the API's logical id and the path after it ("" when it has another shape).
func connectionsResource(res any) (api, path string) {
	join, _ := res.(obj)["Fn::Join"].([]any)
	if len(join) != 2 {
		return "", ""
	}
	parts, _ := join[1].([]any)
	if len(parts) < 2 {
		return "", ""
	}
	ref, _ := parts[len(parts)-2].(obj)
	api, _ = ref["Ref"].(string)
	path, _ = parts[len(parts)-1].(string)
	return api, path
}

// manageConnectionsGrants returns what a function's ManageConnections
// statements allow, as "<api logical id><path>" per resource, e.g.
// "WebSocketApi34BCF99B/live/POST/@connections/*", failing on any other
// action in the statement or a resource of another shape.
func manageConnectionsGrants(t *testing.T, f deployedFunction) []string {
	t.Helper()
	var out []string
	for _, st := range f.statements(t) {
		if !strings.Contains(mustJSON(st["Action"]), "execute-api:") {
			continue
		}
		if got := mustJSON(st["Action"]); got != `"execute-api:ManageConnections"` {
			t.Errorf("%s: API Gateway actions %s", f.id, got)
		}
		for _, res := range asList(st["Resource"]) {
			api, path := connectionsResource(res)
			if api == "" || path == "" {
				t.Errorf("%s: ManageConnections on %s", f.id, mustJSON(res))
				continue
			}
			out = append(out, api+path)
		}
	}
	slices.Sort(out)
	return out
}

// connectionsOf is what manageConnections allows on one stage of one API,
// sorted as manageConnectionsGrants returns it.
func connectionsOf(api, stage string) []string {
	out := []string{}
	for _, m := range []string{"DELETE", "GET", "POST"} {
		out = append(out, api+"/"+stage+"/"+m+"/@connections/*")
	}
	return out
}

// TestBinanceWebSocketAPI: the second WebSocket API (tenger-<stage>-ws-api)
// has an auto-deployed stage "v3" with the other stages' throttling, and
// its $connect, $disconnect and $default routes are Lambda (AWS_PROXY)
// integrations of the wsapi function; the web app's API keeps its three
// routes to the ws function. The stack outputs the new API's wss:// URL.
func TestBinanceWebSocketAPI(t *testing.T) {
	web, binance := webSocketAPIs(t)
	fns := ourFunctions(t)
	if fns["wsapi"].stack != "realtime" {
		t.Fatalf("the wsapi function is in the %s stack", fns["wsapi"].stack)
	}

	stages := map[string]obj{}
	for _, r := range resources("realtime", "AWS::ApiGatewayV2::Stage") {
		stages[mustJSON(props(r)["ApiId"])] = props(r)
	}
	if len(stages) != 2 {
		t.Errorf("WebSocket stages = %d, want 2 (live and v3)", len(stages))
	}
	st := stages[mustJSON(obj{"Ref": binance})]
	if st == nil {
		t.Fatalf("no stage of %s", binance)
	}
	throttle, _ := st["DefaultRouteSettings"].(obj)
	if st["StageName"] != binanceWSStageName || binanceWSStageName != "v3" || st["AutoDeploy"] != true ||
		throttle["ThrottlingRateLimit"] != throttleRate(Config{Stage: StageDev}) ||
		throttle["ThrottlingBurstLimit"] != throttleBurst(Config{Stage: StageDev}) {
		t.Errorf("Binance-compatible stage = %s, want v3, auto-deployed, throttled as the live stage", mustJSON(st))
	}
	if live := stages[mustJSON(obj{"Ref": web})]; live == nil || live["StageName"] != wsStageName {
		t.Errorf("web app's stage = %s, want %s", mustJSON(live), wsStageName)
	}

	// Integrations by function.
	integrations := map[string]string{} // integration id → function name
	for id, r := range resources("realtime", "AWS::ApiGatewayV2::Integration") {
		uri := mustJSON(props(r)["IntegrationUri"])
		if props(r)["IntegrationType"] != "AWS_PROXY" {
			t.Errorf("%s: integration type %v", id, props(r)["IntegrationType"])
		}
		for _, name := range []string{"ws", "wsapi"} {
			if strings.Contains(uri, `"`+liveAliasOf("realtime", fns[name].id)+`"`) {
				integrations[id] = name
			}
		}
		if integrations[id] == "" {
			t.Errorf("%s integrates %s", id, uri)
		}
	}
	routes := map[string]map[string]string{web: {}, binance: {}} // api → route key → function
	for id, r := range resources("realtime", "AWS::ApiGatewayV2::Route") {
		api, _ := props(r)["ApiId"].(obj)["Ref"].(string)
		if routes[api] == nil {
			t.Errorf("%s: route of API %v", id, props(r)["ApiId"])
			continue
		}
		target := mustJSON(props(r)["Target"])
		fn := ""
		for integ, name := range integrations {
			if strings.Contains(target, `"`+integ+`"`) {
				fn = name
			}
		}
		routes[api][props(r)["RouteKey"].(string)] = fn
	}
	for api, want := range map[string]string{binance: "wsapi", web: "ws"} {
		if len(routes[api]) != 3 {
			t.Errorf("%s routes = %v, want $connect, $disconnect and $default", api, routes[api])
		}
		for _, k := range []string{"$connect", "$disconnect", "$default"} {
			if got := routes[api][k]; got != want {
				t.Errorf("%s %s → %q, want the %s function", api, k, got, want)
			}
		}
	}
	// API Gateway may invoke the wsapi function for its API only.
	perms := 0
	for id, r := range resources("realtime", "AWS::Lambda::Permission") {
		p := props(r)
		if !strings.Contains(mustJSON(p["FunctionName"]), `"`+liveAliasOf("realtime", fns["wsapi"].id)+`"`) {
			continue
		}
		perms++
		if src := mustJSON(p["SourceArn"]); p["Principal"] != "apigateway.amazonaws.com" || !strings.Contains(src, `"`+binance+`"`) {
			t.Errorf("%s: %v may invoke wsapi from %s", id, p["Principal"], src)
		}
	}
	if perms != 3 {
		t.Errorf("invoke permissions of wsapi = %d, want 3 (one a route)", perms)
	}

	expect(t, "BinanceWebSocketApiUrl output", func() {
		templates["realtime"].HasOutput(jsii.String("BinanceWebSocketApiUrl"), like(obj{
			"Value": obj{"Fn::Join": []any{"", []any{"wss://", obj{"Ref": binance}, ".execute-api." + testRegion + ".",
				obj{"Ref": "AWS::URLSuffix"}, "/v3"}}},
		}))
	})
}

// TestWSAPIFunction: the wsapi function serves the Binance-compatible
// WebSocket API as the openapi function serves the REST API: it knows its
// API's management endpoint (BINANCE_WS_ENDPOINT, the v3 stage), the table,
// the engine key and the auth key (no SECRET_KEY, no WS_ENDPOINT: it
// pushes nothing to the web app), and may use the table, read those two
// keys, and post to, close and read its own API's v3 connections, and
// nothing more: no other stage or API, no queue, notifications or
// workflows. Its place in the VPC is TestEngineClientFunctions'.
func TestWSAPIFunction(t *testing.T) {
	if envBinanceWSEndpoint != platform.EnvBinanceWSEndpoint {
		t.Fatalf("the stacks set %s, the platform reads %s", envBinanceWSEndpoint, platform.EnvBinanceWSEndpoint)
	}
	_, binance := webSocketAPIs(t)
	f := ourFunctions(t)["wsapi"]
	vars := f.props["Environment"].(obj)["Variables"].(obj)
	if ep := mustJSON(vars[envBinanceWSEndpoint]); !strings.Contains(ep, `"`+binance+`"`) || !strings.HasSuffix(ep, `"/v3"]]}`) ||
		!strings.Contains(ep, `"https://"`) {
		t.Errorf("wsapi %s = %s, want https://<the Binance-compatible API>…/v3", envBinanceWSEndpoint, ep)
	}
	for v, want := range map[string]string{"TABLE_NAME": "Table", envEngineKeySecret: "EngineKey", envAuthKeySecret: "AuthKey"} {
		if !strings.Contains(mustJSON(vars[v]), want) {
			t.Errorf("wsapi %s = %s, want the %s", v, mustJSON(vars[v]), want)
		}
	}
	for _, v := range []string{"SECRET_KEY", "WS_ENDPOINT", "ORDERS_QUEUE_URL"} {
		if vars[v] != nil {
			t.Errorf("wsapi function environment has %s: %v", v, mustJSON(vars[v]))
		}
	}

	if got, want := manageConnectionsGrants(t, f), connectionsOf(binance, "v3"); !slices.Equal(got, want) {
		t.Errorf("wsapi ManageConnections on %v, want %v", got, want)
	}
	doc := mustJSON(f.statements(t))
	for _, want := range []string{"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query", "dynamodb:ConditionCheckItem",
		"secretsmanager:GetSecretValue", "EngineKey", "AuthKey"} {
		if !strings.Contains(doc, want) {
			t.Errorf("wsapi policy lacks %s: %s", want, doc)
		}
	}
	for _, not := range []string{"sqs:", "ses:", "sns:", "states:", "elasticfilesystem:", "/live/"} {
		if strings.Contains(doc, not) {
			t.Errorf("wsapi policy allows %s: %s", not, doc)
		}
	}
}

// TestStreamPostsToBinanceWebSocketAPI: the stream function posts the
// Binance-compatible user data events to the second API's connections, so
// it knows BINANCE_WS_ENDPOINT (the v3 stage) besides WS_ENDPOINT, and may
// manage both APIs' connections on their one stage each.
func TestStreamPostsToBinanceWebSocketAPI(t *testing.T) {
	web, binance := webSocketAPIs(t)
	f := ourFunctions(t)["stream"]
	vars := f.props["Environment"].(obj)["Variables"].(obj)
	if ep := mustJSON(vars[envBinanceWSEndpoint]); !strings.Contains(ep, `"`+binance+`"`) || !strings.HasSuffix(ep, `"/v3"]]}`) {
		t.Errorf("stream %s = %s, want the Binance-compatible API's v3 stage", envBinanceWSEndpoint, ep)
	}
	if ep := mustJSON(vars["WS_ENDPOINT"]); !strings.Contains(ep, `"`+web+`"`) || !strings.HasSuffix(ep, `"/live"]]}`) {
		t.Errorf("stream WS_ENDPOINT = %s, want the web app's live stage", ep)
	}
	want := append(connectionsOf(binance, "v3"), connectionsOf(web, wsStageName)...)
	slices.Sort(want)
	if got := manageConnectionsGrants(t, f); !slices.Equal(got, want) {
		t.Errorf("stream ManageConnections on %v, want %v", got, want)
	}
}

// TestBinanceWebSocketAPIGrantedToItsFunctionsOnly: only the wsapi and
// stream functions may manage the Binance-compatible API's connections or
// know its endpoint. The web app's ws function keeps its live stage
// grant, and no other function, task or role of any stack names the new API.
func TestBinanceWebSocketAPIGrantedToItsFunctionsOnly(t *testing.T) {
	web, binance := webSocketAPIs(t)
	fns := ourFunctions(t)
	if got, want := manageConnectionsGrants(t, fns["ws"]), connectionsOf(web, wsStageName); !slices.Equal(got, want) {
		t.Errorf("ws ManageConnections on %v, want %v (its own API's live stage only)", got, want)
	}
	if v := fns["ws"].props["Environment"].(obj)["Variables"].(obj)[envBinanceWSEndpoint]; v != nil {
		t.Errorf("ws function knows %s = %s", envBinanceWSEndpoint, mustJSON(v))
	}
	allowed := map[string]bool{fns["wsapi"].roleID(t): true, fns["stream"].roleID(t): true}
	for stack := range raw {
		for id, p := range resources(stack, "AWS::IAM::Policy") {
			if !strings.Contains(mustJSON(props(p)), binance) {
				continue
			}
			roles := asList(props(p)["Roles"])
			ref, _ := roles[0].(obj)["Ref"].(string)
			if stack != "realtime" || len(roles) != 1 || !allowed[ref] {
				t.Errorf("%s/%s names the Binance-compatible API: %s", stack, id, mustJSON(props(p)))
			}
		}
		for id, f := range resources(stack, "AWS::Lambda::Function") {
			vars := fnVars(f)
			name, _ := vars["SERVICE"].(string)
			if v := vars[envBinanceWSEndpoint]; v != nil && name != "wsapi" && name != "stream" {
				t.Errorf("%s/%s (%s) knows %s", stack, id, name, envBinanceWSEndpoint)
			}
		}
		// Outside the realtime stack nothing imports the new API (the
		// engine task posts the market channels to the web app's API
		// only), but the site's distribution, whose /ws-api/* goes to it.
		if stack != "realtime" && stack != "web" && strings.Contains(mustJSON(raw[stack]), binance) {
			t.Errorf("the %s stack names the Binance-compatible API", stack)
		}
	}
}
