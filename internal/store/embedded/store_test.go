package embedded

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/shopspring/decimal"

	"testing"

	"tenger/internal/store"
	"tenger/internal/store/storetest"
)

func openTest(t *testing.T, dir string, opts Options) *Store {
	t.Helper()
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		return openTest(t, t.TempDir(), Options{SweepInterval: -1})
	})
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func readAll(t *testing.T, s *Store, cp string) ([]store.Change, string) {
	t.Helper()
	var out []store.Change
	for {
		batch, next, err := s.Changes().Read(context.Background(), cp, 3)
		if err != nil {
			t.Fatalf("feed Read: %v", err)
		}
		cp = next
		if len(batch) == 0 {
			return out, cp
		}
		out = append(out, batch...)
	}
}

func TestSweepExpired(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, t.TempDir(), Options{SweepInterval: -1})
	now := time.Unix(1_800_000_000, 0)
	items := []store.Item{
		{"pk": "s", "sk": "past", "ttl": now.Unix() - 10},
		{"pk": "s", "sk": "long-past", "ttl": 5},
		{"pk": "s", "sk": "fraction", "ttl": dec("1799999999.5")},
		{"pk": "s", "sk": "future", "ttl": now.Unix() + 10},
		{"pk": "s", "sk": "now", "ttl": now.Unix()},
		{"pk": "s", "sk": "none"},
		{"pk": "s", "sk": "raised", "ttl": now.Unix() - 5},
	}
	for _, it := range items {
		if err := s.Put(ctx, it, nil); err != nil {
			t.Fatal(err)
		}
	}
	// Raising the ttl moves the item's TTL entry: it no longer expires.
	if _, err := s.Update(ctx, store.Key{PK: "s", SK: "raised"}, store.NewUpdate().Set("ttl", now.Unix()+100), nil); err != nil {
		t.Fatal(err)
	}
	_, cp := readAll(t, s, "")

	n, err := s.SweepExpired(now)
	if err != nil || n != 3 {
		t.Fatalf("SweepExpired = %d, %v; want 3", n, err)
	}
	for _, sk := range []string{"past", "long-past", "fraction"} {
		if _, err := s.Get(ctx, store.Key{PK: "s", SK: sk}); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("%s survived the sweep: %v", sk, err)
		}
	}
	for _, sk := range []string{"future", "now", "none", "raised"} {
		if _, err := s.Get(ctx, store.Key{PK: "s", SK: sk}); err != nil {
			t.Fatalf("%s was swept: %v", sk, err)
		}
	}
	changes, _ := readAll(t, s, cp)
	removed := map[string]bool{}
	for _, c := range changes {
		if c.Kind != store.ChangeRemove || c.New != nil || c.Old.Str("sk") != c.Key.SK {
			t.Fatalf("sweep change %+v", c)
		}
		removed[c.Key.SK] = true
	}
	if len(changes) != 3 || !removed["past"] || !removed["long-past"] || !removed["fraction"] {
		t.Fatalf("sweep changes: %+v", changes)
	}
	// A second sweep finds nothing; a later one takes the next expiries.
	if n, err := s.SweepExpired(now); err != nil || n != 0 {
		t.Fatalf("second sweep = %d, %v", n, err)
	}
	if n, err := s.SweepExpired(now.Add(time.Hour)); err != nil || n != 3 {
		t.Fatalf("sweep an hour later = %d, %v; want 3 (future, now, raised)", n, err)
	}
}

