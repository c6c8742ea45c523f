// Package kyc is individual identity verification: the levels a user may
// be verified at and the daily withdrawal limit each gives, the user's
// applicant at the verification provider, and the state machine every
// change goes through, whether the provider reports it (its webhook), the
// user asks for it (a level move) or an operator decides it (tenger kyc).
//
// The provider is a port (Provider) with two adapters: Sumsub
// (kyc/sumsub), and the local simulator of `tenger serve --dev`
// (kyc/kycsim), which sends its webhooks signed as Sumsub signs them, so
// both go through the same verification (WebhookDecoder, implemented by
// sumsub.Webhooks).
//
// # Statuses
//
// The profile's kycStatus is 0 unverified, 1 pending, 2 verified, 3
// rejected. A user who holds a verified level stays verified (2) while a
// higher level is reviewed or refused; only a newer rejection of that level
// itself, or an operator, takes it back.
//
// # Item layout
//
//	pk                          sk                       what
//	KYC#<uid>                   APPLICANT                the user's applicant: applicantId, provider, level
//	                                                     (current), providerLevel, reviewStatus, answer,
//	                                                     rejectType, rejectLabels, reason, clientComment,
//	                                                     verifiedLevel, lastEventMs, created, updated, ver;
//	                                                     gsi1 KYCLIST#<status> / <updated:013d>#<uid>
//	KYC#<uid>                   EVENT#<atMs:013d>#<id>   history: every event received or decided, applied
//	                                                     or not, and why
//	KYC#EVENT#<sha256(key)>     E                        an event applied once (webhook replays); ttl 30 days
//	KYC#APPID#<applicantId>     UID                      the provider's applicant id → uid
//	CONFIG#kyc                  SETTINGS                 levels and limits (operator settings), ver
//	USER#<uid>                  PROFILE                  kycStatus, kycLevel, kycRejectReason and, once
//	                                                     verified, realName, firstName, lastName, country
//	                                                     (package auth's item, written in the same
//	                                                     transaction as the applicant)
//
// Every KYC partition starts with "KYC#", so a process's grant of the
// table names one prefix for all of them (internal/store/keyspace); the
// settings live under CONFIG#, which every process reads.
package kyc

import (
	"slices"
	"strings"
)

// Status is the user's verification status as the profile's kycStatus
// shows it.
type Status int

// Statuses.
const (
	Unverified Status = 0
	Pending    Status = 1
	Verified   Status = 2
	Rejected   Status = 3
)

// String names the status as the operator's lists do.
func (s Status) String() string {
	switch s {
	case Pending:
		return "pending"
	case Verified:
		return "verified"
	case Rejected:
		return "rejected"
	}
	return "unverified"
}

// ParseStatus reads a status name (String's); ok is false for any other.
func ParseStatus(name string) (Status, bool) {
	for _, s := range []Status{Unverified, Pending, Verified, Rejected} {
		if strings.EqualFold(name, s.String()) {
			return s, true
		}
	}
	return Unverified, false
}

// Review statuses of an applicant (Sumsub's reviewStatus; prechecked and
// queued count as pending).
const (
	ReviewInit      = "init"
	ReviewPending   = "pending"
	ReviewOnHold    = "onHold"
	ReviewCompleted = "completed"
)

// Review answers.
const (
	AnswerGreen = "GREEN"
	AnswerRed   = "RED"
)

// Reject types: after RETRY the user may send documents again; FINAL ends
// the verification (only an operator, or the provider's own reset, opens
// it again).
const (
	RejectRetry = "RETRY"
	RejectFinal = "FINAL"
)

// EventKind is what happened to an applicant (the provider's webhook types).
type EventKind string

// Event kinds the state machine knows; the provider's other webhook types
// are recorded in the history and change nothing.
const (
	EventCreated      EventKind = "applicantCreated"
	EventPending      EventKind = "applicantPending"
	EventOnHold       EventKind = "applicantOnHold"
	EventReviewed     EventKind = "applicantReviewed"
	EventReset        EventKind = "applicantReset"
	EventLevelChanged EventKind = "applicantLevelChanged"
)

// Sources of events.
const (
	SourceWebhook  = "webhook"
	SourceAPI      = "api"
	SourceOperator = "operator"
	// SourceProvider is a review read from the provider's applicant status
	// (a webhook that never arrived).
	SourceProvider = "provider"
)

