package stacks

import (
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2integrations"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsevents"
	"github.com/aws/aws-cdk-go/awscdk/v2/awseventstargets"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// ServicePrefixes are the path prefixes of the HTTP services (spec §7); the
// web stack publishes one API URL per prefix in config.json.
var ServicePrefixes = []string{
	"/fe-ex-api", "/fe-co-api", "/fe-otc-api", "/fe-increment-api", "/fe-quant-api", "/fe-task-api",
}

// ContentPath is the content service's GraphQL endpoint.
const ContentPath = "/graphql"

// access says which data-plane permissions a function gets beyond the
// table, whose items it may use as its key space declares
// (internal/store/keyspace, under the function's name); each flag maps to
// a grant on one named resource, never a wildcard.
type access struct {
	Notify        bool // SMS through SNS and e-mail through SES (verification codes)
	StartWorkflow bool // StartExecution of the withdrawal state machine
	Push          bool // PostToConnection on the WebSocket API's live stage (user updates)
	// CloseConnections: DeleteConnection on the live stage only, to close
	// the WebSocket connections of a user whose sessions ended.
	CloseConnections bool
	// AuthKey: read the secret that seals authenticator secrets (its ARN
	// in AUTH_KEY_SECRET_ARN): the functions that set up or check an
	// authenticator code.
	AuthKey bool
	// Engine: submits engine commands (orders, balance moves) to the
	// engine's private endpoint: the function runs in the VPC with the
	// engine client security group and reads the engine key (its ARN in
	// ENGINE_KEY_SECRET_ARN).
	Engine bool
	// KYC: reads the identity verification provider's secret (Sumsub's
	// keys, its ARN in SUMSUB_SECRET_ARN) when verification first needs it.
	KYC bool
	// Uploads: keeps the users' uploads in the uploads bucket (objects
	// under uploads/ only, with its key; UPLOADS_BUCKET and
	// UPLOADS_KMS_KEY_ID).
	Uploads bool
	// UploadsRead: reads them only (GetObject, decryption through S3).
	UploadsRead bool
}

// apiFunction is one Lambda behind the HTTP API and the routes it serves.
type apiFunction struct {
	Name        string
	Description string
	Routes      []string // "{proxy+}" paths or exact paths
	Methods     []awsapigatewayv2.HttpMethod
	Access      access
	// MemoryMiB and TimeoutSec override newGoFunction's defaults (256 MiB,
	// 10 s); the timeout stays under the HTTP API's 30 s integration limit.
	MemoryMiB, TimeoutSec float64
	// ScheduleMinutes, when set, adds an EventBridge rule that invokes the
	// function's live alias that often with a scheduled event ("detail-type"
	// "Scheduled Event"), which the function tells from the HTTP API's
	// requests: work of the area that no request starts.
	ScheduleMinutes float64
}

// APIFunctions lists the areas served by the HTTP API, one function each.
// A capability lands by adding its entry here (and its functions/<name>
// main); the stack, the IAM grants, the alarms and the tests follow from it.
var apiFunctions = []apiFunction{
	{
		Name: "profile",
		Description: "accounts, sign-up and sign-in, security settings, market lists and favourites, uploads, identity and " +
			"corporate verification, support tickets, account cancellation (/fe-ex-api user, common, security, optional, " +
			"sumsub, company, question)",
		Routes: []string{
			"/fe-ex-api/user/{proxy+}",
			// The uploads (common/upload_img, upload_img_auth, upload_file)
			// are under common too.
			"/fe-ex-api/common/{proxy+}",
			"/fe-ex-api/v4/common/{proxy+}",
			"/fe-ex-api/security/{proxy+}",
			"/fe-ex-api/public_info_v5",
			"/fe-ex-api/market/{proxy+}",
			"/fe-ex-api/optional/{proxy+}",
			// API key management: create, update and delete
			// (/fe-ex-api/openapi/*) and the list
			// (/fe-ex-api/sub_user/openapi/sub_user_api_list).
			"/fe-ex-api/openapi/{proxy+}",
			"/fe-ex-api/sub_user/{proxy+}",
			// Identity verification, and the provider's webhook
			// (POST /fe-ex-api/sumsub/webhook: no session, its digest is
			// checked over the raw body; Sumsub calls it through the edge).
			"/fe-ex-api/sumsub/{proxy+}",
			// Corporate verification.
			"/fe-ex-api/company/{proxy+}",
			// Support tickets.
			"/fe-ex-api/question/{proxy+}",
		},
		// Sign-out, password change and reset close the user's WebSocket
		// connections (platform.Deps.Auth's OnRevoke), and nothing more.
		// Binding an authenticator and signing in with it use the auth key,
		// which also seals the secrets of the API keys made here (the
		// openapi function opens them). Verification reads Sumsub's keys;
		// uploads go to the uploads bucket.
		Access: access{Notify: true, CloseConnections: true, AuthKey: true, KYC: true, Uploads: true},
		// An upload decodes images of up to 25 megapixels (about 100 MB of
		// pixels at 4 bytes each, plus the re-encoded copy) and a PDF's
		// checks read it whole: 1536 MiB leaves room for both, and Lambda
		// gives CPU in proportion to memory, which the decode and the
		// re-encoding spend. The 29 s timeout covers a slow S3 put behind
		// them and stays under the HTTP API's 30 s.
		MemoryMiB: 1536, TimeoutSec: 29,
	},
	{
		Name:        "content",
		Description: "content service (translations per page) over GraphQL",
		Routes:      []string{ContentPath},
		Methods:     []awsapigatewayv2.HttpMethod{awsapigatewayv2.HttpMethod_POST},
		// Only the table: content.Load refreshes the page texts at a cold
		// start (its key space writes them).
	},
	{
		Name:        "wallet",
		Description: "wallet: balances, transfers, rates, address book, bank accounts, trade password, deposits and withdrawals",
		// The wallet's paths are spread over several prefixes. The exact
		// paths under /fe-ex-api/common, /user and /v4 win over the profile
		// function's {proxy+} routes there (API Gateway picks the most
		// specific route); routes_test.go checks both directions.
		Routes: []string{
			"/fe-ex-api/wallet/{proxy+}",
			"/fe-ex-api/finance/{proxy+}",
			"/fe-ex-api/record/{proxy+}",
			"/fe-ex-api/fiat/{proxy+}",
			"/fe-ex-api/cost/{proxy+}",
			"/fe-ex-api/v4/capital_password/reset",
			"/fe-ex-api/common/rate",
			"/fe-ex-api/common/rateV2",
			"/fe-ex-api/common/getFaitCoinList",
			"/fe-ex-api/user/update_fee_coin_open",
			"/bank/v2/withdraw-req",
		},
		// Submits hold funds and write the workflow item; the wfstart
		// function (Workflows stack) starts the state machine from the
		// stream, so the wallet function needs no Step Functions access.
		// Withdrawals, the address book and the trade password check
		// authenticator codes (the auth key). Moves of spot balances
		// (transfers, withdrawal holds) are engine commands: the engine
		// owns those balances.
		Access: access{Notify: true, Push: true, AuthKey: true, Engine: true},
	},
	{
		Name:        "trade",
		Description: "spot trading: order entry, cancels, open orders, order and trade history",
		Routes: []string{
			"/fe-ex-api/order/{proxy+}", // order/batch included
			"/fe-ex-api/trade/{proxy+}",
		},
		// Every trading call is a POST (the function answers anything else
		// with a parameter error), so only POST is routed.
		Methods: []awsapigatewayv2.HttpMethod{awsapigatewayv2.HttpMethod_POST},
		// Order entry, amends and cancels are engine commands, answered
		// by the engine once they are in its journal: the function only
		// reads the table (its key space writes nothing).
		Access: access{Engine: true},
	},
	{
		Name: "openapi",
		Description: "Binance-compatible REST API for bots and CCXT: market data, and account, orders, deposit addresses " +
			"and withdrawals signed with an API key (/api/v3, /sapi, /fapi, /dapi)",
		Routes: []string{"/api/v3/{proxy+}", "/sapi/{proxy+}", "/fapi/{proxy+}", "/dapi/{proxy+}"},
		// Binance's methods: DELETE cancels, PUT keeps a listen key alive;
		// OPTIONS are the preflights of programs in web pages, which the
		// function answers (the key is a header, so any origin may call).
		Methods: []awsapigatewayv2.HttpMethod{awsapigatewayv2.HttpMethod_GET, awsapigatewayv2.HttpMethod_POST,
			awsapigatewayv2.HttpMethod_PUT, awsapigatewayv2.HttpMethod_DELETE, awsapigatewayv2.HttpMethod_OPTIONS},
		// Writes: a key's last use, the orders and the withdrawals a key
		// asks for (/sapi/v1/capital/withdraw/apply: the wallet's record
		// and workflow item). Orders, cancels and withdrawal holds are
		// engine commands. A withdrawal is pushed to the user's browser,
		// as the wallet function pushes the web's. The auth key opens the
		// API keys' HMAC secrets, sealed with it by the profile function;
		// every signed request reads its key from the table (no cache in
		// AWS), so a deleted key stops at once in every instance.
		Access: access{Engine: true, AuthKey: true, Push: true},
	},
	{
		Name: "p2p",
		Description: "P2P trading: merchants' ads, orders with escrow in the OTC accounts, appeals, the order chat, " +
			"payment methods, express, contacts (/fe-otc-api, /fe-ex-api/v4/order/otc)",
		Routes:  []string{"/fe-otc-api/{proxy+}", "/fe-ex-api/v4/order/otc/{proxy+}"},
		Methods: []awsapigatewayv2.HttpMethod{awsapigatewayv2.HttpMethod_POST},
		// The OTC accounts are the store ledger's, not the engine's: the
		// escrow postings are the function's own transactions. Orders and
		// chat messages are pushed to both sides. Chat images and appeal
		// evidence are the users' uploads (profile's upload_img), checked
		// by their records; the function reads them to show an order's
		// images to its other side (presigned GETs), and writes none.
		Access: access{Push: true, UploadsRead: true},
	},
	{
		Name: "futures",
		Description: "perpetual futures: contracts and prices, their market data, settings, account and positions, " +
			"orders, fills and trigger orders (/fe-co-api)",
		Routes: []string{"/fe-co-api/{proxy+}"},
		// The market data calls also answer GET with query parameters.
		Methods: []awsapigatewayv2.HttpMethod{awsapigatewayv2.HttpMethod_GET, awsapigatewayv2.HttpMethod_POST},
		// Orders, cancels, leverage, margin and trigger orders are engine
		// commands (the engine task runs the futures risk engine, marks,
		// funding and liquidations); the function writes only the users'
		// futures settings.
		Access: access{Engine: true},
	},
	{
		Name: "earn",
		Description: "earn: flexible savings, staking, crypto loans and the launchpad (/fe-increment-api, the wallet's savings " +
			"operations, /fe-ex-api/newcoinV2), and their settlement every 5 minutes",
		Routes: []string{
			// Savings, staking and crypto loans.
			"/fe-increment-api/{proxy+}",
			// The wallet's named savings operations (spec §7): exact
			// paths, which win over the wallet function's
			// /fe-ex-api/wallet/{proxy+} (earn_test.go checks both
			// directions).
			"/fe-ex-api/wallet/get_project_list",
			"/fe-ex-api/wallet/confirm_subscription",
			"/fe-ex-api/wallet/confirm_auto_sub",
			"/fe-ex-api/wallet/savings/release",
			// The launchpad: its sales, and two exact paths (the footer
			// wins over the profile function's /fe-ex-api/common/{proxy+}).
			"/fe-ex-api/newcoinV2/{proxy+}",
			"/fe-ex-api/common/launchpad_footer",
			"/fe-ex-api/api/newcoin_purchase",
		},
		// Subscriptions, stakes, commitments and loans' collateral take
		// from spot, and redemptions, payouts, loans and auto-subscriptions
		// move spot balances; a loan's liquidation sells its collateral
		// with a market order: engine commands. The earn accounts and the
		// interest from the treasury are the store ledger's (its key space
		// writes them).
		Access: access{Engine: true},
		// The schedule's run (Resume, then RunDue) works until 3 s before
		// the timeout, so one run settles as much as it can; 29 s stays
		// under the HTTP API's 30 s for the routes. 512 MiB for the run's
		// 64 workers (Lambda's CPU follows memory); the routes need less.
		MemoryMiB: 512, TimeoutSec: 29,
		// Five minutes: a day's settlement is due from 00:00 UTC, and a
		// run that stops at its deadline is continued five minutes later.
		ScheduleMinutes: 5,
	},
	// Areas still to land, in the same shape (each with its key space in
	// internal/store/keyspace):
	// {Name: "margin", Routes: []string{"/fe-ex-api/lever/{proxy+}"}, Access: access{Engine: true}},
	// {Name: "tasks", Routes: []string{"/fe-task-api/{proxy+}"}},
}

// APIFunctionNames returns the names of the HTTP API's functions.
func APIFunctionNames() []string {
	out := make([]string, len(apiFunctions))
	for i, f := range apiFunctions {
		out[i] = f.Name
	}
	return out
}

// ApiStack is the HTTP API and its functions.
type ApiStack struct {
	awscdk.Stack
	Api awsapigatewayv2.HttpApi
	// Functions by name (profile, content ...).
	Functions map[string]awslambda.Function
}

// apiDeps are the resources of other stacks the API functions use.
type apiDeps struct {
	Data      *DataStack
	Engine    *engineClient // for the functions with access.Engine
	Workflows *WorkflowsStack
	Realtime  *RealtimeStack
	Env       map[string]string
	// EmailFrom is the configured sender of e-mails (context emailFrom).
	EmailFrom string
	// SMSCallingCodes are the countries verification codes may be texted
	// to (Config.SMSCallingCodes).
	SMSCallingCodes []string
}

// NewApiStack creates the HTTP API (payload v2, $default stage with auto
// deploy), its throttling, JSON access logs and CORS for the site's origins,
// and one function per entry of apiFunctions.
func NewApiStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config, deps apiDeps) *ApiStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	origins := make([]*string, 0)
	for _, o := range cfg.origins() {
		origins = append(origins, jsii.String(o))
	}
	var cors *awsapigatewayv2.CorsPreflightOptions
	if len(origins) > 0 {
		cors = &awsapigatewayv2.CorsPreflightOptions{
			AllowOrigins: &origins,
			// Cookies (token, XSRF-TOKEN) are the browser's credentials.
			AllowCredentials: jsii.Bool(true),
			AllowMethods: &[]awsapigatewayv2.CorsHttpMethod{
				awsapigatewayv2.CorsHttpMethod_GET, awsapigatewayv2.CorsHttpMethod_POST, awsapigatewayv2.CorsHttpMethod_OPTIONS,
			},
			AllowHeaders: jsii.Strings("content-type", "exchange-token", "exchange-client", "exchange-language",
				"device", "futures-version", "x-xsrf-token", "x-correlation-id"),
			MaxAge: awscdk.Duration_Hours(jsii.Number(1)),
		}
	}
	// Without origins (a prod deploy before its domain is known) no browser
	// origin is admitted: same-origin use only.
	api := awsapigatewayv2.NewHttpApi(st, jsii.String("HttpApi"), &awsapigatewayv2.HttpApiProps{
		ApiName:            jsii.String(cfg.prefix() + "-http"),
		CreateDefaultStage: jsii.Bool(false),
		CorsPreflight:      cors,
	})
	stage := api.AddStage(jsii.String("DefaultStage"), &awsapigatewayv2.HttpStageOptions{
		StageName:  jsii.String("$default"),
		AutoDeploy: jsii.Bool(true),
		Throttle: &awsapigatewayv2.ThrottleSettings{
			RateLimit:  jsii.Number(throttleRate(cfg)),
			BurstLimit: jsii.Number(throttleBurst(cfg)),
		},
	})
	writeAccessLogs(st, "AccessLogs", stage.Node().DefaultChild().(awsapigatewayv2.CfnStage), accessLogFormat, cfg)

	s := &ApiStack{Stack: st, Api: api, Functions: map[string]awslambda.Function{}}
	for _, spec := range apiFunctions {
		p := goFunctionProps{Name: spec.Name, Description: spec.Description, Env: deps.Env, MemoryMiB: spec.MemoryMiB,
			TimeoutSec: spec.TimeoutSec}
		if spec.Access.Engine {
			p.Engine = deps.Engine
		}
		fn := newGoFunction(st, cfg, p)
		deps.Data.GrantItems(fn, keySpaceOf(spec.Name))
		grantAccess(fn, spec.Access, deps)
		integ := awsapigatewayv2integrations.NewHttpLambdaIntegration(jsii.String(spec.Name+"Integration"), liveOf(fn),
			&awsapigatewayv2integrations.HttpLambdaIntegrationProps{
				PayloadFormatVersion: awsapigatewayv2.PayloadFormatVersion_VERSION_2_0(),
			})
		methods := spec.Methods
		if len(methods) == 0 {
			methods = []awsapigatewayv2.HttpMethod{awsapigatewayv2.HttpMethod_GET, awsapigatewayv2.HttpMethod_POST}
		}
		for _, path := range spec.Routes {
			api.AddRoutes(&awsapigatewayv2.AddRoutesOptions{
				Path: jsii.String(path), Methods: &methods, Integration: integ,
			})
		}
		if spec.ScheduleMinutes > 0 {
			rule := awsevents.NewRule(st, jsii.String(spec.Name+"Schedule"), &awsevents.RuleProps{
				Description: jsii.String("invokes the " + spec.Name + " function's scheduled run"),
				Schedule:    awsevents.Schedule_Rate(awscdk.Duration_Minutes(jsii.Number(spec.ScheduleMinutes))),
			})
			rule.AddTarget(awseventstargets.NewLambdaFunction(liveOf(fn), nil))
		}
		s.Functions[spec.Name] = fn
	}
	suppress(api, nagReasons{"AwsSolutions-APIG4": reasonAppAuth}) // after the routes: it covers them
	awscdk.NewCfnOutput(st, jsii.String("HttpApiUrl"), &awscdk.CfnOutputProps{Value: api.ApiEndpoint()})
	return s
}

