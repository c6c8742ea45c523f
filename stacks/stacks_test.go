package stacks

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"

	"tenger/internal/platform"
	"tenger/internal/store/dynamo"
)

// All CDK tests share one App: starting the jsii runtime and synthesizing
// cost seconds, so the stacks are built once in TestMain and every test
// reads the templates.
var (
	built     *Tenger
	templates = map[string]assertions.Template{}
	raw       = map[string]map[string]any{}
)

func TestMain(m *testing.M) {
	code := func() int {
		defer jsii.Close()
		tmp, err := os.MkdirTemp("", "tenger-cdk-test-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(tmp)
		cfg, err := testConfig(tmp, StageDev)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		app := awscdk.NewApp(&awscdk.AppProps{Outdir: jsii.String(filepath.Join(tmp, "cdk.out")),
			Context: &map[string]interface{}{ContextSMSSpendLimit: "200"}})
		built, err = Build(app, cfg)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		// cdk-nag's AwsSolutions pack runs on every stack (nag_test.go).
		Nag(app)
		for name, st := range stacksByName() {
			tpl := assertions.Template_FromStack(st, nil)
			templates[name] = tpl
			raw[name] = toGo(*tpl.ToJSON())
		}
		return m.Run()
	}()
	os.Exit(code)
}

// stacksByName are the built stacks by their tests' names.
func stacksByName() map[string]awscdk.Stack {
	m := map[string]awscdk.Stack{
		"data": built.Data.Stack, "network": built.Network.Stack, "api": built.Api.Stack,
		"realtime": built.Realtime.Stack, "engine": built.Engine.Stack, "workflows": built.Workflows.Stack,
		"web": built.Web.Stack, "observability": built.Observability.Stack, "admin": built.Admin.Stack,
	}
	if built.Edge != nil {
		m["edge"] = built.Edge.Stack
	}
	if built.Recovery != nil {
		m["recovery"] = built.Recovery.Stack
	}
	return m
}

// testConfig points the app at dummy bootstrap files and a dummy site build,
// so the tests do not depend on `make lambdas` or the frontend build; the
// engine image context is the real repository (only staged, never built).
func testConfig(tmp, stage string) (Config, error) {
	root, err := filepath.Abs("..")
	if err != nil {
		return Config{}, err
	}
	lambdaDir := filepath.Join(tmp, "lambda")
	for _, name := range FunctionNames() {
		if err := os.MkdirAll(filepath.Join(lambdaDir, name), 0o755); err != nil {
			return Config{}, err
		}
		if err := os.WriteFile(filepath.Join(lambdaDir, name, "bootstrap"), []byte("test "+name), 0o755); err != nil {
			return Config{}, err
		}
	}
	dist := filepath.Join(tmp, "dist")
	if err := os.MkdirAll(dist, 0o755); err != nil {
		return Config{}, err
	}
	if err := os.WriteFile(filepath.Join(dist, "index.html"), []byte("<!doctype html>"), 0o644); err != nil {
		return Config{}, err
	}
	return Config{Stage: stage, RepoRoot: root, LambdaDir: lambdaDir, WebDist: dist,
		SiteOrigins: []string{"https://tenger.example"}, PriceSources: "binance,okx",
		Account: testAccount, Region: testRegion, SMSCallingCodes: []string{"976"},
		BackupCopyVault: "arn:aws:backup:ap-southeast-1:222222222222:backup-vault:tenger-dr", DRRegion: "ap-southeast-1",
		Edge: EdgeConfig{Domain: "exchange.tenger.example", HostedZoneID: "Z0TESTZONE", HostedZoneName: "tenger.example",
			BlockedCountries: []string{"KP", "IR"}}}, nil
}

// The test app's account and region: the stacks are placed, as a deploy
// places them, so that the edge (us-east-1) is built and referred to.
const (
	testAccount = "111111111111"
	testRegion  = "ap-northeast-2"
)

// toGo turns the jsii JSON (which may hold *string etc.) into plain Go values.
func toGo(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

// expect runs an assertions call, turning its panic (how jsii reports a
// failed match) into a test error with the matcher's message.
func expect(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s: %v", what, p)
		}
	}()
	f()
}

type obj = map[string]any

func like(m obj) assertions.Matcher { return assertions.Match_ObjectLike(&m) }
func arrayWith(v ...any) assertions.Matcher {
	return assertions.Match_ArrayWith(&v)
}

// resources returns the resources of one type in a stack's template.
func resources(stack, typ string) map[string]obj {
	out := map[string]obj{}
	rs, _ := raw[stack]["Resources"].(obj)
	for id, r := range rs {
		if r.(obj)["Type"] == typ {
			out[id] = r.(obj)
		}
	}
	return out
}

func props(r obj) obj { p, _ := r["Properties"].(obj); return p }

// liveAliasOf is the logical id of the live alias of the function whose
// logical id is fnID: what routes, event sources and tasks invoke.
func liveAliasOf(stack, fnID string) string {
	for id, r := range resources(stack, "AWS::Lambda::Alias") {
		if strings.Contains(mustJSON(props(r)["FunctionName"]), `"`+fnID+`"`) && props(r)["Name"] == liveAlias {
			return id
		}
	}
	return ""
}

