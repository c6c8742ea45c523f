package awslambda

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// samplesDir holds the recorded events shared with the function tests.
const samplesDir = "../../events/samples"

func loadSample(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(samplesDir, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func lambdaCtx(requestID string) context.Context {
	return lambdacontext.NewContext(context.Background(), &lambdacontext.LambdaContext{AwsRequestID: requestID})
}

// logLines decodes the JSON log lines a runtime wrote.
func logLines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func TestRequestFromV2CookieAuthSample(t *testing.T) {
	var ev events.APIGatewayV2HTTPRequest
	loadSample(t, "http_user_info_cookie_auth.json", &ev)
	req, err := RequestFromV2(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if req.Method != http.MethodPost || req.URL.Path != "/fe-ex-api/common/user_info" {
		t.Fatalf("request line = %s %s", req.Method, req.URL.Path)
	}
	for name, want := range map[string]string{"lan": "en_US", "token": "{{token}}", "XSRF-TOKEN": "3f9c1d2e7a8b4c5d6e7f8091a2b3c4d5"} {
		ck, err := req.Cookie(name)
		if err != nil || ck.Value != want {
			t.Errorf("cookie %s = %v, %v; want %q", name, ck, err, want)
		}
	}
	if got := req.Header.Get("X-XSRF-TOKEN"); got != "3f9c1d2e7a8b4c5d6e7f8091a2b3c4d5" {
		t.Errorf("X-XSRF-TOKEN = %q", got)
	}
	if req.Header.Get("exchange-client") != "pc" || req.Host != "a1b2c3d4e5.execute-api.ap-northeast-2.amazonaws.com" {
		t.Errorf("headers/host not carried: %v %s", req.Header, req.Host)
	}
	if req.RemoteAddr != "203.0.113.7:0" {
		t.Errorf("RemoteAddr = %q", req.RemoteAddr)
	}
	body, _ := io.ReadAll(req.Body)
	if !strings.Contains(string(body), `"uaTime"`) || req.ContentLength != int64(len(body)) {
		t.Errorf("body = %q (length %d)", body, req.ContentLength)
	}
}

func TestRequestFromV2HeaderAuthAndBase64Body(t *testing.T) {
	var ev events.APIGatewayV2HTTPRequest
	loadSample(t, "http_user_info_header_auth.json", &ev)
	req, err := RequestFromV2(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if req.Header.Get("Exchange-Token") != "{{token}}" {
		t.Errorf("exchange-token = %q", req.Header.Get("Exchange-Token"))
	}
	if _, err := req.Cookie("token"); err == nil {
		t.Errorf("header-auth sample must not carry a token cookie")
	}

	loadSample(t, "http_login.json", &ev)
	if !ev.IsBase64Encoded {
		t.Fatal("login sample is meant to be base64-encoded")
	}
	req, err = RequestFromV2(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.NewDecoder(req.Body).Decode(&body); err != nil {
		t.Fatalf("decoded body is not JSON: %v", err)
	}
	if body["email"] != "sample.user@tenger.example" {
		t.Errorf("body = %v", body)
	}

	ev.Body = "%%% not base64"
	if _, err := RequestFromV2(context.Background(), ev); err == nil {
		t.Error("bad base64 accepted")
	}
}

func TestRequestFromV2StageQueryAndRepeatedHeaders(t *testing.T) {
	ev := events.APIGatewayV2HTTPRequest{
		RawPath:        "/live/fe-ex-api/common/rate",
		RawQueryString: "coin=BTC&fiat=MNT&fiat=USD",
		Headers: map[string]string{
			// Payload v2 joins repeated headers with a comma.
			"accept-language": "mn-MN,en-US;q=0.8",
			"x-custom":        "a,b",
			"cookie":          "ignored=1",
		},
		Cookies: []string{"a=1", "b=2"},
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			Stage: "live",
			HTTP:  events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "GET", Protocol: "HTTP/2.0"},
		},
	}
	req, err := RequestFromV2(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if req.URL.Path != "/fe-ex-api/common/rate" {
		t.Errorf("stage prefix not stripped: %s", req.URL.Path)
	}
	if q := req.URL.Query(); q.Get("coin") != "BTC" || len(q["fiat"]) != 2 {
		t.Errorf("query = %v", q)
	}
	if req.Header.Get("X-Custom") != "a,b" || req.Header.Get("Accept-Language") != "mn-MN,en-US;q=0.8" {
		t.Errorf("repeated headers = %v", req.Header)
	}
	if got := req.Header.Get("Cookie"); got != "a=1; b=2" {
		t.Errorf("Cookie = %q (the cookies list wins over a stray header)", got)
	}
	if req.ProtoMajor != 2 {
		t.Errorf("proto = %s", req.Proto)
	}
}

// echo is a handler standing in for a router: it reports what it received
// and answers with cookies and repeated headers.
var echo = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/panic" {
		panic("boom")
	}
	if r.URL.Path == "/binary" {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write([]byte{0x89, 'P', 'N', 'G', 0, 1, 2, 0xff})
		return
	}
	http.SetCookie(w, &http.Cookie{Name: "token", Value: "t-123", Path: "/", MaxAge: 60})
	http.SetCookie(w, &http.Cookie{Name: "XSRF-TOKEN", Value: "x-456", Path: "/"})
	w.Header().Add("Vary", "Origin")
	w.Header().Add("Vary", "Cookie")
	w.Header().Set("Content-Type", "application/json")
	xsrf, _ := r.Cookie("XSRF-TOKEN")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"path": r.URL.Path, "xsrfCookie": xsrf.Value, "xsrfHeader": r.Header.Get("X-XSRF-TOKEN"),
		"correlation": CorrelationID(r.Context()),
	})
})

