package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awskms"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"tenger/internal/store/dynamo"
	"tenger/internal/store/keyspace"
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
	// SecretsKey is the customer-managed KMS key the three secrets above
	// are encrypted with, rotated by KMS every year (old key material stays
	// to decrypt what it encrypted). A reader of a secret gets kms:Decrypt
	// on it through Secrets Manager only (the secret's GrantRead).
	SecretsKey awskms.Key
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
	secretsKey := awskms.NewKey(st, jsii.String("SecretsKey"), &awskms.KeyProps{
		Description:       jsii.String("Tenger: encrypts the keys kept in Secrets Manager (auth, engine, origin)"),
		EnableKeyRotation: jsii.Bool(true),
		RotationPeriod:    awscdk.Duration_Days(jsii.Number(365)),
		RemovalPolicy:     removalPolicy(cfg),
	})
	authKey := generatedKey(st, "AuthKey", "Tenger: the key that seals authenticator secrets in the table", secretsKey, cfg)
	suppress(authKey, nagReasons{"AwsSolutions-SMG4": "Not on Secrets Manager's rotation schedule: the value is a key " +
		"ring, and a rotation puts a new key first and keeps the old ones behind it (new secrets are sealed with the " +
		"first, stored ones open with the key they were sealed with); an old key leaves only once nothing sealed " +
		"with it remains, which an operator decides."})
	engineKey := generatedKey(st, "EngineKey", "Tenger: the key that signs commands to the engine's private endpoint", secretsKey, cfg)
	suppress(engineKey, nagReasons{"AwsSolutions-SMG4": "Not rotated by Secrets Manager: the engine task and " +
		"its callers read this key when they start, so a rotation would refuse every command until all of them " +
		"restart; it is replaced by a deploy that restarts them together."})
	originKey := generatedKey(st, "OriginKey", "Tenger: the header value the edge sends to the APIs", secretsKey, cfg)
	suppress(originKey, nagReasons{"AwsSolutions-SMG4": "Not rotated by Secrets Manager: CloudFront sends the " +
		"value the distribution was deployed with, and the functions read it at a cold start; it is replaced by a " +
		"deploy, which updates both."})
	awscdk.NewCfnOutput(st, jsii.String("TableName"), &awscdk.CfnOutputProps{Value: table.TableName()})
	return &DataStack{Stack: st, Table: table, AuthKey: authKey, EngineKey: engineKey, OriginKey: originKey, SecretsKey: secretsKey}
}

// Item actions on the table: what the DynamoDB adapter
// (internal/store/dynamo) calls. Not Scan (nothing scans the table, and a
// scan returns items whatever their partition key), not BatchWriteItem,
// and no table management beyond DescribeTable, which the adapter reads
// the stream's ARN with (only for a grantee that reads the change feed
// through the store: keyspace.Grant.Feed).
var (
	tableReadActions  = []string{"dynamodb:GetItem", "dynamodb:Query", "dynamodb:ConditionCheckItem"}
	tableWriteActions = []string{"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"}
	indexActions      = []string{"dynamodb:Query"}
	feedActions       = []string{"dynamodb:DescribeTable"}
)

// GrantItems lets a function or role use the items of the table its key
// space allows (internal/store/keyspace), in up to four statements:
//
//   - GetItem, Query and ConditionCheckItem on the table, for the
//     partitions of every prefix it declares (dynamodb:LeadingKeys);
//   - PutItem, UpdateItem and DeleteItem on the table, for the partitions
//     of the prefixes it writes;
//   - Query on the indexes it declares, by name, and on no other;
//   - DescribeTable, when it reads the change feed through the store.
//
// The index queries carry no LeadingKeys condition: AWS documents the key
// as the table's partition key ("the first key attribute of a table—in
// other words, the partition key", Using IAM policy conditions for
// fine-grained access control) and says nothing of what it holds for a
// Query of a global secondary index, whose request names the index's
// partition key and not the table's. A condition whose meaning there is
// undocumented could refuse the queries or allow them all, so the index
// grants are scoped by index name instead, and only the grantees that
// query an index get it.
func (d *DataStack) GrantItems(grantee awsiam.IGrantable, space keyspace.Grant) {
	arn := *d.Table.TableArn()
	// grant adds one statement, conditioned on the partition keys of
	// prefixes when they are given: every partition key a request names
	// must match one of their patterns. The key is multivalued, so it
	// takes ForAllValues, under which a request naming no key at all
	// would match: every item action names one, and the actions that name
	// none (DescribeTable) are granted in a statement of their own.
	grant := func(actions []string, resources []*string, prefixes []string) {
		var conditions *map[string]*map[string]interface{}
		if prefixes != nil {
			conditions = &map[string]*map[string]interface{}{
				"ForAllValues:StringLike": {"dynamodb:LeadingKeys": keyspace.LeadingKeys(prefixes)},
			}
		}
		awsiam.Grant_AddToPrincipal(&awsiam.GrantOnPrincipalOptions{
			Grantee: grantee, Actions: jsii.Strings(actions...), ResourceArns: &resources, Conditions: conditions,
		})
	}
	table := []*string{jsii.String(arn)}
	if all := space.Prefixes(); len(all) > 0 {
		grant(tableReadActions, table, all)
	}
	if len(space.Writes) > 0 {
		grant(tableWriteActions, table, space.Writes)
	}
	var indexes []*string
	for _, gsi := range dynamo.Indexes {
		if space.Queries(gsi.Name) {
			indexes = append(indexes, jsii.String(arn+"/index/"+gsi.Name))
		}
	}
	if len(indexes) > 0 {
		grant(indexActions, indexes, nil)
	}
	if space.Feed {
		grant(feedActions, table, nil)
	}
}

// generatedKey is a Secrets Manager secret of 64 letters and digits that
// CloudFormation generates (its value is never in a template), encrypted
// with the customer-managed key kms, kept in production when the stack
// goes, and replicated to the recovery region when one is set
// (ContextDRRegion): a table restored there opens its sealed secrets with
// the same key. A replica is encrypted with that region's Secrets Manager
// key: a KMS key lives in one region.
func generatedKey(st awscdk.Stack, id, description string, kms awskms.IKey, cfg Config) awssecretsmanager.Secret {
	p := &awssecretsmanager.SecretProps{
		Description:   jsii.String(description),
		EncryptionKey: kms,
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

// grantSecretRead lets grantee read a secret's value: the Secrets Manager
// read actions on the secret, and kms:Decrypt on its customer-managed key
// only when Secrets Manager asks (kms:ViaService), both in the grantee's
// own policy; the key's policy trusts the account's IAM policies. The
// secret's own GrantRead would also name the grantee in the key's policy,
// which lives in the data stack: the data stack would then depend on
// every stack whose roles read a secret, and they all depend on it.
func grantSecretRead(secret awssecretsmanager.ISecret, grantee awsiam.IGrantable) {
	awsiam.Grant_AddToPrincipal(&awsiam.GrantOnPrincipalOptions{Grantee: grantee,
		Actions:      jsii.Strings("secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret"),
		ResourceArns: &[]*string{secret.SecretArn()}})
	key := secret.EncryptionKey()
	if key == nil {
		return
	}
	grantee.GrantPrincipal().AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Actions:   jsii.Strings("kms:Decrypt"),
		Resources: &[]*string{key.KeyArn()},
		Conditions: &map[string]interface{}{"StringEquals": map[string]interface{}{
			"kms:ViaService": "secretsmanager." + *awscdk.Stack_Of(secret).Region() + ".amazonaws.com"}},
	}))
}
