package matching

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// snapshotMagic starts every snapshot; the last byte is the format version.
var snapshotMagic = [8]byte{'T', 'N', 'G', 'R', 'M', 'B', '0', '1'}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
	// orderRecordSize is the encoded size of one order in a snapshot.
	orderRecordSize = 64
)

// ErrBadSnapshot is returned by Restore for a malformed or corrupt snapshot.
var ErrBadSnapshot = errors.New("matching: bad snapshot")

// stateEncoder writes the canonical state encoding to w (when set) and
// folds it into an FNV-1a hash: the snapshot body and the state hash are
// the same bytes, so a restored book hashes equal by construction.
type stateEncoder struct {
	w   *bufio.Writer
	h   uint64
	buf [orderRecordSize]byte
	err error
}

func (e *stateEncoder) put(n int) {
	for _, c := range e.buf[:n] {
		e.h ^= uint64(c)
		e.h *= fnvPrime
	}
	if e.w != nil && e.err == nil {
		_, e.err = e.w.Write(e.buf[:n])
	}
}

func (e *stateEncoder) word(v uint64) {
	binary.LittleEndian.PutUint64(e.buf[:8], v)
	e.put(8)
}

func (e *stateEncoder) order(o *order) {
	le := binary.LittleEndian
	le.PutUint64(e.buf[0:], o.id)
	le.PutUint64(e.buf[8:], o.user)
	le.PutUint64(e.buf[16:], uint64(o.price))
	le.PutUint64(e.buf[24:], uint64(o.qty))
	le.PutUint64(e.buf[32:], uint64(o.filled))
	le.PutUint64(e.buf[40:], uint64(o.filledQuote))
	le.PutUint64(e.buf[48:], uint64(o.stop))
	e.buf[56] = byte(o.side)
	e.buf[57] = byte(o.tif)
	e.buf[58] = byte(o.stp)
	e.buf[59] = o.state
	// The tag sits in what was a reserved zero word, so snapshots written
	// before tags existed restore with tag 0 (none).
	le.PutUint32(e.buf[60:], uint32(o.tag))
	e.put(orderRecordSize)
}

func (b *Book) encodeState(e *stateEncoder) {
	e.h = fnvOffset
	e.word(uint64(b.cfg.Symbol))
	e.word(b.lastSeq)
	e.word(uint64(b.lastPrice))
	e.word(b.tradeID)
	var nb, na int
	b.bids.forEach(func(r levelRef) bool { nb += int(b.levels[r.idx].count); return true })
	b.asks.forEach(func(r levelRef) bool { na += int(b.levels[r.idx].count); return true })
	e.word(uint64(nb))
	e.word(uint64(na))
	e.word(uint64(len(b.buyStops)))
	e.word(uint64(len(b.sellStops)))
	b.walk(e.order)
}

// StateHash returns a 64-bit FNV-1a hash of the book's canonical state:
// last sequence, last price, last trade id and every live order with all
// its fields, in ForEachOrder order. Pool positions do not enter it, so a
// restored or replayed book hashes equal to the original.
func (b *Book) StateHash() uint64 {
	var e stateEncoder
	b.encodeState(&e)
	return e.h
}

// Snapshot writes the book's state to w: the magic, the canonical state
// (the bytes StateHash hashes) and the hash itself as a checksum.
func (b *Book) Snapshot(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if _, err := bw.Write(snapshotMagic[:]); err != nil {
		return err
	}
	e := stateEncoder{w: bw}
	b.encodeState(&e)
	if e.err != nil {
		return e.err
	}
	var tail [8]byte
	binary.LittleEndian.PutUint64(tail[:], e.h)
	if _, err := bw.Write(tail[:]); err != nil {
		return err
	}
	return bw.Flush()
}

