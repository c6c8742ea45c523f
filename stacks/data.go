package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
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
	engineKey := generatedKey(st, "EngineKey", "Tenger: the key that signs commands to the engine's private endpoint", cfg)
	awscdk.NewCfnOutput(st, jsii.String("TableName"), &awscdk.CfnOutputProps{Value: table.TableName()})
	return &DataStack{Stack: st, Table: table, AuthKey: authKey, EngineKey: engineKey}
}

// generatedKey is a Secrets Manager secret of 64 letters and digits that
// CloudFormation generates (its value is never in a template), kept in
// production when the stack goes.
func generatedKey(st awscdk.Stack, id, description string, cfg Config) awssecretsmanager.Secret {
	return awssecretsmanager.NewSecret(st, jsii.String(id), &awssecretsmanager.SecretProps{
		Description: jsii.String(description),
		GenerateSecretString: &awssecretsmanager.SecretStringGenerator{
			PasswordLength:     jsii.Number(64),
			ExcludePunctuation: jsii.Bool(true),
			IncludeSpace:       jsii.Bool(false),
		},
		RemovalPolicy: removalPolicy(cfg),
	})
}
