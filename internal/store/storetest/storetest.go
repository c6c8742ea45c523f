// Package storetest is the contract suite of the storage port: every adapter
// of store.Store (embedded, DynamoDB) must pass Run. The assertions follow
// DynamoDB's semantics, which the embedded adapter mirrors, so domain code
// behaves the same locally and in AWS.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// FeedDeadline bounds how long feed subtests poll for expected changes.
// DynamoDB Streams deliver records with some delay; the embedded feed is
// immediate, so the deadline costs nothing there.
const FeedDeadline = 10 * time.Second

// Run runs the contract suite. Each call of newStore must return a fresh,
// empty store and arrange its cleanup (for example t.Cleanup(func() {
// s.Close() })). Subtests run in parallel, each on its own store, and the
// suite calls newStore about a dozen times, so adapters whose stores are
// expensive to create (a DynamoDB table each) stay affordable.
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"CRUD", testCRUD},
		{"Validation", testValidation},
		{"Conditions", testConditions},
		{"Updates", testUpdates},
		{"Transactions", testTransactions},
		{"TransactionLimits", testTransactionLimits},
		{"Query", testQuery},
		{"QueryPagination", testQueryPagination},
		{"Indexes", testIndexes},
		{"Feed", testFeed},
		{"FeedResume", testFeedResume},
		{"RaceConditionalDebits", testRaceDebits},
		{"ConcurrentTransfers", testConcurrentTransfers},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, newStore(t))
		})
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func key(pk, sk string) store.Key { return store.Key{PK: pk, SK: sk} }

func mustPut(t *testing.T, s store.Store, it store.Item) {
	t.Helper()
	if err := s.Put(ctxT(t), it, nil); err != nil {
		t.Fatalf("Put %v: %v", it, err)
	}
}

func mustGet(t *testing.T, s store.Store, k store.Key) store.Item {
	t.Helper()
	it, err := s.Get(ctxT(t), k)
	if err != nil {
		t.Fatalf("Get %v: %v", k, err)
	}
	return it
}

func mustMissing(t *testing.T, s store.Store, k store.Key) {
	t.Helper()
	it, err := s.Get(ctxT(t), k)
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get %v: want ErrNotFound, got item %v err %v", k, it, err)
	}
}

// wantItem fails unless got equals want (numbers compared by value).
func wantItem(t *testing.T, got, want store.Item) {
	t.Helper()
	if !EqualItems(got, want) {
		t.Fatalf("item mismatch:\n got  %s\n want %s", Format(got), Format(want))
	}
}

func wantGet(t *testing.T, s store.Store, want store.Item) {
	t.Helper()
	wantItem(t, mustGet(t, s, want.Key()), want)
}

func wantErr(t *testing.T, err, target error, what string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: want %v, got %v", what, target, err)
	}
}

// EqualItems reports whether two items hold the same attributes with equal
// values; numbers compare by value ("1.50" equals "1.5", int 2 equals
// decimal 2), as DynamoDB normalises them.
func EqualItems(a, b store.Item) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	na, errA := store.NormalizeValue(map[string]any(a))
	nb, errB := store.NormalizeValue(map[string]any(b))
	if errA != nil || errB != nil {
		return false
	}
	return equalValues(na, nb)
}

func equalValues(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case decimal.Decimal:
		y, ok := b.(decimal.Decimal)
		return ok && x.Equal(y)
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			if it, isItem := b.(store.Item); isItem {
				y, ok = map[string]any(it), true
			}
		}
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, present := y[k]
			if !present || !equalValues(v, w) {
				return false
			}
		}
		return true
	case store.Item:
		return equalValues(map[string]any(x), b)
	}
	return false
}

// Format renders an item deterministically for failure messages.
func Format(it store.Item) string {
	if it == nil {
		return "<nil>"
	}
	var sb strings.Builder
	formatValue(&sb, map[string]any(it))
	return sb.String()
}

func formatValue(sb *strings.Builder, v any) {
	switch x := v.(type) {
	case map[string]any:
		names := make([]string, 0, len(x))
		for k := range x {
			names = append(names, k)
		}
		sort.Strings(names)
		sb.WriteByte('{')
		for i, k := range names {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(k + ":")
			formatValue(sb, x[k])
		}
		sb.WriteByte('}')
	case []any:
		sb.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				sb.WriteString(", ")
			}
			formatValue(sb, e)
		}
		sb.WriteByte(']')
	case string:
		fmt.Fprintf(sb, "%q", x)
	case decimal.Decimal:
		sb.WriteString("N(" + x.String() + ")")
	default:
		fmt.Fprintf(sb, "%T(%v)", v, v)
	}
}

// queryAll follows cursors until the end and returns every item, checking
// that no page exceeds the limit.
func queryAll(t *testing.T, s store.Store, q store.Query) []store.Item {
	t.Helper()
	limit := q.Limit
	if limit == 0 {
		limit = 100
	}
	var out []store.Item
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatalf("query %+v: more than 1000 pages", q)
		}
		p, err := s.Query(ctxT(t), q)
		if err != nil {
			t.Fatalf("Query %+v: %v", q, err)
		}
		if len(p.Items) > limit {
			t.Fatalf("query page has %d items, limit %d", len(p.Items), limit)
		}
		out = append(out, p.Items...)
		if p.Cursor == "" {
			return out
		}
		q.Cursor = p.Cursor
	}
}

func sks(items []store.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Str(store.AttrSK)
	}
	return out
}

func wantStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d %q, want %d %q", what, len(got), got, len(want), want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: at %d got %q, want %q (got %q)", what, i, got[i], want[i], got)
		}
	}
}

// AllChanges reads every change a store's feed retains, oldest first (for
// tests that check what a writer's changes tell the feed's readers).
func AllChanges(t testing.TB, st store.Store) []store.Change {
	t.Helper()
	var out []store.Change
	cp := ""
	for {
		batch, next, err := st.Changes().Read(context.Background(), cp, 1000)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, batch...)
		if len(batch) == 0 || next == cp {
			return out
		}
		cp = next
	}
}
