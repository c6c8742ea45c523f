package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2integrations"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambdaeventsources"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssqs"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// wsStageName is the WebSocket API's stage; clients connect to
// wss://<api>.execute-api.<region>.amazonaws.com/live.
const wsStageName = "live"

// RealtimeStack is the WebSocket API, its connection function and the
// change-feed fan-out that pushes updates to connected clients: every
// user's order and balance changes to that user's authenticated
// connections (user_orders, user_balances). The market channels are posted
// by the engine task (GrantPost), which holds the books.
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
}

// NewRealtimeStack creates the WebSocket API ($connect, $disconnect and
// $default routed to the ws function), the "live" stage, and the stream
// function fed by the table's stream with partial batch failure reporting.
// Connections are items of the main table with a TTL, so a connection whose
// $disconnect never arrived expires on its own. The ws function serves
// order entry over the socket (order.place ...), so it calls the engine's
// private endpoint as the trade function does (engine).
func NewRealtimeStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config, data *DataStack, engine *engineClient, env map[string]string) *RealtimeStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	s := &RealtimeStack{Stack: st}

	s.Api = awsapigatewayv2.NewWebSocketApi(st, jsii.String("WebSocketApi"), &awsapigatewayv2.WebSocketApiProps{
		ApiName: jsii.String(cfg.prefix() + "-ws"),
	})
	s.Stage = awsapigatewayv2.NewWebSocketStage(st, jsii.String("LiveStage"), &awsapigatewayv2.WebSocketStageProps{
		WebSocketApi: s.Api,
		StageName:    jsii.String(wsStageName),
		AutoDeploy:   jsii.Bool(true),
		Throttle: &awsapigatewayv2.ThrottleSettings{
			RateLimit:  jsii.Number(throttleRate(cfg)),
			BurstLimit: jsii.Number(throttleBurst(cfg)),
		},
	})
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
	data.Table.GrantReadWriteData(s.WS)
	s.WS.AddToRolePolicy(s.manageConnections(st))
	integ := func(name string) *awsapigatewayv2.WebSocketRouteOptions {
		return &awsapigatewayv2.WebSocketRouteOptions{
			Integration: awsapigatewayv2integrations.NewWebSocketLambdaIntegration(jsii.String(name), s.WS, nil),
		}
	}
	s.Api.AddRoute(jsii.String("$connect"), integ("ConnectIntegration"))
	s.Api.AddRoute(jsii.String("$disconnect"), integ("DisconnectIntegration"))
	s.Api.AddRoute(jsii.String("$default"), integ("DefaultIntegration"))

	s.StreamDLQ = awssqs.NewQueue(st, jsii.String("StreamFailures"), &awssqs.QueueProps{
		RetentionPeriod: awscdk.Duration_Days(jsii.Number(14)),
		Encryption:      awssqs.QueueEncryption_SQS_MANAGED,
		EnforceSSL:      jsii.Bool(true),
	})
	s.Stream = newGoFunction(st, cfg, goFunctionProps{
		Name: "stream", Description: "change feed fan-out to WebSocket connections", Env: fnEnv, TimeoutSec: 30,
	})
	// Reads users' connections, deletes connections that are gone.
	data.Table.GrantReadWriteData(s.Stream)
	s.Stream.AddToRolePolicy(s.manageConnections(st))
	s.Stream.AddEventSource(awslambdaeventsources.NewDynamoEventSource(data.Table, &awslambdaeventsources.DynamoEventSourceProps{
		StartingPosition:        awslambda.StartingPosition_LATEST,
		BatchSize:               jsii.Number(100),
		MaxBatchingWindow:       awscdk.Duration_Seconds(jsii.Number(1)),
		ReportBatchItemFailures: jsii.Bool(true),
		RetryAttempts:           jsii.Number(10),
		MaxRecordAge:            awscdk.Duration_Hours(jsii.Number(1)),
		// One batch at a time per shard keeps each item's changes in order.
		ParallelizationFactor: jsii.Number(1),
		OnFailure:             awslambdaeventsources.NewSqsDlq(s.StreamDLQ),
	}))

	awscdk.NewCfnOutput(st, jsii.String("WebSocketUrl"), &awscdk.CfnOutputProps{Value: s.Stage.Url()})
	return s
}

// GrantPush lets a function outside this stack push to WebSocket clients
// (deposit and withdrawal updates), with the same narrow statement.
func (s *RealtimeStack) GrantPush(fn awslambda.Function) {
	fn.AddToRolePolicy(s.manageConnections(awscdk.Stack_Of(fn)))
}

// GrantPost lets a role outside this stack post to the live stage's
// connections and nothing more (no DELETE, no GET): the engine task
// publishes the market channels and only ever posts; a connection it finds
// gone is forgotten in the table, not closed.
func (s *RealtimeStack) GrantPost(role awsiam.IRole) {
	role.AddToPrincipalPolicy(s.connectionsStatement(awscdk.Stack_Of(role), "POST"))
}

// GrantClose lets a function outside this stack close the live stage's
// connections and nothing more (no POST, no GET): the profile function
// closes the connections of a user whose sessions ended (sign-out,
// password change or reset).
func (s *RealtimeStack) GrantClose(fn awslambda.Function) {
	fn.AddToRolePolicy(s.connectionsStatement(awscdk.Stack_Of(fn), "DELETE"))
}

// manageConnections allows posting to, closing and reading the connections
// of this API's live stage only (PostToConnection, DeleteConnection,
// GetConnection), narrower than the whole API that GrantManageConnections
// would allow.
func (s *RealtimeStack) manageConnections(st awscdk.Stack) awsiam.PolicyStatement {
	return s.connectionsStatement(st, "POST", "DELETE", "GET")
}

// connectionsStatement allows ManageConnections with the given HTTP methods
// on the live stage's connections.
func (s *RealtimeStack) connectionsStatement(st awscdk.Stack, methods ...string) awsiam.PolicyStatement {
	resources := make([]*string, 0, len(methods))
	for _, method := range methods {
		resources = append(resources, st.FormatArn(&awscdk.ArnComponents{
			Service:      jsii.String("execute-api"),
			Resource:     s.Api.ApiId(),
			ResourceName: jsii.String(wsStageName + "/" + method + "/@connections/*"),
			ArnFormat:    awscdk.ArnFormat_SLASH_RESOURCE_NAME,
		}))
	}
	return awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Actions:   jsii.Strings("execute-api:ManageConnections"),
		Resources: &resources,
	})
}
