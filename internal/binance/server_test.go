package binance

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestPrefixes(t *testing.T) {
	e := newEnv(t, nil)
	if got := strings.Join(e.srv.Prefixes(), " "); got != "/api/v3/ /sapi/ /fapi/ /dapi/" {
		t.Fatal(got)
	}
}

func TestUnknownEndpoints(t *testing.T) {
	e := newEnv(t, nil)
	for _, c := range []struct{ method, target string }{
		{http.MethodGet, "/api/v3/nothing"},
		{http.MethodPost, "/api/v3/ping"},  // known path, other method
		{http.MethodGet, "/api/v3/ping/"},  // paths are exact
		{http.MethodGet, "/sapi/v1/foo"},   // other prefixes
		{http.MethodGet, "/fapi/v1/depth"}, // no futures market data
		{http.MethodGet, "/api/v1/ping"},   // outside the prefixes
		{http.MethodDelete, "/dapi/v1/time"} /**/} {
		a := e.do(c.method, c.target, "")
		if a.status != http.StatusNotFound || !strings.HasPrefix(a.header.Get("Content-Type"), "text/html") ||
			!strings.Contains(a.body, "404") {
			t.Errorf("%s %s: %d %q", c.method, c.target, a.status, a.body)
		}
		if a.header.Get("X-MBX-USED-WEIGHT-1M") == "" {
			t.Errorf("%s %s: no weight header", c.method, c.target)
		}
	}
}

func TestParameterErrors(t *testing.T) {
	e := newEnv(t, nil)
	runErrCases(t, e, []errCase{
		{"ping takes none", "/api/v3/ping?foo=1", 400, -1104,
			"Not all sent parameters were read; read '0' parameter(s) but was sent '1'."},
		{"misnamed parameter", "/api/v3/depth?symbol=BTCUSDT&depth=5", 400, -1104,
			"Not all sent parameters were read; read '1' parameter(s) but was sent '2'."},
		{"signed parameters on a public endpoint", "/api/v3/time?timestamp=1", 400, -1104, ""},
		{"duplicate", "/api/v3/depth?symbol=BTCUSDT&symbol=ETHUSDT", 400, -1101,
			"Duplicate values for a parameter detected."},
		{"bad escape", "/api/v3/depth?symbol=%zz", 400, -1100, "Illegal characters found in a parameter."},
		{"invalid UTF-8", "/api/v3/depth?symbol=%ff", 400, -1100, "Illegal characters found in a parameter."},
		{"empty name", "/api/v3/depth?=1", 400, -1100, ""},
	})
	// Stray separators are ignored.
	if a := e.get("/api/v3/ping?&&"); a.status != http.StatusOK {
		t.Fatalf("%d %s", a.status, a.body)
	}
}