// fnVars are a function's environment variables (none for CDK's own
// helpers, which have no environment).
func fnVars(r obj) obj {
	env, _ := props(r)["Environment"].(obj)
	vars, _ := env["Variables"].(obj)
	return vars
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestDataStackTable(t *testing.T) {
	tpl := templates["data"]
	expect(t, "one table", func() { tpl.ResourceCountIs(jsii.String("AWS::DynamoDB::Table"), jsii.Number(1)) })
	expect(t, "table shape", func() {
		tpl.HasResourceProperties(jsii.String("AWS::DynamoDB::Table"), like(obj{
			"BillingMode": "PAY_PER_REQUEST",
			"KeySchema": []any{
				obj{"AttributeName": "pk", "KeyType": "HASH"},
				obj{"AttributeName": "sk", "KeyType": "RANGE"},
			},
			"StreamSpecification":              obj{"StreamViewType": dynamo.StreamViewType},
			"TimeToLiveSpecification":          obj{"AttributeName": dynamo.TTLAttribute, "Enabled": true},
			"PointInTimeRecoverySpecification": obj{"PointInTimeRecoveryEnabled": true},
			"DeletionProtectionEnabled":        false,
			"GlobalSecondaryIndexes": []any{
				obj{"IndexName": "gsi1", "Projection": obj{"ProjectionType": "ALL"}, "KeySchema": []any{
					obj{"AttributeName": "gsi1pk", "KeyType": "HASH"}, obj{"AttributeName": "gsi1sk", "KeyType": "RANGE"}}},
				obj{"IndexName": "gsi2", "Projection": obj{"ProjectionType": "ALL"}, "KeySchema": []any{
					obj{"AttributeName": "gsi2pk", "KeyType": "HASH"}, obj{"AttributeName": "gsi2sk", "KeyType": "RANGE"}}},
			},
		}))
	})
	expect(t, "dev table is destroyed with the stack", func() {
		tpl.HasResource(jsii.String("AWS::DynamoDB::Table"), like(obj{"DeletionPolicy": "Delete"}))
	})
}

// TestDataStackProduction builds only the data stack of a prod stage (one
// more stack in a second small app) to check the production switches.
func TestDataStackProduction(t *testing.T) {
	app := awscdk.NewApp(&awscdk.AppProps{Outdir: jsii.String(t.TempDir())})
	st := NewDataStack(app, "ProdData", nil, Config{Stage: StageProd})
	tpl := assertions.Template_FromStack(st.Stack, nil)
	expect(t, "prod table protected", func() {
		tpl.HasResource(jsii.String("AWS::DynamoDB::Table"), like(obj{
			"DeletionPolicy":      "Retain",
			"UpdateReplacePolicy": "Retain",
			"Properties": like(obj{
				"DeletionProtectionEnabled":        true,
				"PointInTimeRecoverySpecification": obj{"PointInTimeRecoveryEnabled": true},
			}),
		}))
	})
}

func TestApiStack(t *testing.T) {
	tpl := templates["api"]
	expect(t, "HTTP API with CORS for the site", func() {
		tpl.HasResourceProperties(jsii.String("AWS::ApiGatewayV2::Api"), like(obj{
			"ProtocolType": "HTTP",
			"CorsConfiguration": like(obj{
				"AllowCredentials": true,
				"AllowOrigins":     arrayWith("https://tenger.example"),
				"AllowHeaders":     arrayWith("exchange-token", "x-xsrf-token"),
			}),
		}))
	})
	expect(t, "$default stage with throttling and access logs", func() {
		tpl.HasResourceProperties(jsii.String("AWS::ApiGatewayV2::Stage"), like(obj{
			"StageName":  "$default",
			"AutoDeploy": true,
			"DefaultRouteSettings": like(obj{
				"ThrottlingRateLimit": throttleRate(Config{Stage: StageDev}), "ThrottlingBurstLimit": throttleBurst(Config{Stage: StageDev}),
			}),
			"AccessLogSettings": like(obj{
				"DestinationArn": assertions.Match_AnyValue(),
				"Format":         assertions.Match_StringLikeRegexp(jsii.String(`\$context\.requestId`)),
			}),
		}))
	})
	expect(t, "payload v2 integrations", func() {
		tpl.AllResourcesProperties(jsii.String("AWS::ApiGatewayV2::Integration"), like(obj{
			"IntegrationType": "AWS_PROXY", "PayloadFormatVersion": "2.0",
		}))
	})
	routes := map[string]bool{}
	for _, r := range resources("api", "AWS::ApiGatewayV2::Route") {
		routes[props(r)["RouteKey"].(string)] = true
	}
	for _, want := range []string{
		"POST /fe-ex-api/user/{proxy+}", "GET /fe-ex-api/user/{proxy+}", "POST /fe-ex-api/common/{proxy+}",
		"POST /fe-ex-api/v4/common/{proxy+}", "POST /fe-ex-api/security/{proxy+}", "POST /graphql",
	} {
		if !routes[want] {
			t.Errorf("route %q missing; have %v", want, routes)
		}
	}
	// One function per area, and the routes of each spec entry.
	if n := len(resources("api", "AWS::Lambda::Function")); n != len(apiFunctions) {
		t.Errorf("api functions = %d, want %d", n, len(apiFunctions))
	}
	wantRoutes := 0
	for _, f := range apiFunctions {
		m := len(f.Methods)
		if m == 0 {
			m = 2
		}
		wantRoutes += m * len(f.Routes)
	}
	if len(routes) != wantRoutes {
		t.Errorf("routes = %d, want %d", len(routes), wantRoutes)
	}
}

func TestGoFunctionsAreArm64ProvidedAL2023(t *testing.T) {
	seen := map[string]bool{}
	for stack := range raw {
		for id, r := range resources(stack, "AWS::Lambda::Function") {
			p := props(r)
			if p["Handler"] != "bootstrap" {
				continue // CDK's own helpers (the bucket deployment) are not ours
			}
			if p["Runtime"] != "provided.al2023" || mustJSON(p["Architectures"]) != `["arm64"]` {
				t.Errorf("%s/%s: runtime %v, architectures %v", stack, id, p["Runtime"], p["Architectures"])
			}
			env, _ := p["Environment"].(obj)
			vars, _ := env["Variables"].(obj)
			name, _ := vars["SERVICE"].(string)
			seen[name] = true
			if vars["TABLE_NAME"] == nil || vars["STAGE"] != StageDev {
				t.Errorf("%s: environment lacks TABLE_NAME or STAGE: %v", id, vars)
			}
		}
	}
	for _, name := range FunctionNames() {
		if !seen[name] {
			t.Errorf("function %s not deployed (have %v)", name, seen)
		}
	}
}

func TestRealtimeStack(t *testing.T) {
	tpl := templates["realtime"]
	expect(t, "WebSocket API", func() {
		tpl.HasResourceProperties(jsii.String("AWS::ApiGatewayV2::Api"), like(obj{
			"ProtocolType": "WEBSOCKET", "RouteSelectionExpression": "$request.body.action",
		}))
	})
	routes := map[string]bool{}
	for _, r := range resources("realtime", "AWS::ApiGatewayV2::Route") {
		routes[props(r)["RouteKey"].(string)] = true
	}
	for _, k := range []string{"$connect", "$disconnect", "$default"} {
		if !routes[k] {
			t.Errorf("route %s missing", k)
		}
	}
	expect(t, "stream consumer reports partial batch failures", func() {
		tpl.HasResourceProperties(jsii.String("AWS::Lambda::EventSourceMapping"), like(obj{
			"FunctionResponseTypes": []any{"ReportBatchItemFailures"},
			"StartingPosition":      "LATEST",
			"ParallelizationFactor": 1,
			"DestinationConfig":     like(obj{"OnFailure": like(obj{"Destination": assertions.Match_AnyValue()})}),
			"EventSourceArn":        assertions.Match_AnyValue(),
		}))
	})
	// The ws, stream and wsapi functions may post to connections, each on
	// one stage of this stack's APIs: ws on the live stage, wsapi on the
	// Binance-compatible API's v3 stage, stream on both (which statement
	// names which API and stage: wsapi_test.go).
	manage := 0
	for id, p := range resources("realtime", "AWS::IAM::Policy") {
		doc := mustJSON(props(p)["PolicyDocument"])
		if strings.Contains(doc, "execute-api:ManageConnections") {
			manage++
			if (!strings.Contains(doc, "/live/POST/@connections/*") && !strings.Contains(doc, "/v3/POST/@connections/*")) ||
				strings.Contains(doc, `/*/*/@connections`) || strings.Contains(doc, `/*/@connections`) {
				t.Errorf("%s: ManageConnections is not limited to the live or v3 stage: %s", id, doc)
			}
		}
	}
	if manage != 3 {
		t.Errorf("policies allowing ManageConnections = %d, want 3 (ws, stream and wsapi)", manage)
	}
	for id, r := range resources("realtime", "AWS::Lambda::Function") {
		vars := fnVars(r)
		// The wsapi function pushes to its own API only
		// (BINANCE_WS_ENDPOINT), never to the web app's.
		if vars["SERVICE"] == "wsapi" {
			continue
		}
		if vars["WS_ENDPOINT"] == nil {
			t.Errorf("%s has no WS_ENDPOINT", id)
		}
	}
}

func TestEngineStack(t *testing.T) {
	tpl := templates["engine"]
	// The VPC is the network stack's (TestNetworkStack).
	expect(t, "no VPC of its own", func() { tpl.ResourceCountIs(jsii.String("AWS::EC2::VPC"), jsii.Number(0)) })
	expect(t, "an active and a standby Fargate task in public subnets, rolling deploys", func() {
		tpl.HasResourceProperties(jsii.String("AWS::ECS::Service"), like(obj{
			"DesiredCount": 2,
			"LaunchType":   "FARGATE",
			"DeploymentConfiguration": like(obj{
				"MinimumHealthyPercent": 100, "MaximumPercent": 200,
				"DeploymentCircuitBreaker": obj{"Enable": true, "Rollback": true},
				"Alarms": like(obj{"AlarmNames": []any{obj{"Ref": assertions.Match_StringLikeRegexp(jsii.String("NoActiveEngine"))}},
					"Enable": true, "Rollback": true}),
			}),
			"NetworkConfiguration": like(obj{"AwsvpcConfiguration": like(obj{
				"AssignPublicIp": "ENABLED",
				"SecurityGroups": []any{obj{"Fn::ImportValue": assertions.Match_StringLikeRegexp(jsii.String("Network:.*EngineSecurityGroup"))}},
			})}),
		}))
	})
	expect(t, "arm64 task with health check and graceful stop", func() {
		tpl.HasResourceProperties(jsii.String("AWS::ECS::TaskDefinition"), like(obj{
			"RequiresCompatibilities": []any{"FARGATE"},
			"RuntimePlatform":         obj{"CpuArchitecture": "ARM64", "OperatingSystemFamily": "LINUX"},
			// The engine's container; the trace collector runs beside it
			// (TestEngineTraceCollector).
			"ContainerDefinitions": arrayWith(like(obj{
				"HealthCheck":            like(obj{"Command": []any{"CMD", "/engine", "healthcheck"}, "StartPeriod": 300}),
				"StopTimeout":            90,
				"ReadonlyRootFilesystem": true,
				"LogConfiguration":       like(obj{"LogDriver": "awslogs"}),
				"Environment": arrayWith(obj{"Name": "HEALTH_ADDR", "Value": ":8081"},
					obj{"Name": "MARKETS_POLL_SECONDS", "Value": "5"},
					obj{"Name": platform.EnvPriceSources, "Value": "binance,okx"}),
			})),
		}))
	})
	// The image is an asset built from engine-fargate/Dockerfile for arm64.
	manifest, err := os.ReadFile(filepath.Join(*built.Engine.Stack.Node().Root().(awscdk.App).Outdir(), "Tenger-dev-Engine.assets.json"))
	if err != nil {
		t.Fatal(err)
	}
	var assets struct {
		DockerImages map[string]struct {
			Source struct {
				Directory  string `json:"directory"`
				DockerFile string `json:"dockerFile"`
				Platform   string `json:"platform"`
			} `json:"source"`
		} `json:"dockerImages"`
	}
	if err := json.Unmarshal(manifest, &assets); err != nil {
		t.Fatal(err)
	}
	if len(assets.DockerImages) != 1 {
		t.Fatalf("docker image assets = %d, want 1", len(assets.DockerImages))
	}
	for _, img := range assets.DockerImages {
		if img.Source.DockerFile != "engine-fargate/Dockerfile" || img.Source.Platform != "linux/arm64" {
			t.Errorf("engine image source = %+v", img.Source)
		}
	}
	// The task role can use the table (projection, market data, the
	// engine lease) and post to WebSocket connections
	// (TestEnginePostsMarketChannels): no queue, and no secret (the engine
	// key is the execution role's: TestEngineTaskEndpoint).
	taskPolicies := 0
	for id, p := range resources("engine", "AWS::IAM::Policy") {
		if !strings.Contains(id, "TaskRole") {
			continue
		}
		taskPolicies++
		doc := mustJSON(props(p)["PolicyDocument"])
		if !strings.Contains(doc, "dynamodb:PutItem") {
			t.Errorf("engine task policy lacks dynamodb:PutItem: %s", doc)
		}
		for _, not := range []string{"sqs:", "secretsmanager:"} {
			if strings.Contains(doc, not) {
				t.Errorf("engine task policy allows %s: %s", not, doc)
			}
		}
	}
	if taskPolicies != 1 {
		t.Errorf("engine task role policies = %d, want 1", taskPolicies)
	}
}

// sfnState is one state of the parsed withdrawal state machine.
type sfnState struct {
	Type           string
	Resource       string
	Next           string
	End            bool
	TimeoutSeconds float64
	ResultPath     string
	Parameters     map[string]any
	Retry          []struct {
		ErrorEquals []string
		MaxAttempts float64
	}
	Catch []struct {
		ErrorEquals []string
		Next        string
		ResultPath  string
	}
	Choices []struct {
		Variable     string
		StringEquals string
		Next         string
	}
	Default string
	Error   string
}

// withdrawalDefinition parses the state machine's definition.
func withdrawalDefinition(t *testing.T) (startAt string, states map[string]sfnState) {
	t.Helper()
	return machineDefinition(t, "Withdrawal")
}

// machineDefinition parses the definition of the workflows stack's state
// machine whose logical id starts with prefix.
func machineDefinition(t *testing.T, prefix string) (startAt string, states map[string]sfnState) {
	t.Helper()
	sms := map[string]map[string]any{}
	for id, sm := range resources("workflows", "AWS::StepFunctions::StateMachine") {
		if strings.HasPrefix(id, prefix) {
			sms[id] = sm
		}
	}
	if len(sms) != 1 {
		t.Fatalf("%s state machines = %d, want 1", prefix, len(sms))
	}
	var def struct {
		StartAt string
		States  map[string]sfnState
	}
	for _, sm := range sms {
		// DefinitionString is an Fn::Join of literal JSON pieces and
		// function ARNs; the ARNs are replaced by a placeholder to parse it.
		join := props(sm)["DefinitionString"].(obj)["Fn::Join"].([]any)
		var b strings.Builder
		for _, part := range join[1].([]any) {
			if s, ok := part.(string); ok {
				b.WriteString(s)
			} else {
				b.WriteString("ARN")
			}
		}
		if err := json.Unmarshal([]byte(b.String()), &def); err != nil {
			t.Fatalf("definition does not parse: %v\n%s", err, b.String())
		}
	}
	return def.StartAt, def.States
}

// TestWorkflowsStack walks the withdrawal state machine the way Step
// Functions runs it: each task's output next (functions/workflow's
// StepOutput) picks the following state through the Route choice.
func TestWorkflowsStack(t *testing.T) {
	startAt, states := withdrawalDefinition(t)
	if startAt != "Start" || states["Start"].Type != "Pass" || states["Start"].Next != "Validate" {
		t.Fatalf("start = %s %+v", startAt, states["Start"])
	}
	// Start gives every path the tasks read a value.
	init := mustJSON(states["Start"].Parameters)
	for _, want := range []string{`"withdrawal.$":"$.withdrawal"`, `"correlationId.$":"$.correlationId"`, `"result":{"detail":"","next":"validate"}`, `"error":{"Cause":"","Error":""}`} {
		if !strings.Contains(init, want) {
			t.Errorf("Start parameters %s lack %s", init, want)
		}
	}
	// after is the state a task's answer leads to.
	after := func(task, next string) string {
		st := states[task]
		to := st.Next
		for states[to].Type == "Choice" {
			c := states[to]
			to = c.Default
			for _, ch := range c.Choices {
				if ch.Variable == "$.result.next" && ch.StringEquals == next {
					to = ch.Next
					break
				}
			}
		}
		return to
	}
	for _, c := range []struct{ task, next, want string }{
		{"Validate", "hold", "Hold"},
		{"Validate", "release", "Release"},
		{"Validate", "done", "Settled"},
		{"Validate", "failed", "Released"},
		{"Hold", "send", "Send"},
		{"Send", "await", "AwaitConfirmation"},
		{"Send", "release", "Release"},
		{"AwaitConfirmation", "", "Settle"}, // the rail's SendTaskSuccess
		{"Settle", "done", "Settled"},
		{"Settle", "failed", "Released"}, // released meanwhile
		{"Release", "failed", "Released"},
		{"Release", "done", "Settled"}, // it had settled
		{"Hold", "nonsense", "Release"},
	} {
		if got := after(c.task, c.next); got != c.want {
			t.Errorf("%s answering next=%q → %s, want %s", c.task, c.next, got, c.want)
		}
	}
	await := states["AwaitConfirmation"]
	if !strings.HasSuffix(await.Resource, "lambda:invoke.waitForTaskToken") {
		t.Errorf("await resource = %s, want the waitForTaskToken integration", await.Resource)
	}
	if await.TimeoutSeconds != confirmationTimeoutHours*3600 || await.ResultPath != "$.confirmation" {
		t.Errorf("await timeout %v, result path %s", await.TimeoutSeconds, await.ResultPath)
	}
	// The callback integration wraps the payload; request-response tasks
	// with PayloadResponseOnly pass it as the parameters themselves.
	payload := func(params map[string]any) map[string]any {
		if p, ok := params["Payload"].(map[string]any); ok {
			return p
		}
		return params
	}
	if payload(await.Parameters)["taskToken.$"] != "$$.Task.Token" {
		t.Errorf("await payload lacks the task token: %v", await.Parameters)
	}
	catches := func(state string) map[string]string {
		out := map[string]string{}
		for _, c := range states[state].Catch {
			for _, e := range c.ErrorEquals {
				out[e] = c.Next
			}
			if c.ResultPath == "" {
				t.Errorf("%s catch %v keeps no error", state, c.ErrorEquals)
			}
		}
		return out
	}
	for state, want := range map[string]map[string]string{
		"Validate":          {errUnknown: "Unknown", errMalformed: "Unknown", "States.ALL": "Release"},
		"Hold":              {errUnknown: "Unknown", errMalformed: "Unknown", "States.ALL": "Release"},
		"Send":              {errUnknown: "Unknown", errMalformed: "Unknown", "States.ALL": "Release"},
		"AwaitConfirmation": {errUnknown: "Unknown", errMalformed: "Unknown", errRailRejected: "Release", "States.Timeout": "Release", "States.ALL": "Release"},
		"Settle":            {errUnknown: "Unknown", errMalformed: "Unknown", "States.ALL": "SettleFailed"},
		"Release":           {errUnknown: "Unknown", errMalformed: "Unknown", "States.ALL": "ReleaseFailed"},
	} {
		if got := catches(state); mustJSON(got) != mustJSON(want) {
			t.Errorf("%s catches %v, want %v", state, got, want)
		}
		// States.ALL must come last and alone.
		c := states[state].Catch
		if last := c[len(c)-1]; len(last.ErrorEquals) != 1 || last.ErrorEquals[0] != "States.ALL" {
			t.Errorf("%s: last catch %v is not States.ALL alone", state, last.ErrorEquals)
		}
	}
	for _, state := range []string{"Validate", "Hold", "Send", "AwaitConfirmation", "Settle", "Release"} {
		st := states[state]
		p := payload(st.Parameters)
		if st.Type != "Task" || p["step"] == nil || p["withdrawal.$"] != "$.withdrawal" ||
			p["detail.$"] != "$.result.detail" || p["error.$"] != "$.error" || p["correlationId.$"] != "$.correlationId" {
			t.Errorf("%s is not a workflow function task: %+v", state, st)
		}
		if state != "AwaitConfirmation" && st.ResultPath != "$.result" {
			t.Errorf("%s result path = %s", state, st.ResultPath)
		}
		var transient float64
		for _, r := range st.Retry {
			for _, e := range r.ErrorEquals {
				if e == errTransient {
					transient = r.MaxAttempts
				}
			}
		}
		if transient < 5 || (state == "Settle" || state == "Release") && transient < 20 {
			t.Errorf("%s retries %s errors %v times", state, errTransient, transient)
		}
	}
	for _, end := range []string{"Unknown", "Released", "ReleaseFailed", "SettleFailed"} {
		if states[end].Type != "Fail" {
			t.Errorf("%s type = %s, want Fail", end, states[end].Type)
		}
	}
	if states["Settled"].Type != "Succeed" {
		t.Errorf("Settled type = %s", states["Settled"].Type)
	}
}

// TestWorkflowFunction: the step function knows its rails and may complete
// the await state's task tokens of this state machine only.
func TestWorkflowFunction(t *testing.T) {
	var vars obj
	for _, r := range resources("workflows", "AWS::Lambda::Function") {
		v := fnVars(r)
		if v["SERVICE"] == "workflow" {
			vars = v
		}
	}
	if vars == nil || vars["RAILS"] != railsSimulated {
		t.Fatalf("workflow function environment = %v, want RAILS=%s in dev", vars, railsSimulated)
	}
	if railsFor(Config{Stage: StageProd}) != railsNone {
		t.Error("prod must run without (simulated) rails")
	}
	found := false
	for _, p := range resources("workflows", "AWS::IAM::Policy") {
		for _, s := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
			st := s.(obj)
			if !strings.Contains(mustJSON(st["Action"]), "states:SendTaskSuccess") {
				continue
			}
			found = true
			res := mustJSON(st["Resource"])
			if !strings.Contains(res, ":stateMachine:tenger-dev-withdrawal") || strings.Contains(res, "*") {
				t.Errorf("task completion allowed on %s", res)
			}
			if mustJSON(st["Action"]) != `["states:SendTaskSuccess","states:SendTaskFailure"]` {
				t.Errorf("actions = %s", mustJSON(st["Action"]))
			}
		}
	}
	if !found {
		t.Error("the workflow function may not complete task tokens")
	}
}

