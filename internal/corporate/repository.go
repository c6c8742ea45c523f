package corporate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// Items: one per user, in the user's partition, so the profile function
// that serves the routes needs no key space beyond the USER# it has, and
// an approval changes it and the profile (USER#<uid>/PROFILE, written by
// auth.AccountTypeOp) in one transaction:
//
//	USER#<uid> / CORP#APP   the application: state, version, the steps as
//	                        JSON documents, history
//	                        gsi1pk "CORPAPP#<status>" gsi1sk "<statusAt ms, 13 digits>#<uid>"
//	                        (the review queue: oldest first per state)
const (
	skApplication = "CORP#APP"
	gsiStatus     = "CORPAPP#"
)

// Attribute names of the application item.
const (
	attrUID        = "uid"
	attrStatus     = "status"
	attrNextPerson = "nextPerson"
	attrCreated    = "createdAt"
	attrUpdated    = "updatedAt"
	attrSubmitted  = "submittedAt"
	attrReviewed   = "reviewedAt"
	attrReviewer   = "reviewedBy"
	attrStatusAt   = "statusAt"
	attrReasons    = "reasons"
	attrHistory    = "history"
	// The steps are kept as JSON documents of their API shape: the item
	// is read and written whole, never queried by a step's field.
	attrApplicant     = "applicant"
	attrCompany       = "company"
	attrPeople        = "people"
	attrDocuments     = "documents"
	attrQuestionnaire = "questionnaire"
)

// Condition names of the transactions.
const (
	opApplication = "application"
	opProfile     = "profile"
)

// maxAttempts bounds how often a change is read and tried again after
// another write to the same application won the race.
const maxAttempts = 5

func applicationKey(uid string) store.Key { return store.Key{PK: "USER#" + uid, SK: skApplication} }

// repository is the application's storage: its key layout and item shape.
type repository struct{ st store.Store }

// get reads uid's application; found is false when there is none.
func (r *repository) get(ctx context.Context, uid string) (Application, bool, error) {
	it, err := r.st.Get(ctx, applicationKey(uid))
	if errors.Is(err, store.ErrNotFound) {
		return Application{UserID: uid, Status: StatusNone}, false, nil
	}
	if err != nil {
		return Application{}, false, apperr.New(apperr.CodeInternal).WithCause(err)
	}
	a, err := fromItem(it)
	if err != nil {
		return Application{}, false, apperr.New(apperr.CodeInternal).WithCause(err)
	}
	return a, true, nil
}

// plan is what a change writes: the application (on condition that it is
// still the version read) and other operations of the same transaction.
type plan struct {
	write bool
	extra []store.Op
}

// failedError says which named condition of a transaction failed, other
// than the application's own (which mutate retries).
type failedError struct{ name string }

func (e *failedError) Error() string { return "corporate: condition " + e.name + " failed" }

// isFailed reports whether err is the failure of the named condition.
func isFailed(err error, name string) bool {
	var f *failedError
	return errors.As(err, &f) && f.name == name
}

// mutate reads uid's application, lets fn change it (or refuse, which
// writes nothing) and writes what fn plans in one transaction, on
// condition that nobody wrote the application in between; a lost race is
// read and decided again. fn sees found false, and an application in
// state none, when the user has none.
func (r *repository) mutate(ctx context.Context, uid string, fn func(a *Application, found bool) (plan, error)) (Application, error) {
	for range maxAttempts {
		a, found, err := r.get(ctx, uid)
		if err != nil {
			return Application{}, err
		}
		read := a.version
		p, err := fn(&a, found)
		if err != nil {
			return Application{}, err
		}
		ops := p.extra
		if p.write {
			cond := store.VersionIs(read)
			if !found {
				cond = store.ItemNotExists()
			}
			a.version = read + 1
			it, err := toItem(a)
			if err != nil {
				return Application{}, apperr.New(apperr.CodeInternal).WithCause(err)
			}
			ops = append([]store.Op{store.PutOp(it, cond).Named(opApplication)}, ops...)
		}
		err = r.transact(ctx, ops)
		if isFailed(err, opApplication) {
			continue
		}
		if err != nil {
			return Application{}, err
		}
		return a, nil
	}
	return Application{}, apperr.New(apperr.CodeCorpChanged)
}

