package main

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestOrderConn drives the load loop's connection against a test server:
// the request arrives whole (path, token, JSON body), a success and a
// refusal are told apart, a chunked answer is read, a server that closes
// the connection gets a fresh one on the next call, and a connection the
// server drops mid-call is an error of that call only.
func TestOrderConn(t *testing.T) {
	var calls, conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.URL.Path != "/fe-ex-api/order/create" || r.Header.Get("exchange-token") != "tok" ||
			r.Header.Get("Content-Type") != "application/json" || string(body) != `{"side":"BUY"}` {
			http.Error(w, "unexpected request", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch calls.Add(1) {
		case 2:
			_, _ = io.WriteString(w, `{"code":"10005","msg":"refused","data":null}`)
		case 3: // chunked
			_, _ = io.WriteString(w, `{"code":"0",`)
			w.(http.Flusher).Flush()
			_, _ = io.WriteString(w, `"msg":"success","data":{}}`)
		case 4:
			w.Header().Set("Connection", "close")
			_, _ = io.WriteString(w, `{"code":"0","msg":"success","data":{}}`)
		case 6: // the server drops the connection without an answer
			conn, _, _ := w.(http.Hijacker).Hijack()
			_ = conn.Close()
		default:
			_, _ = io.WriteString(w, `{"code":"0","msg":"success","data":{"order_id":"7"}}`)
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()

	c, err := newOrderConn(srv.URL, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	want := []struct {
		code  string
		err   bool
		conns int64
	}{
		{"0", false, 1}, {"10005", false, 1}, {"0", false, 1}, {"0", false, 1},
		{"0", false, 2}, {"", true, 2}, {"0", false, 3},
	}
	for i, w := range want {
		env, err := c.call("/fe-ex-api/order/create", "tok", []byte(`{"side":"BUY"}`))
		if (err != nil) != w.err || env.Code != w.code || conns.Load() != w.conns {
			t.Fatalf("call %d: code %q, err %v, %d connections; want code %q, error %v, %d connections",
				i+1, env.Code, err, conns.Load(), w.code, w.err, w.conns)
		}
		if w.code == "10005" && env.Msg != "refused" {
			t.Fatalf("call %d: refusal message %q", i+1, env.Msg)
		}
	}
	if _, err := newOrderConn("https://127.0.0.1:1", time.Second); err == nil {
		t.Fatal("an https target was taken")
	}
}
