package earn

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/launchpad"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// The launchpad: a project sells TokensOffered of its token at Price (in
// the commitment coin) to the users who commit the commitment coin
// during its subscription phase. Commitments are held in the users' earn
// accounts (frozen). At DistributeAt each user gets commitment ÷ total ×
// offered tokens, at most what the commitment pays for and at most the cap
// per user, the excess shared again pro rata (internal/launchpad.Allocate,
// exact, rounding down); the tokens' cost (rounded up) goes to the
// project, the rest of the commitment back to spot, the tokens into spot.
// The tokens come from the project's account (a treasury account
// "launchpad-<id>", external: the project brought them), and what is not
// allocated stays there.

// Launchpad phases.
const (
	PhaseUpcoming     = "upcoming"
	PhaseSubscription = "subscription"
	PhaseCalculation  = "calculation"
	PhaseDistribution = "distribution"
	PhaseEnded        = "ended"
)

// LaunchProject is a launchpad sale, as the operator defines it.
type LaunchProject struct {
	ID           string            `json:"id"`
	Names        map[string]string `json:"names"`
	Descriptions map[string]string `json:"descriptions"`
	// Token is the coin sold; CommitCoin the coin users commit.
	Token      string `json:"token"`
	CommitCoin string `json:"commitCoin"`
	// Price is one token's price in CommitCoin.
	Price         decimal.Decimal `json:"price"`
	TokensOffered decimal.Decimal `json:"tokensOffered"`
	// MaxPerUser is the most tokens one user may get (0: no cap).
	MaxPerUser decimal.Decimal `json:"maxPerUser"`
	// MinCommit is the least one commitment may be.
	MinCommit decimal.Decimal `json:"minCommit"`
	// Times (Unix ms): the subscription phase is [SubscribeStart,
	// SubscribeEnd); the calculation runs until DistributeAt.
	SubscribeStart int64 `json:"subscribeStart"`
	SubscribeEnd   int64 `json:"subscribeEnd"`
	DistributeAt   int64 `json:"distributeAt"`
	Sort           int   `json:"sort"`
}

const launchPrefix = "LP#"

// Name and Description in a language (English otherwise).
func (p LaunchProject) Name(lang string) string { return pick(p.Names, lang, p.Token) }

// Description is the project's text in a language (English otherwise).
func (p LaunchProject) Description(lang string) string { return pick(p.Descriptions, lang, "") }

func pick(m map[string]string, lang, def string) string {
	if v := m[lang]; v != "" {
		return v
	}
	if v := m[LangEN]; v != "" {
		return v
	}
	return def
}

// launchAccount is the project's account: its tokens before the sale, the
// proceeds after.
func launchAccount(id string) ledger.Account { return ledger.TreasuryAccount("launchpad-" + id) }

// Phase is the project's phase at now (ended once distributed).
func (p LaunchProject) phase(now time.Time, distributed bool) string {
	ms := now.UnixMilli()
	switch {
	case distributed:
		return PhaseEnded
	case ms < p.SubscribeStart:
		return PhaseUpcoming
	case ms < p.SubscribeEnd:
		return PhaseSubscription
	case ms < p.DistributeAt:
		return PhaseCalculation
	}
	return PhaseDistribution
}

// launch is a project with its coins' precisions and the sale in units.
type launch struct {
	LaunchProject
	tokPrec, comPrec int32
	tokIcon          string
	sale             launchpad.Sale
	least            int64
}

