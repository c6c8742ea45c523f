package stacks

import (
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// adminFunction names the operators' function (functions/admin) and its
// key space (internal/store/keyspace).
const adminFunction = "admin"

// AdminStack is what operators act through in AWS until an operator
// console exists: the admin function, which runs the same domain calls as
// `tenger kyc`, `tenger corporate`, `tenger support` and `tenger account`
// do on a data directory. It has no route, no function URL and no
// resource policy: it is invoked directly (`aws lambda invoke`), so IAM's
// lambda:InvokeFunction on it is the authorization, which the Operators
// policy grants to whoever it is attached to.
type AdminStack struct {
	awscdk.Stack
	// Function is the admin function (invoke its live alias).
	Function awslambda.Function
	// Operators is a managed policy allowing lambda:InvokeFunction on the
	// admin function's live alias and nothing else; the account's
	// administrators attach it to the operators' role or group.
	Operators awsiam.ManagedPolicy
}

// adminDeps are what the admin function uses of the other stacks.
type adminDeps struct {
	Data *DataStack
	// Env is the functions' shared environment (TABLE_NAME, STAGE ...),
	// without WS_ENDPOINT: the admin function pushes nothing.
	Env map[string]string
	// EmailFrom and SMSCallingCodes: a support answer tells its owner by
	// e-mail or SMS, as the profile function's codes go.
	EmailFrom       string
	SMSCallingCodes []string
}

// NewAdminStack creates the admin function (its own role: the table as
// its key space declares, e-mail and SMS to tell a ticket's owner of an
// answer, its own log group) and the Operators policy.
func NewAdminStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config, deps adminDeps) *AdminStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	s := &AdminStack{Stack: st}
	s.Function = newGoFunction(st, cfg, goFunctionProps{
		Name: adminFunction,
		Description: "operators' actions, invoked directly with IAM (no route): identity verification decisions, " +
			"corporate reviews, support answers, cancelled accounts",
		// A name operators can type (aws lambda invoke --function-name).
		FunctionName: cfg.prefix() + "-admin",
		Env:          deps.Env,
		// Listing the cancelled accounts reads each one's balances; a
		// minute leaves room for a long list.
		TimeoutSec: 60,
	})
	deps.Data.GrantItems(s.Function, keySpaceOf(adminFunction))
	grantNotify(s.Function, deps.EmailFrom)
	s.Function.AddEnvironment(jsii.String("SMS_CALLING_CODES"), jsii.String(strings.Join(deps.SMSCallingCodes, ",")), nil)

	live := liveOf(s.Function)
	s.Operators = awsiam.NewManagedPolicy(st, jsii.String("Operators"), &awsiam.ManagedPolicyProps{
		ManagedPolicyName: jsii.String(cfg.prefix() + "-operators"),
		Description: jsii.String("Tenger " + cfg.Stage + ": invoke the admin function's live alias (operators' actions: " +
			"verification decisions, corporate reviews, support answers, cancelled accounts)"),
		Statements: &[]awsiam.PolicyStatement{awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Sid:       jsii.String("InvokeAdminFunction"),
			Actions:   jsii.Strings("lambda:InvokeFunction"),
			Resources: &[]*string{live.FunctionArn()},
		})},
	})
	awscdk.NewCfnOutput(st, jsii.String("AdminFunctionName"), &awscdk.CfnOutputProps{Value: s.Function.FunctionName(),
		Description: jsii.String("aws lambda invoke --function-name <this> --qualifier live --payload '{\"op\":\"kyc.list\"}' ...")})
	awscdk.NewCfnOutput(st, jsii.String("OperatorsPolicyArn"), &awscdk.CfnOutputProps{Value: s.Operators.ManagedPolicyArn()})
	return s
}
