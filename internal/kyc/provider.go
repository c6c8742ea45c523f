package kyc

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Provider is the verification provider's port: Sumsub (kyc/sumsub) in
// production, the simulator (kyc/kycsim) in `tenger serve --dev`. Both are
// run by one contract suite (kyc/kyctest).
type Provider interface {
	// Name names the adapter in answers and records ("sumsub", "simulator").
	Name() string
	// CreateApplicant creates the user's applicant at a provider level, or
	// returns the one the user has already (one applicant per user, at
	// whatever level it is now).
	CreateApplicant(ctx context.Context, uid, providerLevel string) (ProviderApplicant, error)
	// MoveToLevel moves an applicant to another level (refused by the
	// provider while a review runs).
	MoveToLevel(ctx context.Context, applicantID, providerLevel string) error
	// AccessToken is a token the web app opens the provider's flow with
	// (Sumsub's WebSDK; the simulator's page) for the user at a level.
	AccessToken(ctx context.Context, uid, providerLevel string, ttl time.Duration) (AccessToken, error)
	// ApplicantStatus reads an applicant's review; ErrApplicantNotFound
	// when the provider has no such applicant.
	ApplicantStatus(ctx context.Context, applicantID string) (ProviderReview, error)
	// ApplicantIdentity reads the person the provider recognised.
	ApplicantIdentity(ctx context.Context, applicantID string) (Identity, error)
}

// ErrApplicantNotFound: the provider has no such applicant.
var ErrApplicantNotFound = errors.New("kyc: the provider has no such applicant")

// ProviderApplicant is an applicant as the provider created or found it.
type ProviderApplicant struct {
	ID            string
	UserID        string
	ProviderLevel string
	ReviewStatus  string
	CreatedMs     int64
}

// AccessToken is a token for the provider's web flow.
type AccessToken struct {
	Token  string
	UserID string
	// WebURL is the page that takes the token when the provider is not
	// embedded with its own SDK (the simulator's /dev/kyc); empty for
	// Sumsub, whose WebSDK takes the token.
	WebURL string
}

// ProviderReview is an applicant's review as the provider reports it.
type ProviderReview struct {
	ReviewID      string
	AttemptID     string
	ProviderLevel string
	ReviewStatus  string
	Answer        string
	RejectType    string
	RejectLabels  []string
	Reason        string
	ClientComment string
	CreatedMs     int64
	// ReviewedMs is when the check ended (0 while it runs).
	ReviewedMs int64
}

// WebhookDecoder checks a webhook's signature over its raw body and reads
// the event it reports (sumsub.Webhooks: the simulator signs as Sumsub
// does, so one decoder serves both). It answers apperr codes: a bad or
// missing digest CodeKYCWebhookDigest, an unknown algorithm
// CodeKYCWebhookAlg, a signed body that is not an event
// CodeKYCWebhookPayload.
type WebhookDecoder interface {
	DecodeWebhook(header http.Header, body []byte) (Event, error)
}
