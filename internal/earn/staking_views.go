package earn

import (
	"context"
	"errors"
	"sort"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// StakingProject is a staking product as lists show it.
type StakingProject struct {
	ID         string `json:"id"`
	ShowName   string `json:"showName"`
	CoinSymbol string `json:"coinSymbol"`
	Logo       string `json:"logo"`
	TermDays   int    `json:"termDays"`
	APR        string `json:"apr" doc:"yearly rate, percent"`
	Payout     string `json:"payout" doc:"daily: rewards into spot every day; maturity: all at the end"`
	MinAmount  string `json:"minAmount"`
	MaxPerUser string `json:"maxPerUser" doc:"empty: no cap"`
	TotalCap   string `json:"totalCap" doc:"empty: no cap"`
	Staked     string `json:"staked" doc:"staked by everyone now"`
	Remaining  string `json:"remaining" doc:"what the total cap still takes; empty without a cap"`
	Precision  int32  `json:"precision"`
	Open       bool   `json:"open"`
	// Mine is what the caller holds staked in the product (project_info,
	// signed in).
	Mine string `json:"mine,omitempty"`
}

func (s *Service) stakingProject(ctx context.Context, p StakingProduct, lang string) (StakingProject, bool, error) {
	pr, err := s.stakingOf(p)
	if err != nil {
		return StakingProject{}, false, nil
	}
	tot, err := s.st.Get(ctx, stakeTotalKey(p.ID))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return StakingProject{}, false, err
	}
	staked := tot.Int("units")
	out := StakingProject{ID: p.ID, ShowName: p.Name(lang), CoinSymbol: p.Coin, Logo: pr.icon, TermDays: p.TermDays,
		APR: p.APR.StringFixed(2), Payout: p.Payout, MinAmount: fixed(pr.least, pr.prec), Staked: fixed(staked, pr.prec),
		Precision: pr.prec, Open: p.Open}
	if pr.perUser > 0 {
		out.MaxPerUser = fixed(pr.perUser, pr.prec)
	}
	if pr.total > 0 {
		out.TotalCap = fixed(pr.total, pr.prec)
		out.Remaining = fixed(max(pr.total-staked, 0), pr.prec)
	}
	return out, true, nil
}

// StakingProjects lists the staking products (project_list).
func (s *Service) StakingProjects(ctx context.Context, lang string) ([]StakingProject, error) {
	all, err := s.StakingProducts(ctx)
	if err != nil {
		return nil, internal(err)
	}
	out := make([]StakingProject, 0, len(all))
	for _, p := range all {
		sp, ok, err := s.stakingProject(ctx, p, lang)
		if err != nil {
			return nil, internal(err)
		}
		if ok {
			out = append(out, sp)
		}
	}
	return out, nil
}

// StakingProjectInfo is one staking product (project_info), with what the
// caller has staked in it when signed in.
func (s *Service) StakingProjectInfo(ctx context.Context, uid, id, lang string) (StakingProject, error) {
	p, err := s.StakingProduct(ctx, strings.TrimSpace(id))
	if errors.Is(err, ErrUnknownProduct) {
		return StakingProject{}, apperr.New(apperr.CodeEarnUnknownProduct, strings.TrimSpace(id))
	}
	if err != nil {
		return StakingProject{}, internal(err)
	}
	sp, ok, err := s.stakingProject(ctx, p, lang)
	if err != nil {
		return StakingProject{}, internal(err)
	}
	if !ok {
		return StakingProject{}, apperr.New(apperr.CodeEarnUnknownProduct, p.ID)
	}
	if uid != "" {
		it, err := s.st.Get(ctx, stakeSumKey(uid, p.ID))
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return StakingProject{}, internal(err)
		}
		sp.Mine = fixed(it.Int("units"), sp.Precision)
	}
	return sp, nil
}

// StakeView is one of the caller's stakes (my_pos).
type StakeView struct {
	ID         string `json:"id"`
	ProjectID  string `json:"projectId"`
	ShowName   string `json:"showName"`
	CoinSymbol string `json:"coinSymbol"`
	Amount     string `json:"amount"`
	APR        string `json:"apr"`
	TermDays   int64  `json:"termDays"`
	Payout     string `json:"payout"`
	StartDate  string `json:"startDate" doc:"UTC date of the first day that earns (the day after staking)"`
	EndDate    string `json:"endDate" doc:"UTC date of the last day that earns; the principal returns after it"`
	// Status: pending (its first day: rewards start tomorrow), locked,
	// completed (matured, paid out) or redeemed (ended early).
	Status          string `json:"status" doc:"pending, locked, completed or redeemed"`
	RewardsPaid     string `json:"rewardsPaid" doc:"paid into spot so far"`
	RewardsAccrued  string `json:"rewardsAccrued" doc:"kept for maturity"`
	RewardsExpected string `json:"rewardsExpected" doc:"all the term's rewards"`
	RedeemNow       string `json:"redeemNow" doc:"what an early redemption returns now: the principal less the rewards paid"`
	Ctime           int64  `json:"ctime"`
}

// MyStakes lists the caller's stakes, newest first.
func (s *Service) MyStakes(ctx context.Context, uid, lang string) ([]StakeView, error) {
	if uid == "" {
		return nil, apperr.New(apperr.CodeNotSignedIn)
	}
	products := map[string]stakingProduct{}
	out := []StakeView{}
	today := DayOf(s.now())
	err := store.EachLive(ctx, s.st, store.Query{PK: earnPK(uid), SK: store.SKCond{Kind: store.SKPrefix, A: "STK#"}}, s.now(), func(it store.Item) {
		k := stakeOf(it)
		pr, ok := products[k.prod]
		if !ok {
			p, err := s.StakingProduct(ctx, k.prod)
			if err != nil {
				return
			}
			if pr, err = s.stakingOf(p); err != nil {
				return
			}
			products[k.prod] = pr
		}
		// Days not settled yet are shown as their settlement will be.
		v := *k
		for v.status == StakeLocked && v.paid < min(today-1, v.matureDay()) {
			r, _ := DailyInterest(v.amount, pr.tiers)
			v.paid++
			if v.payout == PayDaily {
				v.paidOut += r
			} else {
				v.accrued += r
			}
		}
		day, _ := DailyInterest(v.amount, pr.tiers)
		status := v.status
		if status == StakeLocked && today == v.day {
			status = StakePending
		}
		sv := StakeView{ID: v.id, ProjectID: v.prod, ShowName: pr.Name(lang), CoinSymbol: v.coin, Amount: fixed(v.amount, pr.prec),
			APR: pr.APR.StringFixed(2), TermDays: v.term, Payout: v.payout, StartDate: DayString(v.day + 1), EndDate: DayString(v.matureDay()),
			Status: status, RewardsPaid: fixed(v.paidOut, pr.prec), RewardsAccrued: fixed(v.accrued, pr.prec),
			RewardsExpected: fixed(day*v.term, pr.prec), RedeemNow: fixed(0, pr.prec), Ctime: v.ctime}
		if status == StakeLocked || status == StakePending {
			sv.RedeemNow = fixed(v.amount-v.paidOut, pr.prec)
		}
		out = append(out, sv)
	})
	if err != nil {
		return nil, internal(err)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Ctime > out[j].Ctime })
	return out, nil
}
