package storetest

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"tenger/internal/store"
)

// wantIndex queries an index until it returns exactly the wanted primary
// keys ("pk|sk") in order. Secondary indexes are eventually consistent in
// DynamoDB, so it retries until FeedDeadline; the embedded store maintains
// them in the same commit and passes at once.
func wantIndex(t *testing.T, s store.Store, q store.Query, want []string) []store.Item {
	t.Helper()
	deadline := time.Now().Add(FeedDeadline)
	for {
		items := queryAll(t, s, q)
		got := make([]string, len(items))
		for i, it := range items {
			got[i] = it.Key().String()
		}
		if strings.Join(got, ",") == strings.Join(want, ",") && len(got) == len(want) {
			return items
		}
		if time.Now().After(deadline) {
			t.Fatalf("index query %+v:\n got  %q\n want %q", q, got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func testIndexes(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	order := func(id, user, at, status string) store.Item {
		it := store.Item{"pk": "order#" + id, "sk": "order", "user": user, "at": at}
		if user != "" {
			it["gsi1pk"], it["gsi1sk"] = "user#"+user, "t#"+at
		}
		if status != "" {
			it["gsi2pk"], it["gsi2sk"] = "status#"+status, at
		}
		return it
	}
	o1 := order("1", "u1", "0003", "OPEN")
	o2 := order("2", "u1", "0001", "OPEN")
	o3 := order("3", "u1", "0002", "")
	o4 := order("4", "u2", "0004", "OPEN")
	o5 := order("5", "", "0005", "DONE")
	// Only the partition attribute: not in gsi1 (its sort key is missing).
	o6 := store.Item{"pk": "order#6", "sk": "order", "gsi1pk": "user#u1"}
	for _, it := range []store.Item{o1, o2, o3, o4, o5, o6} {
		mustPut(t, s, it)
	}
	g1 := func(pk string) store.Query { return store.Query{Index: store.IndexGSI1, PK: pk} }
	g2 := func(pk string) store.Query { return store.Query{Index: store.IndexGSI2, PK: pk} }

	items := wantIndex(t, s, g1("user#u1"), []string{"order#2|order", "order#3|order", "order#1|order"})
	// Index queries return whole items.
	wantItem(t, items[0], o2)
	wantItem(t, items[2], o1)
	wantIndex(t, s, store.Query{Index: store.IndexGSI1, PK: "user#u1", Desc: true},
		[]string{"order#1|order", "order#3|order", "order#2|order"})
	wantIndex(t, s, store.Query{Index: store.IndexGSI1, PK: "user#u1", SK: store.SKRange("t#0002", "t#0009")},
		[]string{"order#3|order", "order#1|order"})
	wantIndex(t, s, store.Query{Index: store.IndexGSI1, PK: "user#u1", SK: store.SKPrefixed("t#0001")},
		[]string{"order#2|order"})
	wantIndex(t, s, store.Query{Index: store.IndexGSI1, PK: "user#u1", SK: store.SKCond{Kind: store.SKGt, A: "t#0001"}, Desc: true},
		[]string{"order#1|order", "order#3|order"})
	wantIndex(t, s, store.Query{Index: store.IndexGSI1, PK: "user#u1", Limit: 1},
		[]string{"order#2|order", "order#3|order", "order#1|order"})
	wantIndex(t, s, g1("user#u2"), []string{"order#4|order"})
	wantIndex(t, s, g2("status#OPEN"), []string{"order#2|order", "order#1|order", "order#4|order"})
	wantIndex(t, s, g2("status#DONE"), []string{"order#5|order"})
	// Index partitions and table partitions are separate key spaces.
	wantIndex(t, s, g1("order#1"), nil)
	wantIndex(t, s, store.Query{PK: "user#u1"}, nil)
	wantIndex(t, s, g2("user#u1"), nil)

	// Removing the index attribute takes the item out of the index.
	if _, err := s.Update(ctx, o1.Key(), store.NewUpdate().Remove("gsi2pk").Remove("gsi2sk"), nil); err != nil {
		t.Fatal(err)
	}
	wantIndex(t, s, g2("status#OPEN"), []string{"order#2|order", "order#4|order"})
	// Changing it moves the item to another index partition.
	if _, err := s.Update(ctx, o2.Key(), store.NewUpdate().Set("gsi2pk", "status#DONE"), nil); err != nil {
		t.Fatal(err)
	}
	wantIndex(t, s, g2("status#OPEN"), []string{"order#4|order"})
	wantIndex(t, s, g2("status#DONE"), []string{"order#2|order", "order#5|order"})
	// Changing the index sort key reorders.
	if _, err := s.Update(ctx, o1.Key(), store.NewUpdate().Set("gsi1sk", "t#0000"), nil); err != nil {
		t.Fatal(err)
	}
	wantIndex(t, s, g1("user#u1"), []string{"order#1|order", "order#2|order", "order#3|order"})
	// Removing only the index partition attribute also takes it out.
	if _, err := s.Update(ctx, o3.Key(), store.NewUpdate().Remove("gsi1pk"), nil); err != nil {
		t.Fatal(err)
	}
	wantIndex(t, s, g1("user#u1"), []string{"order#1|order", "order#2|order"})
	// Adding the missing sort key brings an item in.
	if _, err := s.Update(ctx, o6.Key(), store.NewUpdate().Set("gsi1sk", "t#0009"), nil); err != nil {
		t.Fatal(err)
	}
	wantIndex(t, s, g1("user#u1"), []string{"order#1|order", "order#2|order", "order#6|order"})
	// A Put that replaces the item without index attributes, and a Delete, remove entries.
	mustPut(t, s, store.Item{"pk": "order#2", "sk": "order", "user": "u1"})
	if err := s.Delete(ctx, o6.Key(), nil); err != nil {
		t.Fatal(err)
	}
	wantIndex(t, s, g1("user#u1"), []string{"order#1|order"})
	wantIndex(t, s, g2("status#DONE"), []string{"order#5|order"})
	// Transactions maintain indexes too.
	if err := s.Transact(ctx, []store.Op{
		store.PutOp(order("7", "u2", "0001", "OPEN"), nil),
		store.UpdateOp(o4.Key(), store.NewUpdate().Set("gsi1pk", "user#u1"), nil),
	}); err != nil {
		t.Fatal(err)
	}
	wantIndex(t, s, g1("user#u1"), []string{"order#1|order", "order#4|order"})
	wantIndex(t, s, g1("user#u2"), []string{"order#7|order"})
	wantIndex(t, s, g2("status#OPEN"), []string{"order#7|order", "order#4|order"})
	// A failed conditional write leaves the index alone.
	_, err := s.Update(ctx, o4.Key(), store.NewUpdate().Set("gsi1pk", "user#u9"), store.Eq("user", "nobody"))
	wantErr(t, err, store.ErrConditionFailed, "conditional index move")
	wantIndex(t, s, g1("user#u9"), nil)

	// Index keys need not be unique: pagination over equal index sort keys
	// returns every item exactly once.
	var want []string
	for i := 0; i < 7; i++ {
		it := store.Item{"pk": fmt.Sprintf("dup#%d", i), "sk": "s", "gsi1pk": "same", "gsi1sk": "x", "gsi2pk": "same", "gsi2sk": "x"}
		mustPut(t, s, it)
		want = append(want, it.Key().String())
	}
	for _, idx := range []string{store.IndexGSI1, store.IndexGSI2} {
		for _, desc := range []bool{false, true} {
			deadline := time.Now().Add(FeedDeadline)
			for {
				got := queryAll(t, s, store.Query{Index: idx, PK: "same", Limit: 2, Desc: desc})
				keys := make([]string, len(got))
				for i, it := range got {
					keys[i] = it.Key().String()
				}
				sort.Strings(keys)
				if strings.Join(keys, ",") == strings.Join(want, ",") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s desc=%v over equal index keys: got %q, want %q", idx, desc, keys, want)
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
	}
}
