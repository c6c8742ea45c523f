package earn

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// Staking: locked products. A stake is taken from spot on day S and
// locked in the user's earn account (its frozen bucket) for the product's
// term: it earns the product's yearly rate ÷ 365 (rounded down to the
// coin's unit) for each day S+1 … S+term, paid into spot each day or all
// at maturity as the product says; after day S+term is settled the
// principal (and the rewards kept for maturity) go back to spot. An early
// redemption returns the principal less the rewards already paid, and
// forfeits the rest. Caps per user and in total hold in the same
// transaction as the stake.

// Payout kinds.
const (
	PayDaily    = "daily"
	PayMaturity = "maturity"
)

// Stake statuses (spec §4 staking labels: pending, locked, … completed).
const (
	StakePending   = "pending" // its first day: rewards start tomorrow
	StakeLocked    = "locked"
	StakeCompleted = "completed"
	StakeRedeemed  = "redeemed" // ended early: principal released
)

// StakingProduct is a locked product.
type StakingProduct struct {
	ID    string            `json:"id"`
	Coin  string            `json:"coin"`
	Names map[string]string `json:"names"`
	// TermDays is how many days a stake is locked and earns.
	TermDays int `json:"termDays"`
	// APR is the yearly rate in percent.
	APR decimal.Decimal `json:"apr"`
	// Payout is PayDaily or PayMaturity.
	Payout     string          `json:"payout"`
	MinAmount  decimal.Decimal `json:"minAmount"`
	MaxPerUser decimal.Decimal `json:"maxPerUser"` // 0: no cap
	TotalCap   decimal.Decimal `json:"totalCap"`   // 0: no cap
	Open       bool            `json:"open"`
	Sort       int             `json:"sort"`
}

// MaxTermDays bounds a term.
const MaxTermDays = 3650

// Name is the product's name in a language (English otherwise).
func (p StakingProduct) Name(lang string) string {
	if n := p.Names[lang]; n != "" {
		return n
	}
	if n := p.Names[LangEN]; n != "" {
		return n
	}
	return fmt.Sprintf("%s %d days", p.Coin, p.TermDays)
}

// Check validates a product against its coin's precision.
func (p StakingProduct) Check(precision int32) error {
	amounts := []decimal.Decimal{p.MinAmount, p.MaxPerUser, p.TotalCap}
	for _, a := range amounts {
		if a.IsNegative() || !a.Equal(a.Truncate(precision)) || a.Shift(precision).GreaterThan(decimal.NewFromInt(maxUnits)) {
			return fmt.Errorf("earn: staking product %s: amounts must be ≥ 0 with at most %d decimals", p.ID, precision)
		}
	}
	switch {
	case !idPattern.MatchString(p.ID):
		return fmt.Errorf("earn: staking product id %q: 1-32 of a-z, 0-9, '-'", p.ID)
	case p.Coin == "" || strings.ToUpper(p.Coin) != p.Coin:
		return fmt.Errorf("earn: staking product %s: coin %q must be an upper-case symbol", p.ID, p.Coin)
	case p.TermDays < 1 || p.TermDays > MaxTermDays:
		return fmt.Errorf("earn: staking product %s: term 1 to %d days", p.ID, MaxTermDays)
	case p.APR.IsNegative():
		return fmt.Errorf("earn: staking product %s: negative rate", p.ID)
	case p.Payout != PayDaily && p.Payout != PayMaturity:
		return fmt.Errorf("earn: staking product %s: payout daily or maturity", p.ID)
	case p.MaxPerUser.IsPositive() && p.MinAmount.GreaterThan(p.MaxPerUser),
		p.TotalCap.IsPositive() && p.MaxPerUser.GreaterThan(p.TotalCap):
		return fmt.Errorf("earn: staking product %s: minimum ≤ cap per user ≤ total cap", p.ID)
	}
	return nil
}

// PutStakingProduct creates or replaces a staking product (the
// operator's call); its coin and term cannot change once set.
func (s *Service) PutStakingProduct(ctx context.Context, p StakingProduct) error {
	c, ok := s.coins.Coin(p.Coin)
	if !ok {
		return fmt.Errorf("earn: staking product %s: unknown coin %s", p.ID, p.Coin)
	}
	if err := p.Check(c.Precision); err != nil {
		return err
	}
	old, err := s.StakingProduct(ctx, p.ID)
	switch {
	case err == nil && (old.Coin != p.Coin || old.TermDays != p.TermDays):
		return fmt.Errorf("earn: staking product %s: its coin and term cannot change", p.ID)
	case err != nil && !errors.Is(err, ErrUnknownProduct):
		return err
	}
	return putConfig(ctx, s.st, stakingPrefix+p.ID, p)
}

