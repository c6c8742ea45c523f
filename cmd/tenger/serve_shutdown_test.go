package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// TestShutdownLetsRequestsFinish: when the signal context ends, a request
// in flight keeps an uncancelled context and its answer reaches the client
// (a write it committed is not answered 503); a long-lived handler (as a
// WebSocket) sees its context end once the others are done; and Serve
// returns.
func TestShutdownLetsRequestsFinish(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started, release := make(chan struct{}), make(chan struct{})
	longStarted, longEnded := make(chan struct{}), make(chan struct{})
	var inflightErr error
	mux := http.NewServeMux()
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		inflightErr = r.Context().Err()
		_, _ = io.WriteString(w, "committed")
	})
	mux.HandleFunc("/long", func(w http.ResponseWriter, r *http.Request) {
		hj, ok := w.(http.Hijacker)
		if !ok {
			t.Error("no hijacker")
			return
		}
		conn, _, err := hj.Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		close(longStarted)
		<-r.Context().Done()
		close(longEnded)
	})
	ctx, signal := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveHTTP(ctx, &http.Server{Handler: mux}, ln, zerolog.Nop()) }()
	base := "http://" + ln.Addr().String()

	go func() {
		if resp, err := http.Get(base + "/long"); err == nil {
			resp.Body.Close()
		}
	}()
	<-longStarted
	answer := make(chan string, 1)
	go func() {
		resp, err := http.Get(base + "/slow")
		if err != nil {
			answer <- "error: " + err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		answer <- resp.Status + " " + string(b)
	}()
	<-started
	signal()
	time.Sleep(50 * time.Millisecond) // shutdown has begun
	select {
	case <-longEnded:
		t.Fatal("the long-lived handler ended before the request in flight finished")
	default:
	}
	close(release)
	if got := <-answer; got != "200 OK committed" {
		t.Fatalf("request in flight answered %q", got)
	}
	if inflightErr != nil {
		t.Fatalf("request in flight saw its context end: %v", inflightErr)
	}
	select {
	case <-longEnded:
	case <-time.After(5 * time.Second):
		t.Fatal("the long-lived handler's context did not end after shutdown")
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serveHTTP did not return")
	}
}
