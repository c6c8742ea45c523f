package embedded

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"tenger/internal/queue"
	"tenger/internal/queue/queuetest"
)

func openDB(t testing.TB, dir string) *DB {
	t.Helper()
	db, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestContract(t *testing.T) {
	db := openDB(t, t.TempDir())
	t.Cleanup(func() { _ = db.Close() })
	var n atomic.Int64
	queuetest.Run(t, queuetest.Harness{
		New: func(t *testing.T) (queue.Queue, queue.Queue) {
			name := fmt.Sprintf("q%d", n.Add(1))
			q, err := db.Queue(name, QueueOptions{MaxReceives: 3, DeadLetter: name + "-dlq"})
			if err != nil {
				t.Fatal(err)
			}
			dlq, err := db.Queue(name+"-dlq", QueueOptions{})
			if err != nil {
				t.Fatal(err)
			}
			return q, dlq
		},
		MaxReceives: 3,
		Unit:        40 * time.Millisecond,
		Concurrency: true,
	})
}

func TestSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	db := openDB(t, dir)
	q, err := db.Queue("orders", QueueOptions{MaxReceives: 2, DeadLetter: "orders-dlq"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := q.Send(ctx, queue.Message{Group: "BTC", DedupID: fmt.Sprint("o", i), Body: []byte(fmt.Sprint(i)),
			Attributes: map[string]string{queue.AttrCorrelationID: fmt.Sprint("c", i)}}); err != nil {
			t.Fatal(err)
		}
	}
	// Deliver and delete the first; deliver the second without deleting.
	ds, err := q.Receive(ctx, 1, time.Hour, 0)
	if err != nil || len(ds) != 1 {
		t.Fatal(ds, err)
	}
	if err := q.Delete(ctx, ds[0].ReceiptHandle); err != nil {
		t.Fatal(err)
	}
	ds, err = q.Receive(ctx, 1, time.Hour, 0)
	if err != nil || len(ds) != 1 || string(ds[0].Body) != "1" {
		t.Fatal(ds, err)
	}
	oldReceipt := ds[0].ReceiptHandle
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Receive(ctx, 1, time.Second, 0); !errors.Is(err, queue.ErrClosed) {
		t.Fatalf("receive after close: %v", err)
	}

	db = openDB(t, dir)
	defer db.Close()
	q, err = db.Queue("orders", QueueOptions{MaxReceives: 2, DeadLetter: "orders-dlq"})
	if err != nil {
		t.Fatal(err)
	}
	if st := q.Stats(); st.Messages != 4 || st.InFlight != 0 {
		t.Fatalf("after reopen: %+v, want 4 messages none in flight", st)
	}
	if err := q.ChangeVisibility(ctx, oldReceipt, time.Second); !errors.Is(err, queue.ErrInvalidReceipt) {
		t.Fatalf("receipt from before the restart: %v, want ErrInvalidReceipt", err)
	}
	// Dedup ids are remembered across the restart.
	if err := q.Send(ctx, queue.Message{Group: "BTC", DedupID: "o0", Body: []byte("dup")}); err != nil {
		t.Fatal(err)
	}
	ds, err = q.Receive(ctx, 10, time.Hour, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, string(d.Body))
	}
	if strings.Join(got, ",") != "1,2,3,4" {
		t.Fatalf("after reopen got %v, want [1 2 3 4]", got)
	}
	// The in-flight message of the earlier run comes back as its second
	// receive (the count survived), the others as first receives.
	if ds[0].ReceiveCount != 2 || ds[1].ReceiveCount != 1 || ds[0].Attributes[queue.AttrCorrelationID] != "c1" {
		t.Fatalf("counts %d,%d attrs %v", ds[0].ReceiveCount, ds[1].ReceiveCount, ds[0].Attributes)
	}
	// Message "1" now has used its 2 receives: after another restart it
	// goes straight to the dead-letter queue.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openDB(t, dir)
	defer db.Close()
	q, err = db.Queue("orders", QueueOptions{MaxReceives: 2, DeadLetter: "orders-dlq"})
	if err != nil {
		t.Fatal(err)
	}
	dlq, _ := db.Queue("orders-dlq", QueueOptions{})
	dead, err := dlq.Receive(ctx, 10, time.Hour, 0)
	if err != nil || len(dead) != 1 || string(dead[0].Body) != "1" {
		t.Fatalf("dead letters after restart: %v %v", dead, err)
	}
	if st := q.Stats(); st.Messages != 3 {
		t.Fatalf("queue after dead-lettering: %+v", st)
	}
}

// TestSurvivesKill sends from a child process that is killed with SIGKILL
// while sending; every message whose Send had returned must be there.
func TestSurvivesKill(t *testing.T) {
	if dir := os.Getenv("TENGER_QUEUE_KILL_CHILD"); dir != "" {
		killChild(dir)
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSurvivesKill$")
	cmd.Env = append(os.Environ(), "TENGER_QUEUE_KILL_CHILD="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := map[string]bool{}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "ack ") {
			acked[strings.TrimPrefix(line, "ack ")] = true
			if len(acked) == 300 {
				break
			}
		}
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if len(acked) < 300 {
		t.Fatalf("child acknowledged only %d sends", len(acked))
	}
	db := openDB(t, dir)
	defer db.Close()
	q, err := db.Queue("k", QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for {
		ds, err := q.Receive(context.Background(), 1000, time.Hour, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) == 0 {
			break
		}
		for _, d := range ds {
			found[string(d.Body)] = true
		}
	}
	for id := range acked {
		if !found[id] {
			t.Fatalf("acknowledged message %s lost after SIGKILL (found %d of %d acked)", id, len(found), len(acked))
		}
	}
}

func killChild(dir string) {
	db, err := Open(dir, Options{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	q, err := db.Queue("k", QueueOptions{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	// Four concurrent senders, so kills land in the middle of group commits.
	acks := make(chan string, 64)
	for s := range 4 {
		go func() {
			for i := 0; ; i++ {
				id := fmt.Sprintf("s%d-%d", s, i)
				if err := q.Send(context.Background(), queue.Message{Group: fmt.Sprint("g", i%7), Body: []byte(id)}); err != nil {
					return
				}
				acks <- id
			}
		}()
	}
	for id := range acks {
		fmt.Fprintln(w, "ack", id)
		_ = w.Flush()
	}
}

func TestReceiveWakesOnClose(t *testing.T) {
	db := openDB(t, t.TempDir())
	q, err := db.Queue("w", QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := q.Receive(context.Background(), 1, time.Second, 10*time.Second)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, queue.ErrClosed) {
			t.Fatalf("receive ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("long-polling receive did not end on close")
	}
	if time.Since(start) > 2*time.Second {
		t.Fatal("close took too long")
	}
	if err := q.Send(context.Background(), queue.Message{Group: "g", Body: []byte("x")}); !errors.Is(err, queue.ErrClosed) {
		t.Fatalf("send after close: %v", err)
	}
}

func TestQueueOptionsValidated(t *testing.T) {
	db := openDB(t, t.TempDir())
	defer db.Close()
	if _, err := db.Queue("a", QueueOptions{MaxReceives: 3}); !errors.Is(err, queue.ErrInvalid) {
		t.Fatalf("MaxReceives without a dead-letter queue: %v", err)
	}
	if _, err := db.Queue("a", QueueOptions{MaxReceives: 3, DeadLetter: "a"}); !errors.Is(err, queue.ErrInvalid) {
		t.Fatalf("queue as its own dead-letter queue: %v", err)
	}
}
