package corporate

import (
	"fmt"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
)

// Bounds of the fields and lists. They are generous for any real company
// and keep the application's item far below DynamoDB's 400 KB.
const (
	maxShort    = 100
	maxEntity   = 200
	maxStreet   = 200
	maxLong     = 500
	maxRegNo    = 64
	maxZip      = 16
	maxEmail    = 254
	maxUploadID = 128
	// MaxPeople is how many people step 3 lists at most.
	MaxPeople = 20
	// MaxFiles is how many files step 4 holds at most, and
	// MaxFilesPerDocument how many of one kind (of one person's ID).
	MaxFiles            = 40
	MaxFilesPerDocument = 10
	// OwnerThreshold is the share from which a beneficial owner must be
	// listed (the declaration of step 3).
	OwnerThreshold = 25
	// minAge is the youngest a representative or owner may be.
	minAge = 18
)

// The formats of a few fields.
var (
	percentRe  = regexp.MustCompile(`^[0-9]{1,3}(\.[0-9]{1,2})?$`)
	uploadIDRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]*$`)
	personIDRe = regexp.MustCompile(`^p[1-9][0-9]{0,5}$`)
)

// text trims *v and checks it: at most max characters, no control or
// format characters (line breaks only where multiline).
func text(field string, v *string, max int, multiline bool) error {
	s := strings.TrimSpace(*v)
	if utf8.RuneCountInString(s) > max {
		return apperr.New(apperr.CodeCorpTooLong, field, max)
	}
	for _, r := range s {
		if r == utf8.RuneError || (unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\r' || r == '\t'))) || unicode.Is(unicode.Cf, r) {
			return apperr.New(apperr.CodeCorpText, field)
		}
	}
	*v = s
	return nil
}

// required refuses a blank field.
func required(field, v string) error {
	if v == "" {
		return apperr.New(apperr.CodeCorpRequired, field)
	}
	return nil
}

// country upper-cases *v and checks it is an ISO 3166-1 alpha-2 code.
func country(field string, v *string) error {
	s := strings.ToUpper(strings.TrimSpace(*v))
	if s == "" {
		*v = ""
		return nil
	}
	if !countries[s] {
		return apperr.New(apperr.CodeCorpCountry, field)
	}
	*v = s
	return nil
}

// phone checks a phone number: an optional leading +, then 6 to 20
// digits with single spaces or dashes between them.
func phone(field string, v *string) error {
	s := strings.TrimSpace(*v)
	*v = s
	if s == "" {
		return nil
	}
	body := strings.TrimPrefix(s, "+")
	digits := 0
	prevSep := true // no separator first
	for _, r := range body {
		switch {
		case r >= '0' && r <= '9':
			digits++
			prevSep = false
		case (r == ' ' || r == '-') && !prevSep:
			prevSep = true
		default:
			return apperr.New(apperr.CodeCorpPhone, field)
		}
	}
	if prevSep || digits < 6 || digits > 20 {
		return apperr.New(apperr.CodeCorpPhone, field)
	}
	return nil
}

// email checks a bare e-mail address (no display name).
func email(field string, v *string) error {
	s := strings.TrimSpace(*v)
	*v = s
	if s == "" {
		return nil
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s || len(s) > maxEmail || !strings.Contains(s[strings.LastIndexByte(s, '@')+1:], ".") {
		return apperr.New(apperr.CodeCorpEmail, field)
	}
	return nil
}

// chars checks a registration number or a zip: letters, digits, spaces
// and - / . only, at most max.
func chars(field string, v *string, max int) error {
	s := strings.TrimSpace(*v)
	*v = s
	if utf8.RuneCountInString(s) > max {
		return apperr.New(apperr.CodeCorpTooLong, field, max)
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" -/.", r) {
			return apperr.New(apperr.CodeCorpChars, field)
		}
	}
	return nil
}

// date checks a YYYY-MM-DD date from 1800 up to today, and returns it.
func date(field string, v *string, now time.Time) (time.Time, error) {
	s := strings.TrimSpace(*v)
	*v = s
	if s == "" {
		return time.Time{}, nil
	}
	d, err := time.Parse(time.DateOnly, s)
	// Today is the latest date anywhere on Earth (UTC+14), so a company
	// registered today in Ulaanbaatar is not refused before UTC's midnight.
	today := now.UTC().Add(14 * time.Hour).Truncate(24 * time.Hour)
	if err != nil || d.Year() < 1800 || d.After(today) {
		return time.Time{}, apperr.New(apperr.CodeCorpDate, field)
	}
	return d, nil
}

// choice lower-cases *v and checks it is one of allowed.
func choice(field string, v *string, allowed []string) error {
	s := strings.ToLower(strings.TrimSpace(*v))
	*v = s
	if s != "" && !slices.Contains(allowed, s) {
		return apperr.New(apperr.CodeCorpValue, field, s)
	}
	return nil
}

// normalize checks an address's fields, prefix naming it (businessAddress.).
func (a *Address) normalize(prefix string) error {
	if err := country(prefix+"country", &a.Country); err != nil {
		return err
	}
	if err := text(prefix+"city", &a.City, maxShort, false); err != nil {
		return err
	}
	if err := text(prefix+"street", &a.Street, maxStreet, false); err != nil {
		return err
	}
	return chars(prefix+"zip", &a.Zip, maxZip)
}

func (a *Address) blank() bool { return *a == Address{} }

// normalize checks step 1's form; blank fields are left for submit.
func (a *Applicant) normalize() error {
	if err := text("fullName", &a.FullName, maxShort, false); err != nil {
		return err
	}
	if err := text("position", &a.Position, maxShort, false); err != nil {
		return err
	}
	if err := email("email", &a.Email); err != nil {
		return err
	}
	if err := phone("phone", &a.Phone); err != nil {
		return err
	}
	if a.BusinessAddress != nil {
		addr := *a.BusinessAddress
		if err := addr.normalize("businessAddress."); err != nil {
			return err
		}
		a.BusinessAddress = &addr
		if addr.blank() {
			a.BusinessAddress = nil
		}
	}
	return nil
}

// normalize checks step 2's form; blank fields are left for submit.
func (c *Company) normalize(now time.Time) error {
	if err := text("entityName", &c.EntityName, maxEntity, false); err != nil {
		return err
	}
	if err := chars("registrationNumber", &c.RegistrationNumber, maxRegNo); err != nil {
		return err
	}
	if _, err := date("registrationDate", &c.RegistrationDate, now); err != nil {
		return err
	}
	if err := phone("contactNumber", &c.ContactNumber); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    *string
		max  int
		ml   bool
	}{
		{"sourceOfFunds", &c.SourceOfFunds, maxLong, true},
		{"businessType", &c.BusinessType, maxShort, false},
		{"applyReason", &c.ApplyReason, maxLong, true},
		{"registeredCity", &c.RegisteredCity, maxShort, false},
		{"registeredStreet", &c.RegisteredStreet, maxStreet, false},
	} {
		if err := text(f.name, f.v, f.max, f.ml); err != nil {
			return err
		}
	}
	if err := country("registeredCountry", &c.RegisteredCountry); err != nil {
		return err
	}
	return chars("registeredZip", &c.RegisteredZip, maxZip)
}

// roleOrder is the order a person's roles are kept in.
var roleOrder = []string{RoleDirector, RoleSignatory, RoleOwner}

// normalize checks step 3. Each person is a unit and must be whole when
// saved; the step may still lack a director or the owners' declaration,
// which submit asks for. The owners' shares must not exceed 100% together.
func (p *People) normalize(now time.Time) error {
	if len(p.People) > MaxPeople {
		return apperr.New(apperr.CodeCorpTooManyPeople, MaxPeople)
	}
	people := make([]Person, len(p.People))
	total := decimal.Zero
	ids := map[string]bool{}
	for i, in := range p.People {
		f := func(name string) string { return fmt.Sprintf("people[%d].%s", i, name) }
		x := in
		x.ID = strings.TrimSpace(x.ID)
		if x.ID != "" {
			if !personIDRe.MatchString(x.ID) {
				return apperr.New(apperr.CodeCorpPerson, x.ID)
			}
			if ids[x.ID] {
				return apperr.Param(fmt.Sprintf("%s: person %s is listed twice", f("id"), x.ID))
			}
			ids[x.ID] = true
		}
		if err := text(f("name"), &x.Name, maxShort, false); err != nil {
			return err
		}
		if err := required(f("name"), x.Name); err != nil {
			return err
		}
		roles, err := normRoles(f("roles"), x.Roles)
		if err != nil {
			return err
		}
		x.Roles = roles
		if err := country(f("nationality"), &x.Nationality); err != nil {
			return err
		}
		if err := required(f("nationality"), x.Nationality); err != nil {
			return err
		}
		dob, err := date(f("dateOfBirth"), &x.DateOfBirth, now)
		if err != nil {
			return err
		}
		if err := required(f("dateOfBirth"), x.DateOfBirth); err != nil {
			return err
		}
		if dob.AddDate(minAge, 0, 0).After(now.UTC()) {
			return apperr.New(apperr.CodeCorpAge, f("dateOfBirth"))
		}
		x.OwnershipPercent = strings.TrimSpace(x.OwnershipPercent)
		switch {
		case !slices.Contains(x.Roles, RoleOwner) && x.OwnershipPercent != "":
			return apperr.New(apperr.CodeCorpShareNotOwner, f("ownershipPercent"))
		case slices.Contains(x.Roles, RoleOwner):
			if err := required(f("ownershipPercent"), x.OwnershipPercent); err != nil {
				return err
			}
			share, err := decimal.NewFromString(x.OwnershipPercent)
			if !percentRe.MatchString(x.OwnershipPercent) || err != nil || !share.IsPositive() || share.GreaterThan(decimal.NewFromInt(100)) {
				return apperr.New(apperr.CodeCorpPercent, f("ownershipPercent"))
			}
			x.OwnershipPercent = share.String()
			total = total.Add(share)
		}
		people[i] = x
	}
	if total.GreaterThan(decimal.NewFromInt(100)) {
		return apperr.New(apperr.CodeCorpOwnershipOver, total.String())
	}
	p.People = people
	return nil
}

// normRoles checks a person's roles: at least one, each known, kept once
// in roleOrder.
func normRoles(field string, in []string) ([]string, error) {
	var out []string
	for _, r := range in {
		r = strings.ToLower(strings.TrimSpace(r))
		if !slices.Contains(roleOrder, r) {
			return nil, apperr.New(apperr.CodeCorpRoles, field)
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, apperr.New(apperr.CodeCorpRoles, field)
	}
	slices.SortFunc(out, func(a, b string) int { return slices.Index(roleOrder, a) - slices.Index(roleOrder, b) })
	return out, nil
}

// normalize checks step 4's list: known kinds, well-formed upload ids
// attached once each, a person for every representative's ID and none
// for other documents, and the bounds. Whether the ids are the user's
// uploads, and the people step 3's, is checked against their owners.
func (d *Documents) normalize() error {
	if len(d.Files) > MaxFiles {
		return apperr.New(apperr.CodeCorpTooManyFiles, MaxFiles, MaxFilesPerDocument)
	}
	files := make([]File, len(d.Files))
	seen := map[string]bool{}
	per := map[string]int{}
	for i, in := range d.Files {
		f := func(name string) string { return fmt.Sprintf("files[%d].%s", i, name) }
		x := in
		if err := choice(f("kind"), &x.Kind, DocumentKinds); err != nil {
			return err
		}
		if err := required(f("kind"), x.Kind); err != nil {
			return err
		}
		x.UploadID = strings.TrimSpace(x.UploadID)
		if err := required(f("uploadId"), x.UploadID); err != nil {
			return err
		}
		if len(x.UploadID) > maxUploadID || !uploadIDRe.MatchString(x.UploadID) {
			return apperr.New(apperr.CodeCorpValue, f("uploadId"), x.UploadID)
		}
		if seen[x.UploadID] {
			return apperr.New(apperr.CodeCorpDuplicateFile, x.UploadID)
		}
		seen[x.UploadID] = true
		x.PersonID = strings.TrimSpace(x.PersonID)
		switch {
		case x.Kind == DocRepresentativeID:
			if err := required(f("personId"), x.PersonID); err != nil {
				return err
			}
		case x.PersonID != "":
			return apperr.New(apperr.CodeCorpValue, f("personId"), x.PersonID)
		}
		per[x.Kind+"#"+x.PersonID]++
		if per[x.Kind+"#"+x.PersonID] > MaxFilesPerDocument {
			return apperr.New(apperr.CodeCorpTooManyFiles, MaxFiles, MaxFilesPerDocument)
		}
		files[i] = x
	}
	d.Files = files
	return nil
}

// normalize checks step 5's form; unanswered questions are left for
// submit.
func (q *Questionnaire) normalize() error {
	if err := choice("monthlyVolume", &q.MonthlyVolume, MonthlyVolumes); err != nil {
		return err
	}
	purposes := []string{}
	for i, p := range q.Purposes {
		if err := choice(fmt.Sprintf("purposes[%d]", i), &p, Purposes); err != nil {
			return err
		}
		if p != "" && !slices.Contains(purposes, p) {
			purposes = append(purposes, p)
		}
	}
	q.Purposes = purposes
	for _, f := range []struct {
		name string
		v    *string
	}{{"purposeDetail", &q.PurposeDetail}, {"pepDetail", &q.PEPDetail}, {"sanctionsDetail", &q.SanctionsDetail}} {
		if err := text(f.name, f.v, maxLong, true); err != nil {
			return err
		}
	}
	return nil
}

// missing lists what a submit still needs, step by step.
func (a *Application) missing() []Missing {
	var out []Missing
	need := func(step int, field, v string) {
		if v == "" {
			out = append(out, Missing{Step: step, Field: field, Rule: RuleRequired})
		}
	}
	// Step 1.
	ap := a.Applicant
	if ap == nil {
		ap = &Applicant{}
	}
	need(StepApplicant, "fullName", ap.FullName)
	need(StepApplicant, "position", ap.Position)
	need(StepApplicant, "email", ap.Email)
	need(StepApplicant, "phone", ap.Phone)
	if c := a.Company; c != nil && c.BusinessAddressSame != nil && !*c.BusinessAddressSame {
		ba := ap.BusinessAddress
		if ba == nil {
			ba = &Address{}
		}
		need(StepApplicant, "businessAddress.country", ba.Country)
		need(StepApplicant, "businessAddress.city", ba.City)
		need(StepApplicant, "businessAddress.street", ba.Street)
	}
	// Step 2: the spec's form, every field but the zip (not every country
	// has postal codes).
	c := a.Company
	if c == nil {
		c = &Company{}
	}
	need(StepCompany, "entityName", c.EntityName)
	need(StepCompany, "registrationNumber", c.RegistrationNumber)
	need(StepCompany, "registrationDate", c.RegistrationDate)
	need(StepCompany, "contactNumber", c.ContactNumber)
	need(StepCompany, "sourceOfFunds", c.SourceOfFunds)
	need(StepCompany, "businessType", c.BusinessType)
	need(StepCompany, "applyReason", c.ApplyReason)
	need(StepCompany, "registeredCountry", c.RegisteredCountry)
	need(StepCompany, "registeredCity", c.RegisteredCity)
	need(StepCompany, "registeredStreet", c.RegisteredStreet)
	if c.BusinessAddressSame == nil {
		out = append(out, Missing{Step: StepCompany, Field: "businessAddressSame", Rule: RuleRequired})
	}
	// Step 3.
	var people []Person
	if a.People != nil {
		people = a.People.People
	}
	if len(people) == 0 {
		out = append(out, Missing{Step: StepPeople, Field: "people", Rule: RuleRequired})
	}
	if !slices.ContainsFunc(people, func(p Person) bool { return slices.Contains(p.Roles, RoleDirector) }) {
		out = append(out, Missing{Step: StepPeople, Field: "people", Rule: RuleDirector})
	}
	if a.People == nil || !a.People.AllOwnersListed {
		out = append(out, Missing{Step: StepPeople, Field: "allOwnersListed", Rule: RuleOwnersDeclaration})
	}
	// Step 4: the company's documents, and every person's ID.
	var files []File
	if a.Documents != nil {
		files = a.Documents.Files
	}
	for _, kind := range RequiredDocuments {
		if !slices.ContainsFunc(files, func(f File) bool { return f.Kind == kind }) {
			out = append(out, Missing{Step: StepDocuments, Field: "files." + kind, Rule: RuleDocument})
		}
	}
	for _, p := range people {
		if !slices.ContainsFunc(files, func(f File) bool { return f.Kind == DocRepresentativeID && f.PersonID == p.ID }) {
			out = append(out, Missing{Step: StepDocuments, Field: "files." + DocRepresentativeID + "." + p.ID, Rule: RuleIDDocument})
		}
	}
	// Step 5.
	q := a.Questionnaire
	if q == nil {
		q = &Questionnaire{}
	}
	need(StepQuestionnaire, "monthlyVolume", q.MonthlyVolume)
	if len(q.Purposes) == 0 {
		out = append(out, Missing{Step: StepQuestionnaire, Field: "purposes", Rule: RuleRequired})
	}
	if slices.Contains(q.Purposes, "other") {
		need(StepQuestionnaire, "purposeDetail", q.PurposeDetail)
	}
	if q.PEP == nil {
		out = append(out, Missing{Step: StepQuestionnaire, Field: "pep", Rule: RuleRequired})
	} else if *q.PEP {
		need(StepQuestionnaire, "pepDetail", q.PEPDetail)
	}
	if q.Sanctions == nil {
		out = append(out, Missing{Step: StepQuestionnaire, Field: "sanctions", Rule: RuleRequired})
	} else if *q.Sanctions {
		need(StepQuestionnaire, "sanctionsDetail", q.SanctionsDetail)
	}
	if !q.AccuracyConfirmed {
		out = append(out, Missing{Step: StepQuestionnaire, Field: "accuracyConfirmed", Rule: RuleConfirmation})
	}
	return out
}
