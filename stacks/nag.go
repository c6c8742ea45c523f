package stacks

import (
	"sort"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/jsii-runtime-go"
	"github.com/cdklabs/cdk-nag-go/cdknag/v2"
)

// Nag applies cdk-nag's AwsSolutions pack to every stack of app: each
// finding becomes an error annotation on its resource, unless it is
// suppressed beside the resource with its reason (suppress). The stack
// tests apply it and fail on any finding (nag_test.go).
func Nag(app awscdk.App) {
	awscdk.Aspects_Of(app).Add(cdknag.NewAwsSolutionsChecks(&cdknag.NagPackProps{Verbose: jsii.Bool(true)}), nil)
}

// nagReasons are cdk-nag rule ids and why each does not apply.
type nagReasons map[string]string

// suppress records, beside a construct (and its children), why cdk-nag
// rules do not apply to it. With appliesTo (regular expressions of the
// findings' granular parts, such as an IAM5 finding's
// "Resource::arn:…/@connections/*"), only those findings are suppressed.
func suppress(c interface{}, reasons nagReasons, appliesTo ...string) {
	ids := make([]string, 0, len(reasons))
	for id := range reasons {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var s []*cdknag.NagPackSuppression
	for _, id := range ids {
		sp := &cdknag.NagPackSuppression{Id: jsii.String(id), Reason: jsii.String(reasons[id])}
		if len(appliesTo) > 0 {
			var to []interface{}
			for _, re := range appliesTo {
				to = append(to, &cdknag.RegexAppliesTo{Regex: jsii.String("/" + re + "/")})
			}
			sp.AppliesTo = &to
		}
		s = append(s, sp)
	}
	cdknag.NagSuppressions_AddResourceSuppressions(c, &s, jsii.Bool(true))
}

// Reasons shared by several resources.
const (
	reasonVPCAccess = "AWSLambdaVPCAccessExecutionRole: the network interface actions a function in a VPC needs " +
		"(ec2:CreateNetworkInterface and the like) cannot be scoped to resources that do not exist yet."
	reasonNoResourceScope = "Actions without resource-level permissions: X-Ray's PutTraceSegments and " +
		"PutTelemetryRecords (this function's traces) and, for a function on the table's stream, " +
		"dynamodb:ListStreams (it lists stream ARNs; the records are read on the stream's ARN only)."
	reasonConnections = "execute-api:ManageConnections on one stage's @connections/* with named HTTP methods: " +
		"connection ids are made by API Gateway at connect time, so they cannot be listed in a policy."
	reasonAppAuth = "Authorization is the application's, per route: session tokens (exchange-token) and " +
		"Binance API-key signatures are checked by the functions, and public market data must stay open; " +
		"an API Gateway authorizer would add a second, weaker copy of those rules."
	reasonCDKGenerated = "Created by CDK for its own helper (bucket deployment, log retention, event source): " +
		"its grants are CDK's, scoped to the site and asset buckets."
	reasonTerminalDLQ = "A terminal dead-letter queue: it holds the descriptions of failed stream batches " +
		"for an operator (alarmed on its depth); a queue for its own failures would never be read."
)
