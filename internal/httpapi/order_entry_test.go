package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/push"
)

// rawCall posts body as is and returns the answer with its HTTP status.
func rawCall(t *testing.T, h http.Handler, path, body string, hdr map[string]string) walletAnswer {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var a walletAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
		t.Fatalf("%s: %q: %v", path, rec.Body.String(), err)
	}
	a.Status = rec.Code
	return a
}

// waitOpen polls the open orders until ok holds for them (the engine
// applies cancels and amends after they are answered).
func waitOpen(t *testing.T, h http.Handler, token, what string, ok func(OrderList) bool) {
	t.Helper()
	var l OrderList
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if l = openOrders(t, h, token); ok(l) {
			return
		}
	}
	t.Fatalf("%s: open orders %+v", what, l)
}

func openOrders(t *testing.T, h http.Handler, token string) OrderList {
	t.Helper()
	var l OrderList
	a := rawCall(t, h, "/fe-ex-api/order/list/new", `{}`, map[string]string{HeaderToken: token})
	if a.Code != "0" || json.Unmarshal(a.Data, &l) != nil {
		t.Fatalf("list/new: %+v", a)
	}
	return l
}

// TestOrderBatchRoute: /order/batch runs each entry on its own, as
// /order/create or /order/cancel would run it, and answers one result per
// entry in the entries' order: a good place is placed while its neighbours
// fail with exactly the code and message the single routes give the same
// body (a wrong type, a key given twice, a field in another letter case,
// an off-tick price, no action, an unknown action, not an object); a
// cancel cancels. An empty or too long batch, or a missing session or
// anti-forgery token, is refused whole and runs nothing.
func TestOrderBatchRoute(t *testing.T) {
	h, _, _ := newTradeEnv(t)
	const p = "/fe-ex-api/order/"
	tok := map[string]string{HeaderToken: "tb"}
	good := `{"action":"place","symbol":"btcusdt","side":"BUY","type":"LIMIT","price":"1000","volume":"0.1","clientOrderId":"batch-1"}`
	entries := []struct {
		body  string
		route string // the single route the same body is compared with
		code  string
	}{
		{good, "", "0"},
		{`{"action":"place","symbol":"btcusdt","side":"BUY","type":"LIMIT","price":true,"volume":"0.1"}`, "create", apperr.CodeParam},
		{`{"action":"place","symbol":"btcusdt","side":"BUY","type":"LIMIT","price":"1000","price":"2000","volume":"0.1"}`, "create", apperr.CodeParam},
		{`{"action":"place","Symbol":"btcusdt","side":"BUY","type":"LIMIT","price":"1000","volume":"0.1"}`, "create", apperr.CodeParam},
		{`{"action":"place","symbol":"btcusdt","side":"BUY","type":"LIMIT","price":"1000.001","volume":"0.1"}`, "create", apperr.CodeTradePriceTick},
		{`{"action":"place","symbol":"btcusdt","side":"BUY","type":"LIMIT","price":"1000","volume":"0.1","stp":"maybe"}`, "create", apperr.CodeTradeSTP},
		{`{"action":"cancel","symbol":"btcusdt","order_id":"999999"}`, "cancel", apperr.CodeTradeOrderNotFound},
		{`{"action":"cancel","symbol":"btcusdt"}`, "cancel", apperr.CodeParam},
		{`{"symbol":"btcusdt","side":"BUY"}`, "", apperr.CodeParam},
		{`{"action":"sell"}`, "", apperr.CodeParam},
		{`{"action":7}`, "", apperr.CodeParam},
		{`5`, "", apperr.CodeParam},
	}
	var body []string
	for _, e := range entries {
		body = append(body, e.body)
	}
	a := rawCall(t, h, p+"batch", `{"orders":[`+strings.Join(body, ",")+`],"uaTime":"2026-01-01 00:00:00"}`, tok)
	var res []struct {
		Code string          `json:"code"`
		Msg  string          `json:"msg"`
		Data json.RawMessage `json:"data"`
	}
	if a.Code != "0" || json.Unmarshal(a.Data, &res) != nil || len(res) != len(entries) {
		t.Fatalf("batch: %+v", a)
	}
	for i, e := range entries {
		if res[i].Code != e.code {
			t.Errorf("entry %d %s: %+v, want code %s", i, e.body, res[i], e.code)
		}
		if e.route != "" {
			single := rawCall(t, h, p+e.route, e.body, tok)
			if single.Code != res[i].Code || single.Msg != res[i].Msg {
				t.Errorf("entry %d %s: batch %s %q, /order/%s %s %q", i, e.body, res[i].Code, res[i].Msg, e.route, single.Code, single.Msg)
			}
		}
	}
	for i, want := range map[int]string{1: "price: must be a string or a number", 2: "price: duplicate key", 3: `did you mean "symbol"`,
		8: "action: required", 9: "action: place or cancel", 10: "action: must be a string", 11: "order must be a JSON object"} {
		if !strings.Contains(res[i].Msg, want) {
			t.Errorf("entry %d: msg %q, want %q", i, res[i].Msg, want)
		}
	}
	var placed OrderCreateResp
	if json.Unmarshal(res[0].Data, &placed) != nil || placed.OrderID == "" {
		t.Fatalf("placed: %s", res[0].Data)
	}
	if string(res[1].Data) != "null" {
		t.Errorf("a failed entry's data %s", res[1].Data)
	}
	if l := openOrders(t, h, "tb"); l.Count != 1 || l.OrderList[0].OrderID != placed.OrderID {
		t.Fatalf("open orders after the batch %+v", l)
	}

	// Cancels, and a place retried with its clientOrderId (the same order).
	a = rawCall(t, h, p+"batch", `{"orders":[`+good+`,{"action":"cancel","symbol":"btcusdt","order_id":"`+placed.OrderID+`"}]}`, tok)
	if a.Code != "0" || json.Unmarshal(a.Data, &res) != nil || len(res) != 2 || res[1].Code != "0" || string(res[1].Data) != "{}" {
		t.Fatalf("cancel batch: %+v", a)
	}
	var again OrderCreateResp
	if res[0].Code != "0" || json.Unmarshal(res[0].Data, &again) != nil || again.OrderID != placed.OrderID {
		t.Fatalf("retried place: %+v", res[0])
	}

	// Refused whole: nothing runs.
	many := make([]string, MaxBatchOrders+1)
	for i := range many {
		many[i] = fmt.Sprintf(`{"action":"place","symbol":"btcusdt","side":"BUY","type":"LIMIT","price":"1000","volume":"0.1","clientOrderId":"many-%d"}`, i)
	}
	for body, want := range map[string]string{
		`{"orders":[` + strings.Join(many, ",") + `]}`: "orders: at most 20 entries",
		`{"orders":[]}`:                         "orders: required",
		`{}`:                                    "orders: required",
		`{"orders":{}}`:                         "orders: must be an array",
		`{"orders":[` + good + `],"orders":[]}`: "orders: duplicate key",
	} {
		if a := rawCall(t, h, p+"batch", body, tok); a.Code != apperr.CodeParam || !strings.Contains(a.Msg, want) {
			t.Errorf("%.60s: %+v, want 410 %q", body, a, want)
		}
	}
	if a := rawCall(t, h, p+"batch", `{"orders":[`+good+`]}`, nil); a.Code != apperr.CodeNotSignedIn {
		t.Errorf("anonymous batch: %+v", a)
	}
	if a := rawCall(t, h, p+"batch", `{"orders":[`+good+`]}`, map[string]string{"Cookie": CookieToken + "=tb"}); a.Code != apperr.CodeForbidden {
		t.Errorf("cookie without the anti-forgery token: %+v", a)
	}
	if a := rawCall(t, h, p+"batch", `{"orders":[`+good+`]}`, map[string]string{"Cookie": CookieToken + "=tb", HeaderXSRF: XSRFToken("tb")}); a.Code != "0" {
		t.Errorf("cookie with the anti-forgery token: %+v", a)
	}
	// The refused batches placed nothing, and the accepted one retried
	// batch-1 (its clientOrderId names the cancelled order): nothing is
	// open once the engine has applied the cancel.
	waitOpen(t, h, "tb", "after the refused batches", func(l OrderList) bool { return l.Count == 0 })
}

