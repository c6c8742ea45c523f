package kyc_test

import (
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/kyc"
)

// twoLevels are basic and an advanced level above it.
func twoLevels() kyc.Settings {
	set := kyc.DefaultSettings(decimal.Zero)
	set.Levels = append(set.Levels, kyc.Level{Name: "advanced", ProviderLevel: "advanced-kyc-level",
		WithdrawDailyUSDT: decimal.NewFromInt(500000)})
	return set
}

// ev is an event at a level (our name and the provider's) at time at.
func ev(kind kyc.EventKind, level string, at int64) kyc.Event {
	return kyc.Event{Kind: kind, Level: level, ProviderLevel: level + "-kyc-level", AtMs: at, Source: kyc.SourceWebhook}
}

func red(level string, at int64, typ string) kyc.Event {
	e := ev(kyc.EventReviewed, level, at)
	e.Answer, e.RejectType, e.RejectLabels, e.Reason = kyc.AnswerRed, typ, []string{"UNSATISFACTORY_PHOTOS"}, "Please upload a clear photo"
	return e
}

func green(level string, at int64) kyc.Event {
	e := ev(kyc.EventReviewed, level, at)
	e.Answer = kyc.AnswerGreen
	return e
}

// step applies an event and checks whether it applied and the status after it.
type step struct {
	ev      kyc.Event
	applied bool
	status  kyc.Status
}

func run(t *testing.T, set kyc.Settings, steps []step) kyc.Applicant {
	t.Helper()
	a := kyc.Applicant{UserID: "10000001", ApplicantID: "app1", Level: "basic", ReviewStatus: kyc.ReviewInit}
	for i, s := range steps {
		next, out := kyc.Transition(a, s.ev, set)
		if out.Applied != s.applied {
			t.Fatalf("step %d (%s %s at %d): applied %v (%s), want %v", i, s.ev.Kind, s.ev.Answer, s.ev.AtMs, out.Applied, out.Ignored, s.applied)
		}
		if !out.Applied && (next.Status() != a.Status() || next.LastEventMs != a.LastEventMs) {
			t.Fatalf("step %d: an ignored event changed the applicant: %+v → %+v", i, a, next)
		}
		if next.Status() != s.status {
			t.Fatalf("step %d (%s): status %s, want %s (%+v)", i, s.ev.Kind, next.Status(), s.status, next)
		}
		a = next
	}
	return a
}

func TestUnverifiedPendingVerified(t *testing.T) {
	a := run(t, twoLevels(), []step{
		{ev(kyc.EventPending, "basic", 10), true, kyc.Pending},
		{green("basic", 20), true, kyc.Verified},
	})
	if a.VerifiedLevel != "basic" || !a.CanRetry() {
		t.Fatalf("%+v", a)
	}
}

func TestRejectedRetryThenVerified(t *testing.T) {
	a := run(t, twoLevels(), []step{
		{ev(kyc.EventPending, "basic", 10), true, kyc.Pending},
		{red("basic", 20, kyc.RejectRetry), true, kyc.Rejected},
	})
	if !a.CanRetry() || a.FinalRejected() || a.Reason == "" || len(a.RejectLabels) != 1 {
		t.Fatalf("after RETRY %+v", a)
	}
	run(t, twoLevels(), []step{
		{ev(kyc.EventPending, "basic", 10), true, kyc.Pending},
		{red("basic", 20, kyc.RejectRetry), true, kyc.Rejected},
		// The user sends documents again: pending, the reasons gone.
		{ev(kyc.EventPending, "basic", 30), true, kyc.Pending},
		{green("basic", 40), true, kyc.Verified},
	})
}

