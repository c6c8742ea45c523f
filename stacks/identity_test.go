package stacks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/jsii-runtime-go"

	"tenger/internal/httpapi"
	"tenger/internal/platform"
)

// The identity-and-account capabilities in AWS: uploads, identity and
// corporate verification, support tickets, the cancellation check, and the
// operators' admin function.

// TestIdentityNamesAgree: the environment the stacks set is the one the
// platform reads, and the WAF's upload paths are the upload routes.
func TestIdentityNamesAgree(t *testing.T) {
	for set, read := range map[string]string{
		envUploadsBucket: platform.EnvUploadsBucket,
		envUploadsKMSKey: platform.EnvUploadsKMSKey,
		envSumsubSecret:  platform.EnvSumsubSecret,
	} {
		if set != read {
			t.Errorf("the stacks set %s, the platform reads %s", set, read)
		}
	}
	if !slices.Equal(uploadPaths, []string{httpapi.PathUploadImg, httpapi.PathUploadImgAuth}) {
		t.Errorf("the WAF's upload paths %v are not the upload routes", uploadPaths)
	}
}

// TestIdentityRoutes: the verification calls, the provider's webhook, the
// corporate verification calls, the support tickets and the uploads reach
// the profile function, with GET and POST, on routes of the HTTP API.
func TestIdentityRoutes(t *testing.T) {
	for path, want := range map[string]string{
		"/fe-ex-api/sumsub/v2/get_level_list":          "profile",
		"/fe-ex-api/sumsub/get_access_token":           "profile",
		httpapi.KYCWebhookPath:                         "profile",
		"/fe-ex-api/company/save_base_info":            "profile",
		httpapi.PathCorpConfirm:                        "profile",
		"/fe-ex-api/question/create_problem":           "profile",
		"/fe-ex-api/question/details_problem":          "profile",
		"/fe-ex-api/user/check_user_cancellation_info": "profile",
		httpapi.PathUploadImg:                          "profile",
		httpapi.PathUploadImgAuth:                      "profile",
		httpapi.PathUploadFile:                         "profile",
	} {
		if fn, route := selectRoute(path); fn != want {
			t.Errorf("%s → %q (%s), want %q", path, fn, route, want)
		}
	}
	keys := map[string]bool{}
	for _, r := range resources("api", "AWS::ApiGatewayV2::Route") {
		keys[props(r)["RouteKey"].(string)] = true
	}
	for _, prefix := range []string{"sumsub", "company", "question"} {
		for _, m := range []string{"GET", "POST"} {
			if k := m + " /fe-ex-api/" + prefix + "/{proxy+}"; !keys[k] {
				t.Errorf("no route %s", k)
			}
		}
	}
}

// TestProfileFunctionForUploads: 1536 MiB (25-megapixel decodes) and 29 s
// (under the HTTP API's 30 s), the bucket, its key and the Sumsub secret
// named in its environment, from the data stack.
func TestProfileFunctionForUploads(t *testing.T) {
	fn := ourFunctions(t)["profile"]
	if fn.props["MemorySize"] != float64(1536) || fn.props["Timeout"] != float64(29) {
		t.Errorf("profile: %v MiB, %v s", fn.props["MemorySize"], fn.props["Timeout"])
	}
	vars := fn.props["Environment"].(obj)["Variables"].(obj)
	for name, ref := range map[string]string{envUploadsBucket: "RefUploads", envUploadsKMSKey: "UploadsKey", envSumsubSecret: "SumsubSecret"} {
		if v := mustJSON(vars[name]); !strings.Contains(v, "Tenger-dev-Data") || !strings.Contains(v, ref) {
			t.Errorf("profile: %s = %s", name, v)
		}
	}
	// No other function gets them, but p2p the uploads' (it reads chat images).
	for name, f := range ourFunctions(t) {
		if name == "profile" {
			continue
		}
		v := f.props["Environment"].(obj)["Variables"].(obj)
		envs := []string{envUploadsBucket, envUploadsKMSKey, envSumsubSecret}
		if name == "p2p" {
			envs = []string{envSumsubSecret}
			if _, ok := v[envUploadsBucket]; !ok {
				t.Errorf("p2p lacks %s", envUploadsBucket)
			}
		}
		for _, env := range envs {
			if _, ok := v[env]; ok {
				t.Errorf("%s has %s", name, env)
			}
		}
	}
}

