package stacks

import (
	"strings"
	"testing"

	"github.com/aws/jsii-runtime-go"

	"tenger/internal/awslambda"
	"tenger/internal/binance"
	"tenger/internal/platform"
)

// cdkHelper reports whether a logical id is one of CDK's own helper
// functions or their roles (bucket deployment, cross-region references,
// SDK calls), which CDK builds with its own role and runtime.
func cdkHelper(id string) bool {
	return strings.HasPrefix(id, "Custom") || strings.HasPrefix(id, "AWS679f53fac002430cb0da5b7982bd2287")
}

// TestTableGrantsAreItemActionsOnNamedIndexes: every statement on the
// table names it, or its indexes by name (never index/*), and allows only
// the item actions the store adapter calls: no Scan, no batch writes, no
// table management beyond DescribeTable. The item statements name the
// table alone (the indexes are queried in statements of their own:
// keyspace_test.go checks both).
func TestTableGrantsAreItemActionsOnNamedIndexes(t *testing.T) {
	allowed := map[string]bool{}
	for _, a := range append(append(append([]string{}, tableReadActions...), tableWriteActions...), feedActions...) {
		allowed[a] = true
	}
	// The stream event sources' own statements.
	for _, a := range []string{"dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator", "dynamodb:ListStreams"} {
		allowed[a] = true
	}
	tableStatements := 0
	for stack := range raw {
		for id, p := range resources(stack, "AWS::IAM::Policy") {
			for _, s := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
				st := s.(obj)
				res := mustJSON(st["Resource"])
				for _, a := range asList(st["Action"]) {
					action := a.(string)
					if !strings.HasPrefix(action, "dynamodb:") {
						continue
					}
					if !allowed[action] {
						t.Errorf("%s/%s allows %s", stack, id, action)
					}
				}
				if strings.Contains(res, "/index/*") {
					t.Errorf("%s/%s names the table's indexes with a wildcard: %s", stack, id, res)
				}
				if strings.Contains(mustJSON(st["Action"]), "dynamodb:GetItem") {
					tableStatements++
					if strings.Contains(res, "/index/") {
						t.Errorf("%s/%s: an item statement names an index: %s", stack, id, res)
					}
				}
			}
		}
	}
	if tableStatements < 10 {
		t.Errorf("only %d table statements found", tableStatements)
	}
}

