package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudfront"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudfrontorigins"
	"github.com/aws/jsii-runtime-go"
)

// originHeader is awslambda.HeaderOrigin, and envOriginKeySecret
// platform.EnvOriginKeySecret (edge_test.go checks they agree).
const (
	originHeader       = "X-Tenger-Origin"
	envOriginKeySecret = "ORIGIN_KEY_SECRET_ARN"
)

// binancePrefixes are the Binance-compatible REST API's paths.
var binancePrefixes = []string{"/api", "/sapi", "/fapi", "/dapi"}

// edgePathsFunction is the CloudFront Function that maps the WebSocket
// paths clients use (the web app's /ws; Binance's /ws/<streams>,
// /stream?streams=… and /ws-api/v3) onto the API Gateway stages, whose
// only path is the stage itself (the origin's path): the streams a
// /ws/<a>/<b> URL names become ?streams=<a>/<b>, and /stream adds
// combined=true (the ws function reads both at $connect).
const edgePathsFunction = `function handler(event) {
  var r = event.request;
  var uri = r.uri;
  if (uri.indexOf('/ws/') === 0 && uri.length > 4) {
    r.querystring.streams = { value: uri.substring(4) };
  } else if (uri === '/stream') {
    r.querystring.combined = { value: 'true' };
  }
  r.uri = '/';
  return r;
}`

// edgeBehaviors routes the APIs through the site's distribution, so that
// every request of the web app and of bots passes the edge's web ACL: the
// HTTP API's paths (the spec's services, the content service, the bank's
// callback, the Binance-compatible REST API) to the HTTP API, never
// cached, all methods, every viewer header but Host; the WebSocket paths
// to the two WebSocket APIs' stages through edgePathsFunction.
func edgeBehaviors(st awscdk.Stack, deps webDeps) map[string]*awscloudfront.BehaviorOptions {
	host := func(url *string) *string {
		// https://<id>.execute-api.<region>.amazonaws.com[/<stage>]
		return awscdk.Fn_Select(jsii.Number(2), awscdk.Fn_Split(jsii.String("/"), url, nil))
	}
	// The key the functions check (a dynamic reference: its value is never
	// in a template).
	origin := &map[string]*string{originHeader: deps.OriginKey.SecretValue().UnsafeUnwrap()}
	httpAPI := awscloudfrontorigins.NewHttpOrigin(host(deps.Api.Api.ApiEndpoint()), &awscloudfrontorigins.HttpOriginProps{
		ProtocolPolicy: awscloudfront.OriginProtocolPolicy_HTTPS_ONLY,
		CustomHeaders:  origin,
	})
	api := &awscloudfront.BehaviorOptions{
		Origin:               httpAPI,
		ViewerProtocolPolicy: awscloudfront.ViewerProtocolPolicy_HTTPS_ONLY,
		AllowedMethods:       awscloudfront.AllowedMethods_ALLOW_ALL(),
		CachePolicy:          awscloudfront.CachePolicy_CACHING_DISABLED(),
		OriginRequestPolicy:  awscloudfront.OriginRequestPolicy_ALL_VIEWER_EXCEPT_HOST_HEADER(),
		Compress:             jsii.Bool(true),
	}
	out := map[string]*awscloudfront.BehaviorOptions{ContentPath: api, "/bank/*": api}
	for _, p := range append(append([]string{}, ServicePrefixes...), binancePrefixes...) {
		out[p+"/*"] = api
	}

	paths := awscloudfront.NewFunction(st, jsii.String("EdgePaths"), &awscloudfront.FunctionProps{
		Comment: jsii.String("WebSocket paths onto the API Gateway stages"),
		Code:    awscloudfront.FunctionCode_FromInline(jsii.String(edgePathsFunction)),
		Runtime: awscloudfront.FunctionRuntime_JS_2_0(),
	})
	socket := func(url *string, stage string) *awscloudfront.BehaviorOptions {
		return &awscloudfront.BehaviorOptions{
			Origin: awscloudfrontorigins.NewHttpOrigin(host(url), &awscloudfrontorigins.HttpOriginProps{
				ProtocolPolicy: awscloudfront.OriginProtocolPolicy_HTTPS_ONLY,
				OriginPath:     jsii.String("/" + stage),
				CustomHeaders:  origin,
			}),
			ViewerProtocolPolicy: awscloudfront.ViewerProtocolPolicy_HTTPS_ONLY,
			CachePolicy:          awscloudfront.CachePolicy_CACHING_DISABLED(),
			// The upgrade's Sec-WebSocket-* headers, cookies and the query.
			OriginRequestPolicy: awscloudfront.OriginRequestPolicy_ALL_VIEWER_EXCEPT_HOST_HEADER(),
			FunctionAssociations: &[]*awscloudfront.FunctionAssociation{{
				Function: paths, EventType: awscloudfront.FunctionEventType_VIEWER_REQUEST,
			}},
		}
	}
	web := socket(deps.Realtime.Stage.Url(), wsStageName)
	out["/ws"], out["/ws/*"], out["/stream"] = web, web, web
	out["/ws-api/*"] = socket(deps.Realtime.BinanceStage.Url(), binanceWSStageName)
	return out
}
