// Package corporate is corporate verification (spec §1, §2, §3, §6, §7): a
// user's application to become an enterprise account, filled in over five
// steps, reviewed by an operator, and the change back to a regular
// account.
//
// The steps, each saved on its own as a draft and resumable from any
// session until the application is submitted:
//
//  1. the applicant (the person filling in the application for the
//     company) and the business address when it differs from the
//     registered one;
//  2. the company, exactly the fields of the spec's step 2 form: entity
//     name, registration number and date, contact number, source of
//     funds, business type, reason for applying, registered address
//     (country, city, street, zip) and whether the business address is
//     the same;
//  3. representatives and beneficial owners;
//  4. documents: files uploaded through the upload service, attached by
//     their upload ids;
//  5. the questionnaire (expected monthly volume, purpose, PEP and
//     sanctions declarations), then review and submit.
//
// A save checks the form of what it is given and refuses bad input; a
// draft may still lack fields. Completeness is checked on submit, which
// lists every missing field by step.
//
// States: draft → pending (submitted; no edits) → approved or rejected
// (with reasons). A rejected application keeps its reasons while it is
// edited, and is submitted again. Approval makes the user an enterprise
// account in the same transaction; an enterprise user may change back to
// regular, which returns the application to draft (the company's details
// kept), so becoming enterprise again takes a new review. Every
// transition is one conditional write on the application's version.
package corporate

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/store"
)

// Application states. StatusNone is only an answer: the user has none.
const (
	StatusNone     = "none"
	StatusDraft    = "draft"
	StatusPending  = "pending"
	StatusApproved = "approved"
	StatusRejected = "rejected"
)

// Statuses are the stored states, in the order an application passes them.
var Statuses = []string{StatusDraft, StatusPending, StatusApproved, StatusRejected}

// Step numbers and the names the answers give them.
const (
	StepApplicant     = 1
	StepCompany       = 2
	StepPeople        = 3
	StepDocuments     = 4
	StepQuestionnaire = 5
)

// StepNames names steps 1 to 5 (index 0 is unused).
var StepNames = [...]string{"", "applicant", "company", "people", "documents", "questionnaire"}

// Address is a postal address.
type Address struct {
	Country string `json:"country" doc:"ISO 3166-1 alpha-2 country code, e.g. MN"`
	City    string `json:"city" doc:"at most 100 characters"`
	Street  string `json:"street" doc:"street and building, at most 200 characters"`
	Zip     string `json:"zip" doc:"postal code: letters, digits, spaces, - / . (at most 16)"`
}

// Applicant is step 1: who fills in the application for the company, and
// where the company does business when that is not its registered
// address (step 2's businessAddressSame false).
type Applicant struct {
	FullName string `json:"fullName" doc:"the applicant's full name (at most 100 characters)"`
	Position string `json:"position" doc:"the applicant's position in the company, e.g. CFO (at most 100)"`
	Email    string `json:"email" doc:"where the review may contact the applicant"`
	Phone    string `json:"phone" doc:"the applicant's phone: 6 to 20 digits, optional leading +, spaces or dashes"`
	// BusinessAddress is a pointer so that "not given" stays apart from
	// an address whose fields are all blank.
	BusinessAddress *Address `json:"businessAddress" doc:"where the company operates; required when step 2's businessAddressSame is false, otherwise omitted"`
}

// Company is step 2, the spec's step 2 form (§3).
type Company struct {
	EntityName         string `json:"entityName" doc:"the registered legal name (at most 200 characters)"`
	RegistrationNumber string `json:"registrationNumber" doc:"the registry's number: letters, digits, spaces, - / . (at most 64)"`
	RegistrationDate   string `json:"registrationDate" doc:"date of incorporation, YYYY-MM-DD, not in the future"`
	ContactNumber      string `json:"contactNumber" doc:"the company's phone: 6 to 20 digits, optional leading +, spaces or dashes"`
	SourceOfFunds      string `json:"sourceOfFunds" doc:"where the company's funds come from (at most 500 characters)"`
	BusinessType       string `json:"businessType" doc:"what the company does (at most 100 characters)"`
	ApplyReason        string `json:"applyReason" doc:"why the company applies for an enterprise account (at most 500 characters)"`
	RegisteredCountry  string `json:"registeredCountry" doc:"ISO 3166-1 alpha-2 country code of the registered address"`
	RegisteredCity     string `json:"registeredCity" doc:"at most 100 characters"`
	RegisteredStreet   string `json:"registeredStreet" doc:"at most 200 characters"`
	RegisteredZip      string `json:"registeredZip" doc:"postal code: letters, digits, spaces, - / . (at most 16)"`
	// BusinessAddressSame is a pointer: an unanswered question is not
	// the answer "no".
	BusinessAddressSame *bool `json:"businessAddressSame" doc:"true when the company does business at its registered address; false asks for step 1's businessAddress"`
}

