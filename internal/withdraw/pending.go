package withdraw

import (
	"context"

	"tenger/internal/store"
)

// CountPending counts the user's withdrawals still on their way (PENDING
// or PROCESSING), over the whole history rather than the 180 days the
// history shows: a withdrawal stuck for longer still holds the user's
// money. It reads only the store, so a process without the withdrawal
// service (the profile function, which checks whether an account may be
// closed) can ask it.
func CountPending(ctx context.Context, st store.Store, uid string) (int, error) {
	q := store.Query{Index: store.IndexGSI1, PK: "WDHIST#" + uid, Limit: 500}
	n := 0
	for {
		page, err := st.Query(ctx, q)
		if err != nil {
			return 0, err
		}
		for _, it := range page.Items {
			if s := it.Str("status"); it.Str("uid") == uid && (s == StatusPending || s == StatusProcessing) {
				n++
			}
		}
		if page.Cursor == "" {
			return n, nil
		}
		q.Cursor = page.Cursor
	}
}
