package deposit

import (
	"context"
	"testing"

	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// CountConfirming counts the user's deposits still confirming, and
// nobody else's.
func TestCountConfirming(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	put := func(id, uid, status string) {
		t.Helper()
		k := depositKey(id)
		if err := st.Put(ctx, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "id": id, "uid": uid, "status": status,
			store.AttrGSI1PK: "DEPHIST#" + uid, store.AttrGSI1SK: histSK(1, id)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	put("a", "u1", StatusConfirming)
	put("b", "u1", StatusCredited)
	put("c", "u1", StatusBelowMin)
	put("d", "u2", StatusConfirming)
	if n, err := CountConfirming(ctx, st, "u1"); err != nil || n != 1 {
		t.Fatalf("u1: %d %v", n, err)
	}
}
