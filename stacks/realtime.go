package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigateway"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2integrations"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambdaeventsources"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssqs"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"tenger/internal/binance"
)

// wsStageName is the WebSocket API's stage; clients connect to
// wss://<api>.execute-api.<region>.amazonaws.com/live.
const wsStageName = "live"

// binanceWSStageName is the Binance-compatible WebSocket API's stage:
// clients connect to wss://<api>.execute-api.<region>.amazonaws.com/v3, as
// to Binance's wss://ws-api.binance.com/ws-api/v3.
const binanceWSStageName = "v3"

// envBinanceWSEndpoint names the Binance-compatible WebSocket API's
// management endpoint (platform.EnvBinanceWSEndpoint; wsapi_test.go checks
// they agree).
const envBinanceWSEndpoint = "BINANCE_WS_ENDPOINT"

// RealtimeStack is the WebSocket API, its connection function and the
// change-feed fan-out that pushes updates to connected clients: every
// user's order and balance changes to that user's authenticated
// connections (user_orders, user_balances). The market channels are posted
// by the engine task (GrantPost), which holds the books. A second
// WebSocket API, the Binance-compatible one (stage "v3"), is served by the
// wsapi function; the fan-out posts its user data events too.
type RealtimeStack struct {
	awscdk.Stack
	Api   awsapigatewayv2.WebSocketApi
	Stage awsapigatewayv2.WebSocketStage
	// WS handles $connect, $disconnect and $default (subscriptions, and
	// order-entry requests: it places, amends and cancels orders as the
	// trade function does).
	WS awslambda.Function
	// Stream consumes the table's stream and posts each user's order and
	// balance changes to the user's authenticated connections.
	Stream awslambda.Function
	// StreamDLQ receives the descriptions of stream batches that kept failing.
	StreamDLQ awssqs.Queue

	// BinanceApi is the second WebSocket API: the Binance-compatible
	// WebSocket API (Binance's /ws-api/v3: order.place, account.status,
	// session.logon, userDataStream.subscribe.signature ...) for bots and
	// CCXT, on its stage BinanceStage ("v3").
	BinanceApi   awsapigatewayv2.WebSocketApi
	BinanceStage awsapigatewayv2.WebSocketStage
	// WSAPI handles the Binance-compatible API's $connect, $disconnect and
	// $default (one request frame per invocation), with the openapi
	// function's access: the table, the engine and the auth key.
	WSAPI awslambda.Function
}