// Event is one change of an applicant, as the provider, the API or an
// operator reports it.
type Event struct {
	// Key makes the event apply once: a webhook's type, correlation id and
	// time (or its body's hash when it has no correlation id). Empty for
	// the API's and operators' events.
	Key  string
	Kind EventKind
	// ApplicantID and UserID (the provider's externalUserId) name the
	// applicant.
	ApplicantID string
	UserID      string
	// ProviderLevel is the provider's level name the event is about; the
	// service resolves it to Level.
	ProviderLevel string
	Level         string
	// AtMs is when the provider made the event (Sumsub's createdAtMs): an
	// event older than the applicant's latest one changes nothing.
	AtMs int64
	// Answer, RejectType, RejectLabels, Reason (shown to the user) and
	// ClientComment (operators only) are a review's.
	Answer        string
	RejectType    string
	RejectLabels  []string
	Reason        string
	ClientComment string
	Source        string
	// By names the operator of an operator's decision.
	By string
	// Identity is the verified person (a GREEN review), copied to the profile.
	Identity *Identity
}

// Identity is what the provider recognised of the person.
type Identity struct {
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	// Country is ISO 3166-1 alpha-3, as Sumsub gives it.
	Country string `json:"country"`
	// DOB is the date of birth, YYYY-MM-DD.
	DOB string `json:"dob"`
}

// RealName is the name the profile shows.
func (i Identity) RealName() string {
	return strings.TrimSpace(strings.TrimSpace(i.FirstName) + " " + strings.TrimSpace(i.LastName))
}

// Applicant is the user's verification as this exchange keeps it.
type Applicant struct {
	UserID string `json:"userId"`
	// ApplicantID is the provider's id ("" for a user only an operator decided about).
	ApplicantID string `json:"applicantId"`
	Provider    string `json:"provider"`
	// Level is the level being applied for (or last applied for).
	Level         string `json:"levelName"`
	ProviderLevel string `json:"providerLevel"`
	ReviewStatus  string `json:"reviewStatus" doc:"init, pending, onHold or completed"`
	Answer        string `json:"reviewAnswer,omitempty" doc:"GREEN or RED once completed"`
	RejectType    string `json:"reviewRejectType,omitempty" doc:"RETRY or FINAL"`
	// RejectLabels are the provider's labels (UNSATISFACTORY_PHOTOS ...).
	RejectLabels []string `json:"rejectLabels"`
	// Reason is the reviewer's comment for the user.
	Reason string `json:"rejectReason,omitempty"`
	// ClientComment is the reviewer's comment for operators only.
	ClientComment string `json:"-"`
	// VerifiedLevel is the highest level held ("" when none).
	VerifiedLevel string `json:"verifiedLevel"`
	LastEventMs   int64  `json:"lastEventMs"`
	Created       int64  `json:"created"`
	Updated       int64  `json:"updated"`
	version       int64
}

// Status is the kycStatus the applicant gives the profile.
func (a Applicant) Status() Status {
	switch {
	case a.VerifiedLevel != "":
		return Verified
	case a.ReviewStatus == ReviewCompleted && a.Answer == AnswerRed:
		return Rejected
	case a.ReviewStatus == ReviewPending || a.ReviewStatus == ReviewOnHold:
		return Pending
	}
	return Unverified
}

// FinalRejected reports a FINAL rejection of the current level: the user
// can neither send documents again nor move to another level.
func (a Applicant) FinalRejected() bool {
	return a.ReviewStatus == ReviewCompleted && a.Answer == AnswerRed && a.RejectType == RejectFinal
}

// CanRetry reports whether the user may send documents (again) for the
// current level.
func (a Applicant) CanRetry() bool {
	return !a.FinalRejected() && a.ReviewStatus != ReviewPending && a.ReviewStatus != ReviewOnHold
}

// Outcome says what an event did.
type Outcome struct {
	Applied bool
	// Why the event changed nothing (empty when applied).
	Ignored string
}

