package embedded

import (
	"context"
	"fmt"
	"math/rand"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// The durable watermark advances only over a contiguous run of completed
// reservations, whatever order they complete in.
func TestSequencerWatermarkIsContiguous(t *testing.T) {
	var q sequencer
	q.init(10)
	a1, a2 := q.reserve(3) // 11..13
	b1, b2 := q.reserve(1) // 14
	c1, c2 := q.reserve(2) // 15..16
	if a1 != 11 || a2 != 13 || b1 != 14 || b2 != 14 || c1 != 15 || c2 != 16 {
		t.Fatalf("reservations %d-%d %d-%d %d-%d", a1, a2, b1, b2, c1, c2)
	}
	q.complete(c1, c2)
	q.complete(b1, b2)
	if d := q.durable.Load(); d != 10 {
		t.Fatalf("watermark %d before the first reservation completed, want 10", d)
	}
	q.complete(a1, a2)
	if d := q.durable.Load(); d != 16 {
		t.Fatalf("watermark %d after all completed, want 16", d)
	}
	if len(q.pending) != 0 {
		t.Fatalf("%d completed ranges left pending", len(q.pending))
	}
	if r := q.reserved(); r != 16 {
		t.Fatalf("reserved %d, want 16", r)
	}
}

// Under concurrency every sequence is handed out once and the watermark
// ends at the last one.
func TestSequencerConcurrent(t *testing.T) {
	var q sequencer
	q.init(0)
	const workers, each = 8, 500
	seen := make([]bool, workers*each*3+1)
	var mu sync.Mutex
	var wg sync.WaitGroup
	var total uint64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			r := rand.New(rand.NewSource(seed))
			for i := 0; i < each; i++ {
				n := 1 + r.Intn(3)
				first, last := q.reserve(n)
				mu.Lock()
				total += uint64(n)
				for s := first; s <= last; s++ {
					if seen[s] {
						t.Errorf("sequence %d handed out twice", s)
					}
					seen[s] = true
				}
				mu.Unlock()
				if d := q.durable.Load(); d >= first {
					t.Errorf("watermark %d reached an incomplete reservation %d", d, first)
				}
				q.complete(first, last)
			}
		}(int64(w))
	}
	wg.Wait()
	if d := q.durable.Load(); d != total {
		t.Fatalf("watermark %d, want %d", d, total)
	}
}

// Writers of different keys commit concurrently, so their batches may reach
// Pebble out of sequence order; a reader that follows the feed while they
// run must still see every change exactly once, each key's in order. Every
// fifth writer stalls between its reservation and its commit, so later
// sequences are durable before earlier ones on every run.
func TestFeedFollowsConcurrentWriters(t *testing.T) {
	s := openTest(t, t.TempDir(), Options{SweepInterval: -1})
	s.reservedHook = func(first uint64) {
		if first%5 == 0 {
			time.Sleep(2 * time.Millisecond)
		}
	}
	ctx := context.Background()
	const writers, each = 8, 150
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			k := store.Key{PK: fmt.Sprintf("CTR#%d", w), SK: "C"}
			for i := 0; i < each; i++ {
				if _, err := s.Update(ctx, k, (&store.Update{}).Add("n", decimal.NewFromInt(1)), nil); err != nil {
					t.Error(err)
					return
				}
			}
		}(w)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	last := map[string]int64{}
	seen, cp := 0, ""
	follow := func() {
		batch, next, err := s.Changes().Read(ctx, cp, 7)
		if err != nil {
			t.Fatalf("feed Read: %v", err)
		}
		cp = next
		for _, c := range batch {
			n := c.New.Dec("n").IntPart()
			if n != last[c.Key.PK]+1 {
				t.Fatalf("%s: change to %d after %d (a change skipped, repeated or out of order)", c.Key.PK, n, last[c.Key.PK])
			}
			last[c.Key.PK] = n
			seen++
		}
	}
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
			follow()
		}
	}
	for before := -1; before != seen; {
		before = seen
		follow()
	}
	if seen != writers*each {
		t.Fatalf("the feed gave %d changes, want %d", seen, writers*each)
	}
}
