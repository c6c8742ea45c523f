package binance

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"tenger/internal/marketdata"
)

const unknownVariant = "unknown variant `%s`, expected one of `SUBSCRIBE`, `UNSUBSCRIBE`, `LIST_SUBSCRIPTIONS`, `SET_PROPERTY`, `GET_PROPERTY`"

// TestSubscriptionFrames: SUBSCRIBE, UNSUBSCRIBE, LIST_SUBSCRIPTIONS,
// SET_PROPERTY and GET_PROPERTY on the web app's /ws, beside its own
// frames on the same connection.
func TestSubscriptionFrames(t *testing.T) {
	w := newWSEnv(t)
	c := w.dial("/ws")
	for _, x := range []struct{ frame, id, want string }{
		{`{"method":"LIST_SUBSCRIPTIONS","id":1}`, "1", `{"result":[],"id":1}`},
		{`{"method":"SUBSCRIBE","params":["btcusdt@trade","btcusdt@aggTrade","btcusdt@trade"],"id":2}`, "2", `{"result":null,"id":2}`},
		{`{"method":"SUBSCRIBE","params":["btcusdt@trade","!miniTicker@arr"],"id":"s3"}`, `"s3"`, `{"result":null,"id":"s3"}`},
		{`{"method":"LIST_SUBSCRIPTIONS","id":4}`, "4", `{"result":["btcusdt@trade","btcusdt@aggTrade","!miniTicker@arr"],"id":4}`},
		{`{"method":"UNSUBSCRIBE","params":["btcusdt@aggTrade","ethusdt@trade"],"id":5}`, "5", `{"result":null,"id":5}`},
		{`{"method":"UNSUBSCRIBE","params":["!miniTicker@arr"],"id":-6}`, "-6", `{"result":null,"id":-6}`},
		{`{"method":"LIST_SUBSCRIPTIONS","params":[],"id":7}`, "7", `{"result":["btcusdt@trade"],"id":7}`},
		{`{"method":"GET_PROPERTY","params":["combined"],"id":8}`, "8", `{"result":false,"id":8}`},
		{`{"method":"GET_PROPERTY","params":["combined"],"id":"51e2affb-0aba-4821-ba75-f2625006eb43"}`, `"51e2affb-0aba-4821-ba75-f2625006eb43"`,
			`{"result":false,"id":"51e2affb-0aba-4821-ba75-f2625006eb43"}`},
		{`{"method":"LIST_SUBSCRIPTIONS"}`, "null", `{"result":["btcusdt@trade"],"id":null}`},
	} {
		if got := c.request(x.frame, x.id); got != x.want {
			t.Fatalf("%s:\n got %s\nwant %s", x.frame, got, x.want)
		}
	}
	// The web app's frames are answered as before on the same connection.
	c.send(`{"ping":7}`)
	if m := string(c.next("pong", func(m []byte) bool { return strings.HasPrefix(string(m), `{"pong"`) })); m != `{"pong":7}` {
		t.Fatalf("pong: %s", m)
	}
	c.send(`{"event":"sub","params":{"channel":"market_btcusdt_ticker"}}`)
	if m := string(c.nextWith(`"event_rep"`)); !strings.Contains(m, `"status":"ok"`) {
		t.Fatalf("web app sub: %s", m)
	}
	// Its requests (order entry: lower-case methods with an object of
	// params) still go to the web app's handler, here absent.
	c.send(`{"id":"o1","method":"order.place","params":{"symbol":"btcusdt"}}`)
	if m := string(c.nextWith(`"event_rep"`)); !strings.Contains(m, "requests are not served") {
		t.Fatalf("web app request: %s", m)
	}

	// Events: raw payloads, then wrapped once combined is set.
	trade := func(id string) {
		w.md.OnTrades("btcusdt", []marketdata.Trade{{ID: id, Price: d("106"), Qty: d("1"), TakerSide: "BUY", At: testNow}})
		w.apply()
	}
	trade("4")
	if m := string(c.nextWith(`"e":"trade"`)); !strings.HasPrefix(m, `{"e":"trade",`) || !strings.Contains(m, `"t":4,`) {
		t.Fatalf("raw trade: %s", m)
	}
	if a := c.request(`{"method":"SET_PROPERTY","params":["combined",true],"id":9}`, "9"); a != `{"result":null,"id":9}` {
		t.Fatalf("set property: %s", a)
	}
	if a := c.request(`{"method":"GET_PROPERTY","params":["combined"],"id":10}`, "10"); a != `{"result":true,"id":10}` {
		t.Fatalf("get property: %s", a)
	}
	trade("5")
	if m := string(c.nextWith(`"e":"trade"`)); !strings.HasPrefix(m, `{"stream":"btcusdt@trade","data":{"e":"trade",`) || !strings.Contains(m, `"t":5,`) {
		t.Fatalf("combined trade: %s", m)
	}
	// A frame over the web app's 4096 bytes is Binance's, and taken.
	var many []string
	for i := range 300 {
		many = append(many, fmt.Sprintf(`"btcusdt@depth%s"`, []string{"", "@100ms", "5"}[i%3]))
	}
	long := `{"method":"SUBSCRIBE","params":[` + strings.Join(many, ",") + `],"id":11}`
	if len(long) <= 4096 {
		t.Fatalf("frame of %d bytes", len(long))
	}
	if a := c.request(long, "11"); a != `{"result":null,"id":11}` {
		t.Fatalf("long subscribe: %s", a)
	}
	if a := c.request(`{"method":"LIST_SUBSCRIPTIONS","id":12}`, "12"); a != `{"result":["btcusdt@trade","btcusdt@depth","btcusdt@depth@100ms","btcusdt@depth5"],"id":12}` {
		t.Fatalf("list after the long subscribe: %s", a)
	}
}

