package storetest

import (
	"errors"
	"fmt"
	"testing"

	"tenger/internal/store"
)

func testConditions(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	k := key("acct#1", "main")
	base := store.Item{
		"pk": "acct#1", "sk": "main",
		"balance": dec("100"), "name": "bolor", "active": true, "code": "USDT-spot",
	}
	mustPut(t, s, base)

	cases := []struct {
		name string
		cond store.Cond
		want bool
	}{
		{"exists", store.Exists("name"), true},
		{"exists missing", store.Exists("nope"), false},
		{"not exists", store.NotExists("nope"), true},
		{"not exists present", store.NotExists("balance"), false},
		{"item exists", store.ItemExists(), true},
		{"item not exists", store.ItemNotExists(), false},

		{"num eq", store.Eq("balance", 100), true},
		{"num eq scale", store.Eq("balance", dec("100.000")), true},
		{"num eq false", store.Eq("balance", dec("100.01")), false},
		{"num ne", store.Compare("balance", store.CmpNe, 99), true},
		{"num ne false", store.Compare("balance", store.CmpNe, 100), false},
		{"num lt", store.Compare("balance", store.CmpLt, dec("100.5")), true},
		{"num lt false", store.Compare("balance", store.CmpLt, 100), false},
		{"num le", store.Compare("balance", store.CmpLe, 100), true},
		{"num le false", store.Compare("balance", store.CmpLe, dec("99.99")), false},
		{"num gt", store.Compare("balance", store.CmpGt, dec("-5")), true},
		{"num gt false", store.Compare("balance", store.CmpGt, 100), false},
		{"num ge", store.Ge("balance", 100), true},
		{"num ge numeric not lexical", store.Ge("balance", 20), true},
		{"num ge false", store.Ge("balance", dec("100.0001")), false},

		{"str eq", store.Eq("name", "bolor"), true},
		{"str eq false", store.Eq("name", "Bolor"), false},
		{"str lt", store.Compare("name", store.CmpLt, "bolos"), true},
		{"str lt false", store.Compare("name", store.CmpLt, "bolor"), false},
		{"str gt byte order", store.Compare("name", store.CmpGt, "Zed"), true},
		{"str ge", store.Compare("name", store.CmpGe, "bolor"), true},
		{"str le false", store.Compare("name", store.CmpLe, "bolo"), false},
		{"str ne", store.Compare("name", store.CmpNe, "x"), true},

		{"bool eq", store.Eq("active", true), true},
		{"bool eq false", store.Eq("active", false), false},
		{"type mismatch", store.Eq("balance", "100"), false},
		{"missing attr eq", store.Eq("nope", 1), false},
		{"missing attr ne", store.Compare("nope", store.CmpNe, 1), false},
		{"missing attr lt", store.Compare("nope", store.CmpLt, 1), false},

		{"begins with", store.BeginsWith("code", "USDT-"), true},
		{"begins with whole", store.BeginsWith("code", "USDT-spot"), true},
		{"begins with false", store.BeginsWith("code", "usdt"), false},
		{"begins with missing", store.BeginsWith("nope", "a"), false},

		{"and true", store.And(store.Exists("name"), store.Ge("balance", 50)), true},
		{"and false", store.And(store.Exists("name"), store.Ge("balance", 500)), false},
		{"or true", store.Or(store.Eq("name", "x"), store.Ge("balance", 50)), true},
		{"or false", store.Or(store.Eq("name", "x"), store.Ge("balance", 500)), false},
		{"not true", store.Not(store.Exists("nope")), true},
		{"not false", store.Not(store.Eq("name", "bolor")), false},
		{"not of missing compare", store.Not(store.Compare("nope", store.CmpLt, 1)), true},
		{"nested", store.And(store.Or(store.Eq("name", "x"), store.Not(store.Eq("active", false))),
			store.BeginsWith("code", "USDT")), true},

		{"version 0 without ver", store.VersionIs(0), true},
		{"version 1 without ver", store.VersionIs(1), false},
	}
	// Each case is checked with the three single-item writes. A passing
	// condition writes a marker attribute; a failing one writes nothing.
	for i, c := range cases {
		marker := fmt.Sprintf("m%d", i)
		_, err := s.Update(ctx, k, store.NewUpdate().Set(marker, i), c.cond)
		checkCond(t, c.name+" (Update)", err, c.want)
		got := mustGet(t, s, k)
		if got.Has(marker) != c.want {
			t.Fatalf("%s (Update): marker written = %v, want %v", c.name, got.Has(marker), c.want)
		}
		// Restore the base item (the marker must not influence later cases).
		if c.want {
			if _, err := s.Update(ctx, k, store.NewUpdate().Remove(marker), nil); err != nil {
				t.Fatal(err)
			}
		}

		next := base.Clone()
		next["put"] = i
		err = s.Put(ctx, next, c.cond)
		checkCond(t, c.name+" (Put)", err, c.want)
		if c.want {
			wantGet(t, s, next)
			mustPut(t, s, base)
		} else {
			wantGet(t, s, base)
		}
	}

	// Delete with each kind of outcome.
	wantErr(t, s.Delete(ctx, k, store.Ge("balance", 101)), store.ErrConditionFailed, "Delete with false cond")
	wantGet(t, s, base)

	// Optimistic concurrency with VersionIs.
	if _, err := s.Update(ctx, k, store.NewUpdate().Set(store.AttrVersion, 1), store.VersionIs(0)); err != nil {
		t.Fatalf("first versioned update: %v", err)
	}
	_, err := s.Update(ctx, k, store.NewUpdate().Set(store.AttrVersion, 1).Set("lost", true), store.VersionIs(0))
	wantErr(t, err, store.ErrConditionFailed, "stale VersionIs(0)")
	_, err = s.Update(ctx, k, store.NewUpdate().Set(store.AttrVersion, 3), store.VersionIs(2))
	wantErr(t, err, store.ErrConditionFailed, "VersionIs(2) on version 1")
	it, err := s.Update(ctx, k, store.NewUpdate().Set(store.AttrVersion, 2).Set("won", true), store.VersionIs(1))
	if err != nil {
		t.Fatalf("VersionIs(1): %v", err)
	}
	if it.Int(store.AttrVersion) != 2 || !it.Bool("won") || it.Has("lost") {
		t.Fatalf("after versioned updates: %s", Format(it))
	}

	// Conditions on a missing item: only absence conditions hold.
	missing := key("acct#1", "nothing-here")
	for _, c := range []store.Cond{store.ItemExists(), store.Eq("balance", 0), store.Compare("x", store.CmpNe, 1),
		store.Exists("pk"), store.VersionIs(1)} {
		_, err := s.Update(ctx, missing, store.NewUpdate().Set("x", 1), c)
		wantErr(t, err, store.ErrConditionFailed, fmt.Sprintf("Update of missing item with %#v", c))
		wantErr(t, s.Put(ctx, store.Item{"pk": "acct#1", "sk": "nothing-here"}, c), store.ErrConditionFailed,
			fmt.Sprintf("Put of missing item with %#v", c))
		mustMissing(t, s, missing)
	}
	// Create-if-absent.
	created := store.Item{"pk": "acct#1", "sk": "nothing-here", "v": 1}
	if err := s.Put(ctx, created, store.ItemNotExists()); err != nil {
		t.Fatalf("Put with ItemNotExists on a missing item: %v", err)
	}
	wantErr(t, s.Put(ctx, store.Item{"pk": "acct#1", "sk": "nothing-here", "v": 2}, store.ItemNotExists()),
		store.ErrConditionFailed, "second create-if-absent")
	wantGet(t, s, created)

	// A single failed write reports ErrConditionFailed, not a transaction error.
	err = s.Put(ctx, base, store.ItemNotExists())
	var txe *store.TxCanceledError
	if !errors.Is(err, store.ErrConditionFailed) || errors.As(err, &txe) {
		t.Fatalf("single write failure: %v (%T)", err, err)
	}
}

func checkCond(t *testing.T, what string, err error, want bool) {
	t.Helper()
	if want && err != nil {
		t.Fatalf("%s: condition should hold, got %v", what, err)
	}
	if !want && !errors.Is(err, store.ErrConditionFailed) {
		t.Fatalf("%s: want ErrConditionFailed, got %v", what, err)
	}
}
