package platform

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/competition"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
	"tenger/internal/wallet"
)

// `tenger serve` wires the competition to the real services: the user
// item's KYC and mobile, the futures account's margin balance, the
// wallet's transfer records (a transfer out is no loss), and the engine's
// spot balances for the prize, paid from the treasury account; the books
// stay clean.
func TestLocalCompetition(t *testing.T) {
	l, err := OpenLocal(t.TempDir(), Config{}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	if !serves(l.CompetitionArea(), "/fe-co-api/common/competition_detail", "/fe-co-api/join_competition", "/fe-co-api/user_rank") {
		t.Fatal("the competition area does not serve its calls")
	}
	ctx := context.Background()
	// The refresher runs beside the calls below (once now, then every
	// minute) and stops with Close.
	l.StartCompetitionRefresher(ctx)
	const uid = "10000001"
	if err := l.Store.Put(ctx, store.Item{store.AttrPK: "USER#" + uid, store.AttrSK: "PROFILE", "uid": uid, "nickName": "trader",
		"kycStatus": 2, "countryCode": "976", "mobileNumber": "88001122"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := l.SpotFunds().Credit(ctx, spotfunds.Move{Ref: "dep:1", UID: uid, Coin: "USDT", Amount: decimal.NewFromInt(500),
		Other: ledger.ChainAccount("TRC20"), Reason: "deposit"}); err != nil {
		t.Fatal(err)
	}
	if err := l.Futures().Open(ctx, uid); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Wallet().Transfer(ctx, uid, wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "USDT", Amount: "300"}); err != nil {
		t.Fatal(err)
	}
	svc := l.Competition()
	now := time.Now()
	if _, _, err := svc.Put(ctx, competition.Definition{ID: "live", Names: map[string]string{"en_US": "Live", "mn_MN": "Шууд"},
		Start: now.Add(-time.Minute).UnixMilli(), End: now.Add(2 * time.Second).UnixMilli(), Coin: "USDT",
		Prizes: []competition.Prize{{From: 1, To: 1, Amount: decimal.NewFromInt(50)}}, Rules: competition.DefaultRules(decimal.NewFromInt(100))}); err != nil {
		t.Fatal(err)
	}
	j, err := svc.Join(ctx, "live", uid)
	if err != nil || j.InitialEquity != "300.00" {
		t.Fatalf("join %+v %v", j, err)
	}
	if _, err := l.Wallet().Transfer(ctx, uid, wallet.TransferInput{From: ledger.Futures, To: ledger.Spot, Coin: "USDT", Amount: "100"}); err != nil {
		t.Fatal(err)
	}
	if err := svc.Refresh(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	u, err := svc.UserRank(ctx, "live", uid)
	if err != nil || u.Rank != 1 || u.Equity != "200.00" || u.NetTransferIn != "-100.00" || u.Profit != "0.00" {
		t.Fatalf("rank %+v %v", u, err)
	}
	time.Sleep(time.Until(now.Add(2100 * time.Millisecond)))
	if err := svc.Refresh(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	b, err := l.Ledger().Balance(ctx, ledger.UserAccount(uid, ledger.Spot), "USDT")
	if err != nil || !b.Available.Equal(decimal.NewFromInt(350)) {
		t.Fatalf("spot after the prize %+v %v", b, err)
	}
	if b, _ := l.Ledger().Balance(ctx, ledger.TreasuryAccount("competition"), "USDT"); !b.Available.Equal(decimal.NewFromInt(-50)) {
		t.Fatalf("treasury %+v", b)
	}
	if c, _ := svc.Get(ctx, "live"); c.SettledAt == 0 {
		t.Fatalf("not settled %+v", c)
	}
	rep, err := l.Ledger().Audit(ctx)
	if err != nil || !rep.Clean() {
		t.Fatalf("audit %+v %v", rep, err)
	}
	problems, err := l.Engine.Verify(ctx)
	if err != nil || len(problems) != 0 {
		t.Fatalf("engine and store %v %v", problems, err)
	}
}