func TestSweepManyAndBackground(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, t.TempDir(), Options{SweepInterval: 20 * time.Millisecond})
	past := time.Now().Add(-time.Minute).Unix()
	const n = 250 // more than one sweep transaction
	for i := 0; i < n; i += 50 {
		var ops []store.Op
		for j := i; j < i+50; j++ {
			ops = append(ops, store.PutOp(store.Item{"pk": "bulk", "sk": fmt.Sprintf("%04d", j), "ttl": past}, nil))
		}
		if err := s.Transact(ctx, ops); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		p, err := s.Query(ctx, store.Query{PK: "bulk"})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("background sweeper left %d items", len(p.Items))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A query may see the last sweep's deletions a moment before their
	// fsync; the feed hands them out once they are durable.
	for {
		changes, _ := readAll(t, s, "")
		removes := 0
		for _, c := range changes {
			if c.Kind == store.ChangeRemove {
				removes++
			}
		}
		if removes == n {
			break
		}
		if removes > n || time.Now().After(deadline) {
			t.Fatalf("%d REMOVE changes, want %d", removes, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestFeedPruning(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir, Options{SweepInterval: -1, FeedRetention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		if err := s.Put(ctx, store.Item{"pk": "p", "sk": fmt.Sprint(i)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	all, cp := readAll(t, s, "")
	if len(all) != 5 || cp != "5" {
		t.Fatalf("feed: %d changes, checkpoint %q", len(all), cp)
	}
	// Nothing is older than an hour yet.
	if err := s.pruneFeed(time.Now()); err != nil {
		t.Fatal(err)
	}
	if got, _ := readAll(t, s, ""); len(got) != 5 {
		t.Fatalf("pruned too early: %d left", len(got))
	}
	// Two hours later everything is past retention.
	if err := s.pruneFeed(time.Now().Add(2 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, _ := readAll(t, s, ""); len(got) != 0 {
		t.Fatalf("after pruning: %d left", len(got))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Sequences continue after reopening even though every record was pruned.
	s = openTest(t, dir, Options{SweepInterval: -1})
	if err := s.Put(ctx, store.Item{"pk": "p", "sk": "new"}, nil); err != nil {
		t.Fatal(err)
	}
	got, next := readAll(t, s, cp)
	if len(got) != 1 || got[0].ID != "6" || next != "6" || got[0].Key.SK != "new" {
		t.Fatalf("after reopen: %+v next %q", got, next)
	}
}

// A write's changes share one feed key; reads still see every change in
// order, may stop and resume inside a block, and sequences continue after
// a block on reopening.
func TestFeedBlocks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir, Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	put := func(sk string) store.Op { return store.PutOp(store.Item{"pk": "p", "sk": sk}, nil) }
	if err := s.Put(ctx, store.Item{"pk": "p", "sk": "1"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Transact(ctx, []store.Op{put("2"), put("3"), put("4"), put("5")}); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, store.Item{"pk": "p", "sk": "6"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Transact(ctx, []store.Op{put("7"), put("8"), put("9")}); err != nil {
		t.Fatal(err)
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{nsFeed}, UpperBound: []byte{nsFeed + 1}})
	if err != nil {
		t.Fatal(err)
	}
	var firsts []uint64
	for ok := it.First(); ok; ok = it.Next() {
		firsts = append(firsts, binary.BigEndian.Uint64(it.Key()[1:]))
	}
	_ = it.Close()
	if fmt.Sprint(firsts) != "[1 2 6 7]" {
		t.Fatalf("feed keys %v, want one per write: [1 2 6 7]", firsts)
	}
	for _, from := range []string{"", "1", "2", "3", "4", "5", "8"} {
		cp, want := from, 0
		if from != "" {
			fmt.Sscan(from, &want)
		}
		for cp != "9" {
			batch, next, err := s.Changes().Read(ctx, cp, 2)
			if err != nil || len(batch) == 0 || len(batch) > 2 {
				t.Fatalf("Read(%q, 2): %d changes, %v", cp, len(batch), err)
			}
			for _, c := range batch {
				want++
				if c.ID != fmt.Sprint(want) || c.Key.SK != fmt.Sprint(want) || c.Kind != store.ChangeInsert {
					t.Fatalf("from %q: change %s of %s, want %d", from, c.ID, c.Key.SK, want)
				}
			}
			cp = next
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openTest(t, dir, Options{SweepInterval: -1})
	if err := s.Put(ctx, store.Item{"pk": "p", "sk": "10"}, nil); err != nil {
		t.Fatal(err)
	}
	got, next := readAll(t, s, "9")
	if len(got) != 1 || got[0].ID != "10" || next != "10" {
		t.Fatalf("after reopen: %+v next %q", got, next)
	}
	// Pruning removes whole blocks and remembers the last sequence of the
	// last one.
	if err := s.pruneFeed(time.Now().Add(48 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, _ := readAll(t, s, ""); len(got) != 0 {
		t.Fatalf("after pruning: %d left", len(got))
	}
	if err := s.Transact(ctx, []store.Op{put("11"), put("12")}); err != nil {
		t.Fatal(err)
	}
	if got, _ := readAll(t, s, ""); len(got) != 2 || got[0].ID != "11" {
		t.Fatalf("after pruning and a write: %+v", got)
	}
}

func TestReopenKeepsEverything(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir, Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	it := store.Item{"pk": "u", "sk": "1", "gsi1pk": "g", "gsi1sk": "a", "bal": dec("1.23")}
	if err := s.Put(ctx, it, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(ctx, it.Key(), store.NewUpdate().Add("bal", dec("0.77")), nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openTest(t, dir, Options{SweepInterval: -1})
	got, err := s.Get(ctx, it.Key())
	if err != nil || !got.Dec("bal").Equal(dec("2")) {
		t.Fatalf("after reopen: %v %v", got, err)
	}
	p, err := s.Query(ctx, store.Query{Index: store.IndexGSI1, PK: "g"})
	if err != nil || len(p.Items) != 1 {
		t.Fatalf("gsi1 after reopen: %v %v", p.Items, err)
	}
	changes, cp := readAll(t, s, "")
	if len(changes) != 2 || cp != "2" || changes[1].Kind != store.ChangeModify {
		t.Fatalf("feed after reopen: %+v", changes)
	}
}

func TestClosed(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	k := store.Key{PK: "a", SK: "b"}
	checks := map[string]error{
		"Close":    s.Close(),
		"Put":      s.Put(ctx, store.Item{"pk": "a", "sk": "b"}, nil),
		"Delete":   s.Delete(ctx, k, nil),
		"Transact": s.Transact(ctx, []store.Op{store.DeleteOp(k, nil)}),
	}
	_, checks["Get"] = s.Get(ctx, k)
	_, checks["Update"] = s.Update(ctx, k, store.NewUpdate().Set("x", 1), nil)
	_, checks["Query"] = s.Query(ctx, store.Query{PK: "a"})
	_, _, checks["Feed"] = s.Changes().Read(ctx, "", 1)
	_, checks["Sweep"] = s.SweepExpired(time.Now())
	for name, err := range checks {
		if !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", name, err)
		}
	}
}

func TestNoOpWriteEmitsNothing(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, t.TempDir(), Options{SweepInterval: -1})
	it := store.Item{"pk": "a", "sk": "b", "v": 1}
	for i := 0; i < 3; i++ {
		if err := s.Put(ctx, it, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Update(ctx, it.Key(), store.NewUpdate().SetIfMissing("v", 2).Remove("zzz"), nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, store.Key{PK: "a", SK: "missing"}, nil); err != nil {
		t.Fatal(err)
	}
	if changes, _ := readAll(t, s, ""); len(changes) != 1 || changes[0].Kind != store.ChangeInsert {
		t.Fatalf("changes: %+v", changes)
	}
	if _, _, err := s.Changes().Read(ctx, "not-a-number", 1); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("garbage checkpoint: %v", err)
	}
}

// TestOddKeyBytes checks partition isolation and ordering for keys holding
// 0x00 and 0xFF bytes, which the key encoding must survive.
func TestOddKeyBytes(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, t.TempDir(), Options{SweepInterval: -1})
	pks := []string{"p", "p\x00", "p\xff", "p\xff\xff", "\xff", "q"}
	sks := []string{"\x00", "\x00\x00", "\x00\x01", "a", "a\x00", "a\xff", "\xff", "\xff\xff"}
	for _, pk := range pks {
		for _, sk := range sks {
			it := store.Item{"pk": pk, "sk": sk, "gsi1pk": pk, "gsi1sk": sk, "gsi2pk": "all", "gsi2sk": sk + pk}
			if err := s.Put(ctx, it, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, index := range []string{store.IndexMain, store.IndexGSI1} {
		for _, pk := range pks {
			conds := map[string]struct {
				c    store.SKCond
				want []string
			}{
				"all":       {store.SKCond{}, sks},
				"prefix a":  {store.SKPrefixed("a"), []string{"a", "a\x00", "a\xff"}},
				"prefix ff": {store.SKPrefixed("\xff"), []string{"\xff", "\xff\xff"}},
				"prefix 00": {store.SKPrefixed("\x00"), []string{"\x00", "\x00\x00", "\x00\x01"}},
				"eq a":      {store.SKCond{Kind: store.SKEq, A: "a"}, []string{"a"}},
				"le a":      {store.SKCond{Kind: store.SKLe, A: "a"}, []string{"\x00", "\x00\x00", "\x00\x01", "a"}},
				"gt a":      {store.SKCond{Kind: store.SKGt, A: "a"}, []string{"a\x00", "a\xff", "\xff", "\xff\xff"}},
				"lt 00 00":  {store.SKCond{Kind: store.SKLt, A: "\x00\x00"}, []string{"\x00"}},
				"between":   {store.SKRange("\x00\x00", "a\x00"), []string{"\x00\x00", "\x00\x01", "a", "a\x00"}},
				"ge ff":     {store.SKCond{Kind: store.SKGe, A: "\xff"}, []string{"\xff", "\xff\xff"}},
			}
			for name, c := range conds {
				for _, limit := range []int{0, 1, 3} {
					var got []string
					q := store.Query{Index: index, PK: pk, SK: c.c, Limit: limit}
					for {
						p, err := s.Query(ctx, q)
						if err != nil {
							t.Fatal(err)
						}
						for _, it := range p.Items {
							if it.Str("pk") != pk {
								t.Fatalf("%s %q: foreign item %q", name, pk, it.Str("pk"))
							}
							got = append(got, it.Str("sk"))
						}
						if p.Cursor == "" {
							break
						}
						q.Cursor = p.Cursor
					}
					if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
						t.Fatalf("index %q pk %q %s limit %d: got %q want %q", index, pk, name, limit, got, c.want)
					}
				}
			}
		}
	}
	p, err := s.Query(ctx, store.Query{Index: store.IndexGSI2, PK: "all", Limit: 1000})
	if err != nil || len(p.Items) != len(pks)*len(sks) {
		t.Fatalf("gsi2: %d items, %v", len(p.Items), err)
	}
	for i := 1; i < len(p.Items); i++ {
		if p.Items[i-1].Str("gsi2sk") > p.Items[i].Str("gsi2sk") {
			t.Fatalf("gsi2 out of order at %d", i)
		}
	}
}

func TestCodecRoundTrip(t *testing.T) {
	big := dec("-123456789012345678901234567890.000000000000000000001")
	it := store.Item{
		"pk": "a", "sk": "b", "n": dec("0.1"), "neg": dec("-7"), "big": big, "z": dec("0"),
		"max": decimal.NewFromInt(math.MaxInt64), "min": decimal.NewFromInt(math.MinInt64),
		"s": "héllo\x00", "e": "", "b": []byte{}, "t": true, "f": false, "null": nil,
		"l": []any{[]any{}, map[string]any{}, dec("1e-30")}, "m": map[string]any{"x": map[string]any{"y": "z"}},
	}
	enc := encodeItem(nil, it)
	if again := encodeItem(nil, it); string(again) != string(enc) {
		t.Fatal("encoding is not deterministic")
	}
	key := store.Key{PK: "a", SK: "b"}
	got, err := decodeItem(enc, key)
	if err != nil {
		t.Fatal(err)
	}
	if !storetest.EqualItems(got, it) {
		t.Fatalf("round trip:\n got  %s\n want %s", storetest.Format(got), storetest.Format(it))
	}
	// The key attributes are not encoded (the key is stored beside the
	// item); encodings that carry them, as items written before did, read
	// the same.
	withKey := encodeMap(nil, it)
	if len(enc) >= len(withKey) {
		t.Fatalf("the encoding holds the key: %d bytes, %d with it", len(enc), len(withKey))
	}
	if old, err := decodeItem(withKey, key); err != nil || !storetest.EqualItems(old, it) {
		t.Fatalf("an encoding with the key attributes reads %s (%v)", storetest.Format(old), err)
	}
	if !got.Dec("big").Equal(big) || got.Dec("big").Exponent() != big.Exponent() {
		t.Fatalf("big decimal: %s", got.Dec("big"))
	}
	// Truncated encodings are rejected, never mis-read.
	for i := 0; i < len(enc); i++ {
		if _, err := decodeItem(enc[:i], key); err == nil {
			t.Fatalf("truncated encoding of %d bytes decoded", i)
		}
	}
}

// TestStripeCacheEviction writes more keys of one lock stripe than its cache
// holds, then checks conditional updates still see each key's latest state
// (read from Pebble once evicted).
func TestStripeCacheEviction(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, t.TempDir(), Options{SweepInterval: -1})
	var keys []store.Key
	for i := 0; len(keys) < 2*stripeCacheSize; i++ {
		k := store.Key{PK: fmt.Sprintf("k%d", i), SK: "s"}
		if stripeOf(k) == 7 {
			keys = append(keys, k)
		}
	}
	for round := 1; round <= 2; round++ {
		for _, k := range keys {
			it, err := s.Update(ctx, k, store.NewUpdate().AddInt("n", 1).Set(store.AttrVersion, round),
				store.VersionIs(int64(round-1)))
			if err != nil {
				t.Fatalf("round %d key %v: %v", round, k, err)
			}
			if it.Int("n") != int64(round) {
				t.Fatalf("round %d key %v: n = %d", round, k, it.Int("n"))
			}
		}
		if n := len(s.stripes[7].cache); n != stripeCacheSize {
			t.Fatalf("stripe cache holds %d entries, want %d", n, stripeCacheSize)
		}
	}
}
