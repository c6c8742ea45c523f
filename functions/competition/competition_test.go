package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/functions/fntest"
	"tenger/internal/awslambda"
	"tenger/internal/coins"
	"tenger/internal/competition"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/spotfunds"
)

// clock is the function's clock, moved by the test.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// TestScheduledRefreshRanksAndPays drives the function with the recorded
// EventBridge scheduled event on DynamoDB Local, the engine task's
// endpoint behind it: a competition runs with one participant (joined
// with no rules to meet); a refresh ranks it; after the end the next
// refresh fixes the winner and pays its prize into spot from the treasury,
// and a repeated event pays nothing again; the table, the engine and the
// postings agree.
func TestScheduledRefreshRanksAndPays(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	st := fntest.Table(t, "competition-fn")
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{t: time.Now()}
	box := &fntest.Recorder{}
	d := &platform.Deps{Store: st, Notify: box, Log: zerolog.Nop(), Now: clk.now, Coins: cc, Markets: markets.Defaults(),
		Config: platform.Config{Stage: "test"}}
	eng, fr := fntest.EngineFutures(t, d)
	if err := fr.SetDevIndex("BTCUSDT", decimal.NewFromInt(60000)); err != nil {
		t.Fatal(err)
	}
	if err := fr.Step(ctx); err != nil {
		t.Fatal(err)
	}
	// A user signed up through the profile function's routers (the recorded events).
	profileMux := http.NewServeMux()
	httpapi.Mount(profileMux, d.ProfileArea()...)
	profile := awslambda.NewRuntime("profile", io.Discard).HTTP(profileMux)
	if env := fntest.Call(t, profile, fntest.SampleEvent(t, "http_email_code.json", nil), nil); env.Code != "0" {
		t.Fatalf("emailValidCode: %+v", env)
	}
	var reg struct{ UID string }
	fntest.Call(t, profile, fntest.SampleEvent(t, "http_register.json", map[string]string{"code": box.LastCode("sample.user@tenger.example")}), &reg)
	uid := reg.UID
	funds := d.SpotFunds()
	if err := funds.Credit(ctx, spotfunds.Move{Ref: "dep:" + uid, UID: uid, Coin: "USDT", Amount: decimal.NewFromInt(500),
		Other: ledger.ChainAccount("TRC20"), Reason: "deposit"}); err != nil {
		t.Fatal(err)
	}
	if err := funds.Futures(ctx, spotfunds.Move{Ref: "in:" + uid, UID: uid, Coin: "USDT", Amount: decimal.NewFromInt(500)}, true); err != nil {
		t.Fatal(err)
	}
	svc := d.Competition()
	def := competition.Definition{ID: "dec-cup", Names: map[string]string{"en_US": "December cup", "mn_MN": "12-р сарын тэмцээн"},
		Descriptions: map[string]string{"en_US": "Trade perpetuals.", "mn_MN": "Мөнхийн гэрээгээр арилжаална."},
		Start:        clk.t.Add(time.Minute).UnixMilli(), End: clk.t.Add(time.Hour).UnixMilli(), Coin: "USDT",
		Prizes: []competition.Prize{{From: 1, To: 1, Amount: decimal.NewFromInt(100)}}}
	if _, _, err := svc.Put(ctx, def); err != nil {
		t.Fatal(err)
	}
	clk.t = clk.t.Add(2 * time.Minute)
	if _, err := svc.Join(ctx, "dec-cup", uid); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", "eventbridge_scheduled.json"))
	if err != nil {
		t.Fatal(err)
	}
	h := handler(awslambda.NewRuntime("competition", io.Discard), d)
	if _, err := h(ctx, raw); err != nil {
		t.Fatal(err)
	}
	if r, err := svc.UserRank(ctx, "dec-cup", uid); err != nil || r.Rank != 1 {
		t.Fatalf("rank after a refresh %+v %v", r, err)
	}
	// After the end: the winner is paid, once.
	clk.t = clk.t.Add(2 * time.Hour)
	for range 2 {
		if _, err := h(ctx, raw); err != nil {
			t.Fatal(err)
		}
	}
	b, err := d.Ledger().Balance(ctx, ledger.UserAccount(uid, ledger.Spot), "USDT")
	if err != nil || !b.Available.Equal(decimal.NewFromInt(100)) {
		t.Fatalf("spot after the prize %+v %v", b, err)
	}
	if c, err := svc.Get(ctx, "dec-cup"); err != nil || c.SettledAt == 0 {
		t.Fatalf("competition %+v %v", c, err)
	}
	if problems, err := eng.Verify(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("engine and table disagree: %v %v", problems, err)
	}
	if rep, err := d.Ledger().Audit(ctx, "USDT"); err != nil || !rep.Clean() {
		t.Fatalf("audit %v %v", rep.Problems, err)
	}
	if _, err := h(ctx, []byte(`{"Records":[]}`)); err == nil {
		t.Fatal("a non-scheduled event was taken")
	}
}
