package embedded

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tenger/internal/queue"
)

// TestDeleteReachesDiskWithoutLaterWrites: a delete made while nothing else
// is written must still reach the disk, or a killed process delivers the
// handled message again on every restart. Pebble keeps a record committed
// without fsync in its in-process WAL buffer until something pushes it
// out; the database's syncer does. The test copies the database's files
// while it is open, which is what a SIGKILL leaves behind, and opens the
// copy until the deletes show (failing if they never do).
func TestDeleteReachesDiskWithoutLaterWrites(t *testing.T) {
	dir := t.TempDir()
	db := openDB(t, dir)
	defer db.Close()
	q, err := db.Queue("d", QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, b := range []string{"a", "b", "c"} {
		if err := q.Send(ctx, queue.Message{Group: "g", Body: []byte(b)}); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := q.Receive(ctx, 10, time.Hour, 0)
	if err != nil || len(ds) != 3 {
		t.Fatalf("received %d: %v", len(ds), err)
	}
	for _, d := range ds {
		if err := q.Delete(ctx, d.ReceiptHandle); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := messagesInCopy(t, dir, "d")
		if left == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deleted messages are still on disk: a killed process would deliver them again", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDeleteBatchIsOneDurableWrite: a batch delete reaches the disk as
// single deletes do (the syncer fsyncs it), and it is one write: a copy
// taken at any moment holds all of the batch's messages or none.
func TestDeleteBatchIsOneDurableWrite(t *testing.T) {
	dir := t.TempDir()
	db := openDB(t, dir)
	defer db.Close()
	q, err := db.Queue("d", QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var ms []queue.Message
	for i := range 40 {
		ms = append(ms, queue.Message{Group: fmt.Sprint("g", i%7), Body: []byte(fmt.Sprint(i))})
	}
	if err := q.SendBatch(ctx, ms); err != nil {
		t.Fatal(err)
	}
	ds, err := q.Receive(ctx, 256, time.Hour, 0)
	if err != nil || len(ds) != len(ms) {
		t.Fatalf("received %d: %v", len(ds), err)
	}
	receipts := make([]string, len(ds))
	for i, d := range ds {
		receipts[i] = d.ReceiptHandle
	}
	if err := q.DeleteBatch(ctx, receipts); err != nil {
		t.Fatal(err)
	}
	if st := q.Stats(); st.Messages != 0 || st.InFlight != 0 || st.Groups != 0 {
		t.Fatalf("after the batch delete: %+v", st)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := messagesInCopy(t, dir, "d")
		if left == 0 {
			return
		}
		if left != len(ms) {
			t.Fatalf("a copy holds %d of the batch's %d messages: the batch was not one write", left, len(ms))
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deleted messages are still on disk: a killed process would deliver them again", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// messagesInCopy copies the database files in dir (as a killed process
// leaves them: whatever reached the operating system) and counts the
// messages of a queue in the copy.
func messagesInCopy(t *testing.T, dir, name string) int {
	t.Helper()
	cp := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if err := copyFile(filepath.Join(dir, e.Name()), filepath.Join(cp, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	db := openDB(t, cp)
	defer db.Close()
	q, err := db.Queue(name, QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return q.Stats().Messages
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// TestBackedSendsSkipTheFsync: messages whose senders hold durable copies
// (queue.Message.Backed) are answered without an fsync of their own, are
// delivered at once and in order with the others, and still reach the disk
// moments later with no other write; a plain send after them is durable,
// with them, when it returns.
func TestBackedSendsSkipTheFsync(t *testing.T) {
	dir := t.TempDir()
	db := openDB(t, dir)
	defer db.Close()
	q, err := db.Queue("b", QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, b := range []string{"a", "b", "c"} {
		if err := q.Send(ctx, queue.Message{Group: "g", Body: []byte(b), Backed: true}); err != nil {
			t.Fatal(err)
		}
	}
	if n := db.syncedSends.Load(); n != 0 {
		t.Fatalf("%d backed commits waited for an fsync", n)
	}
	if st := q.Stats(); st.Messages != 3 {
		t.Fatalf("backed messages not in the queue at once: %+v", st)
	}
	deadline := time.Now().Add(10 * time.Second)
	for messagesInCopy(t, dir, "b") != 3 {
		if time.Now().After(deadline) {
			t.Fatal("backed messages never reached the disk: a killed process would lose them until their senders sent them again")
		}
		time.Sleep(20 * time.Millisecond)
	}

	// Backed, then plain: the plain send's fsync covers both.
	if err := q.Send(ctx, queue.Message{Group: "g", Body: []byte("d"), Backed: true}); err != nil {
		t.Fatal(err)
	}
	if err := q.Send(ctx, queue.Message{Group: "g", Body: []byte("e")}); err != nil {
		t.Fatal(err)
	}
	if n := db.syncedSends.Load(); n != 1 {
		t.Fatalf("synced commits %d, want 1 (the plain send)", n)
	}
	if n := messagesInCopy(t, dir, "b"); n != 5 {
		t.Fatalf("a copy right after the plain send holds %d messages, want 5", n)
	}
	ds, err := q.Receive(ctx, 10, time.Minute, 0)
	if err != nil || len(ds) != 5 {
		t.Fatalf("received %d: %v", len(ds), err)
	}
	for i, d := range ds {
		if want := string(rune('a' + i)); string(d.Body) != want {
			t.Fatalf("message %d is %q, want %q: backed and plain sends out of order", i, d.Body, want)
		}
	}
}