// uploadsBucketID is the logical id of the uploads bucket.
func uploadsBucketID(t *testing.T) string {
	t.Helper()
	for id := range resources("data", "AWS::S3::Bucket") {
		if strings.HasPrefix(id, "Uploads") && !strings.HasPrefix(id, "UploadsLogs") {
			return id
		}
	}
	t.Fatal("no uploads bucket")
	return ""
}

// TestUploadsBucket: private (public access blocked, bucket owner
// enforced, TLS 1.2 or later only), encrypted with its own rotating key
// (a bucket key), versioned, logged, kept when the stack goes; its
// lifecycle aborts incomplete multipart uploads, moves uploads to Glacier
// Instant Retrieval after 90 days, never expires a current object (the
// law keeps identity documents) and keeps a replaced or deleted version a
// year; the site's origins may GET and HEAD.
func TestUploadsBucket(t *testing.T) {
	id := uploadsBucketID(t)
	b := resources("data", "AWS::S3::Bucket")[id]
	p := props(b)
	if b["DeletionPolicy"] != "Retain" || b["UpdateReplacePolicy"] != "Retain" {
		t.Errorf("uploads bucket deletion %v / %v", b["DeletionPolicy"], b["UpdateReplacePolicy"])
	}
	if mustJSON(p["PublicAccessBlockConfiguration"]) != `{"BlockPublicAcls":true,"BlockPublicPolicy":true,"IgnorePublicAcls":true,"RestrictPublicBuckets":true}` {
		t.Errorf("public access %s", mustJSON(p["PublicAccessBlockConfiguration"]))
	}
	if mustJSON(p["OwnershipControls"]) != `{"Rules":[{"ObjectOwnership":"BucketOwnerEnforced"}]}` {
		t.Errorf("ownership %s", mustJSON(p["OwnershipControls"]))
	}
	if mustJSON(p["VersioningConfiguration"]) != `{"Status":"Enabled"}` {
		t.Errorf("versioning %s", mustJSON(p["VersioningConfiguration"]))
	}
	var keyID string
	for kid, k := range resources("data", "AWS::KMS::Key") {
		if strings.HasPrefix(kid, "UploadsKey") {
			keyID = kid
			kp := props(k)
			if kp["EnableKeyRotation"] != true || k["DeletionPolicy"] != "Retain" {
				t.Errorf("uploads key: rotation %v, deletion %v", kp["EnableKeyRotation"], k["DeletionPolicy"])
			}
			if policy := mustJSON(kp["KeyPolicy"]); strings.Contains(policy, "Role") || strings.Contains(policy, "Fn::ImportValue") {
				t.Errorf("uploads key policy names a role: %s", policy)
			}
		}
	}
	if keyID == "" {
		t.Fatal("no uploads key")
	}
	sse := asList(p["BucketEncryption"].(obj)["ServerSideEncryptionConfiguration"])[0].(obj)
	if def := sse["ServerSideEncryptionByDefault"].(obj); def["SSEAlgorithm"] != "aws:kms" || !strings.Contains(mustJSON(def["KMSMasterKeyID"]), keyID) ||
		sse["BucketKeyEnabled"] != true {
		t.Errorf("encryption %s", mustJSON(sse))
	}
	if logging := mustJSON(p["LoggingConfiguration"]); !strings.Contains(logging, "UploadsLogs") || !strings.Contains(logging, `"LogFilePrefix":"uploads/"`) {
		t.Errorf("access logs %s", logging)
	}

	rules := map[string]obj{}
	for _, r := range asList(p["LifecycleConfiguration"].(obj)["Rules"]) {
		rules[r.(obj)["Id"].(string)] = r.(obj)
		if _, ok := r.(obj)["ExpirationInDays"]; ok {
			t.Errorf("lifecycle rule %s expires current objects", mustJSON(r))
		}
		if _, ok := r.(obj)["ExpirationDate"]; ok {
			t.Errorf("lifecycle rule %s expires current objects", mustJSON(r))
		}
	}
	if r := rules["AbortIncompleteMultipartUploads"]; mustJSON(r["AbortIncompleteMultipartUpload"]) != `{"DaysAfterInitiation":1}` {
		t.Errorf("multipart rule %s", mustJSON(r))
	}
	if r := rules["UploadsToGlacierInstantRetrieval"]; r["Prefix"] != uploadsPrefix ||
		mustJSON(r["Transitions"]) != `[{"StorageClass":"GLACIER_IR","TransitionInDays":90}]` {
		t.Errorf("transition rule %s", mustJSON(r))
	}
	if r := rules["ExpireNoncurrentVersions"]; mustJSON(r["NoncurrentVersionExpiration"]) != `{"NoncurrentDays":365}` {
		t.Errorf("noncurrent rule %s", mustJSON(r))
	}

	cors := asList(p["CorsConfiguration"].(obj)["CorsRules"])
	if len(cors) != 1 {
		t.Fatalf("CORS %s", mustJSON(cors))
	}
	rule := cors[0].(obj)
	if mustJSON(rule["AllowedMethods"]) != `["GET","HEAD"]` {
		t.Errorf("CORS methods %s", mustJSON(rule["AllowedMethods"]))
	}
	for _, o := range []string{"https://tenger.example", "https://exchange.tenger.example"} {
		if !slices.Contains(asList(rule["AllowedOrigins"]), any(o)) {
			t.Errorf("CORS origins %s lack %s", mustJSON(rule["AllowedOrigins"]), o)
		}
	}

	// The bucket policy refuses plain HTTP and TLS before 1.2.
	var policy string
	for _, bp := range resources("data", "AWS::S3::BucketPolicy") {
		if strings.Contains(mustJSON(props(bp)["Bucket"]), `"`+id+`"`) {
			policy = mustJSON(props(bp)["PolicyDocument"])
		}
	}
	if !strings.Contains(policy, `"aws:SecureTransport":"false"`) || !strings.Contains(policy, `"s3:TlsVersion":1.2`) {
		t.Errorf("uploads bucket policy %s", policy)
	}
	// Its access log bucket keeps a year.
	for lid, l := range resources("data", "AWS::S3::Bucket") {
		if strings.HasPrefix(lid, "UploadsLogs") {
			if s := mustJSON(props(l)["LifecycleConfiguration"]); !strings.Contains(s, `"ExpirationInDays":365`) || l["DeletionPolicy"] != "Retain" {
				t.Errorf("uploads access logs %s, deletion %v", s, l["DeletionPolicy"])
			}
		}
	}
}