// StakingProducts lists the staking products, by Sort then id.
func (s *Service) StakingProducts(ctx context.Context) ([]StakingProduct, error) {
	out, err := listConfig[StakingProduct](ctx, s.st, stakingPrefix)
	sortConfig(out, func(p StakingProduct) (int, string) { return p.Sort, p.ID })
	return out, err
}

// StakingProduct reads one staking product (ErrUnknownProduct when none).
func (s *Service) StakingProduct(ctx context.Context, id string) (StakingProduct, error) {
	return getConfig[StakingProduct](ctx, s.st, stakingPrefix+id)
}

// DevStakingProducts are the staking products of a development install.
func DevStakingProducts() []StakingProduct {
	d := decimal.RequireFromString
	mk := func(id, coin string, term int, apr, payout, min, perUser, total string, sort int) StakingProduct {
		return StakingProduct{ID: id, Coin: coin, TermDays: term, APR: d(apr), Payout: payout, MinAmount: d(min),
			MaxPerUser: d(perUser), TotalCap: d(total), Open: true, Sort: sort,
			Names: map[string]string{LangEN: fmt.Sprintf("%s %d-day staking", coin, term), LangMN: fmt.Sprintf("%s %d хоногийн стейкинг", coin, term)}}
	}
	return []StakingProduct{
		mk("usdt-30", "USDT", 30, "8", PayMaturity, "10", "50000", "5000000", 1),
		mk("usdt-90", "USDT", 90, "10", PayDaily, "10", "100000", "10000000", 2),
		mk("eth-60", "ETH", 60, "4.5", PayDaily, "0.01", "100", "10000", 3),
		mk("trx-14", "TRX", 14, "9", PayMaturity, "100", "1000000", "100000000", 4),
	}
}

// stakingProduct is a product with its coin and daily rule.
type stakingProduct struct {
	StakingProduct
	prec  int32
	tiers []Tier
	icon  string
	// least, perUser and total in units (0: none).
	least, perUser, total int64
}

func (s *Service) loadStaking(ctx context.Context, id string) (stakingProduct, error) {
	p, err := s.StakingProduct(ctx, strings.TrimSpace(id))
	if errors.Is(err, ErrUnknownProduct) {
		return stakingProduct{}, apperr.New(apperr.CodeEarnUnknownProduct, strings.TrimSpace(id))
	}
	if err != nil {
		return stakingProduct{}, internal(err)
	}
	return s.stakingOf(p)
}

func (s *Service) stakingOf(p StakingProduct) (stakingProduct, error) {
	c, ok := s.coins.Coin(p.Coin)
	if !ok {
		return stakingProduct{}, internal(fmt.Errorf("earn: staking product %s: coin %s is not listed", p.ID, p.Coin))
	}
	out := stakingProduct{StakingProduct: p, prec: c.Precision, icon: c.Icon,
		tiers: []Tier{{APR: p.APR.Div(decimal.NewFromInt(100))}}}
	out.least, _ = units(p.MinAmount, c.Precision)
	out.perUser, _ = units(p.MaxPerUser, c.Precision)
	out.total, _ = units(p.TotalCap, c.Precision)
	return out, nil
}

// stake is one user's stake.
type stake struct {
	uid, id, prod, coin string
	amount              int64
	// day is the day it was taken; it earns days day+1 … day+term.
	day, term int64
	// paid is the last day settled; accrued the rewards kept for
	// maturity, paidOut those paid into spot.
	paid, accrued, paidOut int64
	payout                 string
	status                 string
	ver                    int64
	ctime                  int64
}

func stakeKey(uid, id string) store.Key { return store.Key{PK: earnPK(uid), SK: "STK#" + id} }

func stakeDuePK(shard int) string { return fmt.Sprintf("STKDUE#%02d", shard) }

// stakeSumKey is the user's total staked in a product (the cap per user);
// stakeTotalKey the product's (the total cap).
func stakeSumKey(uid, prod string) store.Key { return store.Key{PK: earnPK(uid), SK: "STKSUM#" + prod} }
func stakeTotalKey(prod string) store.Key    { return store.Key{PK: statePK, SK: "STKTOTAL#" + prod} }

func (k *stake) matureDay() Day { return k.day + k.term }

