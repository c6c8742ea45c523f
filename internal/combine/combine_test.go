package combine

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Every request gets its own result exactly once, groups respect Take, and
// no more than Max groups commit at once.
func TestCombinerGroupsAndAnswersEveryRequest(t *testing.T) {
	var inflight, maxSeen, groups, grouped atomic.Int64
	c := &Combiner[int, int]{
		Max:  2,
		Take: func(p []int) int { return min(len(p), 5) },
		Commit: func(ctx context.Context, g []int) ([]int, func()) {
			n := inflight.Add(1)
			for {
				m := maxSeen.Load()
				if n <= m || maxSeen.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			inflight.Add(-1)
			if len(g) > 5 {
				t.Errorf("group of %d, Take allows 5", len(g))
			}
			groups.Add(1)
			grouped.Add(int64(len(g)))
			out := make([]int, len(g))
			for i, r := range g {
				out[i] = r * 10
			}
			return out, nil
		},
	}
	var wg sync.WaitGroup
	for i := 1; i <= 400; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if got := c.Do(context.Background(), i); got != i*10 {
				t.Errorf("request %d got %d", i, got)
			}
		}(i)
	}
	wg.Wait()
	if grouped.Load() != 400 {
		t.Fatalf("%d requests committed, want 400", grouped.Load())
	}
	if maxSeen.Load() > 2 {
		t.Fatalf("%d groups committed at once, Max is 2", maxSeen.Load())
	}
	if groups.Load() >= 400 {
		t.Fatalf("no grouping happened: %d groups", groups.Load())
	}
}

// A cancelled caller's request is still committed with its group.
func TestCommitIgnoresCancellation(t *testing.T) {
	c := &Combiner[int, error]{
		Take: func(p []int) int { return len(p) },
		Commit: func(ctx context.Context, g []int) ([]error, func()) {
			out := make([]error, len(g))
			for i := range g {
				out[i] = ctx.Err()
			}
			return out, nil
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Do(ctx, 1); err != nil {
		t.Fatalf("commit saw %v", err)
	}
}

// A commit that hands back a wait frees its slot before waiting: with Max 1
// the next group commits while the first still waits, and the results the
// wait sets are the ones handed out.
func TestWaitFreesTheSlot(t *testing.T) {
	secondCommitted := make(chan struct{})
	var commits atomic.Int64
	c := &Combiner[int, int]{
		Max:  1,
		Take: func(p []int) int { return 1 },
		Commit: func(ctx context.Context, g []int) ([]int, func()) {
			out := []int{-1}
			n := commits.Add(1)
			if n == 2 {
				close(secondCommitted)
			}
			return out, func() {
				if n == 1 {
					select {
					case <-secondCommitted:
					case <-time.After(5 * time.Second):
						t.Error("the second group did not commit while the first waited")
					}
				}
				out[0] = g[0] * 10
			}
		},
	}
	var wg sync.WaitGroup
	got := make([]int, 3)
	first := make(chan struct{})
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i == 2 {
				<-first
			}
			got[i] = c.Do(context.Background(), i)
		}(i)
		if i == 1 {
			for commits.Load() == 0 {
				time.Sleep(time.Millisecond)
			}
			close(first)
		}
	}
	wg.Wait()
	if got[1] != 10 || got[2] != 20 {
		t.Fatalf("results %v, want 10 and 20 from the waits", got[1:])
	}
}

func TestPrefix(t *testing.T) {
	type req struct {
		cost int
		keys []string
	}
	cost := func(r req) int { return r.cost }
	keys := func(r req) []string { return r.keys }
	for _, tc := range []struct {
		name    string
		pending []req
		want    int
	}{
		{"all fit", []req{{3, []string{"a"}}, {3, []string{"b"}}, {3, []string{"c"}}}, 3},
		{"stops at the cost limit", []req{{4, []string{"a"}}, {4, []string{"b"}}, {4, []string{"c"}}}, 2},
		{"stops at a key taken before", []req{{1, []string{"a", "b"}}, {1, []string{"c"}}, {1, []string{"b"}}, {1, []string{"d"}}}, 2},
		{"the first always goes, even over the limit", []req{{20, []string{"a"}}, {1, []string{"b"}}}, 1},
	} {
		if got := Prefix(tc.pending, 10, cost, keys); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