// TestBadFrames: Binance's error answers, the connection open after each.
func TestBadFrames(t *testing.T) {
	w := newWSEnv(t)
	w.streams.maxStreams = 3
	for _, path := range []string{"/ws", "/stream", "/ws/btcusdt@trade"} {
		t.Run(path, func(t *testing.T) {
			c := w.dial(path)
			cases := []struct{ frame, id, want string }{
				{`{"method":"FOO","id":3}`, "3", `{"error":{"code":2,"msg":"Invalid request: ` + fmt.Sprintf(unknownVariant, "FOO") + `"},"id":3}`},
				{`{"method":"SUBSCRIBE","params":"btcusdt@trade","id":4}`, "4", `{"error":{"code":2,"msg":"Invalid request: params must be a list"},"id":4}`},
				{`{"method":"SUBSCRIBE","params":[1],"id":5}`, "5", `{"error":{"code":2,"msg":"Invalid request: params must be a list of stream names"},"id":5}`},
				{`{"method":"SUBSCRIBE","id":6}`, "6", `{"error":{"code":2,"msg":"Invalid request: missing field ` + "`params`" + `"},"id":6}`},
				{`{"method":"SUBSCRIBE","params":["btcusdt@foo"],"id":7}`, "7", `{"error":{"code":2,"msg":"Invalid request: invalid stream"},"id":7}`},
				{`{"method":"SUBSCRIBE","params":["ethusdt@trade","dogeusdt@trade"],"id":8}`, "8", `{"error":{"code":2,"msg":"Invalid request: invalid stream"},"id":8}`},
				{`{"method":"SUBSCRIBE","params":["BTCUSDT@trade"],"id":9}`, "9", `{"error":{"code":2,"msg":"Invalid request: invalid stream"},"id":9}`},
				{`{"method":"UNSUBSCRIBE","params":["btcusdt@kline_2h"],"id":10}`, "10", `{"error":{"code":2,"msg":"Invalid request: invalid stream"},"id":10}`},
				{`{"method":"LIST_SUBSCRIPTIONS","id":1.5}`, "null", `{"error":{"code":2,"msg":"Invalid request: request ID must be an unsigned integer"},"id":null}`},
				{`{"method":"LIST_SUBSCRIPTIONS","id":"a+b"}`, "null", `{"error":{"code":2,"msg":"Invalid request: request ID must be an unsigned integer"},"id":null}`},
				{`{"method":"LIST_SUBSCRIPTIONS","id":"` + strings.Repeat("a", 37) + `"}`, "null", `{"error":{"code":2,"msg":"Invalid request: request ID must be an unsigned integer"},"id":null}`},
				{`{"method":"LIST_SUBSCRIPTIONS","params":["x"],"id":11}`, "11", `{"error":{"code":2,"msg":"Invalid request: too many parameters"},"id":11}`},
				{`{"method":"SET_PROPERTY","params":["combined",1],"id":12}`, "12", `{"error":{"code":1,"msg":"Invalid value type: expected Boolean"},"id":12}`},
				{`{"method":"SET_PROPERTY","params":["speed",true],"id":13}`, "13", `{"error":{"code":0,"msg":"Unknown property"},"id":13}`},
				{`{"method":"GET_PROPERTY","params":[5],"id":14}`, "14", `{"error":{"code":2,"msg":"Invalid request: property name must be a string"},"id":14}`},
				{`{"method":"GET_PROPERTY","params":["combined","x"],"id":15}`, "15", `{"error":{"code":2,"msg":"Invalid request: too many parameters"},"id":15}`},
				// Too many: the connection may listen to 3 here.
				{`{"method":"SUBSCRIBE","params":["btcusdt@depth","btcusdt@ticker"],"id":16}`, "16", `{"result":null,"id":16}`},
				{`{"method":"SUBSCRIBE","params":["btcusdt@bookTicker","btcusdt@depth","btcusdt@miniTicker"],"id":17}`, "17", `{"error":{"code":2,"msg":"Invalid request: too many streams: a connection listens to at most 3"},"id":17}`},
			}
			if path != "/ws" {
				// Frames only Binance's endpoints take as Binance's.
				cases = append(cases,
					struct{ frame, id, want string }{`{"method":`, "null", `{"error":{"code":3,"msg":"Invalid JSON: unexpected end of JSON input at line 1 column 11"},"id":null}`},
					struct{ frame, id, want string }{`[1]`, "null", `{"error":{"code":2,"msg":"Invalid request: expected a JSON object"},"id":null}`},
					struct{ frame, id, want string }{`{"params":[],"id":18}`, "18", `{"error":{"code":2,"msg":"Invalid request: missing field ` + "`method`" + `"},"id":18}`},
					struct{ frame, id, want string }{`{"method":"subscribe","params":[],"id":19}`, "19", `{"error":{"code":2,"msg":"Invalid request: ` + fmt.Sprintf(unknownVariant, "subscribe") + `"},"id":19}`},
				)
			}
			for _, x := range cases {
				if got := c.request(x.frame, x.id); got != x.want {
					t.Fatalf("%s:\n got %s\nwant %s", x.frame, got, x.want)
				}
			}
			// The refused subscriptions took nothing.
			a := c.request(`{"method":"LIST_SUBSCRIPTIONS","id":20}`, "20")
			want := `{"result":["btcusdt@depth","btcusdt@ticker"],"id":20}`
			if path == "/ws/btcusdt@trade" {
				want = `{"result":["btcusdt@trade","btcusdt@depth","btcusdt@ticker"],"id":20}`
			}
			if a != want {
				t.Fatalf("list: %s, want %s", a, want)
			}
		})
	}
	// The web app's frames on /ws stay its own: an invalid one gets its
	// error reply, not Binance's.
	c := w.dial("/ws")
	c.send(`{"method":`)
	if m := string(c.next("reply", nil)); !strings.Contains(m, `"event_rep":"error"`) {
		t.Fatalf("web app's bad frame: %s", m)
	}
}

