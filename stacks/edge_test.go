package stacks

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/aws/jsii-runtime-go"

	"tenger/internal/awslambda"
	"tenger/internal/platform"
)

// TestEdgeWebACL: the edge's web ACL (scope CLOUDFRONT, in us-east-1)
// blocks the operator's countries first, then limits every address and,
// lower, sign-in, registration and code sending (429), then AWS's IP
// reputation and core groups (the core group's body rules scoped down by
// the rule after it: identity_test.go), the known-bad-inputs group; the
// paid groups stay off
// unless turned on; its log redacts the session and API key headers.
func TestEdgeWebACL(t *testing.T) {
	if built.Edge == nil {
		t.Fatal("no edge stack: the test app is placed in an account and region")
	}
	if r := *built.Edge.Region(); r != EdgeRegion {
		t.Errorf("edge stack in %s", r)
	}
	acls := resources("edge", "AWS::WAFv2::WebACL")
	if len(acls) != 1 {
		t.Fatalf("%d web ACLs", len(acls))
	}
	var acl obj
	for _, a := range acls {
		acl = props(a)
	}
	if acl["Scope"] != "CLOUDFRONT" || mustJSON(acl["DefaultAction"]) != `{"Allow":{}}` {
		t.Errorf("web ACL %s", mustJSON(acl))
	}
	var names []string
	byName := map[string]obj{}
	for _, r := range asList(acl["Rules"]) {
		names = append(names, r.(obj)["Name"].(string))
		byName[r.(obj)["Name"].(string)] = r.(obj)
	}
	want := []string{"BlockedCountries", "RequestsPerAddress", "SignInAndCodesPerAddress", "IpReputation", "Core",
		"CoreBodyRulesOutsideUploads", "KnownBadInputs"}
	if !slices.Equal(names, want) {
		t.Errorf("rules %v, want %v", names, want)
	}
	if geo := mustJSON(byName["BlockedCountries"]["Statement"]); !strings.Contains(geo, `"CountryCodes":["KP","IR"]`) {
		t.Errorf("geo rule %s", geo)
	}
	rate := byName["RequestsPerAddress"]
	if s := mustJSON(rate["Statement"]); !strings.Contains(s, `"Limit":3000`) || !strings.Contains(s, `"AggregateKeyType":"IP"`) ||
		!strings.Contains(mustJSON(rate["Action"]), `"ResponseCode":429`) {
		t.Errorf("rate rule %s", mustJSON(rate))
	}
	auth := mustJSON(byName["SignInAndCodesPerAddress"]["Statement"])
	if !strings.Contains(auth, `"Limit":100`) {
		t.Errorf("sign-in rule %s", auth)
	}
	for _, p := range []string{"/fe-ex-api/user/login_in", "/fe-ex-api/user/register", "/fe-ex-api/v4/common/smsValidCode"} {
		if !strings.Contains(auth, `"SearchString":"`+p+`"`) {
			t.Errorf("sign-in rule does not cover %s", p)
		}
	}
	if core := mustJSON(byName["Core"]); !strings.Contains(core, `"Name":"AWSManagedRulesCommonRuleSet"`) || !strings.Contains(core, `"OverrideAction":{"None":{}}`) {
		t.Errorf("core rule %s", core)
	}
	expect(t, "WAF log with redacted session and key headers", func() {
		templates["edge"].HasResourceProperties(jsii.String("AWS::WAFv2::LoggingConfiguration"), like(obj{
			"RedactedFields": arrayWith(obj{"SingleHeader": obj{"Name": "exchange-token"}}, obj{"SingleHeader": obj{"Name": "x-mbx-apikey"}}),
		}))
	})
	expect(t, "the domain's certificate, validated in its zone", func() {
		templates["edge"].HasResourceProperties(jsii.String("AWS::CertificateManager::Certificate"), like(obj{
			"DomainName": "exchange.tenger.example", "ValidationMethod": "DNS",
		}))
	})
}

