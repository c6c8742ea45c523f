package kyc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/store"
)

// DefaultTokenTTL is how long an access token for the provider's flow
// lives (Sumsub's own default, 10 minutes).
const DefaultTokenTTL = 10 * time.Minute

// Options configure the service.
type Options struct {
	Store store.Store
	// Provider is the verification provider; nil answers the calls that
	// need it CodeKYCUnavailable (the wallet's functions, which read only
	// limits, build the service without one).
	Provider Provider
	// Webhooks checks and reads the provider's webhooks; nil refuses them
	// as unavailable.
	Webhooks WebhookDecoder
	// VerifiedWithdrawDailyUSDT is withdraw_daily_limit_usdt: the basic
	// level's limit until an operator sets one (zero:
	// DefaultVerifiedWithdrawDailyUSDT).
	VerifiedWithdrawDailyUSDT decimal.Decimal
	// TokenTTL is the access tokens' lifetime (zero: DefaultTokenTTL).
	TokenTTL time.Duration
	Now      func() time.Time
	Log      zerolog.Logger
}

// Service is identity verification.
type Service struct{ o Options }

// New builds the service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.TokenTTL <= 0 {
		o.TokenTTL = DefaultTokenTTL
	}
	return &Service{o: o}
}

// DailyLimitUSDT is the user's 24 h withdrawal limit in USDT: the limit of
// the level the user holds, or the unverified one (withdraw.Limits).
func (s *Service) DailyLimitUSDT(ctx context.Context, uid string) (decimal.Decimal, error) {
	set, err := s.Settings(ctx)
	if err != nil {
		return decimal.Zero, err
	}
	it, err := s.o.Store.Get(ctx, auth.ProfileKey(uid))
	if errors.Is(err, store.ErrNotFound) {
		return set.UnverifiedWithdrawDailyUSDT, nil
	}
	if err != nil {
		return decimal.Zero, internal(err)
	}
	return set.LimitOf(it.Str(auth.AttrKYCLevel)), nil
}

// provider is the configured provider or CodeKYCUnavailable.
func (s *Service) provider() (Provider, error) {
	if s.o.Provider == nil {
		return nil, apperr.New(apperr.CodeKYCUnavailable)
	}
	return s.o.Provider, nil
}

// unavailable is a provider's failure as the user sees it; the cause is logged.
func unavailable(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return ae
	}
	return apperr.New(apperr.CodeKYCUnavailable).WithCause(err)
}

// Result is what applying an event did.
type Result struct {
	Applicant Applicant `json:"applicant"`
	Applied   bool      `json:"applied"`
	// Duplicate: the event was applied before (a replayed webhook).
	Duplicate bool `json:"duplicate"`
	// Ignored says why the event changed nothing.
	Ignored string `json:"ignored,omitempty"`
}

// apply runs an event through the state machine and, in one transaction,
// records it once (its key), writes the applicant (only if nobody changed
// it since it was read) with the profile's kycStatus, and keeps it in the
// history; a lost race reads again and decides again. create allows an
// applicant that does not exist yet (the API's and operators' events).
func (s *Service) apply(ctx context.Context, uid string, ev Event, create bool) (Result, error) {
	set, err := s.Settings(ctx)
	if err != nil {
		return Result{}, err
	}
	if ev.Level == "" {
		if l, ok := set.ByProvider(ev.ProviderLevel); ok {
			ev.Level = l.Name
		}
	}
	histID := randomID()
	for try := 0; ; try++ {
		a, found, err := s.load(ctx, uid)
		if err != nil {
			return Result{}, err
		}
		if !found && !create {
			return Result{}, apperr.New(apperr.CodeKYCWebhookApplicant)
		}
		now := s.o.Now().UnixMilli()
		next, out := Transition(a, ev, set)
		if found && ev.ApplicantID != "" && a.ApplicantID != "" && ev.ApplicantID != a.ApplicantID {
			next, out = a, Outcome{Ignored: "about another applicant (" + ev.ApplicantID + ") than the user's"}
		}
		ops := []store.Op{}
		if ev.Key != "" {
			ops = append(ops, store.PutOp(store.Item{store.AttrPK: eventKey(ev.Key).PK, store.AttrSK: eventKey(ev.Key).SK,
				"key": clip(ev.Key, 300), "uid": uid, "received": now, store.AttrTTL: (now + eventKeyTTL.Milliseconds()) / 1000},
				store.ItemNotExists()).Named("event"))
		}
		ops = append(ops, store.PutOp(historyItem(uid, histID, ev, out, now), nil))
		if out.Applied {
			if !found {
				next.Created = now
				if next.Provider == "" {
					next.Provider = ev.Source
				}
			}
			next.Updated = now
			ops = append(ops,
				store.PutOp(applicantItem(next), store.VersionIs(a.version)).Named("applicant"),
				store.UpdateOp(auth.ProfileKey(uid), profileUpdate(next, ev.Identity), store.ItemExists()).Named("profile"))
		} else if found {
			// The decision to change nothing was made on this version.
			ops = append(ops, store.CheckOp(applicantKey(uid), store.VersionIs(a.version)).Named("applicant"))
		}
		err = s.o.Store.Transact(ctx, ops)
		name, _ := store.FailedCondition(err, ops)
		switch {
		case err == nil:
			if out.Applied {
				next.version = a.version + 1
				s.o.Log.Info().Str("uid", uid).Str("event", string(ev.Kind)).Str("source", ev.Source).
					Str("status", next.Status().String()).Msg("kyc: applicant changed")
				return Result{Applicant: next, Applied: true}, nil
			}
			return Result{Applicant: a, Ignored: out.Ignored}, nil
		case name == "event":
			return Result{Applicant: a, Duplicate: true}, nil
		case name == "applicant" && try < 10:
			continue
		case name == "profile":
			return Result{}, apperr.New(apperr.CodeKYCUserUnknown, uid)
		}
		return Result{}, internal(err)
	}
}

