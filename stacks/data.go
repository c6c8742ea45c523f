package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"tenger/internal/store/dynamo"
)

// DataStack holds the single DynamoDB table every service stores in.
type DataStack struct {
	awscdk.Stack
	Table awsdynamodb.Table
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
	awscdk.NewCfnOutput(st, jsii.String("TableName"), &awscdk.CfnOutputProps{Value: table.TableName()})
	return &DataStack{Stack: st, Table: table}
}
