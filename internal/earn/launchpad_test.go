package earn

import (
	"math/big"
	"testing"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
)

// TestLaunchpadOversubscribed: five users commit USDT to a sale of 1,000
// TON at 2.5 USDT, capped at 300 TON a user, oversubscribed about 4×. The
// allocations match the formula to the last unit — worked out here from
// the definition, apart from the allocator: the first pro-rata round caps
// the two large commitments at 300, the rest is shared again among the
// other three — the cost is rounded up, the rest returned, the tokens
// credited to spot, the remainder stays with the project; a second run
// changes nothing; the books are exact.
func TestLaunchpadOversubscribed(t *testing.T) {
	e := newEnv(t, true)
	start := e.clk.Now().Add(time.Hour)
	p := LaunchProject{ID: "ton-sale", Names: map[string]string{LangEN: "TON sale"}, Token: "TON", CommitCoin: "USDT",
		Price: dec("2.5"), TokensOffered: dec("1000"), MaxPerUser: dec("300"), MinCommit: dec("10"),
		SubscribeStart: start.UnixMilli(), SubscribeEnd: start.Add(24 * time.Hour).UnixMilli(), DistributeAt: start.Add(25 * time.Hour).UnixMilli()}
	if err := e.svc.PutLaunchProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	users := []string{"10000001", "10000002", "10000003", "10000004", "10000005"}
	commits := []int64{4000, 2500, 1200, 1000, 333}
	for _, u := range users {
		e.deposit(t, u, "USDT", "5000")
	}
	_, err := e.svc.Commit(ctx, users[0], CommitInput{Project: "ton-sale", Amount: "100"})
	mustCode(t, err, apperr.CodeLaunchNotOpen)
	e.clk.Set(start.Add(time.Minute))
	_, err = e.svc.Commit(ctx, users[0], CommitInput{Project: "ton-sale", Amount: "9"})
	mustCode(t, err, apperr.CodeEarnBelowMin)
	_, err = e.svc.Commit(ctx, users[0], CommitInput{Project: "ton-sale", Amount: "6000"})
	mustCode(t, err, apperr.CodeWalletInsufficient)
	for i, u := range users {
		// Two commitments each: they add up.
		half := commits[i] / 2
		for _, a := range []int64{half, commits[i] - half} {
			if _, err := e.svc.Commit(ctx, u, CommitInput{Project: "ton-sale", Amount: big.NewInt(a).String()}); err != nil {
				t.Fatal(err)
			}
		}
	}
	v, err := e.svc.LaunchDetail(ctx, users[0], "ton-sale", LangEN)
	if err != nil || v.Phase != PhaseSubscription || v.TotalCommitted != "9033.000000" || v.Mine.Committed != "4000.000000" || v.Participants != 10 {
		t.Fatalf("detail: %+v %v", v, err)
	}
	e.clk.Set(start.Add(24*time.Hour + time.Minute))
	_, err = e.svc.Commit(ctx, users[0], CommitInput{Project: "ton-sale", Amount: "100"})
	mustCode(t, err, apperr.CodeLaunchNotOpen)
	if n, err := e.svc.RunLaunchpads(ctx); n != 0 || err != nil {
		t.Fatalf("before the distribution time: %d %v", n, err)
	}
	e.clk.Set(start.Add(25*time.Hour + time.Minute))
	if rep, err := e.svc.RunDue(ctx); err != nil || rep.Launchpads != 1 {
		t.Fatalf("run: %+v %v", rep, err)
	}
	if n, err := e.svc.SettleLaunch(ctx, "ton-sale"); n != 0 || err != nil {
		t.Fatalf("again: %d %v", n, err)
	}
	// The formula, by hand, in TON units (6 decimals): 1,000 TON offered;
	// total 9,033. Round 1: 4000/9033 × 1000 = 442.8… ≥ 300 and 2500/9033 ×
	// 1000 = 276.7… < 300, so only user 1 is capped (300 TON). Round 2:
	// 700 TON among 2500+1200+1000+333 = 5033: 2500/5033 × 700 = 347.7… ≥
	// 300: user 2 capped. Round 3: 400 TON among 1200+1000+333 = 2533:
	// 189.5…, 157.9…, 52.6…, none capped: shares rounded down.
	shareOf := func(left, amount, weight int64) int64 {
		return new(big.Int).Quo(new(big.Int).Mul(big.NewInt(left), big.NewInt(amount)), big.NewInt(weight)).Int64()
	}
	want := []int64{300_000_000, 300_000_000, shareOf(400_000_000, 1200, 2533), shareOf(400_000_000, 1000, 2533), shareOf(400_000_000, 333, 2533)}
	var allocated, proceeds int64
	for i, u := range users {
		tok, err := e.led.Balance(ctx, ledger.UserAccount(u, ledger.Spot), "TON")
		if err != nil {
			t.Fatal(err)
		}
		if tok.Available.StringFixed(6) != fixed(want[i], 6) {
			t.Fatalf("user %d: %s TON, the formula says %s", i+1, tok.Available, fixed(want[i], 6))
		}
		cost := (want[i]*25 + 9) / 10 // × 2.5, rounded up, in USDT units (both 6 decimals)
		usdt := e.balance(t, u, ledger.Spot, "USDT")
		if usdt.Available.StringFixed(6) != fixed(5000_000_000-cost, 6) {
			t.Fatalf("user %d: %s USDT left, want %s", i+1, usdt.Available, fixed(5000_000_000-cost, 6))
		}
		if b := e.balance(t, u, ledger.Earn, "USDT"); !b.Total().IsZero() {
			t.Fatalf("user %d: commitment still held: %s", i+1, b.Frozen)
		}
		d, _ := e.svc.LaunchDetail(ctx, u, "ton-sale", LangEN)
		if d.Phase != PhaseEnded || d.Mine.Allocated != fixed(want[i], 6) || d.Mine.Cost != fixed(cost, 6) {
			t.Fatalf("user %d report: %+v", i+1, d.Mine)
		}
		allocated += want[i]
		proceeds += cost
	}
	proj, _ := e.led.Balance(ctx, launchAccount("ton-sale"), "USDT")
	if proj.Available.StringFixed(6) != fixed(proceeds, 6) {
		t.Fatalf("proceeds %s, want %s", proj.Available, fixed(proceeds, 6))
	}
	toks, _ := e.led.Balance(ctx, launchAccount("ton-sale"), "TON")
	if toks.Available.StringFixed(6) != fixed(-allocated, 6) || allocated > 1000_000_000 || 1000_000_000-allocated > 2 {
		t.Fatalf("tokens out %s, allocated %d (the rounding leaves at most a unit per user in the last round)", toks.Available, allocated)
	}
	e.audit(t)
	if a, err := e.led.Audit(ctx, "TON"); err != nil || !a.Clean() {
		t.Fatalf("TON audit: %v %v", a.Problems, err)
	}
}
