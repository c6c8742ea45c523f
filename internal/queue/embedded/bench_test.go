package embedded

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"tenger/internal/queue"
)

var benchBody = []byte(`{"orderId":"1234567890","symbol":"BTC_USDT","side":"BUY","price":"65000.12","volume":"0.015","type":"LIMIT"}`)

// drain receives and deletes n messages with consumers goroutines.
func drain(b *testing.B, q *Queue, n int64, consumers int) {
	var got atomic.Int64
	done := make(chan struct{})
	for range consumers {
		go func() {
			defer func() { done <- struct{}{} }()
			for got.Load() < n {
				ds, err := q.Receive(context.Background(), 10, time.Minute, 20*time.Millisecond)
				if err != nil {
					b.Error(err)
					return
				}
				for _, d := range ds {
					if err := q.Delete(context.Background(), d.ReceiptHandle); err != nil {
						b.Error(err)
						return
					}
				}
				got.Add(int64(len(ds)))
			}
		}()
	}
	for range consumers {
		<-done
	}
}

// BenchmarkSendReceiveDeleteSerial is one producer sending one message at a
// time: every Send waits for its own fsync, so this measures fsync latency.
func BenchmarkSendReceiveDeleteSerial(b *testing.B) {
	db := openDB(b, b.TempDir())
	defer db.Close()
	q, _ := db.Queue("bench", QueueOptions{})
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := q.Send(ctx, queue.Message{Group: "BTC_USDT", Body: benchBody}); err != nil {
			b.Fatal(err)
		}
		ds, err := q.Receive(ctx, 1, time.Minute, 0)
		if err != nil || len(ds) != 1 {
			b.Fatal(ds, err)
		}
		if err := q.Delete(ctx, ds[0].ReceiptHandle); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConcurrentSend is 64 producers over 16 groups: concurrent sends
// share fsyncs through the writer's group commit; 4 consumers drain.
func BenchmarkConcurrentSend(b *testing.B) {
	db := openDB(b, b.TempDir())
	defer db.Close()
	q, _ := db.Queue("bench", QueueOptions{})
	b.SetParallelism(32) // 32 × GOMAXPROCS producers
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			if err := q.Send(context.Background(), queue.Message{Group: fmt.Sprint("S", i%16), Body: benchBody}); err != nil {
				b.Fatal(err)
			}
		}
	})
	drain(b, q, n.Load(), 4)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkBatchedSend sends batches of 100 (as the order API's outbox relay
// would) and drains with 4 consumers.
func BenchmarkBatchedSend(b *testing.B) {
	db := openDB(b, b.TempDir())
	defer db.Close()
	q, _ := db.Queue("bench", QueueOptions{})
	ctx := context.Background()
	b.ResetTimer()
	batch := make([]queue.Message, 0, 100)
	for i := 0; i < b.N; i++ {
		batch = append(batch, queue.Message{Group: fmt.Sprint("S", i%16), Body: benchBody})
		if len(batch) == cap(batch) || i == b.N-1 {
			if err := q.SendBatch(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	drain(b, q, int64(b.N), 4)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkSendSerial is one producer sending one message at a time, plain
// (each Send waits for its fsync) and Backed (the sender holds an outbox
// copy, so the Send does not wait; the syncer fsyncs behind it).
func BenchmarkSendSerial(b *testing.B) {
	for _, backed := range []bool{false, true} {
		name := "plain"
		if backed {
			name = "backed"
		}
		b.Run(name, func(b *testing.B) {
			db := openDB(b, b.TempDir())
			defer db.Close()
			q, _ := db.Queue("bench", QueueOptions{})
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := q.Send(ctx, queue.Message{Group: "BTC_USDT", Body: benchBody, Backed: backed}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
