package storetest

import (
	"fmt"
	"testing"
	"time"

	"tenger/internal/store"
)

// collectChanges reads the feed after cp, limit changes per call, until n
// changes have arrived (polling until FeedDeadline, since DynamoDB Streams
// lag), and returns them with the checkpoint after the last one.
func collectChanges(t *testing.T, f store.Feed, cp string, n, limit int) ([]store.Change, string) {
	t.Helper()
	deadline := time.Now().Add(FeedDeadline)
	var out []store.Change
	for len(out) < n {
		batch, next, err := f.Read(ctxT(t), cp, limit)
		if err != nil {
			t.Fatalf("feed Read(%q, %d): %v", cp, limit, err)
		}
		if len(batch) > limit {
			t.Fatalf("feed Read returned %d changes, limit %d", len(batch), limit)
		}
		out = append(out, batch...)
		cp = next
		if len(batch) == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("feed: %d changes after %v, want %d: %s", len(out), FeedDeadline, n, formatChanges(out))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if len(out) > n {
		t.Fatalf("feed: %d changes, want %d: %s", len(out), n, formatChanges(out))
	}
	return out, cp
}

// wantNoChanges checks that nothing follows cp.
func wantNoChanges(t *testing.T, f store.Feed, cp string) {
	t.Helper()
	batch, _, err := f.Read(ctxT(t), cp, 100)
	if err != nil {
		t.Fatalf("feed Read: %v", err)
	}
	if len(batch) != 0 {
		t.Fatalf("feed: unexpected changes %s", formatChanges(batch))
	}
}

func formatChanges(cs []store.Change) string {
	s := ""
	for _, c := range cs {
		s += fmt.Sprintf("\n  %s %s %s old=%s new=%s", c.ID, c.Kind, c.Key, Format(c.Old), Format(c.New))
	}
	return s
}

// wantChange is the expected content of one change.
type wantChange struct {
	kind     store.ChangeKind
	old, new store.Item
}

// checkPerKey groups changes by key and compares each key's sequence with
// want; the feed orders the changes of one key, not across keys.
func checkPerKey(t *testing.T, got []store.Change, want map[store.Key][]wantChange, from, to time.Time) {
	t.Helper()
	ids := map[string]bool{}
	byKey := map[store.Key][]store.Change{}
	for _, c := range got {
		if c.ID == "" || ids[c.ID] {
			t.Fatalf("change ID %q empty or repeated: %s", c.ID, formatChanges(got))
		}
		ids[c.ID] = true
		at := time.UnixMilli(c.At)
		// DynamoDB Streams' ApproximateCreationDateTime is coarse (DynamoDB
		// Local rounds it down to the minute), hence the truncated lower bound.
		if at.Before(from.Truncate(time.Minute).Add(-5*time.Second)) || at.After(to.Add(5*time.Second)) {
			t.Fatalf("change %s At=%v outside [%v, %v]", c.ID, at, from, to)
		}
		byKey[c.Key] = append(byKey[c.Key], c)
	}
	if len(byKey) != len(want) {
		t.Fatalf("changes for %d keys, want %d: %s", len(byKey), len(want), formatChanges(got))
	}
	for k, ws := range want {
		cs := byKey[k]
		if len(cs) != len(ws) {
			t.Fatalf("key %v: %d changes, want %d: %s", k, len(cs), len(ws), formatChanges(cs))
		}
		for i, w := range ws {
			c := cs[i]
			if c.Kind != w.kind || !EqualItems(c.Old, w.old) || !EqualItems(c.New, w.new) {
				t.Fatalf("key %v change %d:\n got  %s old=%s new=%s\n want %s old=%s new=%s",
					k, i, c.Kind, Format(c.Old), Format(c.New), w.kind, Format(w.old), Format(w.new))
			}
		}
	}
}

func testFeed(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	f := s.Changes()
	start := time.Now()

	// A fresh store has an empty feed.
	batch, cp0, err := f.Read(ctx, "", 10)
	if err != nil || len(batch) != 0 {
		t.Fatalf("fresh feed: %s err %v", formatChanges(batch), err)
	}

	k1 := key("feed#1", "a")
	v1 := store.Item{"pk": "feed#1", "sk": "a", "v": 1, "note": "one"}
	v2 := store.Item{"pk": "feed#1", "sk": "a", "v": 2}
	v3 := store.Item{"pk": "feed#1", "sk": "a", "v": 3, "extra": true}
	mustPut(t, s, v1)
	mustPut(t, s, v2)
	if _, err := s.Update(ctx, k1, store.NewUpdate().AddInt("v", 1).Set("extra", true), nil); err != nil {
		t.Fatal(err)
	}

	// Writes that fail or change nothing produce no changes.
	wantErr(t, s.Put(ctx, v1, store.ItemNotExists()), store.ErrConditionFailed, "put")
	_, err = s.Update(ctx, k1, store.NewUpdate().Set("v", 9), store.Eq("v", 1))
	wantErr(t, err, store.ErrConditionFailed, "update")
	wantErr(t, s.Delete(ctx, k1, store.Eq("v", 1)), store.ErrConditionFailed, "delete")
	err = s.Transact(ctx, []store.Op{
		store.PutOp(store.Item{"pk": "feed#9", "sk": "x"}, nil),
		store.UpdateOp(k1, store.NewUpdate().Set("v", 9), store.Eq("v", 1)),
	})
	wantTxIndex(t, err, 1, "transact")
	wantErr(t, s.Put(ctx, store.Item{"pk": "feed#9"}, nil), store.ErrInvalid, "invalid put")
	if err := s.Delete(ctx, key("feed#9", "missing"), nil); err != nil {
		t.Fatal(err)
	}

	if err := s.Delete(ctx, k1, nil); err != nil {
		t.Fatal(err)
	}
	// A transaction emits one change per written item (none for checks).
	k2 := store.Item{"pk": "feed#2", "sk": "b", "n": 1}
	k3 := store.Item{"pk": "feed#3", "sk": "c", "n": 2}
	if err := s.Transact(ctx, []store.Op{
		store.PutOp(k2, nil),
		store.PutOp(k3, nil),
		store.CheckOp(key("feed#4", "x"), store.ItemNotExists()),
	}); err != nil {
		t.Fatal(err)
	}
	marker := store.Item{"pk": "feed#m", "sk": "m"}
	mustPut(t, s, marker)

	changes, cp := collectChanges(t, f, cp0, 7, 100)
	checkPerKey(t, changes, map[store.Key][]wantChange{
		k1: {
			{store.ChangeInsert, nil, v1},
			{store.ChangeModify, v1, v2},
			{store.ChangeModify, v2, v3},
			{store.ChangeRemove, v3, nil},
		},
		k2.Key():     {{store.ChangeInsert, nil, k2}},
		k3.Key():     {{store.ChangeInsert, nil, k3}},
		marker.Key(): {{store.ChangeInsert, nil, marker}},
	}, start, time.Now())
	wantNoChanges(t, f, cp)

	// Reading from the start again yields the same changes (the feed retains them).
	again, _ := collectChanges(t, f, "", 7, 100)
	for i := range again {
		if again[i].ID != changes[i].ID {
			t.Fatalf("re-read from start differs at %d: %s vs %s", i, again[i].ID, changes[i].ID)
		}
	}

	// Update creating an item is an INSERT; the checkpoint of an empty read
	// still continues correctly.
	_, cpEmpty, err := f.Read(ctx, cp, 10)
	if err != nil {
		t.Fatal(err)
	}
	created, err := s.Update(ctx, key("feed#5", "e"), store.NewUpdate().Set("x", "y"), nil)
	if err != nil {
		t.Fatal(err)
	}
	changes, _ = collectChanges(t, f, cpEmpty, 1, 10)
	checkPerKey(t, changes, map[store.Key][]wantChange{
		created.Key(): {{store.ChangeInsert, nil, created}},
	}, start, time.Now())
}

func testFeedResume(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	f := s.Changes()
	// 24 changes over 4 keys, each key counting up.
	const rounds, keys = 6, 4
	for r := 0; r < rounds; r++ {
		for k := 0; k < keys; k++ {
			if _, err := s.Update(ctx, key(fmt.Sprintf("r#%d", k), "s"), store.NewUpdate().AddInt("n", 1), nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	all, end := collectChanges(t, f, "", rounds*keys, 100)

	// Reading in small batches, resuming from each checkpoint, yields the
	// same sequence with no repeats and no gaps.
	type mark struct {
		cp     string
		before int // changes that precede cp
	}
	var got []store.Change
	var marks []mark
	cp := ""
	deadline := time.Now().Add(FeedDeadline)
	for len(got) < len(all) {
		batch, next, err := f.Read(ctx, cp, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(batch) > 5 {
			t.Fatalf("Read with limit 5 returned %d", len(batch))
		}
		if len(batch) == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("batched read stalled after %d of %d changes", len(got), len(all))
			}
			time.Sleep(50 * time.Millisecond)
		}
		got = append(got, batch...)
		cp = next
		marks = append(marks, mark{cp, len(got)})
	}
	if len(got) != len(all) {
		t.Fatalf("batched read: %d changes, want %d", len(got), len(all))
	}
	for i := range all {
		if got[i].ID != all[i].ID {
			t.Fatalf("batched read differs at %d: %s", i, formatChanges(got))
		}
	}
	// Per key, the counter goes 1..rounds in order (MODIFY after the INSERT).
	next := map[store.Key]int64{}
	for _, c := range all {
		want := next[c.Key] + 1
		if c.New.Int("n") != want {
			t.Fatalf("key %v: change with n=%d, want %d: %s", c.Key, c.New.Int("n"), want, formatChanges(all))
		}
		wantKind := store.ChangeModify
		if want == 1 {
			wantKind = store.ChangeInsert
		}
		if c.Kind != wantKind {
			t.Fatalf("key %v n=%d: kind %s, want %s", c.Key, want, c.Kind, wantKind)
		}
		if want > 1 && c.Old.Int("n") != want-1 {
			t.Fatalf("key %v n=%d: old image %s", c.Key, want, Format(c.Old))
		}
		next[c.Key] = want
	}
	for k := 0; k < keys; k++ {
		if next[key(fmt.Sprintf("r#%d", k), "s")] != rounds {
			t.Fatalf("key %d saw %d changes", k, next[key(fmt.Sprintf("r#%d", k), "s")])
		}
	}

	// Resuming from a checkpoint in the middle yields exactly the rest.
	for _, m := range []mark{marks[0], marks[len(marks)/2]} {
		if m.before == len(all) {
			continue
		}
		tail, _ := collectChanges(t, f, m.cp, len(all)-m.before, 100)
		for i := range tail {
			if tail[i].ID != all[m.before+i].ID {
				t.Fatalf("resume after %d changes: at %d got %s want %s", m.before, i, tail[i].ID, all[m.before+i].ID)
			}
		}
	}

	// New writes appear after the end checkpoint, and only they.
	wantNoChanges(t, f, end)
	if err := s.Delete(ctx, key("r#0", "s"), nil); err != nil {
		t.Fatal(err)
	}
	last, _ := collectChanges(t, f, end, 1, 100)
	if last[0].Kind != store.ChangeRemove || last[0].Key != key("r#0", "s") || last[0].Old.Int("n") != rounds || last[0].New != nil {
		t.Fatalf("after end checkpoint: %s", formatChanges(last))
	}
}
