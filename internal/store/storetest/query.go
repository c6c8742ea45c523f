package storetest

import (
	"fmt"
	"sort"
	"testing"

	"tenger/internal/store"
)

func reversed(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[len(in)-1-i] = s
	}
	return out
}

// putPartition writes one item per sort key under pk with a batch of
// transactions (fast on every adapter).
func putPartition(t *testing.T, s store.Store, pk string, sortKeys []string, extra func(i int, it store.Item)) {
	t.Helper()
	var ops []store.Op
	flush := func() {
		if len(ops) == 0 {
			return
		}
		if err := s.Transact(ctxT(t), ops); err != nil {
			t.Fatalf("seeding %s: %v", pk, err)
		}
		ops = nil
	}
	for i, sk := range sortKeys {
		it := store.Item{"pk": pk, "sk": sk, "i": i}
		if extra != nil {
			extra(i, it)
		}
		ops = append(ops, store.PutOp(it, nil))
		if len(ops) == 25 {
			flush()
		}
	}
	flush()
}

func testQuery(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	var all []string
	for i := 1; i <= 25; i++ {
		all = append(all, fmt.Sprintf("item#%03d", i))
	}
	// Sort keys compare as bytes: upper case before lower case, UTF-8 after ASCII.
	all = append(all, "B", "a", "item#", "itemz", "z", "é", "item#010#x")
	sort.Strings(all)
	putPartition(t, s, "P#1", all, nil)
	// Neighbouring partitions must never leak into P#1's results.
	putPartition(t, s, "P#10", []string{"item#001", "item#005", "a"}, nil)
	putPartition(t, s, "P#", []string{"1item#001", "item#002"}, nil)
	putPartition(t, s, "P", []string{"#1item#003"}, nil)

	filter := func(keep func(string) bool) []string {
		var out []string
		for _, sk := range all {
			if keep(sk) {
				out = append(out, sk)
			}
		}
		return out
	}
	cases := []struct {
		name string
		sk   store.SKCond
		want []string
	}{
		{"all", store.SKCond{}, all},
		{"eq", store.SKCond{Kind: store.SKEq, A: "item#007"}, []string{"item#007"}},
		{"eq missing", store.SKCond{Kind: store.SKEq, A: "item#7"}, nil},
		{"prefix", store.SKPrefixed("item#01"), []string{"item#010", "item#010#x", "item#011", "item#012", "item#013",
			"item#014", "item#015", "item#016", "item#017", "item#018", "item#019"}},
		{"prefix none", store.SKPrefixed("nope"), nil},
		{"prefix utf8", store.SKPrefixed("é"), []string{"é"}},
		{"between", store.SKRange("item#005", "item#009"),
			[]string{"item#005", "item#006", "item#007", "item#008", "item#009"}},
		{"between non-existent bounds", store.SKRange("item#0055", "item#0071"),
			[]string{"item#006", "item#007"}},
		{"between single", store.SKRange("z", "z"), []string{"z"}},
		{"lt", store.SKCond{Kind: store.SKLt, A: "item#002"}, []string{"B", "a", "item#", "item#001"}},
		{"le", store.SKCond{Kind: store.SKLe, A: "item#002"}, []string{"B", "a", "item#", "item#001", "item#002"}},
		{"gt", store.SKCond{Kind: store.SKGt, A: "item#025"}, []string{"itemz", "z", "é"}},
		{"ge", store.SKCond{Kind: store.SKGe, A: "item#025"}, []string{"item#025", "itemz", "z", "é"}},
		{"gt prefix of others", store.SKCond{Kind: store.SKGt, A: "item#010"},
			filter(func(s string) bool { return s > "item#010" })},
		{"lt first", store.SKCond{Kind: store.SKLt, A: "B"}, nil},
	}
	for _, c := range cases {
		for _, desc := range []bool{false, true} {
			want := c.want
			if desc {
				want = reversed(want)
			}
			p, err := s.Query(ctx, store.Query{PK: "P#1", SK: c.sk, Desc: desc})
			if err != nil {
				t.Fatalf("%s desc=%v: %v", c.name, desc, err)
			}
			wantStrings(t, fmt.Sprintf("%s desc=%v", c.name, desc), sks(p.Items), want)
			if p.Cursor != "" {
				t.Fatalf("%s desc=%v: cursor %q after a complete result", c.name, desc, p.Cursor)
			}
			for _, it := range p.Items {
				if it.Str("pk") != "P#1" || !it.Has("i") {
					t.Fatalf("%s: foreign or incomplete item %s", c.name, Format(it))
				}
			}
		}
	}
	// Items come back whole.
	p, err := s.Query(ctx, store.Query{PK: "P#1", SK: store.SKCond{Kind: store.SKEq, A: "item#003"}})
	if err != nil || len(p.Items) != 1 {
		t.Fatalf("eq query: %v %v", p, err)
	}
	wantItem(t, p.Items[0], mustGet(t, s, key("P#1", "item#003")))

	// Other partitions.
	wantStrings(t, "P#10", sks(queryAll(t, s, store.Query{PK: "P#10"})), []string{"a", "item#001", "item#005"})
	wantStrings(t, "P#", sks(queryAll(t, s, store.Query{PK: "P#"})), []string{"1item#001", "item#002"})
	wantStrings(t, "P", sks(queryAll(t, s, store.Query{PK: "P"})), []string{"#1item#003"})
	wantStrings(t, "empty partition", sks(queryAll(t, s, store.Query{PK: "P#2"})), nil)

	// Deleted items disappear from queries.
	if err := s.Delete(ctx, key("P#1", "item#007"), nil); err != nil {
		t.Fatal(err)
	}
	wantStrings(t, "between after delete", sks(queryAll(t, s, store.Query{PK: "P#1", SK: store.SKRange("item#006", "item#008")})),
		[]string{"item#006", "item#008"})
}

