package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/ledger"
	"tenger/internal/p2p"
	"tenger/internal/store/embedded"
)

type cliProfiles struct{}

func (cliProfiles) P2PProfile(context.Context, string) (p2p.Profile, error) {
	return p2p.Profile{Nick: "n", KYCVerified: true}, nil
}

type cliMethods struct{}

func (cliMethods) Methods(_ context.Context, uid string, ids []string) ([]p2p.Method, error) {
	return []p2p.Method{{ID: ids[0], Kind: "bank", Title: "Khan Bank", UserName: "U " + uid, Account: "MN120005005123456789"}}, nil
}

// TestP2PAppealCommands: an order in appeal is listed, shown with its
// chat, and decided from the command line; the escrow goes to the buyer
// once and the audit is clean; a merchant application is answered.
func TestP2PAppealCommands(t *testing.T) {
	data := t.TempDir()
	st, err := embedded.Open(filepath.Join(data, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	led := ledger.New(st, nil)
	svc := p2p.New(p2p.Options{Store: st, Ledger: led, Profiles: cliProfiles{}, Methods: cliMethods{}, Log: zerolog.Nop()})
	if _, err := led.Post(ctx, ledger.Posting{ID: "dep", Reason: "deposit", Legs: []ledger.Leg{
		ledger.Move(ledger.ChainAccount("TRC20"), ledger.UserAccount("10000001", ledger.OTC), "USDT", decimal.NewFromInt(100))}}); err != nil {
		t.Fatal(err)
	}
	for _, uid := range []string{"10000001", "10000003"} {
		if _, err := svc.MerchantApply(ctx, uid); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.DecideMerchant(ctx, "10000001", "desk", true); err != nil {
		t.Fatal(err)
	}
	ad, err := svc.SaveAd(ctx, "10000001", p2p.AdInput{Side: p2p.Sell, Coin: "USDT", Fiat: "MNT", PriceType: p2p.PriceFixed,
		Price: decimal.NewFromInt(3500), Amount: decimal.NewFromInt(100), MinFiat: decimal.NewFromInt(1000),
		MaxFiat: decimal.NewFromInt(1000000), MethodIDs: []string{"m"}, PayMinutes: 15})
	if err != nil {
		t.Fatal(err)
	}
	o, err := svc.OpenOrder(ctx, "10000002", p2p.OrderInput{AdID: ad.ID, Side: p2p.Buy, Volume: decimal.NewFromInt(40)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.MarkPaid(ctx, "10000002", o.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Send(ctx, "10000002", o.ID, "sent 140000 from Khan", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Complain(ctx, "10000002", o.ID, "paid_not_released", "Paid at 09:00, no release.", nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		if err := p2pCommand(&out, append([]string{"--data", data}, args...)); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String()
	}
	if got := run("appeals", "list"); !strings.Contains(got, o.ID) || !strings.Contains(got, "paid_not_released") || !strings.Contains(got, "1 appeals") {
		t.Fatalf("list:\n%s", got)
	}
	if got := run("appeals", "show", o.ID); !strings.Contains(got, "buyer    sent 140000 from Khan") || !strings.Contains(got, "Paid at 09:00") {
		t.Fatalf("show:\n%s", got)
	}
	var out bytes.Buffer
	if err := p2pCommand(&out, []string{"--data", data, "--as", "desk-2", "appeals", "decide", o.ID, "maybe"}); err == nil || !strings.Contains(err.Error(), "release or refund") {
		t.Fatalf("a bad outcome: %v", err)
	}
	if got := run("--as", "desk-2", "--note", "bank statement checked", "appeals", "decide", o.ID, "release"); !strings.Contains(got, "COMPLETED (40 USDT to the buyer)") {
		t.Fatalf("decide:\n%s", got)
	}
	if err := p2pCommand(&out, []string{"--data", data, "--as", "desk-2", "appeals", "decide", o.ID, "refund"}); err == nil {
		t.Fatal("a second decision was accepted")
	}
	if got := run("--as", "desk-2", "merchants", "decide", "10000003", "approve"); !strings.Contains(got, "approved") {
		t.Fatalf("merchant:\n%s", got)
	}
	if err := p2pCommand(&out, []string{"--data", data, "--as", "desk-2", "merchants", "decide", "10000003", "approve"}); err == nil {
		t.Fatal("a second merchant decision was accepted")
	}
	st, err = embedded.Open(filepath.Join(data, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	led = ledger.New(st, time.Now)
	b, err := led.Balance(ctx, ledger.UserAccount("10000002", ledger.OTC), "USDT")
	if err != nil || b.Available.String() != "40" {
		t.Fatalf("buyer %+v %v", b, err)
	}
	if rep, err := led.Audit(ctx); err != nil || !rep.Clean() {
		t.Fatalf("audit %+v %v", rep, err)
	}
}

// Usage errors are refused before the store is opened.
func TestP2PCommandArgs(t *testing.T) {
	var out bytes.Buffer
	for _, args := range [][]string{{}, {"appeals"}, {"appeals", "decide", "1"}, {"merchants", "list"}} {
		if err := p2pCommand(&out, append([]string{"--data", t.TempDir()}, args...)); err == nil || !strings.Contains(err.Error(), "bad command") {
			t.Fatalf("%v: %v", args, err)
		}
	}
}
