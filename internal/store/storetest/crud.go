package storetest

import (
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

func testCRUD(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	k := key("user#1", "profile")
	mustMissing(t, s, k)

	// Every supported value type round-trips; integers come back as decimals.
	full := store.Item{
		"pk": "user#1", "sk": "profile",
		"name":    "Ölzii",
		"balance": dec("12345678901234567890.123456789"),
		"small":   dec("-0.000001"),
		"count":   42,
		"big":     int64(1) << 60,
		"active":  true,
		"off":     false,
		"blob":    []byte{0, 1, 2, 254, 255},
		"nothing": nil,
		"tags":    []any{"a", dec("1.5"), true},
		"names":   []string{"x", "y"},
		"nested":  map[string]any{"m": map[string]any{"n": dec("7")}, "l": []any{"z"}},
		"ttl":     int64(4102444800),
	}
	if err := s.Put(ctx, full, nil); err != nil {
		t.Fatalf("Put: %v", err)
	}
	got := mustGet(t, s, k)
	want := store.Item{
		"pk": "user#1", "sk": "profile",
		"name":    "Ölzii",
		"balance": dec("12345678901234567890.123456789"),
		"small":   dec("-0.000001"),
		"count":   dec("42"),
		"big":     decimal.NewFromInt(int64(1) << 60),
		"active":  true,
		"off":     false,
		"blob":    []byte{0, 1, 2, 254, 255},
		"nothing": nil,
		"tags":    []any{"a", dec("1.5"), true},
		"names":   []any{"x", "y"},
		"nested":  map[string]any{"m": map[string]any{"n": dec("7")}, "l": []any{"z"}},
		"ttl":     dec("4102444800"),
	}
	wantItem(t, got, want)
	for _, a := range []string{"count", "big", "ttl", "balance"} {
		if _, ok := got[a].(decimal.Decimal); !ok {
			t.Fatalf("attribute %q read back as %T, want decimal.Decimal", a, got[a])
		}
	}
	if got.Int("ttl") != 4102444800 {
		t.Fatalf("ttl = %v", got["ttl"])
	}

	// The store keeps its own copy: mutating what was written or read has no effect.
	full["name"] = "changed"
	got["balance"] = dec("0")
	wantGet(t, s, want)

	// Put replaces the whole item.
	repl := store.Item{"pk": "user#1", "sk": "profile", "name": "Bat"}
	mustPut(t, s, repl)
	wantGet(t, s, repl)

	// Items are addressed by both pk and sk.
	other := store.Item{"pk": "user#1", "sk": "profile2", "name": "Dorj"}
	other2 := store.Item{"pk": "user#10", "sk": "profile", "name": "Sukh"}
	mustPut(t, s, other)
	mustPut(t, s, other2)
	wantGet(t, s, repl)
	wantGet(t, s, other)
	wantGet(t, s, other2)
	mustMissing(t, s, key("user#1", "prof"))
	mustMissing(t, s, key("user#", "1profile"))

	// Delete removes only the addressed item; deleting a missing item
	// without a condition succeeds.
	if err := s.Delete(ctx, k, nil); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	mustMissing(t, s, k)
	wantGet(t, s, other)
	if err := s.Delete(ctx, k, nil); err != nil {
		t.Fatalf("Delete of a missing item: %v", err)
	}
	// A conditional delete of a missing item fails.
	wantErr(t, s.Delete(ctx, k, store.ItemExists()), store.ErrConditionFailed, "Delete missing with ItemExists")
	// Conditional delete that holds.
	if err := s.Delete(ctx, other.Key(), store.Eq("name", "Dorj")); err != nil {
		t.Fatalf("conditional Delete: %v", err)
	}
	mustMissing(t, s, other.Key())
	// Conditional delete that fails leaves the item.
	wantErr(t, s.Delete(ctx, other2.Key(), store.Eq("name", "nope")), store.ErrConditionFailed, "Delete with false cond")
	wantGet(t, s, other2)
}

func testValidation(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	bad := []struct {
		name string
		it   store.Item
	}{
		{"no pk", store.Item{"sk": "a"}},
		{"no sk", store.Item{"pk": "a"}},
		{"empty pk", store.Item{"pk": "", "sk": "a"}},
		{"number pk", store.Item{"pk": 1, "sk": "a"}},
		{"float value", store.Item{"pk": "a", "sk": "a", "x": 1.5}},
		{"ttl string", store.Item{"pk": "a", "sk": "a", "ttl": "soon"}},
		{"gsi1pk number", store.Item{"pk": "a", "sk": "a", "gsi1pk": 5, "gsi1sk": "x"}},
	}
	for _, b := range bad {
		wantErr(t, s.Put(ctx, b.it, nil), store.ErrInvalid, "Put "+b.name)
	}
	_, err := s.Get(ctx, key("", "a"))
	wantErr(t, err, store.ErrInvalid, "Get with empty pk")
	_, err = s.Get(ctx, key("a", ""))
	wantErr(t, err, store.ErrInvalid, "Get with empty sk")
	wantErr(t, s.Delete(ctx, key("", "a"), nil), store.ErrInvalid, "Delete with empty pk")

	k := key("a", "a")
	for name, u := range map[string]*store.Update{
		"empty":      store.NewUpdate(),
		"nil":        nil,
		"set pk":     store.NewUpdate().Set("pk", "b"),
		"remove sk":  store.NewUpdate().Remove("sk"),
		"twice":      store.NewUpdate().Set("x", 1).Remove("x"),
		"float":      store.NewUpdate().Set("x", 2.5),
		"add string": {Actions: []store.UpdateAction{{Kind: store.ActAdd, Attr: "x", Value: "1"}}},
	} {
		_, err := s.Update(ctx, k, u, nil)
		wantErr(t, err, store.ErrInvalid, "Update "+name)
	}
	_, err = s.Update(ctx, key("a", ""), store.NewUpdate().Set("x", 1), nil)
	wantErr(t, err, store.ErrInvalid, "Update with empty sk")

	_, err = s.Query(ctx, store.Query{PK: ""})
	wantErr(t, err, store.ErrInvalid, "Query with empty pk")
	_, err = s.Query(ctx, store.Query{Index: "gsi9", PK: "a"})
	wantErr(t, err, store.ErrInvalid, "Query of unknown index")
	_, err = s.Query(ctx, store.Query{PK: "a", Cursor: "!!not a cursor!!"})
	wantErr(t, err, store.ErrInvalid, "Query with garbage cursor")

	// Nothing was written by any of the invalid requests.
	mustMissing(t, s, k)
	p, err := s.Query(ctx, store.Query{PK: "a"})
	if err != nil || len(p.Items) != 0 {
		t.Fatalf("partition a after invalid writes: %v items, err %v", len(p.Items), err)
	}
}
