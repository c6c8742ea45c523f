package earn

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// Ledger reasons of the savings postings.
const (
	ReasonSubscribe = "earn_subscribe"
	ReasonRedeem    = "earn_redeem"
	ReasonInterest  = "earn_interest"
	ReasonPayout    = "earn_payout"
	ReasonRefund    = "earn_refund"

	ReasonStake       = "staking_stake"
	ReasonStakeReward = "staking_reward"
	ReasonStakeRedeem = "staking_redeem_early"

	ReasonCommit = "launchpad_commit"
	ReasonLaunch = "launchpad_distribution"

	ReasonLoanOpen        = "loan_open"
	ReasonLoanCollateral  = "loan_collateral"
	ReasonLoanRepay       = "loan_repay"
	ReasonLoanLiquidation = "loan_liquidation"
)

// errStale: the position changed since it was read; read it again.
var errStale = errors.New("earn: position changed")

// settleDay works day d out on a position whose last settled day is d-1:
// the day's interest on what earned, then a standard redemption of that
// day paid out. It changes p and returns the interest and the payout.
func (p *position) settleDay(d Day, tiers []Tier) (interest, payout int64, err error) {
	if p.paid != d-1 {
		return 0, 0, fmt.Errorf("earn: position %s/%s settled through %d, not %d", p.uid, p.prod, p.paid, d-1)
	}
	if p.fresh > 0 && p.freshDay < d {
		p.elig += p.fresh
		p.fresh = 0
	}
	if interest, err = DailyInterest(p.elig, tiers); err != nil {
		return 0, 0, err
	}
	// What came in on day d earns from the next day, as the interest does.
	if p.fresh > 0 && p.freshDay <= d {
		p.elig += p.fresh
		p.fresh = 0
	}
	p.elig += interest
	p.amt += interest
	p.tot += interest
	p.last, p.lastDay = interest, d
	if p.red > 0 && p.redDay <= d {
		payout = p.red
		p.elig -= payout
		p.amt -= payout
		p.red = 0
	}
	p.paid = d
	return interest, payout, p.check()
}

// product is a product with what settling it needs.
type product struct {
	SavingsProduct
	coin  coins.Coin
	tiers []Tier
}

// loadProduct reads a product and its coin.
func (s *Service) loadProduct(ctx context.Context, id string) (product, error) {
	p, err := s.SavingsProduct(ctx, id)
	if err != nil {
		return product{}, err
	}
	return s.productOf(p)
}

func (s *Service) productOf(p SavingsProduct) (product, error) {
	c, ok := s.coins.Coin(p.Coin)
	if !ok {
		return product{}, fmt.Errorf("earn: product %s: coin %s is not listed", p.ID, p.Coin)
	}
	t, err := p.tiers(c.Precision)
	if err != nil {
		return product{}, fmt.Errorf("earn: product %s: %w", p.ID, err)
	}
	return product{SavingsProduct: p, coin: c, tiers: t}, nil
}

// loadPosition reads a user's position (a new one when there is none).
func (s *Service) loadPosition(ctx context.Context, uid, prod string) (*position, error) {
	it, err := s.st.Get(ctx, positionKey(uid, prod))
	if errors.Is(err, store.ErrNotFound) {
		return newPosition(uid, prod, DayOf(s.now())), nil
	}
	if err != nil {
		return nil, err
	}
	return positionOf(it), nil
}

func earnAccount(uid string) ledger.Account { return ledger.UserAccount(uid, ledger.Earn) }

// settled reads a user's position settled through yesterday: what every
// change on a day starts from.
func (s *Service) settled(ctx context.Context, uid string, pr product) (*position, error) {
	for range maxAttempts {
		p, err := s.loadPosition(ctx, uid, pr.ID)
		if err != nil {
			return nil, err
		}
		err = s.settleThrough(ctx, p, pr, DayOf(s.now())-1)
		if errors.Is(err, errStale) {
			continue
		}
		return p, err
	}
	return nil, errStale
}

// busy maps a change that kept meeting a changed position to its code.
func busy(err error) error {
	if errors.Is(err, errStale) {
		return apperr.New(apperr.CodeEarnBusy)
	}
	return internal(err)
}

// settleThrough settles every day of p up to through, one posting per day
// (its id names the product, the user and the day, so a day is paid once
// however often this runs), and pays out the standard redemptions those
// days end. errStale when p changed meanwhile.
func (s *Service) settleThrough(ctx context.Context, p *position, pr product, through Day) error {
	for p.paid < through {
		if err := s.settleOne(ctx, p, pr, p.paid+1); err != nil {
			return err
		}
	}
	return nil
}

// settleOne settles one day (p.paid+1) of p.
func (s *Service) settleOne(ctx context.Context, p *position, pr product, d Day) error {
	q := *p
	interest, payout, err := q.settleDay(d, pr.tiers)
	if err != nil {
		return err
	}
	if interest == 0 && payout == 0 {
		if err := s.st.Put(ctx, q.item(), store.VersionIs(p.ver)); err != nil {
			if errors.Is(err, store.ErrConditionFailed) {
				return errStale
			}
			return err
		}
		q.ver++
		*p = q
		return nil
	}
	prec := pr.coin.Precision
	at := s.now().UnixMilli()
	var legs []ledger.Leg
	extra := []store.Op{q.putOp()}
	if interest > 0 {
		legs = append(legs, ledger.Move(Treasury(), earnAccount(p.uid), pr.Coin, amountOf(interest, prec)))
		extra = append(extra, store.PutOp(logItem(p.uid, logEntry{ID: "int-" + pr.ID + "-" + strconv.FormatInt(d, 10), Type: LogInterest,
			Product: pr.ID, Coin: pr.Coin, Amount: fixed(interest, prec), Day: d, At: at}), nil))
	}
	var pay *op
	if payout > 0 {
		legs = append(legs, ledger.Leg{From: earnAccount(p.uid), FromBucket: ledger.Frozen, To: spotfunds.TransitAccount(),
			ToBucket: ledger.Available, Coin: pr.Coin, Amount: amountOf(payout, prec)})
		pay = &op{id: "pay-" + pr.ID + "-" + strconv.FormatInt(d, 10), uid: p.uid, prod: pr.ID, coin: pr.Coin, kind: opPayout,
			amount: payout, status: opPending, ctime: at}
		extra = append(extra, store.PutOp(pay.item(prec), store.ItemNotExists()),
			store.PutOp(logItem(p.uid, logEntry{ID: pay.id, Type: LogPayout, Product: pr.ID, Coin: pr.Coin, Amount: fixed(payout, prec), Day: d, At: at}), nil))
	}
	res, err := s.led.Post(ctx, ledger.Posting{
		ID: fmt.Sprintf("earn:sav:%s:%s:%d", pr.ID, p.uid, d), Reason: ReasonInterest, Legs: legs, Extra: extra,
		Meta: map[string]string{"uid": p.uid, "product": pr.ID, "day": DayString(d)},
	})
	switch {
	case errors.Is(err, store.ErrConditionFailed), err == nil && res.Replayed:
		return errStale
	case err != nil:
		return fmt.Errorf("earn: settle %s/%s day %s: %w", p.uid, pr.ID, DayString(d), err)
	}
	q.ver++
	*p = q
	if pay != nil {
		// The payout's credit into spot: done now, or by Resume after a
		// crash (its record stays pending until it is).
		if err := s.finishOp(ctx, pay, prec); err != nil {
			s.log.Warn().Err(err).Str("op", pay.id).Msg("savings payout left for the resume run")
		}
	}
	return nil
}
