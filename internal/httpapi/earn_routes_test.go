package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/earn"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
)

// The savings routes: the public product list; subscribing, auto-subscribe,
// redeeming and the holdings and records of the signed-in user; refusals
// answer their codes with nothing changed; another user sees nothing of
// the first one's; the next day's run pays the interest the holdings show.
func TestEarnRoutes(t *testing.T) {
	p := newProfEnv(t)
	led := ledger.New(p.st, p.clock.Now)
	funds := spotfunds.Ledger{Led: led, Store: p.st}
	cat, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	svc := earn.New(earn.Options{Store: p.st, Ledger: led, Funds: funds, Coins: cat, Now: p.clock.Now, Log: zerolog.Nop(),
		Prices: fixedPrices{"BTCUSDT": decimal.NewFromInt(50000)}})
	ctx := context.Background()
	for _, pr := range earn.DevSavingsProducts() {
		if err := svc.PutSavingsProduct(ctx, pr); err != nil {
			t.Fatal(err)
		}
	}
	for _, pr := range earn.DevStakingProducts() {
		if err := svc.PutStakingProduct(ctx, pr); err != nil {
			t.Fatal(err)
		}
	}
	mux := http.NewServeMux()
	Mount(mux, p.h.(*Router), NewEarnRouter(svc, Options{Log: zerolog.Nop(), Now: p.clock.Now, Sessions: AuthSessions(p.svc)}))
	p.h = mux
	const inc = "/fe-increment-api"
	const w = "/fe-ex-api/wallet/"

	_, env := p.post(t, inc+"/noToken/savings/projectPage", map[string]any{}, authMode{})
	var page EarnProjectPage
	remarshal(t, env.Data, &page)
	if env.Code != "0" || page.Count != 5 || page.List[0].ID != "usdt" || page.List[0].YearRate != "6.50" || len(page.List[0].Tiers) != 2 {
		t.Fatalf("projects: %+v", env)
	}
	if _, env := p.post(t, w+"get_project_list", map[string]any{}, authMode{}); env.Code != "0" {
		t.Fatalf("get_project_list: %+v", env)
	}
	if _, env := p.post(t, w+"confirm_subscription", map[string]any{"projectId": "usdt", "amount": "10"}, authMode{}); env.Code != apperr.CodeNotSignedIn {
		t.Fatalf("signed out: %+v", env)
	}

	alice := p.signUp(t, "alice@ex.mn", "Passw0rd!x")
	tok := hdr(p.signIn(t, "alice@ex.mn", "Passw0rd!x"))
	p.signUp(t, "bob@ex.mn", "Passw0rd!x")
	bobTok := hdr(p.signIn(t, "bob@ex.mn", "Passw0rd!x"))
	if err := funds.Credit(ctx, spotfunds.Move{Ref: "dep:1", UID: alice, Coin: "USDT", Amount: decimal.NewFromInt(3650),
		Other: ledger.ChainAccount("TEST"), Reason: "deposit"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		body map[string]any
		code string
	}{
		{w + "confirm_subscription", map[string]any{"projectId": "usdt", "amount": "0.5"}, apperr.CodeEarnBelowMin},
		{w + "confirm_subscription", map[string]any{"projectId": "usdt", "amount": "5000"}, apperr.CodeWalletInsufficient},
		{w + "confirm_subscription", map[string]any{"projectId": "usdt", "coinSymbol": "BTC", "amount": "10"}, apperr.CodeEarnCoinMismatch},
		{w + "confirm_subscription", map[string]any{"projectId": "zzz", "amount": "10"}, apperr.CodeEarnUnknownProduct},
		{w + "confirm_subscription", map[string]any{"projectId": "usdt"}, apperr.CodeParam},
		{w + "confirm_auto_sub", map[string]any{"projectId": "usdt", "type": 3}, apperr.CodeParam},
		{w + "savings/release", map[string]any{"projectId": "usdt", "amount": "1"}, apperr.CodeEarnNothingHeld},
		{inc + "/savings/records", map[string]any{"type": "bogus"}, apperr.CodeParam},
	} {
		if _, env := p.post(t, c.path, c.body, tok); env.Code != c.code {
			t.Fatalf("%s %v: want %s, got %+v", c.path, c.body, c.code, env)
		}
	}
	_, env = p.post(t, w+"confirm_subscription", map[string]any{"projectId": "usdt", "coinSymbol": "USDT", "amount": "3650", "requestId": "r1"}, tok)
	if env.Code != "0" {
		t.Fatalf("subscribe: %+v", env)
	}
	if _, env := p.post(t, inc+"/savings/auto", map[string]any{"projectId": "usdt", "coinSymbol": "USDT", "type": 1}, tok); env.Code != "0" {
		t.Fatalf("auto: %+v", env)
	}
	// Bob sees the product, holding nothing; he cannot redeem Alice's.
	var hs []earn.Holding
	_, env = p.post(t, inc+"/savings/holdings", map[string]any{}, bobTok)
	remarshal(t, env.Data, &hs)
	if hs[0].Amount != "0.000000" || hs[0].AutoStatus != 0 {
		t.Fatalf("bob's holdings: %+v", hs[0])
	}
	if _, env := p.post(t, inc+"/savings/release", map[string]any{"projectId": "usdt", "amount": "1"}, bobTok); env.Code != apperr.CodeEarnNothingHeld {
		t.Fatalf("bob redeems: %+v", env)
	}
	// The next day's run pays 3650 × 6.5% / 365 = 0.65.
	p.clock.t = p.clock.t.Add(48 * time.Hour)
	if _, err := svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	_, env = p.post(t, inc+"/savings/holdings", map[string]any{}, tok)
	remarshal(t, env.Data, &hs)
	if hs[0].Amount != "3650.650000" || hs[0].TotalInterest != "0.650000" || hs[0].AutoStatus != 1 {
		t.Fatalf("alice's holdings: %+v", hs[0])
	}
	_, env = p.post(t, w+"savings/release", map[string]any{"projectId": "usdt", "amount": "1000", "type": "standard"}, tok)
	var r earn.OpResult
	remarshal(t, env.Data, &r)
	if env.Code != "0" || r.Kind != "standard" || r.ArriveDate == "" {
		t.Fatalf("standard redemption: %+v", env)
	}
	var recs earn.RecordPage
	_, env = p.post(t, inc+"/savings/records", map[string]any{"pageSize": 10}, tok)
	remarshal(t, env.Data, &recs)
	if recs.Count != 3 || recs.List[0].Type != earn.LogRedeemStandard || recs.List[1].Type != earn.LogInterest || recs.List[2].Type != earn.LogSubscribe {
		t.Fatalf("records: %+v", recs)
	}
	_, env = p.post(t, inc+"/savings/records", map[string]any{}, bobTok)
	remarshal(t, env.Data, &recs)
	if recs.Count != 0 {
		t.Fatalf("bob's records: %+v", recs)
	}

	// Staking: the list, a stake from the redeemed savings, its position,
	// the product with what the caller holds, an early redemption; Bob
	// cannot end Alice's stake.
	var projects []earn.StakingProject
	_, env = p.post(t, inc+"/noToken/increment/project_list", map[string]any{}, authMode{})
	remarshal(t, env.Data, &projects)
	if len(projects) != 4 || projects[0].ID != "usdt-30" || projects[0].TermDays != 30 || projects[0].Payout != earn.PayMaturity {
		t.Fatalf("staking list: %+v", env)
	}
	if err := funds.Credit(ctx, spotfunds.Move{Ref: "dep:2", UID: alice, Coin: "USDT", Amount: decimal.NewFromInt(200),
		Other: ledger.ChainAccount("TEST"), Reason: "deposit"}); err != nil {
		t.Fatal(err)
	}
	if _, env := p.post(t, inc+"/staking_create_order", map[string]any{"projectId": "usdt-30", "amount": "5"}, tok); env.Code != apperr.CodeEarnBelowMin {
		t.Fatalf("below minimum: %+v", env)
	}
	_, env = p.post(t, inc+"/staking_create_order", map[string]any{"projectId": "usdt-30", "amount": "100", "requestId": "k1"}, tok)
	if env.Code != "0" {
		t.Fatalf("stake: %+v", env)
	}
	var stakes []earn.StakeView
	_, env = p.post(t, inc+"/increment/my_pos", map[string]any{}, tok)
	remarshal(t, env.Data, &stakes)
	if len(stakes) != 1 || stakes[0].Status != earn.StakePending || stakes[0].Amount != "100.000000" || stakes[0].RewardsExpected != "0.657510" {
		t.Fatalf("my_pos: %+v", env)
	}
	var info earn.StakingProject
	_, env = p.post(t, inc+"/get_project_info", map[string]any{"projectId": "usdt-30"}, tok)
	remarshal(t, env.Data, &info)
	if info.Mine != "100.000000" || info.Staked != "100.000000" {
		t.Fatalf("project info: %+v", env)
	}
	if _, env := p.post(t, inc+"/increment/redeem", map[string]any{"id": stakes[0].ID}, bobTok); env.Code != apperr.CodeEarnStakeUnknown {
		t.Fatalf("bob ends alice's stake: %+v", env)
	}
	if _, env := p.post(t, inc+"/increment/redeem", map[string]any{"id": stakes[0].ID}, tok); env.Code != "0" {
		t.Fatalf("early redemption: %+v", env)
	}
	_, env = p.post(t, inc+"/increment/my_pos", map[string]any{}, tok)
	remarshal(t, env.Data, &stakes)
	if stakes[0].Status != earn.StakeRedeemed {
		t.Fatalf("after redemption: %+v", stakes[0])
	}

	// Launchpad: a sale opening in an hour; a commitment before it is
	// refused; within it, held; the detail shows the caller's report.
	now := p.clock.Now()
	if err := svc.PutLaunchProject(ctx, earn.LaunchProject{ID: "ton", Token: "TON", CommitCoin: "USDT", Price: decimal.RequireFromString("2"),
		TokensOffered: decimal.NewFromInt(100), MinCommit: decimal.NewFromInt(1), SubscribeStart: now.Add(time.Hour).UnixMilli(),
		SubscribeEnd: now.Add(2 * time.Hour).UnixMilli(), DistributeAt: now.Add(3 * time.Hour).UnixMilli()}); err != nil {
		t.Fatal(err)
	}
	const ex = "/fe-ex-api"
	var sales []earn.LaunchView
	_, env = p.post(t, ex+"/newcoinV2/newcoin_project_listV2", map[string]any{}, authMode{})
	remarshal(t, env.Data, &sales)
	if len(sales) != 1 || sales[0].Phase != earn.PhaseUpcoming {
		t.Fatalf("sales: %+v", env)
	}
	if _, env := p.post(t, ex+"/api/newcoin_purchase", map[string]any{"projectId": "ton", "amount": "10"}, tok); env.Code != apperr.CodeLaunchNotOpen {
		t.Fatalf("early commitment: %+v", env)
	}
	p.clock.t = p.clock.t.Add(90 * time.Minute)
	if _, env := p.post(t, ex+"/api/newcoin_purchase", map[string]any{"projectId": "ton", "amount": "10"}, tok); env.Code != "0" {
		t.Fatalf("commitment: %+v", env)
	}
	var sale earn.LaunchView
	_, env = p.post(t, ex+"/newcoinV2/newcoin_project_detailV2", map[string]any{"projectId": "ton"}, tok)
	remarshal(t, env.Data, &sale)
	if sale.Phase != earn.PhaseSubscription || sale.Mine == nil || sale.Mine.Committed != "10.000000" || sale.Mine.Cap != "5.000000" {
		t.Fatalf("detail: %+v", env)
	}
	_, env = p.post(t, ex+"/newcoinV2/newcoin_project_detailV2", map[string]any{"projectId": "ton"}, authMode{})
	var public earn.LaunchView
	remarshal(t, env.Data, &public)
	if public.Mine != nil || public.TotalCommitted != "10.000000" {
		t.Fatalf("signed out detail: %+v", public)
	}
	if _, env := p.post(t, ex+"/common/launchpad_footer", map[string]any{}, authMode{}); env.Code != "0" {
		t.Fatalf("footer: %+v", env)
	}

	// Crypto loans: the settings and a quote are public; borrowing needs
	// the collateral within the initial LTV; the loan is listed, topped
	// up, repaid in full (the collateral back), and its records listed.
	var cfg earn.LoanConfig
	_, env = p.post(t, inc+"/noToken/borrow/get_base_config", map[string]any{}, authMode{})
	remarshal(t, env.Data, &cfg)
	if !cfg.InitialLTV.Equal(decimal.RequireFromString("0.65")) || len(cfg.Collaterals) == 0 {
		t.Fatalf("base config: %+v", env)
	}
	var q earn.LoanQuote
	_, env = p.post(t, inc+"/calculate_inerest_mortgage", map[string]any{"coin": "USDT", "amount": "6500", "collateralCoin": "BTC", "term": 7}, authMode{})
	remarshal(t, env.Data, &q)
	if q.RequiredCollateral != "0.20000000" || q.Interest != "13.104000" {
		t.Fatalf("quote: %+v", env)
	}
	if err := funds.Credit(ctx, spotfunds.Move{Ref: "dep:3", UID: alice, Coin: "BTC", Amount: decimal.NewFromInt(1),
		Other: ledger.ChainAccount("TEST"), Reason: "deposit"}); err != nil {
		t.Fatal(err)
	}
	borrow := map[string]any{"coin": "USDT", "amount": "6500", "collateralCoin": "BTC", "collateralAmount": "0.19", "term": 7}
	if _, env := p.post(t, inc+"/borrow/mortgage_borrow", borrow, tok); env.Code != apperr.CodeLoanLTV {
		t.Fatalf("under-collateralised: %+v", env)
	}
	borrow["collateralAmount"] = "0.2"
	var ln earn.LoanView
	_, env = p.post(t, inc+"/borrow/mortgage_borrow", borrow, tok)
	remarshal(t, env.Data, &ln)
	if env.Code != "0" || ln.LTV != "65.00" {
		t.Fatalf("borrow: %+v", env)
	}
	if _, env := p.post(t, inc+"/borrow/repay", map[string]any{"id": ln.ID, "amount": "1"}, bobTok); env.Code != apperr.CodeLoanUnknown {
		t.Fatalf("bob repays alice's loan: %+v", env)
	}
	if _, env := p.post(t, inc+"/borrow/adjust_collateral", map[string]any{"id": ln.ID, "amount": "0.1", "type": 1}, tok); env.Code != "0" {
		t.Fatalf("top up: %+v", env)
	}
	_, env = p.post(t, inc+"/borrow/repay", map[string]any{"id": ln.ID, "amount": "7000"}, tok)
	remarshal(t, env.Data, &ln)
	if env.Code != "0" || ln.Status != earn.LoanRepaid || ln.RepaidPrincipal != "6500.000000" {
		t.Fatalf("repaid: %+v", env)
	}
	var loans []earn.LoanView
	_, env = p.post(t, inc+"/borrow/get_borrow_order_list", map[string]any{}, tok)
	remarshal(t, env.Data, &loans)
	if len(loans) != 1 || loans[0].Status != earn.LoanRepaid {
		t.Fatalf("loans: %+v", env)
	}
	for path, n := range map[string]int{"/borrow/get_return_record_list": 1, "/borrow/get_change_rate_record_list": 1, "/borrow/get_close_position_record_list": 0} {
		var page earn.RecordPage
		_, env = p.post(t, inc+path, map[string]any{}, tok)
		remarshal(t, env.Data, &page)
		if page.Count != n {
			t.Fatalf("%s: %+v", path, env)
		}
	}
}

// fixedPrices are index prices that do not move.
type fixedPrices map[string]decimal.Decimal

func (f fixedPrices) PairPrice(_ context.Context, base, quote string) (decimal.Decimal, bool, error) {
	p, ok := f[base+quote]
	return p, ok, nil
}

func remarshal(t *testing.T, from, to any) {
	t.Helper()
	b, err := json.Marshal(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, to); err != nil {
		t.Fatal(err)
	}
}
