package risk

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"tenger/internal/idmap"
	"tenger/internal/matching"
)

// snapshotMagic starts every risk snapshot; the last bytes are the version.
// Version 02 holds every account kind's balances; a version 01 snapshot
// (written before the futures account, spot balances only) is restored
// with the other kinds at zero.
var snapshotMagic = [8]byte{'T', 'N', 'G', 'R', 'R', 'K', '0', '2'}

var snapshotMagicV1 = [8]byte{'T', 'N', 'G', 'R', 'R', 'K', '0', '1'}

// ErrBadSnapshot is returned by RestoreSpot for a malformed or corrupt
// snapshot.
var ErrBadSnapshot = errors.New("risk: bad snapshot")

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// encoder writes the canonical state (to w, when set) and folds the same
// bytes into an FNV-1a hash, so a restored engine hashes equal by
// construction, as the books do (matching.Book.StateHash).
type encoder struct {
	w   *bufio.Writer
	h   uint64
	buf [8]byte
	err error
}

func (e *encoder) bytes(b []byte) {
	for _, c := range b {
		e.h ^= uint64(c)
		e.h *= fnvPrime
	}
	if e.w != nil && e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *encoder) word(v uint64) {
	binary.LittleEndian.PutUint64(e.buf[:], v)
	e.bytes(e.buf[:])
}

func (e *encoder) str(s string) {
	e.word(uint64(len(s)))
	e.bytes([]byte(s))
}

// encode writes the state in its canonical order: coins, users and their
// balances by slot, pairs in the order they were added, then the order
// records in pool order with the free list: an order's tag is its record's
// index, held by the books too, so the layout is state a restore repeats.
func (r *Spot) encode(e *encoder) { r.encodeKinds(e, int(kindCount)) }

// encodeKinds is encode with the balances of the first kinds account kinds
// (a version 01 snapshot had only the spot kind: the tests write one).
func (r *Spot) encodeKinds(e *encoder, kinds int) {
	e.h = fnvOffset
	a := r.acct
	e.word(uint64(len(a.coins)))
	for _, c := range a.coins {
		e.str(c.Code)
		e.word(uint64(c.Decimals))
	}
	e.word(uint64(len(a.users)))
	for _, u := range a.users {
		e.word(u.Num)
		e.str(u.ID)
	}
	nc := len(a.coins)
	for row := 0; row*nc < len(a.bal); row++ {
		if row%int(kindCount) >= kinds {
			continue
		}
		for _, b := range a.bal[row*nc : (row+1)*nc] {
			e.word(uint64(b.Avail))
			e.word(uint64(b.Held))
		}
	}
	e.word(uint64(r.fees))
	e.word(uint64(len(r.syms)))
	for _, s := range r.syms {
		e.word(uint64(s.ID))
		e.word(uint64(s.Base))
		e.word(uint64(s.Quote))
		e.word(uint64(s.LotUnits))
		e.word(uint64(s.QuoteUnitUnits))
	}
	e.word(uint64(len(r.pool)))
	e.word(uint64(r.free))
	for i := range r.pool {
		o := &r.pool[i]
		e.word(o.id)
		e.word(uint64(o.next))
		e.word(uint64(o.left))
		e.word(uint64(o.price))
		e.word(uint64(o.slot))
		e.word(uint64(o.sym))
		e.word(uint64(o.maker))
		e.word(uint64(o.taker))
		e.word(uint64(o.side))
		e.word(uint64(o.kind))
	}
}

// StateHash is a hash of the whole risk state (balances, pairs, open
// orders' holds): two engines that applied the same commands from the
// same state hash equal.
func (r *Spot) StateHash() uint64 {
	var e encoder
	r.encode(&e)
	return e.h
}

// Snapshot writes the risk state to w: the magic, the canonical state and
// its hash as a checksum.
func (r *Spot) Snapshot(w io.Writer) error { return writeSnapshot(w, snapshotMagic, r.encode) }

// writeSnapshot writes magic, the state encode writes, and its hash.
func writeSnapshot(w io.Writer, magic [8]byte, encode func(*encoder)) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if _, err := bw.Write(magic[:]); err != nil {
		return err
	}
	e := encoder{w: bw}
	encode(&e)
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