// wsCall runs one WebSocket request through the order-entry methods.
func wsCall(t *testing.T, oe *WSOrderEntry, uid, id, method, params, lang string) WSAnswer {
	t.Helper()
	f, perr := push.ParseFrame([]byte(`{"id":` + id + `,"method":"` + method + `","params":` + params + `,"lang":"` + lang + `"}`))
	r := push.RequestOf(f, perr)
	r.UserID = uid
	b := oe.Serve(context.Background(), r)
	var a WSAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatalf("answer %s: %v", b, err)
	}
	return a
}

// TestWSOrderEntryAnswersAsREST: each WebSocket method answers the same
// params with the status, code, message and data its REST route answers
// the same body with, in either language, and echoes the request's id:
// places, an amend and cancels really happen; an unauthenticated request
// is 10002 and an unknown method 410.
func TestWSOrderEntryAnswersAsREST(t *testing.T) {
	h, _, _, svc := newTradeEnvSvc(t)
	oe := NewWSOrderEntry(svc, zerolog.Nop())
	const p = "/fe-ex-api/order/"
	const alice = "10000001" // token "ta", 1 BTC

	// A sell far above the market, placed over the socket.
	a := wsCall(t, oe, alice, `"p1"`, "order.place", `{"symbol":"btcusdt","side":"SELL","type":"LIMIT","price":"90000","volume":"0.5"}`, "")
	var placed OrderCreateResp
	if string(a.ID) != `"p1"` || a.Status != http.StatusOK || a.Code != "0" || a.Msg != "success" {
		t.Fatalf("place: %+v", a)
	}
	if b, _ := json.Marshal(a.Data); json.Unmarshal(b, &placed) != nil || placed.OrderID == "" {
		t.Fatalf("place data %v", a.Data)
	}
	if l := openOrders(t, h, "ta"); l.Count != 1 || l.OrderList[0].OrderID != placed.OrderID {
		t.Fatalf("open orders %+v", l)
	}
	if a := wsCall(t, oe, alice, `42`, "order.amend", `{"order_id":"`+placed.OrderID+`","volume":"0.3"}`, ""); string(a.ID) != "42" || a.Code != "0" {
		t.Fatalf("amend: %+v", a)
	}

	type cmp struct {
		method, route, params string
		lang                  string
	}
	for _, c := range []cmp{
		{"order.place", "create", `{"symbol":"btcusdt","side":"SELL","type":"LIMIT","price":"90000.001","volume":"0.1"}`, ""},
		{"order.place", "create", `{"symbol":"btcusdt","side":"SELL","type":"LIMIT","price":"90000.001","volume":"0.1"}`, "mn_MN"},
		{"order.place", "create", `{"symbol":"nope","side":"SELL","type":"LIMIT","price":"1","volume":"0.1"}`, ""},
		{"order.place", "create", `{"symbol":"btcusdt","side":"SELL","type":"LIMIT","price":"1","price":"2","volume":"0.1"}`, ""},
		{"order.place", "create", `{"symbol":"btcusdt","side":"SELL","type":"LIMIT","price":[1],"volume":"0.1"}`, ""},
		{"order.place", "create", `{"side":"SELL"}`, "mn_MN"},
		{"order.place", "create", `{"symbol":"btcusdt","side":"SELL","type":"LIMIT","price":"90000","volume":"50"}`, ""},
		{"order.amend", "amend", `{"order_id":"` + placed.OrderID + `","volume":"0.4"}`, ""},
		{"order.amend", "amend", `{"order_id":"` + placed.OrderID + `"}`, ""},
		{"order.cancel", "cancel", `{"symbol":"ethusdt","order_id":"` + placed.OrderID + `"}`, ""},
		{"order.cancel", "cancel", `{"order_id":"` + strings.Repeat("9", 30) + `"}`, ""},
		{"order.cancelAll", "cancel_all", `{"symbol":"` + strings.Repeat("x", 41) + `"}`, ""},
	} {
		ws := wsCall(t, oe, alice, `"x"`, c.method, c.params, c.lang)
		hdr := map[string]string{HeaderToken: "ta"}
		if c.lang != "" {
			hdr[HeaderLanguage] = c.lang
		}
		rest := rawCall(t, h, p+c.route, c.params, hdr)
		if ws.Code == "0" || ws.Status != rest.Status || ws.Code != rest.Code || ws.Msg != rest.Msg || ws.ErrorMsg != rest.ErrorMsg {
			t.Errorf("%s %s (%s): ws %d %s %q, rest %d %s %q", c.method, c.params, c.lang, ws.Status, ws.Code, ws.Msg, rest.Status, rest.Code, rest.Msg)
		}
	}
	// The amend held: the order is 0.3 now, still open.
	waitOpen(t, h, "ta", "after the amend", func(l OrderList) bool { return l.Count == 1 && l.OrderList[0].Volume == "0.3" })
	if a := wsCall(t, oe, alice, `"c"`, "order.cancel", `{"symbol":"btcusdt","order_id":"`+placed.OrderID+`"}`, ""); a.Code != "0" {
		t.Fatalf("cancel: %+v", a)
	}
	waitOpen(t, h, "ta", "after the cancel", func(l OrderList) bool { return l.Count == 0 })
	if a := wsCall(t, oe, alice, `"p2"`, "order.place", `{"symbol":"btcusdt","side":"SELL","type":"LIMIT","price":"95000","volume":"0.1"}`, ""); a.Code != "0" {
		t.Fatalf("second place: %+v", a)
	}
	waitOpen(t, h, "ta", "after the second place", func(l OrderList) bool { return l.Count == 1 })
	if a := wsCall(t, oe, alice, `"all"`, "order.cancelAll", `{}`, ""); a.Code != "0" || string(a.ID) != `"all"` {
		t.Fatalf("cancelAll: %+v", a)
	}
	waitOpen(t, h, "ta", "after cancelAll", func(l OrderList) bool { return l.Count == 0 })

	// Not signed in: the REST route's not-signed-in answer, for every method.
	anon := rawCall(t, h, p+"create", `{}`, nil)
	for _, m := range []string{"order.place", "order.cancel", "order.amend", "order.cancelAll"} {
		if a := wsCall(t, oe, "", `"anon"`, m, `{}`, ""); a.Code != apperr.CodeNotSignedIn || a.Msg != anon.Msg || a.Status != anon.Status || string(a.ID) != `"anon"` {
			t.Errorf("%s unauthenticated: %+v, want %+v", m, a, anon)
		}
	}
	if a := wsCall(t, oe, alice, `"u"`, "order.list", `{}`, ""); a.Code != apperr.CodeParam || !strings.Contains(a.Msg, "method: unknown") {
		t.Errorf("unknown method: %+v", a)
	}
	// A refusal by the transport is answered as such, in the request's language.
	r := push.Request{ID: json.RawMessage(`"busy"`), Method: "order.place", UserID: alice, Lang: apperr.LangMN, Refused: push.TooManyInFlight(push.MaxInFlight)}
	var busy WSAnswer
	if err := json.Unmarshal(oe.Serve(context.Background(), r), &busy); err != nil || busy.Code != apperr.CodeTooManyInFlight ||
		busy.Status != http.StatusTooManyRequests || !strings.Contains(busy.Msg, "100") || string(busy.ID) != `"busy"` {
		t.Fatalf("refused: %+v %v", busy, err)
	}
}