func (k *stake) item() store.Item {
	key := stakeKey(k.uid, k.id)
	it := store.Item{store.AttrPK: key.PK, store.AttrSK: key.SK, "uid": k.uid, "id": k.id, "prod": k.prod, "coin": k.coin,
		"amount": k.amount, "day": k.day, "term": k.term, "paid": k.paid, "accrued": k.accrued, "paidOut": k.paidOut,
		"payout": k.payout, "status": k.status, "ctime": k.ctime, store.AttrVersion: k.ver + 1}
	if k.status == StakeLocked {
		it[store.AttrGSI2PK] = stakeDuePK(shardOf(k.uid, k.id))
		it[store.AttrGSI2SK] = fmt.Sprintf("%07d#%s#%s", k.paid, k.uid, k.id)
	}
	return it
}

func stakeOf(it store.Item) *stake {
	return &stake{uid: it.Str("uid"), id: it.Str("id"), prod: it.Str("prod"), coin: it.Str("coin"), amount: it.Int("amount"),
		day: it.Int("day"), term: it.Int("term"), paid: it.Int("paid"), accrued: it.Int("accrued"), paidOut: it.Int("paidOut"),
		payout: it.Str("payout"), status: it.Str("status"), ver: it.Int(store.AttrVersion), ctime: it.Int("ctime")}
}

// counterOps add delta to the user's and the product's staked totals,
// within the caps when delta is positive.
func counterOps(uid string, pr stakingProduct, delta int64) []store.Op {
	cond := func(limit int64) store.Cond {
		if delta <= 0 || limit <= 0 {
			return nil
		}
		return store.Or(store.NotExists("units"), store.Compare("units", store.CmpLe, limit-delta))
	}
	return []store.Op{
		store.UpdateOp(stakeSumKey(uid, pr.ID), store.NewUpdate().AddInt("units", delta), cond(pr.perUser)),
		store.UpdateOp(stakeTotalKey(pr.ID), store.NewUpdate().AddInt("units", delta), cond(pr.total)),
	}
}

// StakeInput is staking_create_order.
type StakeInput struct {
	Product, Amount, RequestID string
}

// Stake locks an amount from spot in a staking product.
func (s *Service) Stake(ctx context.Context, uid string, in StakeInput) (OpResult, error) {
	if uid == "" {
		return OpResult{}, apperr.New(apperr.CodeNotSignedIn)
	}
	pr, err := s.loadStaking(ctx, in.Product)
	if err != nil {
		return OpResult{}, err
	}
	o, err := newOp(uid, opStake, "k", pr.ID, pr.Coin, in.Amount, in.RequestID, pr.prec)
	if err != nil {
		return OpResult{}, err
	}
	return s.runSpotOp(ctx, o, pr.prec, func() error {
		if !pr.Open {
			return apperr.New(apperr.CodeEarnClosed)
		}
		if o.amount < pr.least {
			return apperr.New(apperr.CodeEarnBelowMin, pr.MinAmount.StringFixed(pr.prec)+" "+pr.Coin)
		}
		if left, err := s.stakeRoom(ctx, uid, pr); err != nil {
			return internal(err)
		} else if left >= 0 && o.amount > left {
			return apperr.New(apperr.CodeEarnAboveCap, fixed(left, pr.prec)+" "+pr.Coin)
		}
		return nil
	})
}

// stakeRoom is what the caps leave for the user in a product (-1: no cap).
func (s *Service) stakeRoom(ctx context.Context, uid string, pr stakingProduct) (int64, error) {
	left := int64(-1)
	for _, c := range []struct {
		key   store.Key
		limit int64
	}{{stakeSumKey(uid, pr.ID), pr.perUser}, {stakeTotalKey(pr.ID), pr.total}} {
		if c.limit <= 0 {
			continue
		}
		it, err := s.st.Get(ctx, c.key)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return 0, err
		}
		room := max(c.limit-it.Int("units"), 0)
		if left < 0 || room < left {
			left = room
		}
	}
	return left, nil
}

