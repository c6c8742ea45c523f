package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsec2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// enginePort is where the engine task serves its private endpoint
// (internal/engine/remote: POST /engine/submit, HMAC-signed with the engine
// key); engine-fargate listens on it (ENGINE_LISTEN).
const enginePort = 8082

// NetworkStack is the VPC shared by the engine task and the functions that
// call it, and the two security groups between them.
type NetworkStack struct {
	awscdk.Stack
	Vpc awsec2.Vpc
	// EngineSecurityGroup is the engine task's: inbound only the engine
	// port from EngineClientSecurityGroup; outbound HTTPS anywhere (AWS APIs,
	// the reference prices' sources) and, added by the engine stack, NFS to
	// its file system.
	EngineSecurityGroup awsec2.SecurityGroup
	// EngineClientSecurityGroup is the functions' that call the engine: no
	// inbound; outbound the engine port to EngineSecurityGroup and HTTPS
	// anywhere (through the NAT gateway, and to DynamoDB through its gateway
	// endpoint).
	EngineClientSecurityGroup awsec2.SecurityGroup
}

// NewNetworkStack creates a VPC over 2 AZs with public subnets (the engine
// task runs there with a public IP, as before: its own egress costs
// nothing) and private subnets with egress for the Lambda functions that
// call the engine's private endpoint, a DynamoDB gateway endpoint (free; all
// subnets' DynamoDB traffic stays on it) and ONE NAT gateway.
//
// The functions in the VPC still call AWS APIs other than DynamoDB: SNS and
// SES (verification codes), Secrets Manager (the auth and engine keys at a
// cold start), Step Functions (task tokens) and the WebSocket API's
// management endpoint (pushes). One NAT gateway (≈ $33 a month plus $0.045
// per GB, and its public IPv4 address ≈ $3.60) covers them all. Interface
// endpoints would cost ≈ $7.30 per endpoint per AZ a month, ≈ $73 for the
// five services in two AZs, and would still leave the management endpoint
// of a public WebSocket API outside (the execute-api endpoint serves private
// APIs). One gateway rather than one per AZ: if its AZ fails, the functions
// in the other AZ keep DynamoDB and the engine but lose those APIs until the
// AZ is back, which a second gateway (another ≈ $33) would avoid.
func NewNetworkStack(scope constructs.Construct, id string, props *awscdk.StackProps) *NetworkStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	s := &NetworkStack{Stack: st}
	s.Vpc = awsec2.NewVpc(st, jsii.String("Vpc"), &awsec2.VpcProps{
		MaxAzs:      jsii.Number(2),
		NatGateways: jsii.Number(1),
		SubnetConfiguration: &[]*awsec2.SubnetConfiguration{
			{Name: jsii.String("public"), SubnetType: awsec2.SubnetType_PUBLIC, CidrMask: jsii.Number(24)},
			{Name: jsii.String("functions"), SubnetType: awsec2.SubnetType_PRIVATE_WITH_EGRESS, CidrMask: jsii.Number(24)},
		},
		GatewayEndpoints: &map[string]*awsec2.GatewayVpcEndpointOptions{
			"DynamoDB": {Service: awsec2.GatewayVpcEndpointAwsService_DYNAMODB()},
		},
	})
	// Flow logs: every accepted and rejected flow of the VPC's interfaces
	// (the engine tasks, the functions, the NAT gateway), kept a month, for
	// an operator tracing who reached the engine's port.
	flowLogs := awslogs.NewLogGroup(st, jsii.String("FlowLogs"), &awslogs.LogGroupProps{
		Retention:     awslogs.RetentionDays_ONE_MONTH,
		RemovalPolicy: awscdk.RemovalPolicy_DESTROY,
	})
	s.Vpc.AddFlowLog(jsii.String("FlowLog"), &awsec2.FlowLogOptions{
		Destination: awsec2.FlowLogDestination_ToCloudWatchLogs(flowLogs, nil),
		TrafficType: awsec2.FlowLogTrafficType_ALL,
	})
	// Each group allows no egress by default, HTTPS anywhere, and what is
	// added to it.
	group := func(id, description, https string) awsec2.SecurityGroup {
		sg := awsec2.NewSecurityGroup(st, jsii.String(id), &awsec2.SecurityGroupProps{
			Vpc: s.Vpc, Description: jsii.String(description), AllowAllOutbound: jsii.Bool(false),
		})
		sg.AddEgressRule(awsec2.Peer_AnyIpv4(), awsec2.Port_Tcp(jsii.Number(443)), jsii.String(https), nil)
		return sg
	}
	s.EngineSecurityGroup = group("EngineSecurityGroup",
		"engine: inbound its endpoint from its clients only; outbound HTTPS and NFS to its file system",
		"AWS APIs (DynamoDB, ECR, Logs, Secrets Manager, API Gateway) and price sources")
	s.EngineClientSecurityGroup = group("EngineClientSecurityGroup",
		"functions calling the engine: outbound its endpoint and HTTPS only",
		"AWS APIs through the NAT gateway and the DynamoDB endpoint")
	// Ingress on the engine's group and egress on the clients' group.
	s.EngineSecurityGroup.Connections().AllowFrom(s.EngineClientSecurityGroup,
		awsec2.Port_Tcp(jsii.Number(enginePort)), jsii.String("engine endpoint from its clients"))
	return s
}
