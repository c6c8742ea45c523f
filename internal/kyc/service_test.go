package kyc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/kyc"
	"tenger/internal/kyc/sumsub"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// fakeProvider is a provider in memory that records what it was asked.
type fakeProvider struct {
	mu       sync.Mutex
	apps     map[string]*kyc.ProviderApplicant // by applicant id
	byUser   map[string]string
	review   map[string]kyc.ProviderReview
	moves    []string
	tokens   int
	identity kyc.Identity
	fail     error
}

func newFakeProvider() *fakeProvider {
	return &fakeProvider{apps: map[string]*kyc.ProviderApplicant{}, byUser: map[string]string{}, review: map[string]kyc.ProviderReview{},
		identity: kyc.Identity{FirstName: "Bat", LastName: "Dorj", Country: "MNG", DOB: "1990-03-14"}}
}

func (p *fakeProvider) Name() string { return "fake" }

func (p *fakeProvider) CreateApplicant(_ context.Context, uid, level string) (kyc.ProviderApplicant, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fail != nil {
		return kyc.ProviderApplicant{}, p.fail
	}
	if id, ok := p.byUser[uid]; ok {
		return *p.apps[id], nil
	}
	a := &kyc.ProviderApplicant{ID: fmt.Sprintf("app%024s", uid)[:24], UserID: uid, ProviderLevel: level, ReviewStatus: kyc.ReviewInit}
	p.apps[a.ID], p.byUser[uid] = a, a.ID
	return *a, nil
}

func (p *fakeProvider) MoveToLevel(_ context.Context, id, level string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	a, ok := p.apps[id]
	if !ok {
		return kyc.ErrApplicantNotFound
	}
	a.ProviderLevel = level
	p.moves = append(p.moves, level)
	return nil
}

func (p *fakeProvider) AccessToken(_ context.Context, uid, level string, _ time.Duration) (kyc.AccessToken, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tokens++
	return kyc.AccessToken{Token: fmt.Sprintf("tok-%s-%s-%d", uid, level, p.tokens), UserID: uid}, nil
}

func (p *fakeProvider) ApplicantStatus(_ context.Context, id string) (kyc.ProviderReview, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	a, ok := p.apps[id]
	if !ok {
		return kyc.ProviderReview{}, kyc.ErrApplicantNotFound
	}
	if r, ok := p.review[id]; ok {
		return r, nil
	}
	return kyc.ProviderReview{ReviewID: "r1", AttemptID: "a1", ProviderLevel: a.ProviderLevel, ReviewStatus: kyc.ReviewInit}, nil
}

func (p *fakeProvider) ApplicantIdentity(_ context.Context, id string) (kyc.Identity, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fail != nil {
		return kyc.Identity{}, p.fail
	}
	return p.identity, nil
}

var hookSecret = []byte("webhook-secret-key")

type env struct {
	st    store.Store
	svc   *kyc.Service
	prov  *fakeProvider
	clock time.Time
	mu    sync.Mutex
	seq   int
}

func newEnv(t *testing.T) *env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e := &env{st: st, prov: newFakeProvider(), clock: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	e.svc = kyc.New(kyc.Options{Store: st, Provider: e.prov, Webhooks: sumsub.Webhooks{Secret: hookSecret}, Now: e.now, Log: zerolog.Nop()})
	return e
}

func (e *env) now() time.Time { e.mu.Lock(); defer e.mu.Unlock(); return e.clock }

func (e *env) tick(d time.Duration) { e.mu.Lock(); e.clock = e.clock.Add(d); e.mu.Unlock() }

// user makes a profile as sign-up does.
func (e *env) user(t *testing.T, uid string) {
	t.Helper()
	k := auth.ProfileKey(uid)
	if err := e.st.Put(context.Background(), store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "uid": uid, auth.AttrKYCStatus: 0}, nil); err != nil {
		t.Fatal(err)
	}
}

func (e *env) profile(t *testing.T, uid string) store.Item {
	t.Helper()
	it, err := e.st.Get(context.Background(), auth.ProfileKey(uid))
	if err != nil {
		t.Fatal(err)
	}
	return it
}

