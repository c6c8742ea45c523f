package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/httpapi"
	"tenger/internal/push"
	"tenger/internal/push/pushtest"
)

// testAnswer is what fakeRequests answers: the request as the hub handed
// it over.
type testAnswer struct {
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	User    string          `json:"user"`
	Session string          `json:"session"`
	Refused string          `json:"refused"`
	// Status and Code are httpapi.WSAnswer's (TestRequestAnswersOverSocket).
	Status int    `json:"status"`
	Code   string `json:"code"`
	Msg    string `json:"msg"`
}

// fakeRequests answers every request with what it got; a request whose
// method is "wait" runs until release is closed.
type fakeRequests struct {
	release chan struct{}
	mu      sync.Mutex
	running int
}

func (f *fakeRequests) serve(_ context.Context, r push.Request) []byte {
	a := testAnswer{ID: r.ID, Method: r.Method, User: r.UserID, Session: r.SessionID}
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

func (f *fakeRequests) waiting() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.running
}

// waitRunning waits until n requests are running.
func (f *fakeRequests) waitRunning(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for f.waiting() != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests running, want %d", f.waiting(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func answerOf(t *testing.T, c *wsClient) testAnswer {
	t.Helper()
	m, ok := c.Next(t, 5*time.Second)
	if !ok {
		t.Fatal("no answer")
	}
	var a testAnswer
	if err := json.Unmarshal(m, &a); err != nil {
		t.Fatalf("answer %s: %v", m, err)
	}
	return a
}

func authHub(t *testing.T, rf push.RequestFunc, maxInFlight int) *testServer {
	auth := func(_ context.Context, tok string) (string, string, bool) {
		return pushtest.GoodUser, pushtest.GoodSession, tok == pushtest.GoodToken
	}
	return newServer(t, Options{Auth: auth, Requests: rf, MaxInFlight: maxInFlight})
}

// TestRequestsRunConcurrently: requests of one connection run at once and
// are answered as they finish, each echoing its id: the quick ones sent
// after slow ones are answered first, and every slow one is answered once
// released. The request carries the connection's binding: none before the
// auth frame, the user and session after.
func TestRequestsRunConcurrently(t *testing.T) {
	f := &fakeRequests{release: make(chan struct{})}
	ts := authHub(t, f.serve, 0)
	c := ts.connect(t)

	c.Send(t, []byte(`{"id":"anon","method":"quick"}`))
	if a := answerOf(t, c); string(a.ID) != `"anon"` || a.User != "" || a.Session != "" {
		t.Fatalf("before auth: %+v", a)
	}
	c.Send(t, []byte(`{"event":"auth","params":{"token":"`+pushtest.GoodToken+`"}}`))
	if m, _ := c.Next(t, 5*time.Second); !strings.Contains(string(m), `"status":"ok"`) {
		t.Fatalf("auth reply %s", m)
	}
	const slow, quick = 5, 5
	for i := range slow {
		c.Send(t, []byte(fmt.Sprintf(`{"id":"slow-%d","method":"wait"}`, i)))
	}
	for i := range quick {
		c.Send(t, []byte(fmt.Sprintf(`{"id":%d,"method":"quick"}`, i)))
	}
	got := map[string]bool{}
	for range quick {
		a := answerOf(t, c)
		if a.Method != "quick" || a.User != pushtest.GoodUser || a.Session != pushtest.GoodSession {
			t.Fatalf("while the slow ones run: %+v", a)
		}
		got[string(a.ID)] = true
	}
	if len(got) != quick || !got["0"] || !got["4"] {
		t.Fatalf("quick answers %v", got)
	}
	f.waitRunning(t, slow)
	close(f.release)
	for range slow {
		a := answerOf(t, c)
		if a.Method != "wait" || !strings.HasPrefix(string(a.ID), `"slow-`) || got[string(a.ID)] {
			t.Fatalf("slow answer %+v (seen %v)", a, got)
		}
		got[string(a.ID)] = true
	}
	if len(got) != quick+slow {
		t.Fatalf("answers %v", got)
	}
}

// TestRequestsInFlightBound: a connection may have push.MaxInFlight
// requests running; one more is refused at once with 10011 and its id, and
// once they end (their slots freed before their answers leave) the
// connection may send again.
func TestRequestsInFlightBound(t *testing.T) {
	f := &fakeRequests{release: make(chan struct{})}
	ts := authHub(t, f.serve, 0)
	c := ts.connect(t)
	for i := range push.MaxInFlight {
		c.Send(t, []byte(fmt.Sprintf(`{"id":"w%d","method":"wait"}`, i)))
	}
	c.Send(t, []byte(`{"id":"one-more","method":"wait"}`))
	if a := answerOf(t, c); string(a.ID) != `"one-more"` || a.Refused != apperr.CodeTooManyInFlight {
		t.Fatalf("request beyond the bound: %+v", a)
	}
	f.waitRunning(t, push.MaxInFlight)
	// Another connection has its own bound.
	other := ts.connect(t)
	other.Send(t, []byte(`{"id":"elsewhere","method":"quick"}`))
	if a := answerOf(t, other); string(a.ID) != `"elsewhere"` || a.Refused != "" {
		t.Fatalf("another connection: %+v", a)
	}
	close(f.release)
	seen := map[string]bool{}
	for range push.MaxInFlight {
		a := answerOf(t, c)
		if a.Refused != "" || seen[string(a.ID)] {
			t.Fatalf("answer %+v", a)
		}
		seen[string(a.ID)] = true
	}
	c.Send(t, []byte(`{"id":"after","method":"quick"}`))
	if a := answerOf(t, c); string(a.ID) != `"after"` || a.Refused != "" {
		t.Fatalf("after the requests ended: %+v", a)
	}
}

