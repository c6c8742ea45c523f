package stacks

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudfront"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudfrontorigins"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsroute53"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsroute53targets"
	"github.com/aws/aws-cdk-go/awscdk/v2/awss3"
	"github.com/aws/aws-cdk-go/awscdk/v2/awss3deployment"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"tenger/internal/webapp"
)

// ConfigObjectKey is where the web app finds its runtime configuration.
const ConfigObjectKey = "config.json"

// siteCSP is the site's Content-Security-Policy (webapp's, the one
// `tenger serve` also answers) with connect-src naming the stage region's
// API endpoints, with a custom domain its WebSocket origin, and the
// uploads bucket's host: the web app's fetch of an upload follows the
// profile function's redirect to a presigned URL there, and a redirect
// is checked against connect-src too.
func siteCSP(st awscdk.Stack, cfg Config, uploads awss3.IBucket) string {
	var extra []string
	if cfg.Edge.Domain != "" {
		extra = append(extra, "wss://"+cfg.Edge.Domain)
	}
	if uploads != nil {
		extra = append(extra, "https://"+*uploads.BucketRegionalDomainName())
	}
	return webapp.CloudContentSecurityPolicy(*st.Region(), extra...)
}

// WebStack is the site: a private bucket behind CloudFront.
type WebStack struct {
	awscdk.Stack
	Bucket       awss3.Bucket
	Distribution awscloudfront.Distribution
	// Logs holds the site bucket's and CloudFront's access logs.
	Logs awss3.Bucket
}

// webDeps are the endpoints written into config.json, and the edge
// (nil when the stacks are not placed in an account and region).
type webDeps struct {
	Api      *ApiStack
	Realtime *RealtimeStack
	Edge     *EdgeStack
	// OriginKey is the value the edge sends to the APIs (Data stack).
	OriginKey awssecretsmanager.ISecret
	// Uploads is the uploads bucket (Data stack), whose presigned URLs the
	// site fetches.
	Uploads awss3.IBucket
}

