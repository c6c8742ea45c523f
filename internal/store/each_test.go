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

// TestFailedCondition: a transaction's failed condition is told by the
// name of its operation.
func TestFailedCondition(t *testing.T) {
	ctx := context.Background()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Put(ctx, store.Item{store.AttrPK: "P", store.AttrSK: "a", "v": 1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Put(ctx, store.Item{store.AttrPK: "P", store.AttrSK: "c", "v": 1}, nil); err != nil {
		t.Fatal(err)
	}
	ops := func(ver int) []store.Op {
		return []store.Op{
			store.CheckOp(store.Key{PK: "P", SK: "a"}, store.ItemExists()).Named("exists"),
			store.PutOp(store.Item{store.AttrPK: "P", store.AttrSK: "b"}, nil),
			store.UpdateOp(store.Key{PK: "P", SK: "c"}, store.NewUpdate().Set("v", 2), store.Eq("v", ver)).Named("version"),
		}
	}
	stale := ops(0)
	err = st.Transact(ctx, stale)
	if name, ok := store.FailedCondition(err, stale); !ok || name != "version" {
		t.Fatalf("stale version: %q %v (%v)", name, ok, err)
	}
	fresh := ops(1)
	err = st.Transact(ctx, fresh)
	if name, ok := store.FailedCondition(err, fresh); ok || err != nil {
		t.Fatalf("a transaction that went through: %q %v", name, err)
	}
}
