package sumsub

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"hash"
	"net/http"
	"strconv"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/kyc"
)

// Webhook headers: the digest of the raw body, keyed by the webhook's
// secret key, and the algorithm that made it.
const (
	HeaderDigest    = "X-Payload-Digest"
	HeaderDigestAlg = "X-Payload-Digest-Alg"
)

// Digest algorithms Sumsub names in X-Payload-Digest-Alg.
const (
	AlgSHA1   = "HMAC_SHA1_HEX"
	AlgSHA256 = "HMAC_SHA256_HEX"
	AlgSHA512 = "HMAC_SHA512_HEX"
)

// hashes are the algorithms accepted; any other name is refused, never
// guessed.
var hashes = map[string]func() hash.Hash{AlgSHA1: sha1.New, AlgSHA256: sha256.New, AlgSHA512: sha512.New}

// Digest is the X-Payload-Digest of body under alg: the lowercase hex HMAC
// of the raw body keyed by the webhook's secret key.
func Digest(alg string, secret, body []byte) (string, error) {
	h, ok := hashes[alg]
	if !ok {
		return "", apperr.New(apperr.CodeKYCWebhookAlg, alg)
	}
	mac := hmac.New(h, secret)
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil)), nil
}

// VerifyDigest checks a webhook's digest in constant time: an unknown
// algorithm is CodeKYCWebhookAlg, a missing or wrong digest
// CodeKYCWebhookDigest.
func VerifyDigest(alg, digest string, secret, body []byte) error {
	want, err := Digest(strings.TrimSpace(alg), secret, body)
	if err != nil {
		return err
	}
	got := strings.ToLower(strings.TrimSpace(digest))
	if len(secret) == 0 || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		return apperr.New(apperr.CodeKYCWebhookDigest)
	}
	return nil
}

// ReviewResult is a webhook's reviewResult.
type ReviewResult struct {
	ModerationComment string   `json:"moderationComment,omitempty"`
	ClientComment     string   `json:"clientComment,omitempty"`
	ReviewAnswer      string   `json:"reviewAnswer"`
	RejectLabels      []string `json:"rejectLabels,omitempty"`
	ReviewRejectType  string   `json:"reviewRejectType,omitempty"`
	ButtonIDs         []string `json:"buttonIds,omitempty"`
}

// Payload is a user verification webhook's body, as Sumsub sends it (and
// the simulator, which writes the same shape).
type Payload struct {
	ApplicantID    string        `json:"applicantId"`
	InspectionID   string        `json:"inspectionId,omitempty"`
	CorrelationID  string        `json:"correlationId,omitempty"`
	ExternalUserID string        `json:"externalUserId,omitempty"`
	LevelName      string        `json:"levelName"`
	Type           string        `json:"type"`
	SandboxMode    bool          `json:"sandboxMode"`
	ReviewStatus   string        `json:"reviewStatus,omitempty"`
	CreatedAtMs    string        `json:"createdAtMs,omitempty"`
	ClientID       string        `json:"clientId,omitempty"`
	ApplicantType  string        `json:"applicantType,omitempty"`
	ReviewResult   *ReviewResult `json:"reviewResult,omitempty"`
}

// Webhooks checks and reads Sumsub's webhooks (kyc.WebhookDecoder).
type Webhooks struct {
	// Secret is the webhook's secret key (Dev space → Webhooks in
	// Sumsub's dashboard; the simulator's own locally).
	Secret []byte
}

var _ kyc.WebhookDecoder = Webhooks{}

// stateKinds are the webhook types that change an applicant: they must say
// when they happened, or their order could not be told.
var stateKinds = map[kyc.EventKind]bool{kyc.EventPending: true, kyc.EventOnHold: true, kyc.EventReviewed: true,
	kyc.EventReset: true, kyc.EventLevelChanged: true}

// DecodeWebhook verifies the digest over the raw body first and reads the
// payload only then, so nothing unsigned is ever parsed. The event's key
// (applied once) is its type, correlation id and time, which a re-sent
// webhook repeats; without a correlation id, the body's hash.
func (w Webhooks) DecodeWebhook(h http.Header, body []byte) (kyc.Event, error) {
	alg, digest := h.Get(HeaderDigestAlg), h.Get(HeaderDigest)
	if alg == "" || digest == "" {
		return kyc.Event{}, apperr.New(apperr.CodeKYCWebhookDigest)
	}
	if err := VerifyDigest(alg, digest, w.Secret, body); err != nil {
		return kyc.Event{}, err
	}
	var p Payload
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&p); err != nil {
		return kyc.Event{}, apperr.New(apperr.CodeKYCWebhookPayload, "not a JSON object")
	}
	if p.Type == "" || len(p.Type) > 64 {
		return kyc.Event{}, apperr.New(apperr.CodeKYCWebhookPayload, "type")
	}
	if (p.ApplicantID == "" && p.ExternalUserID == "") || len(p.ApplicantID) > 128 || len(p.ExternalUserID) > 128 {
		return kyc.Event{}, apperr.New(apperr.CodeKYCWebhookPayload, "applicantId")
	}
	ev := kyc.Event{Kind: kyc.EventKind(p.Type), ApplicantID: p.ApplicantID, UserID: p.ExternalUserID,
		ProviderLevel: p.LevelName, AtMs: ParseTime(p.CreatedAtMs)}
	if stateKinds[ev.Kind] && ev.AtMs <= 0 {
		return kyc.Event{}, apperr.New(apperr.CodeKYCWebhookPayload, "createdAtMs")
	}
	if ev.Kind == kyc.EventReviewed {
		rr := p.ReviewResult
		if rr == nil || (rr.ReviewAnswer != kyc.AnswerGreen && rr.ReviewAnswer != kyc.AnswerRed) {
			return kyc.Event{}, apperr.New(apperr.CodeKYCWebhookPayload, "reviewResult.reviewAnswer")
		}
		ev.Answer, ev.RejectType, ev.RejectLabels = rr.ReviewAnswer, rr.ReviewRejectType, rr.RejectLabels
		ev.Reason, ev.ClientComment = strings.TrimSpace(rr.ModerationComment), strings.TrimSpace(rr.ClientComment)
	}
	if p.CorrelationID != "" {
		ev.Key = "sumsub|" + p.Type + "|" + p.CorrelationID + "|" + strconv.FormatInt(ev.AtMs, 10)
	} else {
		sum := sha256.Sum256(body)
		ev.Key = "sumsub|body|" + hex.EncodeToString(sum[:])
	}
	return ev, nil
}

// SignWebhook writes the digest headers of body as Sumsub sends them (the
// simulator's webhooks, and tests).
func SignWebhook(h http.Header, alg string, secret, body []byte) error {
	d, err := Digest(alg, secret, body)
	if err != nil {
		return err
	}
	h.Set(HeaderDigestAlg, alg)
	h.Set(HeaderDigest, d)
	return nil
}
