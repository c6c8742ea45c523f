package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsec2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsecrassets"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsecs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// engineHealthPort is where engine-fargate serves /healthz.
const engineHealthPort = 8081

// EngineStack runs the matching engine as one Fargate task.
type EngineStack struct {
	awscdk.Stack
	Vpc     awsec2.Vpc
	Cluster awsecs.Cluster
	Service awsecs.FargateService
	Task    awsecs.FargateTaskDefinition
}

// NewEngineStack creates a VPC without NAT gateways (the task runs in a
// public subnet with a public IP and no inbound rule; DynamoDB traffic stays
// on a free gateway endpoint), an ECS cluster and a Fargate service of one
// arm64 task built from engine-fargate/Dockerfile.
//
// Exactly one engine may run: the order books live in its memory, so
// deployments stop the old task before starting the new one (minimum healthy
// 0 %, maximum 100 %), and the stop timeout gives it time to finish the
// in-flight commands after SIGTERM.
func NewEngineStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config, data *DataStack, queues *QueuesStack, env map[string]string) *EngineStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	s := &EngineStack{Stack: st}

	s.Vpc = awsec2.NewVpc(st, jsii.String("Vpc"), &awsec2.VpcProps{
		MaxAzs:      jsii.Number(2),
		NatGateways: jsii.Number(0),
		SubnetConfiguration: &[]*awsec2.SubnetConfiguration{{
			Name: jsii.String("public"), SubnetType: awsec2.SubnetType_PUBLIC, CidrMask: jsii.Number(24),
		}},
		GatewayEndpoints: &map[string]*awsec2.GatewayVpcEndpointOptions{
			"DynamoDB": {Service: awsec2.GatewayVpcEndpointAwsService_DYNAMODB()},
		},
	})
	s.Cluster = awsecs.NewCluster(st, jsii.String("Cluster"), &awsecs.ClusterProps{
		Vpc:                 s.Vpc,
		ContainerInsightsV2: awsecs.ContainerInsights_DISABLED,
	})

	s.Task = awsecs.NewFargateTaskDefinition(st, jsii.String("EngineTask"), &awsecs.FargateTaskDefinitionProps{
		Cpu:            jsii.Number(256),
		MemoryLimitMiB: jsii.Number(512),
		RuntimePlatform: &awsecs.RuntimePlatform{
			CpuArchitecture:       awsecs.CpuArchitecture_ARM64(),
			OperatingSystemFamily: awsecs.OperatingSystemFamily_LINUX(),
		},
	})
	// Least privilege for the engine: consume order commands, publish
	// engine events, read and write its journal and snapshots in the table.
	queues.Orders.GrantConsumeMessages(s.Task.TaskRole())
	queues.Events.GrantSendMessages(s.Task.TaskRole())
	data.Table.GrantReadWriteData(s.Task.TaskRole())

	logs := awslogs.NewLogGroup(st, jsii.String("EngineLogs"), &awslogs.LogGroupProps{
		Retention:     awslogs.RetentionDays_ONE_MONTH,
		RemovalPolicy: removalPolicy(cfg),
	})
	containerEnv := map[string]*string{
		"SERVICE":     jsii.String("engine"),
		"HEALTH_ADDR": jsii.String(":8081"),
	}
	for k, v := range env {
		containerEnv[k] = jsii.String(v)
	}
	s.Task.AddContainer(jsii.String("engine"), &awsecs.ContainerDefinitionOptions{
		// The build context is the module root (the engine imports
		// tenger/internal/...); only what the Go build needs is sent.
		Image: awsecs.ContainerImage_FromAsset(jsii.String(cfg.RepoRoot), &awsecs.AssetImageProps{
			File:       jsii.String("engine-fargate/Dockerfile"),
			Platform:   awsecrassets.Platform_LINUX_ARM64(),
			IgnoreMode: awscdk.IgnoreMode_DOCKER,
			Exclude:    jsii.Strings(engineContextExcludes...),
		}),
		Environment:            &containerEnv,
		Logging:                awsecs.LogDriver_AwsLogs(&awsecs.AwsLogDriverProps{StreamPrefix: jsii.String("engine"), LogGroup: logs}),
		ReadonlyRootFilesystem: jsii.Bool(true),
		StopTimeout:            awscdk.Duration_Seconds(jsii.Number(90)),
		HealthCheck: &awsecs.HealthCheck{
			// The distroless image has no shell or curl: the engine binary
			// probes its own /healthz.
			Command:     jsii.Strings("CMD", "/engine", "healthcheck"),
			Interval:    awscdk.Duration_Seconds(jsii.Number(15)),
			Timeout:     awscdk.Duration_Seconds(jsii.Number(5)),
			Retries:     jsii.Number(3),
			StartPeriod: awscdk.Duration_Seconds(jsii.Number(20)),
		},
		PortMappings: &[]*awsecs.PortMapping{{ContainerPort: jsii.Number(engineHealthPort)}},
	})

	sg := awsec2.NewSecurityGroup(st, jsii.String("EngineSecurityGroup"), &awsec2.SecurityGroupProps{
		Vpc:              s.Vpc,
		Description:      jsii.String("engine: no inbound, outbound HTTPS to AWS APIs"),
		AllowAllOutbound: jsii.Bool(false),
	})
	sg.AddEgressRule(awsec2.Peer_AnyIpv4(), awsec2.Port_Tcp(jsii.Number(443)), jsii.String("AWS APIs (SQS, DynamoDB, ECR, Logs)"), nil)

	s.Service = awsecs.NewFargateService(st, jsii.String("EngineService"), &awsecs.FargateServiceProps{
		Cluster:           s.Cluster,
		TaskDefinition:    s.Task,
		DesiredCount:      jsii.Number(1),
		MinHealthyPercent: jsii.Number(0),
		MaxHealthyPercent: jsii.Number(100),
		AssignPublicIp:    jsii.Bool(true),
		VpcSubnets:        &awsec2.SubnetSelection{SubnetType: awsec2.SubnetType_PUBLIC},
		SecurityGroups:    &[]awsec2.ISecurityGroup{sg},
		CircuitBreaker:    &awsecs.DeploymentCircuitBreaker{Rollback: jsii.Bool(true)},
		PlatformVersion:   awsecs.FargatePlatformVersion_LATEST,
	})
	return s
}

// engineContextExcludes keeps the Docker build context (and the asset the
// synth stages into cdk.out) down to what the Go build reads.
var engineContextExcludes = []string{
	"*",
	"!go.mod",
	"!go.sum",
	"!internal",
	"!engine-fargate",
	"!events",
	"**/*_test.go",
	"**/testdata",
}
