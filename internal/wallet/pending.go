package wallet

import (
	"context"

	"tenger/internal/store"
)

// CountPendingTransfers counts the user's transfers between accounts that
// are still between their two steps: their money is in the transit
// account, in none of the user's balances, until ResumeTransfers (or a
// retry) finishes them. It reads only the user's own partition of the
// store, so a process without the wallet service (the profile function,
// which checks whether an account may be closed) can ask it.
func CountPendingTransfers(ctx context.Context, st store.Store, uid string) (int, error) {
	q := store.Query{PK: walletPK(uid), SK: store.SKPrefixed("XFER#"), Limit: 500}
	n := 0
	for {
		page, err := st.Query(ctx, q)
		if err != nil {
			return 0, err
		}
		for _, it := range page.Items {
			if statusOf(it) == TransferPending {
				n++
			}
		}
		if page.Cursor == "" {
			return n, nil
		}
		q.Cursor = page.Cursor
	}
}