func TestHTTPAdapterResponse(t *testing.T) {
	var logs bytes.Buffer
	rt := NewRuntime("profile", &logs)
	h := rt.HTTP(echo)
	var ev events.APIGatewayV2HTTPRequest
	loadSample(t, "http_user_info_cookie_auth.json", &ev)
	resp, err := h(lambdaCtx("req-1"), ev)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.IsBase64Encoded {
		t.Fatalf("status %d base64 %v", resp.StatusCode, resp.IsBase64Encoded)
	}
	if len(resp.Cookies) != 2 || !strings.HasPrefix(resp.Cookies[0], "token=t-123") || !strings.HasPrefix(resp.Cookies[1], "XSRF-TOKEN=x-456") {
		t.Errorf("cookies = %q", resp.Cookies)
	}
	if _, ok := resp.Headers["Set-Cookie"]; ok {
		t.Error("Set-Cookie must travel in cookies, not headers")
	}
	if resp.Headers["Vary"] != "Origin,Cookie" || resp.Headers["Content-Type"] != "application/json" {
		t.Errorf("headers = %v", resp.Headers)
	}
	var body map[string]string
	if err := json.Unmarshal([]byte(resp.Body), &body); err != nil {
		t.Fatal(err)
	}
	if body["xsrfCookie"] != body["xsrfHeader"] || body["xsrfCookie"] == "" {
		t.Errorf("anti-forgery pair not delivered: %v", body)
	}
	// The API Gateway request id is the correlation id of an HTTP call.
	if body["correlation"] != "Kx1aDdDdoAMEVs4=" {
		t.Errorf("correlation id in handler context = %q", body["correlation"])
	}

	// A second call is warm; both log the invocation fields.
	ev.Headers["x-correlation-id"] = "from-caller"
	resp, _ = h(lambdaCtx("req-2"), ev)
	_ = json.Unmarshal([]byte(resp.Body), &body)
	if body["correlation"] != "from-caller" {
		t.Errorf("caller's correlation id not continued: %q", body["correlation"])
	}
	var lines, metrics []map[string]any
	for _, l := range logLines(t, &logs) {
		if _, ok := l["_aws"]; ok {
			metrics = append(metrics, l)
		} else {
			lines = append(lines, l)
		}
	}
	if len(lines) != 2 {
		t.Fatalf("log lines = %d", len(lines))
	}
	// Each request counted by its outcome (embedded metric format).
	if len(metrics) != 2 || metrics[0]["Service"] != "profile" || metrics[0]["Outcome"] != OutcomeOK || metrics[0]["Requests"] != 1.0 {
		t.Fatalf("metric lines %v", metrics)
	}
	for i, want := range []struct {
		cold bool
		req  string
		cid  string
	}{{true, "req-1", "Kx1aDdDdoAMEVs4="}, {false, "req-2", "from-caller"}} {
		l := lines[i]
		if l[FieldService] != "profile" || l[FieldColdStart] != want.cold || l[FieldFunctionRequestID] != want.req || l[FieldCorrelationID] != want.cid {
			t.Errorf("log line %d = %v", i, l)
		}
	}
	if strings.Contains(logs.String(), "3f9c1d2e7a8b4c5d6e7f8091a2b3c4d5") || strings.Contains(logs.String(), "t-123") {
		t.Error("tokens leaked into logs")
	}
}