// TestOpenAPIDocumentsBatchAndWebSocket: the batch route's request and
// response fields are in the document, and a WebSocket route lists its
// methods with their params and data.
func TestOpenAPIDocumentsBatchAndWebSocket(t *testing.T) {
	h, _, _ := newTradeEnv(t)
	ws := NewRouter(Options{Service: "platform"})
	ws.HandleRaw(http.MethodGet, "/ws", RouteOpts{Summary: "ws", WSMethods: WSOrderMethods()}, "", "", func(http.ResponseWriter, *http.Request) {})
	doc := OpenAPI("t", "v", AllRoutes(h, ws))
	b, _ := json.Marshal(doc)
	var d struct {
		Paths map[string]map[string]struct {
			RequestBody struct {
				Content map[string]struct {
					Schema json.RawMessage `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
			Responses map[string]struct {
				Content map[string]struct {
					Schema json.RawMessage `json:"schema"`
				} `json:"content"`
			} `json:"responses"`
			WS struct {
				Request json.RawMessage            `json:"request"`
				Answer  json.RawMessage            `json:"answer"`
				Methods map[string]json.RawMessage `json:"methods"`
			} `json:"x-websocket-methods"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	batch := d.Paths["/fe-ex-api/order/batch"]["post"]
	req := string(batch.RequestBody.Content["application/json"].Schema)
	resp := string(batch.Responses["200"].Content["application/json"].Schema)
	for _, want := range []string{`"orders"`, `"oneOf"`, `"action"`, `"clientOrderId"`, `"order_id"`} {
		if !strings.Contains(req, want) {
			t.Errorf("batch request schema lacks %s: %s", want, req)
		}
	}
	for _, want := range []string{`"type":"array"`, `"code"`, `"msg"`, `"data"`} {
		if !strings.Contains(resp, want) {
			t.Errorf("batch response schema lacks %s: %s", want, resp)
		}
	}
	w := d.Paths["/ws"]["get"].WS
	if len(w.Methods) != 4 || !strings.Contains(string(w.Request), `"method"`) || !strings.Contains(string(w.Answer), `"status"`) {
		t.Fatalf("x-websocket-methods %+v", w)
	}
	for m, want := range map[string]string{"order.place": `"clientOrderId"`, "order.cancel": `"order_id"`, "order.amend": `"volume"`, "order.cancelAll": `"symbol"`} {
		if !strings.Contains(string(w.Methods[m]), want) {
			t.Errorf("%s: %s lacks %s", m, w.Methods[m], want)
		}
	}
	if !strings.Contains(string(w.Methods["order.place"]), `"order_id"`) {
		t.Errorf("order.place data undocumented: %s", w.Methods["order.place"])
	}
}

// TestStrictPassSkipsBatchEntries: the body's strict pass leaves each
// entry whole to its own decoding (strings holding brackets and escaped
// quotes, nesting, scalars, keys given twice inside an entry) and still
// checks the body around them; a body cut inside an entry is the
// decoder's malformed JSON.
func TestStrictPassSkipsBatchEntries(t *testing.T) {
	var req OrderBatchReq
	body := `{"orders":[{"action":"place","clientOrderId":"a\"]}\\","x":{"y":[1,{"z":"}"}]},"x":2}, 5 ,"s",null,[{"a":1}],true],"uaTime":"t"}`
	if err := decodeJSON([]byte(body), &req); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if len(req.Orders) != 6 || !strings.HasPrefix(string(req.Orders[0].raw), `{"action":"place","clientOrderId":"a\"]}\\"`) ||
		string(req.Orders[1].raw) != "5" || string(req.Orders[2].raw) != `"s"` || string(req.Orders[5].raw) != "true" {
		t.Fatalf("entries %q", req.Orders)
	}
	for in, want := range map[string]string{
		`{"orders":[{"a":1}],"orders":[]}`:               "orders: duplicate key",
		`{"orders":[{"a":1}],"Orders":[]}`:               "unknown field",
		`{"orders":[{"a":"\"}]`:                          "malformed JSON",
		`{"orders":[{"a":1}],"uaTime":"` + "\xff" + `"}`: "uaTime: must be valid UTF-8 text",
	} {
		var r OrderBatchReq
		if err := decodeJSON([]byte(in), &r); err == nil || !strings.Contains(apperr.As(err).Message(apperr.LangEN), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}
