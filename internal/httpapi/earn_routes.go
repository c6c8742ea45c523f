package httpapi

import (
	"fmt"
	"slices"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/earn"
)

// Earn: flexible savings (spec §7: the increment service, base
// /fe-increment-api, and the wallet's named operations get_project_list,
// confirm_subscription, confirm_auto_sub and savings/release; §4: confirm
// the subscription first, then set auto-subscribe; §9: interest periods
// daily, weekly, monthly, yearly).

// EarnProductReq names a product and its coin.
type EarnProductReq struct {
	ProjectID  FlexString `json:"projectId" v:"required" doc:"the product's id (get_project_list)"`
	CoinSymbol string     `json:"coinSymbol" doc:"the product's coin; when given it must be the product's"`
}

// EarnSubscribeReq is confirm_subscription / savings/apply.
type EarnSubscribeReq struct {
	EarnProductReq
	Amount    FlexString `json:"amount" v:"required" doc:"digits with at most one decimal point, above 0, at most the coin's decimals"`
	RequestID string     `json:"requestId" doc:"optional idempotency key: a retry with the same id subscribes once"`
}

// EarnAutoReq is confirm_auto_sub / savings/auto.
type EarnAutoReq struct {
	EarnProductReq
	Type FlexInt `json:"type" v:"required" doc:"1 on, 0 off"`
}

// Validate checks the type.
func (r *EarnAutoReq) Validate() error {
	if r.Type.V != 0 && r.Type.V != 1 {
		return apperr.Param("type: 1 (on) or 0 (off)")
	}
	return nil
}

// EarnRedeemReq is savings/release.
type EarnRedeemReq struct {
	EarnProductReq
	Amount    FlexString `json:"amount" v:"required" doc:"digits with at most one decimal point, above 0, at most what can be redeemed"`
	Type      string     `json:"type" doc:"fast (default): into spot now, today's interest on the amount lost; standard: with the next UTC day's settlement, interest included"`
	RequestID string     `json:"requestId" doc:"optional idempotency key: a retry with the same id redeems once"`
}

// EarnRecordsReq pages the finance records.
type EarnRecordsReq struct {
	Type       string  `json:"type" doc:"subscribe, redeem_fast, redeem_standard, interest or payout; empty for all"`
	CoinSymbol string  `json:"coinSymbol" doc:"empty for all"`
	Cursor     string  `json:"cursor" doc:"next of the previous page; empty for the first"`
	PageSize   FlexInt `json:"pageSize" doc:"1-100, default 20"`
}

// Validate checks the filter and page size.
func (r *EarnRecordsReq) Validate() error {
	if r.Type != "" && !slices.Contains(earn.RecordTypes, r.Type) {
		return apperr.Param("type: one of " + strings.Join(earn.RecordTypes, ", "))
	}
	if r.PageSize.Set && (r.PageSize.V < 1 || r.PageSize.V > earn.MaxPageSize) {
		return apperr.Param(fmt.Sprintf("pageSize: 1 to %d", earn.MaxPageSize))
	}
	return nil
}

// StakingProjectReq names a staking product.
type StakingProjectReq struct {
	ProjectID FlexString `json:"projectId" v:"required" doc:"the staking product's id (project_list)"`
}

// StakingCreateReq is staking_create_order.
type StakingCreateReq struct {
	StakingProjectReq
	Amount    FlexString `json:"amount" v:"required" doc:"digits with at most one decimal point, above 0, at most the coin's decimals"`
	RequestID string     `json:"requestId" doc:"optional idempotency key: a retry with the same id stakes once"`
}

// StakingRedeemReq ends a stake early.
type StakingRedeemReq struct {
	ID FlexString `json:"id" v:"required" doc:"the stake's id (my_pos)"`
}

// LaunchProjectReq names a launchpad sale.
type LaunchProjectReq struct {
	ProjectID FlexString `json:"projectId" v:"required" doc:"the sale's id (newcoin_project_listV2)"`
}

// LaunchPurchaseReq is newcoin_purchase.
type LaunchPurchaseReq struct {
	LaunchProjectReq
	Amount    FlexString `json:"amount" v:"required" doc:"the commitment, in the sale's commitment coin"`
	RequestID string     `json:"requestId" doc:"optional idempotency key: a retry with the same id commits once"`
}

// LoanQuoteReq is calculate_inerest_mortgage.
type LoanQuoteReq struct {
	Coin           string     `json:"coin" v:"required" doc:"the coin to borrow"`
	Amount         FlexString `json:"amount" v:"required"`
	CollateralCoin string     `json:"collateralCoin" v:"required"`
	Term           FlexInt    `json:"term" v:"required" doc:"7, 14, 30 or 90 days"`
}

