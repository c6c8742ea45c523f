package matching

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// Journal is the command log seam of the engine: every command is appended
// (with its Seq) before its events are published, and a restart restores
// the latest snapshot and replays the commands after the snapshot's Seq.
type Journal interface {
	// Append adds a command. Seq must be above every earlier one.
	Append(c *Command) error
	// Sync makes every appended command durable.
	Sync() error
	// Replay calls fn for every journalled command with Seq > after, in
	// order. It stops at the first error fn returns.
	Replay(after uint64, fn func(c *Command) error) error
	// LastSeq returns the Seq of the last appended command (0 if none).
	LastSeq() uint64
	Close() error
}

// SyncPolicy says when a FileJournal forces its data to disk.
type SyncPolicy uint8

// Sync policies.
const (
	// SyncEveryAppend fsyncs on every Append: the safest and slowest.
	SyncEveryAppend SyncPolicy = iota
	// SyncOnDemand writes through a buffer and fsyncs only on Sync: the
	// engine appends a batch, calls Sync once (group commit), then
	// publishes the batch's events.
	SyncOnDemand
	// SyncNever flushes the buffer on Sync but never fsyncs (tests and
	// benchmarks; a crash of the machine may lose the tail).
	SyncNever
)

// ErrJournalOrder is returned by Append for a Seq not above the last one.
var ErrJournalOrder = errors.New("matching: journal seq not increasing")

const recordHeader = 8 // u32 length + u32 CRC-32C of the payload

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// FileJournal is a Journal in one append-only file of length-prefixed,
// checksummed records (u32 length, u32 CRC-32C, encoded command). Opening
// it drops a torn or corrupt tail left by a crash: only records written
// completely count.
type FileJournal struct {
	f       *os.File
	w       *bufio.Writer
	policy  SyncPolicy
	size    int64 // bytes of valid records, written or buffered
	lastSeq uint64
	rec     [recordHeader + CommandSize]byte
}

var _ Journal = (*FileJournal)(nil)

// OpenFileJournal opens (creating if needed) the journal at path.
func OpenFileJournal(path string, policy SyncPolicy) (*FileJournal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	j := &FileJournal{f: f, policy: policy}
	valid, last, err := scanJournal(f, 0, nil)
	if err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Truncate(valid); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(valid, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	j.size = valid
	j.lastSeq = last
	j.w = bufio.NewWriterSize(f, 256<<10)
	return j, nil
}

// scanJournal reads records from the start of f, calling fn (when not nil)
// for those with Seq > after, and returns the length of the valid prefix
// and the last Seq in it.
func scanJournal(f *os.File, after uint64, fn func(c *Command) error) (int64, uint64, error) {
	r := bufio.NewReaderSize(io.NewSectionReader(f, 0, 1<<62), 256<<10)
	var off int64
	var last uint64
	var head [recordHeader]byte
	var payload [CommandSize]byte
	var c Command
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return off, last, nil // clean end or torn header
		}
		n := binary.LittleEndian.Uint32(head[0:])
		if n != CommandSize {
			return off, last, nil
		}
		if _, err := io.ReadFull(r, payload[:]); err != nil {
			return off, last, nil
		}
		if crc32.Checksum(payload[:], castagnoli) != binary.LittleEndian.Uint32(head[4:]) {
			return off, last, nil
		}
		if err := DecodeCommand(payload[:], &c); err != nil || c.Seq <= last {
			return off, last, nil
		}
		last = c.Seq
		off += recordHeader + CommandSize
		if fn != nil && c.Seq > after {
			if err := fn(&c); err != nil {
				return off, last, err
			}
		}
	}
}

// Append implements Journal.
func (j *FileJournal) Append(c *Command) error {
	if c.Seq <= j.lastSeq {
		return fmt.Errorf("%w: %d after %d", ErrJournalOrder, c.Seq, j.lastSeq)
	}
	EncodeCommand(j.rec[recordHeader:], c)
	binary.LittleEndian.PutUint32(j.rec[0:], CommandSize)
	binary.LittleEndian.PutUint32(j.rec[4:], crc32.Checksum(j.rec[recordHeader:], castagnoli))
	if _, err := j.w.Write(j.rec[:]); err != nil {
		return err
	}
	j.size += int64(len(j.rec))
	j.lastSeq = c.Seq
	if j.policy == SyncEveryAppend {
		return j.Sync()
	}
	return nil
}

// Sync implements Journal.
func (j *FileJournal) Sync() error {
	if err := j.w.Flush(); err != nil {
		return err
	}
	if j.policy == SyncNever {
		return nil
	}
	return j.f.Sync()
}

// Replay implements Journal. Buffered appends are flushed first.
func (j *FileJournal) Replay(after uint64, fn func(c *Command) error) error {
	if err := j.w.Flush(); err != nil {
		return err
	}
	_, _, err := scanJournal(j.f, after, fn)
	return err
}

// LastSeq implements Journal.
func (j *FileJournal) LastSeq() uint64 { return j.lastSeq }

// Close flushes, syncs (unless SyncNever) and closes the file.
func (j *FileJournal) Close() error {
	err := j.Sync()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// MemoryJournal is an in-memory Journal for tests and for the engine's
// local runs without durability.
type MemoryJournal struct {
	cmds []Command
}

var _ Journal = (*MemoryJournal)(nil)

// Append implements Journal.
func (m *MemoryJournal) Append(c *Command) error {
	if n := len(m.cmds); n > 0 && c.Seq <= m.cmds[n-1].Seq {
		return fmt.Errorf("%w: %d after %d", ErrJournalOrder, c.Seq, m.cmds[n-1].Seq)
	}
	m.cmds = append(m.cmds, *c)
	return nil
}

// Sync implements Journal.
func (m *MemoryJournal) Sync() error { return nil }

// Replay implements Journal.
func (m *MemoryJournal) Replay(after uint64, fn func(c *Command) error) error {
	for i := range m.cmds {
		if m.cmds[i].Seq > after {
			c := m.cmds[i]
			if err := fn(&c); err != nil {
				return err
			}
		}
	}
	return nil
}

// LastSeq implements Journal.
func (m *MemoryJournal) LastSeq() uint64 {
	if len(m.cmds) == 0 {
		return 0
	}
	return m.cmds[len(m.cmds)-1].Seq
}

// Close implements Journal.
func (m *MemoryJournal) Close() error { return nil }