// TestUploadsGrants: the profile function may put, get and delete the
// objects under uploads/ of the uploads bucket and nothing else of S3,
// and use the uploads key only through S3; no other role touches the
// bucket or the key, but AWS Backup's role for the bucket, which may use
// the key.
func TestUploadsGrants(t *testing.T) {
	bucket := uploadsBucketID(t)
	var keyID string
	for id := range resources("data", "AWS::KMS::Key") {
		if strings.HasPrefix(id, "UploadsKey") {
			keyID = id
		}
	}
	fn := ourFunctions(t)["profile"]
	var objects, key bool
	for _, st := range fn.statements(t) {
		actions := actionsOf(st)
		res := mustJSON(st["Resource"])
		for _, a := range actions {
			if strings.HasPrefix(a, "s3:") && !slices.Contains([]string{"s3:PutObject", "s3:GetObject", "s3:DeleteObject"}, a) {
				t.Errorf("profile may %s", a)
			}
		}
		if slices.ContainsFunc(actions, func(a string) bool { return strings.HasPrefix(a, "s3:") }) {
			objects = true
			if !sameSet(actions, []string{"s3:PutObject", "s3:GetObject", "s3:DeleteObject"}) ||
				!strings.Contains(res, bucket) || !strings.HasSuffix(res, `"/uploads/*"]]}`) {
				t.Errorf("profile's S3 statement %s", mustJSON(st))
			}
		}
		if strings.Contains(res, keyID) {
			key = true
			if !sameSet(actions, []string{"kms:GenerateDataKey", "kms:Decrypt"}) ||
				mustJSON(st["Condition"]) != `{"StringEquals":{"kms:ViaService":"s3.`+testRegion+`.amazonaws.com"}}` {
				t.Errorf("profile's uploads key statement %s", mustJSON(st))
			}
		}
	}
	if !objects || !key {
		t.Errorf("profile: objects granted %v, key granted %v", objects, key)
	}
	for stack := range raw {
		for id, p := range resources(stack, "AWS::IAM::Policy") {
			doc := mustJSON(props(p)["PolicyDocument"])
			if !strings.Contains(doc, bucket) && !strings.Contains(doc, keyID) || strings.HasPrefix(id, "profileRole") {
				continue
			}
			// The p2p function reads uploads only: GetObject, and decryption through S3.
			if stack == "api" && strings.HasPrefix(id, "p2pRole") {
				for _, st := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
					s := st.(obj)
					res := mustJSON(s["Resource"])
					if !strings.Contains(res, bucket) && !strings.Contains(res, keyID) {
						continue
					}
					if a := actionsOf(s); !sameSet(a, []string{"s3:GetObject"}) && !sameSet(a, []string{"kms:Decrypt"}) {
						t.Errorf("p2p may %v on the uploads", a)
					}
				}
				continue
			}
			// AWS Backup's role for the bucket may use the key, and do nothing else here.
			if stack == "recovery" && strings.HasPrefix(id, "UploadsBackupRole") && !strings.Contains(doc, bucket) &&
				strings.Contains(doc, `"Action":["kms:Decrypt","kms:GenerateDataKey","kms:DescribeKey"]`) && strings.Count(doc, `"Action"`) == 1 {
				continue
			}
			t.Errorf("%s/%s names the uploads bucket or key: %s", stack, id, doc)
		}
	}
}

