package withdraw

import (
	"context"
	"testing"

	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// CountPending counts the user's PENDING and PROCESSING withdrawals, at
// any age, and nobody else's.
func TestCountPending(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	put := func(id, uid, status string, created int64) {
		t.Helper()
		if err := st.Put(ctx, store.Item{store.AttrPK: "WD#" + id, store.AttrSK: "WD", "id": id, "uid": uid, "status": status,
			store.AttrGSI1PK: "WDHIST#" + uid, store.AttrGSI1SK: "0000000000001#" + id}, nil); err != nil {
			t.Fatal(err)
		}
	}
	put("a", "u1", StatusPending, 1)
	put("b", "u1", StatusProcessing, 2)
	put("c", "u1", StatusSuccess, 3)
	put("d", "u1", StatusFailed, 4)
	put("e", "u2", StatusPending, 5)
	if n, err := CountPending(ctx, st, "u1"); err != nil || n != 2 {
		t.Fatalf("u1: %d %v", n, err)
	}
	if n, err := CountPending(ctx, st, "u3"); err != nil || n != 0 {
		t.Fatalf("u3: %d %v", n, err)
	}
}