// Check validates a project.
func (s *Service) launchOf(p LaunchProject) (launch, error) {
	tok, ok1 := s.coins.Coin(p.Token)
	com, ok2 := s.coins.Coin(p.CommitCoin)
	switch {
	case !idPattern.MatchString(p.ID):
		return launch{}, fmt.Errorf("earn: launchpad id %q: 1-32 of a-z, 0-9, '-'", p.ID)
	case !ok1 || !ok2 || p.Token == p.CommitCoin:
		return launch{}, fmt.Errorf("earn: launchpad %s: token and commitment coin must be two listed coins", p.ID)
	case !p.Price.IsPositive() || !p.TokensOffered.IsPositive() || p.MaxPerUser.IsNegative() || p.MinCommit.IsNegative():
		return launch{}, fmt.Errorf("earn: launchpad %s: price and tokens offered above 0, cap and minimum not negative", p.ID)
	case !(p.SubscribeStart < p.SubscribeEnd && p.SubscribeEnd <= p.DistributeAt):
		return launch{}, fmt.Errorf("earn: launchpad %s: subscribeStart < subscribeEnd ≤ distributeAt", p.ID)
	}
	l := launch{LaunchProject: p, tokPrec: tok.Precision, comPrec: com.Precision, tokIcon: tok.Icon}
	var err error
	if l.sale.Offered, err = units(p.TokensOffered, tok.Precision); err != nil {
		return launch{}, err
	}
	if l.sale.Cap, err = units(p.MaxPerUser, tok.Precision); err != nil {
		return launch{}, err
	}
	if l.least, err = units(p.MinCommit, com.Precision); err != nil {
		return launch{}, err
	}
	// One token unit costs Price × 10^comPrec ÷ 10^tokPrec commitment units.
	r := p.Price.Shift(com.Precision - tok.Precision).Rat()
	if !r.Num().IsInt64() || !r.Denom().IsInt64() {
		return launch{}, fmt.Errorf("earn: launchpad %s: price %s too fine", p.ID, p.Price)
	}
	l.sale.PriceNum, l.sale.PriceDen = r.Num().Int64(), r.Denom().Int64()
	return l, nil
}

// PutLaunchProject creates or changes a project (the operator's call):
// anything before its subscription starts; after that only its names and
// descriptions.
func (s *Service) PutLaunchProject(ctx context.Context, p LaunchProject) error {
	if _, err := s.launchOf(p); err != nil {
		return err
	}
	old, err := getConfig[LaunchProject](ctx, s.st, launchPrefix+p.ID)
	switch {
	case err == nil && s.now().UnixMilli() >= old.SubscribeStart:
		names, descs := p.Names, p.Descriptions
		p = old
		p.Names, p.Descriptions = names, descs
	case err != nil && !errors.Is(err, ErrUnknownProduct):
		return err
	}
	return putConfig(ctx, s.st, launchPrefix+p.ID, p)
}

// LaunchProjects lists the projects, by Sort then id.
func (s *Service) LaunchProjects(ctx context.Context) ([]LaunchProject, error) {
	out, err := listConfig[LaunchProject](ctx, s.st, launchPrefix)
	sortConfig(out, func(p LaunchProject) (int, string) { return p.Sort, p.ID })
	return out, err
}

func (s *Service) loadLaunch(ctx context.Context, id string) (launch, error) {
	id = strings.TrimSpace(id)
	p, err := getConfig[LaunchProject](ctx, s.st, launchPrefix+id)
	if errors.Is(err, ErrUnknownProduct) {
		return launch{}, apperr.New(apperr.CodeEarnUnknownProduct, id)
	}
	if err != nil {
		return launch{}, internal(err)
	}
	l, err := s.launchOf(p)
	if err != nil {
		return launch{}, internal(err)
	}
	return l, nil
}

// Items of a sale: the commitments (one per user, pk "LPC#<id>"), the
// sale's state (its totals, whether it was allocated and distributed)
// in the service's state partition.
func commitPK(id string) string              { return "LPC#" + id }
func commitKey(id, uid string) store.Key     { return store.Key{PK: commitPK(id), SK: uid} }
func launchStateKey(id string) store.Key     { return store.Key{PK: statePK, SK: "LPSTATE#" + id} }
func launchMineKey(uid, id string) store.Key { return store.Key{PK: earnPK(uid), SK: "LPU#" + id} }
func launchPayID(id, what string) string     { return "lp-" + id + "-" + what }
func launchPostingID(id, uid string) string  { return "earn:lp:" + id + ":" + uid }