// Roles of a person in step 3.
const (
	RoleDirector  = "director"
	RoleSignatory = "signatory"
	RoleOwner     = "owner"
)

// Person is a representative or a beneficial owner of the company.
type Person struct {
	ID               string   `json:"id" doc:"given by the server; send it back to keep the person and their ID documents; empty for a new person"`
	Name             string   `json:"name" doc:"full name (at most 100 characters)"`
	Roles            []string `json:"roles" doc:"one or more of director, signatory (authorised to act for the company), owner (beneficial owner)"`
	Nationality      string   `json:"nationality" doc:"ISO 3166-1 alpha-2 country code"`
	DateOfBirth      string   `json:"dateOfBirth" doc:"YYYY-MM-DD; at least 18 years old"`
	OwnershipPercent string   `json:"ownershipPercent" doc:"owners only: their share of the company in percent, above 0 and at most 100, at most 2 decimals (\"25\", \"12.5\"); omitted for others"`
}

// People is step 3. Each listed person is complete when saved; the step
// as a whole is complete with at least one director and the owners'
// declaration.
type People struct {
	People []Person `json:"people" doc:"at most 20; at least one director; the owners' shares add up to at most 100"`
	// AllOwnersListed is the applicant's word that no beneficial owner of
	// 25% or more is left out: the exchange cannot see the shareholder
	// register, so the rule is declared, and the documents back it.
	AllOwnersListed bool `json:"allOwnersListed" doc:"declares that every beneficial owner holding 25% or more of the company is listed"`
}

// Document kinds of step 4.
const (
	DocIncorporation    = "certificate_of_incorporation"
	DocArticles         = "articles_of_association"
	DocProofOfAddress   = "proof_of_address"
	DocRepresentativeID = "representative_id"
	DocOther            = "other"
)

// RequiredDocuments are the kinds every application needs at least one
// file of; DocRepresentativeID is needed once for every person of step 3.
var RequiredDocuments = []string{DocIncorporation, DocArticles, DocProofOfAddress}

// DocumentKinds are every kind step 4 takes.
var DocumentKinds = []string{DocIncorporation, DocArticles, DocProofOfAddress, DocRepresentativeID, DocOther}

// File is one uploaded file attached to the application.
type File struct {
	Kind     string `json:"kind" doc:"certificate_of_incorporation, articles_of_association, proof_of_address, representative_id or other"`
	UploadID string `json:"uploadId" doc:"the id /fe-ex-api/common/upload_img_auth answered for the file"`
	PersonID string `json:"personId" doc:"representative_id only: the id of the step 3 person the document identifies"`
}

// Documents is step 4.
type Documents struct {
	Files []File `json:"files" doc:"every attached file (the list replaces the step's): at least one of each of certificate_of_incorporation, articles_of_association and proof_of_address, and a representative_id for every person of step 3; at most 40, 10 per document"`
}

// Expected monthly volumes (USD equivalent) of step 5.
var MonthlyVolumes = []string{"under_10k", "10k_100k", "100k_1m", "1m_10m", "over_10m"}

// Purposes of the account in step 5.
var Purposes = []string{"trading", "investment", "treasury", "payments", "otc", "other"}

