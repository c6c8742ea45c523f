package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"tenger/internal/store/embedded"
)

// TestEarnCommands: a savings product is set from standard input, changed,
// listed; a bad one is refused before anything is written; the run works
// on the data directory as tenger serve opens it.
func TestEarnCommands(t *testing.T) {
	data := t.TempDir()
	st, err := embedded.Open(filepath.Join(data, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	run := func(stdin string, args ...string) (string, error) {
		var out bytes.Buffer
		err := earnCommand(&out, strings.NewReader(stdin), append([]string{"--data", data}, args...))
		return out.String(), err
	}
	must := func(stdin string, args ...string) string {
		t.Helper()
		out, err := run(stdin, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out
	}
	usdt := `{"id": "usdt", "coin": "USDT", "names": {"en_US": "USDT Flexible"}, "period": "monthly", "rate": "0.5",
		"tiers": [{"upTo": "5000", "rate": "0.5"}, {"rate": "0.25"}], "minAmount": "1", "maxPerUser": "100000", "open": true}`
	if out := must(usdt, "savings", "set", "-"); !strings.Contains(out, "6.00% per year") {
		t.Fatalf("set: %s", out)
	}
	if out := must(strings.Replace(usdt, `"open": true`, `"open": false`, 1), "savings", "set", "-"); !strings.Contains(out, "usdt") {
		t.Fatalf("change: %s", out)
	}
	out := must("", "savings", "list")
	if !strings.Contains(out, "usdt") || !strings.Contains(out, "monthly") || !strings.Contains(out, "5000.000000@0.5,rest@0.25") || !strings.Contains(out, "false") {
		t.Fatalf("list:\n%s", out)
	}
	for _, bad := range []string{
		`{"id": "USD T", "coin": "USDT", "period": "yearly", "rate": "1"}`,
		`{"id": "x", "coin": "NOPE", "period": "yearly", "rate": "1"}`,
		`{"id": "x", "coin": "USDT", "period": "hourly", "rate": "1"}`,
		`{"id": "x2", "coin": "USDT", "period": "yearly", "rate": "1"}`,
		`{"id": "usdt", "coin": "USDT", "period": "yearly", "rate": "1", "tiers": [{"rate": "1"}, {"upTo": "5", "rate": "1"}]}`,
		`{"id": "usdt", "coin": "USDT", "period": "yearly", "rate": "1", "bogus": 1}`,
	} {
		if _, err := run(bad, "savings", "set", "-"); err == nil {
			t.Fatalf("accepted %s", bad)
		}
	}
	if out := must("", "savings", "list"); strings.Count(out, "\n") != 2 {
		t.Fatalf("a refused product was written:\n%s", out)
	}
	stk := `{"id": "usdt-30", "coin": "USDT", "termDays": 30, "apr": "8", "payout": "maturity", "minAmount": "10",
		"maxPerUser": "5000", "totalCap": "100000", "open": true}`
	if out := must(stk, "staking", "set", "-"); !strings.Contains(out, "30 days, 8.00% per year, paid maturity") {
		t.Fatalf("staking set: %s", out)
	}
	if _, err := run(strings.Replace(stk, `"termDays": 30`, `"termDays": 60`, 1), "staking", "set", "-"); err == nil {
		t.Fatal("a staking product's term changed")
	}
	if out := must("", "staking", "list"); !strings.Contains(out, "usdt-30") || !strings.Contains(out, "100000.000000") {
		t.Fatalf("staking list:\n%s", out)
	}
	sale := `{"id": "ton-launch", "token": "TON", "commitCoin": "USDT", "price": "2.2", "tokensOffered": "10000",
		"maxPerUser": "2000", "minCommit": "10", "subscribeStart": 1000, "subscribeEnd": 2000, "distributeAt": 3000}`
	if out := must(sale, "launchpad", "set", "-"); !strings.Contains(out, "10000 TON at 2.2 USDT") {
		t.Fatalf("launchpad set: %s", out)
	}
	if _, err := run(strings.Replace(sale, `"distributeAt": 3000`, `"distributeAt": 1500`, 1), "launchpad", "set", "-"); err == nil {
		t.Fatal("a sale distributed before its subscription ends was accepted")
	}
	if out := must("", "launchpad", "list"); !strings.Contains(out, "ton-launch") || !strings.Contains(out, "distribution") {
		t.Fatalf("launchpad list:\n%s", out)
	}
	if out := must("", "launchpad", "settle", "ton-launch"); !strings.Contains(out, "0 participants") {
		t.Fatalf("settle: %s", out)
	}
	if out := must("", "launchpad", "list"); !strings.Contains(out, "ended") {
		t.Fatalf("after settle:\n%s", out)
	}
	shown := must("", "loans", "show")
	if !strings.Contains(shown, `"initialLTV": "0.65"`) {
		t.Fatalf("loans show:\n%s", shown)
	}
	if out := must(strings.Replace(shown, `"initialLTV": "0.65"`, `"initialLTV": "0.6"`, 1), "loans", "set", "-"); !strings.Contains(out, "LTV 0.6 / 0.75 / 0.83") {
		t.Fatalf("loans set: %s", out)
	}
	if _, err := run(strings.Replace(shown, `"initialLTV": "0.65"`, `"initialLTV": "0.8"`, 1), "loans", "set", "-"); err == nil {
		t.Fatal("an initial LTV above the margin call was accepted")
	}
	if out := must("", "run"); !strings.Contains(out, "0 savings positions and 0 stakes due") {
		t.Fatalf("run: %s", out)
	}
	if _, err := run("", "savings"); err == nil {
		t.Fatal("bad command accepted")
	}
}