// TestRequestAnswersOverSocket runs the order-entry methods' answers
// (httpapi.WSOrderEntry, here without a spot service: none of these
// requests reaches it) through the hub: an unauthenticated request is
// refused with 10002, bad request frames with 410 naming what is wrong
// (with their id when valid), and the socket stays open through all of
// them, a frame over MaxFrameLen, a binary frame and a RequestFunc that
// panics included.
func TestRequestAnswersOverSocket(t *testing.T) {
	oe := httpapi.NewWSOrderEntry(nil, zerolog.Nop())
	rf := func(ctx context.Context, r push.Request) []byte {
		if r.Method == "explode" && r.Refused == nil {
			panic("boom")
		}
		return oe.Serve(ctx, r)
	}
	ts := authHub(t, rf, 0)
	c := ts.connect(t)
	for _, x := range []struct {
		frame, id, code, msg string
	}{
		{`{"id":"c1","method":"order.place","params":{"symbol":"btcusdt"}}`, `"c1"`, apperr.CodeNotSignedIn, "Please sign in again"},
		{`{"id":2,"method":"order.cancelAll"}`, `2`, apperr.CodeNotSignedIn, ""},
		{`{"method":"order.place"}`, `null`, apperr.CodeParam, "id: required"},
		{`{"id":"c3","method":"order.place","params":[1]}`, `"c3"`, apperr.CodeParam, "params: must be a JSON object"},
		{`{"id":"c4","method":"order.nope"}`, `"c4"`, apperr.CodeParam, "method: unknown"},
		{`{"id":"c5","method":7}`, `"c5"`, apperr.CodeParam, "method: must be a string"},
		{`{"id":"c6","method":"order.place","lang":"mn_MN"}`, `"c6"`, apperr.CodeNotSignedIn, "Дахин нэвтэрнэ үү"},
		{`{"id":"c7","method":"explode"}`, `"c7"`, apperr.CodeInternal, ""},
	} {
		c.Send(t, []byte(x.frame))
		a := answerOf(t, c)
		if string(a.ID) != x.id || a.Code != x.code || !strings.Contains(a.Msg, x.msg) || a.Status == 0 {
			t.Errorf("%s: %+v, want id %s code %s msg %q", x.frame, a, x.id, x.code, x.msg)
		}
	}
	// Frames that are no request at all get the usual error reply.
	long := `{"id":"big","method":"order.place","params":{"pad":"` + strings.Repeat("x", 64<<10) + `"}}`
	for _, f := range []string{`not json`, `{"id":"x"}`, long} {
		c.Send(t, []byte(f))
		if m, ok := c.Next(t, 5*time.Second); !ok || !strings.Contains(string(m), `"status":"error"`) {
			t.Fatalf("frame %.40s: reply %s", f, m)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageBinary, []byte(`{"id":"bin","method":"order.place"}`)); err != nil {
		t.Fatal(err)
	}
	if m, ok := c.Next(t, 5*time.Second); !ok || !strings.Contains(string(m), "text frames only") {
		t.Fatalf("binary frame: reply %s", m)
	}
	c.Send(t, []byte(`{"ping":5}`))
	if m, ok := c.Next(t, 5*time.Second); !ok || string(m) != `{"pong":5}` {
		t.Fatalf("after the bad frames: %s", m)
	}
	if ts.hub.Connections() != 1 {
		t.Fatalf("connections %d", ts.hub.Connections())
	}
}

// TestRequestsWithoutMethods: a hub without Requests answers a request
// frame with an error reply and keeps the connection.
func TestRequestsWithoutMethods(t *testing.T) {
	ts := newServer(t, Options{})
	c := ts.connect(t)
	c.Send(t, []byte(`{"id":"c1","method":"order.place"}`))
	if m, ok := c.Next(t, 5*time.Second); !ok || !strings.Contains(string(m), `"status":"error"`) {
		t.Fatalf("reply %s", m)
	}
	c.Send(t, []byte(`{"ping":1}`))
	if m, ok := c.Next(t, 5*time.Second); !ok || string(m) != `{"pong":1}` {
		t.Fatalf("after: %s", m)
	}
}

// TestCloseWaitsForRequests: closing the hub lets requests already running
// end before it returns.
func TestCloseWaitsForRequests(t *testing.T) {
	f := &fakeRequests{release: make(chan struct{})}
	ts := authHub(t, f.serve, 0)
	c := ts.connect(t)
	c.Send(t, []byte(`{"id":"w","method":"wait"}`))
	f.waitRunning(t, 1)
	closed := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		closed <- ts.hub.Close(ctx)
	}()
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) while a request ran", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(f.release)
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if n := f.waiting(); n != 0 {
		t.Fatalf("%d requests running after Close", n)
	}
}
