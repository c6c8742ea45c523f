package stacks

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2"
)

// openAPIPrefixes are the Binance-compatible API's routes in the stack.
var openAPIPrefixes = []string{"/api/v3/{proxy+}", "/sapi/{proxy+}", "/fapi/{proxy+}", "/dapi/{proxy+}"}

// apiKeyPaths are the API key management calls the profile function serves.
var apiKeyPaths = []string{
	"/fe-ex-api/openapi/create_open_api",
	"/fe-ex-api/openapi/update_open_api",
	"/fe-ex-api/openapi/delete_open_api",
	"/fe-ex-api/sub_user/openapi/sub_user_api_list",
}

func apiFunctionSpec(t *testing.T, name string) apiFunction {
	t.Helper()
	for _, f := range apiFunctions {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no %s entry in apiFunctions", name)
	return apiFunction{}
}

// TestOpenAPIRouteSelection: the Binance-compatible prefixes go to the
// openapi function, the API key calls to the profile function.
func TestOpenAPIRouteSelection(t *testing.T) {
	for path, want := range map[string]string{
		"/api/v3/order":                  "openapi",
		"/api/v3/ticker/24hr":            "openapi",
		"/sapi/v1/capital/config/getall": "openapi",
		"/fapi/v1/exchangeInfo":          "openapi",
		"/dapi/v1/exchangeInfo":          "openapi",
		"/api/v3/":                       "", // a greedy route needs a segment
		"/api/v1/ping":                   "", // only v3 is served
		"/fe-ex-api/openapi/x":           "profile",
		"/fe-ex-api/sub_user/openapi/x":  "profile",
	} {
		if fn, route := selectRoute(path); fn != want {
			t.Errorf("%s → %q (%s), want %q", path, fn, route, want)
		}
	}
}

// TestBinanceAPIRoutedToOpenAPIFunction: every prefix the Binance-compatible
// server answers is one of the openapi function's routes, and the
// endpoints bots and CCXT call reach the openapi function with a method it
// is routed and are endpoints of the server (not its 404).
func TestBinanceAPIRoutedToOpenAPIFunction(t *testing.T) {
	d := areaDeps(t, false)
	d.SecretKey = []byte("routes-test-secret-key-0123456789abcdef")
	api, err := d.BinanceAPI()
	if err != nil {
		t.Fatal(err)
	}
	spec := apiFunctionSpec(t, "openapi")
	for _, p := range api.Prefixes() {
		if fn, route := selectRoute(p + "v1/x"); fn != "openapi" || route != p+"{proxy+}" {
			t.Errorf("prefix %s goes to %q through %q, want the openapi function's %s{proxy+}", p, fn, route, p)
		}
	}
	if len(api.Prefixes()) != len(spec.Routes) {
		t.Errorf("the server answers %v, the function is routed %v", api.Prefixes(), spec.Routes)
	}
	for _, ep := range []struct{ method, path string }{
		{http.MethodGet, "/api/v3/ping"},
		{http.MethodGet, "/api/v3/time"},
		{http.MethodGet, "/api/v3/exchangeInfo"},
		{http.MethodGet, "/api/v3/depth"},
		{http.MethodGet, "/api/v3/trades"},
		{http.MethodGet, "/api/v3/klines"},
		{http.MethodGet, "/api/v3/ticker/24hr"},
		{http.MethodGet, "/api/v3/account"},
		{http.MethodPost, "/api/v3/order"},
		{http.MethodPost, "/api/v3/order/test"},
		{http.MethodGet, "/api/v3/order"},
		{http.MethodDelete, "/api/v3/order"},
		{http.MethodGet, "/api/v3/openOrders"},
		{http.MethodDelete, "/api/v3/openOrders"},
		{http.MethodGet, "/api/v3/allOrders"},
		{http.MethodGet, "/api/v3/myTrades"},
		{http.MethodGet, "/sapi/v1/capital/config/getall"},
		{http.MethodGet, "/sapi/v1/margin/allPairs"},
		{http.MethodGet, "/sapi/v1/capital/deposit/address"},
		{http.MethodGet, "/sapi/v1/capital/deposit/hisrec"},
		{http.MethodPost, "/sapi/v1/capital/withdraw/apply"},
		{http.MethodGet, "/sapi/v1/capital/withdraw/history"},
		{http.MethodGet, "/fapi/v1/exchangeInfo"},
		{http.MethodGet, "/dapi/v1/exchangeInfo"},
	} {
		if fn, route := selectRoute(ep.path); fn != "openapi" {
			t.Errorf("%s goes to %q through %q, want the openapi function", ep.path, fn, route)
		}
		if !slices.Contains(spec.Methods, awsapigatewayv2.HttpMethod(ep.method)) {
			t.Errorf("%s %s: the method is not routed (%v)", ep.method, ep.path, spec.Methods)
		}
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, httptest.NewRequest(ep.method, ep.path, nil))
		if rec.Code == http.StatusNotFound {
			t.Errorf("%s %s is not an endpoint of the server", ep.method, ep.path)
		}
	}
	// The probe tells endpoints from other paths.
	rec := httptest.NewRecorder()
	api.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v3/no-such-endpoint", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("an unknown path answered %d", rec.Code)
	}
}