// TestLogsAndTraces: every function traces with X-Ray and writes only its
// own log group (no AWSLambdaBasicExecutionRole); both WebSocket stages
// write JSON access logs; the VPC has flow logs; the withdrawal state
// machine logs every transition and traces; the engine cluster has
// Container Insights; the site bucket and CloudFront log their access.
func TestLogsAndTraces(t *testing.T) {
	fns := 0
	for stack := range raw {
		for id, r := range resources(stack, "AWS::Lambda::Function") {
			if cdkHelper(id) {
				continue
			}
			fns++
			if mustJSON(props(r)["TracingConfig"]) != `{"Mode":"Active"}` {
				t.Errorf("%s/%s: tracing %s", stack, id, mustJSON(props(r)["TracingConfig"]))
			}
		}
		for id, r := range resources(stack, "AWS::IAM::Role") {
			if strings.Contains(mustJSON(props(r)["ManagedPolicyArns"]), "AWSLambdaBasicExecutionRole") && !cdkHelper(id) {
				t.Errorf("%s/%s uses AWSLambdaBasicExecutionRole", stack, id)
			}
		}
	}
	if fns != len(FunctionNames()) {
		t.Errorf("%d functions checked, want %d", fns, len(FunctionNames()))
	}
	stages := 0
	for _, r := range resources("realtime", "AWS::ApiGatewayV2::Stage") {
		stages++
		als, _ := props(r)["AccessLogSettings"].(obj)
		if als == nil || !strings.Contains(mustJSON(als["Format"]), "connectionId") || !strings.Contains(mustJSON(als["DestinationArn"]), "AccessLogs") {
			t.Errorf("WebSocket stage %s: access logs %s", mustJSON(props(r)["StageName"]), mustJSON(als))
		}
		if !strings.Contains(mustJSON(r["DependsOn"]), "ApiGatewayAccount") {
			t.Errorf("WebSocket stage %s does not wait for the account logging role", mustJSON(props(r)["StageName"]))
		}
	}
	if stages != 2 {
		t.Errorf("%d WebSocket stages", stages)
	}
	expect(t, "API Gateway account logging role", func() {
		templates["realtime"].ResourceCountIs(jsii.String("AWS::ApiGateway::Account"), jsii.Number(1))
	})
	expect(t, "VPC flow logs", func() {
		templates["network"].HasResourceProperties(jsii.String("AWS::EC2::FlowLog"), like(obj{
			"ResourceType": "VPC", "TrafficType": "ALL", "LogDestinationType": "cloud-watch-logs",
		}))
	})
	expect(t, "withdrawal state machine logs ALL and traces", func() {
		templates["workflows"].HasResourceProperties(jsii.String("AWS::StepFunctions::StateMachine"), like(obj{
			"LoggingConfiguration": like(obj{"Level": "ALL", "IncludeExecutionData": false}),
			"TracingConfiguration": obj{"Enabled": true},
		}))
	})
	expect(t, "engine cluster Container Insights", func() {
		templates["engine"].HasResourceProperties(jsii.String("AWS::ECS::Cluster"), like(obj{
			"ClusterSettings": arrayWith(obj{"Name": "containerInsights", "Value": "enabled"}),
		}))
	})
	expect(t, "site bucket access logs", func() {
		templates["web"].HasResourceProperties(jsii.String("AWS::S3::Bucket"), like(obj{
			"LoggingConfiguration": like(obj{"LogFilePrefix": "site/"}),
		}))
	})
	expect(t, "CloudFront access logs", func() {
		templates["web"].HasResourceProperties(jsii.String("AWS::CloudFront::Distribution"), like(obj{
			"DistributionConfig": like(obj{"Logging": like(obj{"Prefix": "cloudfront/"})}),
		}))
	})
}

// TestSMSCountries: the functions that text codes know the countries they
// may text (the others are not told).
func TestSMSCountries(t *testing.T) {
	if platform.EnvSMSCallingCodes != "SMS_CALLING_CODES" {
		t.Fatalf("the platform reads %s", platform.EnvSMSCallingCodes)
	}
	texters := 0
	for _, r := range resources("api", "AWS::Lambda::Function") {
		vars := fnVars(r)
		name, _ := vars["SERVICE"].(string)
		codes, has := vars["SMS_CALLING_CODES"]
		if has != (name == "profile" || name == "wallet") {
			t.Errorf("%s: SMS_CALLING_CODES %v", name, codes)
		}
		if has {
			texters++
			if codes != "976" {
				t.Errorf("%s: SMS_CALLING_CODES %v", name, codes)
			}
		}
	}
	if texters != 2 {
		t.Errorf("%d functions text codes, want profile and wallet", texters)
	}
}

