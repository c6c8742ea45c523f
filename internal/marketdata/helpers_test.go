package marketdata

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/markets"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// fakePusher records published messages.
type fakePusher struct {
	mu   sync.Mutex
	msgs []published
}

type published struct {
	Channel string
	Body    []byte
}

func (f *fakePusher) Subscribe(context.Context, string, string) error    { return nil }
func (f *fakePusher) Unsubscribe(context.Context, string, string) error  { return nil }
func (f *fakePusher) Bind(context.Context, string, string, string) error { return nil }
func (f *fakePusher) Disconnect(context.Context, string) error           { return nil }
func (f *fakePusher) DisconnectUser(context.Context, string, func(string) bool) error {
	return nil
}
func (f *fakePusher) SendTo(context.Context, string, []byte) error { return nil }
func (f *fakePusher) PublishUser(context.Context, string, []byte) (int, error) {
	return 0, nil
}
func (f *fakePusher) Publish(_ context.Context, ch string, b []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.msgs = append(f.msgs, published{ch, append([]byte(nil), b...)})
	return 1, nil
}

// take returns and forgets the messages published so far.
func (f *fakePusher) take() []published {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.msgs
	f.msgs = nil
	return m
}

func (f *fakePusher) on(ch string) []published {
	var out []published
	for _, m := range f.take() {
		if m.Channel == ch {
			out = append(out, m)
		}
	}
	return out
}

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time)     { c.mu.Lock(); c.t = t; c.mu.Unlock() }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

type env struct {
	t     testing.TB
	dir   string
	st    store.Store
	md    *Service
	push  *fakePusher
	clock *clock
}

func newEnv(t testing.TB) *env {
	t.Helper()
	e := &env{t: t, dir: t.TempDir(), push: &fakePusher{}, clock: &clock{t: at("2026-02-02T00:00:30Z")}}
	e.open()
	t.Cleanup(func() { _ = e.st.Close() })
	return e
}

func (e *env) open() {
	e.t.Helper()
	st, err := embedded.Open(e.dir, embedded.Options{SweepInterval: -1})
	if err != nil {
		e.t.Fatal(err)
	}
	e.st = st
	md, err := New(context.Background(), Options{Store: st, Markets: markets.Defaults(), Pusher: e.push,
		Log: zerolog.Nop(), Now: e.clock.Now})
	if err != nil {
		e.t.Fatal(err)
	}
	e.md = md
}

// restart closes the store and rebuilds the service from it.
func (e *env) restart() {
	e.t.Helper()
	if err := e.st.Close(); err != nil {
		e.t.Fatal(err)
	}
	e.open()
}

func (e *env) feed(symbol string, trades ...Trade) {
	e.t.Helper()
	e.md.OnTrades(symbol, trades)
	if err := e.md.Sync(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

func tr(id, when, price, qty, side string) Trade {
	return Trade{ID: id, Symbol: "btcusdt", Price: d(price), Qty: d(qty), TakerSide: side, At: at(when)}
}

func decodeJSON(t testing.TB, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("json %s: %v", b, err)
	}
}
