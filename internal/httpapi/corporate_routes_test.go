package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/corporate"
)

// corpUploads stands in for the upload service: which user uploaded
// which ids.
type corpUploads struct {
	mu    sync.Mutex
	owner map[string]string
}

func (u *corpUploads) add(uid string, ids ...string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, id := range ids {
		u.owner[id] = uid
	}
}

func (u *corpUploads) CheckOwned(_ context.Context, uid string, ids ...string) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, id := range ids {
		if u.owner[id] != uid {
			return apperr.New(apperr.CodeCorpUploadNotFound, id)
		}
	}
	return nil
}

// corpEnv is the profile env with the corporate routes mounted beside the
// profile's, as ProfileArea mounts them.
func corpEnv(t *testing.T) (*profEnv, *corporate.Service, *corpUploads) {
	t.Helper()
	p := newProfEnv(t)
	up := &corpUploads{owner: map[string]string{}}
	svc := corporate.New(corporate.Options{Store: p.st, Accounts: p.svc, Attachments: up, Now: p.clock.Now, Log: zerolog.Nop()})
	mux := http.NewServeMux()
	Mount(mux, p.h.(*Router), NewCorporateRouter(svc, Options{Log: zerolog.Nop(), Now: p.clock.Now, Sessions: AuthSessions(p.svc)}))
	p.h = mux
	return p, svc, up
}

// TestCorporateRoutesJourney: the five steps saved through their calls,
// a submit refused with the missing fields listed, then accepted; no
// edits while pending; approval shows in user_info as an enterprise
// account, and the change back to regular.
func TestCorporateRoutesJourney(t *testing.T) {
	p, svc, up := corpEnv(t)
	uid := p.signUp(t, "corp@example.com", "Passw0rd!x")
	tok := p.signIn(t, "corp@example.com", "Passw0rd!x")

	d := p.ok(t, PathCorpGetBaseInfo, withEnv(map[string]any{}), hdr(tok))
	if d["status"] != "none" || d["accountType"] != "regular" || d["company"] != nil || d["editable"] != true || len(d["steps"].([]any)) != 5 {
		t.Fatalf("fresh %+v", d)
	}
	p.ok(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": 1, "applicant": map[string]any{
		"fullName": "Bat-Erdene Dorj", "position": "CFO", "email": "cfo@steppe.mn", "phone": "+976 8800 1122"}}), hdr(tok))
	// The spec's step 2 form, exactly.
	d = p.ok(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": "2", "company": map[string]any{
		"entityName": "Steppe Trading LLC", "registrationNumber": "6543210", "registrationDate": "2015-03-02",
		"contactNumber": "+976 7711 2233", "sourceOfFunds": "Trading revenue", "businessType": "Wholesale",
		"applyReason": "Treasury", "registeredCountry": "MN", "registeredCity": "Ulaanbaatar",
		"registeredStreet": "Peace Avenue 17", "registeredZip": "14200", "businessAddressSame": true}}), hdr(tok))
	if d["status"] != "draft" || d["company"].(map[string]any)["entityName"] != "Steppe Trading LLC" {
		t.Fatalf("step 2 %+v", d)
	}

	// Submitting now lists steps 3 to 5 and changes nothing.
	_, env := p.post(t, PathCorpConfirm, withEnv(map[string]any{}), hdr(tok))
	if env.Code != apperr.CodeCorpIncomplete || env.Msg != "Complete step 3, 4, 5 before submitting" {
		t.Fatalf("early submit %+v", env)
	}
	missing := env.Data.(map[string]any)["missing"].([]any)
	first := missing[0].(map[string]any)
	if first["step"].(float64) != 3 || first["field"] != "people" || first["rule"] != "required" {
		t.Fatalf("missing %+v", missing)
	}

	d = p.ok(t, PathCorpCompanyUser, withEnv(map[string]any{"people": []any{
		map[string]any{"name": "Bat-Erdene Dorj", "roles": []string{"director", "owner"}, "nationality": "MN",
			"dateOfBirth": "1980-05-01", "ownershipPercent": "100"},
	}, "allOwnersListed": true}), hdr(tok))
	person := d["people"].(map[string]any)["people"].([]any)[0].(map[string]any)
	if person["id"] != "p1" || person["ownershipPercent"] != "100" {
		t.Fatalf("step 3 %+v", d["people"])
	}
	up.add(uid, "up-inc", "up-art", "up-poa", "up-id")
	p.ok(t, PathCorpAttachment, withEnv(map[string]any{"files": []any{
		map[string]any{"kind": "certificate_of_incorporation", "uploadId": "up-inc"},
		map[string]any{"kind": "articles_of_association", "uploadId": "up-art"},
		map[string]any{"kind": "proof_of_address", "uploadId": "up-poa"},
		map[string]any{"kind": "representative_id", "uploadId": "up-id", "personId": "p1"},
	}}), hdr(tok))
	d = p.ok(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": 5, "questionnaire": map[string]any{
		"monthlyVolume": "100k_1m", "purposes": []string{"treasury"}, "pep": false, "sanctions": false, "accuracyConfirmed": true}}), hdr(tok))
	if d["canSubmit"] != true || len(d["missing"].([]any)) != 0 {
		t.Fatalf("complete %+v", d)
	}
	d = p.ok(t, PathCorpConfirm, withEnv(map[string]any{}), hdr(tok))
	if d["status"] != "pending" || d["editable"] != false {
		t.Fatalf("submitted %+v", d)
	}
	p.fails(t, PathCorpCompanyUser, withEnv(map[string]any{"people": []any{}}), hdr(tok), apperr.CodeCorpUnderReview)
	p.fails(t, PathCorpConfirm, withEnv(map[string]any{}), hdr(tok), apperr.CodeCorpUnderReview)

	if _, err := svc.Approve(t.Context(), uid, "alice"); err != nil {
		t.Fatal(err)
	}
	if info := p.ok(t, pUserInfo, withEnv(map[string]any{}), hdr(tok)); info["accountType"] != "enterprise" {
		t.Fatalf("user_info %+v", info)
	}
	st := p.ok(t, PathCorpStatus, withEnv(map[string]any{}), hdr(tok))
	if st["status"] != "approved" || st["canChangeToRegular"] != true {
		t.Fatalf("status %+v", st)
	}
	st = p.ok(t, PathCorpToRegular, withEnv(map[string]any{}), hdr(tok))
	if st["accountType"] != "regular" || st["status"] != "draft" {
		t.Fatalf("to regular %+v", st)
	}
	if info := p.ok(t, pUserInfo, withEnv(map[string]any{}), hdr(tok)); info["accountType"] != "regular" {
		t.Fatalf("user_info %+v", info)
	}
	p.fails(t, PathCorpToRegular, withEnv(map[string]any{}), hdr(tok), apperr.CodeCorpNotEnterprise)
}