// transact writes ops in one transaction (one conditional put when there
// is only the application). A failed named condition is a *failedError.
func (r *repository) transact(ctx context.Context, ops []store.Op) error {
	var err error
	switch {
	case len(ops) == 0:
		return nil
	case len(ops) == 1 && ops[0].Kind == store.OpPut:
		if err = r.st.Put(ctx, ops[0].Item, ops[0].Cond); errors.Is(err, store.ErrConditionFailed) {
			return &failedError{name: ops[0].Name}
		}
	default:
		err = r.st.Transact(ctx, ops)
		if name, ok := store.FailedCondition(err, ops); ok {
			return &failedError{name: name}
		}
	}
	if err != nil {
		return apperr.New(apperr.CodeInternal).WithCause(err)
	}
	return nil
}

// list returns the applications in status, the longest waiting first.
func (r *repository) list(ctx context.Context, status string, now time.Time) ([]Application, error) {
	var out []Application
	var bad error
	err := store.EachLive(ctx, r.st, store.Query{Index: store.IndexGSI1, PK: gsiStatus + status}, now, func(it store.Item) {
		a, err := fromItem(it)
		if err != nil {
			bad = errors.Join(bad, err)
			return
		}
		out = append(out, a)
	})
	if err != nil {
		return nil, err
	}
	return out, bad
}

// toItem is the stored form of a.
func toItem(a Application) (store.Item, error) {
	it := store.Item{
		store.AttrPK: applicationKey(a.UserID).PK, store.AttrSK: skApplication,
		store.AttrGSI1PK: gsiStatus + a.Status, store.AttrGSI1SK: fmt.Sprintf("%013d#%s", a.StatusAt, a.UserID),
		store.AttrVersion: a.version,
		attrUID:           a.UserID, attrStatus: a.Status, attrNextPerson: a.nextPerson,
		attrCreated: a.CreatedAt, attrUpdated: a.UpdatedAt, attrSubmitted: a.SubmittedAt, attrReviewed: a.ReviewedAt,
		attrStatusAt: a.StatusAt,
	}
	if a.ReviewedBy != "" {
		it[attrReviewer] = a.ReviewedBy
	}
	if len(a.Reasons) > 0 {
		it[attrReasons] = append([]string(nil), a.Reasons...)
	}
	docs := []struct {
		attr string
		v    any
		set  bool
	}{
		{attrApplicant, a.Applicant, a.Applicant != nil},
		{attrCompany, a.Company, a.Company != nil},
		{attrPeople, a.People, a.People != nil},
		{attrDocuments, a.Documents, a.Documents != nil},
		{attrQuestionnaire, a.Questionnaire, a.Questionnaire != nil},
		{attrHistory, a.History, len(a.History) > 0},
	}
	for _, d := range docs {
		if !d.set {
			continue
		}
		b, err := json.Marshal(d.v)
		if err != nil {
			return nil, err
		}
		it[d.attr] = string(b)
	}
	return it, nil
}

// fromItem reads a stored application.
func fromItem(it store.Item) (Application, error) {
	a := Application{
		UserID: it.Str(attrUID), Status: it.Str(attrStatus), version: it.Int(store.AttrVersion),
		nextPerson: it.Int(attrNextPerson), CreatedAt: it.Int(attrCreated), UpdatedAt: it.Int(attrUpdated),
		SubmittedAt: it.Int(attrSubmitted), ReviewedAt: it.Int(attrReviewed), ReviewedBy: it.Str(attrReviewer),
		StatusAt: it.Int(attrStatusAt),
	}
	if l, ok := it[attrReasons].([]any); ok {
		for _, v := range l {
			if s, ok := v.(string); ok {
				a.Reasons = append(a.Reasons, s)
			}
		}
	}
	docs := []struct {
		attr string
		dst  any
	}{
		{attrApplicant, &a.Applicant}, {attrCompany, &a.Company}, {attrPeople, &a.People},
		{attrDocuments, &a.Documents}, {attrQuestionnaire, &a.Questionnaire}, {attrHistory, &a.History},
	}
	for _, d := range docs {
		if s := it.Str(d.attr); s != "" {
			if err := json.Unmarshal([]byte(s), d.dst); err != nil {
				return Application{}, fmt.Errorf("corporate: application of %s: %s: %w", a.UserID, d.attr, err)
			}
		}
	}
	return a, nil
}
