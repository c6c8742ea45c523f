package matching

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFileJournalReplayAndRecovery(t *testing.T) {
	for _, policy := range []SyncPolicy{SyncEveryAppend, SyncOnDemand, SyncNever} {
		path := filepath.Join(t.TempDir(), "journal")
		j, err := OpenFileJournal(path, policy)
		if err != nil {
			t.Fatal(err)
		}
		gen := newCmdGen(21)
		var cmds []Command
		for i := 0; i < 300; i++ {
			c := gen.next()
			cmds = append(cmds, c)
			if err := j.Append(&c); err != nil {
				t.Fatal(err)
			}
		}
		old := cmds[10]
		if err := j.Append(&old); !errors.Is(err, ErrJournalOrder) {
			t.Fatalf("out-of-order append: %v", err)
		}
		if err := j.Sync(); err != nil {
			t.Fatal(err)
		}
		// Replay after a given seq, before closing (buffer flushed by Replay).
		var got []Command
		after := cmds[99].Seq
		if err := j.Replay(after, func(c *Command) error { got = append(got, *c); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(got) != 200 || got[0] != cmds[100] || got[199] != cmds[299] {
			t.Fatalf("replay after %d: %d commands", after, len(got))
		}
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		// A torn tail (half a record) is dropped on reopen.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(make([]byte, recordHeader+CommandSize/2))
		f.Close()
		j, err = OpenFileJournal(path, policy)
		if err != nil {
			t.Fatal(err)
		}
		if j.LastSeq() != cmds[299].Seq {
			t.Fatalf("last seq after reopen %d", j.LastSeq())
		}
		// Appending after recovery continues the valid log.
		next := gen.next()
		if err := j.Append(&next); err != nil {
			t.Fatal(err)
		}
		got = got[:0]
		if err := j.Replay(0, func(c *Command) error { got = append(got, *c); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(got) != 301 || got[300] != next {
			t.Fatalf("after recovery: %d commands", len(got))
		}
		// Replaying into a book equals applying directly.
		direct := NewBook(BookConfig{Symbol: 7}, discard{})
		for i := range cmds {
			direct.Apply(&cmds[i])
		}
		direct.Apply(&next)
		replayed := NewBook(BookConfig{Symbol: 7}, discard{})
		j.Replay(0, func(c *Command) error { replayed.Apply(c); return nil })
		if replayed.StateHash() != direct.StateHash() {
			t.Fatal("replayed book differs")
		}
		stop := errors.New("stop")
		n := 0
		if err := j.Replay(0, func(*Command) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
			t.Fatalf("replay error propagation: %v %d", err, n)
		}
		j.Close()
		// A corrupt record in the middle ends the valid log there.
		data, _ := os.ReadFile(path)
		data[50*(recordHeader+CommandSize)+recordHeader+3] ^= 0xff
		os.WriteFile(path, data, 0o644)
		j, err = OpenFileJournal(path, policy)
		if err != nil {
			t.Fatal(err)
		}
		if j.LastSeq() != cmds[49].Seq {
			t.Fatalf("corrupt record: last seq %d, want %d", j.LastSeq(), cmds[49].Seq)
		}
		j.Close()
	}
}

func TestMemoryJournal(t *testing.T) {
	var j MemoryJournal
	for seq := uint64(1); seq <= 5; seq++ {
		c := Command{Seq: seq, Kind: CmdCancelAll}
		if err := j.Append(&c); err != nil {
			t.Fatal(err)
		}
	}
	c := Command{Seq: 5}
	if j.Append(&c) == nil {
		t.Fatal("duplicate seq accepted")
	}
	var seqs []uint64
	j.Replay(2, func(c *Command) error { seqs = append(seqs, c.Seq); return nil })
	if len(seqs) != 3 || seqs[0] != 3 || j.LastSeq() != 5 {
		t.Fatalf("replay %v last %d", seqs, j.LastSeq())
	}
}
