package storetest

import (
	"testing"

	"tenger/internal/store"
)

func testUpdates(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	k := key("wallet#7", "BTC")

	// Update on a missing item creates it and returns it.
	it, err := s.Update(ctx, k, store.NewUpdate().
		Set("status", "open").
		SetIfMissing("created", 1000).
		Add("available", dec("0.1")), nil)
	if err != nil {
		t.Fatalf("Update creating the item: %v", err)
	}
	want := store.Item{"pk": "wallet#7", "sk": "BTC", "status": "open", "created": dec("1000"), "available": dec("0.1")}
	wantItem(t, it, want)
	wantGet(t, s, want)
	// The returned item belongs to the caller: changing it changes nothing stored.
	it["status"] = "tampered"
	delete(it, "created")
	wantGet(t, s, want)

	// Add is exact decimal arithmetic: 0.1 + 0.2 == 0.3.
	it, err = s.Update(ctx, k, store.NewUpdate().Add("available", dec("0.2")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !it.Dec("available").Equal(dec("0.3")) {
		t.Fatalf("0.1 + 0.2 = %s", it.Dec("available"))
	}
	// Negative deltas, many fractional digits, integer deltas, missing attribute counts as zero.
	it, err = s.Update(ctx, k, store.NewUpdate().
		Add("available", dec("-0.30000001")).
		AddInt("trades", 3).
		Add("frozen", dec("12345678901234.00000001")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !it.Dec("available").Equal(dec("-0.00000001")) || !it.Dec("trades").Equal(dec("3")) ||
		!it.Dec("frozen").Equal(dec("12345678901234.00000001")) {
		t.Fatalf("after adds: %s", Format(it))
	}

	// SetIfMissing does not overwrite; Set does; Remove deletes (also of an absent attribute).
	it, err = s.Update(ctx, k, store.NewUpdate().
		SetIfMissing("created", 2000).
		SetIfMissing("note", "first").
		Set("status", "frozen").
		Remove("trades").
		Remove("never-there"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want = store.Item{"pk": "wallet#7", "sk": "BTC", "status": "frozen", "created": dec("1000"), "note": "first",
		"available": dec("-0.00000001"), "frozen": dec("12345678901234.00000001")}
	wantItem(t, it, want)
	wantGet(t, s, want)

	// Set of structured values and of the ttl attribute.
	it, err = s.Update(ctx, k, store.NewUpdate().
		Set("limits", map[string]any{"daily": dec("2.5"), "list": []any{"a", 1}}).
		Set("ttl", int64(4102444800)), nil)
	if err != nil {
		t.Fatal(err)
	}
	want["limits"] = map[string]any{"daily": dec("2.5"), "list": []any{"a", dec("1")}}
	want["ttl"] = dec("4102444800")
	wantItem(t, it, want)
	wantGet(t, s, want)

	// A failed condition writes nothing and does not create missing items.
	_, err = s.Update(ctx, k, store.NewUpdate().Add("available", dec("1")).Set("status", "x"),
		store.Ge("available", 0))
	wantErr(t, err, store.ErrConditionFailed, "Update with false condition")
	wantGet(t, s, want)
	other := key("wallet#7", "ETH")
	_, err = s.Update(ctx, other, store.NewUpdate().Set("status", "open"), store.ItemExists())
	wantErr(t, err, store.ErrConditionFailed, "Update of missing item with ItemExists")
	mustMissing(t, s, other)

	// Adding to a string attribute is invalid and changes nothing.
	_, err = s.Update(ctx, k, store.NewUpdate().Add("status", dec("1")), nil)
	wantErr(t, err, store.ErrInvalid, "Add to a string attribute")
	wantGet(t, s, want)

	// Update of a conditional debit: the condition sees the value before the write.
	it, err = s.Update(ctx, other, store.NewUpdate().Add("available", dec("10")), store.ItemNotExists())
	if err != nil {
		t.Fatal(err)
	}
	it, err = s.Update(ctx, other, store.NewUpdate().Add("available", dec("-10")), store.Ge("available", dec("10")))
	if err != nil {
		t.Fatalf("debit of the whole balance: %v", err)
	}
	if !it.Dec("available").IsZero() {
		t.Fatalf("after debit: %s", Format(it))
	}
	_, err = s.Update(ctx, other, store.NewUpdate().Add("available", dec("-0.01")), store.Ge("available", dec("0.01")))
	wantErr(t, err, store.ErrConditionFailed, "overdraft")
	if got := mustGet(t, s, other); !got.Dec("available").IsZero() {
		t.Fatalf("after refused overdraft: %s", Format(got))
	}
}
