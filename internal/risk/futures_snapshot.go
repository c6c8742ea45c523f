package risk

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	"tenger/internal/idmap"
	"tenger/internal/matching"
	"tenger/internal/perp"
)

// futuresMagic starts a futures snapshot (the accounts are in Spot's).
// Version 03 adds each position's side and the slots in hedge mode (an
// order's flags word carries reduce-only in its second bit); 02 is read
// with one-way positions only, 01 also without the positions' history.
var futuresMagic = [8]byte{'T', 'N', 'G', 'R', 'F', 'U', '0', '3'}

// encode writes the futures state in its canonical order: contracts with
// their marks, funds and holders; positions in record order with their
// liquidation index entries; order records in pool order with the free
// list; the settlement and uncovered balances by coin. The lookup tables
// (by symbol, by user and contract, by user) follow from these.
func (f *Futures) encode(e *encoder) {
	e.h = fnvOffset
	e.word(uint64(f.fees))
	e.word(uint64(f.fund))
	e.word(uint64(len(f.cons)))
	for i := range f.cons {
		c := &f.cons[i]
		for _, v := range []int64{int64(c.ID), int64(c.Quote), c.TickValue, c.MaxPrice, int64(c.Maker), int64(c.Taker), int64(c.LiqFee),
			c.ADLFloor, c.mark, c.insurance, int64(len(c.Tiers))} {
			e.word(uint64(v))
		}
		for _, t := range c.Tiers {
			e.word(uint64(t.Cap))
			e.word(uint64(t.MMR))
			e.word(uint64(t.MaxLeverage))
			e.word(uint64(t.Cum))
		}
		e.word(uint64(len(c.holders)))
		for _, h := range c.holders {
			e.word(uint64(h))
		}
	}
	e.word(uint64(len(f.pos)))
	for i := range f.pos {
		p := &f.pos[i]
		for _, v := range []int64{int64(p.slot), int64(p.con), p.qty, p.cost, p.margin, p.lev, boolWord(p.isolated), p.openBuy,
			p.openSell, boolWord(p.holder), p.opened, p.openQty, p.openValue, p.closeQty, p.closeValue, p.maxQty, p.realized, p.feesPd,
			int64(p.side)} {
			e.word(uint64(v))
		}
		key, in := f.cons[p.con].index.Price(int32(i))
		e.word(uint64(boolWord(in)))
		e.word(uint64(key))
	}
	e.word(uint64(len(f.orders)))
	e.word(uint64(f.free))
	for i := range f.orders {
		o := &f.orders[i]
		for _, v := range []int64{int64(o.id), o.left, o.qty, o.price, int64(o.pos), int64(o.next), int64(o.maker), int64(o.taker),
			int64(o.side), boolWord(o.liq) | boolWord(o.ro)<<1} {
			e.word(uint64(v))
		}
	}
	hedge := make([]Slot, 0, len(f.hedge))
	for s := range f.hedge {
		hedge = append(hedge, s)
	}
	slices.Sort(hedge)
	e.word(uint64(len(hedge)))
	for _, s := range hedge {
		e.word(uint64(s))
	}
	for _, m := range []map[Coin]int64{f.settle, f.uncovered} {
		coins := make([]Coin, 0, len(m))
		for c, v := range m {
			if v != 0 {
				coins = append(coins, c)
			}
		}
		slices.Sort(coins)
		e.word(uint64(len(coins)))
		for _, c := range coins {
			e.word(uint64(c))
			e.word(uint64(m[c]))
		}
	}
}

