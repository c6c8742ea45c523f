package spot

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// The data directory's engine lock is held by one engine at a time: a
// second waits until the first releases it, and gives up when its context
// ends.
func TestDataDirLock(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no advisory file locks")
	}
	dir := t.TempDir()
	release, err := lockDataDir(context.Background(), dir, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*lockRetry)
	_, err = lockDataDir(ctx, dir, zerolog.Nop())
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second lock while held: %v", err)
	}
	got := make(chan error, 1)
	go func() {
		r, err := lockDataDir(context.Background(), dir, zerolog.Nop())
		if err == nil {
			r()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("taken while held: %v", err)
	case <-time.After(2 * lockRetry):
	}
	release()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * lockRetry):
		t.Fatal("not taken after release")
	}
}

// Two engines on one data directory: the second waits for the first to
// stop before it reads the journal, and then carries on from it.
func TestExclusiveEngineWaitsForTheOther(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no advisory file locks")
	}
	e := newEnv(t)
	dir := e.dir + "/engine"
	open := func(ctx context.Context) (*Engine, error) {
		return NewEngine(ctx, EngineOptions{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: e.q, DataDir: dir,
			Feed: e.feed, SnapshotEvery: -1, Exclusive: true})
	}
	first, err := open(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	e.eng = first
	e.deposit(alice, "BTC", "1")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.5"))
	e.drain()
	h := first.StateHash("btcusdt")
	ctx, cancel := context.WithTimeout(e.ctx, 3*lockRetry)
	_, err = open(ctx)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a second engine started beside the first: %v", err)
	}
	second := make(chan *Engine, 1)
	go func() {
		eng, err := open(e.ctx)
		if err != nil {
			t.Error(err)
		}
		second <- eng
	}()
	time.Sleep(2 * lockRetry)
	if len(second) != 0 {
		t.Fatal("the second engine did not wait")
	}
	if err := first.Stop(); err != nil {
		t.Fatal(err)
	}
	select {
	case eng := <-second:
		if eng == nil || eng.StateHash("btcusdt") != h {
			t.Fatal("the second engine did not carry on from the first")
		}
		_ = eng.Stop()
	case <-time.After(20 * lockRetry):
		t.Fatal("the second engine did not start after the first stopped")
	}
}