// TestSumsubSecret: Sumsub's keys are a secret of the data stack,
// encrypted with its customer-managed key, made from a template the
// operator overwrites (no value in the template; the webhook secret
// generated, the app token pair empty), read by the profile function only.
func TestSumsubSecret(t *testing.T) {
	var id string
	for sid, s := range resources("data", "AWS::SecretsManager::Secret") {
		if !strings.HasPrefix(sid, "SumsubSecret") {
			continue
		}
		id = sid
		p := props(s)
		gen, _ := p["GenerateSecretString"].(obj)
		var tpl map[string]string
		if err := json.Unmarshal([]byte(gen["SecretStringTemplate"].(string)), &tpl); err != nil || len(tpl) != 2 ||
			tpl["appToken"] != "" || tpl["secretKey"] != "" || gen["GenerateStringKey"] != "webhookSecret" {
			t.Errorf("template %v, generated %v", gen["SecretStringTemplate"], gen["GenerateStringKey"])
		}
		if _, given := p["SecretString"]; given {
			t.Error("a Sumsub secret value in the template")
		}
		if !strings.Contains(mustJSON(p["KmsKeyId"]), "SecretsKey") {
			t.Errorf("encrypted with %s", mustJSON(p["KmsKeyId"]))
		}
	}
	if id == "" {
		t.Fatal("no Sumsub secret")
	}
	readers := map[string]bool{}
	for name, f := range ourFunctions(t) {
		for _, st := range f.statements(t) {
			if strings.Contains(mustJSON(st["Resource"]), id) && slices.Contains(actionsOf(st), "secretsmanager:GetSecretValue") {
				readers[name] = true
			}
		}
	}
	if len(readers) != 1 || !readers["profile"] {
		t.Errorf("the Sumsub secret is read by %v, want the profile function only", readers)
	}
	expect(t, "the secret's ARN is an output of the data stack (the runbook's put-secret-value names it)", func() {
		templates["data"].HasOutput(jsii.String("SumsubSecretArn"), like(obj{}))
	})
}