func TestHTTPAdapterBinaryPanicAndBadEvent(t *testing.T) {
	h := NewRuntime("t", io.Discard).HTTP(echo)
	ev := events.APIGatewayV2HTTPRequest{RawPath: "/binary", RequestContext: events.APIGatewayV2HTTPRequestContext{
		HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "GET"}}}
	resp, _ := h(context.Background(), ev)
	raw, err := base64.StdEncoding.DecodeString(resp.Body)
	if !resp.IsBase64Encoded || err != nil || !bytes.Equal(raw, []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 0xff}) {
		t.Errorf("binary body: base64 %v, %q, %v", resp.IsBase64Encoded, resp.Body, err)
	}

	ev.RawPath = "/panic"
	resp, _ = h(context.Background(), ev)
	if resp.StatusCode != 500 || !strings.Contains(resp.Body, `"code":"500"`) || len(resp.Cookies) != 0 {
		t.Errorf("panic answer = %+v", resp)
	}

	ev.RawPath, ev.Body, ev.IsBase64Encoded = "/x", "@@", true
	resp, _ = h(context.Background(), ev)
	if resp.StatusCode != 400 {
		t.Errorf("malformed event answer = %+v", resp)
	}
}

// TestDynamoDBBatchStopsAtFirstFailure runs the recorded stream batch of a
// trade (sixteen changes: orders, balances, postings, TTL removals).
func TestDynamoDBBatchStopsAtFirstFailure(t *testing.T) {
	var ev events.DynamoDBEvent
	loadSample(t, "ddb_stream_batch.json", &ev)
	if len(ev.Records) != 16 {
		t.Fatalf("sample has %d records", len(ev.Records))
	}
	var seen []string
	h := NewRuntime("stream", io.Discard).DynamoDBBatch(func(ctx context.Context, r events.DynamoDBEventRecord) error {
		seen = append(seen, r.Change.SequenceNumber)
		if r.Change.SequenceNumber == ev.Records[5].Change.SequenceNumber {
			return errors.New("PostToConnection throttled")
		}
		return nil
	})
	resp, err := h(lambdaCtx("s-1"), ev)
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 6 || seen[0] != ev.Records[0].Change.SequenceNumber {
		t.Errorf("records processed: %v, want the first six in order", seen)
	}
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != ev.Records[5].Change.SequenceNumber {
		t.Errorf("failures = %+v", resp.BatchItemFailures)
	}

	seen = nil
	all := NewRuntime("stream", io.Discard).DynamoDBBatch(func(_ context.Context, r events.DynamoDBEventRecord) error {
		seen = append(seen, r.EventName)
		return nil
	})
	resp, _ = all(context.Background(), ev)
	if len(seen) != 16 || len(resp.BatchItemFailures) != 0 {
		t.Errorf("all-success: seen %v failures %v", seen, resp.BatchItemFailures)
	}

	// Records are logged under the correlation id their item carries
	// (ItemAttrCorrelationID; the workflow items do).
	var wf events.DynamoDBEvent
	loadSample(t, "ddb_stream_wf_insert.json", &wf)
	var cids []string
	withCID := NewRuntime("wfstart", io.Discard).DynamoDBBatch(func(ctx context.Context, _ events.DynamoDBEventRecord) error {
		cids = append(cids, CorrelationID(ctx))
		return nil
	})
	if _, err := withCID(lambdaCtx("s-2"), wf); err != nil {
		t.Fatal(err)
	}
	if len(cids) != 4 || cids[0] != "Kx1aWwWwoAMEVs5=" || cids[3] != "Kx1aWwWwoAMEVs6=" {
		t.Errorf("correlation ids from item attribute = %v", cids)
	}
}

