package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A request whose body never arrives (a Content-Length larger than what
// is sent) does not hold its connection for as long as the client likes:
// the server gives up after requestReadTimeout.
func TestStalledBodyIsCutOff(t *testing.T) {
	old := requestReadTimeout
	requestReadTimeout = 300 * time.Millisecond
	t.Cleanup(func() { requestReadTimeout = old })
	srv := newHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			return
		}
		_, _ = w.Write([]byte("read"))
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST /fe-ex-api/wallet/otc_transfer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"amount\""); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	rest, err := io.ReadAll(bufio.NewReader(conn))
	if took := time.Since(start); err != nil || took > 3*time.Second {
		t.Fatalf("the stalled request held its connection %s (%v)", took, err)
	}
	if strings.Contains(string(rest), "read") {
		t.Fatalf("a body of 9 of 100 bytes was answered as read: %q", rest)
	}
}