// TestWAFUploadsScopeDown: the core rule set's body rules count in the
// group, and the rule right after it blocks on their labels unless the
// request is a POST to one of the upload paths; the known-bad-inputs group
// is left as it is.
func TestWAFUploadsScopeDown(t *testing.T) {
	var rules []any
	for _, a := range resources("edge", "AWS::WAFv2::WebACL") {
		rules = asList(props(a)["Rules"])
	}
	byName := map[string]obj{}
	var order []string
	for _, r := range rules {
		byName[r.(obj)["Name"].(string)] = r.(obj)
		order = append(order, r.(obj)["Name"].(string))
	}
	core := byName["Core"]["Statement"].(obj)["ManagedRuleGroupStatement"].(obj)
	var counted []string
	for _, o := range asList(core["RuleActionOverrides"]) {
		if mustJSON(o.(obj)["ActionToUse"]) != `{"Count":{}}` {
			t.Errorf("override %s", mustJSON(o))
		}
		counted = append(counted, o.(obj)["Name"].(string))
	}
	if !sameSet(counted, sortedKeys(coreBodyRules)) || !slices.Contains(counted, "SizeRestrictions_BODY") {
		t.Errorf("core rules counted %v", counted)
	}
	i := slices.Index(order, "Core")
	if i < 0 || i+1 >= len(order) || order[i+1] != "CoreBodyRulesOutsideUploads" {
		t.Fatalf("rules %v: the label rule must follow the core group", order)
	}
	rule := byName["CoreBodyRulesOutsideUploads"]
	if mustJSON(rule["Action"]) != `{"Block":{}}` {
		t.Errorf("label rule action %s", mustJSON(rule["Action"]))
	}
	and := asList(rule["Statement"].(obj)["AndStatement"].(obj)["Statements"])
	var labels []string
	for _, s := range asList(and[0].(obj)["OrStatement"].(obj)["Statements"]) {
		lm := s.(obj)["LabelMatchStatement"].(obj)
		if lm["Scope"] != "LABEL" {
			t.Errorf("label statement %s", mustJSON(lm))
		}
		labels = append(labels, lm["Key"].(string))
	}
	var want []string
	for _, l := range coreBodyRules {
		want = append(want, l)
	}
	if !sameSet(labels, want) || !slices.Contains(labels, "awswaf:managed:aws:core-rule-set:SizeRestrictions_Body") {
		t.Errorf("labels %v", labels)
	}
	not := mustJSON(and[1].(obj)["NotStatement"])
	for _, s := range []string{`"FieldToMatch":{"Method":{}},"PositionalConstraint":"EXACTLY","SearchString":"POST"`,
		`"PositionalConstraint":"EXACTLY","SearchString":"/fe-ex-api/common/upload_img",`,
		`"PositionalConstraint":"EXACTLY","SearchString":"/fe-ex-api/common/upload_img_auth",`} {
		if !strings.Contains(not, s) {
			t.Errorf("the exception lacks %s: %s", s, not)
		}
	}
	if kb := byName["KnownBadInputs"]["Statement"].(obj)["ManagedRuleGroupStatement"].(obj); kb["RuleActionOverrides"] != nil {
		t.Errorf("known bad inputs overridden: %s", mustJSON(kb))
	}
}

// TestSiteReadsUploads: the site's Content-Security-Policy lets its fetch
// follow the redirect to the uploads bucket's host, and keeps the rest.
func TestSiteReadsUploads(t *testing.T) {
	var csp string
	for _, r := range resources("web", "AWS::CloudFront::ResponseHeadersPolicy") {
		csp = mustJSON(props(r)["ResponseHeadersPolicyConfig"].(obj)["SecurityHeadersConfig"].(obj)["ContentSecurityPolicy"])
	}
	for _, s := range []string{`https://"`, "RegionalDomainName", "frame-ancestors 'none'", "connect-src 'self'"} {
		if !strings.Contains(csp, s) {
			t.Errorf("CSP %s lacks %s", csp, s)
		}
	}
}

