package embedded

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"

	"github.com/cockroachdb/pebble"

	"tenger/internal/store"
)

// Change record layout: kind byte, varint at (ms), length-prefixed pk and
// sk, then length-prefixed old and new item encodings (length 0 = absent;
// an encoded item is never empty).
//
// The records of one write are stored under ONE feed key, the sequence of
// the first: a single record as it is, several as a block (recBlock, the
// count, then each record length-prefixed), their sequences following on.
// A ledger batch of twenty postings writes sixty changes, and one key for
// them instead of sixty is a third of the keys the batch adds to Pebble's
// memtable. A write's records are reserved and completed together, so the
// durable watermark never falls inside a block.
const (
	recInsert byte = 1
	recModify byte = 2
	recRemove byte = 3
	recBlock  byte = 0x10
)

// appendFeedValue appends the feed value of a write's changes to dst. It
// grows dst once, to feedValueLen: a ledger batch's value holds every
// changed item twice (old and new), tens of kilobytes that growing by
// doubling copied again and again.
func appendFeedValue(dst []byte, changes []change, at int64) []byte {
	return putFeedValue(slices.Grow(dst, feedValueLen(changes, at)), changes, at)
}

// putFeedValue appends the feed value of changes to dst, which has room
// for its feedValueLen bytes (a Pebble batch's deferred value has exactly).
func putFeedValue(dst []byte, changes []change, at int64) []byte {
	if len(changes) == 1 {
		return appendChange(dst, &changes[0], at)
	}
	dst = append(dst, recBlock)
	dst = binary.AppendUvarint(dst, uint64(len(changes)))
	for i := range changes {
		dst = binary.AppendUvarint(dst, uint64(changeLen(&changes[i], at)))
		dst = appendChange(dst, &changes[i], at)
	}
	return dst
}

// feedValueLen is the length of the feed value of changes.
func feedValueLen(changes []change, at int64) int {
	if len(changes) == 1 {
		return changeLen(&changes[0], at)
	}
	size := 1 + uvarintLen(uint64(len(changes)))
	for i := range changes {
		n := changeLen(&changes[i], at)
		size += uvarintLen(uint64(n)) + n
	}
	return size
}

// forEachRecord calls fn with each change record of the feed value stored
// under sequence first, and the record's own sequence.
func forEachRecord(first uint64, v []byte, fn func(seq uint64, rec []byte) error) error {
	if len(v) == 0 || v[0] != recBlock {
		return fn(first, v)
	}
	d := decoder{b: v[1:]}
	n := d.uvarint()
	for i := uint64(0); i < n && d.err == nil; i++ {
		rec := d.bytes()
		if d.err != nil {
			break
		}
		if err := fn(first+i, rec); err != nil {
			return err
		}
	}
	if d.err != nil || len(d.b) != 0 {
		return errCorrupt
	}
	return nil
}

const (
	defaultFeedLimit = 100
	maxFeedLimit     = 10000
)

// appendChange appends the change record of c to dst: changeLen bytes.
func appendChange(dst []byte, c *change, at int64) []byte {
	switch c.kind {
	case store.ChangeInsert:
		dst = append(dst, recInsert)
	case store.ChangeModify:
		dst = append(dst, recModify)
	default:
		dst = append(dst, recRemove)
	}
	dst = binary.AppendVarint(dst, at)
	dst = binary.AppendUvarint(dst, uint64(len(c.key.PK)))
	dst = append(dst, c.key.PK...)
	dst = binary.AppendUvarint(dst, uint64(len(c.key.SK)))
	dst = append(dst, c.key.SK...)
	dst = binary.AppendUvarint(dst, uint64(len(c.oldRaw)))
	dst = append(dst, c.oldRaw...)
	dst = binary.AppendUvarint(dst, uint64(len(c.newRaw)))
	return append(dst, c.newRaw...)
}

