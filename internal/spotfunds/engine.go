package spotfunds

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"tenger/internal/engine"
	"tenger/internal/ledger"
	"tenger/internal/projector"
	"tenger/internal/risk"
)

// Submitter applies an engine command and answers once the store
// projection shows it (spot.Runtime; in AWS the engine task's private
// endpoint), so that what the caller reads next includes it.
type Submitter interface {
	SubmitProjected(ctx context.Context, c engine.Command) (engine.Result, error)
}

// Engine moves spot balances by engine commands. Each carries in its note
// what the store projection needs to post the other side (Counter).
type Engine struct {
	Submit Submitter
	// Decimals is a coin's engine unit (spot.EngineDecimals); ok is false
	// for a coin the engine does not list.
	Decimals func(coin string) (int32, bool)
}

var _ Funds = Engine{}

// note is what a money command carries for the projection.
type note struct {
	Other  *ledger.Account `json:"o,omitempty"`
	Fee    int64           `json:"f,omitempty"`
	Reason string          `json:"r,omitempty"`
}

func (e Engine) units(m Move, v decimal.Decimal) (int64, error) {
	d, ok := e.Decimals(m.Coin)
	if !ok {
		return 0, fmt.Errorf("%w: coin %s is not listed in the engine", ErrInvalid, m.Coin)
	}
	u := v.Shift(d)
	if !u.IsInteger() || u.GreaterThan(decimal.NewFromInt(1<<62)) {
		return 0, fmt.Errorf("%w: %s %s is finer than the engine's unit or too large", ErrInvalid, v, m.Coin)
	}
	return u.IntPart(), nil
}

func (e Engine) submit(ctx context.Context, kind engine.Kind, m Move, withOther bool) error {
	amount, err := e.units(m, m.Amount)
	if err != nil {
		return err
	}
	n := note{Reason: m.Reason}
	if withOther {
		o := m.Other
		n.Other = &o
	}
	if m.Fee.IsPositive() {
		if n.Fee, err = e.units(m, m.Fee); err != nil {
			return err
		}
	}
	b, err := json.Marshal(n)
	if err != nil {
		return err
	}
	res, err := e.Submit.SubmitProjected(ctx, engine.Command{Kind: kind, Ref: m.Ref, User: engine.UserNumber(m.UID),
		UserID: m.UID, Account: risk.KindSpot, Coin: m.Coin, Amount: amount, Note: b})
	if err != nil {
		return err
	}
	return answer(res, kind, m.Ref)
}

// answer is the error of an engine's answer to a money command.
func answer(res engine.Result, kind engine.Kind, ref string) error {
	switch res.Code {
	case engine.OK, engine.Exists:
		return nil
	case engine.Insufficient:
		return ErrInsufficient
	case engine.Conflict:
		return ErrConflict
	case engine.UnknownHold:
		return ErrNoHold
	case engine.UnknownCoin, engine.Invalid:
		return fmt.Errorf("%w: the engine answered %s", ErrInvalid, res.Code)
	}
	return fmt.Errorf("spotfunds: the engine answered %s to %s %s", res.Code, kind, ref)
}

// Credit implements Funds.
func (e Engine) Credit(ctx context.Context, m Move) error {
	if err := m.check(false); err != nil {
		return err
	}
	return e.submit(ctx, engine.KindCredit, m, true)
}

// Debit implements Funds.
func (e Engine) Debit(ctx context.Context, m Move) error {
	if err := m.check(false); err != nil {
		return err
	}
	return e.submit(ctx, engine.KindDebit, m, true)
}

// Hold implements Funds.
func (e Engine) Hold(ctx context.Context, m Move) error {
	if err := m.check(true); err != nil {
		return err
	}
	m.Fee = decimal.Zero
	return e.submit(ctx, engine.KindHold, m, false)
}

// Settle implements Funds.
func (e Engine) Settle(ctx context.Context, m Move) error {
	if err := m.check(false); err != nil {
		return err
	}
	return e.submit(ctx, engine.KindSettle, m, true)
}

// Release implements Funds.
func (e Engine) Release(ctx context.Context, m Move) error {
	if err := m.check(true); err != nil {
		return err
	}
	m.Fee = decimal.Zero
	return e.submit(ctx, engine.KindRelease, m, false)
}

// Futures implements Funds.
func (e Engine) Futures(ctx context.Context, m Move, in bool) error {
	if err := m.check(true); err != nil {
		return err
	}
	amount, err := e.units(m, m.Amount)
	if err != nil {
		return err
	}
	to := risk.KindSpot
	if in {
		to = risk.KindFutures
	}
	res, err := e.Submit.SubmitProjected(ctx, engine.Command{Kind: engine.KindFutTransfer, Ref: m.Ref, User: engine.UserNumber(m.UID),
		UserID: m.UID, Account: to, Coin: m.Coin, Amount: amount})
	if err != nil {
		return err
	}
	return answer(res, engine.KindFutTransfer, m.Ref)
}

// Counter names the other sides of the money commands Engine sends, for
// the store projection (projector.Options.Counter): a credit's source, a
// debit's destination, a settled hold's destination and fee account.
func Counter(c *engine.Command) ([]projector.Side, error) {
	var n note
	if err := json.Unmarshal(c.Note, &n); err != nil {
		return nil, fmt.Errorf("spotfunds: note of %s: %w", c.Ref, err)
	}
	if n.Other == nil {
		return nil, errors.New("spotfunds: the note names no other account")
	}
	if n.Fee < 0 || n.Fee > c.Amount {
		return nil, fmt.Errorf("spotfunds: note of %s: fee %d of %d", c.Ref, n.Fee, c.Amount)
	}
	if c.Kind != engine.KindSettle || n.Fee == 0 {
		return []projector.Side{{Account: *n.Other, Units: c.Amount}}, nil
	}
	sides := []projector.Side{{Account: ledger.FeeAccount(), Units: n.Fee}}
	if net := c.Amount - n.Fee; net > 0 {
		sides = append([]projector.Side{{Account: *n.Other, Units: net}}, sides...)
	}
	return sides, nil
}
