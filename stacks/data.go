package stacks

import (
	"slices"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awskms"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awss3"
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
	// SecretsKey is the customer-managed KMS key the secrets of this stack
	// are encrypted with, rotated by KMS every year (old key material stays
	// to decrypt what it encrypted). A reader of a secret gets kms:Decrypt
	// on it through Secrets Manager only (grantSecretRead).
	SecretsKey awskms.Key
	// SumsubSecret holds the identity verification provider's keys as JSON
	// {"appToken","secretKey","webhookSecret"} (platform.EnvSumsubSecret),
	// which the operator puts in after the first deploy (stacks/README.md,
	// deploy runbook); the profile function reads it when verification
	// first needs it.
	SumsubSecret awssecretsmanager.Secret
	// Uploads is the private bucket of the users' uploads (identity and
	// corporate documents, support screenshots: platform.EnvUploadsBucket),
	// under uploads/, encrypted with UploadsKey.
	Uploads awss3.Bucket
	// UploadsKey is the customer-managed KMS key of the uploads
	// (platform.EnvUploadsKMSKey): only the roles given kms:Decrypt on it
	// can read an identity document, whatever their S3 permissions, and
	// CloudTrail records each use.
	UploadsKey awskms.Key
	// UploadsLogs holds the uploads bucket's server access logs.
	UploadsLogs awss3.Bucket
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
		Description:       jsii.String("Tenger: encrypts the keys kept in Secrets Manager (auth, engine, origin, Sumsub)"),
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
	sumsub := sumsubSecret(st, secretsKey, cfg)
	awscdk.NewCfnOutput(st, jsii.String("TableName"), &awscdk.CfnOutputProps{Value: table.TableName()})
	awscdk.NewCfnOutput(st, jsii.String("SumsubSecretArn"), &awscdk.CfnOutputProps{Value: sumsub.SecretArn(),
		Description: jsii.String("put the Sumsub app token, its secret key and the webhook secret here (stacks/README.md, deploy runbook)")})
	d := &DataStack{Stack: st, Table: table, AuthKey: authKey, EngineKey: engineKey, OriginKey: originKey, SecretsKey: secretsKey,
		SumsubSecret: sumsub}
	d.addUploads(cfg)
	return d
}

// sumsubSecretTemplate is the Sumsub secret's shape before the operator
// fills it: the app token pair empty, so verification answers "unavailable"
// (platform's lazySumsub refuses empty keys) rather than call Sumsub with
// nothing. Its webhookSecret is generated: a value nobody knows, so no
// webhook verifies until the operator puts the one configured at Sumsub.
const sumsubSecretTemplate = `{"appToken":"","secretKey":""}`

// sumsubSecret is the identity verification provider's secret: JSON
// {"appToken","secretKey","webhookSecret"} (platform.EnvSumsubSecret),
// encrypted with the stack's customer-managed key, kept in production and
// replicated to the recovery region as the generated keys are. The keys
// are made in Sumsub's dashboard, so the operator puts them in
// (`aws secretsmanager put-secret-value`, stacks/README.md); a deploy never
// overwrites them (CloudFormation generates the value once).
func sumsubSecret(st awscdk.Stack, kms awskms.IKey, cfg Config) awssecretsmanager.Secret {
	p := &awssecretsmanager.SecretProps{
		Description:   jsii.String(`Tenger: Sumsub's keys, JSON {"appToken","secretKey","webhookSecret"}, put in by the operator`),
		EncryptionKey: kms,
		GenerateSecretString: &awssecretsmanager.SecretStringGenerator{
			SecretStringTemplate: jsii.String(sumsubSecretTemplate),
			GenerateStringKey:    jsii.String("webhookSecret"),
			PasswordLength:       jsii.Number(64),
			ExcludePunctuation:   jsii.Bool(true),
			IncludeSpace:         jsii.Bool(false),
		},
		RemovalPolicy: removalPolicy(cfg),
	}
	if cfg.DRRegion != "" {
		p.ReplicaRegions = &[]*awssecretsmanager.ReplicaRegion{{Region: jsii.String(cfg.DRRegion)}}
	}
	s := awssecretsmanager.NewSecret(st, jsii.String("SumsubSecret"), p)
	suppress(s, nagReasons{"AwsSolutions-SMG4": "Not rotated by Secrets Manager: the keys are made in Sumsub's dashboard " +
		"(an app token and its secret key, the webhook's secret key), so a rotation is done there and the new values put " +
		"here by the operator; the profile function reads them again at its next cold start."})
	return s
}

// uploadsPrefix is where the uploads' objects are kept in their bucket
// (platform's uploadsPrefix): the profile function's grants and the
// lifecycle rules name it.
const uploadsPrefix = "uploads/"

