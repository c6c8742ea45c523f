package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/shopspring/decimal"

	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/userfeed"
)

// wsMsg is any message the server sends on /ws.
type wsMsg struct {
	Channel  string          `json:"channel"`
	TS       int64           `json:"ts"`
	Data     json.RawMessage `json:"data"`
	EventRep string          `json:"event_rep"`
	Status   string          `json:"status"`
	Msg      string          `json:"msg"`
}

type wsConn struct {
	t  *testing.T
	c  *websocket.Conn
	ms []wsMsg // everything received, in order
}

func dialWS(t *testing.T, base string) *wsConn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.CloseNow() })
	return &wsConn{t: t, c: c}
}

func (w *wsConn) send(frame string) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, []byte(frame)); err != nil {
		w.t.Fatal(err)
	}
}

// until reads messages until ok holds for one of them and returns it.
func (w *wsConn) until(what string, ok func(wsMsg) bool) wsMsg {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		_, b, err := w.c.Read(ctx)
		if err != nil {
			var got []string
			for _, m := range w.ms {
				got = append(got, m.Channel+" "+string(m.Data))
			}
			w.t.Fatalf("waiting for %s: %v (received %d messages: %q)", what, err, len(w.ms), got)
		}
		var m wsMsg
		if err := json.Unmarshal(b, &m); err != nil {
			w.t.Fatalf("message %q: %v", b, err)
		}
		w.ms = append(w.ms, m)
		if ok(m) {
			return m
		}
	}
}

func (w *wsConn) auth(token string) {
	w.t.Helper()
	w.send(`{"event":"auth","params":{"token":"` + token + `"}}`)
	if m := w.until("the auth reply", func(m wsMsg) bool { return m.EventRep == "auth" }); m.Status != "ok" {
		w.t.Fatalf("auth reply %+v", m)
	}
}

func order(m wsMsg) userfeed.OrderUpdate {
	var o userfeed.OrderUpdate
	if m.Channel == userfeed.ChannelOrders {
		_ = json.Unmarshal(m.Data, &o)
	}
	return o
}

func bal(m wsMsg) userfeed.BalanceUpdate {
	var b userfeed.BalanceUpdate
	if m.Channel == userfeed.ChannelBalances {
		_ = json.Unmarshal(m.Data, &b)
	}
	return b
}

// signUp registers and signs in a user through the API and returns the
// session token and user id.
func signUp(t *testing.T, c *client, email string) (token, uid string) {
	t.Helper()
	c.ok("/fe-ex-api/v4/common/emailValidCode", map[string]any{"email": email, "operationType": 1})
	c.ok("/fe-ex-api/user/register", map[string]any{"email": email, "loginPword": "Passw0rd1", "code": c.lastCode(email)})
	var login struct{ Token string }
	if err := json.Unmarshal(c.ok("/fe-ex-api/user/login_in", map[string]any{"email": email, "loginPword": "Passw0rd1"}), &login); err != nil || login.Token == "" {
		t.Fatalf("login %s: %v", email, err)
	}
	c.token = login.Token
	var info struct{ ID string }
	if err := json.Unmarshal(c.ok("/fe-ex-api/common/user_info", map[string]any{}), &info); err != nil || info.ID == "" {
		t.Fatalf("user_info %s: %v", email, err)
	}
	c.token = ""
	return login.Token, info.ID
}

