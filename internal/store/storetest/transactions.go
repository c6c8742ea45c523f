package storetest

import (
	"errors"
	"fmt"
	"testing"

	"tenger/internal/store"
)

func wantTxIndex(t *testing.T, err error, index int, what string) {
	t.Helper()
	var txe *store.TxCanceledError
	if !errors.As(err, &txe) {
		t.Fatalf("%s: want *TxCanceledError, got %v (%T)", what, err, err)
	}
	if txe.Index != index {
		t.Fatalf("%s: TxCanceledError.Index = %d, want %d", what, txe.Index, index)
	}
	if !errors.Is(err, store.ErrConditionFailed) {
		t.Fatalf("%s: errors.Is(err, ErrConditionFailed) is false for %v", what, err)
	}
}

func testTransactions(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	a := store.Item{"pk": "acct#a", "sk": "USDT", "balance": dec("10")}
	b := store.Item{"pk": "acct#b", "sk": "USDT", "balance": dec("5")}
	gone := store.Item{"pk": "acct#c", "sk": "old", "v": 1}
	mustPut(t, s, a)
	mustPut(t, s, b)
	mustPut(t, s, gone)

	// A successful transaction applies every kind of operation.
	order := store.Item{"pk": "order#1", "sk": "order", "status": "NEW"}
	err := s.Transact(ctx, []store.Op{
		store.UpdateOp(a.Key(), store.NewUpdate().Add("balance", dec("-3.5")), store.Ge("balance", dec("3.5"))),
		store.UpdateOp(b.Key(), store.NewUpdate().Add("balance", dec("3.5")), store.ItemExists()),
		store.PutOp(order, store.ItemNotExists()),
		store.DeleteOp(gone.Key(), store.Eq("v", 1)),
		store.CheckOp(key("lock", "x"), store.ItemNotExists()),
		store.UpdateOp(key("acct#new", "USDT"), store.NewUpdate().AddInt("balance", 1), nil),
		store.DeleteOp(key("never", "existed"), nil),
	})
	if err != nil {
		t.Fatalf("Transact: %v", err)
	}
	a["balance"], b["balance"] = dec("6.5"), dec("8.5")
	wantGet(t, s, a)
	wantGet(t, s, b)
	wantGet(t, s, order)
	wantGet(t, s, store.Item{"pk": "acct#new", "sk": "USDT", "balance": dec("1")})
	mustMissing(t, s, gone.Key())
	mustMissing(t, s, key("lock", "x"))
	mustMissing(t, s, key("never", "existed"))

	// All or nothing: a failing condition anywhere cancels every operation,
	// and the error names the failing operation.
	failing := []struct {
		name  string
		ops   []store.Op
		index int
	}{
		{"last op fails", []store.Op{
			store.UpdateOp(a.Key(), store.NewUpdate().Add("balance", dec("-1")), store.Ge("balance", 1)),
			store.UpdateOp(b.Key(), store.NewUpdate().Add("balance", dec("1")), nil),
			store.PutOp(store.Item{"pk": "order#2", "sk": "order"}, nil),
			store.UpdateOp(key("acct#new", "USDT"), store.NewUpdate().AddInt("balance", -5), store.Ge("balance", 5)),
		}, 3},
		{"first op fails", []store.Op{
			store.PutOp(store.Item{"pk": "order#1", "sk": "order", "status": "DUP"}, store.ItemNotExists()),
			store.UpdateOp(b.Key(), store.NewUpdate().Add("balance", dec("1")), nil),
		}, 0},
		{"check fails", []store.Op{
			store.UpdateOp(b.Key(), store.NewUpdate().Add("balance", dec("1")), nil),
			store.CheckOp(a.Key(), store.Eq("frozen", true)),
			store.DeleteOp(order.Key(), nil),
		}, 1},
		{"check of missing item fails", []store.Op{
			store.DeleteOp(order.Key(), nil),
			store.PutOp(store.Item{"pk": "order#3", "sk": "order"}, nil),
			store.CheckOp(key("lock", "x"), store.ItemExists()),
		}, 2},
		{"first of two failures", []store.Op{
			store.UpdateOp(b.Key(), store.NewUpdate().Add("balance", dec("1")), nil),
			store.DeleteOp(order.Key(), store.Eq("status", "FILLED")),
			store.UpdateOp(a.Key(), store.NewUpdate().Set("x", 1), nil),
			store.UpdateOp(key("acct#new", "USDT"), store.NewUpdate().AddInt("balance", -5), store.Ge("balance", 5)),
		}, 1},
		{"delete of missing item with condition", []store.Op{
			store.UpdateOp(b.Key(), store.NewUpdate().Add("balance", dec("1")), nil),
			store.DeleteOp(gone.Key(), store.ItemExists()),
		}, 1},
	}
	for _, f := range failing {
		err := s.Transact(ctx, f.ops)
		wantTxIndex(t, err, f.index, f.name)
		wantGet(t, s, a)
		wantGet(t, s, b)
		wantGet(t, s, order)
		wantGet(t, s, store.Item{"pk": "acct#new", "sk": "USDT", "balance": dec("1")})
		mustMissing(t, s, key("order#2", "order"))
		mustMissing(t, s, key("order#3", "order"))
		mustMissing(t, s, gone.Key())
	}

	// A passing CheckOp lets the transaction through.
	err = s.Transact(ctx, []store.Op{
		store.CheckOp(a.Key(), store.Ge("balance", dec("6.5"))),
		store.UpdateOp(b.Key(), store.NewUpdate().Set("checked", true), nil),
	})
	if err != nil {
		t.Fatalf("Transact with passing check: %v", err)
	}
	b["checked"] = true
	wantGet(t, s, b)
	wantGet(t, s, a)
}

