package ledger

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// The engine owns the balances orders can hold (package engine) and a
// projector writes them into the store behind it. These are the ledger's
// items as the projector writes them, so reads, the audit and the rest of
// the ledger see one format: a balance's absolute value (nothing else
// writes the balances of engine-owned accounts), and one posting per
// projected batch whose legs move every change through the clearing
// account, so per coin it nets to zero there and Audit's replay of the
// postings proves the projected balances.

// EngineFeeAccount collects the trading fees the engine charges; the
// engine writes its balance (withdrawal fees stay on FeeAccount, which
// the ledger writes).
func EngineFeeAccount() Account { return Account{Owner: SystemOwner, Kind: Fees, Sub: "engine"} }

// FuturesFeeAccount collects the fees of futures trades (the engine
// writes it: its futures account, as EngineFeeAccount is its spot one).
func FuturesFeeAccount() Account { return Account{Owner: SystemOwner, Kind: Fees, Sub: "futures"} }

// ClearingAccount is the projection's clearing account.
func ClearingAccount() Account { return Account{Owner: SystemOwner, Kind: Clearing} }

// SetBalanceOp writes a balance's absolute value, with the attributes a
// balance item has (owner, kind, sub, coin, the per-coin audit index).
func SetBalanceOp(a Account, coin string, avail, frozen decimal.Decimal) store.Op {
	pk, sk := balanceKeyParts(a, coin)
	return store.PutOp(store.Item{store.AttrPK: pk, store.AttrSK: sk,
		string(Available): avail, string(Frozen): frozen,
		"owner": a.Owner, "kind": string(a.Kind), "sub": a.Sub, "coin": coin,
		store.AttrGSI1PK: "BALCOIN#" + coin, store.AttrGSI1SK: a.Owner + "#" + string(a.Kind) + "#" + a.Sub,
	}, nil)
}

// MaxProjectionLegs bounds the legs of one projected posting record (its
// item stays far below the store's 400 KB).
const MaxProjectionLegs = 2000

// PostingOps returns the writes of a projected posting: its record, on
// condition that it is new, and an update of every balance it moves that
// written(account) says the projector does not write absolutely (the
// other sides of the engine's money commands: chain, bank and fee
// accounts, a user's OTC account), by the posting's net amount and without
// conditions (they are checked where the money comes from). Commit them in
// one transaction: a projected batch written twice moves those balances
// once, its condition failing the second time.
func PostingOps(id, reason string, legs []Leg, meta map[string]string, at time.Time, written func(Account) bool) ([]store.Op, error) {
	if len(legs) == 0 || len(legs) > MaxProjectionLegs {
		return nil, fmt.Errorf("%w: %d legs in one projected posting", ErrInvalid, len(legs))
	}
	// Validated as postings of at most MaxLegs legs each: the rules are
	// the same, only the count differs.
	for i := 0; i < len(legs); i += MaxLegs {
		if err := validate(Posting{ID: id, Reason: reason, Legs: legs[i:min(i+MaxLegs, len(legs))]}); err != nil {
			return nil, err
		}
	}
	ops := []store.Op{store.PutOp(recordItem(Posting{ID: id, Reason: reason, Legs: legs, Meta: meta}, at.UnixMilli()),
		store.ItemNotExists())}
	for _, d := range mergeLegs(legs) {
		if written(d.acct) || (d.avail.IsZero() && d.frozen.IsZero()) {
			continue
		}
		ops = append(ops, balanceOp(d, decimal.Zero, decimal.Zero, false))
	}
	return ops, nil
}