// TestPrivateUpdatesOverWebSocket runs the local runtime with its engine
// and change-feed consumer: a signed-in user's /ws connection receives a
// deposit, the hold of an order it places, the order's acceptance, its
// cancellation and the released hold, as user_orders and user_balances
// messages; another signed-in user and an anonymous connection receive
// none of it, and a sub frame for the private channel is refused.
func TestPrivateUpdatesOverWebSocket(t *testing.T) {
	l, h := testServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := l.Start(ctx, t.TempDir(), false); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	api := newClient(t, srv.URL)
	tokA, uidA := signUp(t, api, "ws.alice@example.mn")
	tokB, uidB := signUp(t, api, "ws.bob@example.mn")

	a, b, anon := dialWS(t, srv.URL), dialWS(t, srv.URL), dialWS(t, srv.URL)
	a.auth(tokA)
	b.auth(tokB)
	anon.send(`{"event":"sub","params":{"channel":"user_orders"}}`)
	if m := anon.until("the sub reply", func(m wsMsg) bool { return m.EventRep == "sub" }); m.Status != "error" {
		t.Fatalf("anonymous sub to user_orders: %+v", m)
	}
	fund := func(uid, id, amount string) {
		t.Helper()
		if err := l.SpotFunds().Credit(ctx, spotfunds.Move{Ref: id, UID: uid, Coin: "USDT", Amount: decimal.RequireFromString(amount),
			Other: ledger.ChainAccount("TRC20"), Reason: "deposit"}); err != nil {
			t.Fatal(err)
		}
	}

	// A deposit (any change of the balance) reaches the owner.
	fund(uidA, "ws-test-dep-a", "100")
	a.until("the deposit", func(m wsMsg) bool {
		x := bal(m)
		return x.Coin == "USDT" && x.Account == "spot" && x.Normal == "100" && x.Lock == "0"
	})

	// Place a bid far below the market: 0.01 BTC at 1000 holds 10 USDT.
	api.token = tokA
	var placed struct {
		OrderID string `json:"order_id"`
	}
	if err := json.Unmarshal(api.ok("/fe-ex-api/order/create", map[string]any{"symbol": "btcusdt", "side": "BUY", "type": "LIMIT",
		"price": "1000", "volume": "0.01"}), &placed); err != nil || placed.OrderID == "" {
		t.Fatalf("order/create: %v", err)
	}
	a.until("the order's acceptance", func(m wsMsg) bool {
		o := order(m)
		return o.OrderID == placed.OrderID && o.Event == userfeed.EventAccepted
	})
	api.ok("/fe-ex-api/order/cancel", map[string]any{"symbol": "btcusdt", "order_id": placed.OrderID})
	done := a.until("the cancellation", func(m wsMsg) bool {
		o := order(m)
		return o.OrderID == placed.OrderID && o.Event == userfeed.EventDone
	})
	if o := order(done); o.StatusText != "CANCELLED" || o.Status != 4 || o.Symbol != "btcusdt" || o.Side != "BUY" ||
		o.Type != "LIMIT" || o.Price != "1000" || o.Volume != "0.01" || o.DealVolume != "0" || done.TS == 0 {
		t.Errorf("cancelled order message %+v", o)
	}

	// Alice saw, in commit order: her USDT held and the order placed (one
	// transaction), the acceptance, then the released hold and the
	// cancellation (one transaction).
	var seen []string
	for _, m := range a.ms {
		if o := order(m); o.OrderID == placed.OrderID {
			seen = append(seen, o.Event)
			if o.Event == userfeed.EventPlaced && o.StatusText != "NEW" {
				t.Errorf("placed message %+v", o)
			}
		}
		if x := bal(m); x.Coin == "USDT" {
			seen = append(seen, x.Normal+"/"+x.Lock)
		}
	}
	if got := fmt.Sprint(seen); got != "[100/0 90/10 placed accepted 100/0 done]" {
		t.Errorf("alice's updates %s, want [100/0 90/10 placed accepted 100/0 done]", got)
	}

	// Bob's own deposit is committed after everything of Alice's, and the
	// feed is delivered in commit order: whatever Bob received before it
	// would be Alice's. He must have received nothing else.
	fund(uidB, "ws-test-dep-b", "7")
	b.until("Bob's deposit", func(m wsMsg) bool { return bal(m).Normal == "7" })
	for _, m := range b.ms {
		if m.Channel != "" && m.EventRep == "" && bal(m).Normal != "7" {
			t.Errorf("Bob received %s %s", m.Channel, m.Data)
		}
	}
	// And Alice never sees Bob's: her next own message follows his deposit.
	fund(uidA, "ws-test-dep-a2", "1")
	a.until("Alice's second deposit", func(m wsMsg) bool { return bal(m).Normal == "101" })
	for _, m := range a.ms {
		if bal(m).Normal == "7" {
			t.Errorf("Alice received Bob's balance %s", m.Data)
		}
	}
	// The anonymous connection got its sub reply and nothing private: a
	// ping's pong is the next thing it reads.
	anon.send(`{"ping":99}`)
	anon.until("the pong", func(m wsMsg) bool { return m.Channel == "" && m.EventRep == "" })
	for _, m := range anon.ms {
		if m.Channel != "" && m.EventRep == "" {
			t.Errorf("anonymous connection received %s %s", m.Channel, m.Data)
		}
	}
}