// LoanBorrowReq is mortgage_borrow.
type LoanBorrowReq struct {
	LoanQuoteReq
	CollateralAmount FlexString `json:"collateralAmount" v:"required"`
	RequestID        string     `json:"requestId" doc:"optional idempotency key: a retry with the same id borrows once"`
}

// LoanIDReq names a loan.
type LoanIDReq struct {
	ID FlexString `json:"id" v:"required" doc:"the loan's id (get_borrow_order_list)"`
}

// LoanRepayReq repays a loan.
type LoanRepayReq struct {
	LoanIDReq
	Amount    FlexString `json:"amount" v:"required" doc:"in the loan coin; interest first, then principal; above the debt pays the debt"`
	RequestID string     `json:"requestId" doc:"optional idempotency key"`
}

// LoanCollateralReq adds or takes back collateral.
type LoanCollateralReq struct {
	LoanIDReq
	Amount    FlexString `json:"amount" v:"required"`
	Type      FlexInt    `json:"type" v:"required" doc:"1 add from spot, 2 take back to spot (within the initial LTV)"`
	RequestID string     `json:"requestId" doc:"optional idempotency key"`
}

// Validate checks the type.
func (r *LoanCollateralReq) Validate() error {
	if r.Type.V != 1 && r.Type.V != 2 {
		return apperr.Param("type: 1 (add) or 2 (take back)")
	}
	return nil
}

// EarnProjectPage is projectPage's answer.
type EarnProjectPage struct {
	List  []earn.Project `json:"list"`
	Count int            `json:"count"`
}