// finishStake takes a pending stake's amount from spot (again: idempotent
// by its reference) and locks it, with the caps checked in the same
// transaction; a cap filled meanwhile refunds it.
func (s *Service) finishStake(ctx context.Context, o *op, prec int32) error {
	if err := s.takeFromSpot(ctx, o, prec, ReasonStake); err != nil {
		return err
	}
	pr, err := s.loadStaking(ctx, o.prod)
	if err != nil {
		return err
	}
	k := &stake{uid: o.uid, id: o.id, prod: o.prod, coin: o.coin, amount: o.amount, day: o.day, term: int64(pr.TermDays),
		paid: o.day, payout: pr.Payout, status: StakeLocked, ctime: o.ctime}
	amount := amountOf(o.amount, prec)
	extra := append([]store.Op{store.PutOp(k.item(), store.ItemNotExists()), o.doneOp(opSuccess),
		store.PutOp(logItem(o.uid, logEntry{ID: o.id, Type: LogStake, Product: o.prod, Coin: o.coin, Amount: amount.StringFixed(prec), Day: o.day, At: o.ctime}), nil)},
		counterOps(o.uid, pr, o.amount)...)
	_, err = s.led.Post(ctx, earnPosting(o.ref()+":in", ReasonStake, o,
		[]ledger.Leg{{From: spotfunds.TransitAccount(), FromBucket: ledger.Available, To: earnAccount(o.uid), ToBucket: ledger.Frozen, Coin: o.coin, Amount: amount}}, extra))
	var xf *ledger.ExtraFailedError
	switch {
	case err == nil:
		o.status = opSuccess
		return nil
	case errors.As(err, &xf) && xf.Index >= 3:
		// A cap filled meanwhile: the amount goes back.
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

// settleStake settles a stake through day through: each day's reward
// (paid into spot or kept for maturity) and, after its last day, the
// principal back. errStale when the stake changed meanwhile.
func (s *Service) settleStake(ctx context.Context, k *stake, pr stakingProduct, through Day) error {
	for k.status == StakeLocked && k.paid < min(through, k.matureDay()) {
		d := k.paid + 1
		q := *k
		reward, err := DailyInterest(q.amount, pr.tiers)
		if err != nil {
			return err
		}
		q.paid = d
		var pay int64 // into spot now
		var legs []ledger.Leg
		if q.payout == PayDaily {
			pay += reward
			q.paidOut += reward
		} else {
			q.accrued += reward
		}
		at := s.now().UnixMilli()
		var logs []store.Op
		if reward > 0 {
			logs = append(logs, store.PutOp(logItem(q.uid, logEntry{ID: "rw-" + q.id + "-" + strconv.FormatInt(d, 10), Type: LogStakeReward,
				Product: q.prod, Coin: q.coin, Amount: fixed(reward, pr.prec), Day: d, At: at}), nil))
		}
		if pay > 0 {
			legs = append(legs, ledger.Move(Treasury(), spotfunds.TransitAccount(), q.coin, amountOf(pay, pr.prec)))
		}
		var counters []store.Op
		if d == q.matureDay() {
			if q.accrued > 0 {
				legs = append(legs, ledger.Move(Treasury(), spotfunds.TransitAccount(), q.coin, amountOf(q.accrued, pr.prec)))
				pay += q.accrued
				q.paidOut += q.accrued
				q.accrued = 0
			}
			legs = append(legs, ledger.Leg{From: earnAccount(q.uid), FromBucket: ledger.Frozen, To: spotfunds.TransitAccount(),
				ToBucket: ledger.Available, Coin: q.coin, Amount: amountOf(q.amount, pr.prec)})
			pay += q.amount
			q.status = StakeCompleted
			logs = append(logs, store.PutOp(logItem(q.uid, logEntry{ID: "end-" + q.id, Type: LogStakeRelease, Product: q.prod, Coin: q.coin,
				Amount: fixed(q.amount, pr.prec), Day: d, At: at}), nil))
			counters = counterOps(q.uid, pr, -q.amount)
		}
		extra := append([]store.Op{store.PutOp(q.item(), store.VersionIs(k.ver))}, logs...)
		extra = append(extra, counters...)
		var po *op
		if pay > 0 {
			po = &op{id: "pay-" + q.id + "-" + strconv.FormatInt(d, 10), uid: q.uid, prod: q.prod, coin: q.coin, kind: opPayout,
				amount: pay, status: opPending, ctime: at, day: d}
			extra = append(extra, store.PutOp(po.item(pr.prec), store.ItemNotExists()))
		}
		if len(legs) == 0 {
			if err := s.st.Transact(ctx, extra); err != nil {
				if errors.As(err, new(*store.TxCanceledError)) {
					return errStale
				}
				return err
			}
		} else {
			res, err := s.led.Post(ctx, ledger.Posting{ID: fmt.Sprintf("earn:stk:%s:%s:%d", q.id, q.uid, d), Reason: ReasonStakeReward,
				Legs: legs, Extra: extra, Meta: map[string]string{"uid": q.uid, "product": q.prod, "stake": q.id, "day": DayString(d)}})
			switch {
			case errors.Is(err, store.ErrConditionFailed), err == nil && res.Replayed:
				return errStale
			case err != nil:
				return fmt.Errorf("earn: settle stake %s day %s: %w", q.id, DayString(d), err)
			}
		}
		q.ver++
		*k = q
		if po != nil {
			if err := s.finishOp(ctx, po, pr.prec); err != nil {
				s.log.Warn().Err(err).Str("op", po.id).Msg("staking payout left for the resume run")
			}
		}
	}
	return nil
}

// RedeemStake ends a stake before its term: the principal less the
// rewards already paid goes back to spot; the rest of the rewards is
// forfeited.
func (s *Service) RedeemStake(ctx context.Context, uid, stakeID string) (OpResult, error) {
	if uid == "" {
		return OpResult{}, apperr.New(apperr.CodeNotSignedIn)
	}
	stakeID = strings.TrimSpace(stakeID)
	for range maxAttempts {
		it, err := s.st.Get(ctx, stakeKey(uid, stakeID))
		if errors.Is(err, store.ErrNotFound) {
			return OpResult{}, apperr.New(apperr.CodeEarnStakeUnknown, stakeID)
		}
		if err != nil {
			return OpResult{}, internal(err)
		}
		k := stakeOf(it)
		pr, err := s.loadStaking(ctx, k.prod)
		if err != nil {
			return OpResult{}, err
		}
		if err := s.settleStake(ctx, k, pr, DayOf(s.now())-1); errors.Is(err, errStale) {
			continue
		} else if err != nil {
			return OpResult{}, internal(err)
		}
		if k.status != StakeLocked {
			return OpResult{}, apperr.New(apperr.CodeEarnStakeEnded)
		}
		back := k.amount - k.paidOut
		at := s.now().UnixMilli()
		today := DayOf(s.now())
		q := *k
		q.status = StakeRedeemed
		po := &op{id: "pay-" + q.id + "-early", uid: uid, prod: q.prod, coin: q.coin, kind: opPayout, amount: back, status: opPending, ctime: at, day: today}
		legs := []ledger.Leg{{From: earnAccount(uid), FromBucket: ledger.Frozen, To: spotfunds.TransitAccount(), ToBucket: ledger.Available,
			Coin: q.coin, Amount: amountOf(back, pr.prec)}}
		if k.paidOut > 0 {
			legs = append(legs, ledger.Leg{From: earnAccount(uid), FromBucket: ledger.Frozen, To: Treasury(), ToBucket: ledger.Available,
				Coin: q.coin, Amount: amountOf(k.paidOut, pr.prec)})
		}
		extra := append([]store.Op{store.PutOp(q.item(), store.VersionIs(k.ver)), store.PutOp(po.item(pr.prec), store.ItemNotExists()),
			store.PutOp(logItem(uid, logEntry{ID: "early-" + q.id, Type: LogStakeRedeem, Product: q.prod, Coin: q.coin, Amount: fixed(back, pr.prec), Day: today, At: at}), nil)},
			counterOps(uid, pr, -q.amount)...)
		res, err := s.led.Post(ctx, ledger.Posting{ID: "earn:stk:" + q.id + ":" + uid + ":early", Reason: ReasonStakeRedeem, Legs: legs, Extra: extra,
			Meta: map[string]string{"uid": uid, "product": q.prod, "stake": q.id}})
		switch {
		case errors.Is(err, store.ErrConditionFailed), err == nil && res.Replayed:
			continue
		case err != nil:
			return OpResult{}, internal(err)
		}
		if err := s.finishOp(context.WithoutCancel(ctx), po, pr.prec); err != nil {
			s.log.Warn().Err(err).Str("op", po.id).Msg("early redemption credit left for the resume run")
		}
		return OpResult{ID: q.id, Kind: "stake_redeem", Product: q.prod, CoinSymbol: q.coin, Amount: fixed(back, pr.prec), Status: opSuccess, Ctime: at}, nil
	}
	return OpResult{}, apperr.New(apperr.CodeEarnBusy)
}

// runStake settles one stake through yesterday (the daily run).
func (s *Service) runStake(ctx context.Context, key store.Key, products map[string]stakingProduct, today Day) (int64, error) {
	for range maxAttempts {
		it, err := s.st.Get(ctx, key)
		if errors.Is(err, store.ErrNotFound) {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		k := stakeOf(it)
		pr, ok := products[k.prod]
		if !ok {
			return 0, nil
		}
		before := k.paid
		err = s.settleStake(ctx, k, pr, today-1)
		if errors.Is(err, errStale) {
			continue
		}
		return k.paid - before, err
	}
	return 0, fmt.Errorf("earn: stake %s kept changing during the daily run", key.SK)
}
