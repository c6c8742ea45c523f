package push

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// gatedPusher records publishes; while gate is set, each publish waits for
// a value on it, like a slow network.
type gatedPusher struct {
	Pusher
	mu      sync.Mutex
	got     []string // "channel msg"
	started chan string
	gate    chan struct{}
}

func (p *gatedPusher) Publish(_ context.Context, ch string, msg []byte) (int, error) {
	if p.started != nil {
		p.started <- ch + " " + string(msg)
	}
	if p.gate != nil {
		<-p.gate
	}
	p.mu.Lock()
	p.got = append(p.got, ch+" "+string(msg))
	p.mu.Unlock()
	return 1, nil
}

func (p *gatedPusher) PublishUser(context.Context, string, []byte) (int, error) { return 7, nil }

func (p *gatedPusher) published() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.got...)
}

func snapshotChannel(ch string) bool { return !strings.HasSuffix(ch, "_trade_ticker") }

// TestAsyncDoesNotWaitAndCoalesces: while the wrapped pusher is stuck on a
// message, Publish keeps returning at once; snapshot channels then deliver
// only their newest waiting message, trade channels every message in order.
func TestAsyncDoesNotWaitAndCoalesces(t *testing.T) {
	inner := &gatedPusher{started: make(chan string, 16), gate: make(chan struct{})}
	a := NewAsync(inner, AsyncOptions{Latest: snapshotChannel})
	ctx := context.Background()
	if _, err := a.Publish(ctx, "market_btcusdt_depth_step0", []byte("d0")); err != nil {
		t.Fatal(err)
	}
	// The sender is now blocked inside the wrapped Publish of d0.
	if got := <-inner.started; got != "market_btcusdt_depth_step0 d0" {
		t.Fatalf("first publish %q", got)
	}
	for i := 1; i <= 5; i++ {
		if n, err := a.Publish(ctx, "market_btcusdt_depth_step0", []byte(fmt.Sprintf("d%d", i))); err != nil || n != 0 {
			t.Fatalf("publish while blocked: %d %v", n, err)
		}
	}
	for i := 1; i <= 3; i++ {
		if _, err := a.Publish(ctx, "market_btcusdt_trade_ticker", []byte(fmt.Sprintf("t%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	// Other port methods are not queued.
	if n, _ := a.PublishUser(ctx, "u1", []byte("x")); n != 7 {
		t.Fatalf("PublishUser went through the queue (%d)", n)
	}
	close(inner.gate)
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{"market_btcusdt_depth_step0 d0", "market_btcusdt_depth_step0 d5",
		"market_btcusdt_trade_ticker t1", "market_btcusdt_trade_ticker t2", "market_btcusdt_trade_ticker t3"}
	if got := inner.published(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("published %q, want %q", got, want)
	}
	if _, err := a.Publish(ctx, "market_x", []byte("late")); !errors.Is(err, ErrClosed) {
		t.Fatalf("publish after Close: %v, want ErrClosed", err)
	}
}

// TestAsyncBoundsAQueue: a non-snapshot channel keeps at most MaxPending
// waiting messages, dropping (and counting) the oldest.
func TestAsyncBoundsAQueue(t *testing.T) {
	inner := &gatedPusher{started: make(chan string, 16), gate: make(chan struct{})}
	a := NewAsync(inner, AsyncOptions{MaxPending: 2})
	ctx := context.Background()
	if _, err := a.Publish(ctx, "market_a_trade_ticker", []byte("m0")); err != nil {
		t.Fatal(err)
	}
	<-inner.started
	for i := 1; i <= 4; i++ {
		if _, err := a.Publish(ctx, "market_a_trade_ticker", []byte(fmt.Sprintf("m%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Publish(ctx, "bad channel", []byte("x")); !errors.Is(err, ErrInvalid) {
		t.Fatalf("invalid channel: %v", err)
	}
	close(inner.gate)
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(inner.published(), "|"); got != "market_a_trade_ticker m0|market_a_trade_ticker m3|market_a_trade_ticker m4" {
		t.Fatalf("published %s", got)
	}
	if a.Dropped() != 2 {
		t.Fatalf("dropped %d, want 2", a.Dropped())
	}
}

// TestAsyncDeliversWithoutClose: messages reach the wrapped pusher while
// the publisher goes on (no Close needed).
func TestAsyncDeliversWithoutClose(t *testing.T) {
	inner := &gatedPusher{started: make(chan string, 16)}
	a := NewAsync(inner, AsyncOptions{})
	defer a.Close(context.Background())
	if _, err := a.Publish(context.Background(), "market_b_ticker", []byte("x")); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-inner.started:
		if got != "market_b_ticker x" {
			t.Fatalf("got %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("message never delivered")
	}
}