// NewRealtimeStack creates the WebSocket API ($connect, $disconnect and
// $default routed to the ws function), the "live" stage, and the stream
// function fed by the table's stream with partial batch failure reporting.
// Connections are items of the main table with a TTL, so a connection whose
// $disconnect never arrived expires on its own. The ws function serves
// order entry over the socket (order.place ...), so it calls the engine's
// private endpoint as the trade function does (engine). The
// Binance-compatible WebSocket API ($connect, $disconnect and $default
// routed to the wsapi function, stage "v3") is created here too, and the
// stream function posts to both APIs' connections.
func NewRealtimeStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config, data *DataStack, engine *engineClient, env map[string]string) *RealtimeStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	s := &RealtimeStack{Stack: st}

	s.Api = awsapigatewayv2.NewWebSocketApi(st, jsii.String("WebSocketApi"), &awsapigatewayv2.WebSocketApiProps{
		ApiName: jsii.String(cfg.prefix() + "-ws"),
	})
	logging := apiGatewayLogging(st)
	s.Stage = newWebSocketStage(st, "LiveStage", s.Api, wsStageName, cfg, logging)
	fnEnv := map[string]string{"WS_ENDPOINT": *s.Stage.CallbackUrl()}
	for k, v := range env {
		fnEnv[k] = v
	}

	s.WS = newGoFunction(st, cfg, goFunctionProps{
		Name: "ws", Description: "WebSocket connect, disconnect, subscriptions and order entry", Env: fnEnv,
		Engine: engine,
	})
	// Connections, subscriptions and orders; the place, amend and cancel
	// commands go to the engine's endpoint.
	data.GrantItems(s.WS, keySpaceOf("ws"))
	allowConnections(s.WS.Role(), manageConnections(st, s.Api, s.Stage))
	addLambdaRoutes(s.Api, liveOf(s.WS), "")
	suppress(s.Api, nagReasons{"AwsSolutions-APIG4": reasonAppAuth})

	// The Binance-compatible WebSocket API: its own API and stage, so its
	// connections, routes and throttling are apart from the web app's.
	s.BinanceApi = awsapigatewayv2.NewWebSocketApi(st, jsii.String("BinanceWsApi"), &awsapigatewayv2.WebSocketApiProps{
		ApiName:     jsii.String(cfg.prefix() + "-ws-api"),
		Description: jsii.String("Binance-compatible WebSocket API (/ws-api/v3)"),
	})
	s.BinanceStage = newWebSocketStage(st, "BinanceWsApiStage", s.BinanceApi, binanceWSStageName, cfg, logging)
	binanceEndpoint := *s.BinanceStage.CallbackUrl()
	// Not WS_ENDPOINT: the wsapi function posts to its own API's
	// connections only (its requests never push to the web app).
	wsapiEnv := map[string]string{envBinanceWSEndpoint: binanceEndpoint}
	for k, v := range env {
		wsapiEnv[k] = v
	}
	s.WSAPI = newGoFunction(st, cfg, goFunctionProps{
		Name: "wsapi", Description: "Binance-compatible WebSocket API (/ws-api/v3): market data, account, order entry, user data streams",
		Env: wsapiEnv, Engine: engine,
	})
	// As the openapi function: the table (its connections' items, the
	// orders, the API keys' last use), the engine's endpoint and key
	// (Engine above), and the auth key, which opens the API keys' HMAC
	// secrets.
	data.GrantItems(s.WSAPI, keySpaceOf("wsapi"))
	grantSecretRead(data.AuthKey, s.WSAPI)
	s.WSAPI.AddEnvironment(jsii.String(envAuthKeySecret), data.AuthKey.SecretArn(), nil)
	allowConnections(s.WSAPI.Role(), manageConnections(st, s.BinanceApi, s.BinanceStage))
	addLambdaRoutes(s.BinanceApi, liveOf(s.WSAPI), "Binance")
	suppress(s.BinanceApi, nagReasons{"AwsSolutions-APIG4": reasonAppAuth})

	s.StreamDLQ = awssqs.NewQueue(st, jsii.String("StreamFailures"), &awssqs.QueueProps{
		RetentionPeriod: awscdk.Duration_Days(jsii.Number(14)),
		Encryption:      awssqs.QueueEncryption_SQS_MANAGED,
		EnforceSSL:      jsii.Bool(true),
	})
	suppress(s.StreamDLQ, nagReasons{"AwsSolutions-SQS3": reasonTerminalDLQ})
	// The stream function also posts the Binance-compatible user data
	// events to the connections of the second API subscribed to them.
	streamEnv := map[string]string{envBinanceWSEndpoint: binanceEndpoint}
	for k, v := range fnEnv {
		streamEnv[k] = v
	}
	s.Stream = newGoFunction(st, cfg, goFunctionProps{
		Name: "stream", Description: "change feed fan-out to WebSocket connections", Env: streamEnv, TimeoutSec: 30,
	})
	// Reads users' connections, deletes connections that are gone, on
	// both APIs.
	data.GrantItems(s.Stream, keySpaceOf("stream"))
	allowConnections(s.Stream.Role(), manageConnections(st, s.Api, s.Stage))
	allowConnections(s.Stream.Role(), manageConnections(st, s.BinanceApi, s.BinanceStage))
	liveOf(s.Stream).AddEventSource(awslambdaeventsources.NewDynamoEventSource(data.Table, &awslambdaeventsources.DynamoEventSourceProps{
		StartingPosition:        awslambda.StartingPosition_LATEST,
		BatchSize:               jsii.Number(100),
		MaxBatchingWindow:       awscdk.Duration_Seconds(jsii.Number(1)),
		ReportBatchItemFailures: jsii.Bool(true),
		RetryAttempts:           jsii.Number(10),
		MaxRecordAge:            awscdk.Duration_Hours(jsii.Number(1)),
		// One batch at a time per shard keeps each item's changes in order.
		ParallelizationFactor: jsii.Number(1),
		OnFailure:             awslambdaeventsources.NewSqsDlq(s.StreamDLQ),
		// Woken only for the changes users' updates come from (orders,
		// balances, deposits, withdrawals, transfers), not for sessions,
		// connections, postings or market data.
		Filters: streamFilters(),
	}))

	awscdk.NewCfnOutput(st, jsii.String("WebSocketUrl"), &awscdk.CfnOutputProps{Value: s.Stage.Url()})
	awscdk.NewCfnOutput(st, jsii.String("BinanceWebSocketApiUrl"), &awscdk.CfnOutputProps{
		Value:       s.BinanceStage.Url(),
		Description: jsii.String("Binance-compatible WebSocket API (Binance's wss://ws-api.binance.com/ws-api/v3)"),
	})
	return s
}