// TestAdminFunction: the operators' function is in its own stack with a
// name operators type; nothing but IAM reaches it: no route of any API,
// no function URL, no resource policy; the Operators policy allows
// lambda:InvokeFunction on its live alias and nothing else. Its role
// holds the table as its key space declares (keyspace_test.go), e-mail
// and SMS for a support answer's notice, and no secret, bucket, queue,
// state machine or WebSocket API.
func TestAdminFunction(t *testing.T) {
	fn := ourFunctions(t)[adminFunction]
	if fn.stack != "admin" || fn.props["FunctionName"] != "tenger-dev-admin" {
		t.Fatalf("admin function in %s named %v", fn.stack, fn.props["FunctionName"])
	}
	for stack := range raw {
		if n := len(resources(stack, "AWS::Lambda::Url")); n > 0 {
			t.Errorf("%s has %d function URLs", stack, n)
		}
		for id, p := range resources(stack, "AWS::Lambda::Permission") {
			if s := mustJSON(props(p)["FunctionName"]); strings.Contains(s, "admin") {
				t.Errorf("%s/%s lets something invoke the admin function: %s", stack, id, mustJSON(props(p)))
			}
		}
		for id, i := range resources(stack, "AWS::ApiGatewayV2::Integration") {
			if strings.Contains(mustJSON(props(i)), "admin") {
				t.Errorf("%s/%s integrates the admin function", stack, id)
			}
		}
	}
	policies := resources("admin", "AWS::IAM::ManagedPolicy")
	if len(policies) != 1 {
		t.Fatalf("%d managed policies in the admin stack", len(policies))
	}
	live := liveAliasOf("admin", fn.id)
	for _, p := range policies {
		pp := props(p)
		sts := asList(pp["PolicyDocument"].(obj)["Statement"])
		if pp["ManagedPolicyName"] != "tenger-dev-operators" || len(sts) != 1 {
			t.Fatalf("operators policy %s", mustJSON(pp))
		}
		st := sts[0].(obj)
		if st["Effect"] != "Allow" || mustJSON(st["Action"]) != `"lambda:InvokeFunction"` || mustJSON(st["Resource"]) != `{"Ref":"`+live+`"}` {
			t.Errorf("operators statement %s, want InvokeFunction on %s", mustJSON(st), live)
		}
		if roles := pp["Roles"]; roles != nil {
			t.Errorf("the operators policy is attached by the stack: %s", mustJSON(roles))
		}
	}
	for _, st := range fn.statements(t) {
		for _, a := range actionsOf(st) {
			service, _, _ := strings.Cut(a, ":")
			switch service {
			case "dynamodb", "logs", "xray":
			case "ses", "sns":
				if a != "ses:SendEmail" && a != "sns:Publish" {
					t.Errorf("admin may %s", a)
				}
			default:
				t.Errorf("admin may %s (%s)", a, mustJSON(st["Resource"]))
			}
		}
	}
	vars := fn.props["Environment"].(obj)["Variables"].(obj)
	for _, env := range []string{"WS_ENDPOINT", envOriginKeySecret, envAuthKeySecret, envEngineKeySecret} {
		if _, ok := vars[env]; ok {
			t.Errorf("admin has %s", env)
		}
	}
	if vars["SMS_CALLING_CODES"] != "976" {
		t.Errorf("admin SMS_CALLING_CODES %v", vars["SMS_CALLING_CODES"])
	}
	if _, inVPC := fn.props["VpcConfig"]; inVPC {
		t.Error("the admin function runs in the VPC: it calls no engine")
	}
	expect(t, "the function's name and the operators policy are outputs", func() {
		templates["admin"].HasOutput(jsii.String("AdminFunctionName"), like(obj{}))
		templates["admin"].HasOutput(jsii.String("OperatorsPolicyArn"), like(obj{}))
	})
}

// TestEveryFunctionIsBuilt: every function the stacks deploy has its main
// under functions/<name>, which scripts/build-lambdas.sh builds (it builds
// every functions/*/main.go).
func TestEveryFunctionIsBuilt(t *testing.T) {
	for _, name := range FunctionNames() {
		if _, err := os.Stat(filepath.Join("..", "functions", name, "main.go")); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if !slices.Contains(FunctionNames(), adminFunction) {
		t.Errorf("FunctionNames %v lacks the admin function", FunctionNames())
	}
}
