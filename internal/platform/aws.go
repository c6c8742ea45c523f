package platform

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/apigatewaymanagementapi"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/rs/zerolog"

	"tenger/internal/auth"
	"tenger/internal/binance/wsapiaws"
	"tenger/internal/coins"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/notify"
	"tenger/internal/notify/sesnotify"
	"tenger/internal/notify/snsnotify"
	"tenger/internal/push/apigw"
	"tenger/internal/store/dynamo"
)

// Environment variables the CDK stacks set on functions and the engine task.
const (
	EnvTable      = "TABLE_NAME"
	EnvWSEndpoint = "WS_ENDPOINT" // https://<api>.execute-api.<region>.amazonaws.com/<stage>
	// EnvOriginKeySecret is the ARN of the secret the edge (CloudFront)
	// sends in awslambda.HeaderOrigin: a function given it serves only
	// requests that came through the edge.
	EnvOriginKeySecret = "ORIGIN_KEY_SECRET_ARN"
	// EnvSMSCallingCodes lists the countries SMS may go to, as calling
	// codes ("976,7"); unset: every country.
	EnvSMSCallingCodes = "SMS_CALLING_CODES"
	// EnvBinanceWSEndpoint is the management endpoint of the
	// Binance-compatible WebSocket API (its wsapi function, and the stream
	// function that posts user data events there).
	EnvBinanceWSEndpoint = "BINANCE_WS_ENDPOINT"
	EnvEmailFrom         = "EMAIL_FROM"
	EnvSMSSenderID       = "SMS_SENDER_ID"
	EnvSecretKey         = "SECRET_KEY" // 64 hex characters (tests, LocalStack)
	// EnvAuthKeySecret is the ARN of the Secrets Manager secret that holds
	// the key sealing authenticator secrets (the data stack's AuthKey); the
	// functions that set up or check authenticator codes get it.
	EnvAuthKeySecret = "AUTH_KEY_SECRET_ARN"
	EnvStage         = "STAGE"
	EnvSiteOrigin    = "SITE_ORIGIN"
	EnvFuturesLive   = "FUTURES_LIVE"
	EnvWalletLive    = "WALLET_LIVE"
	EnvContentToken  = "CONTENT_READ_TOKEN"
	// EnvDynamoEndpoint points the store at DynamoDB Local (tests, LocalStack).
	EnvDynamoEndpoint = "DYNAMODB_ENDPOINT"
	// EnvMarketsPoll is how often (seconds) the pair catalogue is re-read.
	EnvMarketsPoll = "MARKETS_POLL_SECONDS"
	// EnvPriceSources lists the reference prices' external sources
	// (Config.PriceSources); only the engine task polls them.
	EnvPriceSources = "REFPRICE_SOURCES"
)

// ConfigFromEnv reads the deployment configuration of a function or task.
// Every AWS endpoint is HTTPS, so cookies are Secure; the dev simulators are off.
// Market data is read from the table (MarketDataRefresh): only the engine
// task is fed trades and depth, and it stores what the functions serve.
func ConfigFromEnv() Config {
	return Config{
		Stage:             os.Getenv(EnvStage),
		SecureCookies:     true,
		SiteOrigin:        os.Getenv(EnvSiteOrigin),
		FuturesLive:       os.Getenv(EnvFuturesLive) == "true",
		WalletLive:        os.Getenv(EnvWalletLive) == "true",
		ContentReadToken:  os.Getenv(EnvContentToken),
		MarketDataRefresh: marketdata.DefaultRefresh,
		PriceSources:      os.Getenv(EnvPriceSources),
	}
}