// Lifecycle of the uploads (README "What a deploy creates"): identity and
// corporate documents must be kept at least five years after an account
// closes (AML record keeping, account.RetentionPeriod), which no object
// age can express, so objects never expire. They are read in the first
// days (the review) and rarely after (an audit, a second review), so after
// uploadsColdAfterDays they move to S3 Glacier Instant Retrieval: about a
// sixth of S3 Standard's storage price, and still read in milliseconds
// through the same presigned GET, so nothing in the application changes.
// A version replaced or deleted (the functions delete only the file of an
// upload whose record could not be written) stays recoverable for
// uploadsNoncurrentDays.
const (
	uploadsColdAfterDays  = 90
	uploadsNoncurrentDays = 365
	uploadsLogDays        = 365
)

// addUploads creates the uploads bucket, its key and its access log
// bucket. Both buckets are kept when the stack goes, in every stage: the
// uploads are identity documents the law says to keep, and a bucket with
// objects cannot be deleted by CloudFormation anyway (README says how to
// remove a stage's by hand).
func (d *DataStack) addUploads(cfg Config) {
	st := d.Stack
	d.UploadsKey = awskms.NewKey(st, jsii.String("UploadsKey"), &awskms.KeyProps{
		Description:       jsii.String("Tenger: encrypts the users' uploads (identity and corporate documents)"),
		EnableKeyRotation: jsii.Bool(true),
		RotationPeriod:    awscdk.Duration_Days(jsii.Number(365)),
		// The uploads outlive the stack; so must the key that opens them.
		RemovalPolicy: awscdk.RemovalPolicy_RETAIN,
	})
	// Server access logs are delivered with SSE-S3 only (a log bucket
	// cannot use a KMS key); CDK grants the logging service the log
	// delivery ACL, which needs object writers to own what they write, as
	// the site's log bucket does.
	d.UploadsLogs = awss3.NewBucket(st, jsii.String("UploadsLogs"), &awss3.BucketProps{
		BlockPublicAccess: awss3.BlockPublicAccess_BLOCK_ALL(),
		Encryption:        awss3.BucketEncryption_S3_MANAGED,
		EnforceSSL:        jsii.Bool(true),
		MinimumTLSVersion: jsii.Number(1.2),
		ObjectOwnership:   awss3.ObjectOwnership_OBJECT_WRITER,
		LifecycleRules: &[]*awss3.LifecycleRule{{Id: jsii.String("ExpireAccessLogs"),
			Expiration: awscdk.Duration_Days(jsii.Number(uploadsLogDays))}},
		RemovalPolicy: awscdk.RemovalPolicy_RETAIN,
	})
	suppress(d.UploadsLogs, nagReasons{"AwsSolutions-S1": "The access log bucket itself: logging its own access into itself would loop."})
	d.Uploads = awss3.NewBucket(st, jsii.String("Uploads"), &awss3.BucketProps{
		BlockPublicAccess: awss3.BlockPublicAccess_BLOCK_ALL(),
		Encryption:        awss3.BucketEncryption_KMS,
		EncryptionKey:     d.UploadsKey,
		// One data key per bucket rather than per object: far fewer KMS
		// requests (and their cost) for the same protection.
		BucketKeyEnabled:       jsii.Bool(true),
		EnforceSSL:             jsii.Bool(true),
		MinimumTLSVersion:      jsii.Number(1.2),
		ObjectOwnership:        awss3.ObjectOwnership_BUCKET_OWNER_ENFORCED,
		ServerAccessLogsBucket: d.UploadsLogs,
		ServerAccessLogsPrefix: jsii.String("uploads/"),
		// A deleted or replaced document stays as a noncurrent version:
		// the profile function may delete objects (the file of a failed
		// upload), never versions.
		Versioned: jsii.Bool(true),
		// The site reads a file by following the profile function's 302 to
		// a presigned URL, a cross-origin GET from the site's origin.
		Cors:                               uploadsCORS(cfg),
		TransitionDefaultMinimumObjectSize: awss3.TransitionDefaultMinimumObjectSize_ALL_STORAGE_CLASSES_128_K,
		LifecycleRules: &[]*awss3.LifecycleRule{
			{Id: jsii.String("AbortIncompleteMultipartUploads"), AbortIncompleteMultipartUploadAfter: awscdk.Duration_Days(jsii.Number(1))},
			{Id: jsii.String("UploadsToGlacierInstantRetrieval"), Prefix: jsii.String(uploadsPrefix),
				Transitions: &[]*awss3.Transition{{StorageClass: awss3.StorageClass_GLACIER_INSTANT_RETRIEVAL(),
					TransitionAfter: awscdk.Duration_Days(jsii.Number(uploadsColdAfterDays))}}},
			{Id: jsii.String("ExpireNoncurrentVersions"), NoncurrentVersionExpiration: awscdk.Duration_Days(jsii.Number(uploadsNoncurrentDays)),
				ExpiredObjectDeleteMarker: jsii.Bool(true)},
		},
		RemovalPolicy: awscdk.RemovalPolicy_RETAIN,
	})
	awscdk.NewCfnOutput(st, jsii.String("UploadsBucketName"), &awscdk.CfnOutputProps{Value: d.Uploads.BucketName()})
}

