package account

import (
	"context"

	"tenger/internal/deposit"
	"tenger/internal/spot"
	"tenger/internal/store"
	"tenger/internal/wallet"
	"tenger/internal/withdraw"
)

// StorePending counts what is on its way for a user from the store, as
// the packages that own those items lay them out. It needs neither the
// engine nor the wallet's services, so the profile function, which reads
// the store only, answers the check.
type StorePending struct{ Store store.Store }

var _ Pending = StorePending{}

// OpenOrders implements Pending.
func (p StorePending) OpenOrders(ctx context.Context, uid string) (int, error) {
	return spot.CountOpenOrders(ctx, p.Store, uid)
}

// Withdrawals implements Pending.
func (p StorePending) Withdrawals(ctx context.Context, uid string) (int, error) {
	return withdraw.CountPending(ctx, p.Store, uid)
}

// Transfers implements Pending.
func (p StorePending) Transfers(ctx context.Context, uid string) (int, error) {
	return wallet.CountPendingTransfers(ctx, p.Store, uid)
}

// Deposits implements Pending.
func (p StorePending) Deposits(ctx context.Context, uid string) (int, error) {
	return deposit.CountConfirming(ctx, p.Store, uid)
}
