package workflow

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

var ctx = context.Background()

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func openStore(t *testing.T) store.Store {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// counterDef counts how often each step ran; "flaky" fails its first
// failures tries; "wait" waits for a completion.
type counterDef struct {
	mu       sync.Mutex
	runs     map[string]int
	failures int
	perm     bool
}

func (c *counterDef) step(name string, tr Transition) Step {
	return Step{Run: func(_ context.Context, in Instance) (Transition, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.runs[name]++
		if name == "flaky" && c.runs[name] <= c.failures {
			if c.perm {
				return Transition{}, Permanent(errors.New("refused"))
			}
			return Transition{}, errors.New("down")
		}
		return tr, nil
	}}
}

func (c *counterDef) def() Definition {
	flaky := c.step("flaky", Goto("wait"))
	flaky.MaxAttempts, flaky.OnExhausted = 3, "undo"
	wait := c.step("wait", Wait())
	wait.OnOK, wait.OnFail = "finish", "undo"
	return Definition{Kind: "test", First: "flaky", Steps: map[string]Step{
		"flaky": flaky, "wait": wait, "finish": c.step("finish", Finish()), "undo": c.step("undo", Fail()),
	}}
}

func newRunner(st store.Store, clk *clock) *Runner {
	return New(Options{Store: st, Now: clk.Now, Log: zerolog.Nop(), BackoffBase: time.Second, BackoffMax: 4 * time.Second, RecheckAfter: time.Minute})
}

func TestRetryBackoffThenWaitAndComplete(t *testing.T) {
	st := openStore(t)
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	cd := &counterDef{runs: map[string]int{}, failures: 2}
	r := newRunner(st, clk)
	r.Register(cd.def())
	if err := r.Submit(ctx, "test", "i1", map[string]string{"a": "b"}); err != nil {
		t.Fatal(err)
	}
	if err := r.Submit(ctx, "test", "i1", nil); err != nil { // a duplicate submit is a no-op
		t.Fatal(err)
	}
	if n, _ := r.RunDue(ctx); n != 1 {
		t.Fatalf("first pass ran %d", n)
	}
	if n, _ := r.RunDue(ctx); n != 0 {
		t.Fatal("retried before its backoff")
	}
	clk.Add(time.Second)
	r.RunDue(ctx) // second failure
	clk.Add(2 * time.Second)
	r.RunDue(ctx) // succeeds, then wait runs in the same pass or the next
	r.RunDue(ctx)
	in, err := r.Get(ctx, "i1")
	if err != nil || in.Step != "wait" || in.Status != StatusWaiting || string(in.Input) != `{"a":"b"}` {
		t.Fatalf("instance %+v %v", in, err)
	}
	if err := r.Complete(ctx, "garbage!", true, ""); !errors.Is(err, ErrBadToken) {
		t.Fatalf("bad token: %v", err)
	}
	if err := r.Complete(ctx, in.Token(), true, "tx1"); err != nil {
		t.Fatal(err)
	}
	if err := r.Complete(ctx, in.Token(), false, "late"); err != nil { // ignored: already moved on
		t.Fatal(err)
	}
	r.RunDue(ctx)
	in, _ = r.Get(ctx, "i1")
	if in.Status != StatusDone || in.Detail != "tx1" || !in.CompletedOK {
		t.Fatalf("final %+v", in)
	}
	if cd.runs["flaky"] != 3 || cd.runs["finish"] != 1 || cd.runs["undo"] != 0 {
		t.Fatalf("runs %v", cd.runs)
	}
}

func TestExhaustedAndPermanentGoToCompensation(t *testing.T) {
	for _, perm := range []bool{false, true} {
		st := openStore(t)
		clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		cd := &counterDef{runs: map[string]int{}, failures: 100, perm: perm}
		r := newRunner(st, clk)
		r.Register(cd.def())
		if err := r.Submit(ctx, "test", "i1", nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 10; i++ {
			r.RunDue(ctx)
			clk.Add(5 * time.Second)
		}
		in, _ := r.Get(ctx, "i1")
		want := 3
		if perm {
			want = 1
		}
		if in.Status != StatusFailed || cd.runs["flaky"] != want || cd.runs["undo"] != 1 || in.LastError == "" {
			t.Fatalf("perm=%v: %+v runs %v", perm, in, cd.runs)
		}
	}
}

func TestStartStopRunsInBackground(t *testing.T) {
	st := openStore(t)
	var ran atomic.Int32
	r := New(Options{Store: st, Log: zerolog.Nop(), Poll: time.Millisecond})
	r.Register(Definition{Kind: "bg", First: "a", Steps: map[string]Step{"a": {Run: func(context.Context, Instance) (Transition, error) {
		ran.Add(1)
		return Finish(), nil
	}}}})
	r.Start(ctx)
	defer r.Stop()
	if err := r.Submit(ctx, "bg", "x", nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		in, _ := r.Get(ctx, "x")
		if in.Status == StatusDone {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("background runner did not run the instance")
		}
		time.Sleep(time.Millisecond)
	}
	if ran.Load() != 1 {
		t.Fatalf("ran %d times", ran.Load())
	}
}

func TestLeaseTakesOverAfterCrash(t *testing.T) {
	st := openStore(t)
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	var effects atomic.Int32
	crash := true
	def := Definition{Kind: "k", First: "a", Steps: map[string]Step{"a": {Run: func(context.Context, Instance) (Transition, error) {
		effects.Add(1)
		return Finish(), nil
	}}}}
	r := New(Options{Store: st, Now: clk.Now, Log: zerolog.Nop(), BeforeCommit: func(Instance, Transition, error) error {
		if crash {
			return errors.New("die")
		}
		return nil
	}})
	r.Register(def)
	if err := r.Submit(ctx, "k", "i", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.RunDue(ctx); err == nil {
		t.Fatal("want the simulated crash")
	}
	crash = false
	r2 := New(Options{Store: st, Now: clk.Now, Log: zerolog.Nop()})
	r2.Register(def)
	if n, _ := r2.RunDue(ctx); n != 0 {
		t.Fatal("took the step while its lease holds")
	}
	clk.Add(31 * time.Second)
	if n, _ := r2.RunDue(ctx); n != 1 {
		t.Fatal("did not take the step after the lease")
	}
	if in, _ := r2.Get(ctx, "i"); in.Status != StatusDone || effects.Load() != 2 {
		t.Fatalf("%+v effects %d", in, effects.Load())
	}
}

func TestTokenRoundTrip(t *testing.T) {
	id, step, err := ParseToken(TokenFor("w123", "await"))
	if err != nil || id != "w123" || step != "await" {
		t.Fatalf("%q %q %v", id, step, err)
	}
	for _, bad := range []string{"", "!!", TokenFor("", "x")} {
		if _, _, err := ParseToken(bad); err == nil {
			t.Fatalf("accepted %q", bad)
		}
	}
}

// DueOp brings a deadline forward while the instance waits for it, and is
// refused once the instance has moved on (done, or handed to Step Functions).
func TestDueOpBringsADeadlineForward(t *testing.T) {
	st := openStore(t)
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	r := newRunner(st, clk)
	d := Definition{Kind: "deadline", First: "end", Steps: map[string]Step{"end": {Run: func(context.Context, Instance) (Transition, error) {
		return Finish(), nil
	}}}}
	r.Register(d)
	for _, id := range []string{"a", "b"} {
		op, err := StartOpAt(d, id, nil, clk.Now(), clk.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Transact(ctx, []store.Op{op}); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := r.RunDue(ctx); n != 0 {
		t.Fatalf("ran %d an hour early", n)
	}
	clk.Add(time.Minute)
	if err := st.Transact(ctx, []store.Op{DueOp("a", clk.Now())}); err != nil {
		t.Fatal(err)
	}
	if n, _ := r.RunDue(ctx); n != 1 {
		t.Fatalf("ran %d after a's deadline moved to now", n)
	}
	if in, _ := r.Get(ctx, "a"); in.Status != StatusDone {
		t.Fatalf("a %+v", in)
	}
	if err := st.Transact(ctx, []store.Op{DueOp("a", clk.Now())}); !errors.Is(err, store.ErrConditionFailed) {
		t.Fatalf("a done: %v", err)
	}
	if err := HandedOver(ctx, st, "b", clk.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.Transact(ctx, []store.Op{DueOp("b", clk.Now())}); !errors.Is(err, store.ErrConditionFailed) {
		t.Fatalf("b handed over: %v", err)
	}
}