// NewEarnRouter serves the savings routes.
func NewEarnRouter(svc *earn.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "earn"
	}
	r := NewRouter(opts)
	pub := func(s string) RouteOpts { return RouteOpts{Summary: s, Tag: "earn"} }
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private, Tag: "earn"} }
	const inc = "/fe-increment-api"
	w := func(op string) string { return "/fe-ex-api/wallet/" + op }
	uid := func(c *Call) string { return c.Principal.UserID }

	projects := func(c *Call, _ *Empty) (EarnProjectPage, error) {
		l, err := svc.Projects(c.Ctx, c.Lang)
		return EarnProjectPage{List: l, Count: len(l)}, err
	}
	walletHandle(r, []string{inc + "/noToken/savings/projectPage"}, pub("Flexible savings products: coin, rate per period and per year, tiers, minimum, cap per user, open"), projects)
	walletHandle(r, []string{w("get_project_list")}, pub("Savings projects (spec §3: id, showName, coinSymbol, logo; with their rates)"),
		func(c *Call, _ *Empty) ([]earn.Project, error) { return svc.Projects(c.Ctx, c.Lang) })
	walletHandle(r, []string{w("confirm_subscription"), inc + "/savings/apply"},
		priv("Subscribe an amount from the spot account to a savings product; it earns from the next UTC day"),
		func(c *Call, req *EarnSubscribeReq) (earn.OpResult, error) {
			return svc.Subscribe(c.Ctx, uid(c), earn.SubscribeInput{Product: req.ProjectID.String(), Coin: req.CoinSymbol,
				Amount: req.Amount.String(), RequestID: req.RequestID})
		})
	walletHandle(r, []string{w("confirm_auto_sub"), inc + "/savings/auto"},
		priv("Auto-subscribe on (type 1) or off (0): after each day's settlement the available spot balance of the coin is subscribed"),
		func(c *Call, req *EarnAutoReq) (*Empty, error) {
			return nil, svc.SetAuto(c.Ctx, uid(c), req.ProjectID.String(), req.CoinSymbol, req.Type.V == 1)
		})
	walletHandle(r, []string{w("savings/release"), inc + "/savings/release"},
		priv("Redeem from a savings product: fast into spot now (today's interest on it lost), or standard with the next day's settlement"),
		func(c *Call, req *EarnRedeemReq) (earn.OpResult, error) {
			return svc.Redeem(c.Ctx, uid(c), earn.RedeemInput{Product: req.ProjectID.String(), Coin: req.CoinSymbol,
				Amount: req.Amount.String(), Type: req.Type, RequestID: req.RequestID})
		})
	walletHandle(r, []string{inc + "/savings/holdings"},
		priv("The caller's savings in every product: held, earning, pending, redeemable, redeeming, interest in all and yesterday, auto-subscribe"),
		func(c *Call, _ *Empty) ([]earn.Holding, error) { return svc.Holdings(c.Ctx, uid(c), c.Lang) })
	walletHandle(r, []string{inc + "/savings/records", inc + "/increment/records"},
		priv("The caller's finance and staking records, newest first: subscriptions, redemptions, interest, payouts, stakes, rewards, releases"),
		func(c *Call, req *EarnRecordsReq) (earn.RecordPage, error) {
			return svc.Records(c.Ctx, uid(c), req.Type, req.CoinSymbol, req.Cursor, int(req.PageSize.V))
		})

	// Staking.
	Handle(r, inc+"/noToken/increment/project_list", pub("Staking products: coin, term, yearly rate, payout (daily or at maturity), minimum, caps, staked and remaining"),
		func(c *Call, _ *Empty) ([]earn.StakingProject, error) { return svc.StakingProjects(c.Ctx, c.Lang) })
	Handle(r, inc+"/noToken/increment/project_info", pub("One staking product; with a session also what the caller has staked in it (mine)"),
		func(c *Call, req *StakingProjectReq) (earn.StakingProject, error) {
			return svc.StakingProjectInfo(c.Ctx, uid(c), req.ProjectID.String(), c.Lang)
		})
	Handle(r, inc+"/get_project_info", priv("One staking product with what the caller has staked in it (mine)"),
		func(c *Call, req *StakingProjectReq) (earn.StakingProject, error) {
			return svc.StakingProjectInfo(c.Ctx, uid(c), req.ProjectID.String(), c.Lang)
		})
	Handle(r, inc+"/staking_create_order", priv("Stake an amount from the spot account: locked for the term, rewards from the next UTC day"),
		func(c *Call, req *StakingCreateReq) (earn.OpResult, error) {
			return svc.Stake(c.Ctx, uid(c), earn.StakeInput{Product: req.ProjectID.String(), Amount: req.Amount.String(), RequestID: req.RequestID})
		})
	Handle(r, inc+"/increment/my_pos", priv("The caller's stakes, newest first: amount, rate, term, dates, status, rewards paid, kept and expected, what redeeming now returns"),
		func(c *Call, _ *Empty) ([]earn.StakeView, error) { return svc.MyStakes(c.Ctx, uid(c), c.Lang) })
	Handle(r, inc+"/increment/redeem", priv("End a stake before its term: the principal less the rewards already paid returns to spot; the other rewards are forfeited"),
		func(c *Call, req *StakingRedeemReq) (earn.OpResult, error) {
			return svc.RedeemStake(c.Ctx, uid(c), req.ID.String())
		})

	// Crypto loans (crypto cash).
	loanPub := func(s string) RouteOpts { return RouteOpts{Summary: s, Tag: "loans"} }
	loanPriv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private, Tag: "loans"} }
	Handle(r, inc+"/noToken/borrow/get_base_config", loanPub("Loan settings: coins to borrow with hourly rates per term (7, 14, 30, 90 days), collateral coins, initial, margin-call and liquidation LTVs, grace hours and rate multiple, liquidation fee"),
		func(c *Call, _ *Empty) (earn.LoanConfig, error) { return svc.LoanSettings(c.Ctx) })
	for _, path := range []string{inc + "/getMortgageSymbolList", inc + "/noToken/borrow/getMortgageSymbolList"} {
		Handle(r, path, loanPub("Collateral coins with their index prices in each loan coin"),
			func(c *Call, _ *Empty) ([]earn.CollateralPrice, error) { return svc.Collaterals(c.Ctx) })
	}
	for _, path := range []string{inc + "/calculate_inerest_mortgage", inc + "/noToken/borrow/calculate_inerest_mortgage"} {
		Handle(r, path, loanPub("A loan worked out before it is taken: the term's interest, the collateral needed at the initial LTV, the liquidation price"),
			func(c *Call, req *LoanQuoteReq) (earn.LoanQuote, error) {
				return svc.Quote(c.Ctx, req.Coin, req.Amount.String(), req.CollateralCoin, int(req.Term.V))
			})
	}
	Handle(r, inc+"/borrow/mortgage_borrow", loanPriv("Borrow against collateral from spot, within the initial LTV: the loan arrives in spot"),
		func(c *Call, req *LoanBorrowReq) (earn.LoanView, error) {
			return svc.Borrow(c.Ctx, uid(c), earn.BorrowInput{Coin: req.Coin, Amount: req.Amount.String(), Collateral: req.CollateralCoin,
				CollateralAmount: req.CollateralAmount.String(), Term: int(req.Term.V), RequestID: req.RequestID})
		})
	Handle(r, inc+"/borrow/get_borrow_order_list", loanPriv("The caller's loans, newest first: debt, interest, collateral, LTV, liquidation price, status"),
		func(c *Call, _ *Empty) ([]earn.LoanView, error) { return svc.Loans(c.Ctx, uid(c)) })
	Handle(r, inc+"/borrow/repay", loanPriv("Repay a loan from spot, interest first; in full, the collateral returns to spot"),
		func(c *Call, req *LoanRepayReq) (earn.LoanView, error) {
			return svc.Repay(c.Ctx, uid(c), req.ID.String(), req.Amount.String(), req.RequestID)
		})
	Handle(r, inc+"/borrow/adjust_collateral", loanPriv("Add collateral from spot (type 1) or take some back to spot within the initial LTV (type 2)"),
		func(c *Call, req *LoanCollateralReq) (earn.LoanView, error) {
			return svc.AdjustCollateral(c.Ctx, uid(c), req.ID.String(), req.Amount.String(), req.Type.V == 1, req.RequestID)
		})
	for _, rec := range []struct{ path, typ, what string }{
		{"/borrow/get_return_record_list", earn.LogLoanRepay, "repayments"},
		{"/borrow/get_change_rate_record_list", earn.LogLoanCollateral, "collateral changes (negative: taken back)"},
		{"/borrow/get_close_position_record_list", earn.LogLoanLiquidation, "liquidations (collateral sold)"},
	} {
		Handle(r, inc+rec.path, loanPriv("The caller's loan "+rec.what+", newest first"),
			func(c *Call, req *EarnRecordsReq) (earn.RecordPage, error) {
				return svc.Records(c.Ctx, uid(c), rec.typ, req.CoinSymbol, req.Cursor, int(req.PageSize.V))
			})
	}

	// Launchpad (base /fe-ex-api).
	const ex = "/fe-ex-api"
	lp := func(s string) RouteOpts { return RouteOpts{Summary: s, Tag: "launchpad"} }
	Handle(r, ex+"/newcoinV2/newcoin_project_listV2", lp("Launchpad sales: token, price, tokens offered, cap per user, phase times and phase, committed so far"),
		func(c *Call, _ *Empty) ([]earn.LaunchView, error) { return svc.LaunchList(c.Ctx, c.Lang) })
	Handle(r, ex+"/newcoinV2/newcoin_project_detailV2", lp("One sale; signed in, also the caller's commitment and how the allocation was worked out (mine)"),
		func(c *Call, req *LaunchProjectReq) (earn.LaunchView, error) {
			return svc.LaunchDetail(c.Ctx, uid(c), req.ProjectID.String(), c.Lang)
		})
	Handle(r, ex+"/common/launchpad_footer", lp("The launchpad in figures: sales, commitments made, sales ended"),
		func(c *Call, _ *Empty) (earn.LaunchFooter, error) { return svc.Footer(c.Ctx) })
	Handle(r, ex+"/api/newcoin_purchase", RouteOpts{Summary: "Commit an amount of the sale's commitment coin from spot during its subscription phase (held until the distribution)", Auth: Private, Tag: "launchpad"},
		func(c *Call, req *LaunchPurchaseReq) (earn.OpResult, error) {
			return svc.Commit(c.Ctx, uid(c), earn.CommitInput{Project: req.ProjectID.String(), Amount: req.Amount.String(), RequestID: req.RequestID})
		})
	return r
}

