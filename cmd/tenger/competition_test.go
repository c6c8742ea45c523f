package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/competition"
	"tenger/internal/ledger"
	"tenger/internal/store/embedded"
)

// cliCompetitionFakes let users join from the test: the command itself
// reads the real futures accounts when it settles.
type cliCompetitionFakes struct{}

func (cliCompetitionFakes) CompetitionUser(context.Context, string) (competition.User, error) {
	return competition.User{Nick: "trader", KYCLevel: 1, Mobile: true}, nil
}
func (cliCompetitionFakes) MarginBalance(context.Context, string, string) (decimal.Decimal, error) {
	return decimal.NewFromInt(100), nil
}
func (cliCompetitionFakes) Opened(context.Context, string) (bool, error) { return true, nil }

// TestCompetitionCommands: a competition is created from a file, changed,
// listed and shown; after its end `settle` pays the winner into spot
// through the engine, once; the audit is clean.
func TestCompetitionCommands(t *testing.T) {
	data := t.TempDir()
	st, err := embedded.Open(filepath.Join(data, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		if err := competitionCommand(&out, append([]string{"--data", data}, args...)); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String()
	}
	file := filepath.Join(t.TempDir(), "cup.json")
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	end := time.Now().Add(3 * time.Second)
	def := `{"id": "cup", "names": {"en_US": "Cup", "mn_MN": "Тэмцээн"}, "start": "` + time.Now().Add(-time.Hour).UTC().Format(time.RFC3339) + `", "end": ` +
		decimal.NewFromInt(end.UnixMilli()).String() + `, "coin": "USDT",
		"prizes": [{"from": 1, "to": 1, "amount": "25"}, {"from": 2, "to": 3, "amount": "5"}], "rules": {"minBalance": "50", "mobile": false}}`
	var out bytes.Buffer
	write(strings.Replace(def, `"coin"`, `"coins"`, 1))
	if err := competitionCommand(&out, []string{"--data", data, "create", file}); err == nil || !strings.Contains(err.Error(), "coins") {
		t.Fatalf("an unknown field: %v", err)
	}
	write(strings.Replace(def, `"minBalance": "50", `, ``, 1))
	if err := competitionCommand(&out, []string{"--data", data, "create", file}); err == nil || !strings.Contains(err.Error(), "minBalance") {
		t.Fatalf("no minimum: %v", err)
	}
	write(def)
	if got := run("create", file); !strings.Contains(got, "competition cup created") || !strings.Contains(got, "prize pool 35 USDT") {
		t.Fatalf("create:\n%s", got)
	}
	// Started already: its terms are fixed, its names are not.
	write(strings.Replace(def, `"25"`, `"30"`, 1))
	if err := competitionCommand(&out, []string{"--data", data, "create", file}); err == nil || !strings.Contains(err.Error(), "only its names") {
		t.Fatalf("a started competition's prizes changed: %v", err)
	}
	write(strings.Replace(def, `"Cup"`, `"Futures cup"`, 1))
	if got := run("create", file); !strings.Contains(got, "competition cup updated") {
		t.Fatalf("rename:\n%s", got)
	}
	if got := run("list"); !strings.Contains(got, "cup") || !strings.Contains(got, "running") || !strings.Contains(got, "Futures cup") ||
		!strings.Contains(got, "1 competitions") {
		t.Fatalf("list:\n%s", got)
	}

	// A user joins (the futures account the command reads at the end is
	// empty: the ranking's only participant has an ROI of -100 %).
	st, err = embedded.Open(filepath.Join(data, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	svc := competition.New(competition.Options{Store: st, Users: cliCompetitionFakes{}, Futures: cliCompetitionFakes{}, Log: zerolog.Nop()})
	if _, err := svc.Join(context.Background(), "cup", "10000001"); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := competitionCommand(&out, []string{"--data", data, "settle", "cup"}); err == nil || !strings.Contains(err.Error(), "not ended") {
		t.Fatalf("settle before the end: %v", err)
	}
	time.Sleep(time.Until(end.Add(100 * time.Millisecond)))
	if got := run("settle", "cup"); !strings.Contains(got, "10000001  25") || !strings.Contains(got, "1 prizes, 25 paid") {
		t.Fatalf("settle:\n%s", got)
	}
	if err := competitionCommand(&out, []string{"--data", data, "settle", "cup"}); err == nil || !strings.Contains(err.Error(), "already been paid") {
		t.Fatalf("a second settle: %v", err)
	}
	if got := run("show", "cup"); !strings.Contains(got, "competition cup  settled") || !strings.Contains(got, "rank 1  user 10000001  25 USDT") ||
		!strings.Contains(got, "-100.00") || !strings.Contains(got, "settled ") || !strings.Contains(got, "name mn_MN: Тэмцээн") {
		t.Fatalf("show:\n%s", got)
	}
	st, err = embedded.Open(filepath.Join(data, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	led := ledger.New(st, time.Now)
	b, err := led.Balance(context.Background(), ledger.UserAccount("10000001", ledger.Spot), "USDT")
	if err != nil || !b.Available.Equal(decimal.NewFromInt(25)) {
		t.Fatalf("winner's spot %+v %v", b, err)
	}
	if rep, err := led.Audit(context.Background()); err != nil || !rep.Clean() {
		t.Fatalf("audit %+v %v", rep, err)
	}
}

// Usage errors are refused before the store is opened.
func TestCompetitionCommandArgs(t *testing.T) {
	var out bytes.Buffer
	for _, args := range [][]string{{}, {"show"}, {"create"}, {"settle", "a", "b"}, {"delete", "a"}} {
		if err := competitionCommand(&out, append([]string{"--data", t.TempDir()}, args...)); err == nil || !strings.Contains(err.Error(), "bad command") {
			t.Fatalf("%v: %v", args, err)
		}
	}
	if err := competitionCommand(&out, []string{"--data", t.TempDir(), "list"}); err == nil || !strings.Contains(err.Error(), "no store") {
		t.Fatalf("no store: %v", err)
	}
}
