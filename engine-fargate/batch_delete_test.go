package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"tenger/internal/queue"
)

// TestWatchedQueueCountsBatchDeletes: the engine acknowledges a settled
// batch with one DeleteBatch; health's "done" counts its deleted commands,
// not the entries that failed.
func TestWatchedQueueCountsBatchDeletes(t *testing.T) {
	x := newExchange(t)
	q := newWatchedQueue(x.q, 0, nil)
	ctx := context.Background()
	for _, g := range []string{"a", "b", "c"} {
		if err := q.Send(ctx, queue.Message{Group: g, Body: []byte(g)}); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := q.Receive(ctx, 10, time.Minute, 0)
	if err != nil || len(ds) != 3 {
		t.Fatalf("received %d: %v", len(ds), err)
	}
	err = q.DeleteBatch(ctx, []string{ds[0].ReceiptHandle, "not-a-receipt", ds[1].ReceiptHandle, ds[2].ReceiptHandle})
	if !errors.Is(err, queue.ErrInvalidReceipt) {
		t.Fatalf("batch with a bad receipt: %v", err)
	}
	if got := q.deleted.Load(); got != 3 {
		t.Fatalf("deleted = %d after a batch deleting 3 of 4, want 3", got)
	}
	if err := q.DeleteBatch(ctx, nil); err != nil || q.deleted.Load() != 3 {
		t.Fatalf("empty batch: %v, deleted = %d", err, q.deleted.Load())
	}
}
