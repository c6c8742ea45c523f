package stacks

import (
	"path/filepath"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatch"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscodedeploy"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsec2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/aws-cdk-go/awscdk/v2/interfaces/interfacesawscloudwatch"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// goFunctionProps describes one Go Lambda function.
type goFunctionProps struct {
	Name        string // functions/<Name>, build/lambda/<Name>/bootstrap
	Description string
	MemoryMiB   float64
	TimeoutSec  float64
	Env         map[string]string
	// Engine, when set, makes the function a caller of the engine's
	// private endpoint (see engineClient).
	Engine *engineClient
	// FunctionName, when set, is the Lambda function's name (else
	// CloudFormation makes one up): for a function people invoke by name.
	FunctionName string
}

// envEngineKeySecret names the engine key secret's ARN for a function that
// calls the engine.
const envEngineKeySecret = "ENGINE_KEY_SECRET_ARN"

// engineClient is what a function that submits engine commands needs: it
// runs in the VPC's private subnets with the engine client security group
// (the only group the engine task admits on its port) and reads the engine
// key that signs its requests. It finds the active engine's address in the
// engine lease item of the table (PK "ENGLEASE", SK "spot"), so no service
// discovery is deployed.
type engineClient struct {
	Network *NetworkStack
	Key     awssecretsmanager.ISecret
}

// liveAlias is the alias every caller invokes.
const liveAlias = "live"

// liveOf is what callers of fn invoke: the live alias newGoFunction made
// beside it (routes, event sources and workflow tasks invoke it, so a new
// version takes their traffic as CodeDeploy shifts it), or fn itself.
func liveOf(fn awslambda.Function) awslambda.IFunction {
	name := strings.TrimSuffix(*fn.Node().Id(), "Function")
	if a, ok := fn.Node().Scope().Node().TryFindChild(jsii.String(name + "Live")).(awslambda.Alias); ok {
		return a
	}
	return fn
}

// deployConfig is how a new version of a function takes the traffic: in
// production 10 % for five minutes first (rolled back if the function's
// errors alarm meanwhile), elsewhere all at once.
func deployConfig(cfg Config) awscodedeploy.ILambdaDeploymentConfig {
	if cfg.Stage == StageProd {
		return awscodedeploy.LambdaDeploymentConfig_CANARY_10PERCENT_5MINUTES()
	}
	return awscodedeploy.LambdaDeploymentConfig_ALL_AT_ONCE()
}

// newGoFunction creates a provided.al2023 arm64 function from the built
// bootstrap binary, with its own log group (a retention set here rather than
// through the LogRetention custom resource, which needs a broad IAM policy),
// and its live alias, deployed by CodeDeploy (deployConfig): a version
// whose invocations fail (two errors in a minute, on the alias) during the
// shift is rolled back.
func newGoFunction(scope constructs.Construct, cfg Config, p goFunctionProps) awslambda.Function {
	if p.MemoryMiB == 0 {
		p.MemoryMiB = 256
	}
	if p.TimeoutSec == 0 {
		p.TimeoutSec = 10
	}
	env := map[string]*string{
		"SERVICE":   jsii.String(p.Name),
		"STAGE":     jsii.String(cfg.Stage),
		"LOG_LEVEL": jsii.String("info"),
	}
	for k, v := range p.Env {
		env[k] = jsii.String(v)
	}
	logs := awslogs.NewLogGroup(scope, jsii.String(p.Name+"Logs"), &awslogs.LogGroupProps{
		Retention:     awslogs.RetentionDays_ONE_MONTH,
		RemovalPolicy: removalPolicy(cfg),
	})
	// The function's own role: it writes its own log group only (not the
	// AWSLambdaBasicExecutionRole policy, which may create and write any
	// log group of the account).
	role := awsiam.NewRole(scope, jsii.String(p.Name+"Role"), &awsiam.RoleProps{
		AssumedBy:   awsiam.NewServicePrincipal(jsii.String("lambda.amazonaws.com"), nil),
		Description: jsii.String("Tenger " + p.Name + " function"),
	})
	logs.GrantWrite(role)
	fp := &awslambda.FunctionProps{
		Role: role,
		// Traces with X-Ray: the function's calls to DynamoDB, the engine's
		// endpoint and the other AWS services it uses show as segments.
		Tracing:      awslambda.Tracing_ACTIVE,
		Description:  jsii.String(p.Description),
		Runtime:      awslambda.Runtime_PROVIDED_AL2023(),
		Architecture: awslambda.Architecture_ARM_64(),
		Handler:      jsii.String("bootstrap"),
		Code:         awslambda.Code_FromAsset(jsii.String(filepath.Join(cfg.LambdaDir, p.Name)), nil),
		MemorySize:   jsii.Number(p.MemoryMiB),
		Timeout:      awscdk.Duration_Seconds(jsii.Number(p.TimeoutSec)),
		Environment:  &env,
		LogGroup:     logs,
	}
	if e := p.Engine; e != nil {
		// In a VPC CDK adds the AWSLambdaVPCAccessExecutionRole managed
		// policy (network interfaces) to the function's role itself.
		fp.Vpc = e.Network.Vpc
		fp.VpcSubnets = &awsec2.SubnetSelection{SubnetType: awsec2.SubnetType_PRIVATE_WITH_EGRESS}
		fp.SecurityGroups = &[]awsec2.ISecurityGroup{e.Network.EngineClientSecurityGroup}
		env[envEngineKeySecret] = e.Key.SecretArn()
	}
	if p.FunctionName != "" {
		fp.FunctionName = jsii.String(p.FunctionName)
	}
	fn := awslambda.NewFunction(scope, jsii.String(p.Name+"Function"), fp)
	if p.Engine != nil {
		grantSecretRead(p.Engine.Key, fn)
		// Network interfaces in the VPC (CDK adds this policy itself only
		// to the role it makes).
		role.AddManagedPolicy(awsiam.ManagedPolicy_FromAwsManagedPolicyName(jsii.String("service-role/AWSLambdaVPCAccessExecutionRole")))
		suppress(role, nagReasons{"AwsSolutions-IAM4": reasonVPCAccess})
	}
	suppress(role, nagReasons{"AwsSolutions-IAM5": reasonNoResourceScope}, `^Resource::\*$`)
	live := awslambda.NewAlias(scope, jsii.String(p.Name+"Live"), &awslambda.AliasProps{
		AliasName: jsii.String(liveAlias), Version: fn.CurrentVersion(),
	})
	failing := live.MetricErrors(&awscloudwatch.MetricOptions{Period: awscdk.Duration_Minutes(jsii.Number(1)), Statistic: jsii.String("Sum")}).
		CreateAlarm(scope, jsii.String(p.Name+"DeployErrors"), &awscloudwatch.CreateAlarmOptions{
			AlarmDescription:   jsii.String("function " + p.Name + " fails while a new version takes the traffic"),
			Threshold:          jsii.Number(2),
			EvaluationPeriods:  jsii.Number(1),
			ComparisonOperator: awscloudwatch.ComparisonOperator_GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
			TreatMissingData:   awscloudwatch.TreatMissingData_NOT_BREACHING,
		})
	group := awscodedeploy.NewLambdaDeploymentGroup(scope, jsii.String(p.Name+"Deploy"), &awscodedeploy.LambdaDeploymentGroupProps{
		Alias:            live,
		DeploymentConfig: deployConfig(cfg),
		Alarms:           &[]interfacesawscloudwatch.IAlarmRef{failing},
	})
	suppress(group, nagReasons{"AwsSolutions-IAM4": "AWSCodeDeployRoleForLambdaLimited is the policy AWS documents " +
		"for CodeDeploy's Lambda deployments: it shifts aliases and reads the alarms of the deployment group."})
	return fn
}

// removalPolicy keeps stateful resources of production when a stack is
// deleted and cleans up every other stage.
func removalPolicy(cfg Config) awscdk.RemovalPolicy {
	if cfg.Stage == StageProd {
		return awscdk.RemovalPolicy_RETAIN
	}
	return awscdk.RemovalPolicy_DESTROY
}
