package ledger

import (
	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// UnchangedOp is a transaction's check that a balance still holds what
// was read (b): a caller that decided on the balance (an account closed
// only while its balances are zero) commits it with its change, so a
// posting or a projected batch that moved the balance in between makes
// the change fail instead of being overtaken. A balance item that lacks
// a bucket holds zero there (a balance written only by Add has no frozen
// attribute until something is frozen).
func UnchangedOp(b Balance) store.Op {
	pk, sk := balanceKeyParts(b.Account, b.Coin)
	return store.CheckOp(store.Key{PK: pk, SK: sk},
		store.And(bucketIs(string(Available), b.Available), bucketIs(string(Frozen), b.Frozen)))
}

func bucketIs(attr string, v decimal.Decimal) store.Cond {
	if v.IsZero() {
		return store.Or(store.NotExists(attr), store.Eq(attr, decimal.Zero))
	}
	return store.Eq(attr, v)
}
