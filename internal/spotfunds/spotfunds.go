// Package spotfunds moves money into, out of and within users' spot
// balances: a deposit's credit, a withdrawal's hold and its settlement or
// release, a transfer between the spot account and another of the user's
// accounts. The spot account is the one orders trade against, so its
// balances have one writer: the engine (package engine) when it owns them
// (Engine), the store ledger in the design before it (Ledger). Callers
// write for both: every call is idempotent by its Ref, and the domain
// record a call belongs to (a deposit, a withdrawal, a transfer) is written
// by the caller in its own step, before or after the call, never in the
// same transaction, so that a process dying between the two steps is
// repaired by doing them again.
package spotfunds

import (
	"context"
	"errors"

	"github.com/shopspring/decimal"

	"tenger/internal/ledger"
)

// Move is one money command on a user's spot balance.
type Move struct {
	// Ref is the idempotency id ("deposit:<id>", "withdraw:<id>",
	// "transfer:<id>"): a retry with the same fields does nothing again
	// and answers nil; one with other fields answers ErrConflict. A hold
	// is named by its Ref, and its Settle or Release carry the same Ref.
	Ref    string
	UID    string
	Coin   string
	Amount decimal.Decimal
	// Other is the account on the other side: where a credit comes from,
	// where a debit goes, where a settled hold is paid (all of it but Fee).
	Other ledger.Account
	// Fee is the part of a settled hold paid to the fee account.
	Fee decimal.Decimal
	// Reason says why (the ledger posting's reason: "deposit",
	// "transfer", "withdraw" ...).
	Reason string
}

// Funds moves money on users' spot balances.
type Funds interface {
	// Credit adds Amount to the user's available balance from Other.
	Credit(ctx context.Context, m Move) error
	// Debit takes Amount from the available balance to Other
	// (ErrInsufficient when it is short).
	Debit(ctx context.Context, m Move) error
	// Hold freezes Amount under Ref (ErrInsufficient when short).
	Hold(ctx context.Context, m Move) error
	// Settle pays the hold of Ref out: Amount (the hold's) less Fee to
	// Other, Fee to the fee account. ErrNoHold when nothing is held under
	// Ref, ErrConflict when the hold was released or is of another amount.
	Settle(ctx context.Context, m Move) error
	// Release gives the hold of Ref back to the available balance.
	// ErrNoHold when nothing was ever held under Ref, ErrConflict when it
	// was settled.
	Release(ctx context.Context, m Move) error
	// Futures moves Amount between the user's spot and futures accounts
	// in one step (both are the engine's): into futures when in, else back
	// to spot (ErrInsufficient when what the account can give is short;
	// out of futures, open positions' losses count against it). Other is
	// not read.
	Futures(ctx context.Context, m Move, in bool) error
}

// Errors of Funds.
var (
	// ErrInsufficient: the available balance cannot cover the amount.
	ErrInsufficient = ledger.ErrInsufficient
	// ErrConflict: the Ref was used before with other fields, or the
	// hold it names ended the other way.
	ErrConflict = errors.New("spotfunds: the reference was used for another movement")
	// ErrNoHold: nothing is held under the Ref.
	ErrNoHold = errors.New("spotfunds: nothing is held under the reference")
	// ErrInvalid: a malformed movement (no Ref, a non-positive amount, a
	// fee above the amount, a coin the engine does not list).
	ErrInvalid = errors.New("spotfunds: invalid movement")
)

// TransitAccount holds what moves into a spot account from another
// account of the user between its two steps: the store ledger takes it
// from the other account (checking that balance), then Credit brings it
// in. A non-zero balance there is a transfer to be finished.
func TransitAccount() ledger.Account {
	return ledger.Account{Owner: ledger.SystemOwner, Kind: ledger.Clearing, Sub: "transit"}
}

func (m Move) check(hold bool) error {
	if m.Ref == "" || m.UID == "" || m.Coin == "" || !m.Amount.IsPositive() || m.Fee.IsNegative() || m.Fee.GreaterThan(m.Amount) {
		return ErrInvalid
	}
	if !hold {
		if err := m.Other.Validate(); err != nil {
			return errors.Join(ErrInvalid, err)
		}
		if m.Other.Owner != ledger.SystemOwner && (m.Other.Kind == ledger.Spot || m.Other.Kind == ledger.Futures) {
			// Accounts the engine owns move by its own commands (Futures).
			return ErrInvalid
		}
	}
	return nil
}