func TestChangeFromStreamRecord(t *testing.T) {
	var ev events.DynamoDBEvent
	loadSample(t, "ddb_stream_batch.json", &ev)

	ins, err := ChangeFromStreamRecord(ev.Records[0])
	if err != nil {
		t.Fatal(err)
	}
	if ins.Kind != store.ChangeInsert || ins.Old != nil || ins.Key != (store.Key{PK: "SORD#1795252500000201", SK: "O"}) {
		t.Errorf("insert = %+v", ins)
	}
	if ins.ID != "33330000000000000000000001" || ins.At != 1795252500000 {
		t.Errorf("id/at = %s %d", ins.ID, ins.At)
	}
	if ins.New.Str("uid") != "10000001" || ins.New.Int("status") != 1 || ins.New.Dec("volume").String() != "0.002" {
		t.Errorf("order = %+v", ins.New)
	}

	mod, err := ChangeFromStreamRecord(ev.Records[1])
	if err != nil {
		t.Fatal(err)
	}
	if mod.Kind != store.ChangeModify || mod.Old == nil || mod.New == nil || mod.Key != (store.Key{PK: "BAL#10000001", SK: "spot##USDT"}) {
		t.Fatalf("modify = %+v", mod)
	}
	// Numbers are exact decimals, never floats.
	if d, ok := mod.New["avail"].(decimal.Decimal); !ok || d.String() != "880" {
		t.Errorf("avail = %#v", mod.New["avail"])
	}
	if mod.Old.Dec("avail").String() != "1000" || mod.New.Dec("frozen").String() != "120" {
		t.Errorf("old avail %s, frozen %s", mod.Old.Dec("avail"), mod.New.Dec("frozen"))
	}

	// Sets, maps, lists, booleans and nulls (no item of the table has them
	// today; the store port allows them).
	typed := ev.Records[1]
	typed.Change.NewImage = map[string]events.DynamoDBAttributeValue{
		"pk":   events.NewStringAttribute("BAL#10000001"),
		"sk":   events.NewStringAttribute("spot##USDT"),
		"tags": events.NewStringSetAttribute([]string{"spot", "main"}),
		"meta": events.NewMapAttribute(map[string]events.DynamoDBAttributeValue{
			"source": events.NewStringAttribute("deposit"),
			"flags":  events.NewListAttribute([]events.DynamoDBAttributeValue{events.NewBooleanAttribute(true), events.NewNullAttribute()}),
		}),
	}
	typ, err := ChangeFromStreamRecord(typed)
	if err != nil {
		t.Fatal(err)
	}
	tags, _ := typ.New["tags"].([]any)
	if len(tags) != 2 {
		t.Errorf("string set = %#v", typ.New["tags"])
	}
	meta, _ := typ.New["meta"].(map[string]any)
	flags, _ := meta["flags"].([]any)
	if meta["source"] != "deposit" || len(flags) != 2 || flags[0] != true || flags[1] != nil {
		t.Errorf("nested map/list = %#v", typ.New["meta"])
	}

	sess, err := ChangeFromStreamRecord(ev.Records[14])
	if err != nil {
		t.Fatal(err)
	}
	if sess.Kind != store.ChangeRemove || sess.New != nil || sess.Old.Str("uid") != "10000002" || sess.Key.SK != "SESSION" {
		t.Errorf("session removal = %+v", sess)
	}
	rem, err := ChangeFromStreamRecord(ev.Records[15])
	if err != nil {
		t.Fatal(err)
	}
	if rem.Kind != store.ChangeRemove || rem.New != nil || rem.Old.Str("connId") != "Ab1CdEfGhIjKlM=" || rem.Key.PK != "WSCONN#Ab1CdEfGhIjKlM=" {
		t.Errorf("remove = %+v", rem)
	}

	bad := ev.Records[0]
	bad.EventName = "TRUNCATE"
	if _, err := ChangeFromStreamRecord(bad); err == nil {
		t.Error("unknown event name accepted")
	}
}

type fakeWS struct {
	connected    []WebSocketConn
	disconnected []string
	messages     []string
	err          error
}

func (f *fakeWS) Connect(_ context.Context, c WebSocketConn) error {
	f.connected = append(f.connected, c)
	return f.err
}
func (f *fakeWS) Disconnect(_ context.Context, id string) error {
	f.disconnected = append(f.disconnected, id)
	return f.err
}
func (f *fakeWS) Message(_ context.Context, id string, b []byte) error {
	f.messages = append(f.messages, id+" "+string(b))
	return f.err
}

func TestWebSocketRoutes(t *testing.T) {
	ws := &fakeWS{}
	h := NewRuntime("ws", io.Discard).WebSocket(ws)
	for _, name := range []string{"ws_connect.json", "ws_default_sub.json", "ws_disconnect.json"} {
		var ev events.APIGatewayWebsocketProxyRequest
		loadSample(t, name, &ev)
		resp, err := h(context.Background(), ev)
		if err != nil || resp.StatusCode != 200 {
			t.Errorf("%s: %+v %v", name, resp, err)
		}
	}
	if len(ws.connected) != 1 || ws.connected[0].ID != "Ab1CdEfGhIjKlM=" || ws.connected[0].SourceIP != "203.0.113.7" ||
		ws.connected[0].Headers["Origin"] != "https://tenger.example" {
		t.Errorf("connect = %+v", ws.connected)
	}
	if len(ws.messages) != 1 || !strings.Contains(ws.messages[0], `"event":"sub"`) || !strings.HasPrefix(ws.messages[0], "Ab1CdEfGhIjKlM= ") {
		t.Errorf("messages = %v", ws.messages)
	}
	if len(ws.disconnected) != 1 || ws.disconnected[0] != "Ab1CdEfGhIjKlM=" {
		t.Errorf("disconnect = %v", ws.disconnected)
	}

	var ev events.APIGatewayWebsocketProxyRequest
	loadSample(t, "ws_connect.json", &ev)
	ws.err = ErrForbidden
	if resp, _ := h(context.Background(), ev); resp.StatusCode != 403 {
		t.Errorf("refused connect = %d", resp.StatusCode)
	}
	ws.err = errors.New("store down")
	if resp, _ := h(context.Background(), ev); resp.StatusCode != 500 {
		t.Errorf("failed connect = %d", resp.StatusCode)
	}
}

