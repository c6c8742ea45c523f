package httpapi

import (
	"net/http"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/corporate"
)

// corpDevEnv is corpEnv with the dev reviewer mounted beside the
// corporate routes, as --dev mounts it.
func corpDevEnv(t *testing.T) (*profEnv, *corporate.Service, *corpUploads) {
	t.Helper()
	p := newProfEnv(t)
	up := &corpUploads{owner: map[string]string{}}
	svc := corporate.New(corporate.Options{Store: p.st, Accounts: p.svc, Attachments: up, Now: p.clock.Now, Log: zerolog.Nop()})
	opts := Options{Log: zerolog.Nop(), Now: p.clock.Now, Sessions: AuthSessions(p.svc)}
	mux := http.NewServeMux()
	Mount(mux, p.h.(*Router), NewCorporateRouter(svc, opts), NewDevCorporateRouter(svc, opts))
	p.h = mux
	return p, svc, up
}

// submitCorporate fills the five steps for uid and submits them.
func submitCorporate(t *testing.T, p *profEnv, up *corpUploads, uid, tok string) {
	t.Helper()
	p.ok(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": 1, "applicant": map[string]any{
		"fullName": "Bat-Erdene Dorj", "position": "CFO", "email": "cfo@steppe.mn", "phone": "+976 8800 1122"}}), hdr(tok))
	p.ok(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": 2, "company": map[string]any{
		"entityName": "Steppe Trading LLC", "registrationNumber": "6543210", "registrationDate": "2015-03-02",
		"contactNumber": "+976 7711 2233", "sourceOfFunds": "Trading revenue", "businessType": "Wholesale",
		"applyReason": "Treasury", "registeredCountry": "MN", "registeredCity": "Ulaanbaatar",
		"registeredStreet": "Peace Avenue 17", "registeredZip": "14200", "businessAddressSame": true}}), hdr(tok))
	p.ok(t, PathCorpCompanyUser, withEnv(map[string]any{"people": []any{
		map[string]any{"name": "Bat-Erdene Dorj", "roles": []string{"director", "owner"}, "nationality": "MN",
			"dateOfBirth": "1980-05-01", "ownershipPercent": "100"},
	}, "allOwnersListed": true}), hdr(tok))
	up.add(uid, uid+"-inc", uid+"-art", uid+"-poa", uid+"-id")
	p.ok(t, PathCorpAttachment, withEnv(map[string]any{"files": []any{
		map[string]any{"kind": "certificate_of_incorporation", "uploadId": uid + "-inc"},
		map[string]any{"kind": "articles_of_association", "uploadId": uid + "-art"},
		map[string]any{"kind": "proof_of_address", "uploadId": uid + "-poa"},
		map[string]any{"kind": "representative_id", "uploadId": uid + "-id", "personId": "p1"},
	}}), hdr(tok))
	p.ok(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": 5, "questionnaire": map[string]any{
		"monthlyVolume": "100k_1m", "purposes": []string{"treasury"}, "pep": false, "sanctions": false, "accuracyConfirmed": true}}), hdr(tok))
	if d := p.ok(t, PathCorpConfirm, withEnv(map[string]any{}), hdr(tok)); d["status"] != "pending" {
		t.Fatalf("submit %+v", d)
	}
}

