package ratelimit

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tenger/internal/store/embedded"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func newLimiter(t *testing.T) (*Limiter, *clock) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	c := &clock{t: time.Date(2026, 11, 21, 10, 0, 10, 0, time.UTC)}
	return New(st, c.now), c
}

var ctx = context.Background()

func TestAllowFixedWindow(t *testing.T) {
	l, c := newLimiter(t)
	for i := 1; i <= 3; i++ {
		d, err := l.Allow(ctx, "k", 3, time.Minute)
		if err != nil || !d.Allowed || d.Count != i {
			t.Fatalf("attempt %d: %+v %v", i, d, err)
		}
	}
	d, _ := l.Allow(ctx, "k", 3, time.Minute)
	// The window started at 10:00:00; it is 10:00:10.
	if d.Allowed || d.RetryAfter != 50*time.Second || d.RetryAfterSeconds() != 50 {
		t.Fatalf("4th: %+v", d)
	}
	if d, _ := l.Allow(ctx, "other", 3, time.Minute); !d.Allowed {
		t.Fatal("keys are not independent")
	}
	c.add(50 * time.Second)
	if d, _ := l.Allow(ctx, "k", 3, time.Minute); !d.Allowed || d.Count != 1 {
		t.Fatalf("new window: %+v", d)
	}
}

func TestAllowIsExactUnderConcurrency(t *testing.T) {
	l, _ := newLimiter(t)
	var ok atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := l.Allow(ctx, "hot", 10, time.Hour)
			if err != nil {
				t.Error(err)
			}
			if d.Allowed {
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 10 {
		t.Fatalf("%d allowed, want exactly 10", ok.Load())
	}
}

func TestFailuresLockForAWindow(t *testing.T) {
	l, c := newLimiter(t)
	w := 15 * time.Minute
	for i := 1; i < 5; i++ {
		d, err := l.Fail(ctx, "acct", 5, w)
		if err != nil || !d.Allowed || d.Count != i {
			t.Fatalf("failure %d: %+v %v", i, d, err)
		}
		c.add(time.Minute)
	}
	d, _ := l.Fail(ctx, "acct", 5, w)
	if d.Allowed || d.RetryAfter != w {
		t.Fatalf("5th failure: %+v", d)
	}
	c.add(10 * time.Minute)
	d, _ = l.Check(ctx, "acct")
	if d.Allowed || d.RetryAfter != 5*time.Minute {
		t.Fatalf("check while locked: %+v", d)
	}
	c.add(5 * time.Minute)
	if d, _ := l.Check(ctx, "acct"); !d.Allowed {
		t.Fatalf("still locked: %+v", d)
	}
	// The count starts again after the lock.
	if d, _ := l.Fail(ctx, "acct", 5, w); !d.Allowed || d.Count != 1 {
		t.Fatalf("after lock: %+v", d)
	}
	if err := l.Reset(ctx, "acct"); err != nil {
		t.Fatal(err)
	}
	if d, _ := l.Check(ctx, "acct"); !d.Allowed || d.Count != 0 {
		t.Fatalf("after reset: %+v", d)
	}
}

func TestFailuresOutsideWindowDoNotAddUp(t *testing.T) {
	l, c := newLimiter(t)
	for i := 0; i < 4; i++ {
		_, _ = l.Fail(ctx, "slow", 5, time.Minute)
	}
	c.add(61 * time.Second)
	if d, _ := l.Fail(ctx, "slow", 5, time.Minute); !d.Allowed || d.Count != 1 {
		t.Fatalf("old failures counted: %+v", d)
	}
}

func TestConcurrentFailuresAllCount(t *testing.T) {
	l, _ := newLimiter(t)
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := l.Fail(ctx, "c", 100, time.Hour); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if d, _ := l.Check(ctx, "c"); d.Count != 12 {
		t.Fatalf("count %d, want 12", d.Count)
	}
}

func TestBadArguments(t *testing.T) {
	l, _ := newLimiter(t)
	if _, err := l.Allow(ctx, "k", 0, time.Minute); err == nil {
		t.Fatal("limit 0 accepted")
	}
	if _, err := l.Fail(ctx, "k", 1, 0); err == nil {
		t.Fatal("window 0 accepted")
	}
}
