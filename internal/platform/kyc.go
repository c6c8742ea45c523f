package platform

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"tenger/internal/apperr"
	"tenger/internal/httpapi"
	"tenger/internal/kyc"
	"tenger/internal/kyc/kycsim"
	"tenger/internal/kyc/sumsub"
	"tenger/internal/upload"
	"tenger/internal/withdraw"
)

// Environment of the Sumsub adapter. In AWS the profile function gets
// EnvSumsubSecret, a Secrets Manager secret holding the three keys as JSON
// {"appToken","secretKey","webhookSecret"}; locally (a Sumsub sandbox from
// `tenger serve` without --dev) and in tests the three values are given
// directly.
const (
	EnvSumsubSecret        = "SUMSUB_SECRET_ARN"
	EnvSumsubAppToken      = "SUMSUB_APP_TOKEN"
	EnvSumsubSecretKey     = "SUMSUB_SECRET_KEY"
	EnvSumsubWebhookSecret = "SUMSUB_WEBHOOK_SECRET"
	// EnvSumsubBaseURL overrides https://api.sumsub.com (tests).
	EnvSumsubBaseURL = "SUMSUB_BASE_URL"
)

// kycState holds the KYC service of a Deps, built once.
type kycState struct {
	once sync.Once
	svc  *kyc.Service
	// sim is the simulator of --dev (nil otherwise).
	sim *kycsim.Sim
	// secrets reads Secrets Manager (set by NewAWS; nil locally).
	secrets func() secretGetter
}

// KYC is identity verification (built once per Deps): with Config.Dev the
// simulator is its provider; otherwise Sumsub when its keys are in the
// environment; otherwise none, and the verification calls answer
// CodeKYCUnavailable while the limits still apply. The wallet's functions
// use it only for the withdrawal limits (Funds), so the Sumsub secret is
// read when a call first needs the provider, never at a cold start.
func (d *Deps) KYC() *kyc.Service {
	d.kyc.once.Do(func() {
		o := kyc.Options{Store: d.Store, VerifiedWithdrawDailyUSDT: withdraw.DefaultDailyLimitUSDT, Now: d.Now,
			Log: d.Log.With().Str("service", "kyc").Logger()}
		switch {
		case d.Config.Dev:
			secret := devWebhookSecret(d.SecretKey)
			d.kyc.sim = kycsim.New(kycsim.Options{Store: d.Store, WebhookSecret: secret, Now: d.Now,
				Log: d.Log.With().Str("service", "kyc-simulator").Logger()})
			o.Provider, o.Webhooks = d.kyc.sim, sumsub.Webhooks{Secret: secret}
		case sumsubConfigured():
			p := &lazySumsub{secrets: d.kyc.secrets}
			o.Provider, o.Webhooks = p, p
		}
		d.kyc.svc = kyc.New(o)
	})
	return d.kyc.svc
}

// devWebhookSecret is the simulator's webhook secret: derived from the
// data directory's secret key, so it is nobody's constant and the
// simulator and the webhook route agree on it across restarts.
func devWebhookSecret(key []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("tenger kyc simulator webhook secret"))
	return mac.Sum(nil)
}

// kycArea are the verification routers of the profile area: the calls and
// the provider's webhook; with Config.Dev also the simulator's page and
// reviewer, whose webhooks go through the webhook route built here.
func (d *Deps) kycArea(sessions httpapi.SessionResolver) []*httpapi.Router {
	r := httpapi.NewKYCRouter(d.KYC(), d.APIOptions("profile", sessions))
	out := []*httpapi.Router{r}
	if sim := d.kyc.sim; sim != nil {
		sim.SetWebhookTarget(r)
		// The document image of the simulator's form must be an upload of
		// the user's (when this deployment stores uploads).
		if up := d.Uploads(); up != nil {
			sim.SetDocumentCheck(kycDocuments{up})
		}
		out = append(out, httpapi.NewDevKYCRouter(sim, d.APIOptions("dev-kyc", sessions)))
	}
	return out
}

// kycDocuments checks a document image's upload id with the upload
// service: the user's own upload of an identity document (imageType=1), or
// of imageType=2, which the web app's upload call sends today.
type kycDocuments struct{ up *upload.Service }

// DocumentCheck is kycsim.DocumentCheck.
func (k kycDocuments) DocumentCheck(ctx context.Context, uid, uploadID string) error {
	_, err := k.up.Owned(ctx, uid, uploadID, upload.PurposeIdentityDocument, upload.PurposeCorporateDocument)
	return err
}

// KYCSimulator is the verification simulator of --dev (nil otherwise).
func (d *Deps) KYCSimulator() *kycsim.Sim {
	d.KYC()
	return d.kyc.sim
}

