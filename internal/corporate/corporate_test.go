package corporate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// uploads is the upload service as corporate verification sees it: which
// user uploaded which ids.
type uploads struct {
	mu    sync.Mutex
	owner map[string]string
}

func (u *uploads) add(uid string, ids ...string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, id := range ids {
		u.owner[id] = uid
	}
}

func (u *uploads) CheckOwned(_ context.Context, uid string, ids ...string) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, id := range ids {
		if u.owner[id] != uid {
			return apperr.New(apperr.CodeCorpUploadNotFound, id)
		}
	}
	return nil
}

type env struct {
	svc     *Service
	st      store.Store
	auth    *auth.Service
	uploads *uploads
	now     time.Time
}

func newEnv(t *testing.T) *env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e := &env{st: st, uploads: &uploads{owner: map[string]string{}}, now: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	clock := func() time.Time { return e.now }
	e.auth = auth.New(auth.Options{Store: st, Now: clock, Log: zerolog.Nop(), Password: &auth.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}})
	e.svc = New(Options{Store: st, Accounts: e.auth, Attachments: e.uploads, Now: clock, Log: zerolog.Nop()})
	for _, uid := range []string{"u1", "u2"} {
		e.profile(t, uid, auth.AccountRegular)
	}
	return e
}

// profile stores a user's profile as registration does (the fields this
// package reads).
func (e *env) profile(t *testing.T, uid, accountType string) {
	t.Helper()
	if err := e.st.Put(context.Background(), store.Item{store.AttrPK: "USER#" + uid, store.AttrSK: "PROFILE", "uid": uid,
		"accountType": accountType}, nil); err != nil {
		t.Fatal(err)
	}
}

func (e *env) accountType(t *testing.T, uid string) string {
	t.Helper()
	u, err := e.auth.User(context.Background(), uid)
	if err != nil {
		t.Fatal(err)
	}
	return u.AccountType
}

