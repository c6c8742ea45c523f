package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// wsOrderAnswer is the answer frame of a WebSocket request.
type wsOrderAnswer struct {
	ID     json.RawMessage `json:"id"`
	Status int             `json:"status"`
	Code   string          `json:"code"`
	Msg    string          `json:"msg"`
	Data   json.RawMessage `json:"data"`
}

// answers reads the connection until every id in ids is answered and
// returns the answers by id (pushed messages in between are kept in
// w.ms). An id answered twice fails the test.
func (w *wsConn) answers(ids ...string) map[string]wsOrderAnswer {
	w.t.Helper()
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	out := map[string]wsOrderAnswer{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for len(out) < len(want) {
		_, b, err := w.c.Read(ctx)
		if err != nil {
			w.t.Fatalf("waiting for the answers to %v: %v (have %d)", ids, err, len(out))
		}
		var a wsOrderAnswer
		if err := json.Unmarshal(b, &a); err != nil {
			w.t.Fatalf("message %q: %v", b, err)
		}
		if len(a.ID) == 0 {
			var m wsMsg
			_ = json.Unmarshal(b, &m)
			w.ms = append(w.ms, m)
			continue
		}
		var id string
		if err := json.Unmarshal(a.ID, &id); err != nil || !want[id] {
			w.t.Fatalf("answer with an unexpected id: %s", b)
		}
		if _, dup := out[id]; dup {
			w.t.Fatalf("%s answered twice", id)
		}
		out[id] = a
	}
	return out
}

// TestOrderEntryOverWebSocket runs `tenger serve` and enters orders over
// one /ws connection: a request before the auth frame is refused (10002);
// after it ten places are sent back to back without waiting (all in flight
// at once) and each answer echoes its id with the order's id; then five
// amends and five cancels, again pipelined; the amended orders rest with
// their new volume, the cancelled ones are gone (and their end reaches the
// same connection as user_orders), order.cancelAll ends the rest, and the
// funds are whole again.
func TestOrderEntryOverWebSocket(t *testing.T) {
	s := startSpotServer(t)
	api := newSpotAPI(t, s.addr)
	tok := api.newTrader("ws.orders@example.mn", "1000", "0.001")
	base := "http://" + s.addr

	anon := dialWS(t, base)
	anon.send(`{"id":"anon","method":"order.place","params":{"symbol":"btcusdt","side":"BUY","type":"LIMIT","price":"1000","volume":"0.02"}}`)
	if a := anon.answers("anon")["anon"]; a.Code != "10002" {
		t.Fatalf("unauthenticated place: %+v", a)
	}

	w := dialWS(t, base)
	w.auth(tok)
	const n = 10
	var ids []string
	for i := range n {
		id := fmt.Sprintf("place-%d", i)
		ids = append(ids, id)
		w.send(fmt.Sprintf(`{"id":%q,"method":"order.place","params":{"symbol":"btcusdt","side":"BUY","type":"LIMIT","price":"%d","volume":"0.02","clientOrderId":"ws-%d"}}`,
			id, 1000+i, i))
	}
	placed := w.answers(ids...)
	orderOf := map[string]string{} // order id → place id
	orders := make([]string, n)
	for i, id := range ids {
		a := placed[id]
		var d struct {
			OrderID string `json:"order_id"`
		}
		if a.Code != "0" || a.Status != 200 || json.Unmarshal(a.Data, &d) != nil || d.OrderID == "" || orderOf[d.OrderID] != "" {
			t.Fatalf("%s: %+v", id, a)
		}
		orderOf[d.OrderID], orders[i] = id, d.OrderID
	}
	eventually(t, "the ten orders open", 30*time.Second, func() []string {
		if got := len(api.openOrders(tok)); got != n {
			return []string{fmt.Sprintf("%d open orders", got)}
		}
		return nil
	})

	// Amend the first five to half their volume and cancel the others,
	// all in flight at once.
	ids = ids[:0]
	for i, o := range orders {
		if i < n/2 {
			id := fmt.Sprintf("amend-%d", i)
			ids = append(ids, id)
			w.send(fmt.Sprintf(`{"id":%q,"method":"order.amend","params":{"symbol":"btcusdt","order_id":%q,"volume":"0.01"}}`, id, o))
		} else {
			id := fmt.Sprintf("cancel-%d", i)
			ids = append(ids, id)
			w.send(fmt.Sprintf(`{"id":%q,"method":"order.cancel","params":{"symbol":"btcusdt","order_id":%q}}`, id, o))
		}
	}
	for id, a := range w.answers(ids...) {
		if a.Code != "0" || string(a.Data) != "{}" {
			t.Errorf("%s: %+v", id, a)
		}
	}
	eventually(t, "amended and cancelled", 30*time.Second, func() []string {
		var diffs []string
		open := api.openOrders(tok)
		if len(open) != n/2 {
			diffs = append(diffs, fmt.Sprintf("%d open orders, want %d", len(open), n/2))
		}
		for _, o := range open {
			if !strings.HasPrefix(orderOf[o.OrderID], "place-") || o.Volume != "0.01" {
				diffs = append(diffs, fmt.Sprintf("open %s (%s) volume %s", o.OrderID, orderOf[o.OrderID], o.Volume))
			}
		}
		return diffs
	})
	// A repeated cancel of a finished order answers as /order/cancel does.
	w.send(fmt.Sprintf(`{"id":"again","method":"order.cancel","params":{"symbol":"btcusdt","order_id":%q}}`, orders[n-1]))
	again := w.answers("again")["again"]
	rest := api.call("/fe-ex-api/order/cancel", tok, map[string]any{"symbol": "btcusdt", "order_id": orders[n-1]})
	if again.Code == "0" || again.Code != rest.Code || again.Msg != rest.Msg {
		t.Fatalf("second cancel: ws %+v, rest %+v", again, rest)
	}

	w.send(`{"id":"all","method":"order.cancelAll","params":{"symbol":"btcusdt"}}`)
	if a := w.answers("all")["all"]; a.Code != "0" {
		t.Fatalf("cancelAll: %+v", a)
	}
	eventually(t, "everything cancelled and released", 30*time.Second, func() []string {
		var diffs []string
		if open := api.openOrders(tok); len(open) != 0 {
			diffs = append(diffs, fmt.Sprintf("%d open orders", len(open)))
		}
		if b := api.balances(tok)["USDT"]; !dec(b.Normal).Equal(dec("1000")) || !dec(b.Freeze).IsZero() {
			diffs = append(diffs, fmt.Sprintf("USDT %+v", b))
		}
		return diffs
	})
	// The same socket carried the orders' private updates: a cancelled
	// order's end arrives there.
	ended := func(m wsMsg) bool {
		o := order(m)
		return o.OrderID == orders[n-1] && o.StatusText == "CANCELLED"
	}
	seen := false
	for _, m := range w.ms {
		seen = seen || ended(m)
	}
	if !seen {
		w.until("a cancelled order's end", ended)
	}
	_ = w.c.Close(websocket.StatusNormalClosure, "")
}

// TestOpenAPIListsOrderEntry: /openapi.json documents the batch route's
// request and result fields and the WebSocket's order-entry methods on /ws.
func TestOpenAPIListsOrderEntry(t *testing.T) {
	_, h := testServer(t)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	batch := string(doc.Paths["/fe-ex-api/order/batch"]["post"])
	for _, want := range []string{`"orders"`, `"action"`, `"clientOrderId"`, `"order_id"`, `"code"`, `"exchangeToken"`} {
		if !strings.Contains(batch, want) {
			t.Errorf("/fe-ex-api/order/batch lacks %s: %s", want, batch)
		}
	}
	ws := string(doc.Paths["/ws"]["get"])
	for _, want := range []string{`"x-websocket-methods"`, `"order.place"`, `"order.cancel"`, `"order.amend"`, `"order.cancelAll"`, `"status"`} {
		if !strings.Contains(ws, want) {
			t.Errorf("/ws lacks %s: %.300s", want, ws)
		}
	}
}
