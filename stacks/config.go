// Package stacks is the CDK app of Tenger's AWS runtime: one stack per
// concern (data, network, realtime, workflows, api, engine, web,
// observability), wired by Build. The same functions and engine that run in
// `tenger serve` are deployed here; see stacks/README.md for what a deploy
// creates and what it costs at idle.
package stacks

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"

	"tenger/internal/notify/snsnotify"
	"tenger/internal/refprice"
	"tenger/internal/webapp"
)

// Stage names.
const (
	StageProd = "prod"
	StageDev  = "dev"
)

// Config is what the app needs to know besides the code.
type Config struct {
	// Stage is "prod" or any other name (dev, test, a developer's name).
	// Production keeps the table on stack deletion and turns on deletion
	// protection.
	Stage string
	// RepoRoot is the repository root; the engine image is built from it.
	RepoRoot string
	// LambdaDir holds one directory per function with its bootstrap binary
	// (build/lambda/<name>/bootstrap, made by scripts/build-lambdas.sh).
	LambdaDir string
	// SiteOrigins are the browser origins allowed by the HTTP API's CORS
	// policy (the site's own domain and, outside prod, the Vite dev server).
	SiteOrigins []string
	// Flags are the web app's feature switches written into config.json.
	Flags webapp.Flags
	// WebDist is the built frontend (frontend/dist); when it does not exist
	// only config.json is deployed to the site bucket.
	WebDist string
	// PriceSources are the external sources of the reference prices the
	// engine polls (refprice.ParseSources: "binance,okx"); empty: the
	// exchange's own books only.
	PriceSources string
	// Account and Region place the stacks: the account and region of the
	// credentials in use (CDK_DEFAULT_ACCOUNT, CDK_DEFAULT_REGION). Without
	// them (an offline synth) the stacks stay environment-agnostic and the
	// edge is not built, as it lives in us-east-1 and is referred to from
	// the site's stack in the stage's region.
	Account, Region string
	// Edge configures CloudFront and AWS WAF in front of the site and the
	// APIs (EdgeStack).
	Edge EdgeConfig
	// SMSCallingCodes are the countries verification codes may be texted
	// to, as calling codes (context smsCallingCodes, "976" — Mongolia — by
	// default): SMS pumping to premium numbers abroad is refused before SNS.
	SMSCallingCodes []string
	// BackupCopyVault and DRRegion: see ContextBackupCopyVault and
	// ContextDRRegion.
	BackupCopyVault, DRRegion string
	// StageAccounts pins stages to AWS accounts (context stageAccounts,
	// "prod=111111111111,staging=222222222222"): a stage listed there is
	// deployed only with that account's credentials, so a prod deploy
	// cannot land in a developer's account nor a dev deploy in prod's.
	StageAccounts map[string]string
}

// ContextStageAccounts names the context value pinning stages to accounts.
const ContextStageAccounts = "stageAccounts"

// ContextSMSCallingCodes names the context value with the calling codes of
// the countries SMS may go to ("976,7").
const ContextSMSCallingCodes = "smsCallingCodes"

// DefaultSMSCallingCodes is Mongolia's.
const DefaultSMSCallingCodes = "976"

// Context keys read by ConfigFromContext (`cdk deploy -c stage=prod`).
const (
	ContextStage       = "stage"
	ContextSiteOrigins = "siteOrigins"
	ContextLambdaDir   = "lambdaDir"
	ContextWebDist     = "webDist"
	// ContextFuturesLive and ContextWalletLive switch the web app's flags
	// ("true" turns a capability on).
	ContextFuturesLive = "futuresLive"
	ContextWalletLive  = "walletLive"
	// ContextPriceSources lists the reference prices' external sources
	// (`-c priceSources=binance,okx`).
	ContextPriceSources = "priceSources"
)