// TestWorkflowStarter: wfstart consumes the table's stream, filtered to
// workflow item inserts, reports partial batch failures, and may start the
// withdrawal state machine only.
func TestWorkflowStarter(t *testing.T) {
	tpl := templates["workflows"]
	expect(t, "starter event source", func() {
		tpl.HasResourceProperties(jsii.String("AWS::Lambda::EventSourceMapping"), like(obj{
			"FunctionResponseTypes": []any{"ReportBatchItemFailures"},
			"StartingPosition":      "TRIM_HORIZON",
			"DestinationConfig":     like(obj{"OnFailure": like(obj{"Destination": assertions.Match_AnyValue()})}),
			"FilterCriteria": obj{"Filters": []any{obj{
				"Pattern": `{"dynamodb":{"Keys":{"pk":{"S":[{"prefix":"WF#"}]}}},"eventName":["INSERT"]}`,
			}}},
		}))
	})
	var vars obj
	for _, r := range resources("workflows", "AWS::Lambda::Function") {
		v := fnVars(r)
		if v["SERVICE"] == "wfstart" {
			vars = v
		}
	}
	if vars == nil || !strings.Contains(mustJSON(vars["WITHDRAWAL_STATE_MACHINE_ARN"]), "Withdrawal") {
		t.Fatalf("wfstart environment = %v", vars)
	}
	starts := 0
	for id, p := range resources("workflows", "AWS::IAM::Policy") {
		for _, s := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
			st := s.(obj)
			if !strings.Contains(mustJSON(st["Action"]), "states:StartExecution") {
				continue
			}
			starts++
			if !strings.Contains(id, "wfstart") {
				t.Errorf("%s may start executions", id)
			}
			if res := mustJSON(st["Resource"]); !strings.Contains(res, `"Ref":"Withdrawal`) && !strings.Contains(res, `"Ref":"P2PTimeout`) ||
				strings.Contains(res, "*") {
				t.Errorf("StartExecution on %s", res)
			}
		}
	}
	if starts != 2 {
		t.Errorf("statements allowing StartExecution = %d, want 2 (wfstart: withdrawals and P2P deadlines)", starts)
	}
	if !strings.Contains(mustJSON(vars["P2P_TIMEOUT_STATE_MACHINE_ARN"]), "P2PTimeout") {
		t.Errorf("wfstart environment lacks the P2P state machine: %v", vars)
	}
	if n := len(resources("workflows", "AWS::SQS::Queue")); n != 1 {
		t.Errorf("starter failure queues = %d", n)
	}
}

