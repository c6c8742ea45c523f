// Package kycsim is the local verification provider of `tenger serve
// --dev`: it implements the provider port (kyc.Provider) on the store, and
// stands in for the provider's web flow with a page (/dev/kyc) where the
// user, named by the access token the web app got from
// /fe-ex-api/sumsub/get_access_token, sends a name, date of birth, country,
// document number and a document image (an upload id). A reviewer's answer
// (/dev/kyc/review, or the page's reviewer buttons) is sent to the
// exchange's own webhook route as Sumsub sends it: the same payload, signed
// with the same digest, so the same verification code runs.
//
// Storage layout:
//
//	pk                             sk          what
//	KYC#SIM#<applicantId>          APPLICANT   uid, providerLevel, reviewStatus, answer, rejectType,
//	                                           rejectLabels, moderationComment, clientComment, reviewId,
//	                                           attemptId, attemptCnt, created, reviewed; what the user sent:
//	                                           firstName, lastName, dob, country, docNumber, uploadId, submitted
//	KYC#SIMTOKEN#<sha256(token)>   TOKEN       uid, providerLevel, expiresAt, ttl
//
// An applicant's id is derived from the user id, so creating one is
// idempotent without an index.
package kycsim

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/kyc"
	"tenger/internal/kyc/sumsub"
	"tenger/internal/store"
)

// DefaultWebhookPath is the exchange's webhook route the simulator sends to.
const DefaultWebhookPath = "/fe-ex-api/sumsub/webhook"

// PagePath is the simulator's page (the access token's WebURL).
const PagePath = "/dev/kyc"

// DocumentCheck checks that an upload id names a document image the user
// uploaded (internal/upload's upload_img_auth?imageType=2, connected by
// the platform): an error refuses the form.
type DocumentCheck interface {
	DocumentCheck(ctx context.Context, uid, uploadID string) error
}

// Options configure the simulator.
type Options struct {
	Store store.Store
	// WebhookSecret signs the webhooks; the exchange's webhook decoder
	// must hold the same (the platform derives both from its secret key).
	WebhookSecret []byte
	// WebhookPath is the exchange's webhook route (default DefaultWebhookPath).
	WebhookPath string
	// Alg is the digest algorithm (default HMAC_SHA256_HEX, Sumsub's default).
	Alg string
	// Documents, when set, checks the document image's upload id; without
	// it any well-formed upload id is taken (the upload service is not
	// connected).
	Documents DocumentCheck
	Now       func() time.Time
	Log       zerolog.Logger
}

// Sim is the simulator.
type Sim struct {
	o      Options
	mu     sync.RWMutex
	target http.Handler
}

var _ kyc.Provider = (*Sim)(nil)

// New builds the simulator.
func New(o Options) *Sim {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.WebhookPath == "" {
		o.WebhookPath = DefaultWebhookPath
	}
	if o.Alg == "" {
		o.Alg = sumsub.AlgSHA256
	}
	return &Sim{o: o}
}

// SetWebhookTarget sets the handler that serves the exchange's webhook
// route (the KYC router): webhooks go through it as HTTP requests, not
// around it.
func (s *Sim) SetWebhookTarget(h http.Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.target = h
}

// SetDocumentCheck connects the upload service's check of document images.
func (s *Sim) SetDocumentCheck(d DocumentCheck) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.o.Documents = d
}

// Name names the adapter.
func (s *Sim) Name() string { return "simulator" }

// ApplicantID is the simulator's applicant id of a user: 24 hex
// characters, as Sumsub's ids are.
func ApplicantID(uid string) string {
	h := sha256.Sum256([]byte("tenger kyc simulator|" + uid))
	return hex.EncodeToString(h[:12])
}

func applicantKey(id string) store.Key { return store.Key{PK: "KYC#SIM#" + id, SK: "APPLICANT"} }