// Questionnaire is step 5.
type Questionnaire struct {
	MonthlyVolume string   `json:"monthlyVolume" doc:"expected monthly volume in USD: under_10k, 10k_100k, 100k_1m, 1m_10m or over_10m"`
	Purposes      []string `json:"purposes" doc:"what the account is for, one or more of trading, investment, treasury, payments, otc, other"`
	PurposeDetail string   `json:"purposeDetail" doc:"required with the purpose other (at most 500 characters)"`
	// PEP and Sanctions are pointers: each must be answered, and an
	// unanswered declaration is not a "no".
	PEP             *bool  `json:"pep" doc:"true when a representative or owner is a politically exposed person, or a family member or close associate of one"`
	PEPDetail       string `json:"pepDetail" doc:"required when pep is true: who, and which public function (at most 500)"`
	Sanctions       *bool  `json:"sanctions" doc:"true when the company, a representative or an owner is subject to sanctions"`
	SanctionsDetail string `json:"sanctionsDetail" doc:"required when sanctions is true (at most 500)"`
	// AccuracyConfirmed is the applicant's statement before submitting.
	AccuracyConfirmed bool `json:"accuracyConfirmed" doc:"confirms that the application is true and complete; required to submit"`
}

// Event is one entry of an application's history.
type Event struct {
	At      int64    `json:"at" doc:"Unix ms"`
	Status  string   `json:"status" doc:"the state entered, or changed_to_regular"`
	By      string   `json:"by" doc:"user, or the reviewer's name"`
	Reasons []string `json:"reasons,omitempty"`
}

// EventChangedToRegular marks the change back to a regular account in the
// history.
const EventChangedToRegular = "changed_to_regular"

// ByUser is the history's name for the applicant's own actions.
const ByUser = "user"

// Application is a user's application as stored, and as the operator's
// review shows it (tenger corporate show).
type Application struct {
	UserID        string         `json:"uid"`
	Status        string         `json:"status"`
	Applicant     *Applicant     `json:"applicant"`
	Company       *Company       `json:"company"`
	People        *People        `json:"people"`
	Documents     *Documents     `json:"documents"`
	Questionnaire *Questionnaire `json:"questionnaire"`
	// Reasons are the last rejection's, kept while the application is
	// rejected and being edited, and cleared by the next submit.
	Reasons     []string `json:"reasons"`
	CreatedAt   int64    `json:"createdAt"`
	UpdatedAt   int64    `json:"updatedAt"`
	SubmittedAt int64    `json:"submittedAt"`
	ReviewedAt  int64    `json:"reviewedAt"`
	ReviewedBy  string   `json:"reviewedBy"`
	// StatusAt is when the current state was entered (the review queue's
	// order).
	StatusAt int64   `json:"statusAt"`
	History  []Event `json:"history"`

	// version is the optimistic-concurrency counter of the stored item.
	version int64
	// nextPerson numbers the people of step 3 (p1, p2 ...), never reused,
	// so a removed person's id cannot come back naming someone else.
	nextPerson int64
}

// Attachments checks uploaded files. The upload service (internal/upload)
// keeps them; corporate verification only needs to know that every id
// names a file uid uploaded, so a user cannot attach another's files.
type Attachments interface {
	// CheckOwned returns nil when every id is an upload of uid, and an
	// apperr error (apperr.CodeCorpUploadNotFound or the upload service's
	// own) naming one that is not.
	CheckOwned(ctx context.Context, uid string, ids ...string) error
}

// Accounts reads users' profiles (auth.Service).
type Accounts interface {
	User(ctx context.Context, uid string) (auth.User, error)
}

// Options configure a Service.
type Options struct {
	Store    store.Store
	Accounts Accounts
	// Attachments checks step 4's upload ids; nil where no upload service
	// is deployed, and then step 4 answers CodeCorpUploadsUnavailable
	// rather than attach files nobody checked.
	Attachments Attachments
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	Log zerolog.Logger
}

// Service runs corporate verification.
type Service struct {
	repo *repository
	acc  Accounts
	att  Attachments
	now  func() time.Time
	log  zerolog.Logger
}

// New returns a Service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{repo: &repository{st: o.Store}, acc: o.Accounts, att: o.Attachments, now: o.Now, log: o.Log}
}