func TestWebStack(t *testing.T) {
	tpl := templates["web"]
	expect(t, "private encrypted bucket", func() {
		tpl.HasResourceProperties(jsii.String("AWS::S3::Bucket"), like(obj{
			"PublicAccessBlockConfiguration": obj{
				"BlockPublicAcls": true, "BlockPublicPolicy": true, "IgnorePublicAcls": true, "RestrictPublicBuckets": true,
			},
			"BucketEncryption": assertions.Match_AnyValue(),
		}))
	})
	expect(t, "origin access control", func() {
		tpl.HasResourceProperties(jsii.String("AWS::CloudFront::OriginAccessControl"), like(obj{
			"OriginAccessControlConfig": like(obj{"OriginAccessControlOriginType": "s3", "SigningBehavior": "always"}),
		}))
	})
	expect(t, "bucket readable by CloudFront only", func() {
		tpl.HasResourceProperties(jsii.String("AWS::S3::BucketPolicy"), like(obj{
			"PolicyDocument": like(obj{"Statement": arrayWith(like(obj{
				"Principal": obj{"Service": "cloudfront.amazonaws.com"}, "Action": "s3:GetObject",
			}))}),
		}))
	})
	expect(t, "SPA fallback and headers", func() {
		tpl.HasResourceProperties(jsii.String("AWS::CloudFront::Distribution"), like(obj{
			"DistributionConfig": like(obj{
				"DefaultRootObject": "index.html",
				"CustomErrorResponses": []any{
					obj{"ErrorCode": 403, "ResponseCode": 200, "ResponsePagePath": "/index.html", "ErrorCachingMinTTL": 0},
					obj{"ErrorCode": 404, "ResponseCode": 200, "ResponsePagePath": "/index.html", "ErrorCachingMinTTL": 0},
				},
				"DefaultCacheBehavior": like(obj{
					"ViewerProtocolPolicy":    "redirect-to-https",
					"ResponseHeadersPolicyId": assertions.Match_AnyValue(),
				}),
			}),
		}))
	})
	// The Content-Security-Policy names the uploads bucket's host, so it is
	// a join with the data stack's value (identity_test.go reads it).
	expect(t, "security headers", func() {
		tpl.HasResourceProperties(jsii.String("AWS::CloudFront::ResponseHeadersPolicy"), like(obj{
			"ResponseHeadersPolicyConfig": like(obj{"SecurityHeadersConfig": like(obj{
				"StrictTransportSecurity": like(obj{"IncludeSubdomains": true, "Preload": true}),
				"ContentTypeOptions":      like(obj{"Override": true}),
				"FrameOptions":            like(obj{"FrameOption": "DENY"}),
				"ContentSecurityPolicy":   like(obj{"Override": true}),
				"ReferrerPolicy":          assertions.Match_AnyValue(),
			})}),
		}))
	})
	// The site and config.json are deployed; config.json keeps the site's
	// files (prune off) and carries the endpoints as deploy-time values.
	deployments := resources("web", "Custom::CDKBucketDeployment")
	if len(deployments) != 2 {
		t.Fatalf("bucket deployments = %d, want 2 (site and config.json)", len(deployments))
	}
	var configDeploy obj
	for id, d := range deployments {
		if strings.Contains(id, "DeployConfig") {
			configDeploy = props(d)
		}
	}
	if configDeploy == nil || configDeploy["Prune"] != false {
		t.Fatalf("config deployment missing or pruning: %v", configDeploy)
	}
	// Through the edge on the custom domain: no execute-api endpoint is
	// left for the deploy to fill in.
	if markers := mustJSON(configDeploy["SourceMarkers"]); strings.Contains(markers, "HttpApi") || strings.Contains(markers, "ApiEndpoint") {
		t.Errorf("config.json names the execute-api endpoints: %s", markers)
	}
	// The staged config.json has webapp.Config's keys, with deploy-time
	// markers where the endpoints go.
	var doc map[string]any
	outdir := *built.Web.Stack.Node().Root().(awscdk.App).Outdir()
	_ = filepath.WalkDir(outdir, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == ConfigObjectKey {
			b, _ := os.ReadFile(path)
			b = regexp.MustCompile(`<<marker:0xbaba:\d+>>`).ReplaceAll(b, []byte(`"<marker>"`))
			if json.Unmarshal(b, &doc) != nil {
				t.Errorf("config.json does not parse: %s", b)
			}
		}
		return nil
	})
	if doc == nil {
		t.Fatal("config.json asset not staged")
	}
	api, _ := doc["api"].(map[string]any)
	const site = "https://exchange.tenger.example"
	for _, p := range ServicePrefixes {
		if api[p] != site {
			t.Errorf("config.json api[%s] = %v", p, api[p])
		}
	}
	flags, _ := doc["flags"].(map[string]any)
	if doc["ws"] != "wss://exchange.tenger.example/ws" || doc["content"] != site+ContentPath || doc["region"] != testRegion || doc["stage"] != StageDev ||
		flags["walletLive"] != false || doc["amplify"] == nil {
		t.Errorf("config.json = %v", doc)
	}
}