// closed reads until the server closes the connection and returns the
// close error; a private message read first fails the test.
func (w *wsConn) closed(what string) websocket.CloseError {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		_, b, err := w.c.Read(ctx)
		if err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) {
				w.t.Fatalf("%s: the connection ended with %v, not a close from the server", what, err)
			}
			return ce
		}
		var m wsMsg
		_ = json.Unmarshal(b, &m)
		if m.Channel != "" && m.EventRep == "" {
			w.t.Fatalf("%s: received %s %s after the session ended", what, m.Channel, m.Data)
		}
	}
}

// TestPrivateWebSocketEndsWithLogout: signing out over the API closes the
// /ws connections bound by that session (status 1008, "session ended"), so
// the ended session's socket receives no further user_orders or
// user_balances; the old token can no longer bind a new connection, while
// the same user's other session (another device) and another user's
// connection keep receiving.
func TestPrivateWebSocketEndsWithLogout(t *testing.T) {
	l, h := testServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := l.Start(ctx, t.TempDir(), false); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	api := newClient(t, srv.URL)
	tokA, uidA := signUp(t, api, "ws.out.alice@example.mn")
	tokB, uidB := signUp(t, api, "ws.out.bob@example.mn")
	fund := func(uid, id, amount string) {
		t.Helper()
		if err := l.SpotFunds().Credit(ctx, spotfunds.Move{Ref: id, UID: uid, Coin: "USDT", Amount: decimal.RequireFromString(amount),
			Other: ledger.ChainAccount("TRC20"), Reason: "deposit"}); err != nil {
			t.Fatal(err)
		}
	}

	var second struct{ Token string }
	if err := json.Unmarshal(api.ok("/fe-ex-api/user/login_in", map[string]any{"email": "ws.out.alice@example.mn", "loginPword": "Passw0rd1"}), &second); err != nil || second.Token == "" {
		t.Fatalf("second sign-in: %v", err)
	}

	a, a2, b := dialWS(t, srv.URL), dialWS(t, srv.URL), dialWS(t, srv.URL)
	a.auth(tokA)
	a2.auth(second.Token)
	b.auth(tokB)
	fund(uidA, "ws-out-dep-a", "5")
	a.until("Alice's deposit before signing out", func(m wsMsg) bool { return bal(m).Normal == "5" })
	a2.until("Alice's deposit on her other device", func(m wsMsg) bool { return bal(m).Normal == "5" })

	api.token = tokA
	api.ok("/fe-ex-api/user/login_out", map[string]any{})
	api.token = ""
	// The sign-out has returned, so the socket is already unbound: Alice's
	// next balance change must not reach it before it closes.
	fund(uidA, "ws-out-dep-a2", "6")
	if ce := a.closed("Alice's socket after sign-out"); ce.Code != websocket.StatusPolicyViolation || ce.Reason != "session ended" {
		t.Fatalf("Alice's socket closed with %d %q, want 1008 session ended", ce.Code, ce.Reason)
	}
	// Her other device's session did not end: it gets the second deposit.
	a2.until("Alice's deposit on her other device after the sign-out", func(m wsMsg) bool { return bal(m).Normal == "11" })
	// Bob's connection carries on: his deposit, committed after Alice's,
	// reaches him.
	fund(uidB, "ws-out-dep-b", "7")
	b.until("Bob's deposit", func(m wsMsg) bool { return bal(m).Normal == "7" })
	// The ended session cannot bind a new connection.
	again := dialWS(t, srv.URL)
	again.send(`{"event":"auth","params":{"token":"` + tokA + `"}}`)
	if m := again.until("the auth reply", func(m wsMsg) bool { return m.EventRep == "auth" }); m.Status != "error" {
		t.Fatalf("auth with a signed-out token: %+v", m)
	}
}