// TestFunctionDeployments: every function is invoked through its live
// alias (routes, stream event sources, the workflow's tasks), which
// CodeDeploy moves to each new version: all at once outside production,
// 10 % for five minutes in production, rolled back when the alias's
// errors alarm.
func TestFunctionDeployments(t *testing.T) {
	groups, aliases := 0, 0
	for stack := range raw {
		for id, g := range resources(stack, "AWS::CodeDeploy::DeploymentGroup") {
			groups++
			p := props(g)
			if !strings.Contains(mustJSON(p["DeploymentConfigName"]), "LambdaAllAtOnce") ||
				!strings.Contains(mustJSON(p["AlarmConfiguration"]), `"Enabled":true`) ||
				!strings.Contains(mustJSON(p["AutoRollbackConfiguration"]), "DEPLOYMENT_STOP_ON_ALARM") {
				t.Errorf("%s/%s: %s", stack, id, mustJSON(p))
			}
		}
		aliases += len(resources(stack, "AWS::Lambda::Alias"))
		for id, m := range resources(stack, "AWS::Lambda::EventSourceMapping") {
			if !strings.Contains(mustJSON(props(m)["FunctionName"]), "Live") {
				t.Errorf("%s/%s invokes %s, not a live alias", stack, id, mustJSON(props(m)["FunctionName"]))
			}
		}
	}
	if n := len(FunctionNames()); groups != n || aliases != n {
		t.Errorf("%d deployment groups and %d aliases, want %d", groups, aliases, n)
	}
	if def := mustJSON(raw["workflows"]); !strings.Contains(def, "workflowLive") {
		t.Error("the withdrawal workflow's tasks do not invoke the live alias")
	}
	if name := *deployConfig(Config{Stage: StageProd}).DeploymentConfigName(); name != "CodeDeployDefault.LambdaCanary10Percent5Minutes" {
		t.Errorf("production deploys with %s", name)
	}
}

// TestStreamFunctionFilter: the stream function is woken only for the key
// prefixes users' updates come from.
func TestStreamFunctionFilter(t *testing.T) {
	found := false
	for _, m := range resources("realtime", "AWS::Lambda::EventSourceMapping") {
		f := mustJSON(props(m)["FilterCriteria"])
		if !strings.Contains(f, "SORD#") {
			continue
		}
		found = true
		for _, p := range binance.ChangeKeyPrefixes() {
			if !strings.Contains(f, `\"prefix\":\"`+p+`\"`) {
				t.Errorf("filter lacks %s: %s", p, f)
			}
		}
		if n := len(asList(props(m)["FilterCriteria"].(obj)["Filters"])); n != 1 {
			t.Errorf("%d filters, want one listing every prefix (an event source takes at most five)", n)
		}
	}
	if !found {
		t.Fatal("the stream function's event source has no key filter")
	}
}

// TestDashboardOutcomes: the dashboard draws the functions' request
// outcomes from the namespace the runtime writes them to.
func TestDashboardOutcomes(t *testing.T) {
	body := mustJSON(raw["observability"])
	for _, want := range []string{awslambda.MetricsNamespace, `\"Outcome\",\"refused\"`, "trade requests by outcome"} {
		if !strings.Contains(body, want) {
			t.Errorf("dashboard lacks %s", want)
		}
	}
}

// TestWithdrawalSweep: every 5 minutes the wfstart function's live alias
// is invoked to start withdrawals whose workflow never started; it may
// write the table (to hand instances over).
func TestWithdrawalSweep(t *testing.T) {
	found := false
	for _, r := range resources("workflows", "AWS::Events::Rule") {
		p := props(r)
		if p["ScheduleExpression"] == "rate(5 minutes)" && strings.Contains(mustJSON(p["Targets"]), "wfstartLive") {
			found = true
		}
	}
	if !found {
		t.Error("no 5-minute schedule invoking wfstart's live alias")
	}
	writes := false
	for id, p := range resources("workflows", "AWS::IAM::Policy") {
		if strings.HasPrefix(id, "wfstartRole") && strings.Contains(mustJSON(props(p)), "dynamodb:UpdateItem") {
			writes = true
		}
	}
	if !writes {
		t.Error("wfstart may not update the table")
	}
}

// TestSMSSpendLimit: with smsSpendLimitUsd set, a deploy sets SNS's
// account-level monthly SMS spend cap.
func TestSMSSpendLimit(t *testing.T) {
	found := false
	for _, r := range resources("observability", "Custom::AWS") {
		c := mustJSON(props(r)["Create"])
		if strings.Contains(c, `setSMSAttributes`) && strings.Contains(c, `MonthlySpendLimit`) && strings.Contains(c, `200`) {
			found = true
		}
	}
	if !found {
		t.Error("no SNS monthly spend limit set")
	}
}