// CommitInput is newcoin_purchase.
type CommitInput struct {
	Project, Amount, RequestID string
}

// Commit holds an amount of the commitment coin from spot for a sale in
// its subscription phase.
func (s *Service) Commit(ctx context.Context, uid string, in CommitInput) (OpResult, error) {
	if uid == "" {
		return OpResult{}, apperr.New(apperr.CodeNotSignedIn)
	}
	l, err := s.loadLaunch(ctx, in.Project)
	if err != nil {
		return OpResult{}, err
	}
	o, err := newOp(uid, opCommit, "c", l.ID, l.CommitCoin, in.Amount, in.RequestID, l.comPrec)
	if err != nil {
		return OpResult{}, err
	}
	return s.runSpotOp(ctx, o, l.comPrec, func() error {
		if ph := l.phase(s.now(), false); ph != PhaseSubscription {
			return apperr.New(apperr.CodeLaunchNotOpen, ph)
		}
		if o.amount < l.least {
			return apperr.New(apperr.CodeEarnBelowMin, l.MinCommit.StringFixed(l.comPrec)+" "+l.CommitCoin)
		}
		return nil
	})
}

// finishCommit takes a pending commitment from spot and holds it: the
// user's commitment grows, in the same transaction as the money, only
// while the sale's state says it is not yet allocated (a commitment that
// arrives after the subscription phase is refunded).
func (s *Service) finishCommit(ctx context.Context, o *op, prec int32) error {
	if err := s.takeFromSpot(ctx, o, prec, ReasonCommit); err != nil {
		return err
	}
	l, err := s.loadLaunch(ctx, o.prod)
	if err != nil {
		return err
	}
	// Only commitments asked within the phase count (a retry after it ends
	// finds its op's time inside the phase).
	if o.ctime >= l.SubscribeEnd || o.ctime < l.SubscribeStart {
		return s.refund(ctx, o, prec)
	}
	amount := amountOf(o.amount, prec)
	extra := []store.Op{
		store.UpdateOp(commitKey(o.prod, o.uid), store.NewUpdate().AddInt("units", o.amount).Set("uid", o.uid), nil),
		o.doneOp(opSuccess),
		store.PutOp(logItem(o.uid, logEntry{ID: o.id, Type: LogCommit, Product: o.prod, Coin: o.coin, Amount: amount.StringFixed(prec), Day: o.day, At: o.ctime}), nil),
		store.UpdateOp(launchMineKey(o.uid, o.prod), store.NewUpdate().AddInt("units", o.amount), nil),
		// The sale's total; refused once it is allocated.
		store.UpdateOp(launchStateKey(o.prod), store.NewUpdate().AddInt("committed", o.amount).AddInt("commits", 1), store.NotExists("allocated")),
	}
	_, err = s.led.Post(ctx, earnPosting(o.ref()+":in", ReasonCommit, o,
		[]ledger.Leg{{From: spotfunds.TransitAccount(), FromBucket: ledger.Available, To: earnAccount(o.uid), ToBucket: ledger.Frozen, Coin: o.coin, Amount: amount}}, extra))
	var xf *ledger.ExtraFailedError
	switch {
	case err == nil:
		o.status = opSuccess
		return nil
	case errors.As(err, &xf) && xf.Index == 4:
		return s.refund(ctx, o, prec)
	case errors.Is(err, store.ErrConditionFailed):
		cur, gerr := s.st.Get(ctx, o.key())
		if gerr != nil {
			return internal(gerr)
		}
		o.status = cur.Str("status")
		return nil
	}
	return internal(err)
}