// StepState says how far a step is.
type StepState struct {
	Step     int    `json:"step"`
	Name     string `json:"name" doc:"applicant, company, people, documents or questionnaire"`
	Saved    bool   `json:"saved" doc:"the step has been saved at least once"`
	Complete bool   `json:"complete" doc:"the step lacks nothing a submit needs"`
}

// Missing is one thing a submit still needs.
type Missing struct {
	Step  int    `json:"step"`
	Field string `json:"field" doc:"the field as the API names it: entityName, businessAddress.city, people, files.proof_of_address, files.representative_id.p2 ..."`
	Rule  string `json:"rule" doc:"required, director_required, owners_declaration_required, document_required, id_document_required or confirmation_required"`
}

// Rules a Missing entry names.
const (
	RuleRequired          = "required"
	RuleDirector          = "director_required"
	RuleOwnersDeclaration = "owners_declaration_required"
	RuleDocument          = "document_required"
	RuleIDDocument        = "id_document_required"
	RuleConfirmation      = "confirmation_required"
)

// Status is where a user's application stands.
type Status struct {
	Status      string `json:"status" doc:"none (never started), draft, pending (submitted, under review), approved or rejected"`
	AccountType string `json:"accountType" doc:"regular or enterprise"`
	Editable    bool   `json:"editable" doc:"the steps may be saved (none, draft, rejected)"`
	// CanSubmit is Editable with nothing missing.
	CanSubmit          bool        `json:"canSubmit" doc:"confirmSubmit would be accepted now"`
	CanChangeToRegular bool        `json:"canChangeToRegular" doc:"the account is enterprise and may change back to regular"`
	Reasons            []string    `json:"reasons" doc:"why the application was rejected (while rejected)"`
	SubmittedAt        int64       `json:"submittedAt" doc:"Unix ms of the last submit; 0 if never"`
	ReviewedAt         int64       `json:"reviewedAt" doc:"Unix ms of the last review; 0 if never"`
	UpdatedAt          int64       `json:"updatedAt" doc:"Unix ms of the last change; 0 if never"`
	Steps              []StepState `json:"steps" doc:"steps 1 to 5"`
}

// View is the whole application as its owner sees it (get_base_info).
type View struct {
	Status
	Applicant     *Applicant     `json:"applicant" doc:"step 1, null until saved"`
	Company       *Company       `json:"company" doc:"step 2, null until saved"`
	People        *People        `json:"people" doc:"step 3, null until saved"`
	Documents     *Documents     `json:"documents" doc:"step 4, null until saved"`
	Questionnaire *Questionnaire `json:"questionnaire" doc:"step 5, null until saved"`
	Missing       []Missing      `json:"missing" doc:"what a submit still needs, by step"`
}

// Get returns uid's application (an empty one, status none, when the user
// has not started).
func (s *Service) Get(ctx context.Context, uid string) (View, error) {
	a, found, err := s.repo.get(ctx, uid)
	if err != nil {
		return View{}, err
	}
	if !found {
		a = Application{UserID: uid, Status: StatusNone}
	}
	return s.view(ctx, a)
}

// GetStatus returns where uid's application stands.
func (s *Service) GetStatus(ctx context.Context, uid string) (Status, error) {
	v, err := s.Get(ctx, uid)
	return v.Status, err
}

// SaveApplicant saves step 1.
func (s *Service) SaveApplicant(ctx context.Context, uid string, in Applicant) (View, error) {
	if err := in.normalize(); err != nil {
		return View{}, err
	}
	return s.edit(ctx, uid, func(a *Application) error { a.Applicant = &in; return nil })
}

// SaveCompany saves step 2.
func (s *Service) SaveCompany(ctx context.Context, uid string, in Company) (View, error) {
	if err := in.normalize(s.now()); err != nil {
		return View{}, err
	}
	return s.edit(ctx, uid, func(a *Application) error { a.Company = &in; return nil })
}