func testTransactionLimits(t *testing.T, s store.Store) {
	ctx := ctxT(t)

	puts := func(pk string, n int) []store.Op {
		ops := make([]store.Op, n)
		for i := range ops {
			ops[i] = store.PutOp(store.Item{"pk": pk, "sk": fmt.Sprintf("%03d", i), "n": i}, store.ItemNotExists())
		}
		return ops
	}
	// MaxTransactItems operations are allowed.
	if err := s.Transact(ctx, puts("max", store.MaxTransactItems)); err != nil {
		t.Fatalf("Transact of %d ops: %v", store.MaxTransactItems, err)
	}
	got := queryAll(t, s, store.Query{PK: "max"})
	if len(got) != store.MaxTransactItems {
		t.Fatalf("after %d-op transaction: %d items", store.MaxTransactItems, len(got))
	}
	for i, it := range got {
		if it.Int("n") != int64(i) {
			t.Fatalf("item %d: %s", i, Format(it))
		}
	}

	// One more is rejected and nothing is written.
	err := s.Transact(ctx, puts("over", store.MaxTransactItems+1))
	wantErr(t, err, store.ErrInvalid, "Transact of 101 ops")
	if got := queryAll(t, s, store.Query{PK: "over"}); len(got) != 0 {
		t.Fatalf("rejected transaction wrote %d items", len(got))
	}

	// The same item twice is rejected, whatever the operation kinds.
	k := key("dup", "x")
	for name, ops := range map[string][]store.Op{
		"put+update": {
			store.PutOp(store.Item{"pk": "dup", "sk": "x"}, nil),
			store.UpdateOp(k, store.NewUpdate().Set("a", 1), nil),
		},
		"check+delete": {
			store.PutOp(store.Item{"pk": "dup", "sk": "y"}, nil),
			store.CheckOp(k, store.ItemNotExists()),
			store.DeleteOp(k, nil),
		},
	} {
		wantErr(t, s.Transact(ctx, ops), store.ErrInvalid, "Transact with "+name+" of one key")
		mustMissing(t, s, k)
		mustMissing(t, s, key("dup", "y"))
	}

	// Empty and malformed transactions are rejected.
	wantErr(t, s.Transact(ctx, nil), store.ErrInvalid, "empty Transact")
	wantErr(t, s.Transact(ctx, []store.Op{}), store.ErrInvalid, "empty Transact")
	bad := map[string][]store.Op{
		"unknown kind": {{Kind: 0, Key: k}},
		"put without sk": {
			store.PutOp(store.Item{"pk": "bad", "sk": "1"}, nil),
			store.PutOp(store.Item{"pk": "bad"}, nil),
		},
		"update without update": {
			store.PutOp(store.Item{"pk": "bad", "sk": "1"}, nil),
			store.UpdateOp(key("bad", "2"), nil, nil),
		},
		"check with empty key": {
			store.PutOp(store.Item{"pk": "bad", "sk": "1"}, nil),
			store.CheckOp(key("", ""), store.ItemExists()),
		},
	}
	for name, ops := range bad {
		wantErr(t, s.Transact(ctx, ops), store.ErrInvalid, "Transact with "+name)
		mustMissing(t, s, key("bad", "1"))
	}
}