func testQueryPagination(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	var all []string
	for i := 0; i < 130; i++ {
		all = append(all, fmt.Sprintf("e#%04d", i))
	}
	putPartition(t, s, "feed", all, nil)
	putPartition(t, s, "feedx", []string{"e#0000"}, nil)

	// Default limit is 100: the first page holds at most 100 items and the
	// rest follows the cursor.
	p, err := s.Query(ctx, store.Query{PK: "feed"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) > 100 || p.Cursor == "" {
		t.Fatalf("first default page: %d items, cursor %q", len(p.Items), p.Cursor)
	}
	wantStrings(t, "default limit asc", sks(queryAll(t, s, store.Query{PK: "feed"})), all)

	cases := []struct {
		name  string
		q     store.Query
		want  []string
		limit int
	}{
		{"asc by 7", store.Query{PK: "feed", Limit: 7}, all, 7},
		{"desc by 7", store.Query{PK: "feed", Limit: 7, Desc: true}, reversed(all), 7},
		{"asc by 1", store.Query{PK: "feed", Limit: 1, SK: store.SKRange("e#0010", "e#0014")}, all[10:15], 1},
		{"prefix by 3", store.Query{PK: "feed", Limit: 3, SK: store.SKPrefixed("e#001")}, all[10:20], 3},
		{"prefix desc by 3", store.Query{PK: "feed", Limit: 3, Desc: true, SK: store.SKPrefixed("e#001")},
			reversed(all[10:20]), 3},
		{"exact multiple", store.Query{PK: "feed", Limit: 5, SK: store.SKRange("e#0100", "e#0109")}, all[100:110], 5},
		{"gt by 4", store.Query{PK: "feed", Limit: 4, SK: store.SKCond{Kind: store.SKGt, A: "e#0120"}}, all[121:], 4},
		{"lt desc by 4", store.Query{PK: "feed", Limit: 4, Desc: true, SK: store.SKCond{Kind: store.SKLt, A: "e#0009"}},
			reversed(all[:9]), 4},
		{"big limit", store.Query{PK: "feed", Limit: 1000, SK: store.SKCond{Kind: store.SKGe, A: "e#0125"}}, all[125:], 1000},
	}
	for _, c := range cases {
		got := queryAll(t, s, c.q)
		wantStrings(t, c.name, sks(got), c.want)
	}

	// A cursor continues exactly after the last item even when the store
	// changes between pages: a new item after the cursor is seen, one
	// before it is not, and a deleted next item is skipped.
	p, err = s.Query(ctx, store.Query{PK: "feed", Limit: 2, SK: store.SKPrefixed("e#005")})
	if err != nil {
		t.Fatal(err)
	}
	wantStrings(t, "page 1", sks(p.Items), []string{"e#0050", "e#0051"})
	mustPut(t, s, store.Item{"pk": "feed", "sk": "e#0050a"})
	mustPut(t, s, store.Item{"pk": "feed", "sk": "e#0051a"})
	if err := s.Delete(ctx, key("feed", "e#0052"), nil); err != nil {
		t.Fatal(err)
	}
	rest := queryAll(t, s, store.Query{PK: "feed", Limit: 2, SK: store.SKPrefixed("e#005"), Cursor: p.Cursor})
	wantStrings(t, "after cursor", sks(rest), []string{"e#0051a", "e#0053", "e#0054", "e#0055", "e#0056", "e#0057", "e#0058", "e#0059"})
}