// uploadsCORS admits GET and HEAD of the uploads from the site's origins
// (the configured ones, the custom domain's, and the dev servers outside
// prod): the browser follows the profile function's redirect to a
// presigned URL on the bucket's host. The distribution's own domain is
// not known here (the site's stack comes later); a site served from it
// names it in siteOrigins, as the HTTP API's CORS policy needs too. Any
// request header is admitted: a presigned URL signs only the host, and
// the redirected request carries the site's headers.
func uploadsCORS(cfg Config) *[]*awss3.CorsRule {
	origins := cfg.origins()
	if cfg.Edge.Domain != "" {
		origins = append(origins, "https://"+cfg.Edge.Domain)
	}
	slices.Sort(origins)
	origins = slices.Compact(origins)
	if len(origins) == 0 {
		return nil
	}
	return &[]*awss3.CorsRule{{
		Id:             jsii.String("SiteReadsUploads"),
		AllowedMethods: &[]awss3.HttpMethods{awss3.HttpMethods_GET, awss3.HttpMethods_HEAD},
		AllowedOrigins: jsii.Strings(origins...),
		AllowedHeaders: jsii.Strings("*"),
		ExposedHeaders: jsii.Strings("Content-Type", "Content-Length", "Content-Disposition", "ETag"),
		MaxAge:         jsii.Number(3000),
	}}
}

// GrantUploads lets a function keep users' uploads: put, read (and
// presign reads of) and delete objects under uploads/ only, with the
// uploads key through S3 only (kms:ViaService), and tells it the bucket
// and the key (platform.EnvUploadsBucket, EnvUploadsKMSKey). No other
// S3 action: no listing, no version deletion, no bucket settings.
func (d *DataStack) GrantUploads(fn awslambda.Function) {
	fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("UploadsObjects"),
		Actions:   jsii.Strings("s3:PutObject", "s3:GetObject", "s3:DeleteObject"),
		Resources: &[]*string{d.Uploads.ArnForObjects(jsii.String(uploadsPrefix + "*"))},
	}))
	fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("UploadsKeyThroughS3"),
		Actions:   jsii.Strings("kms:GenerateDataKey", "kms:Decrypt"),
		Resources: &[]*string{d.UploadsKey.KeyArn()},
		Conditions: &map[string]interface{}{"StringEquals": map[string]interface{}{
			"kms:ViaService": "s3." + *d.Stack.Region() + ".amazonaws.com"}},
	}))
	suppress(fn.Role(), nagReasons{"AwsSolutions-IAM5": "Objects under uploads/ of the uploads bucket: every upload " +
		"is its own object under a random id, so the objects cannot be named one by one in a policy."}, `/uploads/\*$`)
	fn.AddEnvironment(jsii.String(envUploadsBucket), d.Uploads.BucketName(), nil)
	fn.AddEnvironment(jsii.String(envUploadsKMSKey), d.UploadsKey.KeyArn(), nil)
}

// GrantUploadsRead lets a function read users' uploads (GetObject under
// uploads/, the key through S3 only, for decryption): the p2p function
// shows an order's chat images to its other side. It writes none.
func (d *DataStack) GrantUploadsRead(fn awslambda.Function) {
	fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("UploadsRead"),
		Actions:   jsii.Strings("s3:GetObject"),
		Resources: &[]*string{d.Uploads.ArnForObjects(jsii.String(uploadsPrefix + "*"))},
	}))
	fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("UploadsKeyReadThroughS3"),
		Actions:   jsii.Strings("kms:Decrypt"),
		Resources: &[]*string{d.UploadsKey.KeyArn()},
		Conditions: &map[string]interface{}{"StringEquals": map[string]interface{}{
			"kms:ViaService": "s3." + *d.Stack.Region() + ".amazonaws.com"}},
	}))
	suppress(fn.Role(), nagReasons{"AwsSolutions-IAM5": "Objects under uploads/ of the uploads bucket: every upload " +
		"is its own object under a random id, so the objects cannot be named one by one in a policy."}, `/uploads/\*$`)
	fn.AddEnvironment(jsii.String(envUploadsBucket), d.Uploads.BucketName(), nil)
	fn.AddEnvironment(jsii.String(envUploadsKMSKey), d.UploadsKey.KeyArn(), nil)
}

// The uploads' environment (platform.EnvUploadsBucket and
// EnvUploadsKMSKey; identity_test.go checks they agree), and the Sumsub
// secret's (platform.EnvSumsubSecret).
const (
	envUploadsBucket = "UPLOADS_BUCKET"
	envUploadsKMSKey = "UPLOADS_KMS_KEY_ID"
	envSumsubSecret  = "SUMSUB_SECRET_ARN"
)

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