// Restore replaces the book's state with a snapshot. The book keeps its
// configuration and sink; the snapshot must be of the same symbol. On any
// error the book is left unchanged.
func (b *Book) Restore(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var magic [8]byte
	if _, err := io.ReadFull(br, magic[:]); err != nil || magic != snapshotMagic {
		return fmt.Errorf("%w: magic", ErrBadSnapshot)
	}
	var head [8 * 8]byte
	if _, err := io.ReadFull(br, head[:]); err != nil {
		return fmt.Errorf("%w: header: %v", ErrBadSnapshot, err)
	}
	le := binary.LittleEndian
	w := func(i int) uint64 { return le.Uint64(head[i*8:]) }
	if uint32(w(0)) != b.cfg.Symbol || w(0)>>32 != 0 {
		return fmt.Errorf("%w: snapshot of symbol %d, book %d", ErrBadSnapshot, w(0), b.cfg.Symbol)
	}
	counts := [4]uint64{w(4), w(5), w(6), w(7)}
	total := counts[0] + counts[1] + counts[2] + counts[3]
	if total > 1<<31 {
		return fmt.Errorf("%w: %d orders", ErrBadSnapshot, total)
	}
	cfg := b.cfg
	if int(total) > cfg.InitialOrders {
		cfg.InitialOrders = int(total)
	}
	nb := NewBook(cfg, b.sink)
	nb.cfg = b.cfg
	nb.lastSeq = w(1)
	nb.lastPrice = int64(w(2))
	nb.tradeID = w(3)
	var rec [orderRecordSize]byte
	var stops [2][]int32
	cur, curSide := nilIdx, Side(0)
	for section := 0; section < 4; section++ {
		for k := uint64(0); k < counts[section]; k++ {
			if _, err := io.ReadFull(br, rec[:]); err != nil {
				return fmt.Errorf("%w: order record: %v", ErrBadSnapshot, err)
			}
			o := order{
				id: le.Uint64(rec[0:]), user: le.Uint64(rec[8:]), price: int64(le.Uint64(rec[16:])),
				qty: int64(le.Uint64(rec[24:])), filled: int64(le.Uint64(rec[32:])),
				filledQuote: int64(le.Uint64(rec[40:])), stop: int64(le.Uint64(rec[48:])),
				side: Side(rec[56]), tif: TimeInForce(rec[57]), stp: STPMode(rec[58]), state: rec[59],
				tag: int32(le.Uint32(rec[60:])),
			}
			wantSide, wantState := Buy, stateResting
			if section == 1 || section == 3 {
				wantSide = Sell
			}
			if section >= 2 {
				wantState = stateStop
			}
			if o.id == 0 || o.side != wantSide || o.state != wantState || o.qty <= 0 || o.price <= 0 ||
				o.tif < GTC || o.tif > PostOnly || o.stp < STPCancelTaker || o.stp > STPDecrement {
				return fmt.Errorf("%w: order record %d of section %d", ErrBadSnapshot, k, section)
			}
			if _, dup := nb.ids.Get(o.id); dup {
				return fmt.Errorf("%w: duplicate order %d", ErrBadSnapshot, o.id)
			}
			oi := nb.allocOrder()
			nb.ids.Put(o.id, oi)
			if section < 2 {
				// Orders arrive best level first, each level in time
				// priority: open a new level whenever the price changes.
				// A level's orders are consecutive; levels come best first
				// and must strictly worsen (checked by Check below).
				if cur == nilIdx || nb.levels[cur].price != o.price || curSide != o.side {
					if _, dup := nb.px.Get(pxKey(o.side, o.price)); dup {
						return fmt.Errorf("%w: level %d repeated", ErrBadSnapshot, o.price)
					}
					cur, curSide = nb.levelFor(o.side, o.price), o.side
				}
				nb.orders[oi] = o
				nb.pushBack(cur, oi)
			} else {
				o.next, o.prev, o.level = nilIdx, nilIdx, nilIdx
				nb.orders[oi] = o
				stops[section-2] = append(stops[section-2], oi)
			}
		}
	}
	// Canonical order is trigger order (the slice's end first).
	for i, s := range stops {
		for l, r := 0, len(s)-1; l < r; l, r = l+1, r-1 {
			s[l], s[r] = s[r], s[l]
		}
		if i == 0 {
			nb.buyStops = append(nb.buyStops[:0], s...)
		} else {
			nb.sellStops = append(nb.sellStops[:0], s...)
		}
	}
	var tail [8]byte
	if _, err := io.ReadFull(br, tail[:]); err != nil {
		return fmt.Errorf("%w: checksum: %v", ErrBadSnapshot, err)
	}
	if got := nb.StateHash(); got != le.Uint64(tail[:]) {
		return fmt.Errorf("%w: checksum mismatch", ErrBadSnapshot)
	}
	if err := nb.Check(); err != nil {
		return fmt.Errorf("%w: %v", ErrBadSnapshot, err)
	}
	*b = *nb
	return nil
}
