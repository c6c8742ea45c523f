package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/auth"
	"tenger/internal/corporate"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// anyUpload takes every upload id as the user's: the CLI test is about
// the review, not the attachments.
type anyUpload struct{}

func (anyUpload) CheckOwned(context.Context, string, ...string) error { return nil }

// corpData is a data directory whose store holds users with submitted
// corporate applications (the server stopped, as the review needs).
func corpData(t *testing.T, uids ...string) string {
	t.Helper()
	data := t.TempDir()
	st, err := embedded.Open(filepath.Join(data, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	a := auth.New(auth.Options{Store: st, Log: zerolog.Nop(), Password: &auth.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}})
	svc := corporate.New(corporate.Options{Store: st, Accounts: a, Attachments: anyUpload{}, Log: zerolog.Nop()})
	yes, no := true, false
	for _, uid := range uids {
		if err := st.Put(ctx, store.Item{store.AttrPK: "USER#" + uid, store.AttrSK: "PROFILE", "uid": uid, "accountType": auth.AccountRegular}, nil); err != nil {
			t.Fatal(err)
		}
		steps := []func() (corporate.View, error){
			func() (corporate.View, error) {
				return svc.SaveApplicant(ctx, uid, corporate.Applicant{FullName: "A " + uid, Position: "CEO", Email: uid + "@example.com", Phone: "+97688001122"})
			},
			func() (corporate.View, error) {
				return svc.SaveCompany(ctx, uid, corporate.Company{EntityName: "Company " + uid, RegistrationNumber: "REG-" + uid,
					RegistrationDate: "2020-01-02", ContactNumber: "+97677112233", SourceOfFunds: "Revenue", BusinessType: "Mining",
					ApplyReason: "Treasury", RegisteredCountry: "MN", RegisteredCity: "Ulaanbaatar", RegisteredStreet: "Peace Ave 1",
					BusinessAddressSame: &yes})
			},
			func() (corporate.View, error) {
				return svc.SavePeople(ctx, uid, corporate.People{People: []corporate.Person{{Name: "D " + uid, Roles: []string{"director", "owner"},
					Nationality: "MN", DateOfBirth: "1980-01-01", OwnershipPercent: "100"}}, AllOwnersListed: true})
			},
			func() (corporate.View, error) {
				return svc.SaveDocuments(ctx, uid, corporate.Documents{Files: []corporate.File{
					{Kind: corporate.DocIncorporation, UploadID: "inc" + uid}, {Kind: corporate.DocArticles, UploadID: "art" + uid},
					{Kind: corporate.DocProofOfAddress, UploadID: "poa" + uid}, {Kind: corporate.DocRepresentativeID, UploadID: "id" + uid, PersonID: "p1"}}})
			},
			func() (corporate.View, error) {
				return svc.SaveQuestionnaire(ctx, uid, corporate.Questionnaire{MonthlyVolume: "under_10k", Purposes: []string{"trading"},
					PEP: &no, Sanctions: &no, AccuracyConfirmed: true})
			},
			func() (corporate.View, error) { return svc.Submit(ctx, uid) },
		}
		for i, step := range steps {
			if _, err := step(); err != nil {
				t.Fatalf("%s step %d: %v", uid, i+1, err)
			}
		}
	}
	return data
}

// accountTypeIn reads a user's account type from the data directory.
func accountTypeIn(t *testing.T, data, uid string) string {
	t.Helper()
	st, err := embedded.Open(filepath.Join(data, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	it, err := st.Get(context.Background(), store.Key{PK: "USER#" + uid, SK: "PROFILE"})
	if err != nil {
		t.Fatal(err)
	}
	return it.Str("accountType")
}

func runCorp(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := corporateCommand(&out, args)
	return out.String(), err
}

// TestCorporateCommand: list, show, approve and reject on a stopped
// server's data directory.
func TestCorporateCommand(t *testing.T) {
	data := corpData(t, "10000001", "10000002")
	out, err := runCorp(t, "--data", data, "list")
	if err != nil || !strings.Contains(out, "10000001") || !strings.Contains(out, "Company 10000002") || !strings.Contains(out, "2 pending applications") {
		t.Fatalf("list: %v\n%s", err, out)
	}
	out, err = runCorp(t, "--data", data, "show", "10000001")
	var shown corporate.Application
	if err != nil || json.Unmarshal([]byte(out), &shown) != nil || shown.Status != corporate.StatusPending ||
		shown.Company.RegistrationNumber != "REG-10000001" || len(shown.Documents.Files) != 4 {
		t.Fatalf("show: %v\n%s", err, out)
	}

	out, err = runCorp(t, "--data", data, "--as", "alice", "approve", "10000001")
	if err != nil || !strings.Contains(out, "approved 10000001 (Company 10000001)") {
		t.Fatalf("approve: %v\n%s", err, out)
	}
	if got := accountTypeIn(t, data, "10000001"); got != auth.AccountEnterprise {
		t.Fatalf("approved account type %q", got)
	}
	// A decision on a decided application changes nothing.
	if _, err := runCorp(t, "--data", data, "approve", "10000001"); err == nil || !strings.Contains(err.Error(), "approved, not waiting for review") {
		t.Fatalf("second approve: %v", err)
	}

	// Flags after the positional arguments, as the usage writes them.
	if _, err := runCorp(t, "--data", data, "reject", "10000002"); err == nil || !strings.Contains(err.Error(), "--reason") {
		t.Fatalf("reject without a reason: %v", err)
	}
	out, err = runCorp(t, "--data", data, "--as", "bob", "reject", "10000002", "--reason", "Proof of address too old", "--reason", "Articles unsigned")
	if err != nil || !strings.Contains(out, "- Proof of address too old") || !strings.Contains(out, "- Articles unsigned") {
		t.Fatalf("reject: %v\n%s", err, out)
	}
	if got := accountTypeIn(t, data, "10000002"); got != auth.AccountRegular {
		t.Fatalf("rejected account type %q", got)
	}
	out, err = runCorp(t, "--data", data, "--status", "rejected", "list")
	if err != nil || !strings.Contains(out, "10000002") || !strings.Contains(out, "1 rejected applications") {
		t.Fatalf("rejected list: %v\n%s", err, out)
	}
	out, _ = runCorp(t, "--data", data, "show", "10000002")
	if !strings.Contains(out, `"by": "bob"`) || !strings.Contains(out, "Articles unsigned") {
		t.Fatalf("history:\n%s", out)
	}
	if _, err := runCorp(t, "--data", data, "show", "10000009"); err == nil || !strings.Contains(err.Error(), "No corporate verification application") {
		t.Fatalf("show unknown: %v", err)
	}
	if _, err := runCorp(t, "--data", data, "--status", "done", "list"); err == nil {
		t.Fatal("unknown status listed")
	}
	if _, err := runCorp(t, "--data", data, "approve"); err == nil {
		t.Fatal("approve without a user")
	}
}

// TestCorporateCommandNeedsTheStore: a data directory a server holds, or
// one without a store, is refused with a word on why.
func TestCorporateCommandNeedsTheStore(t *testing.T) {
	if _, err := runCorp(t, "--data", t.TempDir(), "list"); err == nil || !strings.Contains(err.Error(), "no store") {
		t.Fatalf("empty directory: %v", err)
	}
	data := corpData(t)
	st, err := embedded.Open(filepath.Join(data, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := runCorp(t, "--data", data, "list"); err == nil || !strings.Contains(err.Error(), "stop tenger serve first") {
		t.Fatalf("store in use: %v", err)
	}
}