// SavePeople saves step 3. People sent with an id keep it (and their ID
// documents of step 4); new ones get the next id; anyone no longer listed
// loses their ID documents, which identify nobody on the application any
// more.
func (s *Service) SavePeople(ctx context.Context, uid string, in People) (View, error) {
	if err := in.normalize(s.now()); err != nil {
		return View{}, err
	}
	return s.edit(ctx, uid, func(a *Application) error {
		known := map[string]bool{}
		if a.People != nil {
			for _, p := range a.People.People {
				known[p.ID] = true
			}
		}
		people := slices.Clone(in.People)
		listed := map[string]bool{}
		for i := range people {
			if people[i].ID == "" {
				a.nextPerson++
				people[i].ID = fmt.Sprintf("p%d", a.nextPerson)
			} else if !known[people[i].ID] {
				return apperr.New(apperr.CodeCorpPerson, people[i].ID)
			}
			listed[people[i].ID] = true
		}
		a.People = &People{People: people, AllOwnersListed: in.AllOwnersListed}
		if a.Documents != nil {
			kept := a.Documents.Files[:0:0]
			for _, f := range a.Documents.Files {
				if f.Kind != DocRepresentativeID || listed[f.PersonID] {
					kept = append(kept, f)
				}
			}
			a.Documents = &Documents{Files: kept}
		}
		return nil
	})
}

// SaveDocuments saves step 4: the files replace the step's. Every upload
// id must be one of uid's uploads, and a representative's ID must name a
// person step 3 lists.
func (s *Service) SaveDocuments(ctx context.Context, uid string, in Documents) (View, error) {
	if err := in.normalize(); err != nil {
		return View{}, err
	}
	if len(in.Files) > 0 {
		if s.att == nil {
			return View{}, apperr.New(apperr.CodeCorpUploadsUnavailable)
		}
		ids := make([]string, len(in.Files))
		for i, f := range in.Files {
			ids[i] = f.UploadID
		}
		if err := s.att.CheckOwned(ctx, uid, ids...); err != nil {
			return View{}, err
		}
	}
	return s.edit(ctx, uid, func(a *Application) error {
		for _, f := range in.Files {
			if f.Kind == DocRepresentativeID && !a.lists(f.PersonID) {
				return apperr.New(apperr.CodeCorpPerson, f.PersonID)
			}
		}
		a.Documents = &Documents{Files: slices.Clone(in.Files)}
		return nil
	})
}

// SaveQuestionnaire saves step 5.
func (s *Service) SaveQuestionnaire(ctx context.Context, uid string, in Questionnaire) (View, error) {
	if err := in.normalize(); err != nil {
		return View{}, err
	}
	return s.edit(ctx, uid, func(a *Application) error { a.Questionnaire = &in; return nil })
}

// Submit sends a complete draft or rejected application to review
// (confirmSubmit). An incomplete one is refused with every missing field
// listed in the error's data ({"missing": [...]}), and nothing changes.
func (s *Service) Submit(ctx context.Context, uid string) (View, error) {
	a, err := s.repo.mutate(ctx, uid, func(a *Application, found bool) (plan, error) {
		if !found {
			return plan{}, apperr.New(apperr.CodeCorpNoApplication)
		}
		if err := editable(a.Status); err != nil {
			return plan{}, err
		}
		if missing := a.missing(); len(missing) > 0 {
			return plan{}, incomplete(missing)
		}
		now := s.now().UnixMilli()
		a.enter(StatusPending, StatusPending, now, ByUser, nil)
		a.SubmittedAt = now
		a.Reasons = nil
		return plan{write: true}, nil
	})
	if err != nil {
		return View{}, err
	}
	s.log.Info().Str("uid", uid).Msg("corporate verification submitted")
	return s.view(ctx, a)
}

// ChangeToRegular changes an enterprise account back to a regular one
// (spec §6). Its approved application returns to draft with the company's
// details kept, so becoming enterprise again is a new submit and review.
// An account made enterprise without an application here has only its
// profile to change.
func (s *Service) ChangeToRegular(ctx context.Context, uid string) (Status, error) {
	profile := auth.AccountTypeOp(uid, auth.AccountRegular, auth.AccountEnterprise).Named(opProfile)
	_, err := s.repo.mutate(ctx, uid, func(a *Application, found bool) (plan, error) {
		p := plan{extra: []store.Op{profile}}
		if found && a.Status == StatusApproved {
			a.enter(StatusDraft, EventChangedToRegular, s.now().UnixMilli(), ByUser, nil)
			p.write = true
		}
		return p, nil
	})
	if isFailed(err, opProfile) {
		return Status{}, apperr.New(apperr.CodeCorpNotEnterprise)
	}
	if err != nil {
		return Status{}, err
	}
	s.log.Info().Str("uid", uid).Msg("enterprise account changed back to regular")
	return s.GetStatus(ctx, uid)
}