// TestEdgeDistribution: the site's distribution carries the edge's web ACL
// and the domain's certificate (TLS 1.2 at least), is aliased in the zone,
// and routes the APIs through itself: the HTTP API's paths uncached with
// every method, the WebSocket paths to the two stages through the
// function that maps Binance's paths onto them.
func TestEdgeDistribution(t *testing.T) {
	var dist obj
	for _, d := range resources("web", "AWS::CloudFront::Distribution") {
		dist = props(d)["DistributionConfig"].(obj)
	}
	if dist == nil {
		t.Fatal("no distribution")
	}
	if acl := mustJSON(dist["WebACLId"]); acl == "null" || !strings.Contains(acl, "WebAcl") {
		t.Errorf("web ACL %s", acl)
	}
	if mustJSON(dist["Aliases"]) != `["exchange.tenger.example"]` {
		t.Errorf("aliases %s", mustJSON(dist["Aliases"]))
	}
	if v := dist["ViewerCertificate"].(obj); v["MinimumProtocolVersion"] != "TLSv1.2_2021" || v["SslSupportMethod"] != "sni-only" {
		t.Errorf("viewer certificate %s", mustJSON(v))
	}
	behaviors := map[string]obj{}
	for _, b := range asList(dist["CacheBehaviors"]) {
		behaviors[b.(obj)["PathPattern"].(string)] = b.(obj)
	}
	for _, p := range []string{"/fe-ex-api/*", "/api/*", "/sapi/*", "/graphql", "/bank/*"} {
		b := behaviors[p]
		if b == nil {
			t.Errorf("no behavior for %s", p)
			continue
		}
		if len(asList(b["AllowedMethods"])) != 7 || b["ViewerProtocolPolicy"] != "https-only" || b["FunctionAssociations"] != nil {
			t.Errorf("%s: %s", p, mustJSON(b))
		}
	}
	for _, p := range []string{"/ws", "/ws/*", "/stream", "/ws-api/*"} {
		b := behaviors[p]
		if b == nil || !strings.Contains(mustJSON(b["FunctionAssociations"]), "viewer-request") {
			t.Errorf("%s: %s", p, mustJSON(b))
		}
	}
	origins := mustJSON(dist["Origins"])
	for _, path := range []string{`"OriginPath":"/live"`, `"OriginPath":"/v3"`} {
		if !strings.Contains(origins, path) {
			t.Errorf("origins lack %s: %s", path, origins)
		}
	}
	expect(t, "alias record", func() {
		templates["web"].HasResourceProperties(jsii.String("AWS::Route53::RecordSet"), like(obj{
			"Name": "exchange.tenger.example.", "Type": "A",
		}))
	})
	expect(t, "the paths function", func() {
		templates["web"].HasResourceProperties(jsii.String("AWS::CloudFront::Function"), like(obj{
			"FunctionCode": edgePathsFunction,
		}))
	})
}