// marketsPoll is how often AWS processes look for a new pair catalogue,
// unless $MARKETS_POLL_SECONDS says otherwise (the engine looks every few
// seconds, so it has a new pair's book before most functions take orders
// for it; an order that reaches the engine first is rejected and its hold
// released).
func marketsPoll() time.Duration {
	if n, err := strconv.Atoi(os.Getenv(EnvMarketsPoll)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 30 * time.Second
}

// NewAWS assembles the AWS runtime's ports from the environment: DynamoDB
// ($TABLE_NAME, required), SNS and SES, the API Gateway management API
// ($WS_ENDPOINT, when set) and the key that seals authenticator secrets
// ($SECRET_KEY, or else the secret named by $AUTH_KEY_SECRET_ARN, read once
// at a cold start). A function that needs no push or key simply runs
// without those variables and leaves the ports nil.
func NewAWS(ctx context.Context, log zerolog.Logger) (*Deps, error) {
	awsCfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, fmt.Errorf("platform: aws config: %w", err)
	}
	table := os.Getenv(EnvTable)
	if table == "" {
		return nil, errors.New("platform: " + EnvTable + " is not set")
	}
	d := &Deps{Log: log, Now: time.Now, Config: ConfigFromEnv(), Markets: markets.Defaults()}
	// The Sumsub secret is read when verification first needs it (kyc.go).
	d.kyc.secrets = func() secretGetter { return secretsmanager.NewFromConfig(awsCfg) }
	if d.Coins, err = coins.Defaults(); err != nil {
		return nil, err
	}
	if k := strings.TrimSpace(os.Getenv(EnvSecretKey)); k != "" {
		key, err := hex.DecodeString(k)
		if err != nil || len(key) != 32 {
			return nil, errors.New("platform: " + EnvSecretKey + " must be 64 hex characters")
		}
		d.SecretKey = key
	} else if arn := os.Getenv(EnvAuthKeySecret); arn != "" {
		if d.SecretKey, err = authKeyFromSecret(ctx, secretsmanager.NewFromConfig(awsCfg), arn); err != nil {
			return nil, err
		}
	}
	engineKey, err := engineKeyFromEnv(ctx, func() secretGetter { return secretsmanager.NewFromConfig(awsCfg) })
	if err != nil {
		return nil, err
	}
	if arn := os.Getenv(EnvOriginKeySecret); arn != "" {
		if d.OriginKey, err = secretKey(ctx, secretsmanager.NewFromConfig(awsCfg), arn, "origin key"); err != nil {
			return nil, err
		}
	}
	ddbOpts := func(o *dynamodb.Options) {
		if ep := os.Getenv(EnvDynamoEndpoint); ep != "" {
			o.BaseEndpoint = aws.String(ep)
		}
	}
	streamOpts := func(o *dynamodbstreams.Options) {
		if ep := os.Getenv(EnvDynamoEndpoint); ep != "" {
			o.BaseEndpoint = aws.String(ep)
		}
	}
	d.Store = dynamo.New(dynamodb.NewFromConfig(awsCfg, ddbOpts), dynamodbstreams.NewFromConfig(awsCfg, streamOpts), table)
	// Uploads go to the bucket $UPLOADS_BUCKET names, when it is set (uploads.go).
	d.uploadFilesFromEnv(awsCfg)
	if engineKey != nil {
		// Balances, orders and every spot money movement go to the engine
		// task (the engine task itself sets Deps.Engine, which comes first).
		d.EngineRemote = NewRemoteEngine(d.Store, d.Coins, engineKey)
		d.EngineKey = engineKey
	}
	// The pair catalogue follows the table's catalogue item (published with
	// `tenger markets publish`), so a pair opens in every function and the
	// engine without a deployment. A frozen Lambda's watcher resumes with
	// its next invocation.
	go d.Markets.Watch(context.WithoutCancel(ctx), markets.StoreSource{Store: d.Store}, marketsPoll(), log)
	d.Notify = notify.Router{
		SMS: snsnotify.New(sns.NewFromConfig(awsCfg), snsnotify.Options{SenderID: os.Getenv(EnvSMSSenderID),
			CallingCodes: snsnotify.ParseCallingCodes(os.Getenv(EnvSMSCallingCodes))}),
		Email: sesnotify.New(sesv2.NewFromConfig(awsCfg), sesnotify.Options{From: os.Getenv(EnvEmailFrom)}),
	}
	mgmtAt := func(ep string) *apigatewaymanagementapi.Client {
		return apigatewaymanagementapi.NewFromConfig(awsCfg, func(o *apigatewaymanagementapi.Options) {
			o.BaseEndpoint = aws.String(ep)
		})
	}
	if ep := os.Getenv(EnvWSEndpoint); ep != "" {
		// Subscriptions are checked as the local hub checks them: the
		// pairs' and the contracts' market channels and the marks.
		d.Push = apigw.New(d.Store, mgmtAt(ep), apigw.Options{Auth: PushAuth(d.Auth()), Channels: d.knownChannels(), Logger: log})
	}
	if ep := os.Getenv(EnvBinanceWSEndpoint); ep != "" {
		d.BinancePush = apigw.New(d.Store, mgmtAt(ep), apigw.Options{Namespace: wsapiaws.Namespace, TTL: wsapiaws.TTL, Logger: log})
	}
	return d, nil
}

// secretGetter is the Secrets Manager call authKeyFromSecret makes.
type secretGetter interface {
	GetSecretValue(ctx context.Context, in *secretsmanager.GetSecretValueInput, opts ...func(*secretsmanager.Options)) (*secretsmanager.GetSecretValueOutput, error)
}

// minAuthKeyLen is the shortest auth key taken: the stack generates 64
// characters, and the key is hashed into the sealing key (auth's secret box).
const minAuthKeyLen = 32

// authKeyFromSecret reads the auth key from the secret arn. A function
// that is given the secret must have it: a failure stops the cold start
// rather than store authenticator secrets unsealed.
func authKeyFromSecret(ctx context.Context, sm secretGetter, arn string) ([]byte, error) {
	key, err := secretKey(ctx, sm, arn, "auth key")
	if err != nil {
		return nil, err
	}
	// A key ring (rotation: the new key first, the old ones behind it):
	// every key as long as one alone must be.
	for _, k := range auth.KeyRing(key) {
		if len(k) < minAuthKeyLen {
			return nil, fmt.Errorf("platform: a key of the auth key secret holds fewer than %d characters", minAuthKeyLen)
		}
	}
	return key, nil
}

// secretKey reads a key of at least minAuthKeyLen characters from the
// secret arn.
func secretKey(ctx context.Context, sm secretGetter, arn, what string) ([]byte, error) {
	out, err := sm.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String(arn)})
	if err != nil {
		return nil, fmt.Errorf("platform: read the %s secret: %w", what, err)
	}
	if out.SecretString == nil || len(strings.TrimSpace(*out.SecretString)) < minAuthKeyLen {
		return nil, fmt.Errorf("platform: the %s secret holds fewer than %d characters", what, minAuthKeyLen)
	}
	return []byte(strings.TrimSpace(*out.SecretString)), nil
}