// Test routes show how later (signed) endpoints plug in.
func TestRouteExtension(t *testing.T) {
	var authed []Security
	e := newEnv(t, func(o *Options) {
		o.Authenticate = func(c *Call, sec Security) error {
			authed = append(authed, sec)
			if c.Req.Header.Get("X-MBX-APIKEY") != "good" {
				return NewError(http.StatusUnauthorized, CodeRejectedAPIKey, "Invalid API-key, IP, or permissions for action.")
			}
			c.Account = "user-1"
			return nil
		}
	})
	echo := func(c *Call) (any, error) {
		c.Header().Set("X-MBX-ORDER-COUNT-10S", "1")
		a, _, err := c.Params.String("a", true)
		if err != nil {
			return nil, err
		}
		q, _, err := c.Params.Decimal("qty", false, 3)
		if err != nil {
			return nil, err
		}
		return map[string]any{"a": a, "qty": q.String(), "account": c.Account, "names": c.Params.Names(),
			"body": string(c.Params.RawBody), "query": c.Params.RawQuery}, nil
	}
	e.srv.route(http.MethodPost, "/api/v3/test/echo", 1, SecNone, echo).params("a", "qty")
	e.srv.route(http.MethodPost, "/api/v3/test/signed", 1, SecTrade, echo).params("a", "qty")
	e.srv.route(http.MethodGet, "/api/v3/test/panic", 1, SecNone, func(*Call) (any, error) { panic("boom") })
	e.srv.route(http.MethodGet, "/api/v3/test/fail", 1, SecNone, func(*Call) (any, error) { return nil, errors.New("store down") })

	post := func(target, body, key string) answer {
		req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if key != "" {
			req.Header.Set("X-MBX-APIKEY", key)
		}
		rec := httptest.NewRecorder()
		e.srv.ServeHTTP(rec, req)
		return answer{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
	}
	cases := []struct {
		name, target, body, key string
		status                  int
		want                    string
	}{
		{"query and body, query wins", "/api/v3/test/echo?a=q", "a=b&qty=1.250", "", 200,
			`{"a":"q","account":null,"body":"a=b\u0026qty=1.250","names":["a","qty"],"qty":"1.25","query":"a=q"}`},
		{"body only", "/api/v3/test/echo", "a=x%20y", "", 200,
			`{"a":"x y","account":null,"body":"a=x%20y","names":["a"],"qty":"0","query":""}`},
		{"duplicate in body", "/api/v3/test/echo", "a=1&a=2", "", 400,
			`{"code":-1101,"msg":"Duplicate values for a parameter detected."}`},
		{"too precise", "/api/v3/test/echo", "a=1&qty=0.0001", "", 400,
			`{"code":-1111,"msg":"Parameter 'qty' has too much precision."}`},
		{"bad decimal", "/api/v3/test/echo", "a=1&qty=1e5", "", 400,
			`{"code":-1100,"msg":"Illegal characters found in parameter 'qty'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'."}`},
		{"missing", "/api/v3/test/echo", "qty=1", "", 400,
			`{"code":-1102,"msg":"Mandatory parameter 'a' was not sent, was empty/null, or malformed."}`},
		{"signed, rejected key", "/api/v3/test/signed", "a=1&timestamp=1&signature=x", "bad", 401,
			`{"code":-2015,"msg":"Invalid API-key, IP, or permissions for action."}`},
		{"signed takes timestamp, recvWindow, signature", "/api/v3/test/signed?recvWindow=5000", "a=1&timestamp=1&signature=x",
			"good", 200, `{"a":"1","account":"user-1","body":"a=1\u0026timestamp=1\u0026signature=x",` +
				`"names":["recvWindow","a","timestamp","signature"],"qty":"0","query":"recvWindow=5000"}`},
		{"signed, unknown parameter before auth", "/api/v3/test/signed", "a=1&b=2", "good", 400,
			`{"code":-1104,"msg":"Not all sent parameters were read; read '1' parameter(s) but was sent '2'."}`},
	}
	for _, c := range cases {
		a := post(c.target, c.body, c.key)
		if a.status != c.status || a.body != c.want {
			t.Errorf("%s: %d %s\nwant %d %s", c.name, a.status, a.body, c.status, c.want)
		}
		if c.status == 200 && a.header.Get("X-MBX-ORDER-COUNT-10S") != "1" {
			t.Errorf("%s: handler header lost", c.name)
		}
	}
	e.srv.route(http.MethodGet, "/sapi/v1/margin/allPairs", 1, SecMarketData, func(*Call) (any, error) { return []any{}, nil })
	req := httptest.NewRequest(http.MethodGet, "/sapi/v1/margin/allPairs?timestamp=1&signature=x", nil)
	req.Header.Set("X-MBX-APIKEY", "good")
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Body.String() != "[]" {
		t.Errorf("API-key route with a signature: %d %s", rec.Code, rec.Body.String())
	}
	if fmt.Sprint(authed) != "[TRADE TRADE MARKET_DATA]" {
		t.Errorf("authenticated %v", authed)
	}
	runErrCases(t, e, []errCase{
		{"panic", "/api/v3/test/panic", 500, -1000, "An unknown error occurred while processing the request."},
		{"other error", "/api/v3/test/fail", 503, -1001, "Internal error; unable to process your request. Please try again."},
	})

	// Without an Authenticate hook, protected routes refuse everyone.
	bare := newEnv(t, nil)
	bare.srv.route(http.MethodGet, "/sapi/v1/margin/allPairs", 1, SecMarketData, func(*Call) (any, error) { return []any{}, nil })
	runErrCases(t, bare, []errCase{
		{"no auth hook", "/sapi/v1/margin/allPairs", 401, -1002, "You are not authorized to execute this request."},
	})
}

func TestRouteTwicePanics(t *testing.T) {
	e := newEnv(t, nil)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	e.srv.route(http.MethodGet, "/api/v3/ping", 1, SecNone, nil)
}

// The weight limit: 429 with Retry-After over the limit, 418 for an IP
// that keeps sending, bans escalating, other IPs unaffected.
func TestWeightLimitAndBans(t *testing.T) {
	ip := "198.51.100.7"
	e := newEnv(t, func(o *Options) {
		o.WeightLimit = 10
		o.BanAfter = 2
		o.ClientIP = func(r *http.Request) string {
			if v := r.Header.Get("X-Test-IP"); v != "" {
				return v
			}
			return ip
		}
	})
	type step struct {
		advance time.Duration
		target  string
		ip      string
		status  int
		used    string
		retry   string
		code    int
		msg     string
	}
	limitMsg := "Too much request weight used; current limit is 10 request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API."
	banMsg := func(until time.Time) string {
		return fmt.Sprintf("Way too much request weight used; IP banned until %d. Please use WebSocket Streams for live updates to avoid bans.", until.UnixMilli())
	}
	t0 := testNow // 00:00:30
	steps := []step{
		{0, "/api/v3/depth?symbol=BTCUSDT", "", 200, "5", "", 0, ""},
		{0, "/api/v3/klines?symbol=BTCUSDT&interval=1h", "", 200, "7", "", 0, ""},
		{0, "/api/v3/ticker/price", "", 429, "11", "30", -1003, limitMsg}, // over: 429 until the minute ends
		{10 * time.Second, "/api/v3/ping", "", 429, "12", "20", -1003, limitMsg},
		{0, "/api/v3/ping", "203.0.113.9", 200, "1", "", 0, ""}, // another IP
		{0, "/api/v3/ping", "", 418, "13", "120", -1003, banMsg(t0.Add(10*time.Second + 2*time.Minute))},
		{30 * time.Second, "/api/v3/ping", "", 418, "0", "90", -1003, banMsg(t0.Add(10*time.Second + 2*time.Minute))},
		{90 * time.Second, "/api/v3/ping", "", 200, "1", "", 0, ""}, // ban over, new minute
		// Second offence within a day: 4 minutes.
		{0, "/api/v3/exchangeInfo", "", 429, "21", "20", -1003, limitMsg}, // at 00:02:40
		{0, "/api/v3/ping", "", 429, "22", "20", -1003, limitMsg},
		{0, "/api/v3/ping", "", 418, "23", "240", -1003, banMsg(t0.Add(130*time.Second + 4*time.Minute))},
	}
	for i, s := range steps {
		e.clock.Add(s.advance)
		req := httptest.NewRequest(http.MethodGet, s.target, nil)
		if s.ip != "" {
			req.Header.Set("X-Test-IP", s.ip)
		}
		rec := httptest.NewRecorder()
		e.srv.ServeHTTP(rec, req)
		a := answer{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
		if a.status != s.status || a.header.Get("X-MBX-USED-WEIGHT-1M") != s.used || a.header.Get("Retry-After") != s.retry {
			t.Fatalf("step %d %s: %d used %s retry %s %s, want %d used %s retry %s", i, s.target, a.status,
				a.header.Get("X-MBX-USED-WEIGHT-1M"), a.header.Get("Retry-After"), a.body, s.status, s.used, s.retry)
		}
		if s.code != 0 {
			if got := errorOf(t, a); got.Code != s.code || got.Msg != s.msg {
				t.Fatalf("step %d: %d %q, want %d %q", i, got.Code, got.Msg, s.code, s.msg)
			}
		}
	}
}

func TestBanEscalationAndMemory(t *testing.T) {
	l := newLimiter(1, 0) // every request over the limit bans at once
	now := testNow
	var lengths []time.Duration
	for range 13 {
		l.charge("a", 5, now)
		v := l.charge("a", 1, now)
		if v.err == nil || v.err.Status != http.StatusTeapot {
			t.Fatalf("%+v", v)
		}
		lengths = append(lengths, time.Duration(v.err.RetryAfter)*time.Second)
		now = now.Add(time.Duration(v.err.RetryAfter) * time.Second)
	}
	want := []time.Duration{2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute,
		64 * time.Minute, 128 * time.Minute, 256 * time.Minute, 512 * time.Minute, 1024 * time.Minute, 2048 * time.Minute,
		4096 * time.Minute, 72 * time.Hour}
	if fmt.Sprint(lengths) != fmt.Sprint(want) {
		t.Fatalf("bans %v\nwant %v", lengths, want)
	}
	// Counters are dropped with their minute; bans a day after they end.
	l.charge("b", 1, now)
	l.charge("c", 1, now)
	if ips, bans := l.tracked(); ips != 2 || bans != 1 {
		t.Fatalf("tracked %d ips %d bans", ips, bans)
	}
	now = now.Add(72*time.Hour + banMemory + time.Minute)
	if used := l.usedBy("b", now); used != 0 {
		t.Fatalf("used %d", used)
	}
	if ips, bans := l.tracked(); ips != 0 || bans != 0 {
		t.Fatalf("after a day: %d ips %d bans", ips, bans)
	}
	// Forgotten: the next ban is short again.
	l.charge("a", 5, now)
	if v := l.charge("a", 1, now); v.err.RetryAfter != 120 {
		t.Fatalf("%+v", v.err)
	}
	// Negative BanAfter never bans.
	n := newLimiter(1, -1)
	for range 50 {
		if v := n.charge("c", 2, now); v.err == nil || v.err.Status != http.StatusTooManyRequests {
			t.Fatalf("%+v", v)
		}
	}
}

func TestRemoteHost(t *testing.T) {
	for in, want := range map[string]string{"192.0.2.1:1234": "192.0.2.1", "[2001:db8::1]:80": "2001:db8::1", "odd": "odd"} {
		if got := remoteHost(&http.Request{RemoteAddr: in}); got != want {
			t.Errorf("%s: %s", in, got)
		}
	}
}

// Pages of any origin may call the API (the key is a header, never a
// cookie): preflights are answered, answers name the origin rule.
func TestCrossOrigin(t *testing.T) {
	e := newEnv(t, nil)
	pre := httptest.NewRequest(http.MethodOptions, "/api/v3/order", nil)
	pre.Header.Set("Origin", "https://bot.example")
	pre.Header.Set("Access-Control-Request-Method", "POST")
	pre.Header.Set("Access-Control-Request-Headers", "x-mbx-apikey")
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, pre)
	if rec.Code != http.StatusNoContent || rec.Header().Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(rec.Header().Get("Access-Control-Allow-Headers"), "X-MBX-APIKEY") ||
		!strings.Contains(rec.Header().Get("Access-Control-Allow-Methods"), "DELETE") {
		t.Fatalf("preflight: %d %v", rec.Code, rec.Header())
	}
	req := httptest.NewRequest(http.MethodGet, "/api/v3/ping", nil)
	req.Header.Set("Origin", "https://bot.example")
	rec = httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Header().Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(rec.Header().Get("Access-Control-Expose-Headers"), "X-MBX-USED-WEIGHT-1M") {
		t.Fatalf("a page's request: %d %v", rec.Code, rec.Header())
	}
	// Requests that are not a page's carry no CORS headers.
	rec = httptest.NewRecorder()
	e.srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v3/ping", nil))
	if rec.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("no Origin: %v", rec.Header())
	}
}
