package wsstreamsaws

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/binance"
	"tenger/internal/markets"
	"tenger/internal/push"
	"tenger/internal/push/apigw"
	"tenger/internal/push/apigw/apigwtest"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

type env struct {
	t     *testing.T
	st    store.Store
	fan   *apigw.Fanout
	srv   *binance.Server
	clock time.Time
	mu    sync.Mutex
}

func newEnv(t *testing.T) *env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e := &env{t: t, st: st, clock: time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)}
	e.fan = apigw.New(st, apigwtest.New(), apigw.Options{Logger: zerolog.Nop(), Now: e.now})
	e.srv = binance.New(binance.Options{Markets: markets.Defaults(), Log: zerolog.Nop()})
	return e
}

func (e *env) now() time.Time { e.mu.Lock(); defer e.mu.Unlock(); return e.clock }
func (e *env) add(d time.Duration) {
	e.mu.Lock()
	e.clock = e.clock.Add(d)
	e.mu.Unlock()
}

// frame sends a frame on conn and returns the answer.
func (e *env) frame(conn, frame string) string {
	return string(e.srv.AnswerStreamFrame(context.Background(), Open(e.st, e.fan, conn, e.now), []byte(frame)))
}

// reach is how many connections a message published to channel reaches.
func (e *env) reach(channel string) int {
	e.t.Helper()
	n, err := e.fan.Publish(context.Background(), channel, []byte(`{}`))
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

func (e *env) registry() map[string]bool {
	e.t.Helper()
	chans, err := Registry(context.Background(), e.st, e.now())
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[string]bool{}
	for _, c := range chans {
		out[c.Channel] = c.Fresh
	}
	return out
}

// TestFramesKeepSubscriptionsInTheTable: Binance's frames on a connection
// of the web app's WebSocket API, one invocation each: SUBSCRIBE lists the
// streams in order and subscribes the connection to their channels (and
// the registry), SET_PROPERTY combined moves them to the combined channels,
// UNSUBSCRIBE ends one; bad frames are answered as Binance does and write
// nothing.
func TestFramesKeepSubscriptionsInTheTable(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if err := e.fan.OnConnect(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ frame, want string }{
		{`{"method":"SUBSCRIBE","params":["btcusdt@trade","btcusdt@depth"],"id":1}`, `{"result":null,"id":1}`},
		{`{"method":"SUBSCRIBE","params":["ethusdt@ticker","btcusdt@trade"],"id":"a-2"}`, `{"result":null,"id":"a-2"}`},
		{`{"method":"LIST_SUBSCRIPTIONS","id":3}`, `{"result":["btcusdt@trade","btcusdt@depth","ethusdt@ticker"],"id":3}`},
		{`{"method":"GET_PROPERTY","params":["combined"],"id":4}`, `{"result":false,"id":4}`},
		{`{"method":"SUBSCRIBE","params":["btcusdt@nothing"],"id":5}`, `{"error":{"code":2,"msg":"Invalid request: invalid stream"},"id":5}`},
		{`{"method":"SUBSCRIBE","params":["btcusdt@trade"],"id":{}}`, `{"error":{"code":2,"msg":"Invalid request: request ID must be an unsigned integer"},"id":null}`},
		{`{"method":"SET_PROPERTY","params":["combined","yes"],"id":6}`, `{"error":{"code":1,"msg":"Invalid value type: expected Boolean"},"id":6}`},
	} {
		if got := e.frame("c1", c.frame); got != c.want {
			t.Fatalf("%s:\n got %s\nwant %s", c.frame, got, c.want)
		}
	}
	raw := []string{"binance:btcusdt@trade", "binance:btcusdt@depth", "binance:ethusdt@ticker"}
	for _, ch := range raw {
		if n := e.reach(ch); n != 1 {
			t.Errorf("%s reaches %d connections", ch, n)
		}
	}
	if got := e.registry(); len(got) != 3 || !got[raw[0]] || !got[raw[1]] || !got[raw[2]] {
		t.Fatalf("registry %v", got)
	}
	if n := e.reach("binance:btcusdt@nothing"); n != 0 {
		t.Errorf("an invalid stream reaches %d", n)
	}

	// Combined: the same streams, on the combined channels.
	if got := e.frame("c1", `{"method":"SET_PROPERTY","params":["combined",true],"id":7}`); got != `{"result":null,"id":7}` {
		t.Fatal(got)
	}
	for _, ch := range raw {
		name, _, _ := binance.ParseStreamChannel(ch)
		if n, m := e.reach(ch), e.reach(binance.StreamChannel(name, true)); n != 0 || m != 1 {
			t.Errorf("%s: raw reaches %d, combined %d", name, n, m)
		}
	}
	if got := e.frame("c1", `{"method":"UNSUBSCRIBE","params":["btcusdt@depth","ethusdt@trade"],"id":8}`); got != `{"result":null,"id":8}` {
		t.Fatal(got)
	}
	if got := e.frame("c1", `{"method":"LIST_SUBSCRIPTIONS","id":9}`); got != `{"result":["btcusdt@trade","ethusdt@ticker"],"id":9}` {
		t.Fatal(got)
	}
	if n := e.reach("binance+:btcusdt@depth"); n != 0 {
		t.Errorf("an unsubscribed stream reaches %d", n)
	}
	if got := e.frame("c1", `{"method":"GET_PROPERTY","params":["combined"],"id":10}`); got != `{"result":true,"id":10}` {
		t.Fatal(got)
	}

	// Fresh for FreshFor after the latest subscriber joined, listed for TTL.
	e.add(FreshFor + time.Second)
	if got := e.registry(); len(got) != 6 || got["binance+:btcusdt@trade"] {
		t.Fatalf("registry later %v", got)
	}
	e.add(TTL)
	if got := e.registry(); len(got) != 0 {
		t.Fatalf("registry after its TTL %v", got)
	}
}

// TestGoneConnectionSubscribesNothing: a frame of a connection that is no
// longer known is refused and writes no subscription and no registry item.
func TestGoneConnectionSubscribesNothing(t *testing.T) {
	e := newEnv(t)
	got := e.frame("gone", `{"method":"SUBSCRIBE","params":["btcusdt@trade"],"id":1}`)
	if !strings.HasPrefix(got, `{"error":{"code":-1001,`) {
		t.Fatalf("answer %s", got)
	}
	if n := e.reach("binance:btcusdt@trade"); n != 0 {
		t.Errorf("reaches %d", n)
	}
	if r := e.registry(); len(r) != 0 {
		t.Errorf("registry %v", r)
	}
}

// TestConcurrentFramesAndLargeFrames: frames of one connection handled at
// once (API Gateway invokes the function for each) all take effect, and a
// frame naming more streams than one transaction holds subscribes them
// all.
func TestConcurrentFramesAndLargeFrames(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if err := e.fan.OnConnect(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range markets.Defaults().List() {
		for _, iv := range binance.IntervalNames {
			names = append(names, p.Symbol+"@kline_"+iv)
		}
		names = append(names, p.Symbol+"@trade", p.Symbol+"@aggTrade", p.Symbol+"@depth", p.Symbol+"@depth5@100ms",
			p.Symbol+"@ticker", p.Symbol+"@miniTicker", p.Symbol+"@bookTicker")
	}
	if len(names) < 2*store.MaxTransactItems/2 {
		t.Fatalf("only %d streams", len(names))
	}
	var wg sync.WaitGroup
	answers := make([]string, 0, len(names))
	var amu sync.Mutex
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			part := names[i*len(names)/8 : (i+1)*len(names)/8]
			q := `"` + strings.Join(part, `","`) + `"`
			a := e.frame("c1", fmt.Sprintf(`{"method":"SUBSCRIBE","params":[%s],"id":%d}`, q, i))
			amu.Lock()
			answers = append(answers, a)
			amu.Unlock()
		}()
	}
	wg.Wait()
	for _, a := range answers {
		if !strings.HasPrefix(a, `{"result":null,`) {
			t.Fatalf("answer %s", a)
		}
	}
	listed, _, err := Open(e.st, e.fan, "c1", e.now).Streams(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !sameSet(listed, names) {
		t.Fatalf("listed %d of %d streams", len(listed), len(names))
	}
	// One frame with them all, combined: more than one transaction.
	if got := e.frame("c1", `{"method":"SET_PROPERTY","params":["combined",true],"id":99}`); got != `{"result":null,"id":99}` {
		t.Fatal(got)
	}
	for _, n := range names {
		if e.reach(binance.StreamChannel(n, true)) != 1 || e.reach(binance.StreamChannel(n, false)) != 0 {
			t.Fatalf("%s not moved to its combined channel", n)
		}
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestListenKeyStreams: a connection streaming a listen key is found among
// the user's listeners, SET_PROPERTY combined changes the form of its
// events too, and an ended stream or a gone connection lists nothing.
func TestListenKeyStreams(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if err := e.fan.OnConnect(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	lk := strings.Repeat("L", 64)
	c := Open(e.st, e.fan, "c1", e.now)
	if err := c.Listen(ctx, lk, "KEY1", "u1", false); err != nil {
		t.Fatal(err)
	}
	if err := Open(e.st, e.fan, "gone", e.now).Listen(ctx, lk, "KEY1", "u1", false); !errors.Is(err, push.ErrGone) {
		t.Fatalf("a gone connection: %v", err)
	}
	listeners := func() []Listener {
		t.Helper()
		ls, err := Listeners(ctx, e.st, "u1", e.now())
		if err != nil {
			t.Fatal(err)
		}
		return ls
	}
	if ls := listeners(); len(ls) != 1 || ls[0] != (Listener{ConnID: "c1", ListenKey: lk, APIKey: "KEY1"}) {
		t.Fatalf("listeners %+v", ls)
	}
	if ls, _ := Listeners(ctx, e.st, "u2", e.now()); len(ls) != 0 {
		t.Fatalf("another user's listeners %+v", ls)
	}
	if got := e.frame("c1", `{"method":"SET_PROPERTY","params":["combined",true],"id":1}`); got != `{"result":null,"id":1}` {
		t.Fatal(got)
	}
	ls := listeners()
	if len(ls) != 1 || !ls[0].Combined {
		t.Fatalf("after SET_PROPERTY combined %+v", ls)
	}
	if err := EndListener(ctx, e.st, e.fan, ls[0]); err != nil {
		t.Fatal(err)
	}
	if ls := listeners(); len(ls) != 0 {
		t.Fatalf("after the end %+v", ls)
	}
	// Expired with the connection's items.
	if err := c.Listen(ctx, lk, "KEY1", "u1", false); err != nil {
		t.Fatal(err)
	}
	e.add(TTL + time.Second)
	if ls := listeners(); len(ls) != 0 {
		t.Fatalf("after the TTL %+v", ls)
	}
}
