package binance

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tenger/internal/marketdata"
)

// bookFeeder changes btcusdt's book at random, one snapshot after the
// other, as fast as market data applies them, until stopped; pause holds
// it between two snapshots.
type bookFeeder struct {
	w     *wsEnv
	rng   *rand.Rand
	bids  map[int]int // price in cents → quantity in tenths
	asks  map[int]int
	steps atomic.Int64
	pause chan chan struct{}
	stop  chan struct{}
	done  chan struct{}
}

func newBookFeeder(w *wsEnv) *bookFeeder {
	f := &bookFeeder{w: w, rng: rand.New(rand.NewPCG(7, 11)), bids: map[int]int{}, asks: map[int]int{},
		pause: make(chan chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	go f.run()
	return f
}

func (f *bookFeeder) run() {
	defer close(f.done)
	for {
		select {
		case <-f.stop:
			return
		case resume := <-f.pause:
			select {
			case <-resume:
			case <-f.stop:
				return
			}
		default:
		}
		f.step()
		f.steps.Add(1)
	}
}

// step changes a few levels (sometimes many), keeping the bids below
// 100.00 and the asks from 100.00 up, and sends the best 200 of each
// side (what the engine sends) of books that reach past that.
func (f *bookFeeder) step() {
	ops := 1 + f.rng.IntN(4)
	if f.rng.IntN(20) == 0 {
		ops = 60
	}
	for range ops {
		side, base := f.bids, 9760
		if f.rng.IntN(2) == 0 {
			side, base = f.asks, 10000
		}
		p := base + f.rng.IntN(240)
		if _, ok := side[p]; ok && f.rng.IntN(3) == 0 {
			delete(side, p)
		} else {
			side[p] = 1 + f.rng.IntN(50)
		}
	}
	levels := func(side map[int]int, desc bool) []marketdata.Level {
		prices := make([]int, 0, len(side))
		for p := range side {
			prices = append(prices, p)
		}
		sort.Slice(prices, func(i, j int) bool { return prices[i] < prices[j] != desc })
		out := make([]marketdata.Level, 0, min(len(prices), 200))
		for _, p := range prices[:min(len(prices), 200)] {
			out = append(out, lvl(fmt.Sprintf("%d.%02d", p/100, p%100), fmt.Sprintf("%d.%d", side[p]/10, side[p]%10)))
		}
		return out
	}
	f.w.md.OnDepth("btcusdt", levels(f.bids, true), levels(f.asks, false), f.w.clock.Now())
	if err := f.w.md.Sync(context.Background()); err != nil {
		panic(err)
	}
}

// hold pauses the feeder; the returned function resumes it.
func (f *bookFeeder) hold() func() {
	resume := make(chan struct{})
	f.pause <- resume
	return func() { close(resume) }
}

// localBook is a client keeping a local order book by Binance's
// documented procedure.
type localBook struct {
	name string
	mu   sync.Mutex
	// u is the update id of the book (0 until it is synced).
	u          int64
	bids, asks map[string]string
	events     int
	err        error
}

// follow runs the procedure on a connection's diff depth events:
// buffer the events; get a depth snapshot (when waitFirst, after the
// first event, again while its lastUpdateId is below that event's U);
// drop the events whose u is at most lastUpdateId; the first one left
// must have U <= lastUpdateId+1 <= u, and each next one U = the previous
// u + 1; apply each (quantity zero: remove the level).
func (b *localBook) follow(w *wsEnv, c *wsClient, decode func([]byte) (wsDepthUpdate, bool), waitFirst bool) {
	fail := func(format string, args ...any) {
		b.mu.Lock()
		if b.err == nil {
			b.err = fmt.Errorf(b.name+": "+format, args...)
		}
		b.mu.Unlock()
	}
	var buf []wsDepthUpdate
	read := func(block bool) bool {
		for {
			var m []byte
			if block {
				select {
				case m = <-c.msgs:
				case <-c.err:
					return false
				case <-time.After(5 * time.Second):
					fail("no event within 5 s")
					return false
				}
			} else {
				select {
				case m = <-c.msgs:
				default:
					return true
				}
			}
			if ev, ok := decode(m); ok {
				buf = append(buf, ev)
				if block {
					return true
				}
			}
		}
	}
	if waitFirst && !read(true) {
		return
	}
	var snap DepthResp
	for {
		if err := getJSON(w.http.URL+"/api/v3/depth?symbol=BTCUSDT&limit=5000", &snap); err != nil {
			fail("depth: %v", err)
			return
		}
		if !read(false) {
			return
		}
		if waitFirst && snap.LastUpdateID < buf[0].First {
			continue // the snapshot is older than the stream: again
		}
		break
	}
	b.mu.Lock()
	b.u, b.bids, b.asks = snap.LastUpdateID, map[string]string{}, map[string]string{}
	for _, l := range snap.Bids {
		b.bids[l[0]] = l[1]
	}
	for _, l := range snap.Asks {
		b.asks[l[0]] = l[1]
	}
	b.mu.Unlock()
	first := true
	apply := func(ev wsDepthUpdate) bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		if ev.Last <= b.u {
			if !first {
				b.err = fmt.Errorf("%s: event %d..%d after %d", b.name, ev.First, ev.Last, b.u)
				return false
			}
			return true // older than the snapshot: dropped
		}
		if first && !(ev.First <= b.u+1 && b.u+1 <= ev.Last) {
			b.err = fmt.Errorf("%s: first event %d..%d does not hold lastUpdateId+1 = %d", b.name, ev.First, ev.Last, b.u+1)
			return false
		}
		if !first && ev.First != b.u+1 {
			b.err = fmt.Errorf("%s: event %d..%d after %d: a gap", b.name, ev.First, ev.Last, b.u)
			return false
		}
		first = false
		for _, x := range []struct {
			side   map[string]string
			levels [][2]string
		}{{b.bids, ev.Bids}, {b.asks, ev.Asks}} {
			for _, l := range x.levels {
				if dec(l[1]).IsZero() {
					delete(x.side, l[0])
				} else {
					x.side[l[0]] = l[1]
				}
			}
		}
		b.u = ev.Last
		b.events++
		return true
	}
	for {
		for _, ev := range buf {
			if !apply(ev) {
				return
			}
		}
		buf = buf[:0]
		if !read(true) {
			return
		}
	}
}

// at waits until the book is at update id u and returns it, best first.
func (b *localBook) at(t *testing.T, u int64) (bids, asks [][2]string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b.mu.Lock()
		if b.err != nil {
			b.mu.Unlock()
			t.Fatal(b.err)
		}
		if b.u >= u {
			defer b.mu.Unlock()
			if b.u != u {
				t.Fatalf("%s: book at %d, past the REST depth's %d", b.name, b.u, u)
			}
			return sortedSide(b.bids, true), sortedSide(b.asks, false)
		}
		got := b.u
		b.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("%s: book at %d, not at %d within 5 s", b.name, got, u)
		}
		time.Sleep(time.Millisecond)
	}
}

