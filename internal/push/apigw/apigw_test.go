package apigw

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/apigatewaymanagementapi"

	"tenger/internal/push"
	"tenger/internal/push/pushtest"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// fakeMgmt implements POST and DELETE /@connections/{id} of the API Gateway
// management API: live connections collect what is posted to them, dead
// ones answer 410 GoneException.
type fakeMgmt struct {
	mu    sync.Mutex
	conns map[string]chan []byte
	dead  map[string]bool
	posts int
}

func (f *fakeMgmt) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	const prefix = "/stage/@connections/"
	if !strings.HasPrefix(r.URL.Path, prefix) {
		http.Error(w, "bad path "+r.URL.Path, http.StatusNotFound)
		return
	}
	id := strings.TrimPrefix(r.URL.Path, prefix)
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	ch, ok := f.conns[id]
	dead := f.dead[id]
	f.posts++
	if r.Method == http.MethodDelete && ok && !dead {
		f.dead[id] = true
	}
	f.mu.Unlock()
	if !ok || dead {
		w.Header().Set("X-Amzn-ErrorType", "GoneException")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusGone)
		_, _ = io.WriteString(w, `{"message":"connection is gone"}`)
		return
	}
	switch r.Method {
	case http.MethodPost:
		ch <- body
		w.WriteHeader(http.StatusOK)
	case http.MethodDelete:
		w.WriteHeader(http.StatusNoContent)
	default:
		http.Error(w, "method", http.StatusMethodNotAllowed)
	}
}

func (f *fakeMgmt) open() (string, chan []byte) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:]) + "="
	ch := make(chan []byte, 1024)
	f.mu.Lock()
	f.conns[id] = ch
	f.mu.Unlock()
	return id, ch
}

func (f *fakeMgmt) kill(id string) {
	f.mu.Lock()
	f.dead[id] = true
	f.mu.Unlock()
}

type fakeClient struct {
	id   string
	fan  *Fanout
	msgs chan []byte
	mgmt *fakeMgmt
}

func (c *fakeClient) ID() string { return c.id }

func (c *fakeClient) Send(t *testing.T, frame []byte) {
	t.Helper()
	if err := c.fan.OnMessage(context.Background(), c.id, frame); err != nil {
		t.Fatalf("OnMessage: %v", err)
	}
}

func (c *fakeClient) Next(t *testing.T, timeout time.Duration) ([]byte, bool) {
	select {
	case m := <-c.msgs:
		return m, true
	case <-time.After(timeout):
		return nil, false
	}
}

func (c *fakeClient) Vanish(t *testing.T) { c.mgmt.kill(c.id) }

type env struct {
	st   store.Store
	fan  *Fanout
	mgmt *fakeMgmt
	now  time.Time
	mu   sync.Mutex
}

func newEnv(t *testing.T, auth push.AuthFunc) *env {
	st, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	mgmt := &fakeMgmt{conns: map[string]chan []byte{}, dead: map[string]bool{}}
	srv := httptest.NewServer(mgmt)
	t.Cleanup(srv.Close)
	api := apigatewaymanagementapi.New(apigatewaymanagementapi.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL + "/stage"),
		Credentials:  credentials.NewStaticCredentialsProvider("test", "test", ""),
	})
	e := &env{st: st, mgmt: mgmt, now: time.Now()}
	e.fan = New(st, api, Options{Auth: auth, Now: e.clock})
	return e
}

func (e *env) clock() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.now
}

func (e *env) advance(d time.Duration) {
	e.mu.Lock()
	e.now = e.now.Add(d)
	e.mu.Unlock()
}