// TestCorporateRoutesRefuseBadInput: each call's bad input gets its code
// in the caller's language, a signed-out caller none of it, and one user
// never attaches another's uploads.
func TestCorporateRoutesRefuseBadInput(t *testing.T) {
	p, _, up := corpEnv(t)
	p.signUp(t, "a@example.com", "Passw0rd!x")
	a := p.signIn(t, "a@example.com", "Passw0rd!x")
	uidB := p.signUp(t, "b@example.com", "Passw0rd!x")
	up.add(uidB, "b-file")

	for _, path := range []string{PathCorpGetBaseInfo, PathCorpSaveBaseInfo, PathCorpStatus, PathCorpCompanyUser,
		PathCorpAttachment, PathCorpConfirm, PathCorpToRegular} {
		p.fails(t, path, withEnv(map[string]any{"step": 1, "applicant": map[string]any{}}), authMode{}, apperr.CodeNotSignedIn)
	}
	p.fails(t, PathCorpSaveBaseInfo, withEnv(map[string]any{}), hdr(a), apperr.CodeParam)
	p.fails(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": 3, "company": map[string]any{}}), hdr(a), apperr.CodeCorpStepRoute)
	env := p.fails(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": 4}), hdr(a), apperr.CodeCorpStepRoute)
	if !strings.Contains(env.Msg, PathCorpAttachment) {
		t.Fatalf("step 4 message %q", env.Msg)
	}
	p.fails(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": 9}), hdr(a), apperr.CodeParam)
	p.fails(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": 2}), hdr(a), apperr.CodeCorpRequired)
	p.fails(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": 2, "company": map[string]any{}, "applicant": map[string]any{}}), hdr(a), apperr.CodeParam)
	p.fails(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": 2, "company": map[string]any{"businessAddressSame": "yes"}}), hdr(a), apperr.CodeParam)
	// Field names are exact, as everywhere.
	p.fails(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": 2, "company": map[string]any{"EntityName": "X"}}), hdr(a), apperr.CodeParam)

	_, env = p.post(t, PathCorpSaveBaseInfo, withEnv(map[string]any{"step": 2, "company": map[string]any{"registeredCountry": "Mongolia"}}),
		authMode{header: a})
	if env.Code != apperr.CodeCorpCountry || !strings.Contains(env.Msg, "registeredCountry") {
		t.Fatalf("country %+v", env)
	}
	req := withEnv(map[string]any{"people": []any{map[string]any{"name": "Kid", "roles": []string{"director"}, "nationality": "MN", "dateOfBirth": "2015-01-01"}}})
	p.fails(t, PathCorpCompanyUser, req, hdr(a), apperr.CodeCorpAge)
	req = withEnv(map[string]any{"people": []any{
		map[string]any{"name": "A", "roles": []string{"owner"}, "nationality": "MN", "dateOfBirth": "1980-01-01", "ownershipPercent": "70"},
		map[string]any{"name": "B", "roles": []string{"owner"}, "nationality": "MN", "dateOfBirth": "1980-01-01", "ownershipPercent": "40"},
	}})
	env = p.fails(t, PathCorpCompanyUser, req, hdr(a), apperr.CodeCorpOwnershipOver)
	if env.Msg != "The owners' shares add up to 110%, more than 100%" {
		t.Fatalf("over 100 %q", env.Msg)
	}
	// Another user's upload.
	p.fails(t, PathCorpAttachment, withEnv(map[string]any{"files": []any{map[string]any{"kind": "proof_of_address", "uploadId": "b-file"}}}),
		hdr(a), apperr.CodeCorpUploadNotFound)
	p.fails(t, PathCorpConfirm, withEnv(map[string]any{}), hdr(a), apperr.CodeCorpNoApplication)
	p.fails(t, PathCorpToRegular, withEnv(map[string]any{}), hdr(a), apperr.CodeCorpNotEnterprise)

	// In Mongolian.
	req2, _ := json.Marshal(withEnv(map[string]any{"step": 1, "applicant": map[string]any{"email": "nope"}}))
	rr := p.rawPost(t, PathCorpSaveBaseInfo, string(req2), map[string]string{HeaderToken: a, HeaderLanguage: apperr.LangMN})
	if rr.Code != apperr.CodeCorpEmail || rr.Msg != "email нь имэйл хаяг байх ёстой" {
		t.Fatalf("mn %+v", rr)
	}
	// Nothing of A's was written by the refused calls.
	if d := p.ok(t, PathCorpGetBaseInfo, withEnv(map[string]any{}), hdr(a)); d["status"] != "none" {
		t.Fatalf("refused calls wrote %+v", d)
	}
}

// rawPost posts a body with the given headers and decodes the envelope.
func (p *profEnv) rawPost(t *testing.T, path, body string, headers map[string]string) Envelope {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	p.h.ServeHTTP(rec, req)
	var env Envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("%s: not an envelope: %q", path, rec.Body.String())
	}
	return env
}

// The corporate routes are in the OpenAPI document with their step
// fields.
func TestCorporateRoutesInOpenAPI(t *testing.T) {
	doc := OpenAPI("Tenger API", "test", NewCorporateRouter(nil, Options{}).Routes())
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{PathCorpGetBaseInfo, PathCorpSaveBaseInfo, PathCorpStatus, PathCorpCompanyUser, PathCorpAttachment,
		PathCorpConfirm, PathCorpToRegular, "registeredCountry", "businessAddressSame", "allOwnersListed", "ownershipPercent",
		"uploadId", "personId", "accuracyConfirmed", "canChangeToRegular", "missing", "corporate-verification"} {
		if !strings.Contains(s, want) {
			t.Errorf("OpenAPI lacks %s", want)
		}
	}
}