// allocationItem is one user's allocation, written on the commitment.
func allocationOps(id string, a launchpad.Allocation) store.Op {
	return store.UpdateOp(commitKey(id, a.User), store.NewUpdate().Set("tokens", a.Tokens).Set("cost", a.Cost).Set("returned", a.Returned), nil)
}

// SettleLaunch runs a sale past its DistributeAt: it allocates (once: the
// commitments are frozen after the subscription phase, and the result is
// the same however often it is worked out) and distributes to each user
// once (a posting per user and sale), then marks the sale ended. Safe to
// run again after a crash at any point.
func (s *Service) SettleLaunch(ctx context.Context, id string) (int, error) {
	l, err := s.loadLaunch(ctx, id)
	if err != nil {
		return 0, err
	}
	if s.now().UnixMilli() < l.DistributeAt {
		return 0, apperr.New(apperr.CodeLaunchNotOpen, l.phase(s.now(), false))
	}
	st, err := s.st.Get(ctx, launchStateKey(l.ID))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return 0, err
	}
	if st.Has("ended") {
		return 0, nil
	}
	// The sale's state is closed to commitments first: one arriving late
	// is refunded by its own step.
	if !st.Has("allocated") {
		if _, err := s.st.Update(ctx, launchStateKey(l.ID), store.NewUpdate().Set("allocated", int64(1)), nil); err != nil {
			return 0, err
		}
	}
	var commits []launchpad.Commitment
	err = store.EachLive(ctx, s.st, store.Query{PK: commitPK(l.ID)}, s.now(), func(it store.Item) {
		commits = append(commits, launchpad.Commitment{User: it.Str("uid"), Amount: it.Int("units")})
	})
	if err != nil {
		return 0, err
	}
	allocs, remainder, err := launchpad.Allocate(l.sale, commits)
	if err != nil {
		return 0, err
	}
	var allocated int64
	n := 0
	for _, a := range allocs {
		allocated += a.Tokens
		done, err := s.distribute(ctx, l, a)
		if err != nil {
			return n, err
		}
		if done {
			n++
		}
	}
	upd := store.NewUpdate().Set("ended", int64(1)).Set("allocatedTokens", allocated).Set("remainder", remainder)
	if _, err := s.st.Update(ctx, launchStateKey(l.ID), upd, nil); err != nil {
		return n, err
	}
	return n, nil
}