// accessLogFormat is one JSON line per request; requestId is required by API
// Gateway, the rest is what an operator needs to trace a request.
const accessLogFormat = `{"requestId":"$context.requestId","ip":"$context.identity.sourceIp",` +
	`"time":"$context.requestTime","method":"$context.httpMethod","path":"$context.path",` +
	`"routeKey":"$context.routeKey","status":"$context.status","bytes":"$context.responseLength",` +
	`"latencyMs":"$context.responseLatency","integrationLatencyMs":"$context.integrationLatency",` +
	`"integrationError":"$context.integrationErrorMessage"}`

// throttleRate is the steady request rate per second of the whole stage.
func throttleRate(cfg Config) float64 {
	if cfg.Stage == StageProd {
		return 500
	}
	return 50
}

// FunctionList is the stack's functions in apiFunctions' order.
func (s *ApiStack) FunctionList() []awslambda.Function {
	out := make([]awslambda.Function, 0, len(apiFunctions))
	for _, spec := range apiFunctions {
		out = append(out, s.Functions[spec.Name])
	}
	return out
}

// writeAccessLogs makes a stage write its access logs, one line of format
// per request, to a log group of its own (a month). The L2 stages take
// access log settings as a jsii interface; setting the CloudFormation
// property directly is simpler and exact.
func writeAccessLogs(st awscdk.Stack, id string, stage awsapigatewayv2.CfnStage, format string, cfg Config) {
	logs := awslogs.NewLogGroup(st, jsii.String(id), &awslogs.LogGroupProps{
		Retention:     awslogs.RetentionDays_ONE_MONTH,
		RemovalPolicy: removalPolicy(cfg),
	})
	stage.SetAccessLogSettings(&awsapigatewayv2.CfnStage_AccessLogSettingsProperty{
		DestinationArn: logs.LogGroupArn(),
		Format:         jsii.String(format),
	})
}