func TestFinalRejectionCannotRetry(t *testing.T) {
	a := run(t, twoLevels(), []step{
		{ev(kyc.EventPending, "basic", 10), true, kyc.Pending},
		{red("basic", 20, kyc.RejectFinal), true, kyc.Rejected},
		// Documents sent again after a FINAL rejection change nothing.
		{ev(kyc.EventPending, "basic", 30), false, kyc.Rejected},
		{ev(kyc.EventOnHold, "basic", 31), false, kyc.Rejected},
	})
	if a.CanRetry() || !a.FinalRejected() {
		t.Fatalf("%+v", a)
	}
	// The provider's reset opens it again.
	run(t, twoLevels(), []step{
		{red("basic", 20, kyc.RejectFinal), true, kyc.Rejected},
		{ev(kyc.EventReset, "basic", 40), true, kyc.Unverified},
		{ev(kyc.EventPending, "basic", 50), true, kyc.Pending},
	})
}

func TestOutOfOrderAndReplayedEventsChangeNothing(t *testing.T) {
	run(t, twoLevels(), []step{
		{ev(kyc.EventPending, "basic", 10), true, kyc.Pending},
		{green("basic", 30), true, kyc.Verified},
		// A pending that happened before the review arrives late.
		{ev(kyc.EventPending, "basic", 20), false, kyc.Verified},
		// An old rejection arrives late.
		{red("basic", 25, kyc.RejectFinal), false, kyc.Verified},
		// A newer pending of the level held never moves it back to pending.
		{ev(kyc.EventPending, "basic", 40), false, kyc.Verified},
		// The same review again changes nothing that matters.
		{green("basic", 30), false, kyc.Verified},
	})
}

func TestHigherLevelKeepsTheLowerOne(t *testing.T) {
	a := run(t, twoLevels(), []step{
		{green("basic", 10), true, kyc.Verified},
		{ev(kyc.EventLevelChanged, "advanced", 20), true, kyc.Verified},
		{ev(kyc.EventPending, "advanced", 30), true, kyc.Verified},
		{red("advanced", 40, kyc.RejectRetry), true, kyc.Verified},
	})
	if a.VerifiedLevel != "basic" || a.Level != "advanced" || a.Answer != kyc.AnswerRed {
		t.Fatalf("%+v", a)
	}
	a = run(t, twoLevels(), []step{
		{green("basic", 10), true, kyc.Verified},
		{green("advanced", 20), true, kyc.Verified},
		// A newer rejection of basic takes back basic and everything above it.
		{red("basic", 30, kyc.RejectFinal), true, kyc.Rejected},
	})
	if a.VerifiedLevel != "" {
		t.Fatalf("%+v", a)
	}
	a = run(t, twoLevels(), []step{
		{green("advanced", 20), true, kyc.Verified},
		{red("advanced", 30, kyc.RejectRetry), true, kyc.Verified},
	})
	if a.VerifiedLevel != "basic" {
		t.Fatalf("a rejection of advanced keeps the levels below it: %+v", a)
	}
}

func TestUnknownLevelsAndTypesAreIgnored(t *testing.T) {
	run(t, twoLevels(), []step{
		{kyc.Event{Kind: kyc.EventPending, ProviderLevel: "nobody-level", AtMs: 10}, false, kyc.Unverified},
		{kyc.Event{Kind: "applicantPersonalInfoChanged", Level: "basic", AtMs: 11}, false, kyc.Unverified},
		{kyc.Event{Kind: kyc.EventReviewed, Level: "basic", Answer: "YELLOW", AtMs: 12}, false, kyc.Unverified},
	})
}

func TestSettingsLimits(t *testing.T) {
	set := twoLevels()
	for level, want := range map[string]string{"": "1000", "basic": "100000", "advanced": "500000", "gone": "1000"} {
		if got := set.LimitOf(level); got.String() != want {
			t.Errorf("LimitOf(%q) = %s, want %s", level, got, want)
		}
	}
	if set.Below("advanced") != "basic" || set.Below("basic") != "" || set.Rank("advanced") != 2 || set.Rank(kyc.LevelUnverified) != 0 {
		t.Fatalf("ranks %+v", set)
	}
}