func TestObservabilityStack(t *testing.T) {
	fns := len(FunctionNames())
	want := 2 /* DLQs */ + 2*fns /* errors, throttles */ + 2 /* withdrawals failed, timed out */ + 1 /* P2P deadlines failed */ + 2 /* iterator age */ +
		2 /* API 5xx, latency */ + 2 /* table throttles, conflicts */ + 2 /* engine tasks, no active engine */ + 1 /* SMS spend */
	alarms := resources("observability", "AWS::CloudWatch::Alarm")
	if len(alarms) != want {
		t.Errorf("alarms = %d, want %d", len(alarms), want)
	}
	count := map[string]int{}
	for id, a := range alarms {
		p := props(a)
		count[p["MetricName"].(string)]++
		if len(p["AlarmActions"].([]any)) != 1 {
			t.Errorf("%s notifies nobody", id)
		}
	}
	for metric, n := range map[string]int{
		"ApproximateNumberOfMessagesVisible": 2, "ApproximateAgeOfOldestMessage": 0,
		"Errors": fns, "Throttles": fns, "ExecutionsFailed": 2, "ExecutionsTimedOut": 1, "IteratorAge": 2,
		"5xx": 1, "Latency": 1, "ThrottledRequests": 1, "TransactionConflict": 1, "RunningTaskCount": 1,
		"SMSMonthToDateSpentUSD": 1, "ActiveEngine": 1,
	} {
		if count[metric] != n {
			t.Errorf("alarms on %s = %d, want %d", metric, count[metric], n)
		}
	}
	expect(t, "engine task alarm: fewer than the active and the standby, missing data breaching", func() {
		templates["observability"].HasResourceProperties(jsii.String("AWS::CloudWatch::Alarm"), like(obj{
			"MetricName": "RunningTaskCount", "Namespace": "ECS/ContainerInsights", "Threshold": engineTasks,
			"ComparisonOperator": "LessThanThreshold", "TreatMissingData": "breaching",
		}))
	})
	expect(t, "SMS spend alarm at the default threshold", func() {
		templates["observability"].HasResourceProperties(jsii.String("AWS::CloudWatch::Alarm"), like(obj{
			"MetricName": "SMSMonthToDateSpentUSD", "Threshold": DefaultSMSSpendAlarm,
		}))
	})
	expect(t, "a stopped engine task is reported with its reason", func() {
		templates["observability"].HasResourceProperties(jsii.String("AWS::Events::Rule"), like(obj{
			"EventPattern": like(obj{"source": []any{"aws.ecs"}, "detail-type": []any{"ECS Task State Change"},
				"detail": like(obj{"lastStatus": []any{"STOPPED"}})}),
			"Targets": arrayWith(like(obj{"InputTransformer": like(obj{"InputPathsMap": like(obj{"detail-stoppedReason": "$.detail.stoppedReason"})})})),
		}))
	})
	expect(t, "the engine's deployment alarm: no active engine for two minutes", func() {
		templates["engine"].HasResourceProperties(jsii.String("AWS::CloudWatch::Alarm"), like(obj{
			"AlarmName": "tenger-dev-no-active-engine", "Namespace": "Tenger/Engine", "MetricName": "ActiveEngine",
			"Dimensions": []any{obj{"Name": "Stage", "Value": StageDev}}, "Threshold": 3, "ComparisonOperator": "LessThanThreshold",
			"TreatMissingData": "breaching",
		}))
	})
	expect(t, "one dashboard", func() {
		templates["observability"].ResourceCountIs(jsii.String("AWS::CloudWatch::Dashboard"), jsii.Number(1))
	})
}