// payload is a webhook about uid's applicant of the given type, dated at.
func (e *env) payload(t *testing.T, uid, typ string, at time.Time) sumsub.Payload {
	t.Helper()
	a, _, err := e.svc.Show(context.Background(), uid)
	if err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	e.seq++
	n := e.seq
	e.mu.Unlock()
	return sumsub.Payload{ApplicantID: a.ApplicantID, ExternalUserID: uid, LevelName: "basic-kyc-level", Type: typ,
		CorrelationID: fmt.Sprintf("req-%d", n), CreatedAtMs: sumsub.FormatTime(at.UnixMilli()), ClientID: "tenger", ReviewStatus: "pending"}
}

func reviewed(p sumsub.Payload, answer, rejectType string) sumsub.Payload {
	p.Type, p.ReviewStatus = "applicantReviewed", "completed"
	p.ReviewResult = &sumsub.ReviewResult{ReviewAnswer: answer}
	if answer == kyc.AnswerRed {
		p.ReviewResult.ReviewRejectType, p.ReviewResult.RejectLabels = rejectType, []string{"UNSATISFACTORY_PHOTOS"}
		p.ReviewResult.ModerationComment = "Please upload a clear photo of the document."
	}
	return p
}

// send signs and delivers a webhook body.
func (e *env) send(t *testing.T, body []byte) (kyc.WebhookResult, error) {
	t.Helper()
	h := http.Header{}
	if err := sumsub.SignWebhook(h, sumsub.AlgSHA256, hookSecret, body); err != nil {
		t.Fatal(err)
	}
	return e.svc.Webhook(context.Background(), h, body)
}

func (e *env) hook(t *testing.T, p sumsub.Payload) kyc.WebhookResult {
	t.Helper()
	body, _ := json.Marshal(p)
	r, err := e.send(t, body)
	if err != nil {
		t.Fatalf("%s webhook: %v", p.Type, err)
	}
	return r
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil || apperr.As(err).Entry.Code != code {
		t.Fatalf("error %v, want code %s", err, code)
	}
}

func status(t *testing.T, e *env, uid string) kyc.Status {
	t.Helper()
	return kyc.Status(e.profile(t, uid).Int(auth.AttrKYCStatus))
}

// countItems counts the items of a partition prefix (the history, the
// event keys) to show that a refused webhook wrote nothing.
func countKYC(t *testing.T, e *env, uid string) int {
	t.Helper()
	page, err := e.st.Query(context.Background(), store.Query{PK: "KYC#" + uid})
	if err != nil {
		t.Fatal(err)
	}
	return len(page.Items)
}