func (e *env) connect(t *testing.T) *fakeClient {
	t.Helper()
	id, ch := e.mgmt.open()
	if err := e.fan.OnConnect(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	return &fakeClient{id: id, fan: e.fan, msgs: ch, mgmt: e.mgmt}
}

func TestContract(t *testing.T) {
	pushtest.Run(t, pushtest.Harness{
		New: func(t *testing.T, auth push.AuthFunc) pushtest.Env {
			e := newEnv(t, auth)
			return pushtest.Env{Pusher: e.fan, Connect: func(t *testing.T) pushtest.Client { return e.connect(t) }}
		},
		Quiet: 30 * time.Millisecond,
	})
}

func TestItemsAndCleanup(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	c := e.connect(t)
	c.Send(t, []byte(`{"event":"sub","params":{"channel":"market_btcusdt_ticker"}}`))
	<-c.msgs
	if err := e.fan.Bind(ctx, c.id, "u42", "sess-1"); err != nil {
		t.Fatal(err)
	}
	meta, err := e.st.Get(ctx, store.Key{PK: "WSCONN#" + c.id, SK: "META"})
	if err != nil {
		t.Fatal(err)
	}
	if meta.Str("userId") != "u42" || meta.Str("session") != "sess-1" || meta.Str(store.AttrGSI2PK) != "WSUSER#u42" || meta.Int(store.AttrTTL) <= time.Now().Unix() {
		t.Fatalf("META item %v", meta)
	}
	// Binding again without a session forgets the old one.
	if err := e.fan.Bind(ctx, c.id, "u42", ""); err != nil {
		t.Fatal(err)
	}
	if meta, err = e.st.Get(ctx, store.Key{PK: "WSCONN#" + c.id, SK: "META"}); err != nil || meta.Has("session") {
		t.Fatalf("META item after a bind without a session %v %v", meta, err)
	}
	sub, err := e.st.Get(ctx, store.Key{PK: "WSCONN#" + c.id, SK: "SUB#market_btcusdt_ticker"})
	if err != nil {
		t.Fatal(err)
	}
	if sub.Str(store.AttrGSI1PK) != "WSCHAN#market_btcusdt_ticker" || sub.Str(store.AttrGSI1SK) != c.id {
		t.Fatalf("SUB item %v", sub)
	}
	// $disconnect removes every item of the connection.
	if err := e.fan.OnDisconnect(ctx, c.id); err != nil {
		t.Fatal(err)
	}
	page, err := e.st.Query(ctx, store.Query{PK: "WSCONN#" + c.id})
	if err != nil || len(page.Items) != 0 {
		t.Fatalf("items left after disconnect: %v %v", page.Items, err)
	}
}

// TestNamespaces: two adapters on one table (the web app's WebSocket API
// and the Binance-compatible one) keep their connections apart.
func TestNamespaces(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	other := New(e.st, e.fan.api, Options{Namespace: "B", Now: e.clock})
	for _, c := range []struct {
		f  *Fanout
		id string
	}{{e.fan, "web1"}, {other, "bin1"}} {
		if err := c.f.OnConnect(ctx, c.id); err != nil {
			t.Fatal(err)
		}
		if err := c.f.Bind(ctx, c.id, "u42", ""); err != nil {
			t.Fatal(err)
		}
		if err := c.f.Subscribe(ctx, c.id, "market_btcusdt_ticker"); err != nil {
			t.Fatal(err)
		}
	}
	if p := other.ConnPartition("bin1"); p != "BWSCONN#bin1" {
		t.Fatalf("partition %q", p)
	}
	for _, c := range []struct {
		f    *Fanout
		want string
	}{{e.fan, "web1"}, {other, "bin1"}} {
		ids, err := c.f.UserConnections(ctx, "u42")
		if err != nil || len(ids) != 1 || ids[0] != c.want {
			t.Fatalf("user's connections %v %v, want only %s", ids, err, c.want)
		}
		ids, err = c.f.members(ctx, store.IndexGSI1, c.f.opts.Namespace+chanPrefix+"market_btcusdt_ticker")
		if err != nil || len(ids) != 1 || ids[0] != c.want {
			t.Fatalf("channel's connections %v %v, want only %s", ids, err, c.want)
		}
	}
	if err := other.OnDisconnect(ctx, "bin1"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.Get(ctx, store.Key{PK: "WSCONN#web1", SK: "META"}); err != nil {
		t.Fatalf("the other namespace's disconnect removed web1: %v", err)
	}
}

// TestExpiredConnectionIgnored: a connection whose $disconnect never ran is
// neither delivered to nor accepted for new subscriptions after its TTL.
func TestExpiredConnectionIgnored(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	c := e.connect(t)
	if err := e.fan.Subscribe(ctx, c.id, "market_ttl"); err != nil {
		t.Fatal(err)
	}
	e.advance(4 * time.Hour)
	e.mgmt.mu.Lock()
	before := e.mgmt.posts
	e.mgmt.mu.Unlock()
	if n, err := e.fan.Publish(ctx, "market_ttl", []byte(`{}`)); err != nil || n != 0 {
		t.Fatalf("publish to an expired subscription: %d %v", n, err)
	}
	e.mgmt.mu.Lock()
	after := e.mgmt.posts
	e.mgmt.mu.Unlock()
	if after != before {
		t.Fatal("an expired subscription must not be posted to")
	}
	if err := e.fan.Subscribe(ctx, c.id, "market_other"); err == nil {
		t.Fatal("subscribe of an expired connection succeeded")
	}
}

func TestOnMessageReplyGoesToClient(t *testing.T) {
	e := newEnv(t, nil)
	c := e.connect(t)
	c.Send(t, []byte(`{"ping":7}`))
	m := <-c.msgs
	var r struct{ Pong int }
	if err := json.Unmarshal(m, &r); err != nil || r.Pong != 7 {
		t.Fatalf("reply %s", m)
	}
	// A frame from a connection that vanished meanwhile is not an error
	// for the Lambda (nothing to retry).
	e.mgmt.kill(c.id)
	if err := e.fan.OnMessage(context.Background(), c.id, []byte(`{"ping":8}`)); err != nil {
		t.Fatalf("OnMessage for a gone connection: %v", err)
	}
}

func TestHandleEvent(t *testing.T) {
	e := newEnv(t, func(_ context.Context, tok string) (string, string, bool) { return "u9", "s9", tok == "ok" })
	ctx := context.Background()
	id, ch := e.mgmt.open()
	ev := func(route, body string, q map[string]string) events.APIGatewayWebsocketProxyRequest {
		return events.APIGatewayWebsocketProxyRequest{Body: body, QueryStringParameters: q,
			RequestContext: events.APIGatewayWebsocketProxyRequestContext{RouteKey: route, ConnectionID: id, DomainName: "abc.execute-api.ap-east-1.amazonaws.com", Stage: "prod"}}
	}
	if r, err := e.fan.HandleEvent(ctx, ev("$connect", "", map[string]string{"token": "ok"})); err != nil || r.StatusCode != 200 {
		t.Fatalf("$connect: %v %v", r.StatusCode, err)
	}
	if r, err := e.fan.HandleEvent(ctx, ev("$default", `{"event":"sub","params":{"channel":"market_btcusdt_ticker"}}`, nil)); err != nil || r.StatusCode != 200 {
		t.Fatalf("$default: %v %v", r.StatusCode, err)
	}
	if m := <-ch; !strings.Contains(string(m), `"event_rep":"sub"`) {
		t.Fatalf("sub reply %s", m)
	}
	if n, _ := e.fan.Publish(ctx, "market_btcusdt_ticker", []byte(`{"p":1}`)); n != 1 {
		t.Fatalf("publish after $default sub delivered %d", n)
	}
	<-ch
	if n, _ := e.fan.PublishUser(ctx, "u9", []byte(`{"u":1}`)); n != 1 {
		t.Fatalf("token on $connect did not bind the user (%d)", n)
	}
	<-ch
	if meta, err := e.st.Get(ctx, store.Key{PK: "WSCONN#" + id, SK: "META"}); err != nil || meta.Str("session") != "s9" {
		t.Fatalf("token on $connect did not record its session: %v %v", meta, err)
	}
	if r, err := e.fan.HandleEvent(ctx, ev("$disconnect", "", nil)); err != nil || r.StatusCode != 200 {
		t.Fatalf("$disconnect: %v %v", r.StatusCode, err)
	}
	if n, _ := e.fan.Publish(ctx, "market_btcusdt_ticker", []byte(`{}`)); n != 0 {
		t.Fatalf("publish after $disconnect delivered %d", n)
	}
	bad := ev("$connect", "", map[string]string{"token": "forged"})
	bad.RequestContext.ConnectionID, _ = e.mgmt.open()
	if r, _ := e.fan.HandleEvent(ctx, bad); r.StatusCode != http.StatusUnauthorized {
		t.Fatalf("$connect with a bad token answered %d", r.StatusCode)
	}
	if got := ManagementEndpoint("abc.execute-api.ap-east-1.amazonaws.com", "prod"); got != "https://abc.execute-api.ap-east-1.amazonaws.com/prod" {
		t.Fatal(got)
	}
}

// TestChannelCache: with ChannelCache set, a channel's subscribers are read
// once per interval (a subscriber added meanwhile waits for the next read),
// and a subscriber found gone makes the next publish read the list again.
func TestChannelCache(t *testing.T) {
	e := newEnv(t, nil)
	fan := e.fan.WithChannelCache(time.Second)
	ctx := context.Background()
	a, b, c := e.connect(t), e.connect(t), e.connect(t)
	const ch = "market_btcusdt_depth_step0"
	if err := fan.Subscribe(ctx, a.id, ch); err != nil {
		t.Fatal(err)
	}
	if n, err := fan.Publish(ctx, ch, []byte(`{"n":1}`)); err != nil || n != 1 {
		t.Fatalf("first publish: %d %v", n, err)
	}
	<-a.msgs
	if err := fan.Subscribe(ctx, b.id, ch); err != nil {
		t.Fatal(err)
	}
	if n, _ := fan.Publish(ctx, ch, []byte(`{"n":2}`)); n != 1 {
		t.Fatalf("within the cache interval the list is not read again: delivered %d, want 1", n)
	}
	<-a.msgs
	// The uncached adapter sees b at once.
	if n, _ := e.fan.Publish(ctx, ch, []byte(`{"n":3}`)); n != 2 {
		t.Fatalf("uncached publish delivered %d, want 2", n)
	}
	<-a.msgs
	<-b.msgs
	e.advance(2 * time.Second)
	if n, _ := fan.Publish(ctx, ch, []byte(`{"n":4}`)); n != 2 {
		t.Fatalf("after the interval: delivered %d, want 2", n)
	}
	<-a.msgs
	<-b.msgs
	// a goes away: the publish that finds it gone drops the cached list, so
	// c, subscribed right after, gets the next message within the interval.
	a.Vanish(t)
	if n, _ := fan.Publish(ctx, ch, []byte(`{"n":5}`)); n != 1 {
		t.Fatalf("publish with a gone subscriber delivered %d, want 1", n)
	}
	<-b.msgs
	if err := fan.Subscribe(ctx, c.id, ch); err != nil {
		t.Fatal(err)
	}
	if n, _ := fan.Publish(ctx, ch, []byte(`{"n":6}`)); n != 2 {
		t.Fatalf("after a gone subscriber the list is read again: delivered %d, want 2", n)
	}
	if m := <-c.msgs; string(m) != `{"n":6}` {
		t.Fatalf("c got %s", m)
	}
}