// dataServices are the services whose resources hold data; wildcard actions
// on them are never acceptable.
var dataServices = []string{"dynamodb", "sqs", "sns", "ses", "states", "execute-api"}

// TestIAMLeastPrivilege walks every policy of every stack: no action may be
// "*" or "<service>:*", and no action on a data service may contain a
// wildcard at all. (CDK's bucket deployment helper keeps its s3:GetObject*
// style grants, limited to the site and asset buckets.)
func TestIAMLeastPrivilege(t *testing.T) {
	serviceWide := regexp.MustCompile(`^[a-z0-9-]+:\*$`)
	checked := 0
	for stack := range raw {
		for id, r := range raw[stack]["Resources"].(obj) {
			var docs []any
			switch r.(obj)["Type"] {
			case "AWS::IAM::Policy", "AWS::IAM::ManagedPolicy":
				docs = append(docs, props(r.(obj))["PolicyDocument"])
			case "AWS::IAM::Role":
				for _, p := range asList(props(r.(obj))["Policies"]) {
					docs = append(docs, p.(obj)["PolicyDocument"])
				}
			}
			for _, d := range docs {
				for _, s := range asList(d.(obj)["Statement"]) {
					st := s.(obj)
					if st["Effect"] != "Allow" {
						continue
					}
					checked++
					for _, a := range asList(st["Action"]) {
						action := a.(string)
						if action == "*" || serviceWide.MatchString(action) {
							t.Errorf("%s/%s allows %q", stack, id, action)
						}
						svc, _, _ := strings.Cut(action, ":")
						for _, ds := range dataServices {
							if svc == ds && strings.Contains(action, "*") {
								t.Errorf("%s/%s allows wildcard %q on a data service", stack, id, action)
							}
						}
					}
					if st["NotAction"] != nil {
						t.Errorf("%s/%s uses NotAction", stack, id)
					}
					// A data-plane action on Resource "*" would reach every
					// table or queue of the account.
					if mustJSON(st["Resource"]) == `"*"` {
						for _, a := range asList(st["Action"]) {
							svc, _, _ := strings.Cut(a.(string), ":")
							// ListStreams names no table (it lists stream
							// ARNs) and cannot be scoped; the stream event
							// source needs it.
							if a == "dynamodb:ListStreams" {
								continue
							}
							if svc == "dynamodb" || svc == "sqs" || svc == "s3" {
								t.Errorf("%s/%s allows %s on every resource", stack, id, a)
							}
						}
					}
				}
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d statements checked; the walk found no policies", checked)
	}
}

func asList(v any) []any {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		return x
	default:
		return []any{x}
	}
}

func TestConfigValidateNamesMissingBinaries(t *testing.T) {
	tmp := t.TempDir()
	cfg := Config{Stage: StageDev, RepoRoot: "..", LambdaDir: tmp}
	err := cfg.Validate([]string{"profile", "ws"})
	if err == nil || !strings.Contains(err.Error(), "profile, ws") || !strings.Contains(err.Error(), "build-lambdas.sh") {
		t.Fatalf("Validate = %v", err)
	}
	for _, n := range []string{"profile", "ws"} {
		if err := os.MkdirAll(filepath.Join(tmp, n), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, n, "bootstrap"), []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := cfg.Validate([]string{"profile", "ws"}); err != nil {
		t.Fatalf("Validate with binaries = %v", err)
	}
	cfg.PriceSources = "binance,coinbase"
	if err := cfg.Validate([]string{"profile", "ws"}); err == nil || !strings.Contains(err.Error(), "coinbase") {
		t.Fatalf("Validate with an unknown price source = %v", err)
	}
}

func TestConfigFromContext(t *testing.T) {
	app := awscdk.NewApp(&awscdk.AppProps{Outdir: jsii.String(t.TempDir()), Context: &map[string]interface{}{
		ContextStage: StageProd, ContextSiteOrigins: "https://tenger.mn, https://www.tenger.mn", ContextWalletLive: "true",
		ContextPriceSources: "binance,okx",
	}})
	cfg := ConfigFromContext(app, "/repo")
	if cfg.Stage != StageProd || cfg.LambdaDir != "/repo/build/lambda" || cfg.WebDist != "/repo/frontend/dist" ||
		cfg.PriceSources != "binance,okx" {
		t.Errorf("cfg = %+v", cfg)
	}
	if !cfg.Flags.WalletLive || cfg.Flags.FuturesLive {
		t.Errorf("flags = %+v", cfg.Flags)
	}
	// Production admits only its own origins; other stages also the dev servers.
	if got := strings.Join(cfg.origins(), " "); got != "https://tenger.mn https://www.tenger.mn" {
		t.Errorf("prod origins = %q", got)
	}
	cfg.Stage = StageDev
	if got := cfg.origins(); len(got) != 4 || got[2] != "http://localhost:5173" {
		t.Errorf("dev origins = %q", got)
	}
}

// TestWalletFunction: the wallet function serves its routes, every one with
// GET and POST, and may use the table and send codes, but not start or
// complete workflows (the wfstart function starts them from the stream).
func TestWalletFunction(t *testing.T) {
	routes := map[string]bool{}
	for _, r := range resources("api", "AWS::ApiGatewayV2::Route") {
		routes[props(r)["RouteKey"].(string)] = true
	}
	for _, path := range []string{"/fe-ex-api/wallet/{proxy+}", "/fe-ex-api/finance/{proxy+}", "/fe-ex-api/record/{proxy+}",
		"/fe-ex-api/fiat/{proxy+}", "/fe-ex-api/cost/{proxy+}", "/fe-ex-api/v4/capital_password/reset", "/fe-ex-api/common/rate",
		"/fe-ex-api/common/rateV2", "/fe-ex-api/common/getFaitCoinList", "/fe-ex-api/user/update_fee_coin_open", "/bank/v2/withdraw-req"} {
		for _, m := range []string{"GET", "POST"} {
			if !routes[m+" "+path] {
				t.Errorf("route %s %s missing", m, path)
			}
		}
	}
	var walletFn string
	for id, r := range resources("api", "AWS::Lambda::Function") {
		if fnVars(r)["SERVICE"] == "wallet" {
			walletFn = id
		}
	}
	if walletFn == "" {
		t.Fatal("no wallet function")
	}
	var doc string
	for id, p := range resources("api", "AWS::IAM::Policy") {
		if strings.HasPrefix(id, "wallet") {
			doc += mustJSON(props(p)["PolicyDocument"])
		}
	}
	for _, want := range []string{"dynamodb:PutItem", "dynamodb:Query", "ses:SendEmail", "sns:Publish"} {
		if !strings.Contains(doc, want) {
			t.Errorf("wallet policy lacks %s: %s", want, doc)
		}
	}
	if strings.Contains(doc, "states:") {
		t.Errorf("wallet function may use Step Functions: %s", doc)
	}
}

// TestPushGrantedWhereUpdatesArePushed: the wallet function (deposit and
// withdrawal updates), the openapi function (withdrawals a key asks for),
// the workflow function (withdrawal statuses) and the P2P functions
// (orders and chat messages, deadlines) may post to the
// WebSocket API's connections, on its live stage only, and know its endpoint.
func TestPushGrantedWhereUpdatesArePushed(t *testing.T) {
	for stack, want := range map[string]int{"api": 3, "workflows": 2} {
		manage := 0
		for id, p := range resources(stack, "AWS::IAM::Policy") {
			doc := mustJSON(props(p)["PolicyDocument"])
			if strings.Contains(doc, "execute-api:ManageConnections") {
				if stack == "api" && strings.HasPrefix(id, "profile") {
					continue // closes connections only: TestProfileClosesRevokedConnections
				}
				if stack == "api" && !strings.HasPrefix(id, "wallet") && !strings.HasPrefix(id, "openapi") && !strings.HasPrefix(id, "p2p") {
					t.Errorf("%s may post to connections", id)
				}
				manage++
				if !strings.Contains(doc, "/live/POST/@connections/*") {
					t.Errorf("%s: ManageConnections is not limited to the live stage: %s", stack, doc)
				}
			}
		}
		if manage != want {
			t.Errorf("%s: policies allowing ManageConnections = %d, want %d", stack, manage, want)
		}
	}
	found := false
	for _, r := range resources("workflows", "AWS::Lambda::Function") {
		vars := fnVars(r)
		if vars["RAILS"] != nil && vars["WS_ENDPOINT"] != nil {
			found = true
		}
	}
	if !found {
		t.Error("the workflow function has no WS_ENDPOINT")
	}
}

// TestProfileClosesRevokedConnections: the profile function serves sign-out,
// password change and reset, which close the user's WebSocket connections
// (DeleteConnection through platform.Deps.Auth's OnRevoke). So it knows the
// WebSocket API's management endpoint and may close the live stage's
// connections, and only close them: no POST or GET, no other stage, no
// wildcard API or action.
func TestProfileClosesRevokedConnections(t *testing.T) {
	found := false
	for _, r := range resources("api", "AWS::Lambda::Function") {
		vars := fnVars(r)
		if vars["SERVICE"] == "profile" {
			found = true
			if v := mustJSON(vars["WS_ENDPOINT"]); !strings.Contains(v, "LiveStage") && !strings.Contains(v, "WebSocketApi") {
				t.Errorf("profile WS_ENDPOINT = %s, want the realtime stack's stage", v)
			}
		}
	}
	if !found {
		t.Fatal("no profile function")
	}
	statements := 0
	for id, p := range resources("api", "AWS::IAM::Policy") {
		if !strings.HasPrefix(id, "profile") {
			continue
		}
		for _, st := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
			if !strings.Contains(mustJSON(st.(obj)["Action"]), "execute-api:") {
				continue
			}
			statements++
			if got := mustJSON(st.(obj)["Action"]); got != `"execute-api:ManageConnections"` {
				t.Errorf("profile API Gateway actions = %s", got)
			}
			res := mustJSON(st.(obj)["Resource"])
			if !strings.Contains(res, "/live/DELETE/@connections/*") || strings.Contains(res, "POST") ||
				strings.Contains(res, "/GET/") || strings.Contains(res, `/*/*/@connections`) {
				t.Errorf("profile ManageConnections resource = %s, want DELETE on the live stage only", res)
			}
		}
	}
	if statements != 1 {
		t.Errorf("profile statements allowing API Gateway = %d, want 1", statements)
	}
}

// TestAuthKeySecret: the key that seals authenticator secrets is a
// generated secret in the data stack, read only by the functions that set
// up or check authenticator codes (profile, wallet) and the openapi and
// wsapi functions (the Binance-compatible REST and WebSocket APIs), which
// open the API keys' secrets the profile function seals with it; they get
// its ARN.
func TestAuthKeySecret(t *testing.T) {
	if envAuthKeySecret != platform.EnvAuthKeySecret {
		t.Fatalf("the stacks set %s, the platform reads %s", envAuthKeySecret, platform.EnvAuthKeySecret)
	}
	secrets := resources("data", "AWS::SecretsManager::Secret")
	authKeys := 0
	for id, s := range secrets {
		if !strings.HasPrefix(id, "AuthKey") {
			continue
		}
		authKeys++
		gen, _ := props(s)["GenerateSecretString"].(obj)
		if gen["PasswordLength"] != float64(64) || gen["ExcludePunctuation"] != true {
			t.Errorf("%s: generated as %v", id, gen)
		}
		if _, given := props(s)["SecretString"]; given {
			t.Errorf("%s: a secret value in the template", id)
		}
	}
	if authKeys != 1 {
		t.Fatalf("auth keys = %d, want 1", authKeys)
	}
	readers := map[string]bool{}
	for stack := range raw {
		for _, r := range resources(stack, "AWS::Lambda::Function") {
			vars := fnVars(r)
			if arn, ok := vars[envAuthKeySecret]; ok {
				readers[vars["SERVICE"].(string)] = true
				if !strings.Contains(mustJSON(arn), "AuthKey") {
					t.Errorf("%s: %s = %s", vars["SERVICE"], envAuthKeySecret, mustJSON(arn))
				}
			}
		}
	}
	if len(readers) != 4 || !readers["profile"] || !readers["wallet"] || !readers["openapi"] || !readers["wsapi"] {
		t.Errorf("functions given the auth key: %v, want profile, wallet, openapi and wsapi", readers)
	}
	// Statements reading the auth key: the profile, wallet and openapi
	// functions' (Api stack) and the wsapi function's (Realtime stack) only
	// (other statements may read the engine key: TestEngineClientFunctions).
	for stack := range raw {
		for id, p := range resources(stack, "AWS::IAM::Policy") {
			reads := false
			for _, st := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
				if strings.Contains(mustJSON(st.(obj)["Action"]), "secretsmanager:GetSecretValue") &&
					strings.Contains(mustJSON(st.(obj)["Resource"]), "AuthKey") {
					reads = true
				}
			}
			fn := stack == "api" && (strings.HasPrefix(id, "profile") || strings.HasPrefix(id, "wallet") || strings.HasPrefix(id, "openapi")) ||
				stack == "realtime" && strings.HasPrefix(id, "wsapiRole")
			if reads != fn {
				t.Errorf("%s/%s: reads the auth key %v", stack, id, reads)
			}
		}
	}
}

