package kyc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/store"
)

// The repository of applicants: the only code that knows their key layout
// (the package comment draws it).

func applicantKey(uid string) store.Key { return store.Key{PK: "KYC#" + uid, SK: "APPLICANT"} }

func appIDKey(applicantID string) store.Key {
	return store.Key{PK: "KYC#APPID#" + applicantID, SK: "UID"}
}

// eventKey hashes an event's key: a correlation id is the provider's
// free-form text, and a hash keeps the partition key short and plain.
func eventKey(key string) store.Key {
	h := sha256.Sum256([]byte(key))
	return store.Key{PK: "KYC#EVENT#" + hex.EncodeToString(h[:]), SK: "E"}
}

func historyKey(uid string, atMs int64, id string) store.Key {
	return store.Key{PK: "KYC#" + uid, SK: fmt.Sprintf("EVENT#%013d#%s", max(atMs, 0), id)}
}

// listPK is the gsi1 partition of the operator's list of a status.
func listPK(s Status) string { return "KYCLIST#" + s.String() }

func applicantOf(it store.Item) Applicant {
	a := Applicant{UserID: it.Str("uid"), ApplicantID: it.Str("applicantId"), Provider: it.Str("provider"),
		Level: it.Str("level"), ProviderLevel: it.Str("providerLevel"), ReviewStatus: it.Str("reviewStatus"),
		Answer: it.Str("answer"), RejectType: it.Str("rejectType"), Reason: it.Str("reason"),
		ClientComment: it.Str("clientComment"), VerifiedLevel: it.Str("verifiedLevel"),
		LastEventMs: it.Int("lastEventMs"), Created: it.Int("created"), Updated: it.Int("updated"),
		version: it.Int(store.AttrVersion)}
	a.RejectLabels = strs(it["rejectLabels"])
	return a
}

// strs reads a list attribute of strings.
func strs(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func applicantItem(a Applicant) store.Item {
	k := applicantKey(a.UserID)
	labels := make([]any, len(a.RejectLabels))
	for i, l := range a.RejectLabels {
		labels[i] = l
	}
	return store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "uid": a.UserID, "applicantId": a.ApplicantID,
		"provider": a.Provider, "level": a.Level, "providerLevel": a.ProviderLevel, "reviewStatus": a.ReviewStatus,
		"answer": a.Answer, "rejectType": a.RejectType, "rejectLabels": labels, "reason": a.Reason,
		"clientComment": a.ClientComment, "verifiedLevel": a.VerifiedLevel, "lastEventMs": a.LastEventMs,
		"created": a.Created, "updated": a.Updated, store.AttrVersion: a.version + 1,
		store.AttrGSI1PK: listPK(a.Status()), store.AttrGSI1SK: fmt.Sprintf("%013d#%s", a.Updated, a.UserID)}
}

// load reads the user's applicant; found is false when there is none.
func (s *Service) load(ctx context.Context, uid string) (Applicant, bool, error) {
	it, err := s.o.Store.Get(ctx, applicantKey(uid))
	if errors.Is(err, store.ErrNotFound) {
		return Applicant{UserID: uid}, false, nil
	}
	if err != nil {
		return Applicant{}, false, internal(err)
	}
	return applicantOf(it), true, nil
}

// userOfApplicant finds the user of a provider's applicant id ("" when
// none of ours).
func (s *Service) userOfApplicant(ctx context.Context, applicantID string) (string, error) {
	if applicantID == "" || len(applicantID) > 128 {
		return "", nil
	}
	it, err := s.o.Store.Get(ctx, appIDKey(applicantID))
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", internal(err)
	}
	return it.Str("uid"), nil
}

