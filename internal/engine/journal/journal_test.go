package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func payload(seq uint64) []byte {
	return []byte(fmt.Sprintf("command %d %s", seq, bytes.Repeat([]byte{'x'}, int(seq%40))))
}

func replayAll(t *testing.T, l *Log, after uint64) []uint64 {
	t.Helper()
	var got []uint64
	err := l.Replay(after, func(seq uint64, p []byte) error {
		if !bytes.Equal(p, payload(seq)) {
			t.Fatalf("record %d: %q", seq, p)
		}
		got = append(got, seq)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestAppendReplayReopen(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir, Durable)
	if err != nil {
		t.Fatal(err)
	}
	for seq := uint64(1); seq <= 100; seq++ {
		if err := l.Append(seq, payload(seq)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Append(100, nil); !errors.Is(err, ErrOrder) {
		t.Fatalf("a repeated seq: %v", err)
	}
	if got := replayAll(t, l, 90); len(got) != 10 || got[0] != 91 {
		t.Fatalf("replay after 90: %v", got)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l, err = Open(dir, Durable)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.LastSeq() != 100 || len(replayAll(t, l, 0)) != 100 {
		t.Fatalf("reopened: last %d", l.LastSeq())
	}
}

// A crash leaves a torn record at the end: the log opens with the records
// before it, and appends go on after them.
func TestTornTailIsCut(t *testing.T) {
	dir := t.TempDir()
	l, _ := Open(dir, Durable)
	for seq := uint64(1); seq <= 10; seq++ {
		_ = l.Append(seq, payload(seq))
	}
	_ = l.Close()
	path := filepath.Join(dir, fmt.Sprintf("%020d.log", 1))
	data, _ := os.ReadFile(path)
	for _, cut := range []int{1, 5, 17, 30} {
		if err := os.WriteFile(path, data[:len(data)-cut], 0o644); err != nil {
			t.Fatal(err)
		}
		l, err := Open(dir, Durable)
		if err != nil {
			t.Fatal(err)
		}
		if l.LastSeq() != 9 {
			t.Fatalf("cut %d: last %d, want 9", cut, l.LastSeq())
		}
		if err := l.Append(10, payload(10)); err != nil {
			t.Fatal(err)
		}
		if got := replayAll(t, l, 0); len(got) != 10 {
			t.Fatalf("cut %d: %v", cut, got)
		}
		_ = l.Close()
	}
	// A flipped byte in the middle: everything from that record on is gone.
	data, _ = os.ReadFile(path)
	data[len(data)/2] ^= 0xff
	_ = os.WriteFile(path, data, 0o644)
	l, _ = Open(dir, Durable)
	defer l.Close()
	if n := len(replayAll(t, l, 0)); n == 0 || n >= 10 || l.LastSeq() != uint64(n) {
		t.Fatalf("after corruption: %d records, last %d", n, l.LastSeq())
	}
}

func TestRotateAndDrop(t *testing.T) {
	dir := t.TempDir()
	l, _ := Open(dir, Durable)
	for seq := uint64(1); seq <= 30; seq++ {
		_ = l.Append(seq, payload(seq))
		if seq%10 == 0 {
			if err := l.Rotate(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := l.Rotate(); err != nil { // the current segment is empty: nothing to do
		t.Fatal(err)
	}
	for seq := uint64(31); seq <= 35; seq++ {
		_ = l.Append(seq, payload(seq))
	}
	// A snapshot at 25 covers the first two segments (1-10, 11-20), not
	// the third (21-30).
	if err := l.DropThrough(25); err != nil {
		t.Fatal(err)
	}
	_ = l.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	if len(files) != 2 || filepath.Base(files[0]) != fmt.Sprintf("%020d.log", 21) {
		t.Fatalf("segments left: %v", files)
	}
	l, _ = Open(dir, Durable)
	defer l.Close()
	if got := replayAll(t, l, 25); len(got) != 10 || got[0] != 26 || l.LastSeq() != 35 {
		t.Fatalf("after dropping: %v, last %d", got, l.LastSeq())
	}
	// Everything dropped but an empty newest segment: the last seq is the
	// snapshot's, which the engine knows; the log says 0.
	_ = l.Rotate()
	_ = l.DropThrough(35)
	_ = l.Close()
	l2, _ := Open(dir, Durable)
	defer l2.Close()
	if l2.LastSeq() != 0 {
		t.Fatalf("last %d after dropping everything", l2.LastSeq())
	}
	if err := l2.Append(36, payload(36)); err != nil {
		t.Fatal(err)
	}
}

// Appends go on while a Sync waits; every record appended before a Sync
// returned is on disk.
func TestConcurrentAppendAndSync(t *testing.T) {
	dir := t.TempDir()
	l, _ := Open(dir, Durable)
	var mu sync.Mutex
	next := uint64(1)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				mu.Lock()
				seq := next
				next++
				err := l.Append(seq, payload(seq))
				mu.Unlock()
				if err != nil {
					t.Error(err)
					return
				}
				if i%20 == 0 {
					if err := l.Sync(); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	_ = l.Close()
	l, _ = Open(dir, Durable)
	defer l.Close()
	if got := replayAll(t, l, 0); len(got) != 800 {
		t.Fatalf("%d records", len(got))
	}
}

// What an fsync made durable is durable: a Sync whose records an earlier
// fsync covered answers success even after the log failed (here: was
// abandoned as a crash leaves it), while one for records appended after
// that fsync answers the failure. The engine relies on it: a batch whose
// Sync failed is not handed to the projection, so one covered by a later
// batch's fsync must not be reported lost while the later one is handed on.
func TestSyncOfDurableRecordsSurvivesALaterFailure(t *testing.T) {
	l, err := Open(t.TempDir(), Durable)
	if err != nil {
		t.Fatal(err)
	}
	for seq := uint64(1); seq <= 3; seq++ {
		if err := l.Append(seq, payload(seq)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(4, payload(4)); err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	synced := l.synced
	l.mu.Unlock()
	l.Abandon()
	if synced != 3 {
		t.Fatalf("synced %d, want 3", synced)
	}
	// A Sync that targets the fsynced records (as a submitter that waited
	// for that fsync does) answers success.
	l.mu.Lock()
	l.last = 3 // the target of a Sync called before record 4 was appended
	l.mu.Unlock()
	if err := l.Sync(); err != nil {
		t.Fatalf("Sync of durable records after a failure: %v", err)
	}
	l.mu.Lock()
	l.last = 4
	l.mu.Unlock()
	if err := l.Sync(); err == nil {
		t.Fatal("Sync of a record the failure lost answered success")
	}
}