// Transition applies ev to a under the levels of set: the state machine.
// ev.Level must be resolved already (a level of set). It never moves a
// verified level back to pending, lets nothing older than the latest
// applied event change anything, and keeps a FINAL rejection final against
// the provider's pending events (its reset, a new review or an operator
// ends it).
func Transition(a Applicant, ev Event, set Settings) (Applicant, Outcome) {
	ignore := func(why string) (Applicant, Outcome) { return a, Outcome{Ignored: why} }
	if ev.AtMs < a.LastEventMs {
		return ignore("older than the applicant's latest event")
	}
	switch ev.Kind {
	case EventCreated, EventPending, EventOnHold, EventReviewed, EventReset, EventLevelChanged:
	default:
		return ignore("event type " + string(ev.Kind) + " changes nothing here")
	}
	rank := set.Rank(ev.Level)
	if rank == 0 && ev.Kind != EventCreated {
		return ignore("level " + ev.ProviderLevel + " is not configured")
	}
	verified := set.Rank(a.VerifiedLevel)
	next := a
	next.LastEventMs = ev.AtMs
	if ev.ApplicantID != "" && next.ApplicantID == "" {
		next.ApplicantID = ev.ApplicantID
	}
	clearReview := func() {
		next.Answer, next.RejectType, next.RejectLabels, next.Reason, next.ClientComment = "", "", nil, "", ""
	}
	switch ev.Kind {
	case EventCreated:
		if a.ApplicantID != "" && a.ReviewStatus != "" {
			return ignore("the applicant exists already")
		}
		next.ReviewStatus = ReviewInit
		if rank > 0 {
			next.Level, next.ProviderLevel = ev.Level, ev.ProviderLevel
		}
	case EventPending, EventOnHold:
		if rank <= verified {
			return ignore("verified at this level already")
		}
		if a.FinalRejected() && ev.Level == a.Level {
			return ignore("rejected for good (FINAL): no retry")
		}
		next.Level, next.ProviderLevel = ev.Level, ev.ProviderLevel
		next.ReviewStatus = ReviewPending
		if ev.Kind == EventOnHold {
			next.ReviewStatus = ReviewOnHold
		}
		clearReview()
	case EventReviewed:
		next.Level, next.ProviderLevel = ev.Level, ev.ProviderLevel
		next.ReviewStatus = ReviewCompleted
		clearReview()
		switch ev.Answer {
		case AnswerGreen:
			next.Answer = AnswerGreen
			if rank > verified {
				next.VerifiedLevel = ev.Level
			}
		case AnswerRed:
			next.Answer = AnswerRed
			next.RejectType = ev.RejectType
			if next.RejectType != RejectFinal {
				next.RejectType = RejectRetry
			}
			next.RejectLabels = slices.Clone(ev.RejectLabels)
			next.Reason, next.ClientComment = ev.Reason, ev.ClientComment
			// A newer rejection of a level held takes it back, with every
			// level above it; the levels below stay (their reviews were
			// not questioned).
			if rank <= verified {
				next.VerifiedLevel = set.Below(ev.Level)
			}
		default:
			return ignore("review answer " + ev.Answer + " is neither GREEN nor RED")
		}
	case EventReset:
		// The provider's reset opens the level again; a level held stays
		// held until a review says otherwise.
		next.Level, next.ProviderLevel = ev.Level, ev.ProviderLevel
		next.ReviewStatus = ReviewInit
		clearReview()
	case EventLevelChanged:
		// The API refuses moves under review or after a FINAL rejection
		// before asking the provider; a move the provider reports is its
		// own decision and is taken as it is.
		if ev.Level == a.Level && a.ReviewStatus != "" {
			return ignore("the applicant is at this level already")
		}
		next.Level, next.ProviderLevel = ev.Level, ev.ProviderLevel
		next.ReviewStatus = ReviewInit
		clearReview()
	}
	if same(a, next) {
		return ignore(unchanged)
	}
	return next, Outcome{Applied: true}
}

// unchanged is why an event that would leave the applicant as it is
// changes nothing (the same review told twice, by two sources).
const unchanged = "the applicant is in this state already"

// same reports whether two applicants are in the same state (their times aside).
func same(a, b Applicant) bool {
	return a.ApplicantID == b.ApplicantID && a.Level == b.Level && a.ProviderLevel == b.ProviderLevel &&
		a.ReviewStatus == b.ReviewStatus && a.Answer == b.Answer && a.RejectType == b.RejectType &&
		slices.Equal(a.RejectLabels, b.RejectLabels) && a.Reason == b.Reason && a.ClientComment == b.ClientComment &&
		a.VerifiedLevel == b.VerifiedLevel
}