// NewWebStack creates a private, encrypted bucket that only CloudFront can
// read (origin access control), a distribution with the SPA fallback (403 and
// 404 from the bucket serve /index.html with 200, so client-side routes load
// on refresh) and a security headers policy, then deploys the built frontend
// (when present) and config.json holding the API URL per service prefix, the
// content endpoint and the WebSocket URL.
func NewWebStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config, deps webDeps) *WebStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	s := &WebStack{Stack: st}
	// The access logs of the site bucket and of CloudFront, kept 90 days.
	// CloudFront's standard logs are written with an ACL, so this bucket
	// (only this one) lets object writers own what they write.
	s.Logs = awss3.NewBucket(st, jsii.String("LogsBucket"), &awss3.BucketProps{
		BlockPublicAccess: awss3.BlockPublicAccess_BLOCK_ALL(),
		Encryption:        awss3.BucketEncryption_S3_MANAGED,
		EnforceSSL:        jsii.Bool(true),
		ObjectOwnership:   awss3.ObjectOwnership_OBJECT_WRITER,
		LifecycleRules:    &[]*awss3.LifecycleRule{{Expiration: awscdk.Duration_Days(jsii.Number(90))}},
		RemovalPolicy:     awscdk.RemovalPolicy_RETAIN,
	})
	suppress(s.Logs, nagReasons{"AwsSolutions-S1": "The access log bucket itself: logging its own access into itself would loop."})
	s.Bucket = awss3.NewBucket(st, jsii.String("SiteBucket"), &awss3.BucketProps{
		BlockPublicAccess:      awss3.BlockPublicAccess_BLOCK_ALL(),
		Encryption:             awss3.BucketEncryption_S3_MANAGED,
		EnforceSSL:             jsii.Bool(true),
		ObjectOwnership:        awss3.ObjectOwnership_BUCKET_OWNER_ENFORCED,
		ServerAccessLogsBucket: s.Logs,
		ServerAccessLogsPrefix: jsii.String("site/"),
		// Emptying a bucket on delete needs a custom resource with broad
		// delete rights; the site is rebuilt from source, so the bucket is
		// simply kept (README says how to remove it).
		RemovalPolicy: awscdk.RemovalPolicy_RETAIN,
	})

	headers := awscloudfront.NewResponseHeadersPolicy(st, jsii.String("SecurityHeaders"), &awscloudfront.ResponseHeadersPolicyProps{
		Comment: jsii.String("tenger site security headers"),
		SecurityHeadersBehavior: &awscloudfront.ResponseSecurityHeadersBehavior{
			StrictTransportSecurity: &awscloudfront.ResponseHeadersStrictTransportSecurity{
				AccessControlMaxAge: awscdk.Duration_Days(jsii.Number(730)),
				IncludeSubdomains:   jsii.Bool(true),
				Preload:             jsii.Bool(true),
				Override:            jsii.Bool(true),
			},
			ContentTypeOptions: &awscloudfront.ResponseHeadersContentTypeOptions{Override: jsii.Bool(true)},
			FrameOptions: &awscloudfront.ResponseHeadersFrameOptions{
				FrameOption: awscloudfront.HeadersFrameOption_DENY, Override: jsii.Bool(true),
			},
			ReferrerPolicy: &awscloudfront.ResponseHeadersReferrerPolicy{
				ReferrerPolicy: awscloudfront.HeadersReferrerPolicy_STRICT_ORIGIN_WHEN_CROSS_ORIGIN, Override: jsii.Bool(true),
			},
			XssProtection: &awscloudfront.ResponseHeadersXSSProtection{
				Protection: jsii.Bool(true), ModeBlock: jsii.Bool(true), Override: jsii.Bool(true),
			},
			ContentSecurityPolicy: &awscloudfront.ResponseHeadersContentSecurityPolicy{
				ContentSecurityPolicy: jsii.String(siteCSP(st, cfg, deps.Uploads)), Override: jsii.Bool(true),
			},
		},
	})

	spaFallback := func(status float64) *awscloudfront.ErrorResponse {
		return &awscloudfront.ErrorResponse{
			HttpStatus:         jsii.Number(status),
			ResponseHttpStatus: jsii.Number(200),
			ResponsePagePath:   jsii.String("/index.html"),
			Ttl:                awscdk.Duration_Seconds(jsii.Number(0)),
		}
	}
	behaviors := map[string]*awscloudfront.BehaviorOptions{
		// config.json changes on every deploy; never serve a stale one.
		"/" + ConfigObjectKey: {
			Origin:                awscloudfrontorigins.S3BucketOrigin_WithOriginAccessControl(s.Bucket, nil),
			ViewerProtocolPolicy:  awscloudfront.ViewerProtocolPolicy_REDIRECT_TO_HTTPS,
			CachePolicy:           awscloudfront.CachePolicy_CACHING_DISABLED(),
			ResponseHeadersPolicy: headers,
		},
	}
	if deps.Edge != nil {
		for path, b := range edgeBehaviors(st, deps) {
			behaviors[path] = b
		}
	}
	distProps := &awscloudfront.DistributionProps{
		Comment:           jsii.String(cfg.prefix() + " site"),
		DefaultRootObject: jsii.String("index.html"),
		DefaultBehavior: &awscloudfront.BehaviorOptions{
			Origin:                awscloudfrontorigins.S3BucketOrigin_WithOriginAccessControl(s.Bucket, nil),
			ViewerProtocolPolicy:  awscloudfront.ViewerProtocolPolicy_REDIRECT_TO_HTTPS,
			CachePolicy:           awscloudfront.CachePolicy_CACHING_OPTIMIZED(),
			ResponseHeadersPolicy: headers,
			Compress:              jsii.Bool(true),
		},
		AdditionalBehaviors:    &behaviors,
		ErrorResponses:         &[]*awscloudfront.ErrorResponse{spaFallback(403), spaFallback(404)},
		MinimumProtocolVersion: awscloudfront.SecurityPolicyProtocol_TLS_V1_2_2021,
		PriceClass:             awscloudfront.PriceClass_PRICE_CLASS_100,
		HttpVersion:            awscloudfront.HttpVersion_HTTP2_AND_3,
		EnableLogging:          jsii.Bool(true),
		LogBucket:              s.Logs,
		LogFilePrefix:          jsii.String("cloudfront/"),
	}
	if e := deps.Edge; e != nil {
		distProps.WebAclId = e.WebACL.AttrArn()
		if e.Certificate != nil {
			distProps.Certificate = e.Certificate
			distProps.DomainNames = jsii.Strings(cfg.Edge.Domain)
		}
	}
	s.Distribution = awscloudfront.NewDistribution(st, jsii.String("Site"), distProps)
	if deps.Edge != nil {
		suppress(s.Distribution, nagReasons{"AwsSolutions-CFR1": "Countries are blocked by the edge's web ACL " +
			"(blockedCountries), which logs each refusal and changes without touching the distribution."})
		if deps.Edge.Certificate != nil {
			awsroute53.NewARecord(st, jsii.String("SiteAlias"), &awsroute53.ARecordProps{
				Zone:       edgeZone(st, cfg.Edge),
				RecordName: jsii.String(cfg.Edge.Domain),
				Target:     awsroute53.RecordTarget_FromAlias(awsroute53targets.NewCloudFrontTarget(s.Distribution)),
			})
		} else {
			suppress(s.Distribution, nagReasons{"AwsSolutions-CFR4": "No custom domain is configured (domainName): " +
				"CloudFront's own certificate cannot raise the minimum TLS version; with a domain, TLS 1.2 is the minimum."})
		}
	}

	if _, err := os.Stat(filepath.Join(cfg.WebDist, "index.html")); err == nil {
		awss3deployment.NewBucketDeployment(st, jsii.String("DeploySite"), &awss3deployment.BucketDeploymentProps{
			DestinationBucket: s.Bucket,
			Sources:           &[]awss3deployment.ISource{awss3deployment.Source_Asset(jsii.String(cfg.WebDist), nil)},
			Exclude:           jsii.Strings(ConfigObjectKey),
			Distribution:      s.Distribution,
			DistributionPaths: jsii.Strings("/index.html"),
		})
	}
	var edgeHost string
	if deps.Edge != nil {
		edgeHost = *s.Distribution.DistributionDomainName()
		if cfg.Edge.Domain != "" {
			edgeHost = cfg.Edge.Domain
		}
	}
	awss3deployment.NewBucketDeployment(st, jsii.String("DeployConfig"), &awss3deployment.BucketDeploymentProps{
		DestinationBucket: s.Bucket,
		Sources: &[]awss3deployment.ISource{
			awss3deployment.Source_JsonData(jsii.String(ConfigObjectKey), siteConfig(cfg, deps, edgeHost), nil),
		},
		// Only config.json: the site deployment owns the other objects.
		Prune: jsii.Bool(false),
	})

	// The bucket deployments' helper function (one per stack, CDK's).
	if helper := st.Node().TryFindChild(jsii.String("Custom::CDKBucketDeployment8693BB64968944B69AAFB0CC9EB8756C")); helper != nil {
		suppress(helper, nagReasons{"AwsSolutions-IAM5": reasonCDKGenerated, "AwsSolutions-IAM4": reasonCDKGenerated,
			"AwsSolutions-L1": "CDK's bucket deployment helper: its runtime is the one CDK ships it with."})
	}
	awscdk.NewCfnOutput(st, jsii.String("SiteUrl"), &awscdk.CfnOutputProps{
		Value: awscdk.Fn_Join(jsii.String(""), jsii.Strings("https://", *s.Distribution.DistributionDomainName())),
	})
	return s
}