func boolWord(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// StateHash is a hash of the futures state: two engines that applied the
// same commands from the same state hash equal.
func (f *Futures) StateHash() uint64 {
	var e encoder
	f.encode(&e)
	return e.h
}

// Snapshot writes the futures state to w: the magic, the canonical state
// and its hash as a checksum.
func (f *Futures) Snapshot(w io.Writer) error { return writeSnapshot(w, futuresMagic, f.encode) }

// RestoreFutures rebuilds the futures stage from a snapshot, on the
// accounts restored from the same engine snapshot (RestoreSpot).
func RestoreFutures(rd io.Reader, acct *Accounts) (*Futures, error) {
	br := bufio.NewReaderSize(rd, 64<<10)
	var magic [8]byte
	v01, v02 := futuresMagic, futuresMagic
	v01[7], v02[7] = '1', '2'
	if _, err := io.ReadFull(br, magic[:]); err != nil || (magic != futuresMagic && magic != v01 && magic != v02) {
		return nil, fmt.Errorf("%w: no futures snapshot header", ErrBadSnapshot)
	}
	history, sides := magic != v01, magic == futuresMagic
	d := &decoder{r: br, h: fnvOffset}
	i64 := func() int64 { return int64(d.word()) }
	f := &Futures{acct: acct, conIdx: idmap.New(16), byUser: map[Slot][]int32{}, hedge: map[Slot]bool{}, settle: map[Coin]int64{},
		uncovered: map[Coin]int64{}}
	f.fees, f.fund = Slot(i64()), Slot(i64())
	nu := len(acct.users)
	if d.err == nil && (int(f.fees) >= nu || int(f.fund) >= nu || f.fees < 0 || f.fund < NoSlot) {
		d.err = fmt.Errorf("%w: fee or fund account", ErrBadSnapshot)
	}
	for range d.count(1 << 16) {
		c := futContract{index: perp.NewIndex()}
		c.ID, c.Quote, c.TickValue, c.MaxPrice = uint32(i64()), Coin(i64()), i64(), i64()
		c.Maker, c.Taker, c.LiqFee, c.ADLFloor = Rate(i64()), Rate(i64()), Rate(i64()), i64()
		c.mark, c.insurance = i64(), i64()
		for range d.count(64) {
			c.Tiers = append(c.Tiers, perp.Tier{Cap: i64(), MMR: i64(), MaxLeverage: i64(), Cum: i64()})
		}
		for range d.count(1 << 31) {
			c.holders = append(c.holders, int32(i64()))
		}
		f.conIdx.Put(uint64(c.ID), int32(len(f.cons)))
		f.cons = append(f.cons, c)
	}
	np := d.count(1 << 31)
	f.posIdx = idmap.New(max(np, 1<<10))
	type entry struct {
		in  bool
		key int64
	}
	keys := make([]entry, 0, np)
	for range np {
		p := position{slot: Slot(i64()), con: int32(i64()), qty: i64(), cost: i64(), margin: i64(), lev: i64(), isolated: i64() == 1,
			openBuy: i64(), openSell: i64(), holder: i64() == 1}
		if history {
			p.opened, p.openQty, p.openValue, p.closeQty, p.closeValue = i64(), i64(), i64(), i64(), i64()
			p.maxQty, p.realized, p.feesPd = i64(), i64(), i64()
		}
		if sides {
			p.side = PosSide(i64())
		}
		keys = append(keys, entry{in: i64() == 1, key: i64()})
		if d.err == nil && (int(p.slot) >= nu || p.slot < 0 || int(p.con) >= len(f.cons) || p.con < 0 || p.side > PosShort) {
			d.err = fmt.Errorf("%w: position %d", ErrBadSnapshot, len(f.pos))
		}
		i := int32(len(f.pos))
		f.pos = append(f.pos, p)
		f.posIdx.Put(posKey(p.slot, p.con, p.side), i)
		f.byUser[p.slot] = append(f.byUser[p.slot], i)
	}
	no := d.count(1 << 31)
	f.free = int32(i64())
	for range no {
		o := futOrder{id: d.word(), left: i64(), qty: i64(), price: i64(), pos: int32(i64()), next: int32(i64()), maker: Rate(i64()),
			taker: Rate(i64()), side: matching.Side(i64())}
		flags := i64()
		o.liq, o.ro = flags&1 != 0, flags&2 != 0
		if d.err == nil && o.id != 0 && (int(o.pos) >= len(f.pos) || o.pos < 0) {
			d.err = fmt.Errorf("%w: futures order %d", ErrBadSnapshot, o.id)
		}
		if o.id != 0 {
			f.open++
			if o.ro && d.err == nil {
				p := &f.pos[o.pos]
				if o.side == matching.Buy {
					p.roBuy += o.qty
				} else {
					p.roSell += o.qty
				}
			}
		}
		f.orders = append(f.orders, o)
	}
	if sides {
		for range d.count(1 << 31) {
			s := Slot(i64())
			if d.err == nil && (int(s) >= nu || s < 0) {
				d.err = fmt.Errorf("%w: hedge slot %d", ErrBadSnapshot, s)
			}
			f.hedge[s] = true
		}
	}
	for _, m := range []map[Coin]int64{f.settle, f.uncovered} {
		for range d.count(1 << 16) {
			c := Coin(i64())
			m[c] = i64()
		}
	}
	if d.err == nil {
		for i := range f.cons {
			for _, h := range f.cons[i].holders {
				if int(h) >= len(f.pos) || h < 0 {
					d.err = fmt.Errorf("%w: holder %d", ErrBadSnapshot, h)
				}
			}
		}
		if f.free < -1 || int(f.free) >= no {
			d.err = fmt.Errorf("%w: futures free list", ErrBadSnapshot)
		}
	}
	if d.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadSnapshot, d.err)
	}
	want := d.h
	var tail [8]byte
	if _, err := io.ReadFull(br, tail[:]); err != nil || binary.LittleEndian.Uint64(tail[:]) != want {
		return nil, fmt.Errorf("%w: futures checksum", ErrBadSnapshot)
	}
	f.posStamp, f.posGen = make([]uint32, len(f.pos)), 1
	for i, k := range keys {
		if k.in {
			p := &f.pos[i]
			f.cons[p.con].index.Set(int32(i), p.perp().Side, k.key)
		}
	}
	return f, nil
}
