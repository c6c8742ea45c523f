package deposit

import (
	"context"

	"tenger/internal/store"
)

// CountConfirming counts the user's chain deposits still waiting for
// their confirmations: each will be credited once it has them. It reads
// only the store (the profile function checks with it whether an account
// may be closed).
func CountConfirming(ctx context.Context, st store.Store, uid string) (int, error) {
	q := store.Query{Index: store.IndexGSI1, PK: "DEPHIST#" + uid, Limit: 500}
	n := 0
	for {
		page, err := st.Query(ctx, q)
		if err != nil {
			return 0, err
		}
		for _, it := range page.Items {
			if it.Str("uid") == uid && it.Str("status") == StatusConfirming {
				n++
			}
		}
		if page.Cursor == "" {
			return n, nil
		}
		q.Cursor = page.Cursor
	}
}