// TestDevCorporateReview: the dev reviewer rejects with reasons the user
// then sees, approves a resubmitted application (the user becomes an
// enterprise account, as with `tenger corporate approve`), and refuses
// what the review refuses: an unknown answer, a rejection without
// reasons, an application not waiting for review, a user without one.
func TestDevCorporateReview(t *testing.T) {
	p, svc, up := corpDevEnv(t)
	uid := p.signUp(t, "corp-dev@example.com", "Passw0rd!x")
	tok := p.signIn(t, "corp-dev@example.com", "Passw0rd!x")

	// Nothing to review yet.
	p.fails(t, PathDevCorpReview, withEnv(map[string]any{"userId": uid, "answer": "approve"}), authMode{}, apperr.CodeCorpNoApplication)

	submitCorporate(t, p, up, uid, tok)
	p.fails(t, PathDevCorpReview, withEnv(map[string]any{"userId": uid, "answer": "maybe"}), authMode{}, apperr.CodeParam)
	p.fails(t, PathDevCorpReview, withEnv(map[string]any{"userId": uid}), authMode{}, apperr.CodeParam)
	p.fails(t, PathDevCorpReview, withEnv(map[string]any{"userId": uid, "answer": "reject"}), authMode{}, apperr.CodeCorpReason)
	p.fails(t, PathDevCorpReview, withEnv(map[string]any{"userId": uid, "answer": "reject", "reasons": []string{"  "}}), authMode{}, apperr.CodeCorpReason)

	// Rejected: the user sees the reasons and may edit again.
	d := p.ok(t, PathDevCorpReview, withEnv(map[string]any{"userId": uid, "answer": "reject",
		"reasons": []string{"The proof of address is older than three months"}}), authMode{})
	if d["status"] != corporate.StatusRejected || d["reviewedBy"] != DevCorpReviewer {
		t.Fatalf("reject answer %+v", d)
	}
	st := p.ok(t, PathCorpStatus, withEnv(map[string]any{}), hdr(tok))
	reasons, _ := st["reasons"].([]any)
	if st["status"] != "rejected" || st["editable"] != true || len(reasons) != 1 || reasons[0] != "The proof of address is older than three months" {
		t.Fatalf("status after reject %+v", st)
	}
	// A second decision needs a new submit.
	p.fails(t, PathDevCorpReview, withEnv(map[string]any{"userId": uid, "answer": "approve"}), authMode{}, apperr.CodeCorpNotPending)

	// Submitted again and approved: an enterprise account, as the CLI makes it.
	if d := p.ok(t, PathCorpConfirm, withEnv(map[string]any{}), hdr(tok)); d["status"] != "pending" {
		t.Fatalf("resubmit %+v", d)
	}
	d = p.ok(t, PathDevCorpReview, withEnv(map[string]any{"userId": uid, "answer": " Approve "}), authMode{})
	if d["status"] != corporate.StatusApproved {
		t.Fatalf("approve answer %+v", d)
	}
	st = p.ok(t, PathCorpStatus, withEnv(map[string]any{}), hdr(tok))
	if st["status"] != "approved" || st["accountType"] != "enterprise" || st["canChangeToRegular"] != true {
		t.Fatalf("status after approve %+v", st)
	}
	if info := p.ok(t, pUserInfo, withEnv(map[string]any{}), hdr(tok)); info["accountType"] != "enterprise" {
		t.Fatalf("user_info %+v", info)
	}
	a, err := svc.Application(t.Context(), uid)
	if err != nil {
		t.Fatal(err)
	}
	if last := a.History[len(a.History)-1]; last.Status != corporate.StatusApproved || last.By != DevCorpReviewer {
		t.Fatalf("history %+v", a.History)
	}
	p.fails(t, PathDevCorpReview, withEnv(map[string]any{"userId": uid, "answer": "approve"}), authMode{}, apperr.CodeCorpNotPending)
}

// The dev reviewer is not part of the corporate router: only --dev mounts
// it (platform's corporateArea), so without it the path is unknown.
func TestDevCorporateReviewOnlyWithDev(t *testing.T) {
	for _, rt := range NewCorporateRouter(nil, Options{}).Routes() {
		if rt.Path == PathDevCorpReview {
			t.Fatal("the corporate router serves the dev reviewer")
		}
	}
	var found bool
	for _, rt := range NewDevCorporateRouter(nil, Options{}).Routes() {
		found = found || rt.Path == PathDevCorpReview && rt.Tag == "dev"
	}
	if !found {
		t.Fatal("the dev router lacks " + PathDevCorpReview)
	}
}
