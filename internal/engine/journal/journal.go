// Package journal is the engine's command log: append-only segment files of
// length-prefixed, checksummed records, each a sequence number and the
// caller's encoded command. Appends go to a buffer; Sync writes the buffer
// out and fsyncs, and appends may go on while a Sync waits for the disk, so
// the commands that arrive during one fsync are made durable by the next
// (group commit). Opening a log drops a torn or corrupt tail left by a
// crash: only records written completely count. The engine starts a new
// segment when it takes a snapshot (Rotate) and deletes the segments a
// usable snapshot covers (DropThrough).
package journal

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Policy says whether Sync fsyncs.
type Policy uint8

// Policies.
const (
	// Durable fsyncs on every Sync: the engine acknowledges a command only
	// after the Sync that covers it.
	Durable Policy = iota
	// NoFsync writes the buffer out but never fsyncs (tests and
	// benchmarks; a crash of the machine may lose the tail).
	NoFsync
)

// MaxRecord bounds one record's payload.
const MaxRecord = 1 << 20

// header is u32 length (of seq + payload), u32 CRC-32C (of seq + payload),
// u64 seq.
const header = 16

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrOrder is returned by Append for a sequence number not above the last.
var ErrOrder = errors.New("journal: sequence not increasing")

const segmentExt = ".log"

// segment is one file; every record in it has a seq at least start and
// below the next segment's start.
type segment struct {
	start uint64
	path  string
}

// Log is the segmented command log.
type Log struct {
	dir    string
	policy Policy

	mu   sync.Mutex // guards the fields below and the writer
	segs []segment  // ascending by start; the last one is written
	f    *os.File
	w    *bufio.Writer
	last uint64 // last appended seq
	// lastFile is the last seq in the current segment (0: empty).
	lastFile uint64
	err      error // a failed write or sync: the log refuses further work
	// synced is the last seq an fsync covered; syncing is set while one
	// runs, and done is closed when it ends. Concurrent Syncs share it.
	synced  uint64
	syncing bool
	done    chan struct{}
}

// Open opens (creating if needed) the log in dir.
func Open(dir string, policy Policy) (*Log, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	l := &Log{dir: dir, policy: policy}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, de := range entries {
		name := de.Name()
		if de.IsDir() || !strings.HasSuffix(name, segmentExt) {
			continue
		}
		start, err := strconv.ParseUint(strings.TrimSuffix(name, segmentExt), 10, 64)
		if err != nil || start == 0 {
			continue
		}
		l.segs = append(l.segs, segment{start: start, path: filepath.Join(dir, name)})
	}
	sort.Slice(l.segs, func(a, b int) bool { return l.segs[a].start < l.segs[b].start })
	if len(l.segs) == 0 {
		return l, l.addSegment(1)
	}
	// The last seq is in the newest segment holding any record.
	for i := len(l.segs) - 1; i >= 0 && l.last == 0; i-- {
		valid, last, err := scan(l.segs[i].path, 0, nil)
		if err != nil {
			return nil, err
		}
		if i == len(l.segs)-1 {
			if err := l.openCurrent(valid); err != nil {
				return nil, err
			}
			l.lastFile = last
		}
		l.last = last
	}
	return l, nil
}

// openCurrent opens the newest segment for appending after its valid
// prefix, cutting a torn tail.
func (l *Log) openCurrent(valid int64) error {
	f, err := os.OpenFile(l.segs[len(l.segs)-1].path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if err := f.Truncate(valid); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Seek(valid, io.SeekStart); err != nil {
		f.Close()
		return err
	}
	l.f, l.w = f, bufio.NewWriterSize(f, 256<<10)
	return nil
}

// addSegment creates the segment starting at start and makes it current.
func (l *Log) addSegment(start uint64) error {
	path := filepath.Join(l.dir, fmt.Sprintf("%020d%s", start, segmentExt))
	l.segs = append(l.segs, segment{start: start, path: path})
	if err := l.openCurrent(0); err != nil {
		l.segs = l.segs[:len(l.segs)-1]
		return err
	}
	l.lastFile = 0
	return syncDir(l.dir)
}

// scan reads the records of the file at path, calling fn (when not nil)
// for those with seq > after, and returns the length of the valid prefix
// and its last seq.
func scan(path string, after uint64, fn func(seq uint64, payload []byte) error) (int64, uint64, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 256<<10)
	var off int64
	var last uint64
	var head [header]byte
	buf := make([]byte, 0, 4096)
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return off, last, nil // clean end or torn header
		}
		n := binary.LittleEndian.Uint32(head[0:])
		if n < 8 || n > MaxRecord+8 {
			return off, last, nil
		}
		if cap(buf) < int(n-8) {
			buf = make([]byte, n-8)
		}
		payload := buf[:n-8]
		if _, err := io.ReadFull(r, payload); err != nil {
			return off, last, nil
		}
		crc := crc32.Update(crc32.Checksum(head[8:16], castagnoli), castagnoli, payload)
		seq := binary.LittleEndian.Uint64(head[8:])
		if crc != binary.LittleEndian.Uint32(head[4:]) || seq <= last {
			return off, last, nil
		}
		last = seq
		off += header + int64(len(payload))
		if fn != nil && seq > after {
			if err := fn(seq, payload); err != nil {
				return off, last, err
			}
		}
	}
}

