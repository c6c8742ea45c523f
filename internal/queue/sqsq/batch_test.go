package sqsq

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tenger/internal/queue"
)

// TestReceiveFillsBeyondTen: SQS returns at most ten messages per
// ReceiveMessage; one Receive asks again, without waiting, while a request
// came back full, so a caller asking for 256 gets every visible message of
// every group not in flight, in group order.
func TestReceiveFillsBeyondTen(t *testing.T) {
	f := newFake(t)
	srv := httptest.NewServer(f)
	defer srv.Close()
	f.addQueue(t, "orders.fifo", 0)
	q := New(client(srv.URL), srv.URL+"/000000000000/orders.fifo")
	ctx := context.Background()

	const groups, per = 5, 5
	var ms []queue.Message
	for i := range per {
		for g := range groups {
			ms = append(ms, queue.Message{Group: fmt.Sprintf("g%d", g), DedupID: fmt.Sprintf("m%d-%d", g, i), Body: []byte(fmt.Sprintf("g%d-%d", g, i))})
		}
	}
	if err := q.SendBatch(ctx, ms); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ds, err := q.Receive(ctx, 256, 30*time.Second, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != groups*per {
		t.Fatalf("one Receive(256) got %d messages, want all %d", len(ds), groups*per)
	}
	if el := time.Since(start); el > 900*time.Millisecond {
		t.Errorf("Receive took %v: a follow-up request waited", el)
	}
	next := map[string]int{}
	for _, d := range ds {
		if want := fmt.Sprintf("%s-%d", d.Group, next[d.Group]); string(d.Body) != want {
			t.Fatalf("got %s, want %s: group order broken", d.Body, want)
		}
		next[d.Group]++
	}
	recv := f.recorded("ReceiveMessage")
	if len(recv) != 3 {
		t.Fatalf("%d ReceiveMessage requests, want 3 (10 + 10 + 5)", len(recv))
	}
	for i, r := range recv {
		if r["MaxNumberOfMessages"] != float64(10) {
			t.Errorf("request %d: MaxNumberOfMessages %v", i, r["MaxNumberOfMessages"])
		}
		wait, _ := r["WaitTimeSeconds"].(float64)
		if i == 0 && wait != 1 || i > 0 && wait != 0 {
			t.Errorf("request %d: WaitTimeSeconds %v, want the wait on the first request only", i, r["WaitTimeSeconds"])
		}
		if r["VisibilityTimeout"] != float64(30) {
			t.Errorf("request %d: VisibilityTimeout %v", i, r["VisibilityTimeout"])
		}
	}

	// max is honoured across requests: 10, then the 2 still wanted.
	receipts := make([]string, len(ds))
	for i, d := range ds {
		receipts[i] = d.ReceiptHandle
	}
	if err := q.DeleteBatch(ctx, receipts); err != nil {
		t.Fatal(err)
	}
	ms = ms[:0]
	for i := range 15 {
		ms = append(ms, queue.Message{Group: fmt.Sprintf("h%d", i), Body: []byte("x")})
	}
	if err := q.SendBatch(ctx, ms); err != nil {
		t.Fatal(err)
	}
	ds, err = q.Receive(ctx, 12, 30*time.Second, 0)
	if err != nil || len(ds) != 12 {
		t.Fatalf("Receive(12) got %d: %v", len(ds), err)
	}
	recv = f.recorded("ReceiveMessage")[3:]
	if len(recv) != 2 || recv[0]["MaxNumberOfMessages"] != float64(10) || recv[1]["MaxNumberOfMessages"] != float64(2) {
		t.Fatalf("requests for Receive(12): %v", recv)
	}
}

// TestDeleteBatchInTensWithPartialFailure: DeleteBatch sends
// DeleteMessageBatch requests of ten (no DeleteMessage), goes on past
// failed entries and names them, by their index in the caller's slice, in
// a *queue.BatchError.
func TestDeleteBatchInTensWithPartialFailure(t *testing.T) {
	f := newFake(t)
	srv := httptest.NewServer(f)
	defer srv.Close()
	f.addQueue(t, "orders.fifo", 0)
	url := srv.URL + "/000000000000/orders.fifo"
	q := New(client(srv.URL), url)
	ctx := context.Background()

	const n = 25
	var ms []queue.Message
	for i := range n {
		ms = append(ms, queue.Message{Group: fmt.Sprintf("g%d", i), Body: []byte(fmt.Sprint(i))})
	}
	if err := q.SendBatch(ctx, ms); err != nil {
		t.Fatal(err)
	}
	var ds []queue.Delivery
	for len(ds) < n {
		got, err := q.Receive(ctx, n-len(ds), time.Minute, time.Second)
		if err != nil || len(got) == 0 {
			t.Fatalf("receive: %d, %v", len(got), err)
		}
		ds = append(ds, got...)
	}
	receipts := make([]string, n)
	for i, d := range ds {
		receipts[i] = d.ReceiptHandle
	}
	bad := map[string]bool{receipts[3]: true, receipts[17]: true}
	f.mu.Lock()
	f.failEntry = func(r string) string {
		if bad[r] {
			return "InternalError"
		}
		return ""
	}
	f.mu.Unlock()

	err := q.DeleteBatch(ctx, receipts)
	var be *queue.BatchError
	if !errors.As(err, &be) {
		t.Fatalf("DeleteBatch with two failing entries: %v, want a *queue.BatchError", err)
	}
	if be.Total != n || len(be.Failed) != 2 || be.Failed[0].Index != 3 || be.Failed[1].Index != 17 {
		t.Fatalf("failed entries %+v of %d, want 3 and 17 of %d", be.Failed, be.Total, n)
	}
	if msg := err.Error(); !strings.Contains(msg, "2 of 25") || !strings.Contains(msg, "entry 3: InternalError") || !strings.Contains(msg, "entry 17: InternalError") {
		t.Errorf("error text %q does not name the failed entries", msg)
	}
	if errors.Is(err, queue.ErrInvalidReceipt) {
		t.Errorf("an internal error is not an invalid receipt: %v", err)
	}
	if got := len(f.recorded("DeleteMessage")); got != 0 {
		t.Errorf("%d DeleteMessage requests, want none", got)
	}
	reqs := f.recorded("DeleteMessageBatch")
	var sizes []int
	for _, r := range reqs {
		if r["QueueUrl"] != url {
			t.Errorf("DeleteMessageBatch QueueUrl %v", r["QueueUrl"])
		}
		sizes = append(sizes, len(r["Entries"].([]any)))
	}
	if fmt.Sprint(sizes) != "[10 10 5]" {
		t.Fatalf("DeleteMessageBatch entries per request %v, want [10 10 5]", sizes)
	}
	if left := f.queueFor(url).Stats().Messages; left != 2 {
		t.Fatalf("%d messages left, want the 2 whose delete failed", left)
	}

	// A refused receipt maps to queue.ErrInvalidReceipt, per entry.
	f.mu.Lock()
	f.failEntry = nil
	f.mu.Unlock()
	err = q.DeleteBatch(ctx, []string{receipts[3], "garbage", receipts[17]})
	if !errors.As(err, &be) || len(be.Failed) != 1 || be.Failed[0].Index != 1 || !errors.Is(err, queue.ErrInvalidReceipt) {
		t.Fatalf("DeleteBatch with a garbage receipt: %v", err)
	}
	if left := f.queueFor(url).Stats().Messages; left != 0 {
		t.Fatalf("%d messages left, want none", left)
	}
	if err := q.DeleteBatch(ctx, nil); err != nil || len(f.recorded("DeleteMessageBatch")) != 4 {
		t.Fatalf("empty DeleteBatch: %v, %d requests (want no request)", err, len(f.recorded("DeleteMessageBatch")))
	}
}