// streamFilters is the stream function's event filter: one filter whose
// key rule lists every prefix of binance.ChangeKeyPrefixes (a record
// passes if any matches; one filter, as an event source takes at most
// five).
func streamFilters() *[]*map[string]interface{} {
	var rules []interface{}
	for _, p := range binance.ChangeKeyPrefixes() {
		rules = append(rules, map[string]interface{}{"prefix": p})
	}
	return &[]*map[string]interface{}{awslambda.FilterCriteria_Filter(&map[string]interface{}{
		"dynamodb": map[string]interface{}{
			"Keys": map[string]interface{}{"pk": map[string]interface{}{"S": rules}},
		},
	})}
}

// newWebSocketStage creates an auto-deployed stage of a WebSocket API with
// the stage throttling of the other APIs and JSON access logs (each
// connect, message and disconnect: route, status, client address,
// latency, error), written through API Gateway's account logging role
// (logging).
func newWebSocketStage(st awscdk.Stack, id string, api awsapigatewayv2.WebSocketApi, name string, cfg Config, logging awscdk.CfnResource) awsapigatewayv2.WebSocketStage {
	stage := awsapigatewayv2.NewWebSocketStage(st, jsii.String(id), &awsapigatewayv2.WebSocketStageProps{
		WebSocketApi: api,
		StageName:    jsii.String(name),
		AutoDeploy:   jsii.Bool(true),
		Throttle: &awsapigatewayv2.ThrottleSettings{
			RateLimit:  jsii.Number(throttleRate(cfg)),
			BurstLimit: jsii.Number(throttleBurst(cfg)),
		},
	})
	cfnStage := stage.Node().DefaultChild().(awsapigatewayv2.CfnStage)
	writeAccessLogs(st, id+"AccessLogs", cfnStage, wsAccessLogFormat, cfg)
	cfnStage.AddDependency(logging)
	return stage
}

// wsAccessLogFormat is one JSON line per WebSocket event.
const wsAccessLogFormat = `{"requestId":"$context.requestId","connectionId":"$context.connectionId",` +
	`"eventType":"$context.eventType","routeKey":"$context.routeKey","status":"$context.status",` +
	`"ip":"$context.identity.sourceIp","requestTime":"$context.requestTime",` +
	`"integrationLatency":"$context.integrationLatency","error":"$context.error.message"}`

// apiGatewayLogging sets API Gateway's account logging role in the region,
// which WebSocket (and REST) stages need to write access logs to
// CloudWatch Logs (HTTP APIs do not). It is one setting per account and
// region: a deploy sets it to this role.
func apiGatewayLogging(st awscdk.Stack) awscdk.CfnResource {
	role := awsiam.NewRole(st, jsii.String("ApiGatewayLogsRole"), &awsiam.RoleProps{
		AssumedBy: awsiam.NewServicePrincipal(jsii.String("apigateway.amazonaws.com"), nil),
		ManagedPolicies: &[]awsiam.IManagedPolicy{
			awsiam.ManagedPolicy_FromAwsManagedPolicyName(jsii.String("service-role/AmazonAPIGatewayPushToCloudWatchLogs")),
		},
	})
	suppress(role, nagReasons{"AwsSolutions-IAM4": "AmazonAPIGatewayPushToCloudWatchLogs is the policy AWS documents " +
		"for API Gateway's account logging role; API Gateway names its log groups itself."})
	return awsapigateway.NewCfnAccount(st, jsii.String("ApiGatewayAccount"), &awsapigateway.CfnAccountProps{
		CloudWatchRoleArn: role.RoleArn(),
	})
}

