package earn

import (
	"sync"
	"testing"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/store"
)

func (e *env) seedStaking(t testing.TB) {
	t.Helper()
	for _, p := range DevStakingProducts() {
		if err := e.svc.PutStakingProduct(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
}

// stakeRewards reads a user's reward records by stake and day.
func stakeRewards(t testing.TB, e *env, uid string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	q := store.Query{PK: logPK(uid)}
	for {
		page, err := e.st.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			if it.Str("type") == LogStakeReward {
				k := it.Str("prod") + "@" + DayString(it.Int("day"))
				if _, dup := out[k]; dup {
					t.Fatalf("%s rewarded twice", k)
				}
				out[k], _ = units(dec(it.Str("amount")), 6)
			}
		}
		if page.Cursor == "" {
			return out
		}
		q.Cursor = page.Cursor
	}
}

// TestStakingDaysMatchFormula: a 30-day stake paid at maturity and a
// 90-day stake paid daily run through 95 simulated days, some runs late or
// skipped: every day's reward is amount × APR ÷ 365 rounded down, paid
// once; the principal and the kept rewards return after the last day; the
// caps' counters return to zero; the books stay exact.
func TestStakingDaysMatchFormula(t *testing.T) {
	e := newEnv(t, true)
	e.seedStaking(t)
	const u = "10000001"
	e.deposit(t, u, "USDT", "15000")
	if _, err := e.svc.Stake(ctx, u, StakeInput{Product: "usdt-30", Amount: "10000"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Stake(ctx, u, StakeInput{Product: "usdt-90", Amount: "5000"}); err != nil {
		t.Fatal(err)
	}
	if b := e.balance(t, u, ledger.Earn, "USDT"); !b.Frozen.Equal(dec("15000")) || !b.Available.IsZero() {
		t.Fatalf("locked: %s/%s", b.Available, b.Frozen)
	}
	r30 := int64(10_000_000_000) * 8 / 100 / 365 // 2191780 (2.191780 USDT a day)
	r90 := int64(5_000_000_000) * 10 / 100 / 365 // 1369863
	for d := 1; d <= 95; d++ {
		if d%7 == 3 || d%11 == 5 {
			continue // no run that day: the next one catches up
		}
		e.at(d, 0)
		if _, err := e.svc.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		got := stakeRewards(t, e, u)
		paid := min(d-1, 90)
		spot := int64(0)
		for day := 1; day <= paid; day++ {
			if got["usdt-90@"+DayString(DayOf(day0)+int64(day))] != r90 {
				t.Fatalf("run of day %d: usdt-90 day %d: %d, the formula says %d", d, day, got["usdt-90@"+DayString(DayOf(day0)+int64(day))], r90)
			}
			spot += r90
		}
		for day := 1; day <= min(d-1, 30); day++ {
			if got["usdt-30@"+DayString(DayOf(day0)+int64(day))] != r30 {
				t.Fatalf("usdt-30 day %d: %d, the formula says %d", day, got["usdt-30@"+DayString(DayOf(day0)+int64(day))], r30)
			}
		}
		if d-1 >= 30 {
			spot += 10_000_000_000 + 30*r30
		}
		if d-1 >= 90 {
			spot += 5_000_000_000
		}
		if b := e.balance(t, u, ledger.Spot, "USDT"); b.Available.StringFixed(6) != fixed(spot, 6) {
			t.Fatalf("run of day %d: spot %s, want %s", d, b.Available, fixed(spot, 6))
		}
	}
	views, err := e.svc.MyStakes(ctx, u, LangEN)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range views {
		if v.Status != StakeCompleted || v.RedeemNow != "0.000000" {
			t.Fatalf("after maturity: %+v", v)
		}
	}
	if b := e.balance(t, u, ledger.Earn, "USDT"); !b.Total().IsZero() {
		t.Fatalf("earn after maturity: %s/%s", b.Available, b.Frozen)
	}
	for _, id := range []string{"usdt-30", "usdt-90"} {
		info, err := e.svc.StakingProjectInfo(ctx, u, id, LangEN)
		if err != nil || info.Staked != "0.000000" || info.Mine != "0.000000" {
			t.Fatalf("counters after maturity: %+v %v", info, err)
		}
	}
	e.audit(t)
}

// TestStakingCapsAndEarlyRedemption: the cap per user and the total cap
// hold, also for stakes racing for the last room (the losers are refunded);
// an early redemption returns the principal less the rewards paid; another
// user's stake is unknown to the caller; an ended stake cannot be
// redeemed again.
func TestStakingCapsAndEarlyRedemption(t *testing.T) {
	e := newEnv(t, true)
	e.seedStaking(t)
	p, _ := e.svc.StakingProduct(ctx, "trx-14")
	p.MaxPerUser, p.TotalCap, p.Payout = dec("3000"), dec("5000"), PayDaily
	if err := e.svc.PutStakingProduct(ctx, p); err != nil {
		t.Fatal(err)
	}
	users := []string{"10000001", "10000002", "10000003", "10000004"}
	for _, u := range users {
		e.deposit(t, u, "TRX", "10000")
	}
	stake := func(u, prod, amount string) (OpResult, error) {
		return e.svc.Stake(ctx, u, StakeInput{Product: prod, Amount: amount})
	}
	_, err := stake(users[0], "trx-14", "3500")
	mustCode(t, err, apperr.CodeEarnAboveCap)
	_, err = stake(users[0], "trx-14", "99")
	mustCode(t, err, apperr.CodeEarnBelowMin)
	_, err = stake(users[0], "nope", "1")
	mustCode(t, err, apperr.CodeEarnUnknownProduct)
	_, err = stake("10000009", "trx-14", "100")
	mustCode(t, err, apperr.CodeWalletInsufficient)
	first, err := stake(users[0], "trx-14", "3000")
	if err != nil {
		t.Fatal(err)
	}
	// Three users race for the last 2,000 TRX of the total cap, 1,500 each: one wins.
	var wg sync.WaitGroup
	results := make([]error, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, results[i] = stake(users[i+1], "trx-14", "1500")
		}()
	}
	wg.Wait()
	won := 0
	for i, err := range results {
		switch {
		case err == nil:
			won++
		case codeOf(err) == apperr.CodeEarnAboveCap:
			if b := e.balance(t, users[i+1], ledger.Spot, "TRX"); !b.Available.Equal(dec("10000")) {
				t.Fatalf("refused stake not refunded: %s", b.Available)
			}
		default:
			t.Fatal(err)
		}
	}
	info, _ := e.svc.StakingProjectInfo(ctx, "", "trx-14", LangEN)
	if won != 1 || info.Staked != "4500.000000" || info.Remaining != "500.000000" {
		t.Fatalf("race: %d won, %+v", won, info)
	}
	// Ten days of daily rewards, then the early redemption.
	e.at(11, 9)
	if _, err := e.svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	daily := int64(3_000_000_000) * 9 / 100 / 365 // 3,000 TRX × 9% ÷ 365 in 1e-6
	if b := e.balance(t, users[0], ledger.Spot, "TRX"); b.Available.StringFixed(6) != fixed(7_000_000_000+10*daily, 6) {
		t.Fatalf("rewards: spot %s", b.Available)
	}
	_, err = e.svc.RedeemStake(ctx, users[1], first.ID)
	mustCode(t, err, apperr.CodeEarnStakeUnknown)
	r, err := e.svc.RedeemStake(ctx, users[0], first.ID)
	if err != nil || r.Amount != fixed(3_000_000_000-10*daily, 6) {
		t.Fatalf("early: %+v %v", r, err)
	}
	// The rewards are forfeited: the user has exactly the 10,000 TRX again.
	if b := e.balance(t, users[0], ledger.Spot, "TRX"); !b.Available.Equal(dec("10000")) {
		t.Fatalf("after the early redemption: spot %s", b.Available)
	}
	_, err = e.svc.RedeemStake(ctx, users[0], first.ID)
	mustCode(t, err, apperr.CodeEarnStakeEnded)
	views, _ := e.svc.MyStakes(ctx, users[0], LangEN)
	if len(views) != 1 || views[0].Status != StakeRedeemed {
		t.Fatalf("views: %+v", views)
	}
	info, _ = e.svc.StakingProjectInfo(ctx, users[0], "trx-14", LangEN)
	if info.Staked != "1500.000000" || info.Mine != "0.000000" {
		t.Fatalf("counters: %+v", info)
	}
	rep, err := e.led.Audit(ctx, "TRX")
	if err != nil || !rep.Clean() {
		t.Fatalf("audit: %v %v", rep.Problems, err)
	}
}