func sortedSide(side map[string]string, desc bool) [][2]string {
	out := make([][2]string, 0, len(side))
	for p, q := range side {
		out = append(out, [2]string{p, q})
	}
	sort.Slice(out, func(i, j int) bool { return dec(out[i][0]).Cmp(dec(out[j][0])) > 0 == desc })
	return out
}

func decodeRaw(m []byte) (wsDepthUpdate, bool) {
	var ev wsDepthUpdate
	if !strings.HasPrefix(string(m), `{"e":"depthUpdate"`) || json.Unmarshal(m, &ev) != nil {
		return ev, false
	}
	return ev, true
}

func decodeCombined(name string) func([]byte) (wsDepthUpdate, bool) {
	return func(m []byte) (wsDepthUpdate, bool) {
		var w struct {
			Stream string          `json:"stream"`
			Data   json.RawMessage `json:"data"`
		}
		if json.Unmarshal(m, &w) != nil || w.Stream != name {
			return wsDepthUpdate{}, false
		}
		return decodeRaw(w.Data)
	}
}

// TestLocalOrderBookProcedure: clients that follow Binance's documented
// procedure while the book changes thousands of times (several versions
// per diff event, levels entering and leaving the 200 best) keep a book
// equal to the REST depth: at points in between (the changes held) and
// at the end. Three clients: a raw /ws/<symbol>@depth@100ms one that gets
// the snapshot after the first event (the current procedure), a combined
// /stream one that gets it at once, and one subscribing to the 1000 ms
// stream with a frame on /ws, getting the snapshot on the answer (CCXT).
func TestLocalOrderBookProcedure(t *testing.T) {
	w := newWSEnv(t)
	f := newBookFeeder(w)
	defer func() {
		select {
		case <-f.done:
		default:
			close(f.stop)
			<-f.done
		}
	}()
	f.waitSteps(t, 50) // the clients join a book that is changing
	books := []*localBook{{name: "raw 100ms"}, {name: "combined 100ms"}, {name: "frames 1000ms"}}
	raw := w.dial("/ws/btcusdt@depth@100ms")
	go books[0].follow(w, raw, decodeRaw, true)
	comb := w.dial("/stream?streams=btcusdt@depth@100ms")
	go books[1].follow(w, comb, decodeCombined("btcusdt@depth@100ms"), false)
	sub := w.dial("/ws")
	sub.send(`{"method":"SUBSCRIBE","params":["btcusdt@depth"],"id":1}`)
	sub.answer("1")
	go books[2].follow(w, sub, decodeRaw, false)

	check := func(when string) {
		t.Helper()
		var rest DepthResp
		w.restJSON("/api/v3/depth?symbol=BTCUSDT&limit=5000", &rest)
		if len(rest.Bids) < 50 || len(rest.Asks) < 50 {
			t.Fatalf("%s: a book of %d bids and %d asks is too thin for the test", when, len(rest.Bids), len(rest.Asks))
		}
		for _, b := range books {
			bids, asks := b.at(t, rest.LastUpdateID)
			if !reflect.DeepEqual(bids, rest.Bids) || !reflect.DeepEqual(asks, rest.Asks) {
				t.Fatalf("%s: %s's book at %d differs from the REST depth:\nbids %v\nwant %v\nasks %v\nwant %v",
					when, b.name, rest.LastUpdateID, bids, rest.Bids, asks, rest.Asks)
			}
		}
	}
	start := f.steps.Load()
	for _, n := range []int64{200, 500, 900} {
		f.waitSteps(t, start+n)
		resume := f.hold()
		check(fmt.Sprintf("after %d changes", f.steps.Load()))
		resume()
	}
	f.waitSteps(t, start+1200)
	close(f.stop)
	<-f.done
	check("at the end")
	for _, b := range books {
		b.mu.Lock()
		t.Logf("%s: %d events for %d versions", b.name, b.events, f.steps.Load())
		if b.events < 5 {
			t.Errorf("%s: only %d events", b.name, b.events)
		}
		b.mu.Unlock()
	}
}

// waitSteps waits until the feeder has sent n snapshots.
func (f *bookFeeder) waitSteps(t *testing.T, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for f.steps.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("the feeder sent %d snapshots, not %d, within 5 s", f.steps.Load(), n)
		}
		time.Sleep(time.Millisecond)
	}
}
