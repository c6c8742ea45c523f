// Package pushtest is the contract suite of the push port, run against the
// in-process hub (real WebSocket clients) and the API Gateway adapter (a fake
// management API and the embedded store).
package pushtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"tenger/internal/push"
)

// Client is one connected test client.
type Client interface {
	// ID is the server's connection id of this client.
	ID() string
	// Send sends a text frame from the client to the server.
	Send(t *testing.T, frame []byte)
	// Next returns the next message the client received, waiting up to
	// timeout; false when none came.
	Next(t *testing.T, timeout time.Duration) ([]byte, bool)
	// Vanish makes the client go away without the server being told
	// through the port (a closed tab, a dropped network).
	Vanish(t *testing.T)
}

// Env is one adapter instance under test.
type Env struct {
	Pusher push.Pusher
	// Connect opens a new client connection.
	Connect func(t *testing.T) Client
}

// Harness describes the adapter.
type Harness struct {
	// New returns a fresh adapter whose auth frames are resolved by auth.
	New func(t *testing.T, auth push.AuthFunc) Env
	// Quiet is how long a client must receive nothing to count as having
	// received nothing.
	Quiet time.Duration
}

// Tokens the suite's auth function accepts.
const (
	GoodToken  = "good-token"
	GoodUser   = "u-auth"
	OtherToken = "other-token"
	OtherUser  = "u-other"
	// SecondToken is a second session of GoodUser.
	SecondToken = "second-token"
)

// Session ids the suite's auth function gives its tokens.
const (
	GoodSession   = "s-good"
	SecondSession = "s-second"
	OtherSession  = "s-other"
)

func auth(_ context.Context, token string) (string, string, bool) {
	switch token {
	case GoodToken:
		return GoodUser, GoodSession, true
	case SecondToken:
		return GoodUser, SecondSession, true
	case OtherToken:
		return OtherUser, OtherSession, true
	}
	return "", "", false
}

// Run runs the contract suite.
func Run(t *testing.T, h Harness) {
	cases := []struct {
		name string
		fn   func(t *testing.T, h Harness, env Env)
	}{
		{"SubFramePublish", testSubFramePublish},
		{"UnsubFrame", testUnsubFrame},
		{"Ping", testPing},
		{"BadFrameKeepsConnection", testBadFrame},
		{"PortSubscribe", testPortSubscribe},
		{"SendTo", testSendTo},
		{"Disconnect", testDisconnect},
		{"DisconnectUser", testDisconnectUser},
		{"GoneClientIsRemoved", testGone},
		{"BindAndPublishUser", testBindPublishUser},
		{"AuthFrame", testAuthFrame},
		{"PrivateChannelsIsolated", testPrivateIsolated},
		{"OrderPerChannel", testOrder},
		{"FanOutMany", testFanOutMany},
		{"Validation", testValidation},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.fn(t, h, h.New(t, auth))
		})
	}
}

func ctx() context.Context { return context.Background() }

type reply struct {
	EventRep string          `json:"event_rep"`
	Channel  string          `json:"channel"`
	Status   string          `json:"status"`
	Msg      string          `json:"msg"`
	Pong     json.RawMessage `json:"pong"`
}

func next(t *testing.T, c Client) []byte {
	t.Helper()
	m, ok := c.Next(t, 5*time.Second)
	if !ok {
		t.Fatal("client received nothing")
	}
	return m
}

func nextReply(t *testing.T, c Client) reply {
	t.Helper()
	var r reply
	m := next(t, c)
	if err := json.Unmarshal(m, &r); err != nil {
		t.Fatalf("reply %s: %v", m, err)
	}
	return r
}

func nothing(t *testing.T, h Harness, c Client, why string) {
	t.Helper()
	if m, ok := c.Next(t, h.Quiet); ok {
		t.Fatalf("%s: client received %s", why, m)
	}
}

func sub(t *testing.T, c Client, channel string) {
	t.Helper()
	c.Send(t, []byte(fmt.Sprintf(`{"event":"sub","params":{"channel":%q}}`, channel)))
	if r := nextReply(t, c); r.EventRep != "sub" || r.Status != "ok" || r.Channel != channel {
		t.Fatalf("sub reply: %+v", r)
	}
}

func publish(t *testing.T, p push.Pusher, channel string, msg []byte, want int) {
	t.Helper()
	n, err := p.Publish(ctx(), channel, msg)
	if err != nil {
		t.Fatalf("publish: %v", err)
	}
	if n != want {
		t.Fatalf("publish to %s delivered to %d, want %d", channel, n, want)
	}
}