func sumsubConfigured() bool {
	return os.Getenv(EnvSumsubSecret) != "" || os.Getenv(EnvSumsubAppToken) != ""
}

// sumsubKeys are the Sumsub secret's contents.
type sumsubKeys struct {
	AppToken      string `json:"appToken"`
	SecretKey     string `json:"secretKey"`
	WebhookSecret string `json:"webhookSecret"`
}

// lazySumsub is the Sumsub adapter whose keys are read on first use (from
// the environment, or the secret EnvSumsubSecret names). A failed read is
// tried again on the next call: the call answers CodeKYCUnavailable and a
// webhook is sent again by Sumsub.
type lazySumsub struct {
	secrets func() secretGetter
	mu      sync.Mutex
	client  *sumsub.Client
	hooks   sumsub.Webhooks
}

var (
	_ kyc.Provider       = (*lazySumsub)(nil)
	_ kyc.WebhookDecoder = (*lazySumsub)(nil)
)

func (l *lazySumsub) load(ctx context.Context) (*sumsub.Client, sumsub.Webhooks, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.client != nil {
		return l.client, l.hooks, nil
	}
	keys := sumsubKeys{AppToken: os.Getenv(EnvSumsubAppToken), SecretKey: os.Getenv(EnvSumsubSecretKey),
		WebhookSecret: os.Getenv(EnvSumsubWebhookSecret)}
	if arn := os.Getenv(EnvSumsubSecret); arn != "" {
		if l.secrets == nil {
			return nil, sumsub.Webhooks{}, errors.New("platform: " + EnvSumsubSecret + " is set outside AWS")
		}
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		out, err := l.secrets().GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String(arn)})
		if err != nil {
			return nil, sumsub.Webhooks{}, fmt.Errorf("platform: read the Sumsub secret: %w", err)
		}
		if out.SecretString == nil || json.Unmarshal([]byte(*out.SecretString), &keys) != nil {
			return nil, sumsub.Webhooks{}, errors.New("platform: the Sumsub secret is not JSON {appToken, secretKey, webhookSecret}")
		}
	}
	if strings.TrimSpace(keys.WebhookSecret) == "" {
		return nil, sumsub.Webhooks{}, errors.New("platform: the Sumsub webhook secret is missing")
	}
	c, err := sumsub.New(sumsub.Config{BaseURL: os.Getenv(EnvSumsubBaseURL), AppToken: keys.AppToken, SecretKey: keys.SecretKey})
	if err != nil {
		return nil, sumsub.Webhooks{}, err
	}
	l.client, l.hooks = c, sumsub.Webhooks{Secret: []byte(keys.WebhookSecret)}
	return l.client, l.hooks, nil
}

// The port's calls read the keys first, then ask the client.

// Name names the adapter.
func (l *lazySumsub) Name() string { return "sumsub" }

func (l *lazySumsub) CreateApplicant(ctx context.Context, uid, level string) (kyc.ProviderApplicant, error) {
	c, _, err := l.load(ctx)
	if err != nil {
		return kyc.ProviderApplicant{}, err
	}
	return c.CreateApplicant(ctx, uid, level)
}

func (l *lazySumsub) MoveToLevel(ctx context.Context, applicantID, level string) error {
	c, _, err := l.load(ctx)
	if err != nil {
		return err
	}
	return c.MoveToLevel(ctx, applicantID, level)
}

func (l *lazySumsub) AccessToken(ctx context.Context, uid, level string, ttl time.Duration) (kyc.AccessToken, error) {
	c, _, err := l.load(ctx)
	if err != nil {
		return kyc.AccessToken{}, err
	}
	return c.AccessToken(ctx, uid, level, ttl)
}

func (l *lazySumsub) ApplicantStatus(ctx context.Context, applicantID string) (kyc.ProviderReview, error) {
	c, _, err := l.load(ctx)
	if err != nil {
		return kyc.ProviderReview{}, err
	}
	return c.ApplicantStatus(ctx, applicantID)
}

func (l *lazySumsub) ApplicantIdentity(ctx context.Context, applicantID string) (kyc.Identity, error) {
	c, _, err := l.load(ctx)
	if err != nil {
		return kyc.Identity{}, err
	}
	return c.ApplicantIdentity(ctx, applicantID)
}

// DecodeWebhook checks a webhook with the secret once it is read; without
// it the webhook is refused as unavailable (Sumsub sends it again).
func (l *lazySumsub) DecodeWebhook(h http.Header, body []byte) (kyc.Event, error) {
	_, hooks, err := l.load(context.Background())
	if err != nil {
		return kyc.Event{}, apperr.New(apperr.CodeKYCUnavailable).WithCause(err)
	}
	return hooks.DecodeWebhook(h, body)
}