// TestEdgePathsFunction runs the CloudFront Function with Node on the
// paths clients use: the web app's /ws and Binance's /ws-api/v3 reach the
// stage as they are, /ws/<a>/<b> names its streams in the query, /stream
// keeps its query and adds combined=true.
func TestEdgePathsFunction(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is needed (the web app's build needs it too):", err)
	}
	harness := edgePathsFunction + `
const cases = [["/ws", {}], ["/ws-api/v3", {}], ["/ws/btcusdt@trade/btcusdt@depth", {}], ["/stream", {streams: {value: "btcusdt@trade"}}]];
console.log(JSON.stringify(cases.map(([uri, q]) => handler({request: {uri, querystring: q}}))));
`
	out, err := exec.Command(node, "-e", harness).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v: %s", err, out)
	}
	want := `[{"uri":"/","querystring":{}},{"uri":"/","querystring":{}},` +
		`{"uri":"/","querystring":{"streams":{"value":"btcusdt@trade/btcusdt@depth"}}},` +
		`{"uri":"/","querystring":{"streams":{"value":"btcusdt@trade"},"combined":{"value":"true"}}}]`
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestEdgeConfigValidate: a domain needs its zone and placed stacks;
// countries are two-letter codes.
func TestEdgeConfigValidate(t *testing.T) {
	zone := EdgeConfig{Domain: "x.example.mn", HostedZoneID: "Z1", HostedZoneName: "example.mn"}
	for _, c := range []struct {
		e      EdgeConfig
		placed bool
		want   string
	}{
		{zone, true, ""},
		{EdgeConfig{}, false, ""},
		{EdgeConfig{Domain: "x.example.mn"}, true, "hostedZoneId"},
		{zone, false, "CDK_DEFAULT_ACCOUNT"},
		{EdgeConfig{BlockedCountries: []string{"KP", "PRK"}}, true, `"PRK"`},
	} {
		err := c.e.validate(c.placed)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v placed %v: %v, want %q", c.e, c.placed, err, c.want)
		}
	}
}

// TestEdgeOriginKey: CloudFront sends the origin key to every API origin
// (a dynamic reference, never the value), and exactly the functions behind
// the APIs know where to read it; the names agree with the runtime's.
func TestEdgeOriginKey(t *testing.T) {
	if originHeader != awslambda.HeaderOrigin || envOriginKeySecret != platform.EnvOriginKeySecret {
		t.Fatalf("names disagree: %s %s", originHeader, envOriginKeySecret)
	}
	var dist obj
	for _, d := range resources("web", "AWS::CloudFront::Distribution") {
		dist = props(d)["DistributionConfig"].(obj)
	}
	apiOrigins := 0
	for _, o := range asList(dist["Origins"]) {
		if o.(obj)["S3OriginConfig"] != nil {
			continue
		}
		apiOrigins++
		h := mustJSON(o.(obj)["OriginCustomHeaders"])
		if !strings.Contains(h, `"HeaderName":"X-Tenger-Origin"`) || !strings.Contains(h, "{{resolve:secretsmanager:") {
			t.Errorf("origin %s: headers %s", mustJSON(o.(obj)["DomainName"]), h)
		}
	}
	if apiOrigins != 3 {
		t.Errorf("%d API origins, want the HTTP API and the two WebSocket stages", apiOrigins)
	}
	want := map[string]bool{"ws": true, "wsapi": true}
	for _, n := range APIFunctionNames() {
		want[n] = true
	}
	for stack := range raw {
		for _, r := range resources(stack, "AWS::Lambda::Function") {
			vars := fnVars(r)
			name, _ := vars["SERVICE"].(string)
			_, has := vars[envOriginKeySecret]
			if has != want[name] {
				t.Errorf("%s/%s: knows the origin key %v", stack, name, has)
			}
		}
	}
}

// TestStageAccounts: a stage pinned to an account deploys with that
// account's credentials only, and no other stage deploys into it.
func TestStageAccounts(t *testing.T) {
	tmp := t.TempDir()
	base, err := testConfig(tmp, StageProd)
	if err != nil {
		t.Fatal(err)
	}
	pins := map[string]string{StageProd: "111111111111", "staging": "222222222222"}
	for _, c := range []struct {
		stage, account string
		want           string
	}{
		{StageProd, "111111111111", ""},
		{StageProd, "333333333333", "deploys to account 111111111111 only"},
		{StageDev, "333333333333", ""},
		{StageDev, "111111111111", "is stage prod's"},
		{"staging", "222222222222", ""},
	} {
		cfg := base
		cfg.Stage, cfg.Account, cfg.StageAccounts = c.stage, c.account, pins
		err := cfg.Validate(FunctionNames())
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s in %s: %v, want %q", c.stage, c.account, err, c.want)
		}
	}
}
