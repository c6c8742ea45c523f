package earn

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/reqid"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// Redemption types.
const (
	// RedeemFast pays out at once; the day's interest on the amount is lost.
	RedeemFast = "fast"
	// RedeemStandard pays out with the day's settlement, interest included.
	RedeemStandard = "standard"
)

// maxAttempts bounds the retries of a change whose position keeps
// changing under it.
const maxAttempts = 8

// SubscribeInput is confirm_subscription / savings/apply.
type SubscribeInput struct {
	Product, Coin, Amount string
	// RequestID is the client's idempotency key: a retry applies once.
	RequestID string
}

// openProduct finds a product for a request naming it and its coin.
func (s *Service) openProduct(ctx context.Context, id, coin string) (product, error) {
	pr, err := s.loadProduct(ctx, strings.TrimSpace(id))
	if errors.Is(err, ErrUnknownProduct) {
		return product{}, apperr.New(apperr.CodeEarnUnknownProduct, strings.TrimSpace(id))
	}
	if err != nil {
		return product{}, internal(err)
	}
	if c := strings.ToUpper(strings.TrimSpace(coin)); c != "" && c != pr.Coin {
		return product{}, apperr.New(apperr.CodeEarnCoinMismatch, pr.Coin)
	}
	return pr, nil
}

// parseAmount reads a request's amount in the product's coin units.
func parseAmount(raw string, precision int32) (int64, error) {
	d, err := coins.ParseAmount(strings.TrimSpace(raw), precision)
	if err != nil {
		return 0, coins.AmountError(err, precision)
	}
	u, err := units(d, precision)
	if err != nil {
		return 0, apperr.New(apperr.CodeWalletAmountTooLong)
	}
	return u, nil
}

func checkRequestID(id string) (string, error) {
	id = strings.TrimSpace(id)
	if !reqid.Valid(id, MaxRequestIDLen) {
		return "", apperr.Param(fmt.Sprintf("requestId: at most %d letters, digits, '-', '_' or '.'", MaxRequestIDLen))
	}
	return id, nil
}

// request reads what a subscription or a redemption names: the signed-in
// user, the product (and its coin), the amount in the coin's units and the
// client's request id; it returns the op the request is.
func (s *Service) request(ctx context.Context, uid, kind, productID, coin, rawAmount, rawReqID string) (product, *op, error) {
	if uid == "" {
		return product{}, nil, apperr.New(apperr.CodeNotSignedIn)
	}
	pr, err := s.openProduct(ctx, productID, coin)
	if err != nil {
		return product{}, nil, err
	}
	prefix := "r"
	if kind == opSubscribe {
		prefix = "s"
	}
	o, err := newOp(uid, kind, prefix, pr.ID, pr.Coin, rawAmount, rawReqID, pr.coin.Precision)
	return pr, o, err
}

// capLeft is how much more a position may take under the product's cap
// (-1: no cap).
func capLeft(pr product, p *position) (int64, error) {
	if !pr.MaxPerUser.IsPositive() {
		return -1, nil
	}
	most, err := units(pr.MaxPerUser, pr.coin.Precision)
	if err != nil {
		return 0, err
	}
	return max(most-p.amt, 0), nil
}

// Subscribe moves an amount from the user's spot account into a savings
// product. It earns from the next UTC day.
func (s *Service) Subscribe(ctx context.Context, uid string, in SubscribeInput) (OpResult, error) {
	pr, o, err := s.request(ctx, uid, opSubscribe, in.Product, in.Coin, in.Amount, in.RequestID)
	if err != nil {
		return OpResult{}, err
	}
	prec := pr.coin.Precision
	return s.runSpotOp(ctx, o, prec, func() error {
		if !pr.Open {
			return apperr.New(apperr.CodeEarnClosed)
		}
		if least, _ := units(pr.MinAmount, prec); o.amount < least {
			return apperr.New(apperr.CodeEarnBelowMin, pr.MinAmount.StringFixed(prec)+" "+pr.Coin)
		}
		// Yesterday is settled first: a standard redemption it pays out is
		// in spot before this takes from it.
		p, err := s.settled(ctx, uid, pr)
		if err != nil {
			return busy(err)
		}
		if left, err := capLeft(pr, p); err != nil {
			return internal(err)
		} else if left >= 0 && o.amount > left {
			return apperr.New(apperr.CodeEarnAboveCap, fixed(left, prec)+" "+pr.Coin)
		}
		return nil
	})
}