// TestAPIKeyRoutesRoutedToProfileFunction: the API key calls (which the
// profile area serves once it can seal their secrets, as in AWS with the
// auth key) reach the profile function, with the rest of its area.
func TestAPIKeyRoutesRoutedToProfileFunction(t *testing.T) {
	d := areaDeps(t, false)
	d.SecretKey = []byte("routes-test-secret-key-0123456789abcdef")
	routers := d.ProfileArea()
	checkArea(t, "profile", routers, 24)
	served := map[string]bool{}
	for _, r := range routers {
		for _, rt := range r.Routes() {
			served[rt.Path] = true
		}
	}
	for _, p := range apiKeyPaths {
		if !served[p] {
			t.Errorf("the profile area does not serve %s", p)
		}
	}
}

// TestOpenAPIFunction: the openapi function serves the four prefixes with
// GET, POST, PUT, DELETE and OPTIONS (preflights; and nothing else), the profile function the
// API key calls; the openapi function knows the table, the engine key and
// the auth key, and may use the table and read those two keys: no queue,
// no notifications, no workflows. Its place in the VPC is
// TestEngineClientFunctions', its auth key TestAuthKeySecret's, its pushes
// (the live stage's connections, as the wallet function's)
// TestPushGrantedWhereUpdatesArePushed's.
func TestOpenAPIFunction(t *testing.T) {
	fnIDs := map[string]string{}
	for id, r := range resources("api", "AWS::Lambda::Function") {
		vars := fnVars(r)
		name, _ := vars["SERVICE"].(string)
		fnIDs[name] = id
		if name != "openapi" {
			continue
		}
		for _, v := range []string{envEngineKeySecret, envAuthKeySecret, "TABLE_NAME"} {
			if vars[v] == nil {
				t.Errorf("openapi function environment lacks %s: %v", v, vars)
			}
		}
		for _, v := range []string{"ORDERS_QUEUE_URL", "SECRET_KEY"} {
			if vars[v] != nil {
				t.Errorf("openapi function environment has %s: %v", v, vars)
			}
		}
	}
	if fnIDs["openapi"] == "" || fnIDs["profile"] == "" {
		t.Fatalf("functions %v", fnIDs)
	}
	integration := func(fn string) string {
		t.Helper()
		for id, r := range resources("api", "AWS::ApiGatewayV2::Integration") {
			if strings.Contains(mustJSON(props(r)["IntegrationUri"]), `"`+liveAliasOf("api", fnIDs[fn])+`"`) {
				return id
			}
		}
		t.Fatalf("no integration for the %s function", fn)
		return ""
	}
	openInteg, profileInteg := integration("openapi"), integration("profile")
	routes := map[string]string{}
	toOpen := 0
	for _, r := range resources("api", "AWS::ApiGatewayV2::Route") {
		target := mustJSON(props(r)["Target"])
		routes[props(r)["RouteKey"].(string)] = target
		if strings.Contains(target, openInteg) {
			toOpen++
		}
	}
	for _, path := range openAPIPrefixes {
		for _, m := range []string{"GET", "POST", "PUT", "DELETE", "OPTIONS"} {
			if target, ok := routes[m+" "+path]; !ok {
				t.Errorf("route %s %s missing", m, path)
			} else if !strings.Contains(target, openInteg) {
				t.Errorf("route %s %s targets %s, not the openapi integration %s", m, path, target, openInteg)
			}
		}
	}
	if toOpen != 5*len(openAPIPrefixes) {
		t.Errorf("routes to the openapi function = %d, want %d", toOpen, 5*len(openAPIPrefixes))
	}
	for _, path := range []string{"/fe-ex-api/openapi/{proxy+}", "/fe-ex-api/sub_user/{proxy+}"} {
		for _, m := range []string{"GET", "POST"} {
			if target, ok := routes[m+" "+path]; !ok {
				t.Errorf("route %s %s missing", m, path)
			} else if !strings.Contains(target, profileInteg) {
				t.Errorf("route %s %s targets %s, not the profile integration %s", m, path, target, profileInteg)
			}
		}
	}

	var doc string
	policies := 0
	for id, p := range resources("api", "AWS::IAM::Policy") {
		if strings.HasPrefix(id, "openapi") {
			policies++
			doc += mustJSON(props(p)["PolicyDocument"])
		}
	}
	if policies != 1 {
		t.Fatalf("openapi policies = %d, want 1", policies)
	}
	for _, want := range []string{"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query", "dynamodb:ConditionCheckItem",
		"secretsmanager:GetSecretValue", "EngineKey", "AuthKey", "/live/POST/@connections/*"} {
		if !strings.Contains(doc, want) {
			t.Errorf("openapi policy lacks %s: %s", want, doc)
		}
	}
	for _, not := range []string{"sqs:", "ses:", "sns:", "states:", "elasticfilesystem:"} {
		if strings.Contains(doc, not) {
			t.Errorf("openapi policy allows %s: %s", not, doc)
		}
	}
}