// edit applies a change of the steps to uid's application, creating it
// on the first save, if it may still be edited.
func (s *Service) edit(ctx context.Context, uid string, fn func(a *Application) error) (View, error) {
	a, err := s.repo.mutate(ctx, uid, func(a *Application, found bool) (plan, error) {
		if err := editable(a.Status); err != nil {
			return plan{}, err
		}
		if !found {
			now := s.now().UnixMilli()
			a.CreatedAt = now
			a.enter(StatusDraft, StatusDraft, now, ByUser, nil)
		}
		if err := fn(a); err != nil {
			return plan{}, err
		}
		a.UpdatedAt = s.now().UnixMilli()
		return plan{write: true}, nil
	})
	if err != nil {
		return View{}, err
	}
	return s.view(ctx, a)
}

// editable refuses a change of the steps in a state that takes none.
func editable(status string) error {
	switch status {
	case StatusPending:
		return apperr.New(apperr.CodeCorpUnderReview)
	case StatusApproved:
		return apperr.New(apperr.CodeCorpApproved)
	}
	return nil
}

// incomplete is the submit error listing what is missing: the message
// names the steps, the data every field.
func incomplete(missing []Missing) error {
	var steps []string
	for _, m := range missing {
		n := fmt.Sprint(m.Step)
		if !slices.Contains(steps, n) {
			steps = append(steps, n)
		}
	}
	return apperr.New(apperr.CodeCorpIncomplete, strings.Join(steps, ", ")).WithData(map[string]any{"missing": missing})
}

// enter moves the application into status and records event (the
// status itself, or EventChangedToRegular) in the history.
func (a *Application) enter(status, event string, at int64, by string, reasons []string) {
	a.Status = status
	a.StatusAt = at
	a.History = append(a.History, Event{At: at, Status: event, By: by, Reasons: reasons})
	if len(a.History) > maxHistory {
		a.History = slices.Clone(a.History[len(a.History)-maxHistory:])
	}
}

// maxHistory bounds the history kept in the application's item: enough
// for any real back and forth, small beside DynamoDB's 400 KB item limit.
const maxHistory = 50

// lists reports whether step 3 lists the person id.
func (a *Application) lists(id string) bool {
	if a.People == nil || id == "" {
		return false
	}
	return slices.ContainsFunc(a.People.People, func(p Person) bool { return p.ID == id })
}

// view is a as its owner sees it, with the account type from the profile.
func (s *Service) view(ctx context.Context, a Application) (View, error) {
	u, err := s.acc.User(ctx, a.UserID)
	if err != nil {
		return View{}, err
	}
	missing := a.missing()
	st := Status{
		Status: a.Status, AccountType: u.AccountType, Reasons: a.Reasons,
		SubmittedAt: a.SubmittedAt, ReviewedAt: a.ReviewedAt, UpdatedAt: a.UpdatedAt,
		CanChangeToRegular: u.AccountType == auth.AccountEnterprise,
	}
	st.Editable = editable(a.Status) == nil
	st.CanSubmit = st.Editable && a.Status != StatusNone && len(missing) == 0
	if st.Reasons == nil {
		st.Reasons = []string{}
	}
	saved := [...]bool{false, a.Applicant != nil, a.Company != nil, a.People != nil, a.Documents != nil, a.Questionnaire != nil}
	for step := StepApplicant; step <= StepQuestionnaire; step++ {
		complete := !slices.ContainsFunc(missing, func(m Missing) bool { return m.Step == step })
		st.Steps = append(st.Steps, StepState{Step: step, Name: StepNames[step], Saved: saved[step], Complete: complete})
	}
	if missing == nil {
		missing = []Missing{}
	}
	return View{Status: st, Applicant: a.Applicant, Company: a.Company, People: a.People, Documents: a.Documents,
		Questionnaire: a.Questionnaire, Missing: missing}, nil
}