// distribute pays one user's allocation: the cost to the project, the
// rest of the commitment and the tokens to spot (payout ops, finished now
// or by Resume). It reports whether it did so now (false: done before).
func (s *Service) distribute(ctx context.Context, l launch, a launchpad.Allocation) (bool, error) {
	at := s.now().UnixMilli()
	day := DayOf(s.now())
	var legs []ledger.Leg
	extra := []store.Op{allocationOps(l.ID, a)}
	var ops []*op
	com := func(u int64) decimal.Decimal { return amountOf(u, l.comPrec) }
	if a.Cost > 0 {
		legs = append(legs, ledger.Leg{From: earnAccount(a.User), FromBucket: ledger.Frozen, To: launchAccount(l.ID), ToBucket: ledger.Available,
			Coin: l.CommitCoin, Amount: com(a.Cost)})
	}
	if a.Returned > 0 {
		legs = append(legs, ledger.Leg{From: earnAccount(a.User), FromBucket: ledger.Frozen, To: spotfunds.TransitAccount(), ToBucket: ledger.Available,
			Coin: l.CommitCoin, Amount: com(a.Returned)})
		ops = append(ops, &op{id: launchPayID(l.ID, "ret"), uid: a.User, prod: l.ID, coin: l.CommitCoin, kind: opPayout, amount: a.Returned, status: opPending, ctime: at, day: day})
	}
	if a.Tokens > 0 {
		legs = append(legs, ledger.Move(launchAccount(l.ID), spotfunds.TransitAccount(), l.Token, amountOf(a.Tokens, l.tokPrec)))
		ops = append(ops, &op{id: launchPayID(l.ID, "tok"), uid: a.User, prod: l.ID, coin: l.Token, kind: opPayout, amount: a.Tokens, status: opPending, ctime: at, day: day})
		extra = append(extra, store.PutOp(logItem(a.User, logEntry{ID: launchPayID(l.ID, "tok"), Type: LogAllocation, Product: l.ID, Coin: l.Token,
			Amount: fixed(a.Tokens, l.tokPrec), Day: day, At: at}), nil))
	}
	precOf := func(o *op) int32 {
		if o.coin == l.Token {
			return l.tokPrec
		}
		return l.comPrec
	}
	for _, o := range ops {
		extra = append(extra, store.PutOp(o.item(precOf(o)), store.ItemNotExists()))
	}
	if len(legs) == 0 {
		return false, nil
	}
	res, err := s.led.Post(ctx, ledger.Posting{ID: launchPostingID(l.ID, a.User), Reason: ReasonLaunch, Legs: legs, Extra: extra,
		Meta: map[string]string{"uid": a.User, "launchpad": l.ID}})
	if err != nil && !errors.Is(err, store.ErrConditionFailed) {
		return false, fmt.Errorf("earn: launchpad %s: distribute to %s: %w", l.ID, a.User, err)
	}
	replayed := err != nil || res.Replayed
	// The credits: now, or (after a crash) by this run again or Resume.
	for _, o := range ops {
		it, gerr := s.st.Get(ctx, o.key())
		if gerr != nil {
			if errors.Is(gerr, store.ErrNotFound) {
				continue
			}
			return false, gerr
		}
		if cur := opOf(it); cur.status == opPending {
			if err := s.finishOp(ctx, cur, precOf(cur)); err != nil {
				s.log.Warn().Err(err).Str("op", cur.id).Msg("launchpad credit left for the resume run")
			}
		}
	}
	return !replayed, nil
}

// RunLaunchpads settles every sale past its DistributeAt and not ended
// (the daily run calls it; it is quick when there is none).
func (s *Service) RunLaunchpads(ctx context.Context) (int, error) {
	all, err := s.LaunchProjects(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, p := range all {
		if s.now().UnixMilli() < p.DistributeAt {
			continue
		}
		st, err := s.st.Get(ctx, launchStateKey(p.ID))
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			errs = append(errs, err)
			continue
		}
		if st.Has("ended") {
			continue
		}
		if _, err := s.SettleLaunch(ctx, p.ID); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// DevLaunchProjects is the sale a development install starts with: 10,000
// TON at 2.2 USDT, at most 2,000 a user, its subscription open from now
// for three days, distributed an hour after.
func DevLaunchProjects(now time.Time) []LaunchProject {
	start := now.Add(-time.Hour).UnixMilli()
	end := now.Add(72 * time.Hour).UnixMilli()
	return []LaunchProject{{ID: "ton-launch", Token: "TON", CommitCoin: "USDT", Price: decimal.RequireFromString("2.2"),
		TokensOffered: decimal.NewFromInt(10000), MaxPerUser: decimal.NewFromInt(2000), MinCommit: decimal.NewFromInt(10),
		SubscribeStart: start, SubscribeEnd: end, DistributeAt: end + time.Hour.Milliseconds(),
		Names: map[string]string{LangEN: "TON community sale", LangMN: "TON олон нийтийн худалдаа"},
		Descriptions: map[string]string{
			LangEN: "Commit USDT during the subscription phase; at the end each participant gets TON in proportion to the commitment, capped at 2,000 TON, and the rest of the USDT back.",
			LangMN: "Захиалгын үе шатанд USDT байршуулна уу; эцэст нь оролцогч бүр байршуулсан хэмжээнийхээ хувиар TON авна (хамгийн ихдээ 2,000 TON), үлдсэн USDT буцаж ирнэ.",
		}}}
}