// Append adds a record to the buffer. It is durable after the next Sync
// that starts after it returns.
func (l *Log) Append(seq uint64, payload []byte) error {
	if len(payload) > MaxRecord {
		return fmt.Errorf("journal: record of %d bytes", len(payload))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	if seq <= l.last {
		return fmt.Errorf("%w: %d after %d", ErrOrder, seq, l.last)
	}
	var head [header]byte
	binary.LittleEndian.PutUint32(head[0:], uint32(8+len(payload)))
	binary.LittleEndian.PutUint64(head[8:], seq)
	crc := crc32.Update(crc32.Checksum(head[8:16], castagnoli), castagnoli, payload)
	binary.LittleEndian.PutUint32(head[4:], crc)
	if _, err := l.w.Write(head[:]); err != nil {
		l.err = err
		return err
	}
	if _, err := l.w.Write(payload); err != nil {
		l.err = err
		return err
	}
	l.last, l.lastFile = seq, seq
	return nil
}

// Sync makes every record appended before it was called durable. Appends
// may go on while it waits for the disk; concurrent Syncs share one fsync
// (one that starts while another runs waits for it, then syncs what is
// left, if anything).
func (l *Log) Sync() error {
	l.mu.Lock()
	target := l.last
	for {
		// What an earlier fsync made durable stays durable whatever fails
		// after it: a Sync that waited for that fsync answers success even
		// if the log failed (or was abandoned) since. Answering its failure
		// would have the engine treat a durable batch as lost while a later
		// batch, covered by the same fsync, is handed on (the projection
		// would then skip the earlier batch's balances).
		if l.synced >= target && !(l.policy == NoFsync && l.w.Buffered() > 0) {
			l.mu.Unlock()
			return nil
		}
		if l.err != nil {
			l.mu.Unlock()
			return l.err
		}
		if !l.syncing {
			break
		}
		done := l.done
		l.mu.Unlock()
		<-done
		l.mu.Lock()
	}
	if err := l.w.Flush(); err != nil {
		l.err = err
		l.mu.Unlock()
		return err
	}
	f, upto := l.f, l.last
	if l.policy == NoFsync {
		l.synced = upto
		l.mu.Unlock()
		return nil
	}
	l.syncing, l.done = true, make(chan struct{})
	l.mu.Unlock()
	err := f.Sync()
	l.mu.Lock()
	if err != nil {
		// A failed fsync leaves the file's state unknown: the engine must
		// stop and recover from what the disk holds.
		l.err = fmt.Errorf("journal: fsync: %w", err)
	} else if upto > l.synced {
		l.synced = upto
	}
	l.syncing = false
	close(l.done)
	l.mu.Unlock()
	return err
}

// Replay calls fn for every record with seq > after, in order. It reads
// what is on disk after flushing the buffer.
func (l *Log) Replay(after uint64, fn func(seq uint64, payload []byte) error) error {
	l.mu.Lock()
	if err := l.w.Flush(); err != nil {
		l.mu.Unlock()
		return err
	}
	segs := append([]segment(nil), l.segs...)
	l.mu.Unlock()
	for i, s := range segs {
		if i+1 < len(segs) && segs[i+1].start <= after+1 {
			continue // every record in it is at or below after
		}
		if _, _, err := scan(s.path, after, fn); err != nil {
			return err
		}
	}
	return nil
}

// LastSeq is the seq of the last appended record (0 when none).
func (l *Log) LastSeq() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last
}

// Rotate starts a new segment after the last record (unless the current
// one is empty), so a later DropThrough can delete everything before it.
// The engine rotates when it takes a snapshot.
func (l *Log) Rotate() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.syncing { // an fsync of the current file must not meet its close
		done := l.done
		l.mu.Unlock()
		<-done
		l.mu.Lock()
	}
	if l.lastFile == 0 {
		return nil
	}
	if err := l.w.Flush(); err != nil {
		return err
	}
	if err := l.f.Sync(); err != nil && l.policy == Durable {
		return err
	}
	if err := l.f.Close(); err != nil {
		return err
	}
	return l.addSegment(l.last + 1)
}

// DropThrough deletes every segment whose records are all at or below seq
// (those a snapshot at seq, or after it, holds). Records above seq, and
// the current segment, stay. A crash at any point leaves only segments a
// restore skips or needs.
func (l *Log) DropThrough(seq uint64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	keep := l.segs[:0]
	var errs []error
	for i, s := range l.segs {
		if i+1 < len(l.segs) && l.segs[i+1].start <= seq+1 {
			if err := os.Remove(s.path); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
				keep = append(keep, s)
			}
			continue
		}
		keep = append(keep, s)
	}
	l.segs = keep
	errs = append(errs, syncDir(l.dir))
	return errors.Join(errs...)
}

// Abandon closes the log as a crash would leave it: what is still in the
// buffer is lost, and every later call fails (crash tests).
func (l *Log) Abandon() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		l.err = errors.New("journal: abandoned")
	}
	_ = l.f.Close()
}

// Close writes the buffer out, fsyncs (unless NoFsync) and closes the file.
func (l *Log) Close() error {
	err := l.Sync()
	l.mu.Lock()
	defer l.mu.Unlock()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir makes creations and removals in dir durable. File systems that
// cannot sync a directory (EINVAL) already order them.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) {
		return nil
	}
	return err
}
