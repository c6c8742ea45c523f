package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// TestEachLive: every page is read, items whose TTL has passed are left
// out, items without a TTL kept.
func TestEachLive(t *testing.T) {
	ctx := context.Background()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	for sk, ttl := range map[string]int64{"a": now.Add(time.Hour).Unix(), "b": now.Unix(), "c": 0, "d": now.Add(time.Second).Unix()} {
		it := store.Item{store.AttrPK: "P", store.AttrSK: sk}
		if ttl != 0 {
			it[store.AttrTTL] = ttl
		}
		if err := st.Put(ctx, it, nil); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	if err := store.EachLive(ctx, st, store.Query{PK: "P", Limit: 1}, now, func(it store.Item) { got = append(got, it.Str(store.AttrSK)) }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"a", "c", "d"}) {
		t.Fatalf("got %q", got)
	}
}