// TestP2PTimeoutStateMachine: the P2P payment deadline waits for the
// timestamp wfstart gives it, then runs the p2ptimeout function once,
// retrying NotDue (an early run) and failures, and fails to an operator's
// alarm when it cannot cancel.
func TestP2PTimeoutStateMachine(t *testing.T) {
	startAt, states := machineDefinition(t, "P2PTimeout")
	wait := states[startAt]
	if startAt != "WaitForDeadline" || wait.Type != "Wait" || wait.Next != "Expire" {
		t.Fatalf("start %s %+v", startAt, wait)
	}
	raw := mustJSON(raw["workflows"])
	if !strings.Contains(raw, `\"TimestampPath\":\"$.deadline\"`) {
		t.Errorf("the Wait state does not wait for $.deadline")
	}
	expire := states["Expire"]
	notDue := false
	for _, r := range expire.Retry { // after the Lambda integration's own retry of its service errors
		notDue = notDue || len(r.ErrorEquals) == 1 && r.ErrorEquals[0] == errNotDue && r.MaxAttempts == 60
	}
	if expire.Type != "Task" || expire.Next != "Done" || !notDue || len(expire.Catch) != 1 || expire.Catch[0].Next != "ExpireFailed" {
		t.Fatalf("Expire %+v", expire)
	}
	if states["ExpireFailed"].Type != "Fail" || states["Done"].Type != "Succeed" {
		t.Errorf("ends %+v %+v", states["ExpireFailed"], states["Done"])
	}
	expect(t, "the deadline's state machine: standard, 6 h at most, traced and logged", func() {
		templates["workflows"].HasResourceProperties(jsii.String("AWS::StepFunctions::StateMachine"), like(obj{
			"StateMachineName": "tenger-dev-p2p-timeout", "StateMachineType": "STANDARD",
			"TracingConfiguration": obj{"Enabled": true},
		}))
	})
}