// changeLen is the length of c's change record.
func changeLen(c *change, at int64) int {
	var buf [binary.MaxVarintLen64]byte
	n := 1 + binary.PutVarint(buf[:], at)
	for _, l := range [...]int{len(c.key.PK), len(c.key.SK), len(c.oldRaw), len(c.newRaw)} {
		n += uvarintLen(uint64(l)) + l
	}
	return n
}

// uvarintLen is the length of v's unsigned varint.
func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// changeAt reads only the time of a feed value's changes (one write's
// changes share it) and the sequence of its last record.
func changeAt(first uint64, v []byte) (at int64, last uint64, ok bool) {
	err := forEachRecord(first, v, func(seq uint64, rec []byte) error {
		if seq == first && len(rec) >= 2 {
			var n int
			at, n = binary.Varint(rec[1:])
			ok = n > 0
		}
		last = seq
		return nil
	})
	return at, last, ok && err == nil
}

func decodeChange(seq uint64, rec []byte) (store.Change, error) {
	d := decoder{b: rec}
	var c store.Change
	c.ID = strconv.FormatUint(seq, 10)
	switch d.byte1() {
	case recInsert:
		c.Kind = store.ChangeInsert
	case recModify:
		c.Kind = store.ChangeModify
	case recRemove:
		c.Kind = store.ChangeRemove
	default:
		return c, errCorrupt
	}
	c.At = d.varint()
	c.Key.PK = string(d.bytes())
	c.Key.SK = string(d.bytes())
	oldRaw, newRaw := d.bytes(), d.bytes()
	if d.err != nil {
		return c, d.err
	}
	var err error
	if len(oldRaw) > 0 {
		if c.Old, err = decodeItem(oldRaw, c.Key); err != nil {
			return c, err
		}
	}
	if len(newRaw) > 0 {
		if c.New, err = decodeItem(newRaw, c.Key); err != nil {
			return c, err
		}
	}
	return c, nil
}

// feed reads the change records of a Store.
type feed struct{ s *Store }

// Changes returns the change feed. Checkpoints are sequence numbers as
// decimal strings; the feed yields only durable changes, in commit order.
func (s *Store) Changes() store.Feed { return feed{s} }

// Read returns up to limit (0 means 100) changes after checkpoint.
func (f feed) Read(ctx context.Context, checkpoint string, limit int) ([]store.Change, string, error) {
	var after uint64
	if checkpoint != "" {
		v, err := strconv.ParseUint(checkpoint, 10, 64)
		if err != nil {
			return nil, "", fmt.Errorf("%w: bad feed checkpoint %q", store.ErrInvalid, checkpoint)
		}
		after = v
	}
	if limit <= 0 {
		limit = defaultFeedLimit
	}
	if limit > maxFeedLimit {
		limit = maxFeedLimit
	}
	s := f.s
	if err := s.enter(ctx); err != nil {
		return nil, "", err
	}
	defer s.closeMu.RUnlock()
	durable := s.seqs.durable.Load()
	if after >= durable {
		return nil, checkpoint, nil
	}
	// The value holding after+1 may start before it (a block).
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: feedKey(0), UpperBound: feedKey(durable + 1)})
	if err != nil {
		return nil, "", err
	}
	defer it.Close()
	ok := it.SeekLT(feedKey(after + 1))
	if !ok {
		ok = it.SeekGE(feedKey(after + 1))
	}
	var out []store.Change
	next := checkpoint
	for ; ok && len(out) < limit; ok = it.Next() {
		first := binary.BigEndian.Uint64(it.Key()[1:])
		err := forEachRecord(first, it.Value(), func(seq uint64, rec []byte) error {
			if seq <= after || len(out) >= limit {
				return nil
			}
			c, err := decodeChange(seq, rec)
			if err != nil {
				return fmt.Errorf("embedded: feed record %d: %w", seq, err)
			}
			out = append(out, c)
			next = c.ID
			return nil
		})
		if err != nil {
			return nil, "", err
		}
	}
	if err := it.Error(); err != nil {
		return nil, "", err
	}
	return out, next, nil
}
