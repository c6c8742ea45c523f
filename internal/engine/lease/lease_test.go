package lease

import (
	"context"
	"errors"
	"testing"
	"time"

	"tenger/internal/store/embedded"
)

func TestOneHolderAtATime(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	a := New(st, "engine", "task-a", 10*time.Second, clock)
	b := New(st, "engine", "task-b", 10*time.Second, clock)
	if ok, err := a.TryAcquire(ctx); !ok || err != nil || a.Term() != 1 {
		t.Fatalf("a: %v %v term %d", ok, err, a.Term())
	}
	if ok, _ := b.TryAcquire(ctx); ok {
		t.Fatal("b took a held lease")
	}
	now = now.Add(8 * time.Second)
	if err := a.Renew(ctx); err != nil {
		t.Fatal(err)
	}
	now = now.Add(8 * time.Second) // 16 s: lapsed had a not renewed
	if ok, _ := b.TryAcquire(ctx); ok {
		t.Fatal("b took a renewed lease")
	}
	now = now.Add(3 * time.Second) // 19 s: a's renewal ran to 18 s
	if ok, err := b.TryAcquire(ctx); !ok || err != nil || b.Term() != 2 {
		t.Fatalf("b after the lapse: %v %v term %d", ok, err, b.Term())
	}
	if err := a.Renew(ctx); !errors.Is(err, ErrLost) {
		t.Fatalf("a renewing a lease b took: %v", err)
	}
	// A clean stop hands over at once.
	if err := b.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if ok, _ := a.TryAcquire(ctx); !ok || a.Term() != 3 {
		t.Fatalf("a after b released: %v term %d (terms only grow)", ok, a.Term())
	}
}

// Keep reports the lease lost once another holds it.
func TestKeepReportsLoss(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := New(st, "engine", "task-a", 30*time.Millisecond, nil)
	if ok, _ := a.TryAcquire(ctx); !ok {
		t.Fatal("a")
	}
	lost := make(chan error, 1)
	go a.Keep(ctx, func(err error) { lost <- err })
	time.Sleep(50 * time.Millisecond)
	select {
	case err := <-lost:
		t.Fatalf("lost a renewed lease: %v", err)
	default:
	}
	// Another takes it over (as after a network partition).
	if err := st.Delete(ctx, a.key, nil); err != nil {
		t.Fatal(err)
	}
	b := New(st, "engine", "task-b", time.Minute, nil)
	if ok, _ := b.TryAcquire(ctx); !ok {
		t.Fatal("b")
	}
	select {
	case err := <-lost:
		if !errors.Is(err, ErrLost) {
			t.Fatal(err)
		}
	case <-time.After(time.Second):
		t.Fatal("Keep did not report the loss")
	}
}

// The lease item names the holder's address while it holds it, and
// nobody once it lapses or is released.
func TestLookupFindsTheHolder(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	if _, ok, err := Lookup(ctx, st, "spot", now); ok || err != nil {
		t.Fatalf("a lease never taken: %v %v", ok, err)
	}
	a := New(st, "spot", "task-a", 10*time.Second, clock)
	a.Advertise("10.0.1.5:8082")
	b := New(st, "spot", "task-b", 10*time.Second, clock)
	b.Advertise("10.0.2.9:8082")
	if ok, _ := a.TryAcquire(ctx); !ok {
		t.Fatal("a")
	}
	if ok, _ := b.TryAcquire(ctx); ok {
		t.Fatal("b took a held lease")
	}
	h, ok, err := Lookup(ctx, st, "spot", now)
	if !ok || err != nil || h.Addr != "10.0.1.5:8082" || h.Owner != "task-a" || h.Term != 1 {
		t.Fatalf("held by a: %+v %v %v", h, ok, err)
	}
	now = now.Add(11 * time.Second)
	if _, ok, _ := Lookup(ctx, st, "spot", now); ok {
		t.Fatal("a lapsed lease has a holder")
	}
	if ok, _ := b.TryAcquire(ctx); !ok {
		t.Fatal("b after the lapse")
	}
	if h, ok, _ := Lookup(ctx, st, "spot", now); !ok || h.Addr != "10.0.2.9:8082" || h.Term != 2 {
		t.Fatalf("held by b: %+v", h)
	}
	if err := b.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := Lookup(ctx, st, "spot", now); ok {
		t.Fatal("a released lease has a holder")
	}
}
