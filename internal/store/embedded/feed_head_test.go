package embedded

import (
	"context"
	"errors"
	"testing"

	"tenger/internal/store"
)

// TestFeedHead: reading from the head returns exactly what is committed
// after it was taken.
func TestFeedHead(t *testing.T) {
	s, err := Open(t.TempDir(), Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	put := func(pk string) {
		t.Helper()
		if err := s.Put(ctx, store.Item{store.AttrPK: pk, store.AttrSK: "x"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	f := s.Changes().(interface {
		store.Feed
		Head(context.Context) (string, error)
	})
	put("before")
	h, err := f.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := f.Read(ctx, h, 10); err != nil || len(got) != 0 {
		t.Fatalf("read at the head: %v %v", got, err)
	}
	put("after")
	got, _, err := f.Read(ctx, h, 10)
	if err != nil || len(got) != 1 || got[0].Key.PK != "after" {
		t.Fatalf("read from the head = %+v %v, want the one later change", got, err)
	}
	_ = s.Close()
	if _, err := f.Head(ctx); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("head of a closed store: %v", err)
	}
}