// TestRequireOrigin: behind the edge, an HTTP request or a WebSocket
// connection without the edge's key (or with another) is refused with 403
// before the handler sees it; the key's header name is matched in any
// case; frames of a connection are not checked (API Gateway sends no
// headers with them); without a key nothing is required.
func TestRequireOrigin(t *testing.T) {
	served := 0
	rt := NewRuntime("trade", io.Discard)
	h := rt.HTTP(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { served++; _, _ = io.WriteString(w, `{"code":"0"}`) }))
	req := func(headers map[string]string) int {
		t.Helper()
		resp, err := h(context.Background(), events.APIGatewayV2HTTPRequest{RawPath: "/fe-ex-api/order/create", Headers: headers,
			RequestContext: events.APIGatewayV2HTTPRequestContext{HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "POST", Path: "/fe-ex-api/order/create"}}})
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode
	}
	if code := req(nil); code != 200 || served != 1 {
		t.Fatalf("without a key required: %d, served %d", code, served)
	}
	rt.RequireOrigin("edge-secret-0123456789")
	for _, c := range []struct {
		headers map[string]string
		want    int
	}{
		{nil, 403},
		{map[string]string{"x-tenger-origin": "wrong"}, 403},
		{map[string]string{"x-tenger-origin": "edge-secret-012345678"}, 403},
		{map[string]string{"x-tenger-origin": "edge-secret-0123456789"}, 200},
		{map[string]string{"X-Tenger-Origin": "edge-secret-0123456789"}, 200},
	} {
		if code := req(c.headers); code != c.want {
			t.Errorf("%v: %d, want %d", c.headers, code, c.want)
		}
	}
	if served != 3 {
		t.Errorf("the handler ran %d times, want 3 (refused requests never reach it)", served)
	}

	ws := &fakeWS{}
	wrt := NewRuntime("ws", io.Discard)
	wrt.RequireOrigin("edge-secret-0123456789")
	wh := wrt.WebSocket(ws)
	var ev events.APIGatewayWebsocketProxyRequest
	loadSample(t, "ws_connect.json", &ev)
	if resp, _ := wh(context.Background(), ev); resp.StatusCode != 403 || len(ws.connected) != 0 {
		t.Errorf("a connection around the edge: %d, connected %v", resp.StatusCode, ws.connected)
	}
	ev.Headers["X-Tenger-Origin"] = "edge-secret-0123456789"
	if resp, _ := wh(context.Background(), ev); resp.StatusCode != 200 || len(ws.connected) != 1 {
		t.Errorf("a connection through the edge: %d", resp.StatusCode)
	}
	var frame events.APIGatewayWebsocketProxyRequest
	loadSample(t, "ws_default_sub.json", &frame)
	if resp, _ := wh(context.Background(), frame); resp.StatusCode != 200 || len(ws.messages) != 1 {
		t.Errorf("a frame: %d", resp.StatusCode)
	}
}

// TestOutcome: how an answer is counted.
func TestOutcome(t *testing.T) {
	for _, c := range []struct {
		status int
		body   string
		want   string
	}{
		{200, `{"code":"0","msg":"suc","data":{}}`, OutcomeOK},
		{200, `{"code":"14003","msg":"Insufficient balance","data":null}`, OutcomeRefused},
		{200, `{"orderId":12,"status":"NEW"}`, OutcomeOK},
		{400, `{"code":-2010,"msg":"Account has insufficient balance for requested action."}`, OutcomeRefused},
		{429, ``, OutcomeRefused},
		{500, `{"code":"500","msg":"internal"}`, OutcomeError},
		{200, `[1,2]`, OutcomeOK},
		{200, ``, OutcomeOK},
	} {
		if got := Outcome(c.status, []byte(c.body)); got != c.want {
			t.Errorf("%d %s: %s, want %s", c.status, c.body, got, c.want)
		}
	}
}