func throttleBurst(cfg Config) float64 {
	if cfg.Stage == StageProd {
		return 1000
	}
	return 100
}

// envAuthKeySecret names the auth key secret's ARN for a function
// (platform.EnvAuthKeySecret; routes_test.go checks they agree).
const envAuthKeySecret = "AUTH_KEY_SECRET_ARN"

// grantAccess turns an access spec into grants on named resources.
func grantAccess(fn awslambda.Function, a access, deps apiDeps) {
	if a.StartWorkflow && deps.Workflows != nil {
		deps.Workflows.Withdrawal.GrantStartExecution(fn)
	}
	if a.Notify {
		grantNotify(fn, deps.EmailFrom)
		// SMS only to the operator's countries (platform.EnvSMSCallingCodes).
		fn.AddEnvironment(jsii.String("SMS_CALLING_CODES"), jsii.String(strings.Join(deps.SMSCallingCodes, ",")), nil)
	}
	if a.Push && deps.Realtime != nil {
		deps.Realtime.GrantPush(fn)
	}
	if a.CloseConnections && !a.Push && deps.Realtime != nil {
		deps.Realtime.GrantClose(fn)
	}
	if a.AuthKey {
		grantSecretRead(deps.Data.AuthKey, fn)
		fn.AddEnvironment(jsii.String(envAuthKeySecret), deps.Data.AuthKey.SecretArn(), nil)
	}
	if a.KYC {
		grantSecretRead(deps.Data.SumsubSecret, fn)
		fn.AddEnvironment(jsii.String(envSumsubSecret), deps.Data.SumsubSecret.SecretArn(), nil)
	}
	if a.Uploads {
		deps.Data.GrantUploads(fn)
	} else if a.UploadsRead {
		deps.Data.GrantUploadsRead(fn)
	}
}

