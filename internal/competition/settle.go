package competition

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// Settlement is what Settle did.
type Settlement struct {
	CompetitionID string
	// Winners are the prizes, each paid now or before (Settle pays each
	// once, by its reference).
	Winners []Winner
	// Total is their sum, from the treasury account.
	Total decimal.Decimal
	// FinalAt is when the final ranking was worked out.
	FinalAt   int64
	SettledAt int64
}

// PrizeRef is the reference of a winner's prize credit: one per
// competition and user, so crediting it again pays nothing more.
func PrizeRef(id, uid string) string { return "competition:" + id + ":" + uid }

// Settle pays an ended competition's prizes: after the final refresh
// (run now when none ran yet) each winner's prize is credited to their
// spot account from the treasury account, then the competition is marked
// settled, only once every credit has answered. A settle stopped part-way
// is finished by the next, the credits made before answering "done";
// once settled it answers CodeCompetitionSettled and pays nothing.
func (s *Service) Settle(ctx context.Context, id string) (Settlement, error) {
	c, err := s.Get(ctx, id)
	if err != nil {
		return Settlement{}, err
	}
	now := s.o.Now()
	switch c.State(now) {
	case StateSettled:
		return Settlement{}, apperr.New(apperr.CodeCompetitionSettled)
	case StateUpcoming, StateRunning:
		return Settlement{}, apperr.New(apperr.CodeCompetitionNotEnded)
	}
	st, err := s.settle(ctx, c, now)
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) {
			return Settlement{}, err
		}
		return Settlement{}, internal(err)
	}
	return st, nil
}

// settle finalizes an ended competition when it is not yet and pays its
// winners.
func (s *Service) settle(ctx context.Context, c Competition, now time.Time) (Settlement, error) {
	at, win, ok, err := s.final(ctx, c.ID)
	if err != nil {
		return Settlement{}, err
	}
	if !ok {
		if err := s.finalize(ctx, c, now); err != nil {
			return Settlement{}, fmt.Errorf("final refresh: %w", err)
		}
		if at, win, ok, err = s.final(ctx, c.ID); err != nil {
			return Settlement{}, err
		}
		if !ok {
			return Settlement{}, errors.New("final refresh wrote no final marker")
		}
	}
	total := decimal.Zero
	for _, w := range win {
		total = total.Add(w.Amount)
	}
	if len(win) > 0 && s.o.Funds == nil {
		return Settlement{}, errors.New("no funds port to pay prizes with")
	}
	for _, w := range win {
		err := s.o.Funds.Credit(ctx, spotfunds.Move{Ref: PrizeRef(c.ID, w.UID), UID: w.UID, Coin: c.Coin, Amount: w.Amount,
			Other: s.o.Treasury, Reason: PrizeReason})
		if err != nil {
			return Settlement{}, fmt.Errorf("prize of rank %d (user %s): %w", w.Rank, w.UID, err)
		}
		// Shown to the winner; the credit's reference is what pays once.
		if _, err := s.o.Store.Update(ctx, participantKey(c.ID, w.UID), store.NewUpdate().Set("prize", w.Amount.String()).
			SetIfMissing("paidAt", s.o.Now().UnixMilli()), store.ItemExists()); err != nil {
			return Settlement{}, fmt.Errorf("prize of rank %d (user %s) paid, not recorded: %w", w.Rank, w.UID, err)
		}
	}
	settledAt := s.o.Now().UnixMilli()
	after, err := s.o.Store.Update(ctx, compKey(c.ID), store.NewUpdate().Set("settledAt", settledAt).Set("paid", total.String()).
		Remove(store.AttrGSI2PK).Remove(store.AttrGSI2SK), store.And(store.ItemExists(), store.NotExists("settledAt")))
	switch {
	case errors.Is(err, store.ErrConditionFailed):
		// Settled meanwhile by a concurrent settle (the same credits).
		cur, gerr := s.Get(ctx, c.ID)
		if gerr != nil {
			return Settlement{}, gerr
		}
		settledAt = cur.SettledAt
	case err != nil:
		return Settlement{}, err
	default:
		settledAt = after.Int("settledAt")
		s.o.Log.Info().Str("competition", c.ID).Int("winners", len(win)).Str("paid", total.String()).Msg("competition settled")
	}
	return Settlement{CompetitionID: c.ID, Winners: win, Total: total, FinalAt: at, SettledAt: settledAt}, nil
}