// profileUpdate writes the applicant's status to the profile (and, for a
// verification, the verified identity).
func profileUpdate(a Applicant, id *Identity) *store.Update {
	u := store.NewUpdate().Set(auth.AttrKYCStatus, int64(a.Status()))
	if a.VerifiedLevel != "" {
		u.Set(auth.AttrKYCLevel, a.VerifiedLevel)
	} else {
		u.Remove(auth.AttrKYCLevel)
	}
	if a.Status() == Rejected && a.Reason != "" {
		u.Set(auth.AttrKYCRejectReason, a.Reason)
	} else {
		u.Remove(auth.AttrKYCRejectReason)
	}
	if id != nil && a.Answer == AnswerGreen {
		for attr, v := range map[string]string{auth.AttrFirstName: id.FirstName, auth.AttrLastName: id.LastName,
			auth.AttrRealName: id.RealName(), auth.AttrCountry: id.Country} {
			if v = strings.TrimSpace(v); v != "" {
				u.Set(attr, clip(v, 100))
			}
		}
	}
	return u
}

// HistoryEntry is one event of an applicant's history.
type HistoryEntry struct {
	AtMs          int64    `json:"atMs"`
	Kind          string   `json:"type"`
	Source        string   `json:"source"`
	By            string   `json:"by,omitempty"`
	ProviderLevel string   `json:"providerLevel,omitempty"`
	Answer        string   `json:"reviewAnswer,omitempty"`
	RejectType    string   `json:"reviewRejectType,omitempty"`
	RejectLabels  []string `json:"rejectLabels,omitempty"`
	Reason        string   `json:"reason,omitempty"`
	ClientComment string   `json:"clientComment,omitempty"`
	// Ignored says why the event changed nothing (empty when it applied).
	Ignored    string `json:"ignored,omitempty"`
	ReceivedMs int64  `json:"receivedMs"`
}

func historyItem(uid, id string, ev Event, out Outcome, now int64) store.Item {
	k := historyKey(uid, ev.AtMs, id)
	labels := make([]any, len(ev.RejectLabels))
	for i, l := range ev.RejectLabels {
		labels[i] = l
	}
	return store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "type": string(ev.Kind), "source": ev.Source, "by": ev.By,
		"providerLevel": ev.ProviderLevel, "answer": ev.Answer, "rejectType": ev.RejectType, "rejectLabels": labels,
		"reason": ev.Reason, "clientComment": ev.ClientComment, "ignored": out.Ignored, "atMs": ev.AtMs,
		"received": now, "key": clip(ev.Key, 300)}
}

// History lists an applicant's events, oldest first.
func (s *Service) History(ctx context.Context, uid string) ([]HistoryEntry, error) {
	var out []HistoryEntry
	err := store.EachLive(ctx, s.o.Store, store.Query{PK: "KYC#" + uid, SK: store.SKPrefixed("EVENT#")}, s.o.Now(), func(it store.Item) {
		out = append(out, HistoryEntry{AtMs: it.Int("atMs"), Kind: it.Str("type"), Source: it.Str("source"), By: it.Str("by"),
			ProviderLevel: it.Str("providerLevel"), Answer: it.Str("answer"), RejectType: it.Str("rejectType"),
			RejectLabels: strs(it["rejectLabels"]), Reason: it.Str("reason"), ClientComment: it.Str("clientComment"),
			Ignored: it.Str("ignored"), ReceivedMs: it.Int("received")})
	})
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// List lists the applicants of a status, most recently changed first (at
// most limit; 0: 100).
func (s *Service) List(ctx context.Context, st Status, limit int) ([]Applicant, error) {
	if limit <= 0 {
		limit = 100
	}
	var out []Applicant
	q := store.Query{Index: store.IndexGSI1, PK: listPK(st), Desc: true, Limit: min(limit, 100)}
	for len(out) < limit {
		page, err := s.o.Store.Query(ctx, q)
		if err != nil {
			return nil, internal(err)
		}
		for _, it := range page.Items {
			if len(out) < limit {
				out = append(out, applicantOf(it))
			}
		}
		if page.Cursor == "" {
			break
		}
		q.Cursor = page.Cursor
	}
	return out, nil
}

// internal wraps a store failure as the catalogue's internal error.
func internal(err error) error { return apperr.New(apperr.CodeInternal).WithCause(err) }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Cut on a character boundary.
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
