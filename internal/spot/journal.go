package spot

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"tenger/internal/matching"
)

// The engine's journal on disk is a sequence of segments, each a
// matching.FileJournal in <data>/spot-journal/<first seq, 20 digits>.log.
// A single file would grow without bound; with segments, a snapshot that is
// durably written lets the engine start a new segment and delete every
// older one (TruncateThrough), since no restore will ever replay a command
// the snapshot already holds. A journal written before segments existed
// (<data>/spot.journal) is read as the oldest segment and deleted by the
// first truncation.
const (
	journalDirName    = "spot-journal"
	legacyJournalName = "spot.journal"
	segmentExt        = ".log"
)

// journalTruncater is a journal whose records up to a sequence number can
// be dropped once a snapshot holds them.
type journalTruncater interface {
	TruncateThrough(seq uint64) error
}

// segment is one journal file. Every record in it has a seq of at least
// start and below the next segment's start.
type segment struct {
	start uint64
	path  string
}

// segmentJournal is a matching.Journal over segment files: appends go to
// the newest segment, Replay reads them in order.
type segmentJournal struct {
	dataDir string
	dir     string
	policy  matching.SyncPolicy
	segs    []segment // ascending by start; the last one is cur
	cur     *matching.FileJournal
	last    uint64
}

var (
	_ matching.Journal = (*segmentJournal)(nil)
	_ journalTruncater = (*segmentJournal)(nil)
)

// openSegmentJournal opens (creating if needed) the journal under dataDir.
func openSegmentJournal(dataDir string, policy matching.SyncPolicy) (*segmentJournal, error) {
	j := &segmentJournal{dataDir: dataDir, dir: filepath.Join(dataDir, journalDirName), policy: policy}
	if err := os.MkdirAll(j.dir, 0o755); err != nil {
		return nil, err
	}
	legacy := filepath.Join(dataDir, legacyJournalName)
	if _, err := os.Stat(legacy); err == nil {
		j.segs = append(j.segs, segment{start: 0, path: legacy})
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	entries, err := os.ReadDir(j.dir)
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
			continue // not a segment of ours
		}
		j.segs = append(j.segs, segment{start: start, path: filepath.Join(j.dir, name)})
	}
	sort.Slice(j.segs, func(a, b int) bool { return j.segs[a].start < j.segs[b].start })
	if len(j.segs) == 0 {
		if err := j.addSegment(1); err != nil {
			return nil, err
		}
		return j, nil
	}
	cur, err := matching.OpenFileJournal(j.segs[len(j.segs)-1].path, policy)
	if err != nil {
		return nil, err
	}
	j.cur, j.last = cur, cur.LastSeq()
	// An empty newest segment (rotated just before a stop): the last seq is
	// in an older one, if any survived the truncation.
	for i := len(j.segs) - 2; i >= 0 && j.last == 0; i-- {
		fj, err := matching.OpenFileJournal(j.segs[i].path, matching.SyncNever)
		if err != nil {
			_ = cur.Close()
			return nil, err
		}
		j.last = fj.LastSeq()
		if err := fj.Close(); err != nil {
			_ = cur.Close()
			return nil, err
		}
	}
	return j, nil
}

// addSegment creates the segment starting at start and makes it current.
func (j *segmentJournal) addSegment(start uint64) error {
	path := filepath.Join(j.dir, fmt.Sprintf("%020d%s", start, segmentExt))
	fj, err := matching.OpenFileJournal(path, j.policy)
	if err != nil {
		return err
	}
	if err := syncDir(j.dir); err != nil {
		_ = fj.Close()
		return err
	}
	j.segs = append(j.segs, segment{start: start, path: path})
	j.cur = fj
	return nil
}

// Append implements matching.Journal.
func (j *segmentJournal) Append(c *matching.Command) error {
	if c.Seq <= j.last {
		return fmt.Errorf("%w: %d after %d", matching.ErrJournalOrder, c.Seq, j.last)
	}
	if err := j.cur.Append(c); err != nil {
		return err
	}
	j.last = c.Seq
	return nil
}

// Sync implements matching.Journal.
func (j *segmentJournal) Sync() error { return j.cur.Sync() }

// Replay implements matching.Journal. Segments whose records are all at or
// below after are not read at all.
func (j *segmentJournal) Replay(after uint64, fn func(c *matching.Command) error) error {
	for i, s := range j.segs {
		if i+1 < len(j.segs) && j.segs[i+1].start <= after+1 {
			continue
		}
		if i == len(j.segs)-1 {
			return j.cur.Replay(after, fn)
		}
		fj, err := matching.OpenFileJournal(s.path, matching.SyncNever)
		if err != nil {
			return err
		}
		err = fj.Replay(after, fn)
		if cerr := fj.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// LastSeq implements matching.Journal.
func (j *segmentJournal) LastSeq() uint64 { return j.last }

// Close implements matching.Journal.
func (j *segmentJournal) Close() error { return j.cur.Close() }

// TruncateThrough drops every record with a seq at or below seq: the
// current segment is closed and a new one started (unless it is empty),
// and every segment before the new one is deleted. Call it only once a
// snapshot holding seq is durable. A crash at any point leaves segments
// whose records are at or below seq, which a restore skips.
func (j *segmentJournal) TruncateThrough(seq uint64) error {
	if j.last > seq {
		return fmt.Errorf("spot: journal truncation through %d would drop commands up to %d", seq, j.last)
	}
	curStart := j.segs[len(j.segs)-1].start
	if j.cur.LastSeq() > 0 || curStart == 0 {
		// An empty current segment already starts at or below seq+1 and
		// holds nothing to drop; the pre-segment file is always replaced.
		if err := j.cur.Close(); err != nil {
			return err
		}
		if err := j.addSegment(seq + 1); err != nil {
			return err
		}
	}
	keep := j.segs[:0]
	var errs []error
	legacyGone := false
	for i, s := range j.segs {
		if i+1 < len(j.segs) && j.segs[i+1].start <= seq+1 {
			if err := os.Remove(s.path); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
				keep = append(keep, s)
				continue
			}
			legacyGone = legacyGone || s.start == 0
			continue
		}
		keep = append(keep, s)
	}
	j.segs = keep
	errs = append(errs, syncDir(j.dir))
	if legacyGone {
		errs = append(errs, syncDir(j.dataDir))
	}
	return errors.Join(errs...)
}

// syncDir makes renames, creations and removals in dir durable. File
// systems that cannot sync a directory (EINVAL) already order them.
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