// finishSubscribe takes a pending subscription's amount from spot (again:
// idempotent by its reference) and puts it into the position.
func (s *Service) finishSubscribe(ctx context.Context, o *op, prec int32) error {
	if err := s.takeFromSpot(ctx, o, prec, ReasonSubscribe); err != nil {
		return err
	}
	pr, err := s.loadProduct(ctx, o.prod)
	if err != nil {
		return internal(err)
	}
	for range maxAttempts {
		p, err := s.settled(ctx, o.uid, pr)
		if err != nil {
			return busy(err)
		}
		today := DayOf(s.now())
		amount := amountOf(o.amount, prec)
		if left, err := capLeft(pr, p); err != nil {
			return internal(err)
		} else if left >= 0 && o.amount > left {
			// Another subscription took the room meanwhile: the amount
			// goes back to spot and the op ends failed.
			return s.refund(ctx, o, prec)
		}
		p.fresh += o.amount
		p.freshDay = today
		p.amt += o.amount
		if err := p.check(); err != nil {
			return internal(err)
		}
		at := s.now().UnixMilli()
		_, err = s.led.Post(ctx, earnPosting(o.ref()+":in", ReasonSubscribe, o,
			[]ledger.Leg{ledger.Move(spotfunds.TransitAccount(), earnAccount(o.uid), o.coin, amount)},
			[]store.Op{p.putOp(), o.doneOp(opSuccess),
				store.PutOp(logItem(o.uid, logEntry{ID: o.id, Type: LogSubscribe, Product: o.prod, Coin: o.coin, Amount: amount.StringFixed(prec), Day: today, At: at}), nil)}))
		switch {
		case err == nil:
			o.status = opSuccess
			return nil
		case errors.Is(err, ledger.ErrIDConflict):
			return internal(err)
		case errors.Is(err, store.ErrConditionFailed):
			// The position changed, or the op finished meanwhile.
			cur, gerr := s.st.Get(ctx, o.key())
			if gerr != nil {
				return internal(gerr)
			}
			if st := cur.Str("status"); st != opPending {
				o.status = st
				return nil
			}
			continue
		default:
			return internal(err)
		}
	}
	return apperr.New(apperr.CodeEarnBusy)
}

// takeFromSpot is the first money step of a pending subscription or
// stake: its amount from spot to transit (again: idempotent by the op's
// reference). A short balance removes the op: nothing moved.
func (s *Service) takeFromSpot(ctx context.Context, o *op, prec int32, reason string) error {
	m := spotfunds.Move{Ref: o.ref(), UID: o.uid, Coin: o.coin, Amount: amountOf(o.amount, prec), Other: spotfunds.TransitAccount(), Reason: reason}
	switch err := s.funds.Debit(ctx, m); {
	case errors.Is(err, spotfunds.ErrInsufficient):
		if err := s.st.Delete(ctx, o.key(), store.Eq("status", opPending)); err != nil && !errors.Is(err, store.ErrConditionFailed) {
			return internal(err)
		}
		return apperr.New(apperr.CodeWalletInsufficient)
	case errors.Is(err, spotfunds.ErrConflict):
		return apperr.New(apperr.CodeEarnRequestReused)
	case err != nil:
		return internal(fmt.Errorf("earn: %s debit: %w", o.ref(), err))
	}
	return nil
}

// refund gives a subscription's amount back to spot: transit → spot, and
// the op ends failed.
func (s *Service) refund(ctx context.Context, o *op, prec int32) error {
	err := s.funds.Credit(ctx, spotfunds.Move{Ref: o.ref() + ":back", UID: o.uid, Coin: o.coin, Amount: amountOf(o.amount, prec),
		Other: spotfunds.TransitAccount(), Reason: ReasonRefund})
	if err != nil {
		return internal(fmt.Errorf("earn: %s refund: %w", o.ref(), err))
	}
	return s.markDone(ctx, o, opFailed)
}

// RedeemInput is savings/release.
type RedeemInput struct {
	Product, Coin, Amount string
	// Type is RedeemFast or RedeemStandard (empty: fast).
	Type      string
	RequestID string
}

