package apigw

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/push"
	"tenger/internal/store"
)

// testAnswer is what fakeRequests answers: the request as the adapter
// handed it over.
type testAnswer struct {
	ID      json.RawMessage `json:"id"`
	User    string          `json:"user"`
	Session string          `json:"session"`
	Refused string          `json:"refused"`
}

// fakeRequests answers every request with what it got; method "wait" runs
// until release is closed.
type fakeRequests struct {
	release chan struct{}
	mu      sync.Mutex
	running int
}

func (f *fakeRequests) serve(_ context.Context, r push.Request) []byte {
	a := testAnswer{ID: r.ID, User: r.UserID, Session: r.SessionID}
	if r.Refused != nil {
		a.Refused = apperr.As(r.Refused).Entry.Code
	} else if r.Method == "wait" {
		f.mu.Lock()
		f.running++
		f.mu.Unlock()
		<-f.release
		f.mu.Lock()
		f.running--
		f.mu.Unlock()
	}
	b, _ := json.Marshal(a)
	return b
}

func (f *fakeRequests) waitRunning(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		f.mu.Lock()
		got := f.running
		f.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d requests running, want %d", got, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func answer(t *testing.T, c *fakeClient) testAnswer {
	t.Helper()
	m, ok := c.Next(t, 5*time.Second)
	if !ok {
		t.Fatal("no answer posted")
	}
	var a testAnswer
	if err := json.Unmarshal(m, &a); err != nil {
		t.Fatalf("answer %s: %v", m, err)
	}
	return a
}

func (e *env) inFlight(t *testing.T, connID string) int64 {
	t.Helper()
	it, err := e.st.Get(context.Background(), e.fan.connKey(connID))
	if err != nil {
		t.Fatal(err)
	}
	return it.Int(attrInFlight)
}

// TestRequestsCarryBinding: a request frame is answered through
// PostToConnection, echoing its id, with the binding of the connection's
// item (none before the auth frame); a bad frame is refused without being
// counted; a frame of a connection that is gone is no error.
func TestRequestsCarryBinding(t *testing.T) {
	e := newEnv(t, func(_ context.Context, tok string) (string, string, bool) { return "u7", "s7", tok == "ok" })
	f := &fakeRequests{release: make(chan struct{})}
	e.fan = e.fan.WithRequests(f.serve)
	c := e.connect(t)
	c.Send(t, []byte(`{"id":"c1","method":"order.place"}`))
	if a := answer(t, c); string(a.ID) != `"c1"` || a.User != "" || a.Refused != "" {
		t.Fatalf("before auth: %+v", a)
	}
	c.Send(t, []byte(`{"event":"auth","params":{"token":"ok"}}`))
	if m, _ := c.Next(t, 5*time.Second); !json.Valid(m) {
		t.Fatalf("auth reply %s", m)
	}
	c.Send(t, []byte(`{"id":2,"method":"order.cancel","params":{"order_id":"9"}}`))
	if a := answer(t, c); string(a.ID) != "2" || a.User != "u7" || a.Session != "s7" || a.Refused != "" {
		t.Fatalf("after auth: %+v", a)
	}
	c.Send(t, []byte(`{"id":"c3","method":"order.place","params":"x"}`))
	if a := answer(t, c); string(a.ID) != `"c3"` || a.Refused != apperr.CodeParam {
		t.Fatalf("bad frame: %+v", a)
	}
	if n := e.inFlight(t, c.id); n != 0 {
		t.Fatalf("in flight after the requests ended: %d", n)
	}
	// The connection is gone (its items too): nothing to answer, no error.
	if err := e.fan.OnDisconnect(context.Background(), c.id); err != nil {
		t.Fatal(err)
	}
	if err := e.fan.OnMessage(context.Background(), c.id, []byte(`{"id":"c4","method":"order.place"}`)); err != nil {
		t.Fatalf("request of a gone connection: %v", err)
	}
	if m, ok := c.Next(t, 50*time.Millisecond); ok {
		t.Fatalf("a gone connection was answered %s", m)
	}
}

// TestRequestsInFlightBound: requests of one connection run concurrently
// (one invocation each), up to push.MaxInFlight counted on the
// connection's item; one more is refused at once with 10011 and its id;
// once they end the count is back to zero and requests run again. A full
// count left by invocations that died (none has counted a request for
// longer than InFlightStale) starts again instead of refusing forever.
func TestRequestsInFlightBound(t *testing.T) {
	e := newEnv(t, nil)
	f := &fakeRequests{release: make(chan struct{})}
	e.fan = e.fan.WithRequests(f.serve)
	c := e.connect(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range push.MaxInFlight {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := e.fan.OnMessage(ctx, c.id, []byte(fmt.Sprintf(`{"id":"w%d","method":"wait"}`, i))); err != nil {
				t.Error(err)
			}
		}()
	}
	f.waitRunning(t, push.MaxInFlight)
	if n := e.inFlight(t, c.id); n != push.MaxInFlight {
		t.Fatalf("counted %d, want %d", n, push.MaxInFlight)
	}
	var once sync.Once
	release := func() { once.Do(func() { close(f.release) }) }
	defer release()
	// Sent on its own: were it run, it would wait with the others.
	go func() { _ = e.fan.OnMessage(ctx, c.id, []byte(`{"id":"one-more","method":"wait"}`)) }()
	if a := answer(t, c); string(a.ID) != `"one-more"` || a.Refused != apperr.CodeTooManyInFlight {
		t.Fatalf("beyond the bound: %+v", a)
	}
	release()
	wg.Wait()
	seen := map[string]bool{}
	for range push.MaxInFlight {
		a := answer(t, c)
		if a.Refused != "" || seen[string(a.ID)] {
			t.Fatalf("answer %+v", a)
		}
		seen[string(a.ID)] = true
	}
	if n := e.inFlight(t, c.id); n != 0 {
		t.Fatalf("counted %d after they ended", n)
	}
	c.Send(t, []byte(`{"id":"after","method":"quick"}`))
	if a := answer(t, c); a.Refused != "" {
		t.Fatalf("after: %+v", a)
	}

	// A count left full by invocations that died.
	leak := func(at time.Time) {
		t.Helper()
		if _, err := e.st.Update(ctx, e.fan.connKey(c.id), store.NewUpdate().Set(attrInFlight, push.MaxInFlight).Set(attrInFlightAt, at.UnixMilli()), nil); err != nil {
			t.Fatal(err)
		}
	}
	leak(e.clock().Add(-10 * time.Second))
	c.Send(t, []byte(`{"id":"recent","method":"quick"}`))
	if a := answer(t, c); a.Refused != apperr.CodeTooManyInFlight {
		t.Fatalf("full recent count: %+v", a)
	}
	leak(e.clock().Add(-2 * time.Minute))
	c.Send(t, []byte(`{"id":"stale","method":"quick"}`))
	if a := answer(t, c); a.Refused != "" {
		t.Fatalf("full stale count: %+v", a)
	}
	if n := e.inFlight(t, c.id); n != 0 {
		t.Fatalf("counted %d after the stale count started again", n)
	}
}