// ConfigFromContext reads the config from CDK context values, defaulting
// paths relative to repoRoot.
func ConfigFromContext(app awscdk.App, repoRoot string) Config {
	get := func(key, def string) string {
		if v, ok := app.Node().TryGetContext(&key).(string); ok && v != "" {
			return v
		}
		return def
	}
	cfg := Config{
		Stage:     get(ContextStage, StageDev),
		RepoRoot:  repoRoot,
		LambdaDir: get(ContextLambdaDir, filepath.Join(repoRoot, "build", "lambda")),
		WebDist:   get(ContextWebDist, filepath.Join(repoRoot, "frontend", "dist")),
		// The sources are checked here, so a misspelt one fails the synth
		// rather than the engine's start.
		PriceSources: get(ContextPriceSources, ""),
	}
	cfg.Account, cfg.Region = os.Getenv("CDK_DEFAULT_ACCOUNT"), os.Getenv("CDK_DEFAULT_REGION")
	cfg.Edge = edgeFromContext(get)
	cfg.BackupCopyVault, cfg.DRRegion = get(ContextBackupCopyVault, ""), get(ContextDRRegion, "")
	for _, pair := range strings.Split(get(ContextStageAccounts, ""), ",") {
		if stage, acct, ok := strings.Cut(strings.TrimSpace(pair), "="); ok && stage != "" {
			if cfg.StageAccounts == nil {
				cfg.StageAccounts = map[string]string{}
			}
			cfg.StageAccounts[strings.TrimSpace(stage)] = strings.TrimSpace(acct)
		}
	}
	cfg.SMSCallingCodes = snsnotify.ParseCallingCodes(get(ContextSMSCallingCodes, DefaultSMSCallingCodes))
	cfg.Flags.FuturesLive = get(ContextFuturesLive, "") == "true"
	cfg.Flags.WalletLive = get(ContextWalletLive, "") == "true"
	if o := get(ContextSiteOrigins, ""); o != "" {
		for _, s := range strings.Split(o, ",") {
			if s = strings.TrimSpace(s); s != "" {
				cfg.SiteOrigins = append(cfg.SiteOrigins, s)
			}
		}
	}
	return cfg
}

// Validate checks the config before any construct is made, so a missing
// build gives one clear message instead of a deep jsii error.
func (c Config) Validate(functions []string) error {
	if c.Stage == "" {
		return errors.New("stacks: stage is empty")
	}
	if _, err := refprice.ParseSources(c.PriceSources, nil); err != nil {
		return fmt.Errorf("stacks: %s: %w", ContextPriceSources, err)
	}
	if err := c.Edge.validate(c.Account != "" && c.Region != ""); err != nil {
		return err
	}
	if want, pinned := c.StageAccounts[c.Stage]; pinned && c.Account != want {
		return fmt.Errorf("stacks: stage %s deploys to account %s only (%s), and the credentials in use are account %q",
			c.Stage, want, ContextStageAccounts, c.Account)
	}
	for stage, acct := range c.StageAccounts {
		if stage != c.Stage && acct == c.Account && c.Account != "" {
			return fmt.Errorf("stacks: account %s is stage %s's (%s); stage %s may not deploy there", acct, stage, ContextStageAccounts, c.Stage)
		}
	}
	var missing []string
	for _, name := range functions {
		if _, err := os.Stat(filepath.Join(c.LambdaDir, name, "bootstrap")); err != nil {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("stacks: no bootstrap binary for %s under %s; build the functions first "+
			"(scripts/build-lambdas.sh, or make lambdas)", strings.Join(missing, ", "), c.LambdaDir)
	}
	if _, err := os.Stat(filepath.Join(c.RepoRoot, "engine-fargate", "Dockerfile")); err != nil {
		return fmt.Errorf("stacks: engine-fargate/Dockerfile not found under %s", c.RepoRoot)
	}
	return nil
}

// origins returns the CORS origins: the configured ones, plus the local dev
// server outside production.
func (c Config) origins() []string {
	out := append([]string(nil), c.SiteOrigins...)
	if c.Stage != StageProd {
		out = append(out, "http://localhost:5173", "http://localhost:8080")
	}
	return out
}

// placed reports whether the stacks are placed in an account and region,
// which the edge needs.
func (c Config) placed() bool { return c.Account != "" && c.Region != "" }

// prefix names resources of this stage ("tenger-dev").
func (c Config) prefix() string { return "tenger-" + c.Stage }