// grantNotify lets a function send verification codes. An SMS is published
// straight to a phone number through SNS, which has no ARN to name; the
// statement therefore allows sns:Publish on everything that is NOT an SNS
// topic, so the function cannot publish to any topic. E-mail goes through
// the sender's SES identities (the address and its domain) when the
// sender is configured (emailFrom), else through any identity of this
// account and region.
func grantNotify(fn awslambda.Function, from string) {
	st := awscdk.Stack_Of(fn)
	fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:          jsii.String("SmsToPhoneNumbers"),
		Actions:      jsii.Strings("sns:Publish"),
		NotResources: jsii.Strings("arn:aws:sns:*:*:*"),
	}))
	identity := func(name string) *string {
		return st.FormatArn(&awscdk.ArnComponents{Service: jsii.String("ses"), Resource: jsii.String("identity"), ResourceName: jsii.String(name)})
	}
	resources := []*string{identity("*")}
	if _, domain, ok := strings.Cut(from, "@"); ok && domain != "" {
		resources = []*string{identity(from), identity(domain)}
	} else {
		suppress(fn.Role(), nagReasons{"AwsSolutions-IAM5": "No sender is configured (context emailFrom), so " +
			"e-mail may go through any SES identity of this account and region; with one, only through it."}, `:identity/\*$`)
	}
	fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("EmailThroughSes"),
		Actions:   jsii.Strings("ses:SendEmail"),
		Resources: &resources,
	}))
}