// siteConfig is config.json: the same document `tenger serve` answers at
// /config.json (webapp.Config: region, api base URL per service prefix, ws,
// content, flags), plus the stage and the endpoints in the shape aws-amplify's
// Amplify.configure takes (API.REST). The values are deploy-time tokens that
// the bucket deployment substitutes.
func siteConfig(cfg Config, deps webDeps, edgeHost string) map[string]interface{} {
	base := *deps.Api.Api.ApiEndpoint() // https://<id>.execute-api.<region>.amazonaws.com
	ws := *deps.Realtime.Stage.Url()
	if edgeHost != "" {
		// Through the edge (its WAF), on the site's own origin.
		base, ws = "https://"+edgeHost, "wss://"+edgeHost+"/ws"
	}
	region := *awscdk.Stack_Of(deps.Api.Api).Region()
	doc := webapp.Config{
		Region:  region,
		API:     map[string]string{},
		WS:      ws,
		Content: base + ContentPath,
		Flags:   cfg.Flags,
	}
	rest := map[string]interface{}{}
	for _, p := range ServicePrefixes {
		doc.API[p] = base
		rest[p[1:]] = map[string]interface{}{"endpoint": base, "region": region}
	}
	rest["content"] = map[string]interface{}{"endpoint": doc.Content, "region": region}
	// Through JSON, so the keys are exactly webapp.Config's tags.
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err) // a struct of strings and bools always marshals
	}
	var out map[string]interface{}
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	out["stage"] = cfg.Stage
	out["amplify"] = map[string]interface{}{"API": map[string]interface{}{"REST": rest}}
	return out
}
