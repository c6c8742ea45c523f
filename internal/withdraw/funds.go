package withdraw

import (
	"context"
	"errors"
	"fmt"

	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// A withdrawal's money and its record are written in separate steps (a
// spotfunds call cannot share the record's store transaction). The record
// orders them:
//
//   - whoever makes the hold (the submit, the Hold step) then marks the
//     record held, on condition that it is still open; when it is not (it
//     failed meanwhile), the hold is given back at once;
//   - whoever finds the balance short fails the record on condition that
//     it is PENDING and not marked held, then gives back whatever a
//     concurrent holder may have made before marking it.
//
// So a withdrawal the workflow goes on to send is held and open, and one
// failed for a short balance keeps nothing held.

// holdRef names a withdrawal's hold in spotfunds: its Hold, its Settle and
// its Release carry the same Ref.
func holdRef(id string) string { return "withdraw:" + id }

// The reasons of the money calls (postings' reasons). They are fixed per
// call: a retry must carry the same fields as the first call.
const (
	reasonHold    = "withdraw_hold"
	reasonSettle  = "withdraw"
	reasonRelease = "withdraw_release"
)

func holdMove(r Record) spotfunds.Move {
	return spotfunds.Move{Ref: holdRef(r.ID), UID: r.UID, Coin: r.Coin, Amount: r.Amount, Reason: reasonHold}
}

func releaseMove(r Record) spotfunds.Move {
	return spotfunds.Move{Ref: holdRef(r.ID), UID: r.UID, Coin: r.Coin, Amount: r.Amount, Reason: reasonRelease}
}

func (st *Steps) settleMove(r Record) spotfunds.Move {
	return spotfunds.Move{Ref: holdRef(r.ID), UID: r.UID, Coin: r.Coin, Amount: r.Amount, Fee: r.Fee,
		Other: st.counterparty(r), Reason: reasonSettle}
}

// hold makes the withdrawal's hold (idempotent: nil when it was made
// before) and answers the record as it is afterwards: open and held, or
// FAILED with nothing held (the balance was short, or the withdrawal failed
// meanwhile). Another error leaves the record as it was.
func (s *Service) hold(ctx context.Context, r Record) (Record, error) {
	err := s.o.Funds.Hold(ctx, holdMove(r))
	switch {
	case errors.Is(err, spotfunds.ErrInsufficient):
		return s.failUnheld(ctx, r)
	case err != nil:
		return r, err
	}
	_, err = s.o.Store.Update(ctx, wdKey(r.ID), store.NewUpdate().Set("held", true), openStatus)
	if err == nil {
		return r, nil
	}
	if !errors.Is(err, store.ErrConditionFailed) {
		return r, err
	}
	cur, err := s.Get(ctx, r.ID)
	if err != nil {
		return r, err
	}
	if cur.Status == StatusFailed {
		// Failed while this hold was being made: give it back.
		if err := s.releaseFailed(ctx, cur); err != nil {
			return cur, err
		}
	}
	return cur, nil
}

// failUnheld fails a PENDING withdrawal whose hold the balance could not
// cover, unless a concurrent holder marked it held first, and answers the
// record as it is afterwards.
func (s *Service) failUnheld(ctx context.Context, r Record) (Record, error) {
	cond := store.And(store.Eq("status", StatusPending), store.NotExists("held"))
	r, changed, err := s.finish(ctx, r, StatusFailed, ReasonInsufficient, cond)
	if err != nil {
		return r, err
	}
	if changed {
		// A concurrent submit or Hold step may have made the hold before
		// it could mark it: give it back (ErrNoHold when none was made).
		if err := s.releaseFailed(ctx, r); err != nil {
			return r, err
		}
	}
	return r, nil
}

// releaseFailed gives back whatever is held for a FAILED withdrawal.
func (s *Service) releaseFailed(ctx context.Context, r Record) error {
	err := s.o.Funds.Release(ctx, releaseMove(r))
	if err == nil || errors.Is(err, spotfunds.ErrNoHold) {
		return nil
	}
	if errors.Is(err, spotfunds.ErrConflict) {
		s.o.Log.Error().Str("withdrawal", r.ID).Msg("a FAILED withdrawal's hold was settled")
	}
	return fmt.Errorf("withdraw: %s: release: %w", r.ID, err)
}

// finish ends an open withdrawal (SUCCESS, or FAILED with reason) on
// condition cond, and answers the record as it is afterwards and whether
// this call ended it; when the condition failed, the record as another
// step or submit left it.
func (s *Service) finish(ctx context.Context, r Record, status, reason string, cond store.Cond) (Record, bool, error) {
	now := s.o.Now().UnixMilli()
	upd := store.NewUpdate().Set("status", status).Set("updated", now)
	if status == StatusFailed {
		reason = clip(reason, 200)
		upd.Set("reason", reason)
	}
	_, err := s.o.Store.Update(ctx, wdKey(r.ID), upd, cond)
	if errors.Is(err, store.ErrConditionFailed) {
		cur, err := s.Get(ctx, r.ID)
		return cur, false, err
	}
	if err != nil {
		return r, false, err
	}
	r.Status, r.Updated = status, now
	if status == StatusFailed {
		r.Reason = reason
	}
	s.o.Log.Info().Str("withdrawal", r.ID).Str("status", status).Str("reason", reason).Msg("withdrawal ended")
	s.notify(ctx, r)
	return r, true, nil
}
