package spotfunds

import (
	"context"
	"errors"

	"tenger/internal/ledger"
	"tenger/internal/store"
)

// Ledger moves spot balances through the store ledger: the design before
// the engine owned them, and what runs where no engine does. Each call is
// one posting whose id is the Ref (a hold's end: Ref + ":settle" or
// ":release"); a hold's end also writes a marker item, so that a hold
// ends one way only.
type Ledger struct {
	Led   *ledger.Ledger
	Store store.Store
}

var _ Funds = Ledger{}

func spotAccount(uid string) ledger.Account { return ledger.UserAccount(uid, ledger.Spot) }

func (l Ledger) post(ctx context.Context, p ledger.Posting) error {
	if p.Reason == "" {
		p.Reason = "spot_funds"
	}
	_, err := l.Led.Post(ctx, p)
	switch {
	case errors.Is(err, ledger.ErrIDConflict):
		return errors.Join(ErrConflict, err)
	case errors.Is(err, ledger.ErrInvalid):
		return errors.Join(ErrInvalid, err)
	}
	return err
}

// Credit implements Funds.
func (l Ledger) Credit(ctx context.Context, m Move) error {
	if err := m.check(false); err != nil {
		return err
	}
	return l.post(ctx, ledger.Posting{ID: m.Ref, Reason: m.Reason,
		Legs: []ledger.Leg{ledger.Move(m.Other, spotAccount(m.UID), m.Coin, m.Amount)}})
}

// Debit implements Funds.
func (l Ledger) Debit(ctx context.Context, m Move) error {
	if err := m.check(false); err != nil {
		return err
	}
	return l.post(ctx, ledger.Posting{ID: m.Ref, Reason: m.Reason,
		Legs: []ledger.Leg{ledger.Move(spotAccount(m.UID), m.Other, m.Coin, m.Amount)}})
}

// Futures implements Funds.
func (l Ledger) Futures(ctx context.Context, m Move, in bool) error {
	if err := m.check(true); err != nil {
		return err
	}
	from, to := spotAccount(m.UID), ledger.UserAccount(m.UID, ledger.Futures)
	if !in {
		from, to = to, from
	}
	return l.post(ctx, ledger.Posting{ID: m.Ref, Reason: m.Reason, Legs: []ledger.Leg{ledger.Move(from, to, m.Coin, m.Amount)}})
}

// Hold implements Funds. The posting's meta names the hold, so that its
// end can be checked against it.
func (l Ledger) Hold(ctx context.Context, m Move) error {
	if err := m.check(true); err != nil {
		return err
	}
	return l.post(ctx, ledger.Posting{ID: m.Ref, Reason: m.Reason,
		Legs: []ledger.Leg{ledger.HoldLeg(spotAccount(m.UID), m.Coin, m.Amount)},
		Meta: map[string]string{"hold": "1", "uid": m.UID, "coin": m.Coin, "amount": m.Amount.String()}})
}

// Settle implements Funds.
func (l Ledger) Settle(ctx context.Context, m Move) error {
	if err := m.check(false); err != nil {
		return err
	}
	user := spotAccount(m.UID)
	legs := []ledger.Leg{{From: user, FromBucket: ledger.Frozen, To: m.Other, ToBucket: ledger.Available, Coin: m.Coin,
		Amount: m.Amount.Sub(m.Fee)}}
	if m.Fee.IsPositive() {
		legs = append(legs, ledger.Leg{From: user, FromBucket: ledger.Frozen, To: ledger.FeeAccount(),
			ToBucket: ledger.Available, Coin: m.Coin, Amount: m.Fee})
	}
	if m.Fee.Equal(m.Amount) {
		legs = legs[1:]
	}
	return l.end(ctx, m, "settle", legs)
}

// Release implements Funds.
func (l Ledger) Release(ctx context.Context, m Move) error {
	if err := m.check(true); err != nil {
		return err
	}
	return l.end(ctx, m, "release", []ledger.Leg{ledger.ReleaseLeg(spotAccount(m.UID), m.Coin, m.Amount)})
}

func endKey(ref string) store.Key { return store.Key{PK: "HOLDEND#" + ref, SK: "END"} }

// end settles or releases the hold of m.Ref, once and one way.
func (l Ledger) end(ctx context.Context, m Move, how string, legs []ledger.Leg) error {
	rec, err := l.Led.Lookup(ctx, m.Ref)
	if errors.Is(err, store.ErrNotFound) {
		return ErrNoHold
	}
	if err != nil {
		return err
	}
	if rec.Meta["hold"] != "1" || rec.Meta["uid"] != m.UID || rec.Meta["coin"] != m.Coin || rec.Meta["amount"] != m.Amount.String() {
		return ErrConflict
	}
	k := endKey(m.Ref)
	switch it, err := l.Store.Get(ctx, k); {
	case err == nil && it.Str("how") != how:
		return ErrConflict // ended the other way (its frozen amount is gone)
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return err
	}
	err = l.post(ctx, ledger.Posting{ID: m.Ref + ":" + how, Reason: m.Reason, Legs: legs,
		Extra: []store.Op{store.PutOp(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "how": how}, store.ItemNotExists())}})
	var xf *ledger.ExtraFailedError
	if errors.As(err, &xf) {
		return ErrConflict // the hold ended the other way meanwhile
	}
	if errors.Is(err, ledger.ErrInsufficient) {
		// The frozen amount went meanwhile: the hold ended, this way (a
		// concurrent retry) or the other.
		if it, gerr := l.Store.Get(ctx, k); gerr == nil {
			if it.Str("how") == how {
				return nil
			}
			return ErrConflict
		}
	}
	return err
}
