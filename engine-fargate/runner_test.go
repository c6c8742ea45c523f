package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/queue"
)

// fakeQueue is an in-memory queue.Queue: Receive hands out what is pending
// (blocking up to wait when nothing is), Delete and ChangeVisibility record
// their receipts.
type fakeQueue struct {
	mu        sync.Mutex
	pending   []queue.Delivery
	deleted   []string
	visible   []string
	receiving chan struct{} // signalled when a Receive starts waiting
}

func (q *fakeQueue) Send(context.Context, queue.Message) error        { return errors.New("not used") }
func (q *fakeQueue) SendBatch(context.Context, []queue.Message) error { return errors.New("not used") }

func (q *fakeQueue) Receive(ctx context.Context, max int, _, wait time.Duration) ([]queue.Delivery, error) {
	q.mu.Lock()
	if len(q.pending) > 0 {
		n := min(max, len(q.pending))
		out := q.pending[:n]
		q.pending = q.pending[n:]
		q.mu.Unlock()
		return out, nil
	}
	q.mu.Unlock()
	if q.receiving != nil {
		select {
		case q.receiving <- struct{}{}:
		default:
		}
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(wait):
		return nil, nil
	}
}

func (q *fakeQueue) Delete(_ context.Context, receipt string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.deleted = append(q.deleted, receipt)
	return nil
}

func (q *fakeQueue) ChangeVisibility(_ context.Context, receipt string, d time.Duration) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if d == 0 {
		q.visible = append(q.visible, receipt)
	}
	return nil
}

func sample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "events", "samples", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func delivery(id, group string, body []byte) queue.Delivery {
	return queue.Delivery{
		Message: queue.Message{Group: group, DedupID: id, Body: body, Attributes: map[string]string{queue.AttrCorrelationID: "cid-" + id}},
		ID:      id, ReceiptHandle: "rh-" + id, ReceiveCount: 1, SentAt: time.Now().Add(-time.Second),
	}
}

func TestRunnerAcknowledgesValidCommandsAndLeavesInvalidOnes(t *testing.T) {
	q := &fakeQueue{receiving: make(chan struct{}, 1)}
	q.pending = []queue.Delivery{
		delivery("place", "btcusdt", sample(t, "msg_order_place.json")),
		delivery("cancel", "btcusdt", sample(t, "msg_order_cancel.json")),
		delivery("wrong-group", "ethusdt", sample(t, "msg_order_place.json")),
		delivery("not-a-command", "btcusdt", sample(t, "msg_engine_trade.json")),
		delivery("garbage", "btcusdt", []byte("{")),
	}
	var logs strings.Builder
	r := newRunner(q, zerolog.New(&logs))
	r.wait = 50 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.run(ctx) }()
	<-q.receiving // everything pending was handled; the loop waits for more
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run did not stop after cancel")
	}
	if strings.Join(q.deleted, ",") != "rh-place,rh-cancel" {
		t.Errorf("deleted = %v", q.deleted)
	}
	if strings.Join(q.visible, ",") != "rh-wrong-group,rh-not-a-command,rh-garbage" {
		t.Errorf("made visible for redelivery = %v", q.visible)
	}
	if !strings.Contains(logs.String(), `"correlation_id":"cid-place"`) || strings.Contains(logs.String(), "trade executed") {
		t.Errorf("logs = %s", logs.String())
	}
	if r.handled[`order.place`] != 1 || r.handled["order.cancel"] != 1 || r.handled["invalid"] != 3 {
		t.Errorf("handled = %v", r.handled)
	}
}

// blockingQueue delivers one message and lets the test decide when the
// delete may finish, to check that SIGTERM does not abandon in-flight work.
type blockingQueue struct {
	fakeQueue
	release chan struct{}
	started chan struct{}
}

func (q *blockingQueue) Delete(ctx context.Context, receipt string) error {
	close(q.started)
	select {
	case <-q.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	return q.fakeQueue.Delete(ctx, receipt)
}

func TestRunnerFinishesInFlightCommandOnShutdown(t *testing.T) {
	q := &blockingQueue{release: make(chan struct{}), started: make(chan struct{})}
	q.pending = []queue.Delivery{delivery("place", "btcusdt", sample(t, "msg_order_place.json"))}
	r := newRunner(q, zerolog.New(io.Discard))
	r.wait = 20 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.run(ctx) }()
	<-q.started
	cancel() // SIGTERM while the command is being acknowledged
	time.Sleep(20 * time.Millisecond)
	select {
	case <-done:
		t.Fatal("run returned before the in-flight command finished")
	default:
	}
	close(q.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(q.deleted) != 1 {
		t.Errorf("in-flight command not acknowledged: %v", q.deleted)
	}
	if ok, status := r.healthy(); ok || status != "stopping" {
		t.Errorf("health after stop = %v %q", ok, status)
	}
}

func TestHealthEndpoint(t *testing.T) {
	r := newRunner(&fakeQueue{}, zerolog.New(io.Discard))
	now := time.Unix(1_800_000_000, 0)
	r.now = func() time.Time { return now }
	r.lastPoll.Store(now.UnixMilli())
	srv := httptest.NewServer(r.healthHandler())
	defer srv.Close()

	get := func() (int, map[string]any) {
		resp, err := http.Get(srv.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body
	}
	if code, body := get(); code != 200 || body["status"] != "ok" {
		t.Errorf("fresh poll: %d %v", code, body)
	}
	now = now.Add(2*r.wait + 16*time.Second)
	if code, body := get(); code != 503 || !strings.Contains(body["status"].(string), "stalled") {
		t.Errorf("stalled poll: %d %v", code, body)
	}

	// The healthcheck subcommand probes the same endpoint.
	addr := strings.TrimPrefix(srv.URL, "http://")
	if code := healthcheck(addr); code != 1 {
		t.Errorf("healthcheck of a stalled engine = %d", code)
	}
	now = time.UnixMilli(r.lastPoll.Load())
	if code := healthcheck(addr); code != 0 {
		t.Errorf("healthcheck of a healthy engine = %d", code)
	}
	if code := healthcheck("127.0.0.1:1"); code != 1 {
		t.Errorf("healthcheck without an engine = %d", code)
	}
}