// DevEarnAdvanceReq is /dev/earn/advance.
type DevEarnAdvanceReq struct {
	Days FlexInt `json:"days" v:"required" doc:"1-30: how many days the earn service's clock moves forward"`
}

// Validate checks the days.
func (r *DevEarnAdvanceReq) Validate() error {
	if r.Days.V < 1 || r.Days.V > 30 {
		return apperr.Param("days: 1 to 30")
	}
	return nil
}

// DevEarnAdvance is what the advanced run did.
type DevEarnAdvance struct {
	Now string `json:"now" doc:"the earn service's clock now (RFC 3339)"`
	earn.RunReport
}

// NewDevEarnRouter serves the development tools of earn: the earn
// service's clock moves forward some days (the rest of the exchange
// keeps the real time) and the daily run runs, so interest can be seen
// without waiting.
func NewDevEarnRouter(advance func(days int) (DevEarnAdvance, error), opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "dev-earn"
	}
	r := NewRouter(opts)
	Handle(r, "/dev/earn/advance", RouteOpts{Summary: "Earn: the earn service's clock moves forward some days and the daily settlement runs (--dev only)", Auth: Public, Tag: "dev"},
		func(c *Call, req *DevEarnAdvanceReq) (DevEarnAdvance, error) { return advance(int(req.Days.V)) })
	return r
}