// eventKeyTTL is how long an event's key is kept: Sumsub re-sends a
// webhook for about a day, and an older copy that comes later still meets
// the state machine, which lets nothing older than the latest event
// change anything.
const eventKeyTTL = 30 * 24 * time.Hour

// randomID names history entries.
func randomID() string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		panic("kyc: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// ensureApplicant creates the user's applicant at the provider at level l
// when the user has none, and records it (with the applicant id → user
// index) in one transaction.
func (s *Service) ensureApplicant(ctx context.Context, uid string, l Level) (Applicant, error) {
	a, found, err := s.load(ctx, uid)
	if err != nil || (found && a.ApplicantID != "") {
		return a, err
	}
	p, err := s.provider()
	if err != nil {
		return Applicant{}, err
	}
	pa, err := p.CreateApplicant(ctx, uid, l.ProviderLevel)
	if err != nil {
		return Applicant{}, unavailable(err)
	}
	set, err := s.Settings(ctx)
	if err != nil {
		return Applicant{}, err
	}
	now := s.o.Now().UnixMilli()
	next := a
	next.UserID, next.ApplicantID, next.Provider = uid, pa.ID, p.Name()
	// The provider may have had an applicant of this user at another
	// level (created before this record): it is taken as it is.
	next.Level, next.ProviderLevel = l.Name, l.ProviderLevel
	if pl, ok := set.ByProvider(pa.ProviderLevel); ok {
		next.Level, next.ProviderLevel = pl.Name, pl.ProviderLevel
	}
	if next.ReviewStatus == "" {
		next.ReviewStatus = ReviewInit
	}
	if !found {
		next.Created = now
	}
	next.Updated = now
	ops := []store.Op{
		store.PutOp(applicantItem(next), store.VersionIs(a.version)).Named("applicant"),
		store.PutOp(store.Item{store.AttrPK: appIDKey(pa.ID).PK, store.AttrSK: appIDKey(pa.ID).SK, "uid": uid}, nil),
		store.CheckOp(auth.ProfileKey(uid), store.ItemExists()).Named("profile"),
	}
	err = s.o.Store.Transact(ctx, ops)
	if name, _ := store.FailedCondition(err, ops); name == "applicant" {
		// A concurrent call recorded the same applicant (the provider
		// answers one applicant per user).
		a, _, err := s.load(ctx, uid)
		return a, err
	} else if name == "profile" {
		return Applicant{}, apperr.New(apperr.CodeNotSignedIn)
	}
	if err != nil {
		return Applicant{}, internal(err)
	}
	next.version = a.version + 1
	return next, nil
}

// targetLevel is the level a call asks for: the named one, else the one
// the user works on, else the first level above the one held.
func targetLevel(set Settings, a Applicant, name string) (Level, error) {
	name = strings.TrimSpace(name)
	if name != "" {
		if l, ok := set.Level(name); ok {
			return l, nil
		}
		if l, ok := set.ByProvider(name); ok {
			return l, nil
		}
		return Level{}, apperr.New(apperr.CodeKYCLevelUnknown, name)
	}
	if l, ok := set.Level(a.Level); ok {
		return l, nil
	}
	r := min(set.Rank(a.VerifiedLevel), len(set.Levels)-1)
	return set.Levels[r], nil
}

// ownApplicant refuses an applicant id that is not the user's.
func ownApplicant(a Applicant, applicantID string) error {
	if applicantID = strings.TrimSpace(applicantID); applicantID != "" && applicantID != a.ApplicantID {
		return apperr.New(apperr.CodeKYCApplicantUnknown)
	}
	return nil
}

// Start is change_level_and_create_info: it creates the user's applicant
// at a level, or moves it to another, and answers the user's levels.
// Asking again for the level the user is at, or for one held already,
// changes nothing. A move is refused while a review runs
// (CodeKYCUnderReview) and after a FINAL rejection (CodeKYCFinalRejected).
// applicantID, when given, must be the user's.
func (s *Service) Start(ctx context.Context, uid, levelName, applicantID string) (LevelList, error) {
	if uid == "" {
		return LevelList{}, apperr.New(apperr.CodeNotSignedIn)
	}
	if _, err := s.start(ctx, uid, levelName, applicantID); err != nil {
		return LevelList{}, err
	}
	return s.Levels(ctx, uid)
}

func (s *Service) start(ctx context.Context, uid, levelName, applicantID string) (Applicant, error) {
	set, err := s.Settings(ctx)
	if err != nil {
		return Applicant{}, err
	}
	a, found, err := s.load(ctx, uid)
	if err != nil {
		return Applicant{}, err
	}
	if err := ownApplicant(a, applicantID); err != nil {
		return Applicant{}, err
	}
	l, err := targetLevel(set, a, levelName)
	if err != nil {
		return Applicant{}, err
	}
	if set.Rank(l.Name) <= set.Rank(a.VerifiedLevel) {
		return a, nil // held already
	}
	if !found || a.ApplicantID == "" {
		if a.FinalRejected() {
			return Applicant{}, apperr.New(apperr.CodeKYCFinalRejected)
		}
		return s.ensureApplicant(ctx, uid, l)
	}
	if l.Name == a.Level {
		return a, nil
	}
	p, err := s.provider()
	if err != nil {
		return Applicant{}, err
	}
	// The provider's own status first: a review whose webhook has not
	// arrived (or never will) must not be moved under, and its answer
	// is recorded now.
	if a, err = s.sync(ctx, p, a); err != nil {
		return Applicant{}, err
	}
	switch {
	case a.FinalRejected():
		return Applicant{}, apperr.New(apperr.CodeKYCFinalRejected)
	case a.ReviewStatus == ReviewPending || a.ReviewStatus == ReviewOnHold:
		return Applicant{}, apperr.New(apperr.CodeKYCUnderReview)
	case l.Name == a.Level || set.Rank(l.Name) <= set.Rank(a.VerifiedLevel):
		return a, nil
	}
	if err := p.MoveToLevel(ctx, a.ApplicantID, l.ProviderLevel); err != nil {
		return Applicant{}, unavailable(err)
	}
	r, err := s.apply(ctx, uid, Event{Kind: EventLevelChanged, ApplicantID: a.ApplicantID, UserID: uid, Level: l.Name,
		ProviderLevel: l.ProviderLevel, AtMs: max(s.o.Now().UnixMilli(), a.LastEventMs), Source: SourceAPI}, false)
	return r.Applicant, err
}

// sync records a review the provider finished that this exchange has not
// heard of (its webhook is late or lost), keyed by the review's attempt so
// the webhook, when it comes, changes nothing more.
func (s *Service) sync(ctx context.Context, p Provider, a Applicant) (Applicant, error) {
	rv, err := p.ApplicantStatus(ctx, a.ApplicantID)
	if err != nil {
		return Applicant{}, unavailable(err)
	}
	var ev Event
	switch {
	case rv.ReviewStatus == ReviewCompleted && rv.ReviewedMs > a.LastEventMs && (rv.Answer == AnswerGreen || rv.Answer == AnswerRed):
		ev = Event{Kind: EventReviewed, Answer: rv.Answer, RejectType: rv.RejectType, RejectLabels: rv.RejectLabels,
			Reason: rv.Reason, ClientComment: rv.ClientComment, AtMs: rv.ReviewedMs}
	case (rv.ReviewStatus == ReviewPending || rv.ReviewStatus == ReviewOnHold) && a.ReviewStatus != rv.ReviewStatus:
		// A pending review has no time of its own in the status: it is
		// at least as new as what was recorded.
		ev = Event{Kind: EventPending, AtMs: a.LastEventMs}
		if rv.ReviewStatus == ReviewOnHold {
			ev.Kind = EventOnHold
		}
	default:
		return a, nil
	}
	ev.Key = "status:" + a.ApplicantID + ":" + rv.ReviewID + ":" + rv.AttemptID + ":" + rv.ReviewStatus
	ev.ApplicantID, ev.UserID, ev.ProviderLevel, ev.Source = a.ApplicantID, a.UserID, rv.ProviderLevel, SourceProvider
	if ev.Kind == EventReviewed && ev.Answer == AnswerGreen {
		id, err := p.ApplicantIdentity(ctx, a.ApplicantID)
		if err != nil {
			return Applicant{}, unavailable(err)
		}
		ev.Identity = &id
	}
	r, err := s.apply(ctx, a.UserID, ev, false)
	if err != nil {
		return Applicant{}, err
	}
	if r.Applied {
		return r.Applicant, nil
	}
	a, _, err = s.load(ctx, a.UserID)
	return a, err
}

// TokenView is get_access_token's answer.
type TokenView struct {
	Token  string `json:"token" doc:"access token of the provider's web flow (Sumsub's WebSDK launch token)"`
	UserID string `json:"userId"`
	// LevelName is our level and ProviderLevel the provider's name of it
	// (Sumsub's WebSDK takes it).
	LevelName     string `json:"levelName"`
	ProviderLevel string `json:"providerLevelName"`
	ApplicantID   string `json:"applicantId"`
	Provider      string `json:"provider" doc:"sumsub: open Sumsub's WebSDK with the token; simulator: open simulatorUrl"`
	SimulatorURL  string `json:"simulatorUrl,omitempty" doc:"tenger serve --dev: the page standing in for the provider's flow"`
	TTLInSecs     int64  `json:"ttlInSecs"`
	ExpiresAt     int64  `json:"expiresAt" doc:"Unix ms"`
}

// AccessToken is get_access_token: a token for the provider's flow at the
// user's level (levelName moves to another level first, as Start does),
// creating the applicant when the user has none. A FINAL rejection gets
// none (CodeKYCFinalRejected).
func (s *Service) AccessToken(ctx context.Context, uid, levelName, applicantID string) (TokenView, error) {
	if uid == "" {
		return TokenView{}, apperr.New(apperr.CodeNotSignedIn)
	}
	p, err := s.provider()
	if err != nil {
		return TokenView{}, err
	}
	a, err := s.start(ctx, uid, levelName, applicantID)
	if err != nil {
		return TokenView{}, err
	}
	if a.FinalRejected() {
		return TokenView{}, apperr.New(apperr.CodeKYCFinalRejected)
	}
	tok, err := p.AccessToken(ctx, uid, a.ProviderLevel, s.o.TokenTTL)
	if err != nil {
		return TokenView{}, unavailable(err)
	}
	now := s.o.Now()
	return TokenView{Token: tok.Token, UserID: uid, LevelName: a.Level, ProviderLevel: a.ProviderLevel, ApplicantID: a.ApplicantID,
		Provider: p.Name(), SimulatorURL: tok.WebURL, TTLInSecs: int64(s.o.TokenTTL / time.Second),
		ExpiresAt: now.Add(s.o.TokenTTL).UnixMilli()}, nil
}

// WebhookResult is the webhook's answer.
type WebhookResult struct {
	Applied   bool   `json:"applied"`
	Duplicate bool   `json:"duplicate" doc:"the same webhook was applied before"`
	Ignored   string `json:"ignored,omitempty" doc:"why it changed nothing"`
	KYCStatus Status `json:"kycStatus"`
}

// Webhook takes a webhook of the provider: its digest is checked over the
// raw body before anything is read, then its event goes through the state
// machine once. A bad digest changes nothing (CodeKYCWebhookDigest); a
// webhook about a user with no applicant here is refused with
// CodeKYCWebhookApplicant, so the provider sends it again later.
func (s *Service) Webhook(ctx context.Context, header http.Header, body []byte) (WebhookResult, error) {
	if s.o.Webhooks == nil {
		return WebhookResult{}, apperr.New(apperr.CodeKYCUnavailable)
	}
	ev, err := s.o.Webhooks.DecodeWebhook(header, body)
	if err != nil {
		return WebhookResult{}, err
	}
	ev.Source = SourceWebhook
	uid, err := s.userOfApplicant(ctx, ev.ApplicantID)
	if err != nil {
		return WebhookResult{}, err
	}
	if uid == "" {
		// An applicant the index does not name yet: the externalUserId we
		// created it with, if that user's applicant is this one (apply
		// checks the ids agree).
		uid = ev.UserID
	}
	if uid == "" || len(uid) > 64 {
		return WebhookResult{}, apperr.New(apperr.CodeKYCWebhookApplicant)
	}
	if ev.Kind == EventReviewed && ev.Answer == AnswerGreen && s.o.Provider != nil && ev.ApplicantID != "" {
		// The webhook carries no personal data; the verified name comes
		// from the provider. Failing here writes nothing, and the provider
		// sends the webhook again.
		id, err := s.o.Provider.ApplicantIdentity(ctx, ev.ApplicantID)
		if err != nil {
			return WebhookResult{}, unavailable(err)
		}
		ev.Identity = &id
	}
	r, err := s.apply(ctx, uid, ev, false)
	if err != nil {
		return WebhookResult{}, err
	}
	if r.Ignored != "" {
		s.o.Log.Info().Str("uid", uid).Str("event", string(ev.Kind)).Str("ignored", r.Ignored).Msg("kyc: webhook changed nothing")
	}
	return WebhookResult{Applied: r.Applied, Duplicate: r.Duplicate, Ignored: r.Ignored, KYCStatus: r.Applicant.Status()}, nil
}

// Decision is an operator's approval or rejection.
type Decision struct {
	// Level is the level approved (default: the one the user works on,
	// else basic).
	Level string
	// RejectType is RETRY or FINAL (a rejection; default RETRY).
	RejectType   string
	RejectLabels []string
	// Reason is shown to the user; Note stays with operators.
	Reason string
	Note   string
	By     string
}

// maxDeciderLen bounds the operator's name kept with a decision: room for
// a name and the AWS request id the admin function adds to it, as
// corporate verification keeps a reviewer's.
const maxDeciderLen = 100

// Approve verifies a user at a level by an operator's decision (an
// escalation the provider left to us, or a check made elsewhere). It goes
// through the state machine as a review does, dated now (or just after
// the latest event), so it is the newest word until the provider speaks
// again.
func (s *Service) Approve(ctx context.Context, uid string, d Decision) (Applicant, error) {
	return s.decide(ctx, uid, AnswerGreen, d)
}

// Reject refuses a user's verification by an operator's decision.
func (s *Service) Reject(ctx context.Context, uid string, d Decision) (Applicant, error) {
	if strings.TrimSpace(d.Reason) == "" {
		return Applicant{}, apperr.New(apperr.CodeKYCFormField, "reason")
	}
	switch d.RejectType {
	case "":
		d.RejectType = RejectRetry
	case RejectRetry, RejectFinal:
	default:
		return Applicant{}, apperr.New(apperr.CodeKYCFormField, "reviewRejectType")
	}
	return s.decide(ctx, uid, AnswerRed, d)
}

func (s *Service) decide(ctx context.Context, uid, answer string, d Decision) (Applicant, error) {
	if uid == "" || len(uid) > 64 {
		return Applicant{}, apperr.New(apperr.CodeKYCUserUnknown, uid)
	}
	set, err := s.Settings(ctx)
	if err != nil {
		return Applicant{}, err
	}
	a, _, err := s.load(ctx, uid)
	if err != nil {
		return Applicant{}, err
	}
	l, err := targetLevel(set, a, d.Level)
	if err != nil {
		return Applicant{}, err
	}
	ev := Event{Kind: EventReviewed, ApplicantID: a.ApplicantID, UserID: uid, Level: l.Name, ProviderLevel: l.ProviderLevel,
		AtMs: max(s.o.Now().UnixMilli(), a.LastEventMs+1), Answer: answer, Source: SourceOperator, By: clip(d.By, maxDeciderLen),
		ClientComment: clip(d.Note, 500)}
	if answer == AnswerRed {
		ev.RejectType, ev.Reason = d.RejectType, clip(strings.TrimSpace(d.Reason), 500)
		for _, lb := range d.RejectLabels {
			if lb = strings.TrimSpace(lb); lb != "" && len(ev.RejectLabels) < 20 {
				ev.RejectLabels = append(ev.RejectLabels, clip(lb, 64))
			}
		}
	}
	r, err := s.apply(ctx, uid, ev, true)
	if err != nil {
		return Applicant{}, err
	}
	if !r.Applied && r.Ignored != unchanged {
		return Applicant{}, apperr.New(apperr.CodeKYCFormField, r.Ignored)
	}
	// Deciding what was decided already is done.
	return r.Applicant, nil
}

// Show reads a user's applicant (found false when there is none).
func (s *Service) Show(ctx context.Context, uid string) (Applicant, bool, error) {
	return s.load(ctx, uid)
}

// LevelView is one level of get_level_list.
type LevelView struct {
	Level
	Rank int `json:"rank"`
	// Status is the user's at this level: verified, pending, rejected or unverified.
	Status string `json:"status"`
	// Current marks the level the user works on.
	Current bool `json:"current"`
}

// LevelList is get_level_list's answer.
type LevelList struct {
	Levels                      []LevelView     `json:"levels"`
	UnverifiedWithdrawDailyUSDT decimal.Decimal `json:"unverifiedWithdrawDailyUsdt"`
	// WithdrawDailyUSDT is the user's own limit now.
	WithdrawDailyUSDT decimal.Decimal `json:"withdrawDailyUsdt" doc:"the user's 24 h withdrawal limit in USDT"`
	KYCStatus         Status          `json:"kycStatus" doc:"0 unverified, 1 pending, 2 verified, 3 rejected"`
	VerifiedLevel     string          `json:"verifiedLevel" doc:"the level held; empty when none"`
	CurrentLevel      string          `json:"currentLevel" doc:"the level being applied for"`
	ApplicantID       string          `json:"applicantId"`
	ReviewStatus      string          `json:"reviewStatus" doc:"init, pending, onHold or completed; empty before the applicant exists"`
	ReviewAnswer      string          `json:"reviewAnswer,omitempty"`
	RejectType        string          `json:"reviewRejectType,omitempty" doc:"RETRY or FINAL"`
	RejectLabels      []string        `json:"rejectLabels"`
	RejectReason      string          `json:"rejectReason,omitempty" doc:"the reviewer's words for the user"`
	CanRetry          bool            `json:"canRetry" doc:"documents may be sent (again) for the current level"`
	Provider          string          `json:"provider" doc:"sumsub or simulator; empty when verification is unavailable"`
}

// Levels is get_level_list: the levels with their limits and the user's
// status at each.
func (s *Service) Levels(ctx context.Context, uid string) (LevelList, error) {
	if uid == "" {
		return LevelList{}, apperr.New(apperr.CodeNotSignedIn)
	}
	set, err := s.Settings(ctx)
	if err != nil {
		return LevelList{}, err
	}
	a, _, err := s.load(ctx, uid)
	if err != nil {
		return LevelList{}, err
	}
	out := LevelList{UnverifiedWithdrawDailyUSDT: set.UnverifiedWithdrawDailyUSDT, WithdrawDailyUSDT: set.LimitOf(a.VerifiedLevel),
		KYCStatus: a.Status(), VerifiedLevel: a.VerifiedLevel, CurrentLevel: a.Level, ApplicantID: a.ApplicantID,
		ReviewStatus: a.ReviewStatus, ReviewAnswer: a.Answer, RejectType: a.RejectType, RejectLabels: slices.Clone(a.RejectLabels),
		RejectReason: a.Reason, CanRetry: a.CanRetry(), Levels: []LevelView{}}
	if out.RejectLabels == nil {
		out.RejectLabels = []string{}
	}
	if s.o.Provider != nil {
		out.Provider = s.o.Provider.Name()
	}
	held := set.Rank(a.VerifiedLevel)
	for i, l := range set.Levels {
		v := LevelView{Level: l, Rank: i + 1, Status: Unverified.String(), Current: l.Name == a.Level}
		switch {
		case i+1 <= held:
			v.Status = Verified.String()
		case v.Current && (a.ReviewStatus == ReviewPending || a.ReviewStatus == ReviewOnHold):
			v.Status = Pending.String()
		case v.Current && a.ReviewStatus == ReviewCompleted && a.Answer == AnswerRed:
			v.Status = Rejected.String()
		}
		out.Levels = append(out.Levels, v)
	}
	return out, nil
}
