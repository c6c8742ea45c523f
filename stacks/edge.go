package stacks

import (
	"fmt"
	"sort"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscertificatemanager"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsroute53"
	"github.com/aws/aws-cdk-go/awscdk/v2/awswafv2"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// EdgeRegion is where CloudFront's web ACLs and certificates live.
const EdgeRegion = "us-east-1"

// EdgeStack is what CloudFront needs from us-east-1: the AWS WAF web ACL in
// front of the site and the APIs, and the custom domain's certificate. The
// site's stack (WebStack, in the stage's region) attaches both to its
// distribution through cross-region references.
type EdgeStack struct {
	awscdk.Stack
	WebACL awswafv2.CfnWebACL
	// Certificate is the custom domain's (nil without EdgeConfig.Domain).
	Certificate awscertificatemanager.Certificate
}

// authPaths are the calls that sign in, register, reset a password or send
// a verification code: the ones credential stuffing and SMS pumping aim
// at, held to EdgeConfig.AuthRateLimit per address.
var authPaths = []string{
	"/fe-ex-api/user/login_in", "/fe-ex-api/user/confirm_login", "/fe-ex-api/user/register",
	"/fe-ex-api/user/reset_password", "/fe-ex-api/user/authenticator_reset",
	"/fe-ex-api/v4/common/smsValidCode", "/fe-ex-api/v4/common/emailValidCode",
	"/fe-ex-api/wallet/smsValid", "/fe-ex-api/wallet/emailValid",
}

// uploadPaths are the calls whose bodies are files (multipart, up to
// upload.LambdaMaxBytes): httpapi.PathUploadImg and PathUploadImgAuth
// (identity_test.go checks they agree). The core rule set's body rules do
// not apply to them (coreBodyRules).
var uploadPaths = []string{"/fe-ex-api/common/upload_img", "/fe-ex-api/common/upload_img_auth"}

// coreBodyRules are the rules of AWS's core rule set that inspect the
// request body, with the labels they add. Each is set to count in the
// group, and the rule after the group (CoreBodyRulesOutsideUploads)
// blocks on their labels everywhere but a POST to uploadPaths, so they
// still block every other body. An upload's body is binary: it is
// always over SizeRestrictions_BODY's 8 KB, and the other rules' text
// patterns (cross-site scripting, file inclusion, the metadata
// address), matched after URL and HTML decoding, are tripped by random
// compressed bytes, which would refuse a share of documents at random.
// The upload handler reads the file's type from its bytes, re-encodes
// images and refuses active PDFs (internal/upload), and serves files
// sandboxed, so nothing in an upload's body reaches a page or a path. The
// known-bad-inputs group's body rules match long, specific sequences that
// random bytes practically never hold, so they stay as they are.
var coreBodyRules = map[string]string{
	"SizeRestrictions_BODY":   "awswaf:managed:aws:core-rule-set:SizeRestrictions_Body",
	"CrossSiteScripting_BODY": "awswaf:managed:aws:core-rule-set:CrossSiteScripting_Body",
	"GenericLFI_BODY":         "awswaf:managed:aws:core-rule-set:GenericLFI_Body",
	"GenericRFI_BODY":         "awswaf:managed:aws:core-rule-set:GenericRFI_Body",
	"EC2MetaDataSSRF_BODY":    "awswaf:managed:aws:core-rule-set:EC2MetaDataSSRF_Body",
}

// signInPath and the JSON fields of its body, for account takeover
// prevention.
const (
	signInPath          = "/fe-ex-api/user/login_in"
	signInUsernameField = "/email"
	signInPasswordField = "/loginPword"
)

// NewEdgeStack creates the web ACL (scope CLOUDFRONT) with, in order: the
// operator's blocked countries; a per-address rate limit on every request;
// a lower one on sign-in, registration and code sending; AWS's IP
// reputation and core rule groups (the core group's body rules blocking
// everywhere but the uploads, coreBodyRules), the known-bad-inputs group;
// and, when turned on,
// Bot Control and account takeover prevention on sign-in (paid groups).
// Requests over a limit get 429 and the per-user limits of the application
// still apply behind it. Its log goes to CloudWatch Logs (aws-waf-logs-…,
// a month). With a domain it also makes the domain's certificate,
// validated in the Route 53 zone.
func NewEdgeStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config) *EdgeStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	s := &EdgeStack{Stack: st}
	e := cfg.Edge
	visibility := func(name string) *awswafv2.CfnWebACL_VisibilityConfigProperty {
		return &awswafv2.CfnWebACL_VisibilityConfigProperty{
			CloudWatchMetricsEnabled: jsii.Bool(true), SampledRequestsEnabled: jsii.Bool(true),
			MetricName: jsii.String(cfg.prefix() + "-" + name),
		}
	}
	tooMany := &awswafv2.CfnWebACL_RuleActionProperty{Block: &awswafv2.CfnWebACL_BlockActionProperty{
		CustomResponse: &awswafv2.CfnWebACL_CustomResponseProperty{ResponseCode: jsii.Number(429)},
	}}
	var rules []interface{}
	rule := func(name string, statement *awswafv2.CfnWebACL_StatementProperty, action *awswafv2.CfnWebACL_RuleActionProperty) {
		r := &awswafv2.CfnWebACL_RuleProperty{Name: jsii.String(name), Priority: jsii.Number(float64(len(rules))),
			Statement: statement, VisibilityConfig: visibility(name)}
		if action != nil {
			r.Action = action
		} else {
			r.OverrideAction = &awswafv2.CfnWebACL_OverrideActionProperty{None: map[string]interface{}{}}
		}
		rules = append(rules, r)
	}
	managed := func(name string, configs ...*awswafv2.CfnWebACL_ManagedRuleGroupConfigProperty) *awswafv2.CfnWebACL_StatementProperty {
		m := &awswafv2.CfnWebACL_ManagedRuleGroupStatementProperty{VendorName: jsii.String("AWS"), Name: jsii.String(name)}
		if len(configs) > 0 {
			list := make([]interface{}, len(configs))
			for i, c := range configs {
				list[i] = c
			}
			m.ManagedRuleGroupConfigs = &list
		}
		return &awswafv2.CfnWebACL_StatementProperty{ManagedRuleGroupStatement: m}
	}

	if len(e.BlockedCountries) > 0 {
		rule("BlockedCountries", &awswafv2.CfnWebACL_StatementProperty{
			GeoMatchStatement: &awswafv2.CfnWebACL_GeoMatchStatementProperty{CountryCodes: jsii.Strings(e.BlockedCountries...)},
		}, &awswafv2.CfnWebACL_RuleActionProperty{Block: &awswafv2.CfnWebACL_BlockActionProperty{}})
	}
	rule("RequestsPerAddress", &awswafv2.CfnWebACL_StatementProperty{
		RateBasedStatement: &awswafv2.CfnWebACL_RateBasedStatementProperty{
			Limit: jsii.Number(float64(e.rateLimit())), AggregateKeyType: jsii.String("IP"),
		},
	}, tooMany)
	var paths []interface{}
	for _, p := range authPaths {
		paths = append(paths, &awswafv2.CfnWebACL_StatementProperty{ByteMatchStatement: &awswafv2.CfnWebACL_ByteMatchStatementProperty{
			FieldToMatch:         &awswafv2.CfnWebACL_FieldToMatchProperty{UriPath: map[string]interface{}{}},
			PositionalConstraint: jsii.String("STARTS_WITH"),
			SearchString:         jsii.String(p),
			TextTransformations:  &[]interface{}{&awswafv2.CfnWebACL_TextTransformationProperty{Priority: jsii.Number(0), Type: jsii.String("NONE")}},
		}})
	}
	rule("SignInAndCodesPerAddress", &awswafv2.CfnWebACL_StatementProperty{
		RateBasedStatement: &awswafv2.CfnWebACL_RateBasedStatementProperty{
			Limit: jsii.Number(float64(e.authRateLimit())), AggregateKeyType: jsii.String("IP"),
			ScopeDownStatement: &awswafv2.CfnWebACL_StatementProperty{
				OrStatement: &awswafv2.CfnWebACL_OrStatementProperty{Statements: &paths},
			},
		},
	}, tooMany)
	rule("IpReputation", managed("AWSManagedRulesAmazonIpReputationList"), nil)
	core := managed("AWSManagedRulesCommonRuleSet")
	var overrides, labels []interface{}
	for _, name := range sortedKeys(coreBodyRules) {
		overrides = append(overrides, &awswafv2.CfnWebACL_RuleActionOverrideProperty{Name: jsii.String(name),
			ActionToUse: &awswafv2.CfnWebACL_RuleActionProperty{Count: &awswafv2.CfnWebACL_CountActionProperty{}}})
		labels = append(labels, &awswafv2.CfnWebACL_StatementProperty{LabelMatchStatement: &awswafv2.CfnWebACL_LabelMatchStatementProperty{
			Scope: jsii.String("LABEL"), Key: jsii.String(coreBodyRules[name])}})
	}
	core.ManagedRuleGroupStatement.(*awswafv2.CfnWebACL_ManagedRuleGroupStatementProperty).RuleActionOverrides = &overrides
	rule("Core", core, nil)
	var uploads []interface{}
	for _, p := range uploadPaths {
		uploads = append(uploads, &awswafv2.CfnWebACL_StatementProperty{ByteMatchStatement: &awswafv2.CfnWebACL_ByteMatchStatementProperty{
			FieldToMatch:         &awswafv2.CfnWebACL_FieldToMatchProperty{UriPath: map[string]interface{}{}},
			PositionalConstraint: jsii.String("EXACTLY"),
			SearchString:         jsii.String(p),
			TextTransformations:  &[]interface{}{&awswafv2.CfnWebACL_TextTransformationProperty{Priority: jsii.Number(0), Type: jsii.String("NONE")}},
		}})
	}
	anUpload := &awswafv2.CfnWebACL_StatementProperty{AndStatement: &awswafv2.CfnWebACL_AndStatementProperty{Statements: &[]interface{}{
		&awswafv2.CfnWebACL_StatementProperty{ByteMatchStatement: &awswafv2.CfnWebACL_ByteMatchStatementProperty{
			FieldToMatch:         &awswafv2.CfnWebACL_FieldToMatchProperty{Method: map[string]interface{}{}},
			PositionalConstraint: jsii.String("EXACTLY"),
			SearchString:         jsii.String("POST"),
			TextTransformations:  &[]interface{}{&awswafv2.CfnWebACL_TextTransformationProperty{Priority: jsii.Number(0), Type: jsii.String("NONE")}},
		}},
		&awswafv2.CfnWebACL_StatementProperty{OrStatement: &awswafv2.CfnWebACL_OrStatementProperty{Statements: &uploads}},
	}}}
	rule("CoreBodyRulesOutsideUploads", &awswafv2.CfnWebACL_StatementProperty{AndStatement: &awswafv2.CfnWebACL_AndStatementProperty{
		Statements: &[]interface{}{
			&awswafv2.CfnWebACL_StatementProperty{OrStatement: &awswafv2.CfnWebACL_OrStatementProperty{Statements: &labels}},
			&awswafv2.CfnWebACL_StatementProperty{NotStatement: &awswafv2.CfnWebACL_NotStatementProperty{Statement: anUpload}},
		}}}, &awswafv2.CfnWebACL_RuleActionProperty{Block: &awswafv2.CfnWebACL_BlockActionProperty{}})
	rule("KnownBadInputs", managed("AWSManagedRulesKnownBadInputsRuleSet"), nil)
	if e.BotControl {
		rule("BotControl", managed("AWSManagedRulesBotControlRuleSet", &awswafv2.CfnWebACL_ManagedRuleGroupConfigProperty{
			AwsManagedRulesBotControlRuleSet: &awswafv2.CfnWebACL_AWSManagedRulesBotControlRuleSetProperty{InspectionLevel: jsii.String("COMMON")},
		}), nil)
	}
	if e.AccountTakeover {
		rule("AccountTakeover", managed("AWSManagedRulesATPRuleSet", &awswafv2.CfnWebACL_ManagedRuleGroupConfigProperty{
			AwsManagedRulesAtpRuleSet: &awswafv2.CfnWebACL_AWSManagedRulesATPRuleSetProperty{
				LoginPath: jsii.String(signInPath),
				RequestInspection: &awswafv2.CfnWebACL_RequestInspectionProperty{
					PayloadType:   jsii.String("JSON"),
					UsernameField: &awswafv2.CfnWebACL_FieldIdentifierProperty{Identifier: jsii.String(signInUsernameField)},
					PasswordField: &awswafv2.CfnWebACL_FieldIdentifierProperty{Identifier: jsii.String(signInPasswordField)},
				},
			},
		}), nil)
	}
	s.WebACL = awswafv2.NewCfnWebACL(st, jsii.String("WebAcl"), &awswafv2.CfnWebACLProps{
		Name:             jsii.String(cfg.prefix() + "-edge"),
		Description:      jsii.String(fmt.Sprintf("Tenger %s: CloudFront in front of the site and the APIs", cfg.Stage)),
		Scope:            jsii.String("CLOUDFRONT"),
		DefaultAction:    &awswafv2.CfnWebACL_DefaultActionProperty{Allow: &awswafv2.CfnWebACL_AllowActionProperty{}},
		VisibilityConfig: visibility("edge"),
		Rules:            &rules,
	})
	// The web ACL's log: the name must start with aws-waf-logs-.
	logs := awslogs.NewLogGroup(st, jsii.String("WafLogs"), &awslogs.LogGroupProps{
		LogGroupName:  jsii.String("aws-waf-logs-" + cfg.prefix()),
		Retention:     awslogs.RetentionDays_ONE_MONTH,
		RemovalPolicy: removalPolicy(cfg),
	})
	awswafv2.NewCfnLoggingConfiguration(st, jsii.String("WafLogging"), &awswafv2.CfnLoggingConfigurationProps{
		ResourceArn:           s.WebACL.AttrArn(),
		LogDestinationConfigs: &[]interface{}{logs.LogGroupArn()},
		// Sign-in bodies are never logged; WAF logs headers, and these carry
		// the session: redact them.
		RedactedFields: &[]interface{}{
			&awswafv2.CfnLoggingConfiguration_FieldToMatchProperty{SingleHeader: map[string]interface{}{"Name": "exchange-token"}},
			&awswafv2.CfnLoggingConfiguration_FieldToMatchProperty{SingleHeader: map[string]interface{}{"Name": "cookie"}},
			&awswafv2.CfnLoggingConfiguration_FieldToMatchProperty{SingleHeader: map[string]interface{}{"Name": "x-mbx-apikey"}},
		},
	})

	if e.Domain != "" {
		zone := edgeZone(st, e)
		s.Certificate = awscertificatemanager.NewCertificate(st, jsii.String("Certificate"), &awscertificatemanager.CertificateProps{
			DomainName: jsii.String(e.Domain),
			Validation: awscertificatemanager.CertificateValidation_FromDns(zone),
		})
	}
	return s
}

// sortedKeys are m's keys in order, so the template is the same on every
// synthesis.
func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// edgeZone is the custom domain's Route 53 zone, named by the operator.
func edgeZone(st awscdk.Stack, e EdgeConfig) awsroute53.IHostedZone {
	return awsroute53.HostedZone_FromHostedZoneAttributes(st, jsii.String("Zone"), &awsroute53.HostedZoneAttributes{
		HostedZoneId: jsii.String(e.HostedZoneID), ZoneName: jsii.String(e.HostedZoneName),
	})
}