func TestWebhooksDriveTheProfileAndTheLimit(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.user(t, "10000001")
	if l, _ := e.svc.DailyLimitUSDT(ctx, "10000001"); !l.Equal(decimal.NewFromInt(1000)) {
		t.Fatalf("unverified limit %s", l)
	}
	list, err := e.svc.Start(ctx, "10000001", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if list.ApplicantID == "" || list.CurrentLevel != "basic" || list.ReviewStatus != kyc.ReviewInit || list.KYCStatus != kyc.Unverified {
		t.Fatalf("started %+v", list)
	}
	// Idempotent: the same call again creates nothing more.
	again, err := e.svc.Start(ctx, "10000001", "basic", list.ApplicantID)
	if err != nil || again.ApplicantID != list.ApplicantID || len(e.prov.apps) != 1 {
		t.Fatalf("again %+v %v (%d applicants)", again, err, len(e.prov.apps))
	}

	t0 := e.now()
	pending := e.payload(t, "10000001", "applicantPending", t0.Add(time.Minute))
	if r := e.hook(t, pending); !r.Applied || r.KYCStatus != kyc.Pending || status(t, e, "10000001") != kyc.Pending {
		t.Fatalf("pending %+v", r)
	}
	green := reviewed(e.payload(t, "10000001", "", t0.Add(3*time.Minute)), kyc.AnswerGreen, "")
	if r := e.hook(t, green); !r.Applied || r.KYCStatus != kyc.Verified {
		t.Fatalf("green %+v", r)
	}
	p := e.profile(t, "10000001")
	if p.Int(auth.AttrKYCStatus) != 2 || p.Str(auth.AttrKYCLevel) != "basic" || p.Str(auth.AttrRealName) != "Bat Dorj" || p.Str(auth.AttrCountry) != "MNG" {
		t.Fatalf("profile %+v", p)
	}
	if l, _ := e.svc.DailyLimitUSDT(ctx, "10000001"); !l.Equal(decimal.NewFromInt(100000)) {
		t.Fatalf("verified limit %s", l)
	}

	// Sumsub sends the same webhook again: applied once.
	if r := e.hook(t, green); r.Applied || !r.Duplicate {
		t.Fatalf("replayed %+v", r)
	}
	// The pending of before the review, arriving late, changes nothing.
	late := pending
	late.CorrelationID = "req-late"
	late.CreatedAtMs = sumsub.FormatTime(t0.Add(2 * time.Minute).UnixMilli())
	if r := e.hook(t, late); r.Applied || r.Ignored == "" || status(t, e, "10000001") != kyc.Verified {
		t.Fatalf("late pending %+v", r)
	}
	// A newer pending of the level held never moves the user back.
	newer := pending
	newer.CorrelationID = "req-newer"
	newer.CreatedAtMs = sumsub.FormatTime(t0.Add(time.Hour).UnixMilli())
	if r := e.hook(t, newer); r.Applied || status(t, e, "10000001") != kyc.Verified {
		t.Fatalf("newer pending %+v", r)
	}
	// The history is in the order the events happened: the late pending
	// sits before the review, marked as ignored.
	hist, err := e.svc.History(ctx, "10000001")
	if err != nil || len(hist) != 4 || hist[0].Kind != "applicantPending" || hist[1].Ignored == "" || hist[2].Answer != kyc.AnswerGreen {
		t.Fatalf("history %+v %v", hist, err)
	}
}

func TestRefusedWebhooksWriteNothing(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.user(t, "10000001")
	if _, err := e.svc.Start(ctx, "10000001", "", ""); err != nil {
		t.Fatal(err)
	}
	before := countKYC(t, e, "10000001")
	body, _ := json.Marshal(reviewed(e.payload(t, "10000001", "", e.now()), kyc.AnswerGreen, ""))
	good := http.Header{}
	_ = sumsub.SignWebhook(good, sumsub.AlgSHA256, hookSecret, body)
	for name, h := range map[string]http.Header{
		"no digest":    {},
		"wrong digest": {sumsub.HeaderDigestAlg: {sumsub.AlgSHA256}, sumsub.HeaderDigest: {strings.Repeat("0", 64)}},
		"other secret": func() http.Header {
			h := http.Header{}
			_ = sumsub.SignWebhook(h, sumsub.AlgSHA256, []byte("x"), body)
			return h
		}(),
		"unknown alg":    {sumsub.HeaderDigestAlg: {"HMAC_MD5_HEX"}, sumsub.HeaderDigest: {good.Get(sumsub.HeaderDigest)}},
		"alg of another": {sumsub.HeaderDigestAlg: {sumsub.AlgSHA512}, sumsub.HeaderDigest: {good.Get(sumsub.HeaderDigest)}},
	} {
		_, err := e.svc.Webhook(ctx, h, body)
		want := apperr.CodeKYCWebhookDigest
		if name == "unknown alg" {
			want = apperr.CodeKYCWebhookAlg
		}
		if err == nil || apperr.As(err).Entry.Code != want {
			t.Errorf("%s: %v, want %s", name, err, want)
		}
	}
	// A body changed after signing.
	tampered := append([]byte{}, body...)
	tampered[len(tampered)-3] = ' '
	if _, err := e.svc.Webhook(ctx, good, tampered); apperr.As(err).Entry.Code != apperr.CodeKYCWebhookDigest {
		t.Fatalf("tampered body: %v", err)
	}
	if n := countKYC(t, e, "10000001"); n != before || status(t, e, "10000001") != kyc.Unverified {
		t.Fatalf("refused webhooks wrote %d items", n-before)
	}
	// Signed but about a user with no applicant here: refused, so the
	// provider sends it again later.
	other := reviewed(e.payload(t, "10000001", "", e.now()), kyc.AnswerGreen, "")
	other.ApplicantID, other.ExternalUserID = "ffffffffffffffffffffffff", "10000009"
	b, _ := json.Marshal(other)
	_, err := e.send(t, b)
	wantCode(t, err, apperr.CodeKYCWebhookApplicant)
	// Signed but malformed.
	_, err = e.send(t, []byte(`{"type":"applicantReviewed","applicantId":"x","createdAtMs":"2026-11-21 10:00:00.000"}`))
	wantCode(t, err, apperr.CodeKYCWebhookPayload)
	// A failure to read the verified identity writes nothing either; the
	// provider's next attempt applies it.
	e.prov.fail = errors.New("sumsub down")
	_, err = e.send(t, body)
	wantCode(t, err, apperr.CodeKYCUnavailable)
	e.prov.fail = nil
	if n := countKYC(t, e, "10000001"); n != before {
		t.Fatalf("a failed identity read wrote %d items", n-before)
	}
	if r, err := e.send(t, body); err != nil || !r.Applied {
		t.Fatalf("the same webhook again: %+v %v", r, err)
	}
}

func TestRetryAfterRejectionAndFinalRejection(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.user(t, "10000001")
	if _, err := e.svc.AccessToken(ctx, "10000001", "", ""); err != nil {
		t.Fatal(err)
	}
	t0 := e.now()
	e.hook(t, e.payload(t, "10000001", "applicantPending", t0.Add(time.Second)))
	r := e.hook(t, reviewed(e.payload(t, "10000001", "", t0.Add(2*time.Second)), kyc.AnswerRed, kyc.RejectRetry))
	if r.KYCStatus != kyc.Rejected {
		t.Fatalf("%+v", r)
	}
	p := e.profile(t, "10000001")
	if p.Int(auth.AttrKYCStatus) != 3 || p.Str(auth.AttrKYCRejectReason) == "" || p.Str(auth.AttrRealName) != "" {
		t.Fatalf("profile %+v", p)
	}
	list, _ := e.svc.Levels(ctx, "10000001")
	if !list.CanRetry || list.RejectType != kyc.RejectRetry || list.Levels[0].Status != "rejected" || len(list.RejectLabels) != 1 {
		t.Fatalf("levels %+v", list)
	}
	// RETRY: a new token, new documents, verified.
	if _, err := e.svc.AccessToken(ctx, "10000001", "", ""); err != nil {
		t.Fatalf("token after RETRY: %v", err)
	}
	e.hook(t, e.payload(t, "10000001", "applicantPending", t0.Add(3*time.Second)))
	if r := e.hook(t, reviewed(e.payload(t, "10000001", "", t0.Add(4*time.Second)), kyc.AnswerGreen, "")); r.KYCStatus != kyc.Verified {
		t.Fatalf("after retry %+v", r)
	}
	if p := e.profile(t, "10000001"); p.Has(auth.AttrKYCRejectReason) {
		t.Fatalf("the reason stayed: %+v", p)
	}

	// FINAL: no token, no move, no pending.
	e.user(t, "10000002")
	if _, err := e.svc.Start(ctx, "10000002", "", ""); err != nil {
		t.Fatal(err)
	}
	e.hook(t, e.payload(t, "10000002", "applicantPending", t0.Add(time.Second)))
	e.hook(t, reviewed(e.payload(t, "10000002", "", t0.Add(2*time.Second)), kyc.AnswerRed, kyc.RejectFinal))
	_, err := e.svc.AccessToken(ctx, "10000002", "", "")
	wantCode(t, err, apperr.CodeKYCFinalRejected)
	if _, err := e.svc.AddLevel(ctx, kyc.Level{Name: "advanced", ProviderLevel: "advanced-kyc-level", WithdrawDailyUSDT: decimal.NewFromInt(500000)}); err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.Start(ctx, "10000002", "advanced", "")
	wantCode(t, err, apperr.CodeKYCFinalRejected)
	if r := e.hook(t, e.payload(t, "10000002", "applicantPending", t0.Add(5*time.Second))); r.Applied || r.KYCStatus != kyc.Rejected {
		t.Fatalf("pending after FINAL %+v", r)
	}
	list, _ = e.svc.Levels(ctx, "10000002")
	if list.CanRetry || list.KYCStatus != kyc.Rejected {
		t.Fatalf("levels after FINAL %+v", list)
	}
}

func TestLevelMoves(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.user(t, "10000001")
	if _, err := e.svc.AddLevel(ctx, kyc.Level{Name: "advanced", ProviderLevel: "advanced-kyc-level", WithdrawDailyUSDT: decimal.NewFromInt(500000)}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Start(ctx, "10000001", "basic", ""); err != nil {
		t.Fatal(err)
	}
	_, err := e.svc.Start(ctx, "10000001", "platinum", "")
	wantCode(t, err, apperr.CodeKYCLevelUnknown)
	_, err = e.svc.Start(ctx, "10000001", "basic", "ffffffffffffffffffffffff")
	wantCode(t, err, apperr.CodeKYCApplicantUnknown)
	t0 := e.now()
	e.hook(t, e.payload(t, "10000001", "applicantPending", t0.Add(time.Second)))
	// Under review: no move (our record says pending).
	_, err = e.svc.Start(ctx, "10000001", "advanced", "")
	wantCode(t, err, apperr.CodeKYCUnderReview)
	e.hook(t, reviewed(e.payload(t, "10000001", "", t0.Add(2*time.Second)), kyc.AnswerGreen, ""))
	e.tick(time.Minute)
	list, err := e.svc.Start(ctx, "10000001", "advanced", "")
	if err != nil {
		t.Fatal(err)
	}
	if list.CurrentLevel != "advanced" || list.VerifiedLevel != "basic" || list.KYCStatus != kyc.Verified || len(e.prov.moves) != 1 ||
		list.Levels[0].Status != "verified" || !list.Levels[1].Current || list.Levels[1].Status != "unverified" {
		t.Fatalf("moved %+v (moves %v)", list, e.prov.moves)
	}
	if !list.WithdrawDailyUSDT.Equal(decimal.NewFromInt(100000)) {
		t.Fatalf("limit while advanced is applied for: %s", list.WithdrawDailyUSDT)
	}
	// Asking for a level held changes nothing.
	if _, err := e.svc.Start(ctx, "10000001", "basic", ""); err != nil || len(e.prov.moves) != 1 {
		t.Fatalf("back to basic: %v, moves %v", err, e.prov.moves)
	}
	// The provider finished a review whose webhook never came: it is
	// recorded before the user may move under it.
	a, _, _ := e.svc.Show(ctx, "10000001")
	e.prov.review[a.ApplicantID] = kyc.ProviderReview{ReviewID: "r9", AttemptID: "a9", ProviderLevel: "advanced-kyc-level",
		ReviewStatus: kyc.ReviewCompleted, Answer: kyc.AnswerGreen, ReviewedMs: e.now().Add(time.Minute).UnixMilli()}
	e.tick(2 * time.Minute)
	if _, err := e.svc.AddLevel(ctx, kyc.Level{Name: "vip", ProviderLevel: "vip-kyc-level", WithdrawDailyUSDT: decimal.NewFromInt(900000)}); err != nil {
		t.Fatal(err)
	}
	list, err = e.svc.Start(ctx, "10000001", "vip", "")
	if err != nil || list.VerifiedLevel != "advanced" || list.CurrentLevel != "vip" {
		t.Fatalf("after the lost webhook: %+v %v", list, err)
	}
	if l, _ := e.svc.DailyLimitUSDT(ctx, "10000001"); !l.Equal(decimal.NewFromInt(500000)) {
		t.Fatalf("limit %s", l)
	}
}

func TestOperatorDecisions(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.user(t, "10000001")
	// No applicant at the provider: an operator verifies the user anyway.
	a, err := e.svc.Approve(ctx, "10000001", kyc.Decision{By: "ops", Note: "passport checked at the office"})
	if err != nil || a.Status() != kyc.Verified || a.VerifiedLevel != "basic" || a.Provider != kyc.SourceOperator {
		t.Fatalf("approve %+v %v", a, err)
	}
	if _, err := e.svc.Approve(ctx, "10000001", kyc.Decision{By: "ops"}); err != nil {
		t.Fatalf("approving again: %v", err)
	}
	_, err = e.svc.Reject(ctx, "10000001", kyc.Decision{By: "ops"})
	wantCode(t, err, apperr.CodeKYCFormField)
	_, err = e.svc.Reject(ctx, "10000001", kyc.Decision{By: "ops", Reason: "x", RejectType: "MAYBE"})
	wantCode(t, err, apperr.CodeKYCFormField)
	a, err = e.svc.Reject(ctx, "10000001", kyc.Decision{By: "ops", Reason: "The document is forged", RejectType: kyc.RejectFinal,
		RejectLabels: []string{"FORGERY"}})
	if err != nil || a.Status() != kyc.Rejected || !a.FinalRejected() || a.VerifiedLevel != "" {
		t.Fatalf("reject %+v %v", a, err)
	}
	if p := e.profile(t, "10000001"); p.Int(auth.AttrKYCStatus) != 3 || p.Has(auth.AttrKYCLevel) || p.Str(auth.AttrKYCRejectReason) != "The document is forged" {
		t.Fatalf("profile %+v", p)
	}
	list, err := e.svc.List(ctx, kyc.Rejected, 0)
	if err != nil || len(list) != 1 || list[0].UserID != "10000001" {
		t.Fatalf("list %+v %v", list, err)
	}
	if l, _ := e.svc.List(ctx, kyc.Verified, 0); len(l) != 0 {
		t.Fatalf("verified list %+v", l)
	}
	hist, _ := e.svc.History(ctx, "10000001")
	if len(hist) != 3 || hist[2].By != "ops" || hist[2].Source != kyc.SourceOperator {
		t.Fatalf("history %+v", hist)
	}
	_, err = e.svc.Approve(ctx, "99999999", kyc.Decision{})
	wantCode(t, err, apperr.CodeKYCUserUnknown)
}

func TestSettingsAreOperatorSettings(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	set, err := e.svc.SetLimit(ctx, kyc.LevelUnverified, decimal.NewFromInt(250))
	if err != nil || !set.UnverifiedWithdrawDailyUSDT.Equal(decimal.NewFromInt(250)) {
		t.Fatalf("%+v %v", set, err)
	}
	if _, err := e.svc.SetLimit(ctx, "basic", decimal.NewFromInt(-1)); apperr.As(err).Entry.Code != apperr.CodeKYCLimitInvalid {
		t.Fatalf("negative: %v", err)
	}
	_, err = e.svc.SetLimit(ctx, "gold", decimal.NewFromInt(1))
	wantCode(t, err, apperr.CodeKYCLevelUnknown)
	_, err = e.svc.AddLevel(ctx, kyc.Level{Name: "basic", ProviderLevel: "x", WithdrawDailyUSDT: decimal.NewFromInt(1)})
	wantCode(t, err, apperr.CodeKYCLevelExists)
	_, err = e.svc.AddLevel(ctx, kyc.Level{Name: "bad name", ProviderLevel: "x", WithdrawDailyUSDT: decimal.NewFromInt(1)})
	wantCode(t, err, apperr.CodeKYCFormField)
	e.user(t, "10000001")
	if l, _ := e.svc.DailyLimitUSDT(ctx, "10000001"); !l.Equal(decimal.NewFromInt(250)) {
		t.Fatalf("limit %s", l)
	}
	// Another service instance (another process) reads the same settings.
	other := kyc.New(kyc.Options{Store: e.st})
	if s, _ := other.Settings(ctx); !s.UnverifiedWithdrawDailyUSDT.Equal(decimal.NewFromInt(250)) || len(s.Levels) != 1 {
		t.Fatalf("other %+v", s)
	}
}

// Two deliveries of one webhook at once: one applies it, the other finds
// it applied.
func TestConcurrentDeliveriesApplyOnce(t *testing.T) {
	e := newEnv(t)
	e.user(t, "10000001")
	if _, err := e.svc.Start(context.Background(), "10000001", "", ""); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(reviewed(e.payload(t, "10000001", "", e.now()), kyc.AnswerGreen, ""))
	var wg sync.WaitGroup
	results := make([]kyc.WebhookResult, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := e.send(t, body)
			if err != nil {
				t.Error(err)
			}
			results[i] = r
		}()
	}
	wg.Wait()
	applied := 0
	for _, r := range results {
		if r.Applied {
			applied++
		} else if !r.Duplicate {
			t.Errorf("neither applied nor a duplicate: %+v", r)
		}
	}
	if applied != 1 {
		t.Fatalf("applied %d times", applied)
	}
}