func tokenKey(token string) store.Key {
	h := sha256.Sum256([]byte(token))
	return store.Key{PK: "KYC#SIMTOKEN#" + hex.EncodeToString(h[:]), SK: "TOKEN"}
}

// Applicant is an applicant as the simulator (the provider) keeps it.
type Applicant struct {
	ID, UserID, ProviderLevel, ReviewStatus       string
	Answer, RejectType, Moderation, ClientComment string
	RejectLabels                                  []string
	ReviewID, AttemptID                           string
	AttemptCnt                                    int64
	Created, Reviewed, Submitted                  int64
	FirstName, LastName, DOB, Country, DocNumber  string
	UploadID                                      string
}

func applicantOf(it store.Item) Applicant {
	a := Applicant{ID: strings.TrimPrefix(it.Str(store.AttrPK), "KYC#SIM#"), UserID: it.Str("uid"),
		ProviderLevel: it.Str("providerLevel"), ReviewStatus: it.Str("reviewStatus"), Answer: it.Str("answer"),
		RejectType: it.Str("rejectType"), Moderation: it.Str("moderationComment"), ClientComment: it.Str("clientComment"),
		ReviewID: it.Str("reviewId"), AttemptID: it.Str("attemptId"), AttemptCnt: it.Int("attemptCnt"),
		Created: it.Int("created"), Reviewed: it.Int("reviewed"), Submitted: it.Int("submitted"),
		FirstName: it.Str("firstName"), LastName: it.Str("lastName"), DOB: it.Str("dob"), Country: it.Str("country"),
		DocNumber: it.Str("docNumber"), UploadID: it.Str("uploadId")}
	if l, ok := it["rejectLabels"].([]any); ok {
		for _, v := range l {
			if s, ok := v.(string); ok {
				a.RejectLabels = append(a.RejectLabels, s)
			}
		}
	}
	return a
}

func (s *Sim) get(ctx context.Context, id string) (Applicant, error) {
	it, err := s.o.Store.Get(ctx, applicantKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return Applicant{}, kyc.ErrApplicantNotFound
	}
	if err != nil {
		return Applicant{}, err
	}
	return applicantOf(it), nil
}

// Applicant reads the simulator's applicant of a user.
func (s *Sim) Applicant(ctx context.Context, uid string) (Applicant, error) {
	return s.get(ctx, ApplicantID(uid))
}