func expect(t *testing.T, c Client, want []byte) {
	t.Helper()
	if got := next(t, c); string(got) != string(want) {
		t.Fatalf("client got %s, want %s", got, want)
	}
}

func tick(t *testing.T, channel string, v any) []byte {
	t.Helper()
	b, err := push.Tick(channel, time.UnixMilli(1700000000000), v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func testSubFramePublish(t *testing.T, h Harness, env Env) {
	a, b := env.Connect(t), env.Connect(t)
	const ch = "market_btcusdt_ticker"
	sub(t, a, ch)
	msg := tick(t, ch, map[string]string{"close": "65000.1"})
	publish(t, env.Pusher, ch, msg, 1)
	expect(t, a, msg)
	var env2 struct {
		Channel string         `json:"channel"`
		TS      int64          `json:"ts"`
		Tick    map[string]any `json:"tick"`
	}
	if err := json.Unmarshal(msg, &env2); err != nil || env2.Channel != ch || env2.TS != 1700000000000 || env2.Tick["close"] != "65000.1" {
		t.Fatalf("envelope %s: %+v %v", msg, env2, err)
	}
	nothing(t, h, b, "b did not subscribe")
	// Subscribing twice does not double deliveries.
	sub(t, a, ch)
	publish(t, env.Pusher, ch, msg, 1)
	expect(t, a, msg)
	nothing(t, h, a, "one delivery per publish")
}

func testUnsubFrame(t *testing.T, h Harness, env Env) {
	a := env.Connect(t)
	sub(t, a, "market_ethusdt_depth_step0")
	sub(t, a, "market_ethusdt_trade_ticker")
	a.Send(t, []byte(`{"event":"unsub","params":{"channel":"market_ethusdt_depth_step0"}}`))
	if r := nextReply(t, a); r.EventRep != "unsub" || r.Status != "ok" {
		t.Fatalf("unsub reply %+v", r)
	}
	publish(t, env.Pusher, "market_ethusdt_depth_step0", []byte(`{"x":1}`), 0)
	publish(t, env.Pusher, "market_ethusdt_trade_ticker", []byte(`{"x":2}`), 1)
	expect(t, a, []byte(`{"x":2}`))
}

func testPing(t *testing.T, h Harness, env Env) {
	a := env.Connect(t)
	a.Send(t, []byte(`{"ping":1712345678901}`))
	if r := nextReply(t, a); string(r.Pong) != "1712345678901" {
		t.Fatalf("pong %s", r.Pong)
	}
	a.Send(t, []byte(`{"event":"ping"}`))
	r := nextReply(t, a)
	var n int64
	if err := json.Unmarshal(r.Pong, &n); err != nil || n <= 0 {
		t.Fatalf("event ping answered with pong %s", r.Pong)
	}
}

func testBadFrame(t *testing.T, h Harness, env Env) {
	a := env.Connect(t)
	for _, f := range []string{`not json`, `{"event":"sub","params":{}}`, `{"event":"explode"}`, `{"ping":{"a":1}}`} {
		a.Send(t, []byte(f))
		if r := nextReply(t, a); r.Status != "error" || r.Msg == "" {
			t.Fatalf("frame %s: reply %+v, want an error reply", f, r)
		}
	}
	// Still connected and working.
	sub(t, a, "market_ok")
	publish(t, env.Pusher, "market_ok", []byte(`{"ok":true}`), 1)
	expect(t, a, []byte(`{"ok":true}`))
}

func testPortSubscribe(t *testing.T, h Harness, env Env) {
	a, b := env.Connect(t), env.Connect(t)
	if err := env.Pusher.Subscribe(ctx(), a.ID(), "orders_BTC"); err != nil {
		t.Fatal(err)
	}
	if err := env.Pusher.Subscribe(ctx(), b.ID(), "orders_BTC"); err != nil {
		t.Fatal(err)
	}
	publish(t, env.Pusher, "orders_BTC", []byte(`{"n":1}`), 2)
	expect(t, a, []byte(`{"n":1}`))
	expect(t, b, []byte(`{"n":1}`))
	if err := env.Pusher.Unsubscribe(ctx(), b.ID(), "orders_BTC"); err != nil {
		t.Fatal(err)
	}
	publish(t, env.Pusher, "orders_BTC", []byte(`{"n":2}`), 1)
	expect(t, a, []byte(`{"n":2}`))
	nothing(t, h, b, "b unsubscribed")
	if err := env.Pusher.Subscribe(ctx(), "no-such-conn", "orders_BTC"); !errors.Is(err, push.ErrGone) {
		t.Fatalf("subscribe of an unknown connection: %v, want ErrGone", err)
	}
}

func testSendTo(t *testing.T, h Harness, env Env) {
	a, b := env.Connect(t), env.Connect(t)
	if err := env.Pusher.SendTo(ctx(), a.ID(), []byte(`{"direct":1}`)); err != nil {
		t.Fatal(err)
	}
	expect(t, a, []byte(`{"direct":1}`))
	nothing(t, h, b, "SendTo reaches one connection only")
	if err := env.Pusher.SendTo(ctx(), "no-such-conn", []byte(`{}`)); !errors.Is(err, push.ErrGone) {
		t.Fatalf("SendTo unknown: %v, want ErrGone", err)
	}
}

func testDisconnect(t *testing.T, h Harness, env Env) {
	a := env.Connect(t)
	sub(t, a, "market_x")
	if err := env.Pusher.Bind(ctx(), a.ID(), "u-disc", ""); err != nil {
		t.Fatal(err)
	}
	if err := env.Pusher.Disconnect(ctx(), a.ID()); err != nil {
		t.Fatal(err)
	}
	publish(t, env.Pusher, "market_x", []byte(`{}`), 0)
	if n, err := env.Pusher.PublishUser(ctx(), "u-disc", []byte(`{}`)); err != nil || n != 0 {
		t.Fatalf("publish to the user of a disconnected connection: %d %v", n, err)
	}
	if err := env.Pusher.SendTo(ctx(), a.ID(), []byte(`{}`)); !errors.Is(err, push.ErrGone) {
		t.Fatalf("SendTo after Disconnect: %v, want ErrGone", err)
	}
	if err := env.Pusher.Disconnect(ctx(), a.ID()); err != nil {
		t.Fatalf("second disconnect: %v", err)
	}
}

// testDisconnectUser: a revoked session ends the connections it bound
// (DisconnectUser with its session) and no other: they receive nothing
// after it, whether addressed to the user, to a channel or to themselves,
// while the user's other session and another user's connection carry on.
// Without a session filter every connection of the user ends.
func testDisconnectUser(t *testing.T, h Harness, env Env) {
	a1, a2, b := env.Connect(t), env.Connect(t), env.Connect(t)
	authenticate(t, a1, GoodToken)
	authenticate(t, a2, SecondToken)
	authenticate(t, b, OtherToken)
	for _, c := range []Client{a1, a2, b} {
		sub(t, c, "market_du")
	}
	only := func(id string) func(string) bool { return func(s string) bool { return s == id } }
	if err := env.Pusher.DisconnectUser(ctx(), GoodUser, only(GoodSession)); err != nil {
		t.Fatal(err)
	}
	if n, err := env.Pusher.PublishUser(ctx(), GoodUser, []byte(`{"private":"second"}`)); err != nil || n != 1 {
		t.Fatalf("PublishUser after one session ended: %d %v, want 1 (the other session)", n, err)
	}
	expect(t, a2, []byte(`{"private":"second"}`))
	publish(t, env.Pusher, "market_du", []byte(`{"m":0}`), 2)
	expect(t, a2, []byte(`{"m":0}`))
	expect(t, b, []byte(`{"m":0}`))
	if err := env.Pusher.SendTo(ctx(), a1.ID(), []byte(`{}`)); !errors.Is(err, push.ErrGone) {
		t.Fatalf("SendTo the ended session's connection: %v, want ErrGone", err)
	}
	nothing(t, h, a1, "the ended session's connection receives nothing")

	if err := env.Pusher.DisconnectUser(ctx(), GoodUser, nil); err != nil {
		t.Fatal(err)
	}
	if n, err := env.Pusher.PublishUser(ctx(), GoodUser, []byte(`{"private":"after"}`)); err != nil || n != 0 {
		t.Fatalf("PublishUser after DisconnectUser: %d %v, want 0", n, err)
	}
	publish(t, env.Pusher, "market_du", []byte(`{"m":1}`), 1)
	expect(t, b, []byte(`{"m":1}`))
	if n, err := env.Pusher.PublishUser(ctx(), OtherUser, []byte(`{"private":"b"}`)); err != nil || n != 1 {
		t.Fatalf("PublishUser(%s) after another user was disconnected: %d %v, want 1", OtherUser, n, err)
	}
	expect(t, b, []byte(`{"private":"b"}`))
	for _, c := range []Client{a1, a2} {
		if err := env.Pusher.SendTo(ctx(), c.ID(), []byte(`{}`)); !errors.Is(err, push.ErrGone) {
			t.Fatalf("SendTo a disconnected connection: %v, want ErrGone", err)
		}
		nothing(t, h, c, "a disconnected connection receives nothing")
	}
	if err := env.Pusher.DisconnectUser(ctx(), GoodUser, nil); err != nil {
		t.Fatalf("second DisconnectUser: %v", err)
	}
	if err := env.Pusher.DisconnectUser(ctx(), "nobody", nil); err != nil {
		t.Fatalf("DisconnectUser of a user without connections: %v", err)
	}
}

func testGone(t *testing.T, h Harness, env Env) {
	a, b := env.Connect(t), env.Connect(t)
	sub(t, a, "market_gone")
	sub(t, b, "market_gone")
	a.Vanish(t)
	// The adapter notices (a closed socket, or a 410 from API Gateway) and
	// stops counting a; b keeps getting messages.
	deadline := time.Now().Add(5 * time.Second)
	for {
		n, err := env.Pusher.Publish(ctx(), "market_gone", []byte(`{"g":1}`))
		if err != nil {
			t.Fatal(err)
		}
		expect(t, b, []byte(`{"g":1}`))
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("vanished client still counted (delivered %d)", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := env.Pusher.SendTo(ctx(), a.ID(), []byte(`{}`)); !errors.Is(err, push.ErrGone) {
		t.Fatalf("SendTo a vanished client: %v, want ErrGone", err)
	}
	if err := env.Pusher.Subscribe(ctx(), a.ID(), "market_gone"); !errors.Is(err, push.ErrGone) {
		t.Fatalf("subscribe of a vanished client: %v, want ErrGone", err)
	}
}

func testBindPublishUser(t *testing.T, h Harness, env Env) {
	a1, a2, b := env.Connect(t), env.Connect(t), env.Connect(t)
	for _, x := range []struct {
		c Client
		u string
	}{{a1, "u1"}, {a2, "u1"}, {b, "u2"}} {
		if err := env.Pusher.Bind(ctx(), x.c.ID(), x.u, ""); err != nil {
			t.Fatal(err)
		}
	}
	n, err := env.Pusher.PublishUser(ctx(), "u1", []byte(`{"balance":"1.5"}`))
	if err != nil || n != 2 {
		t.Fatalf("PublishUser u1: %d %v, want 2", n, err)
	}
	expect(t, a1, []byte(`{"balance":"1.5"}`))
	expect(t, a2, []byte(`{"balance":"1.5"}`))
	nothing(t, h, b, "u2 must not see u1's messages")
	// Rebinding moves the connection to the other user.
	if err := env.Pusher.Bind(ctx(), a2.ID(), "u2", ""); err != nil {
		t.Fatal(err)
	}
	if n, _ := env.Pusher.PublishUser(ctx(), "u1", []byte(`{"o":1}`)); n != 1 {
		t.Fatalf("after rebinding, u1 has %d connections, want 1", n)
	}
	expect(t, a1, []byte(`{"o":1}`))
	if n, _ := env.Pusher.PublishUser(ctx(), "u2", []byte(`{"o":2}`)); n != 2 {
		t.Fatalf("after rebinding, u2 has %d connections, want 2", n)
	}
	expect(t, a2, []byte(`{"o":2}`))
	expect(t, b, []byte(`{"o":2}`))
	if n, _ := env.Pusher.PublishUser(ctx(), "nobody", []byte(`{}`)); n != 0 {
		t.Fatalf("publish to a user without connections delivered %d", n)
	}
	if err := env.Pusher.Bind(ctx(), "no-such-conn", "u1", ""); !errors.Is(err, push.ErrGone) {
		t.Fatalf("bind unknown connection: %v, want ErrGone", err)
	}
}

func testAuthFrame(t *testing.T, h Harness, env Env) {
	good, bad := env.Connect(t), env.Connect(t)
	bad.Send(t, []byte(`{"event":"auth","params":{"token":"wrong"}}`))
	if r := nextReply(t, bad); r.EventRep != "auth" || r.Status != "error" {
		t.Fatalf("bad token reply %+v", r)
	}
	good.Send(t, []byte(`{"event":"auth","params":{"token":"`+GoodToken+`"}}`))
	if r := nextReply(t, good); r.EventRep != "auth" || r.Status != "ok" {
		t.Fatalf("good token reply %+v", r)
	}
	n, err := env.Pusher.PublishUser(ctx(), GoodUser, []byte(`{"private":1}`))
	if err != nil || n != 1 {
		t.Fatalf("PublishUser after auth: %d %v", n, err)
	}
	expect(t, good, []byte(`{"private":1}`))
	nothing(t, h, bad, "refused token must not bind")
}

func authenticate(t *testing.T, c Client, token string) {
	t.Helper()
	c.Send(t, []byte(`{"event":"auth","params":{"token":"`+token+`"}}`))
	if r := nextReply(t, c); r.EventRep != "auth" || r.Status != "ok" {
		t.Fatalf("auth reply %+v", r)
	}
}

// testPrivateIsolated: private updates (user_orders, user_balances) reach
// every connection of the user who authenticated them and nobody else:
// not another signed-in user, not an anonymous connection, and not one
// that tries to subscribe to the private channel by name.
func testPrivateIsolated(t *testing.T, h Harness, env Env) {
	a1, a2, b, anon := env.Connect(t), env.Connect(t), env.Connect(t), env.Connect(t)
	authenticate(t, a1, GoodToken)
	authenticate(t, a2, GoodToken)
	authenticate(t, b, OtherToken)
	for _, ch := range []string{"user_orders", "user_balances"} {
		anon.Send(t, []byte(fmt.Sprintf(`{"event":"sub","params":{"channel":%q}}`, ch)))
		if r := nextReply(t, anon); r.EventRep != "sub" || r.Status != "error" || r.Msg == "" {
			t.Fatalf("sub to private %s: reply %+v, want an error", ch, r)
		}
	}
	mine, err := push.Data("user_orders", time.UnixMilli(1700000000000), map[string]string{"order_id": "7", "status_text": "NEW"})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := env.Pusher.PublishUser(ctx(), GoodUser, mine); err != nil || n != 2 {
		t.Fatalf("PublishUser(%s) = %d %v, want 2", GoodUser, n, err)
	}
	expect(t, a1, mine)
	expect(t, a2, mine)
	theirs, err := push.Data("user_balances", time.UnixMilli(1700000000001), map[string]string{"coin": "USDT", "normal": "5"})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := env.Pusher.PublishUser(ctx(), OtherUser, theirs); err != nil || n != 1 {
		t.Fatalf("PublishUser(%s) = %d %v, want 1", OtherUser, n, err)
	}
	expect(t, b, theirs)
	nothing(t, h, b, "b must not see a's order")
	nothing(t, h, a1, "a must not see b's balance")
	nothing(t, h, a2, "a must not see b's balance")
	nothing(t, h, anon, "an anonymous connection sees no private update")
}

func testOrder(t *testing.T, h Harness, env Env) {
	a := env.Connect(t)
	sub(t, a, "market_order")
	for i := range 50 {
		publish(t, env.Pusher, "market_order", []byte(fmt.Sprintf(`{"i":%d}`, i)), 1)
	}
	for i := range 50 {
		expect(t, a, []byte(fmt.Sprintf(`{"i":%d}`, i)))
	}
}

func testFanOutMany(t *testing.T, h Harness, env Env) {
	const n = 20
	cs := make([]Client, n)
	for i := range cs {
		cs[i] = env.Connect(t)
		if err := env.Pusher.Subscribe(ctx(), cs[i].ID(), "market_all"); err != nil {
			t.Fatal(err)
		}
	}
	publish(t, env.Pusher, "market_all", []byte(`{"all":1}`), n)
	for _, c := range cs {
		expect(t, c, []byte(`{"all":1}`))
	}
}

func testValidation(t *testing.T, h Harness, env Env) {
	a := env.Connect(t)
	for _, ch := range []string{"", "has space", `quo"te`, string(make([]byte, push.MaxChannelLen+1))} {
		if err := env.Pusher.Subscribe(ctx(), a.ID(), ch); !errors.Is(err, push.ErrInvalid) {
			t.Fatalf("subscribe to %q: %v, want ErrInvalid", ch, err)
		}
		if err := env.Pusher.Bind(ctx(), a.ID(), ch, ""); !errors.Is(err, push.ErrInvalid) {
			t.Fatalf("bind to user %q: %v, want ErrInvalid", ch, err)
		}
		if _, err := env.Pusher.Publish(ctx(), ch, []byte(`{}`)); !errors.Is(err, push.ErrInvalid) {
			t.Fatalf("publish to %q: %v, want ErrInvalid", ch, err)
		}
	}
}
