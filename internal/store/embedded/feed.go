package embedded

import (
	"context"
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/cockroachdb/pebble"

	"tenger/internal/store"
)

// Change record layout: kind byte, varint at (ms), length-prefixed pk and
// sk, then length-prefixed old and new item encodings (length 0 = absent;
// an encoded item is never empty).
const (
	recInsert byte = 1
	recModify byte = 2
	recRemove byte = 3
)

const (
	defaultFeedLimit = 100
	maxFeedLimit     = 10000
)

// appendChange appends the change record of c to dst.
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
	for _, part := range [][]byte{[]byte(c.key.PK), []byte(c.key.SK), c.oldRaw, c.newRaw} {
		dst = binary.AppendUvarint(dst, uint64(len(part)))
		dst = append(dst, part...)
	}
	return dst
}

// changeAt reads only the time of a change record.
func changeAt(rec []byte) (int64, bool) {
	if len(rec) < 2 {
		return 0, false
	}
	at, n := binary.Varint(rec[1:])
	return at, n > 0
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
		if c.Old, err = decodeItem(oldRaw); err != nil {
			return c, err
		}
	}
	if len(newRaw) > 0 {
		if c.New, err = decodeItem(newRaw); err != nil {
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
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: feedKey(after + 1), UpperBound: feedKey(durable + 1)})
	if err != nil {
		return nil, "", err
	}
	defer it.Close()
	var out []store.Change
	next := checkpoint
	for ok := it.First(); ok && len(out) < limit; ok = it.Next() {
		seq := binary.BigEndian.Uint64(it.Key()[1:])
		c, err := decodeChange(seq, it.Value())
		if err != nil {
			return nil, "", fmt.Errorf("embedded: feed record %d: %w", seq, err)
		}
		out = append(out, c)
		next = c.ID
	}
	if err := it.Error(); err != nil {
		return nil, "", err
	}
	return out, next, nil
}