// Redeem takes an amount out of a savings product: fast, into spot at
// once without the day's interest on it; standard, with the day's
// settlement (the next UTC day), interest included.
func (s *Service) Redeem(ctx context.Context, uid string, in RedeemInput) (OpResult, error) {
	kind := strings.ToLower(strings.TrimSpace(in.Type))
	if kind == "" {
		kind = RedeemFast
	}
	if kind != RedeemFast && kind != RedeemStandard {
		return OpResult{}, apperr.New(apperr.CodeEarnRedeemType)
	}
	pr, o, err := s.request(ctx, uid, kind, in.Product, in.Coin, in.Amount, in.RequestID)
	if err != nil {
		return OpResult{}, err
	}
	prec, amount := pr.coin.Precision, o.amount
	if it, ok, err := s.findOp(ctx, o); err != nil {
		return OpResult{}, internal(err)
	} else if ok {
		return s.again(ctx, o, it, prec)
	}
	for range maxAttempts {
		p, err := s.settled(ctx, uid, pr)
		if err != nil {
			return OpResult{}, busy(err)
		}
		today := DayOf(s.now())
		if p.amt == 0 {
			return OpResult{}, apperr.New(apperr.CodeEarnNothingHeld)
		}
		if amount > p.redeemable() {
			return OpResult{}, apperr.New(apperr.CodeEarnRedeemTooMuch, fixed(p.redeemable(), prec)+" "+pr.Coin)
		}
		at := s.now().UnixMilli()
		o.ctime, o.day = at, today
		amt := amountOf(amount, prec)
		var legs []ledger.Leg
		logType := LogRedeemFast
		if kind == RedeemFast {
			// What came in today goes first: it earns nothing yet.
			f := min(amount, p.fresh)
			p.fresh -= f
			p.elig -= amount - f
			p.amt -= amount
			o.status = opPending
			legs = []ledger.Leg{ledger.Move(earnAccount(uid), spotfunds.TransitAccount(), pr.Coin, amt)}
		} else {
			p.red += amount
			p.redDay = today
			o.status = opSuccess
			logType = LogRedeemStandard
			legs = []ledger.Leg{ledger.HoldLeg(earnAccount(uid), pr.Coin, amt)}
		}
		if err := p.check(); err != nil {
			return OpResult{}, internal(err)
		}
		_, err = s.led.Post(ctx, earnPosting(o.ref()+":out", ReasonRedeem, o, legs, []store.Op{p.putOp(),
			store.PutOp(o.item(prec), store.ItemNotExists()),
			store.PutOp(logItem(uid, logEntry{ID: o.id, Type: logType, Product: pr.ID, Coin: pr.Coin, Amount: amt.StringFixed(prec), Day: today, At: at}), nil)}))
		switch {
		case errors.Is(err, ledger.ErrInsufficient):
			return OpResult{}, internal(fmt.Errorf("earn: position %s/%s holds more than its earn balance: %w", uid, pr.ID, err))
		case errors.Is(err, store.ErrConditionFailed), errors.Is(err, ledger.ErrIDConflict):
			if it, ok, gerr := s.findOp(ctx, o); gerr == nil && ok {
				return s.again(ctx, o, it, prec)
			}
			continue
		case err != nil:
			return OpResult{}, internal(err)
		}
		if kind == RedeemFast {
			if err := s.finishOp(context.WithoutCancel(ctx), o, prec); err != nil {
				// The amount left earn; its credit is finished by Resume.
				s.log.Warn().Err(err).Str("op", o.id).Msg("savings redemption credit left for the resume run")
			}
		}
		r := opAnswer(o, prec, false)
		if kind == RedeemStandard {
			r.ArriveDate = DayString(today + 1)
		}
		return r, nil
	}
	return OpResult{}, apperr.New(apperr.CodeEarnBusy)
}

// SetAuto turns auto-subscribe of a product on or off for the user. When
// on, every day after the day's settlement the user's available spot
// balance of the coin (what open orders and pending withdrawals do not
// hold) is subscribed, within the product's cap.
func (s *Service) SetAuto(ctx context.Context, uid, productID, coin string, on bool) error {
	if uid == "" {
		return apperr.New(apperr.CodeNotSignedIn)
	}
	pr, err := s.openProduct(ctx, productID, coin)
	if err != nil {
		return err
	}
	if on && !pr.Open {
		return apperr.New(apperr.CodeEarnClosed)
	}
	for range maxAttempts {
		p, err := s.settled(ctx, uid, pr)
		if err != nil {
			return busy(err)
		}
		today := DayOf(s.now())
		if p.auto == on {
			return nil
		}
		p.auto = on
		// The first sweep runs after tomorrow's settlement.
		p.autoDay = today - 1
		err = s.st.Put(ctx, p.item(), store.VersionIs(p.ver))
		if errors.Is(err, store.ErrConditionFailed) {
			continue
		}
		if err != nil {
			return internal(err)
		}
		return nil
	}
	return apperr.New(apperr.CodeEarnBusy)
}
