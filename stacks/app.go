package stacks

import (
	"fmt"
	"strconv"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/jsii-runtime-go"
)

// Tenger is every stack of one stage.
type Tenger struct {
	Data          *DataStack
	Network       *NetworkStack
	Realtime      *RealtimeStack
	Workflows     *WorkflowsStack
	Api           *ApiStack
	Engine        *EngineStack
	Web           *WebStack
	Observability *ObservabilityStack
	// Edge is nil when the stacks are not placed (Config.Account, Region).
	Edge     *EdgeStack
	Recovery *RecoveryStack
	// Admin is the operators' function.
	Admin *AdminStack
}

// FunctionNames lists every Lambda function the stacks deploy; each needs
// build/lambda/<name>/bootstrap.
func FunctionNames() []string {
	return append(APIFunctionNames(), "ws", "wsapi", "stream", "workflow", "wfstart", "p2ptimeout", "competition", adminFunction)
}

// Build adds the stacks of cfg.Stage to app. It checks the config first and
// returns an error (not a panic deep in jsii) when the built functions are
// missing.
func Build(app awscdk.App, cfg Config) (*Tenger, error) {
	if err := cfg.Validate(FunctionNames()); err != nil {
		return nil, err
	}
	props := func(name, description string) *awscdk.StackProps {
		p := &awscdk.StackProps{
			StackName:   jsii.String(fmt.Sprintf("Tenger-%s-%s", cfg.Stage, name)),
			Description: jsii.String("Tenger " + cfg.Stage + ": " + description),
			Tags:        &map[string]*string{"app": jsii.String("tenger"), "stage": jsii.String(cfg.Stage)},
		}
		// Deploying into the account and region of the credentials in use;
		// without them (offline synth, tests) the stacks stay
		// environment-agnostic.
		if cfg.Account != "" && cfg.Region != "" {
			p.Env = &awscdk.Environment{Account: jsii.String(cfg.Account), Region: jsii.String(cfg.Region)}
		}
		return p
	}
	t := &Tenger{}
	id := func(name string) string { return "Tenger-" + cfg.Stage + "-" + name }
	t.Data = NewDataStack(app, id("Data"), props("Data", "DynamoDB table, change stream and keys"), cfg)
	t.Network = NewNetworkStack(app, id("Network"), props("Network", "VPC and the engine's security groups"))
	// The functions that submit engine commands (trade, wallet, ws, wsapi,
	// workflow, openapi) call the engine's private endpoint from the VPC.
	engine := &engineClient{Network: t.Network, Key: t.Data.EngineKey}

	env := map[string]string{
		"TABLE_NAME": *t.Data.Table.TableName(),
	}
	// The names are platform.NewAWS's (internal/platform/aws.go).
	env["FUTURES_LIVE"] = fmt.Sprint(cfg.Flags.FuturesLive)
	env["WALLET_LIVE"] = fmt.Sprint(cfg.Flags.WalletLive)
	if len(cfg.SiteOrigins) > 0 {
		env["SITE_ORIGIN"] = cfg.SiteOrigins[0]
	}
	if from, ok := app.Node().TryGetContext(jsii.String(ContextEmailFrom)).(string); ok && from != "" {
		env["EMAIL_FROM"] = from
	}

	t.Realtime = NewRealtimeStack(app, id("Realtime"), props("Realtime", "WebSocket API and change-feed fan-out"), cfg, t.Data, engine, env)
	// Functions that push user updates (deposits, withdrawal statuses) know
	// the WebSocket API's management endpoint.
	apiEnv := map[string]string{"WS_ENDPOINT": *t.Realtime.Stage.CallbackUrl()}
	for k, v := range env {
		apiEnv[k] = v
	}
	t.Workflows = NewWorkflowsStack(app, id("Workflows"), props("Workflows", "withdrawal state machine"), cfg, t.Data, engine, apiEnv)
	t.Realtime.GrantPush(t.Workflows.Function)
	t.Realtime.GrantPush(t.Workflows.P2PTimeoutFn)
	t.Api = NewApiStack(app, id("Api"), props("Api", "HTTP API and service functions"), cfg,
		apiDeps{Data: t.Data, Engine: engine, Workflows: t.Workflows, Realtime: t.Realtime, Env: apiEnv, EmailFrom: env["EMAIL_FROM"],
			SMSCallingCodes: cfg.SMSCallingCodes})
	// Operators' actions in AWS: the admin function, invoked with IAM.
	t.Admin = NewAdminStack(app, id("Admin"), props("Admin", "operators' admin function (invoked with IAM, no route)"), cfg,
		adminDeps{Data: t.Data, Env: env, EmailFrom: env["EMAIL_FROM"], SMSCallingCodes: cfg.SMSCallingCodes})
	// The engine publishes the market channels to WebSocket clients itself.
	t.Engine = NewEngineStack(app, id("Engine"), props("Engine", "matching engine on Fargate"), cfg, t.Data, t.Network, apiEnv)
	t.Realtime.GrantPost(t.Engine.Task.TaskRole())
	t.Recovery = NewRecoveryStack(app, id("Recovery"), props("Recovery", "backups of the table and the engine journal"), cfg, t.Data, t.Engine)
	// The edge lives in us-east-1 (CloudFront's web ACLs and certificates);
	// the site's stack refers to it across regions, which needs both
	// placed in an account.
	wd := webDeps{Api: t.Api, Realtime: t.Realtime, OriginKey: t.Data.OriginKey, Uploads: t.Data.Uploads}
	webProps := props("Web", "site bucket, CloudFront and config.json")
	if cfg.placed() {
		// Only what comes through the edge is served: the functions behind
		// the APIs check the header CloudFront adds.
		for _, fn := range append(t.Api.FunctionList(), t.Realtime.WS, t.Realtime.WSAPI) {
			grantSecretRead(t.Data.OriginKey, fn)
			fn.AddEnvironment(jsii.String(envOriginKeySecret), t.Data.OriginKey.SecretArn(), nil)
		}
		edgeProps := props("Edge", "AWS WAF web ACL and certificate for CloudFront (us-east-1)")
		edgeProps.Env = &awscdk.Environment{Account: jsii.String(cfg.Account), Region: jsii.String(EdgeRegion)}
		edgeProps.CrossRegionReferences = jsii.Bool(true)
		t.Edge = NewEdgeStack(app, id("Edge"), edgeProps, cfg)
		webProps.CrossRegionReferences = jsii.Bool(true)
		wd.Edge = t.Edge
	}
	t.Web = NewWebStack(app, id("Web"), webProps, cfg, wd)
	email, _ := app.Node().TryGetContext(jsii.String(ContextAlarmEmail)).(string)
	spend, limit := contextNumber(app, ContextSMSSpendAlarm), contextNumber(app, ContextSMSSpendLimit)
	t.Observability = NewObservabilityStack(app, id("Observability"), props("Observability", "alarms and dashboard"), cfg,
		observed{Data: t.Data, Api: t.Api, Realtime: t.Realtime, Workflows: t.Workflows, Engine: t.Engine, Admin: t.Admin, Email: email,
			SMSSpendUSD: spend, SMSSpendLimitUSD: limit})
	return t, nil
}

// contextNumber reads a number from the context: a number in cdk.json, a
// string on the command line (-c smsSpendAlarmUsd=100); 0 when unset.
func contextNumber(app awscdk.App, key string) float64 {
	switch v := app.Node().TryGetContext(jsii.String(key)).(type) {
	case float64:
		return v
	case string:
		n, _ := strconv.ParseFloat(v, 64)
		return n
	}
	return 0
}

// ContextEmailFrom names the context value with the sender address of
// verification e-mails (an SES-verified identity).
const ContextEmailFrom = "emailFrom"
