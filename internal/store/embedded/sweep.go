package embedded

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/rs/zerolog"

	"tenger/internal/store"
)

// sweepBatch is how many expired items one sweep transaction deletes.
const sweepBatch = store.MaxTransactItems

func (s *Store) sweepLoop(every time.Duration) {
	defer s.sweepDone.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stopSweep:
			return
		case now := <-t.C:
			if n, err := s.SweepExpired(now); err != nil {
				if err != store.ErrClosed {
					s.log.Error().Err(err).Msg("ttl sweep failed")
				}
			} else if n > 0 {
				s.log.Debug().Int("deleted", n).Msg("ttl sweep")
			}
			if err := s.pruneFeed(now); err != nil && err != store.ErrClosed {
				s.log.Error().Err(err).Msg("feed pruning failed")
			}
		}
	}
}

// SweepExpired deletes every item whose ttl (Unix seconds) lies before now,
// emitting a REMOVE change for each, and returns how many it deleted. It
// reads only the TTL index, never the table. An item whose ttl was raised
// meanwhile is left alone (the check is repeated under the item's lock).
func (s *Store) SweepExpired(now time.Time) (int, error) {
	nowSec := now.Unix()
	if nowSec <= 0 {
		return 0, nil
	}
	upper := make([]byte, 0, 9)
	upper = append(upper, nsTTL)
	upper = binary.BigEndian.AppendUint64(upper, uint64(nowSec))
	total := 0
	for {
		keys, err := s.expiredKeys(upper, sweepBatch)
		if err != nil {
			return total, err
		}
		if len(keys) == 0 {
			return total, nil
		}
		ops := make([]writeOp, len(keys))
		for i, k := range keys {
			ops[i] = writeOp{kind: opExpire, key: k, expireBefore: nowSec}
		}
		n, err := s.expire(ops)
		total += n
		if err != nil {
			return total, err
		}
		if n == 0 {
			// Every listed entry was stale (ttl raised concurrently and the
			// index not yet showing it): stop rather than spin.
			return total, nil
		}
	}
}

func (s *Store) expiredKeys(upper []byte, max int) ([]store.Key, error) {
	if err := s.enter(context.Background()); err != nil {
		return nil, err
	}
	defer s.closeMu.RUnlock()
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{nsTTL}, UpperBound: upper})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var keys []store.Key
	for ok := it.First(); ok && len(keys) < max; ok = it.Next() {
		k, valid := parseTailKey(it.Key()[9:])
		if !valid {
			return nil, fmt.Errorf("embedded: corrupt ttl key %x", it.Key())
		}
		keys = append(keys, k)
	}
	return keys, it.Error()
}

// expire deletes the still-expired items among ops atomically and returns
// how many it deleted.
func (s *Store) expire(ops []writeOp) (int, error) {
	_, n, err := s.writeN(context.Background(), ops, true)
	return n, err
}

// pruneFeed deletes change records older than the retention period and
// records the highest pruned sequence, so sequences never repeat.
func (s *Store) pruneFeed(now time.Time) error {
	if err := s.enter(context.Background()); err != nil {
		return err
	}
	defer s.closeMu.RUnlock()
	cutoff := now.Add(-s.opts.FeedRetention).UnixMilli()
	durable := s.seqs.durable.Load()
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: feedKey(0), UpperBound: feedKey(durable + 1)})
	if err != nil {
		return err
	}
	var last, lastKey uint64
	for ok := it.First(); ok; ok = it.Next() {
		first := binary.BigEndian.Uint64(it.Key()[1:])
		at, end, valid := changeAt(first, it.Value())
		if !valid || at >= cutoff {
			break
		}
		last, lastKey = end, first
	}
	if err := it.Close(); err != nil {
		return err
	}
	if last == 0 {
		return nil
	}
	b := s.db.NewBatch()
	defer b.Close()
	if err := b.DeleteRange(feedKey(0), feedKey(lastKey+1), nil); err != nil {
		return err
	}
	if err := b.Set(metaPruned, binary.BigEndian.AppendUint64(nil, last), nil); err != nil {
		return err
	}
	// Losing a prune in a crash only means pruning again: no fsync needed.
	return b.Commit(pebble.NoSync)
}

// pebbleLogger routes Pebble's messages to zerolog.
type pebbleLogger struct{ log zerolog.Logger }

func (l pebbleLogger) Infof(format string, args ...interface{}) {
	l.log.Debug().Msgf(format, args...)
}

func (l pebbleLogger) Fatalf(format string, args ...interface{}) {
	l.log.Error().Msgf(format, args...)
	panic(fmt.Sprintf(format, args...))
}
