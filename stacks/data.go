package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"tenger/internal/store/dynamo"
)

// DataStack holds the single DynamoDB table every service stores in, the
// key that seals secrets stored in it and the key that signs engine
// commands.
type DataStack struct {
	awscdk.Stack
	Table awsdynamodb.Table
	// AuthKey is the key that seals authenticator (TOTP) secrets in the
	// table (platform.EnvAuthKeySecret): generated once, never shown, read
	// at a cold start by the functions that set up or check an
	// authenticator. It lives and dies with the table: without it the
	// sealed secrets cannot be opened.
	AuthKey awssecretsmanager.Secret
	// EngineKey is the key the engine task and its callers sign engine
	// commands with (HMAC-SHA256, internal/engine/remote): generated once,
	// given to the task as its ENGINE_KEY secret and read at a cold start
	// by the functions that call the engine (ENGINE_KEY_SECRET_ARN).
	EngineKey awssecretsmanager.Secret
	// OriginKey is what the edge (CloudFront) sends to API Gateway in the
	// X-Tenger-Origin header; the functions behind the APIs read it at a
	// cold start and refuse requests without it (ORIGIN_KEY_SECRET_ARN),
	// so the execute-api endpoints serve only what passed the web ACL.
	OriginKey awssecretsmanager.Secret
}

// NewDataStack creates the table: on-demand billing, a NEW_AND_OLD_IMAGES
// stream (the change feed of the store port), gsi1 and gsi2 projecting all
// attributes, TTL on "ttl" (sessions, codes, WebSocket connections),
// point-in-time recovery, and in production deletion protection and a
// retain policy.
func NewDataStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config) *DataStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	prod := cfg.Stage == StageProd
	str := func(name string) *awsdynamodb.Attribute {
		return &awsdynamodb.Attribute{Name: jsii.String(name), Type: awsdynamodb.AttributeType_STRING}
	}
	table := awsdynamodb.NewTable(st, jsii.String("Table"), &awsdynamodb.TableProps{
		PartitionKey:        str(dynamo.HashKey),
		SortKey:             str(dynamo.RangeKey),
		BillingMode:         awsdynamodb.BillingMode_PAY_PER_REQUEST,
		Stream:              awsdynamodb.StreamViewType_NEW_AND_OLD_IMAGES,
		TimeToLiveAttribute: jsii.String(dynamo.TTLAttribute),
		PointInTimeRecoverySpecification: &awsdynamodb.PointInTimeRecoverySpecification{
			PointInTimeRecoveryEnabled: jsii.Bool(true),
		},
		DeletionProtection: jsii.Bool(prod),
		RemovalPolicy:      removalPolicy(cfg),
	})
	// The schema is the DynamoDB adapter's (internal/store/dynamo), the same
	// one its CreateTable makes for DynamoDB Local, so they cannot drift.
	for _, gsi := range dynamo.Indexes {
		table.AddGlobalSecondaryIndex(&awsdynamodb.GlobalSecondaryIndexProps{
			IndexName:      jsii.String(gsi.Name),
			PartitionKey:   str(gsi.PartitionKey),
			SortKey:        str(gsi.SortKey),
			ProjectionType: awsdynamodb.ProjectionType_ALL,
		})
	}
	authKey := generatedKey(st, "AuthKey", "Tenger: the key that seals authenticator secrets in the table", cfg)
	suppress(authKey, nagReasons{"AwsSolutions-SMG4": "Not on Secrets Manager's rotation schedule: the value is a key " +
		"ring, and a rotation puts a new key first and keeps the old ones behind it (new secrets are sealed with the " +
		"first, stored ones open with the key they were sealed with); an old key leaves only once nothing sealed " +
		"with it remains, which an operator decides."})
	engineKey := generatedKey(st, "EngineKey", "Tenger: the key that signs commands to the engine's private endpoint", cfg)
	suppress(engineKey, nagReasons{"AwsSolutions-SMG4": "Not rotated by Secrets Manager: the engine task and " +
		"its callers read this key when they start, so a rotation would refuse every command until all of them " +
		"restart; it is replaced by a deploy that restarts them together."})
	originKey := generatedKey(st, "OriginKey", "Tenger: the header value the edge sends to the APIs", cfg)
	suppress(originKey, nagReasons{"AwsSolutions-SMG4": "Not rotated by Secrets Manager: CloudFront sends the " +
		"value the distribution was deployed with, and the functions read it at a cold start; it is replaced by a " +
		"deploy, which updates both."})
	awscdk.NewCfnOutput(st, jsii.String("TableName"), &awscdk.CfnOutputProps{Value: table.TableName()})
	return &DataStack{Stack: st, Table: table, AuthKey: authKey, EngineKey: engineKey, OriginKey: originKey}
}

// Item actions on the table: what the DynamoDB adapter
// (internal/store/dynamo) calls. Not Scan (nothing scans the table), not
// BatchWriteItem, and no table management beyond DescribeTable, which the
// adapter reads the stream's ARN with.
var (
	tableReadActions  = []string{"dynamodb:GetItem", "dynamodb:Query", "dynamodb:ConditionCheckItem", "dynamodb:DescribeTable"}
	tableWriteActions = []string{"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"}
)

// GrantItems lets a function or role read the table's items and both
// indexes by name (and write items when write is set), with the item
// actions the store adapter uses only.
func (d *DataStack) GrantItems(grantee awsiam.IGrantable, write bool) {
	actions := tableReadActions
	if write {
		actions = append(append([]string{}, tableReadActions...), tableWriteActions...)
	}
	arn := *d.Table.TableArn()
	resources := []*string{jsii.String(arn)}
	for _, gsi := range dynamo.Indexes {
		resources = append(resources, jsii.String(arn+"/index/"+gsi.Name))
	}
	awsiam.Grant_AddToPrincipal(&awsiam.GrantOnPrincipalOptions{
		Grantee: grantee, Actions: jsii.Strings(actions...), ResourceArns: &resources,
	})
}

// generatedKey is a Secrets Manager secret of 64 letters and digits that
// CloudFormation generates (its value is never in a template), kept in
// production when the stack goes, and replicated to the recovery region
// when one is set (ContextDRRegion): a table restored there opens its
// sealed secrets with the same key.
func generatedKey(st awscdk.Stack, id, description string, cfg Config) awssecretsmanager.Secret {
	p := &awssecretsmanager.SecretProps{
		Description: jsii.String(description),
		GenerateSecretString: &awssecretsmanager.SecretStringGenerator{
			PasswordLength:     jsii.Number(64),
			ExcludePunctuation: jsii.Bool(true),
			IncludeSpace:       jsii.Bool(false),
		},
		RemovalPolicy: removalPolicy(cfg),
	}
	if cfg.DRRegion != "" {
		p.ReplicaRegions = &[]*awssecretsmanager.ReplicaRegion{{Region: jsii.String(cfg.DRRegion)}}
	}
	return awssecretsmanager.NewSecret(st, jsii.String(id), p)
}