// addLambdaRoutes routes $connect, $disconnect and $default of a WebSocket
// API to one function; prefix keeps the integrations' ids apart.
func addLambdaRoutes(api awsapigatewayv2.WebSocketApi, fn awslambda.IFunction, prefix string) {
	integ := func(name string) *awsapigatewayv2.WebSocketRouteOptions {
		return &awsapigatewayv2.WebSocketRouteOptions{
			Integration: awsapigatewayv2integrations.NewWebSocketLambdaIntegration(jsii.String(prefix+name), fn, nil),
		}
	}
	api.AddRoute(jsii.String("$connect"), integ("ConnectIntegration"))
	api.AddRoute(jsii.String("$disconnect"), integ("DisconnectIntegration"))
	api.AddRoute(jsii.String("$default"), integ("DefaultIntegration"))
}

// GrantPush lets a function outside this stack push to WebSocket clients
// (deposit and withdrawal updates), with the same narrow statement.
func (s *RealtimeStack) GrantPush(fn awslambda.Function) {
	allowConnections(fn.Role(), manageConnections(awscdk.Stack_Of(fn), s.Api, s.Stage))
}

// GrantPost lets a role outside this stack post to the live stage's
// connections and nothing more (no DELETE, no GET): the engine task
// publishes the market channels and only ever posts; a connection it finds
// gone is forgotten in the table, not closed.
func (s *RealtimeStack) GrantPost(role awsiam.IRole) {
	allowConnections(role, connectionsStatement(awscdk.Stack_Of(role), s.Api, s.Stage, "POST"))
}

// GrantClose lets a function outside this stack close the live stage's
// connections and nothing more (no POST, no GET): the profile function
// closes the connections of a user whose sessions ended (sign-out,
// password change or reset).
func (s *RealtimeStack) GrantClose(fn awslambda.Function) {
	allowConnections(fn.Role(), connectionsStatement(awscdk.Stack_Of(fn), s.Api, s.Stage, "DELETE"))
}

// allowConnections adds a ManageConnections statement to a role, with the
// reason its @connections/* resource is as narrow as it can be.
func allowConnections(role awsiam.IRole, stmt awsiam.PolicyStatement) {
	role.AddToPrincipalPolicy(stmt)
	suppress(role, nagReasons{"AwsSolutions-IAM5": reasonConnections}, `/@connections/\*$`)
}

// manageConnections allows posting to, closing and reading the connections
// of one stage of one WebSocket API only (PostToConnection,
// DeleteConnection, GetConnection), narrower than the whole API that
// GrantManageConnections would allow.
func manageConnections(st awscdk.Stack, api awsapigatewayv2.IWebSocketApi, stage awsapigatewayv2.IWebSocketStage) awsiam.PolicyStatement {
	return connectionsStatement(st, api, stage, "POST", "DELETE", "GET")
}

// connectionsStatement allows ManageConnections with the given HTTP methods
// on the connections of one stage of one WebSocket API.
func connectionsStatement(st awscdk.Stack, api awsapigatewayv2.IWebSocketApi, stage awsapigatewayv2.IWebSocketStage, methods ...string) awsiam.PolicyStatement {
	resources := make([]*string, 0, len(methods))
	for _, method := range methods {
		resources = append(resources, st.FormatArn(&awscdk.ArnComponents{
			Service:      jsii.String("execute-api"),
			Resource:     api.ApiId(),
			ResourceName: jsii.String(*stage.StageName() + "/" + method + "/@connections/*"),
			ArnFormat:    awscdk.ArnFormat_SLASH_RESOURCE_NAME,
		}))
	}
	return awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Actions:   jsii.Strings("execute-api:ManageConnections"),
		Resources: &resources,
	})
}