// TestStreamURLs: names in URLs that are not streams are ignored (CCXT
// connects to /ws/0), more than a connection's maximum is refused, and
// /stream without streams listens to none.
func TestStreamURLs(t *testing.T) {
	w := newWSEnv(t)
	for path, want := range map[string]string{
		"/ws/0":   `[]`,
		"/ws/":    `[]`,
		"/stream": `[]`,
		"/ws/btcusdt@trade/ethusdt@depth/nonsense":                  `["btcusdt@trade","ethusdt@depth"]`,
		"/stream?streams=btcusdt@trade/x/btcusdt@trade/!ticker@arr": `["btcusdt@trade","!ticker@arr"]`,
	} {
		c := w.dial(path)
		if a := c.request(`{"method":"LIST_SUBSCRIPTIONS","id":1}`, "1"); a != `{"result":`+want+`,"id":1}` {
			t.Fatalf("%s: %s", path, a)
		}
	}
	w.streams.maxStreams = 2
	resp, err := http.Get(w.http.URL + "/stream?streams=btcusdt@trade/btcusdt@aggTrade/btcusdt@depth")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("too many streams in the URL: %d", resp.StatusCode)
	}
	// A frame longer than a dialect's limit ends a stream connection.
	c := w.dial("/ws/btcusdt@trade")
	c.send(`{"method":"SUBSCRIBE","params":["` + strings.Repeat("x", 70<<10) + `"],"id":1}`)
	if s := websocket.CloseStatus(c.closeErr()); s != websocket.StatusMessageTooBig {
		t.Fatalf("close status %v", s)
	}
}

// TestStreamsStopWithoutSubscribers: closing the connections forgets
// their streams and ends the loop; a new subscriber starts it again.
func TestStreamsStopWithoutSubscribers(t *testing.T) {
	w := newWSEnv(t)
	a, b := w.dial("/ws/btcusdt@depth@100ms"), w.dial("/ws")
	if r := b.request(`{"method":"SUBSCRIBE","params":["btcusdt@depth@100ms","btcusdt@trade"],"id":1}`, "1"); r != `{"result":null,"id":1}` {
		t.Fatal(r)
	}
	_ = a.ws.Close(websocket.StatusNormalClosure, "")
	_ = b.ws.Close(websocket.StatusNormalClosure, "")
	w.waitIdle()
	w.streams.mu.Lock()
	sy := w.streams.syms["btcusdt"]
	if sy.view != nil || sy.pending != nil || sy.nDiff != 0 || sy.nTrade != 0 || len(sy.streams) != 0 {
		t.Fatalf("btcusdt state left: %+v", sy)
	}
	w.streams.mu.Unlock()
	c := w.dial("/ws/btcusdt@trade")
	c.request(`{"method":"LIST_SUBSCRIPTIONS","id":1}`, "1")
	w.md.OnTrades("btcusdt", []marketdata.Trade{{ID: "4", Price: d("106"), Qty: d("1"), TakerSide: "BUY", At: testNow}})
	w.apply()
	c.nextWith(`"t":4,`)
}