// decoder reads what encoder wrote, hashing it the same way.
type decoder struct {
	r   *bufio.Reader
	h   uint64
	buf [8]byte
	err error
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil {
		return nil
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(d.r, b); err != nil {
		d.err = err
		return nil
	}
	for _, c := range b {
		d.h ^= uint64(c)
		d.h *= fnvPrime
	}
	return b
}

func (d *decoder) word() uint64 {
	b := d.bytes(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// count reads a length, refusing one beyond what a real state holds.
func (d *decoder) count(limit uint64) int {
	n := d.word()
	if n > limit {
		if d.err == nil {
			d.err = fmt.Errorf("%w: a count of %d", ErrBadSnapshot, n)
		}
		return 0
	}
	return int(n)
}

func (d *decoder) str() string {
	return string(d.bytes(d.count(1 << 16)))
}

// RestoreSpot rebuilds accounts and the spot risk engine from a snapshot;
// capacity sizes the open-order table as NewSpot does.
func RestoreSpot(rd io.Reader, capacity int) (*Spot, error) {
	br := bufio.NewReaderSize(rd, 64<<10)
	var magic [8]byte
	if _, err := io.ReadFull(br, magic[:]); err != nil || (magic != snapshotMagic && magic != snapshotMagicV1) {
		return nil, fmt.Errorf("%w: no risk snapshot header", ErrBadSnapshot)
	}
	// The kinds whose balances the snapshot holds per user and coin.
	kinds := int(kindCount)
	if magic == snapshotMagicV1 {
		kinds = 1
	}
	d := &decoder{r: br, h: fnvOffset}
	a := &Accounts{}
	for range d.count(1 << 16) {
		a.coins = append(a.coins, CoinInfo{Code: d.str(), Decimals: int32(d.word())})
	}
	nu := d.count(1 << 31)
	a.slots = idmap.New(max(nu, 16))
	for range nu {
		u := User{Num: d.word(), ID: d.str()}
		a.slots.Put(u.Num, int32(len(a.users)))
		a.users = append(a.users, u)
	}
	if d.err == nil {
		a.bal = make([]Balance, nu*int(kindCount)*len(a.coins))
		a.stamp = make([]uint32, len(a.bal))
		a.gen = 1
		// Row by row (a user's kind): a snapshot with fewer kinds leaves
		// the later kinds of each user at zero.
		nc := len(a.coins)
		for row := 0; row < nu*int(kindCount); row++ {
			if row%int(kindCount) >= kinds {
				continue
			}
			for c := range nc {
				a.bal[row*nc+c] = Balance{Avail: int64(d.word()), Held: int64(d.word())}
			}
		}
	}
	r := &Spot{acct: a, symIdx: idmap.New(64), free: -1}
	r.fees = Slot(d.word())
	for range d.count(1 << 20) {
		s := Symbol{ID: uint32(d.word()), Base: Coin(d.word()), Quote: Coin(d.word()), LotUnits: int64(d.word()),
			QuoteUnitUnits: int64(d.word())}
		r.symIdx.Put(uint64(s.ID), int32(len(r.syms)))
		r.syms = append(r.syms, s)
	}
	no := d.count(1 << 31)
	r.free = int32(d.word())
	r.pool = make([]orderHold, 0, max(no, capacity))
	for range no {
		o := orderHold{id: d.word(), next: int32(d.word()), left: int64(d.word()), price: int64(d.word()), slot: Slot(d.word()),
			sym: int32(d.word()), maker: Rate(d.word()), taker: Rate(d.word()), side: matching.Side(d.word()), kind: Kind(d.word())}
		if d.err == nil && o.id != 0 && (int(o.slot) >= nu || int(o.sym) >= len(r.syms)) {
			d.err = fmt.Errorf("%w: order %d", ErrBadSnapshot, o.id)
		}
		if o.id != 0 {
			r.open++
		}
		r.pool = append(r.pool, o)
	}
	if d.err == nil && (r.free < -1 || int(r.free) >= no) {
		d.err = fmt.Errorf("%w: free list", ErrBadSnapshot)
	}
	if d.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadSnapshot, d.err)
	}
	want := d.h
	var tail [8]byte
	if _, err := io.ReadFull(br, tail[:]); err != nil || binary.LittleEndian.Uint64(tail[:]) != want {
		return nil, fmt.Errorf("%w: checksum", ErrBadSnapshot)
	}
	return r, nil
}

// Accounts returns the accounts the engine holds.
func (r *Spot) Accounts() *Accounts { return r.acct }