// stored is the application's item as the store holds it.
func (e *env) stored(t *testing.T, uid string) store.Item {
	t.Helper()
	it, err := e.st.Get(context.Background(), applicationKey(uid))
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func wantCode(t *testing.T, err error, code string) *apperr.Error {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Entry.Code != code {
		t.Fatalf("err = %v, want code %s", err, code)
	}
	return ae
}

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

func applicant() Applicant {
	return Applicant{FullName: "Bat-Erdene Dorj", Position: "CFO", Email: "cfo@steppe.mn", Phone: "+976 8800 1122"}
}

func company() Company {
	return Company{EntityName: "Steppe Trading LLC", RegistrationNumber: "6543210", RegistrationDate: "2015-03-02",
		ContactNumber: "+976-7711-2233", SourceOfFunds: "Revenue from commodity trading", BusinessType: "Wholesale trade",
		ApplyReason: "Treasury in crypto assets", RegisteredCountry: "mn", RegisteredCity: "Ulaanbaatar",
		RegisteredStreet: "Peace Avenue 17", RegisteredZip: "14200", BusinessAddressSame: yes()}
}

func people() People {
	return People{People: []Person{
		{Name: "Bat-Erdene Dorj", Roles: []string{"director", "owner"}, Nationality: "MN", DateOfBirth: "1980-05-01", OwnershipPercent: "60"},
		{Name: "Jane Roe", Roles: []string{"owner"}, Nationality: "gb", DateOfBirth: "1975-12-31", OwnershipPercent: "40"},
	}, AllOwnersListed: true}
}

func questionnaire() Questionnaire {
	return Questionnaire{MonthlyVolume: "100k_1m", Purposes: []string{"treasury", "trading"}, PEP: no(), Sanctions: no(), AccuracyConfirmed: true}
}

// documents attaches the company's documents and an ID for every person
// listed, uploaded by uid.
func (e *env) documents(uid string, v View) Documents {
	files := []File{
		{Kind: DocIncorporation, UploadID: uid + "-inc"}, {Kind: DocArticles, UploadID: uid + "-art"},
		{Kind: DocProofOfAddress, UploadID: uid + "-poa"},
	}
	for _, p := range v.People.People {
		files = append(files, File{Kind: DocRepresentativeID, UploadID: uid + "-id-" + p.ID, PersonID: p.ID})
	}
	for _, f := range files {
		e.uploads.add(uid, f.UploadID)
	}
	return Documents{Files: files}
}

// complete saves all five steps of uid's application.
func (e *env) complete(t *testing.T, uid string) View {
	t.Helper()
	ctx := context.Background()
	must := func(v View, err error) View {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	must(e.svc.SaveApplicant(ctx, uid, applicant()))
	must(e.svc.SaveCompany(ctx, uid, company()))
	v := must(e.svc.SavePeople(ctx, uid, people()))
	must(e.svc.SaveDocuments(ctx, uid, e.documents(uid, v)))
	return must(e.svc.SaveQuestionnaire(ctx, uid, questionnaire()))
}

// TestApprovalMakesEnterpriseAndBack is the main journey: five steps,
// submit, no edits while pending, approval makes the account enterprise
// in the same write, and the change back to regular reopens the
// application as a draft.
func TestApprovalMakesEnterpriseAndBack(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	v, err := e.svc.Get(ctx, "u1")
	if err != nil || v.Status.Status != StatusNone || !v.Editable || v.CanSubmit || len(v.Steps) != 5 || len(v.Missing) == 0 {
		t.Fatalf("fresh %+v %v", v, err)
	}
	v = e.complete(t, "u1")
	if v.Status.Status != StatusDraft || !v.CanSubmit || len(v.Missing) != 0 {
		t.Fatalf("complete draft %+v", v)
	}
	for _, s := range v.Steps {
		if !s.Saved || !s.Complete || s.Name != StepNames[s.Step] {
			t.Fatalf("step %+v", s)
		}
	}
	// Normalized on save: codes upper-cased, roles in order, ids given.
	if v.Company.RegisteredCountry != "MN" || v.People.People[1].Nationality != "GB" || v.People.People[0].ID != "p1" ||
		v.People.People[1].ID != "p2" || strings.Join(v.People.People[0].Roles, ",") != "director,owner" {
		t.Fatalf("normalized %+v %+v", v.Company, v.People)
	}
	e.now = e.now.Add(time.Minute)
	v, err = e.svc.Submit(ctx, "u1")
	if err != nil || v.Status.Status != StatusPending || v.Editable || v.SubmittedAt != e.now.UnixMilli() {
		t.Fatalf("submit %+v %v", v.Status, err)
	}
	// Pending: no step can be saved, nor the application submitted again,
	// and nothing is written.
	before := e.stored(t, "u1")
	_, err = e.svc.SaveCompany(ctx, "u1", company())
	wantCode(t, err, apperr.CodeCorpUnderReview)
	_, err = e.svc.SavePeople(ctx, "u1", people())
	wantCode(t, err, apperr.CodeCorpUnderReview)
	_, err = e.svc.Submit(ctx, "u1")
	wantCode(t, err, apperr.CodeCorpUnderReview)
	if after := e.stored(t, "u1"); after.Int(store.AttrVersion) != before.Int(store.AttrVersion) {
		t.Fatalf("a refused edit wrote: version %d → %d", before.Int(store.AttrVersion), after.Int(store.AttrVersion))
	}
	if got := e.accountType(t, "u1"); got != auth.AccountRegular {
		t.Fatalf("pending account type %s", got)
	}
	queue, err := e.svc.List(ctx, StatusPending)
	if err != nil || len(queue) != 1 || queue[0].UserID != "u1" || queue[0].Company.EntityName != "Steppe Trading LLC" {
		t.Fatalf("queue %+v %v", queue, err)
	}

	a, err := e.svc.Approve(ctx, "u1", "alice")
	if err != nil || a.Status != StatusApproved || a.ReviewedBy != "alice" || a.ReviewedAt != e.now.UnixMilli() {
		t.Fatalf("approve %+v %v", a, err)
	}
	if got := e.accountType(t, "u1"); got != auth.AccountEnterprise {
		t.Fatalf("approved account type %s", got)
	}
	st, err := e.svc.GetStatus(ctx, "u1")
	if err != nil || st.Status != StatusApproved || st.AccountType != auth.AccountEnterprise || !st.CanChangeToRegular || st.Editable {
		t.Fatalf("approved status %+v %v", st, err)
	}
	if q, _ := e.svc.List(ctx, StatusPending); len(q) != 0 {
		t.Fatalf("still queued: %+v", q)
	}
	_, err = e.svc.SaveCompany(ctx, "u1", company())
	wantCode(t, err, apperr.CodeCorpApproved)
	_, err = e.svc.Approve(ctx, "u1", "bob")
	wantCode(t, err, apperr.CodeCorpNotPending)

	// Back to regular: one write changes the profile and reopens the
	// application, its details kept.
	st, err = e.svc.ChangeToRegular(ctx, "u1")
	if err != nil || st.AccountType != auth.AccountRegular || st.Status != StatusDraft || !st.Editable || st.CanChangeToRegular {
		t.Fatalf("to regular %+v %v", st, err)
	}
	a, err = e.svc.Application(ctx, "u1")
	if err != nil || a.Company == nil || a.Company.EntityName != "Steppe Trading LLC" {
		t.Fatalf("kept %+v %v", a, err)
	}
	var events []string
	for _, ev := range a.History {
		events = append(events, ev.Status+"/"+ev.By)
	}
	if strings.Join(events, " ") != "draft/user pending/user approved/alice changed_to_regular/user" {
		t.Fatalf("history %v", events)
	}
	_, err = e.svc.ChangeToRegular(ctx, "u1")
	wantCode(t, err, apperr.CodeCorpNotEnterprise)
	// Enterprise again takes a new review.
	if _, err := e.svc.Submit(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	if got := e.accountType(t, "u1"); got != auth.AccountRegular {
		t.Fatalf("resubmitted account type %s", got)
	}
}

// TestSubmitOutOfOrder: a submit with steps missing lists them, by step
// and field, and changes nothing.
func TestSubmitOutOfOrder(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	_, err := e.svc.Submit(ctx, "u1")
	wantCode(t, err, apperr.CodeCorpNoApplication)
	if _, err := e.svc.SaveApplicant(ctx, "u1", applicant()); err != nil {
		t.Fatal(err)
	}
	c := company()
	c.BusinessAddressSame = no()
	if _, err := e.svc.SaveCompany(ctx, "u1", c); err != nil {
		t.Fatal(err)
	}
	before := e.stored(t, "u1")
	_, err = e.svc.Submit(ctx, "u1")
	ae := wantCode(t, err, apperr.CodeCorpIncomplete)
	if msg := ae.Message(apperr.LangEN); msg != "Complete step 1, 3, 4, 5 before submitting" {
		t.Fatalf("message %q", msg)
	}
	missing := ae.Data.(map[string]any)["missing"].([]Missing)
	var got []string
	for _, m := range missing {
		got = append(got, fmt.Sprintf("%d:%s:%s", m.Step, m.Field, m.Rule))
	}
	want := []string{
		"1:businessAddress.country:required", "1:businessAddress.city:required", "1:businessAddress.street:required",
		"3:people:required", "3:people:director_required", "3:allOwnersListed:owners_declaration_required",
		"4:files.certificate_of_incorporation:document_required", "4:files.articles_of_association:document_required",
		"4:files.proof_of_address:document_required",
		"5:monthlyVolume:required", "5:purposes:required", "5:pep:required", "5:sanctions:required",
		"5:accuracyConfirmed:confirmation_required",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("missing\n got %v\nwant %v", got, want)
	}
	after := e.stored(t, "u1")
	if after.Str("status") != StatusDraft || after.Int(store.AttrVersion) != before.Int(store.AttrVersion) {
		t.Fatalf("a refused submit wrote: %v", after)
	}
	v, _ := e.svc.Get(ctx, "u1")
	if v.CanSubmit || v.Steps[1].Complete != true || v.Steps[0].Complete || v.Steps[2].Saved {
		t.Fatalf("steps %+v", v.Steps)
	}
}

// TestRejectedEditedResubmittedApproved: a rejection's reasons stay
// while the user edits, a resubmit clears them, and a second review
// approves.
func TestRejectedEditedResubmittedApproved(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.complete(t, "u1")
	if _, err := e.svc.Submit(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	_, err := e.svc.Reject(ctx, "u1", "alice", []string{"  ", ""})
	wantCode(t, err, apperr.CodeCorpReason)
	_, err = e.svc.Reject(ctx, "u1", "alice", []string{strings.Repeat("x", 501)})
	wantCode(t, err, apperr.CodeCorpReason)
	a, err := e.svc.Reject(ctx, "u1", "alice", []string{" The proof of address is older than 3 months ", "Articles unreadable"})
	if err != nil || a.Status != StatusRejected || len(a.Reasons) != 2 || a.Reasons[0] != "The proof of address is older than 3 months" {
		t.Fatalf("reject %+v %v", a, err)
	}
	_, err = e.svc.Reject(ctx, "u1", "alice", []string{"again"})
	wantCode(t, err, apperr.CodeCorpNotPending)
	if got := e.accountType(t, "u1"); got != auth.AccountRegular {
		t.Fatalf("rejected account type %s", got)
	}
	// Edited while rejected: the reasons stay in view.
	v, err := e.svc.Get(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	d := *v.Documents
	d.Files = slices.Clone(d.Files)
	d.Files[2].UploadID = "u1-poa-new"
	e.uploads.add("u1", "u1-poa-new")
	v, err = e.svc.SaveDocuments(ctx, "u1", d)
	if err != nil || v.Status.Status != StatusRejected || len(v.Reasons) != 2 || !v.CanSubmit {
		t.Fatalf("edited %+v %v", v.Status, err)
	}
	v, err = e.svc.Submit(ctx, "u1")
	if err != nil || v.Status.Status != StatusPending || len(v.Reasons) != 0 {
		t.Fatalf("resubmit %+v %v", v.Status, err)
	}
	if _, err := e.svc.Approve(ctx, "u1", ""); err != nil {
		t.Fatal(err)
	}
	a, _ = e.svc.Application(ctx, "u1")
	if a.Status != StatusApproved || a.ReviewedBy != "operator" || len(a.History) != 5 || e.accountType(t, "u1") != auth.AccountEnterprise {
		t.Fatalf("approved %+v", a)
	}
}

// TestAnotherUsersIDs: one user's application never takes another's
// uploads or people, and each sees only their own.
func TestAnotherUsersIDs(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	v1 := e.complete(t, "u1")
	v2, err := e.svc.Get(ctx, "u2")
	if err != nil || v2.Status.Status != StatusNone || v2.Company != nil {
		t.Fatalf("u2 sees %+v %v", v2, err)
	}
	p, err := e.svc.SavePeople(ctx, "u2", People{People: []Person{{Name: "A B", Roles: []string{"director"}, Nationality: "MN", DateOfBirth: "1990-01-01"}}})
	if err != nil {
		t.Fatal(err)
	}
	// u1's uploads.
	_, err = e.svc.SaveDocuments(ctx, "u2", Documents{Files: []File{{Kind: DocIncorporation, UploadID: v1.Documents.Files[0].UploadID}}})
	wantCode(t, err, apperr.CodeCorpUploadNotFound)
	// A person of u1's application (p2 exists there, not here).
	e.uploads.add("u2", "u2-id")
	_, err = e.svc.SaveDocuments(ctx, "u2", Documents{Files: []File{{Kind: DocRepresentativeID, UploadID: "u2-id", PersonID: "p2"}}})
	wantCode(t, err, apperr.CodeCorpPerson)
	// Keeping an id the application never gave.
	_, err = e.svc.SavePeople(ctx, "u2", People{People: []Person{{ID: "p2", Name: "A B", Roles: []string{"director"}, Nationality: "MN", DateOfBirth: "1990-01-01"}}})
	wantCode(t, err, apperr.CodeCorpPerson)
	if _, err := e.svc.SaveDocuments(ctx, "u2", Documents{Files: []File{{Kind: DocRepresentativeID, UploadID: "u2-id", PersonID: p.People.People[0].ID}}}); err != nil {
		t.Fatal(err)
	}
	a1, _ := e.svc.Application(ctx, "u1")
	if len(a1.Documents.Files) != len(v1.Documents.Files) || a1.People.People[1].Name != "Jane Roe" {
		t.Fatalf("u1's application changed: %+v", a1)
	}
	// A review or a change back names a user, never reaches another's.
	_, err = e.svc.Approve(ctx, "u2", "alice")
	wantCode(t, err, apperr.CodeCorpNotPending)
	_, err = e.svc.ChangeToRegular(ctx, "u2")
	wantCode(t, err, apperr.CodeCorpNotEnterprise)
}

// TestPeopleKeepIDsAndDropRemovedIDDocuments: people sent back with their
// ids keep them and their documents; a removed person's ID document goes,
// and a new person gets a fresh id, never a removed one's.
func TestPeopleKeepIDsAndDropRemovedIDDocuments(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	v := e.complete(t, "u1")
	ps := v.People.People
	v, err := e.svc.SavePeople(ctx, "u1", People{People: []Person{ps[0], {Name: "New Director", Roles: []string{"director"},
		Nationality: "MN", DateOfBirth: "1985-02-03"}}, AllOwnersListed: true})
	if err != nil {
		t.Fatal(err)
	}
	if v.People.People[0].ID != "p1" || v.People.People[1].ID != "p3" {
		t.Fatalf("ids %+v", v.People.People)
	}
	var ids []string
	for _, f := range v.Documents.Files {
		if f.Kind == DocRepresentativeID {
			ids = append(ids, f.PersonID)
		}
	}
	if !slices.Equal(ids, []string{"p1"}) {
		t.Fatalf("ID documents of %v", ids)
	}
	if len(v.Missing) != 1 || v.Missing[0] != (Missing{Step: 4, Field: "files.representative_id.p3", Rule: RuleIDDocument}) {
		t.Fatalf("missing %+v", v.Missing)
	}
}

// TestBusinessAddressWhenNotSame: step 2's "not the same" asks for step
// 1's business address, and "same" does not.
func TestBusinessAddressWhenNotSame(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.complete(t, "u1")
	c := company()
	c.BusinessAddressSame = no()
	v, err := e.svc.SaveCompany(ctx, "u1", c)
	if err != nil || v.CanSubmit || v.Steps[0].Complete {
		t.Fatalf("not same %+v %v", v.Status, err)
	}
	ap := applicant()
	ap.BusinessAddress = &Address{Country: "cn", City: "Erenhot", Street: "Border Road 2"}
	v, err = e.svc.SaveApplicant(ctx, "u1", ap)
	if err != nil || !v.CanSubmit || v.Applicant.BusinessAddress.Country != "CN" {
		t.Fatalf("with address %+v %v", v, err)
	}
	// An address of blank fields is no address.
	ap.BusinessAddress = &Address{City: "  "}
	v, err = e.svc.SaveApplicant(ctx, "u1", ap)
	if err != nil || v.Applicant.BusinessAddress != nil || v.CanSubmit {
		t.Fatalf("blank address %+v %v", v.Applicant, err)
	}
}

// TestStepValidation: each step's bad input is refused with its code,
// naming the field, and nothing is written.
func TestStepValidation(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	v := e.complete(t, "u1")
	before := e.stored(t, "u1").Int(store.AttrVersion)
	e.uploads.add("u1", "x1", "x2")
	person := func(f func(p *Person)) People {
		p := people()
		p.People = slices.Clone(p.People)
		f(&p.People[0])
		return p
	}
	cases := []struct {
		name  string
		save  func() error
		code  string
		field string
	}{
		{"applicant email", func() error { a := applicant(); a.Email = "not-mail"; return errOf(e.svc.SaveApplicant(ctx, "u1", a)) }, apperr.CodeCorpEmail, "email"},
		{"applicant phone", func() error { a := applicant(); a.Phone = "12345"; return errOf(e.svc.SaveApplicant(ctx, "u1", a)) }, apperr.CodeCorpPhone, "phone"},
		{"applicant name", func() error {
			a := applicant()
			a.FullName = strings.Repeat("я", 101)
			return errOf(e.svc.SaveApplicant(ctx, "u1", a))
		}, apperr.CodeCorpTooLong, "fullName"},
		{"applicant control", func() error {
			a := applicant()
			a.Position = "CFO\u202e"
			return errOf(e.svc.SaveApplicant(ctx, "u1", a))
		}, apperr.CodeCorpText, "position"},
		{"business country", func() error {
			a := applicant()
			a.BusinessAddress = &Address{Country: "XX"}
			return errOf(e.svc.SaveApplicant(ctx, "u1", a))
		}, apperr.CodeCorpCountry, "businessAddress.country"},
		{"company date future", func() error {
			c := company()
			c.RegistrationDate = "2026-11-23"
			return errOf(e.svc.SaveCompany(ctx, "u1", c))
		}, apperr.CodeCorpDate, "registrationDate"},
		{"company date malformed", func() error {
			c := company()
			c.RegistrationDate = "2015-02-30"
			return errOf(e.svc.SaveCompany(ctx, "u1", c))
		}, apperr.CodeCorpDate, "registrationDate"},
		{"company reg number", func() error {
			c := company()
			c.RegistrationNumber = "12#34"
			return errOf(e.svc.SaveCompany(ctx, "u1", c))
		}, apperr.CodeCorpChars, "registrationNumber"},
		{"company country", func() error {
			c := company()
			c.RegisteredCountry = "Mongolia"
			return errOf(e.svc.SaveCompany(ctx, "u1", c))
		}, apperr.CodeCorpCountry, "registeredCountry"},
		{"company contact", func() error {
			c := company()
			c.ContactNumber = "+976 88--00 11"
			return errOf(e.svc.SaveCompany(ctx, "u1", c))
		}, apperr.CodeCorpPhone, "contactNumber"},
		{"company zip", func() error {
			c := company()
			c.RegisteredZip = strings.Repeat("1", 17)
			return errOf(e.svc.SaveCompany(ctx, "u1", c))
		}, apperr.CodeCorpTooLong, "registeredZip"},
		{"person name", func() error { return errOf(e.svc.SavePeople(ctx, "u1", person(func(p *Person) { p.Name = " " }))) }, apperr.CodeCorpRequired, "people[0].name"},
		{"person role", func() error {
			return errOf(e.svc.SavePeople(ctx, "u1", person(func(p *Person) { p.Roles = []string{"ceo"} })))
		}, apperr.CodeCorpRoles, "people[0].roles"},
		{"person no role", func() error { return errOf(e.svc.SavePeople(ctx, "u1", person(func(p *Person) { p.Roles = nil }))) }, apperr.CodeCorpRoles, "people[0].roles"},
		{"person minor", func() error {
			return errOf(e.svc.SavePeople(ctx, "u1", person(func(p *Person) { p.DateOfBirth = "2008-11-22" })))
		}, apperr.CodeCorpAge, "people[0].dateOfBirth"},
		{"person nationality", func() error {
			return errOf(e.svc.SavePeople(ctx, "u1", person(func(p *Person) { p.Nationality = "" })))
		}, apperr.CodeCorpRequired, "people[0].nationality"},
		{"owner without share", func() error {
			return errOf(e.svc.SavePeople(ctx, "u1", person(func(p *Person) { p.OwnershipPercent = "" })))
		}, apperr.CodeCorpRequired, "people[0].ownershipPercent"},
		{"owner share zero", func() error {
			return errOf(e.svc.SavePeople(ctx, "u1", person(func(p *Person) { p.OwnershipPercent = "0" })))
		}, apperr.CodeCorpPercent, "people[0].ownershipPercent"},
		{"owner share decimals", func() error {
			return errOf(e.svc.SavePeople(ctx, "u1", person(func(p *Person) { p.OwnershipPercent = "10.125" })))
		}, apperr.CodeCorpPercent, "people[0].ownershipPercent"},
		{"share of a non-owner", func() error {
			return errOf(e.svc.SavePeople(ctx, "u1", person(func(p *Person) { p.Roles = []string{"director"} })))
		}, apperr.CodeCorpShareNotOwner, "people[0].ownershipPercent"},
		{"owners over 100", func() error {
			return errOf(e.svc.SavePeople(ctx, "u1", person(func(p *Person) { p.OwnershipPercent = "60.5" })))
		}, apperr.CodeCorpOwnershipOver, "100.5%"},
		{"too many people", func() error {
			p := People{}
			for range MaxPeople + 1 {
				p.People = append(p.People, Person{Name: "X", Roles: []string{"director"}, Nationality: "MN", DateOfBirth: "1990-01-01"})
			}
			return errOf(e.svc.SavePeople(ctx, "u1", p))
		}, apperr.CodeCorpTooManyPeople, "20"},
		{"document kind", func() error {
			return errOf(e.svc.SaveDocuments(ctx, "u1", Documents{Files: []File{{Kind: "passport", UploadID: "x1"}}}))
		}, apperr.CodeCorpValue, "files[0].kind"},
		{"document twice", func() error {
			return errOf(e.svc.SaveDocuments(ctx, "u1", Documents{Files: []File{{Kind: DocArticles, UploadID: "x1"}, {Kind: DocOther, UploadID: "x1"}}}))
		}, apperr.CodeCorpDuplicateFile, "x1"},
		{"ID without person", func() error {
			return errOf(e.svc.SaveDocuments(ctx, "u1", Documents{Files: []File{{Kind: DocRepresentativeID, UploadID: "x1"}}}))
		}, apperr.CodeCorpRequired, "files[0].personId"},
		{"person on a company document", func() error {
			return errOf(e.svc.SaveDocuments(ctx, "u1", Documents{Files: []File{{Kind: DocArticles, UploadID: "x1", PersonID: "p1"}}}))
		}, apperr.CodeCorpValue, "files[0].personId"},
		{"upload id form", func() error {
			return errOf(e.svc.SaveDocuments(ctx, "u1", Documents{Files: []File{{Kind: DocArticles, UploadID: "../x"}}}))
		}, apperr.CodeCorpValue, "files[0].uploadId"},
		{"too many of one document", func() error {
			var d Documents
			for i := range MaxFilesPerDocument + 1 {
				id := fmt.Sprintf("many-%d", i)
				e.uploads.add("u1", id)
				d.Files = append(d.Files, File{Kind: DocOther, UploadID: id})
			}
			return errOf(e.svc.SaveDocuments(ctx, "u1", d))
		}, apperr.CodeCorpTooManyFiles, "10"},
		{"volume", func() error {
			q := questionnaire()
			q.MonthlyVolume = "lots"
			return errOf(e.svc.SaveQuestionnaire(ctx, "u1", q))
		}, apperr.CodeCorpValue, "monthlyVolume"},
		{"purpose", func() error {
			q := questionnaire()
			q.Purposes = []string{"trading", "gambling"}
			return errOf(e.svc.SaveQuestionnaire(ctx, "u1", q))
		}, apperr.CodeCorpValue, "purposes[1]"},
		{"pep detail", func() error {
			q := questionnaire()
			q.PEPDetail = strings.Repeat("x", 501)
			return errOf(e.svc.SaveQuestionnaire(ctx, "u1", q))
		}, apperr.CodeCorpTooLong, "pepDetail"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ae := wantCode(t, c.save(), c.code)
			if msg := ae.Message(apperr.LangEN); !strings.Contains(msg, c.field) {
				t.Fatalf("message %q does not name %s", msg, c.field)
			}
		})
	}
	if after := e.stored(t, "u1").Int(store.AttrVersion); after != before {
		t.Fatalf("refused saves wrote: version %d → %d", before, after)
	}
	got, _ := e.svc.Get(ctx, "u1")
	if !got.CanSubmit || got.Company.RegistrationDate != v.Company.RegistrationDate {
		t.Fatalf("application changed by refused saves: %+v", got.Status)
	}
}

// errOf is the error of a save, for the tables of saves.
func errOf(_ View, e error) error { return e }

// TestStep5Declarations: a yes to PEP or sanctions needs its detail, and
// "other" purposes theirs; the answers themselves do not stop a submit
// (the reviewer decides).
func TestStep5Declarations(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.complete(t, "u1")
	q := questionnaire()
	q.PEP, q.Sanctions, q.Purposes, q.AccuracyConfirmed = yes(), yes(), []string{"other", "OTHER"}, false
	v, err := e.svc.SaveQuestionnaire(ctx, "u1", q)
	if err != nil {
		t.Fatal(err)
	}
	var fields []string
	for _, m := range v.Missing {
		fields = append(fields, m.Field)
	}
	if strings.Join(fields, ",") != "purposeDetail,pepDetail,sanctionsDetail,accuracyConfirmed" || len(v.Questionnaire.Purposes) != 1 {
		t.Fatalf("missing %v purposes %v", fields, v.Questionnaire.Purposes)
	}
	q.PurposeDetail, q.PEPDetail, q.SanctionsDetail, q.AccuracyConfirmed = "Payroll in USDT", "Director is an MP's brother", "None in force", true
	if v, err = e.svc.SaveQuestionnaire(ctx, "u1", q); err != nil || !v.CanSubmit {
		t.Fatalf("%+v %v", v.Missing, err)
	}
	if _, err := e.svc.Submit(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
}

// TestNoUploadService: where no upload service is wired, files cannot be
// attached (nobody could check them), but an empty list can be saved.
func TestNoUploadService(t *testing.T) {
	e := newEnv(t)
	svc := New(Options{Store: e.st, Accounts: e.auth, Now: func() time.Time { return e.now }})
	_, err := svc.SaveDocuments(context.Background(), "u1", Documents{Files: []File{{Kind: DocArticles, UploadID: "a"}}})
	wantCode(t, err, apperr.CodeCorpUploadsUnavailable)
	if _, err := svc.SaveDocuments(context.Background(), "u1", Documents{}); err != nil {
		t.Fatal(err)
	}
}

// TestChangeToRegularWithoutApplication: an account made enterprise
// elsewhere changes back with only its profile written.
func TestChangeToRegularWithoutApplication(t *testing.T) {
	e := newEnv(t)
	e.profile(t, "u3", auth.AccountEnterprise)
	st, err := e.svc.ChangeToRegular(context.Background(), "u3")
	if err != nil || st.AccountType != auth.AccountRegular || st.Status != StatusNone {
		t.Fatalf("%+v %v", st, err)
	}
	if e.stored(t, "u3") != nil {
		t.Fatal("an application was created")
	}
}

// TestApproveWithoutProfile: an approval whose profile is gone writes
// nothing at all.
func TestApproveWithoutProfile(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.complete(t, "u1")
	if _, err := e.svc.Submit(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	if err := e.st.Delete(ctx, store.Key{PK: "USER#u1", SK: "PROFILE"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Approve(ctx, "u1", "alice"); err == nil || !strings.Contains(err.Error(), "no profile") {
		t.Fatalf("approve without profile: %v", err)
	}
	if s := e.stored(t, "u1").Str("status"); s != StatusPending {
		t.Fatalf("status %s", s)
	}
}

// TestConcurrentStepSaves: steps saved at the same time from several
// sessions all land; none overwrites another's.
func TestConcurrentStepSaves(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.uploads.add("u1", "inc", "art", "poa")
	saves := []func() error{
		func() error { return errOf(e.svc.SaveApplicant(ctx, "u1", applicant())) },
		func() error { return errOf(e.svc.SaveCompany(ctx, "u1", company())) },
		func() error { return errOf(e.svc.SavePeople(ctx, "u1", people())) },
		func() error {
			return errOf(e.svc.SaveDocuments(ctx, "u1", Documents{Files: []File{{Kind: DocIncorporation, UploadID: "inc"},
				{Kind: DocArticles, UploadID: "art"}, {Kind: DocProofOfAddress, UploadID: "poa"}}}))
		},
		func() error { return errOf(e.svc.SaveQuestionnaire(ctx, "u1", questionnaire())) },
	}
	var wg sync.WaitGroup
	errs := make([]error, len(saves))
	for i, f := range saves {
		wg.Go(func() { errs[i] = f() })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("save %d: %v", i+1, err)
		}
	}
	v, _ := e.svc.Get(ctx, "u1")
	for _, s := range v.Steps {
		if !s.Saved {
			t.Fatalf("step %d lost: %+v", s.Step, v.Steps)
		}
	}
}

// TestListByStatus: the review queue is per state, oldest first, and an
// unknown state is refused.
func TestListByStatus(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for _, uid := range []string{"u2", "u1"} {
		e.complete(t, uid)
		e.now = e.now.Add(time.Minute)
		if _, err := e.svc.Submit(ctx, uid); err != nil {
			t.Fatal(err)
		}
	}
	q, err := e.svc.List(ctx, StatusPending)
	if err != nil || len(q) != 2 || q[0].UserID != "u2" || q[1].UserID != "u1" {
		t.Fatalf("queue %+v %v", q, err)
	}
	if d, _ := e.svc.List(ctx, StatusDraft); len(d) != 0 {
		t.Fatalf("drafts %+v", d)
	}
	if _, err := e.svc.List(ctx, "done"); err == nil {
		t.Fatal("unknown status listed")
	}
}
