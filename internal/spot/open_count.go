package spot

import (
	"context"

	"tenger/internal/store"
)

// CountOpenOrders counts the user's open orders in the store (the open
// orders index, as ListOpenOrders reads it). It needs no engine, so a
// process that only reads the store (the profile function, which checks
// whether an account may be closed) can ask it: the store shows every
// order the engine acknowledged, within the projection's lag.
func CountOpenOrders(ctx context.Context, st store.Store, uid string) (int, error) {
	q := store.Query{Index: store.IndexGSI2, PK: pkOpen + uid, Limit: 500}
	n := 0
	for {
		page, err := st.Query(ctx, q)
		if err != nil {
			return 0, err
		}
		for _, it := range page.Items {
			if orderFromItem(it).Status.Open() {
				n++
			}
		}
		if page.Cursor == "" {
			return n, nil
		}
		q.Cursor = page.Cursor
	}
}