func shortID() string {
	b := make([]byte, 3)
	if _, err := rand.Read(b); err != nil {
		panic("kycsim: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b)[:5]
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("kycsim: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// CreateApplicant creates the user's applicant at a level, or returns the
// one the user has (at whatever level it is).
func (s *Sim) CreateApplicant(ctx context.Context, uid, providerLevel string) (kyc.ProviderApplicant, error) {
	if uid == "" || providerLevel == "" {
		return kyc.ProviderApplicant{}, errors.New("kycsim: a user id and a level are required")
	}
	id := ApplicantID(uid)
	k := applicantKey(id)
	err := s.o.Store.Put(ctx, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "uid": uid, "providerLevel": providerLevel,
		"reviewStatus": kyc.ReviewInit, "reviewId": shortID(), "attemptId": shortID(), "attemptCnt": 0,
		"created": s.o.Now().UnixMilli()}, store.ItemNotExists())
	if err != nil && !errors.Is(err, store.ErrConditionFailed) {
		return kyc.ProviderApplicant{}, err
	}
	a, err := s.get(ctx, id)
	if err != nil {
		return kyc.ProviderApplicant{}, err
	}
	return kyc.ProviderApplicant{ID: a.ID, UserID: a.UserID, ProviderLevel: a.ProviderLevel, ReviewStatus: a.ReviewStatus,
		CreatedMs: a.Created}, nil
}

// ErrUnderReview: the applicant cannot change level while a review runs
// (as Sumsub refuses moveToLevel then).
var ErrUnderReview = errors.New("kycsim: the applicant is under review")

// MoveToLevel moves an applicant to another level, as a new attempt.
func (s *Sim) MoveToLevel(ctx context.Context, applicantID, providerLevel string) error {
	_, err := s.o.Store.Update(ctx, applicantKey(applicantID), store.NewUpdate().Set("providerLevel", providerLevel).
		Set("reviewStatus", kyc.ReviewInit).Set("attemptId", shortID()).Set("attemptCnt", 0).Remove("answer").
		Remove("rejectType").Remove("rejectLabels").Remove("moderationComment").Remove("clientComment").Remove("reviewed").
		// The new level asks for the documents again.
		Remove("submitted"),
		store.And(store.ItemExists(), store.Not(store.Eq("reviewStatus", kyc.ReviewPending))))
	if errors.Is(err, store.ErrConditionFailed) {
		if _, gerr := s.get(ctx, applicantID); gerr != nil {
			return gerr
		}
		return ErrUnderReview
	}
	return err
}

// AccessToken makes a token for the simulator's page; the user's
// applicant is created when it does not exist (Sumsub does the same when
// its SDK opens).
func (s *Sim) AccessToken(ctx context.Context, uid, providerLevel string, ttl time.Duration) (kyc.AccessToken, error) {
	if _, err := s.CreateApplicant(ctx, uid, providerLevel); err != nil {
		return kyc.AccessToken{}, err
	}
	token := "_act-sim-" + randomHex(16)
	exp := s.o.Now().Add(ttl)
	k := tokenKey(token)
	err := s.o.Store.Put(ctx, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "uid": uid, "providerLevel": providerLevel,
		"expiresAt": exp.UnixMilli(), store.AttrTTL: exp.Unix()}, store.ItemNotExists())
	if err != nil {
		return kyc.AccessToken{}, err
	}
	return kyc.AccessToken{Token: token, UserID: uid, WebURL: PagePath + "?accessToken=" + url.QueryEscape(token)}, nil
}

// userOfToken reads an access token (CodeKYCTokenInvalid when unknown or expired).
func (s *Sim) userOfToken(ctx context.Context, token string) (string, error) {
	if token == "" || len(token) > 128 {
		return "", apperr.New(apperr.CodeKYCTokenInvalid)
	}
	it, err := s.o.Store.Get(ctx, tokenKey(token))
	if errors.Is(err, store.ErrNotFound) || (err == nil && it.Int("expiresAt") <= s.o.Now().UnixMilli()) {
		return "", apperr.New(apperr.CodeKYCTokenInvalid)
	}
	if err != nil {
		return "", err
	}
	return it.Str("uid"), nil
}

// ApplicantStatus reads an applicant's review.
func (s *Sim) ApplicantStatus(ctx context.Context, applicantID string) (kyc.ProviderReview, error) {
	a, err := s.get(ctx, applicantID)
	if err != nil {
		return kyc.ProviderReview{}, err
	}
	return kyc.ProviderReview{ReviewID: a.ReviewID, AttemptID: a.AttemptID, ProviderLevel: a.ProviderLevel,
		ReviewStatus: a.ReviewStatus, Answer: a.Answer, RejectType: a.RejectType, RejectLabels: a.RejectLabels,
		Reason: a.Moderation, ClientComment: a.ClientComment, CreatedMs: a.Created, ReviewedMs: a.Reviewed}, nil
}

// ApplicantIdentity is what the user sent.
func (s *Sim) ApplicantIdentity(ctx context.Context, applicantID string) (kyc.Identity, error) {
	a, err := s.get(ctx, applicantID)
	if err != nil {
		return kyc.Identity{}, err
	}
	return kyc.Identity{FirstName: a.FirstName, LastName: a.LastName, Country: a.Country, DOB: a.DOB}, nil
}

// Delivery is what the exchange's webhook route answered.
type Delivery struct {
	Type   string          `json:"type"`
	Status int             `json:"httpStatus"`
	Code   string          `json:"code"`
	Msg    string          `json:"msg"`
	Data   json.RawMessage `json:"data"`
}

// send builds a webhook of type typ about a, signs it and serves it
// through the webhook route; a refusal is CodeKYCDelivery.
func (s *Sim) send(ctx context.Context, typ string, a Applicant) (Delivery, error) {
	s.mu.RLock()
	target := s.target
	s.mu.RUnlock()
	if target == nil {
		return Delivery{}, apperr.New(apperr.CodeKYCDelivery, "no webhook route is connected")
	}
	p := sumsub.Payload{ApplicantID: a.ID, InspectionID: ApplicantID("inspection|" + a.UserID), CorrelationID: "req-sim-" + randomHex(12),
		ExternalUserID: a.UserID, LevelName: a.ProviderLevel, Type: typ, SandboxMode: true, ReviewStatus: a.ReviewStatus,
		CreatedAtMs: sumsub.FormatTime(s.o.Now().UnixMilli()), ClientID: "tenger-simulator", ApplicantType: "individual"}
	if typ == string(kyc.EventReviewed) {
		p.ReviewResult = &sumsub.ReviewResult{ReviewAnswer: a.Answer, RejectLabels: a.RejectLabels, ReviewRejectType: a.RejectType,
			ModerationComment: a.Moderation, ClientComment: a.ClientComment}
	}
	body, err := json.Marshal(p)
	if err != nil {
		return Delivery{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.o.WebhookPath, bytes.NewReader(body))
	if err != nil {
		return Delivery{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = "127.0.0.1:0"
	if err := sumsub.SignWebhook(req.Header, s.o.Alg, s.o.WebhookSecret, body); err != nil {
		return Delivery{}, err
	}
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	target.ServeHTTP(rec, req)
	d := Delivery{Type: typ, Status: rec.status}
	_ = json.Unmarshal(rec.body.Bytes(), &d)
	d.Type, d.Status = typ, rec.status
	s.o.Log.Info().Str("type", typ).Str("uid", a.UserID).Int("status", rec.status).Str("code", d.Code).Msg("kyc simulator: webhook sent")
	if rec.status/100 != 2 || d.Code != apperr.CodeOK {
		return d, apperr.New(apperr.CodeKYCDelivery, fmt.Sprintf("HTTP %d, code %s: %s", rec.status, d.Code, d.Msg)).WithData(d)
	}
	return d, nil
}

// recorder is the response of a webhook served in process.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	wrote  bool
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.body.Write(b)
}

// Submission is what the user sends on the simulator's page.
type Submission struct {
	FirstName, LastName, DOB, Country, DocNumber, UploadID string
}

// Submit takes the user's data and document image and makes the review
// pending (a new attempt), then sends applicantPending.
func (s *Sim) Submit(ctx context.Context, token string, sub Submission) (Delivery, error) {
	uid, err := s.userOfToken(ctx, token)
	if err != nil {
		return Delivery{}, err
	}
	if err := sub.check(s.o.Now()); err != nil {
		return Delivery{}, err
	}
	s.mu.RLock()
	docs := s.o.Documents
	s.mu.RUnlock()
	if docs != nil {
		if err := docs.DocumentCheck(ctx, uid, sub.UploadID); err != nil {
			var ae *apperr.Error
			if errors.As(err, &ae) {
				return Delivery{}, ae
			}
			return Delivery{}, apperr.New(apperr.CodeKYCDocument).WithCause(err)
		}
	}
	now := s.o.Now().UnixMilli()
	it, err := s.o.Store.Update(ctx, applicantKey(ApplicantID(uid)), store.NewUpdate().Set("reviewStatus", kyc.ReviewPending).
		Set("firstName", sub.FirstName).Set("lastName", sub.LastName).Set("dob", sub.DOB).Set("country", sub.Country).
		Set("docNumber", sub.DocNumber).Set("uploadId", sub.UploadID).Set("submitted", now).Set("attemptId", shortID()).
		AddInt("attemptCnt", 1).Remove("answer").Remove("rejectType").Remove("rejectLabels").Remove("moderationComment").
		Remove("clientComment").Remove("reviewed"),
		// A FINAL rejection takes no new attempt, and a review under way
		// takes no second submission.
		store.And(store.ItemExists(), store.Not(store.Eq("reviewStatus", kyc.ReviewPending)), store.Not(store.Eq("rejectType", kyc.RejectFinal))))
	if errors.Is(err, store.ErrConditionFailed) {
		a, gerr := s.Applicant(ctx, uid)
		switch {
		case gerr != nil:
			return Delivery{}, apperr.New(apperr.CodeKYCTokenInvalid)
		case a.RejectType == kyc.RejectFinal:
			return Delivery{}, apperr.New(apperr.CodeKYCFinalRejected)
		default:
			return Delivery{}, apperr.New(apperr.CodeKYCUnderReview)
		}
	}
	if err != nil {
		return Delivery{}, err
	}
	return s.send(ctx, string(kyc.EventPending), applicantOf(it))
}

// ReviewInput is a reviewer's answer.
type ReviewInput struct {
	UserID            string
	Answer            string
	RejectLabels      []string
	RejectType        string
	ModerationComment string
	ClientComment     string
}

// Review answers the user's documents (GREEN, or RED with labels and
// RETRY or FINAL) and sends applicantReviewed. The user must have sent
// documents; a review may be given again (the provider's re-review).
func (s *Sim) Review(ctx context.Context, in ReviewInput) (Delivery, error) {
	switch in.Answer {
	case kyc.AnswerGreen:
		in.RejectLabels, in.RejectType, in.ModerationComment = nil, "", ""
	case kyc.AnswerRed:
		if in.RejectType == "" {
			in.RejectType = kyc.RejectRetry
		}
		if in.RejectType != kyc.RejectRetry && in.RejectType != kyc.RejectFinal {
			return Delivery{}, apperr.New(apperr.CodeKYCFormField, "reviewRejectType")
		}
		if len(in.RejectLabels) == 0 {
			in.RejectLabels = []string{"UNSATISFACTORY_PHOTOS"}
		}
		if in.ModerationComment == "" {
			in.ModerationComment = "We could not verify your document. Please upload a clear photo of the whole document."
		}
	default:
		return Delivery{}, apperr.New(apperr.CodeKYCFormField, "answer")
	}
	if len(in.RejectLabels) > 20 || len(in.ModerationComment) > 500 || len(in.ClientComment) > 500 {
		return Delivery{}, apperr.New(apperr.CodeKYCFormField, "rejectLabels")
	}
	labels := make([]any, 0, len(in.RejectLabels))
	for _, l := range in.RejectLabels {
		if l = strings.TrimSpace(l); l != "" && len(l) <= 64 {
			labels = append(labels, l)
		}
	}
	u := store.NewUpdate().Set("reviewStatus", kyc.ReviewCompleted).Set("answer", in.Answer).Set("reviewed", s.o.Now().UnixMilli())
	if in.Answer == kyc.AnswerRed {
		u.Set("rejectType", in.RejectType).Set("rejectLabels", labels).Set("moderationComment", in.ModerationComment)
	} else {
		u.Remove("rejectType").Remove("rejectLabels").Remove("moderationComment")
	}
	if in.ClientComment != "" {
		u.Set("clientComment", in.ClientComment)
	} else {
		u.Remove("clientComment")
	}
	it, err := s.o.Store.Update(ctx, applicantKey(ApplicantID(in.UserID)), u, store.And(store.ItemExists(), store.Exists("submitted")))
	if errors.Is(err, store.ErrConditionFailed) {
		return Delivery{}, apperr.New(apperr.CodeKYCNotSubmitted)
	}
	if err != nil {
		return Delivery{}, err
	}
	return s.send(ctx, string(kyc.EventReviewed), applicantOf(it))
}
