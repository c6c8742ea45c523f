package engine

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"slices"

	"tenger/internal/matching"
	"tenger/internal/risk"
)

// stateMagic starts a state snapshot; the last byte is the version: 4
// adds the trigger orders (their arming commands), 3 the perpetual
// contracts (their listing commands and books) and the futures risk
// state, 2 the client order ids; 1 to 3 are read still.
var stateMagic = [8]byte{'T', 'N', 'G', 'R', 'E', 'N', 'G', '4'}

// ErrBadSnapshot is returned by RestoreState for a malformed or corrupt
// snapshot.
var ErrBadSnapshot = errors.New("engine: bad snapshot")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Snapshot writes the whole state to w: the sequence, the pairs (as their
// listing commands), the risk state, every book, the refs applied, the
// open holds and the client order ids of the window, each section
// length-prefixed, then a CRC-32C of it all.
func (s *State) Snapshot(w io.Writer) error {
	var body bytes.Buffer
	le := binary.LittleEndian
	section := func(b []byte) {
		body.Write(le.AppendUint64(nil, uint64(len(b))))
		body.Write(b)
	}
	body.Write(le.AppendUint64(nil, s.seq))
	// A listed book: its listing command, then its snapshot.
	listed := func(c *Command, sym uint32) error {
		section(AppendCommand(nil, c))
		var b bytes.Buffer
		if err := s.books.Book(sym).Snapshot(&b); err != nil {
			return err
		}
		section(b.Bytes())
		return nil
	}
	syms := slices.Sorted(maps.Keys(s.pairs)) // the books of pairs (contracts' follow)
	body.Write(le.AppendUint64(nil, uint64(len(syms))))
	for _, sym := range syms {
		if err := listed(&Command{Kind: KindAddPair, Pair: s.pairs[sym]}, sym); err != nil {
			return err
		}
	}
	var rb bytes.Buffer
	if err := s.spot.Snapshot(&rb); err != nil {
		return err
	}
	section(rb.Bytes())
	keys := make([]string, 0, len(s.refs))
	for k := range s.refs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	body.Write(le.AppendUint64(nil, uint64(len(keys))))
	for _, k := range keys {
		section([]byte(k))
		body.Write(le.AppendUint64(nil, s.refs[k]))
	}
	keys = keys[:0]
	for k := range s.holds {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	body.Write(le.AppendUint64(nil, uint64(len(keys))))
	for _, k := range keys {
		h := s.holds[k]
		section([]byte(k))
		for _, v := range []uint64{uint64(h.slot), uint64(h.account), uint64(h.coin), uint64(h.amount)} {
			body.Write(le.AppendUint64(nil, v))
		}
	}
	body.Write(le.AppendUint64(nil, uint64(len(s.coidOrder))))
	for _, k := range s.coidOrder {
		e := s.coids[k]
		section([]byte(k))
		for _, v := range []uint64{e.order, e.digest, uint64(e.at)} {
			body.Write(le.AppendUint64(nil, v))
		}
	}
	contracts := slices.Sorted(maps.Keys(s.contracts))
	body.Write(le.AppendUint64(nil, uint64(len(contracts))))
	for _, sym := range contracts {
		if err := listed(&Command{Kind: KindAddContract, Contract: s.contracts[sym]}, sym); err != nil {
			return err
		}
	}
	var fb bytes.Buffer
	if err := s.fut.Snapshot(&fb); err != nil {
		return err
	}
	section(fb.Bytes())
	body.Write(s.appendTriggers(nil, func(b []byte) []byte {
		return append(le.AppendUint64(nil, uint64(len(b))), b...)
	}))
	bw := bufio.NewWriter(w)
	bw.Write(stateMagic[:])
	bw.Write(body.Bytes())
	bw.Write(le.AppendUint32(nil, crc32.Checksum(body.Bytes(), castagnoli)))
	return bw.Flush()
}

// RestoreState reads a state snapshot.
func RestoreState(r io.Reader) (*State, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(data) < len(stateMagic)+4 || !bytes.Equal(data[:7], stateMagic[:7]) || data[7] < '1' || data[7] > '4' {
		return nil, fmt.Errorf("%w: no state snapshot header", ErrBadSnapshot)
	}
	version := data[7]
	body := data[8 : len(data)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, fmt.Errorf("%w: checksum", ErrBadSnapshot)
	}
	rd := &reader{b: body}
	section := func() []byte {
		n := rd.u64()
		if n > uint64(len(rd.b)) {
			rd.err = ErrCodec
			return nil
		}
		return rd.take(int(n))
	}
	s := &State{out: matching.NewEventBuffer(4096), coins: map[string]risk.Coin{}, pairs: map[uint32]PairSpec{},
		refs: map[string]uint64{}, holds: map[string]hold{}, coids: map[string]clientOrder{}, contracts: map[uint32]ContractSpec{}}
	s.initTriggers()
	s.books = matching.NewBooks(s.out)
	s.seq = rd.u64()
	n := rd.u64()
	var books [][]byte
	for i := uint64(0); i < n && rd.err == nil; i++ {
		var c Command
		if err := DecodeCommand(section(), &c); err != nil || c.Kind != KindAddPair {
			return nil, fmt.Errorf("%w: pair %d", ErrBadSnapshot, i)
		}
		s.pairs[c.Pair.Symbol] = c.Pair
		books = append(books, section())
	}
	spot, err := risk.RestoreSpot(bytes.NewReader(section()), 1<<14)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadSnapshot, err)
	}
	s.spot, s.acct = spot, spot.Accounts()
	for i, c := range s.acct.Coins() {
		s.coins[c.Code] = risk.Coin(i)
	}
	syms := make([]uint32, 0, len(s.pairs))
	for sym := range s.pairs {
		syms = append(syms, sym)
	}
	slices.Sort(syms)
	for i, sym := range syms {
		cfg := s.pairs[sym].Book
		cfg.Symbol = sym
		b := matching.NewBook(cfg, s.out)
		if err := b.Restore(bytes.NewReader(books[i])); err != nil {
			return nil, fmt.Errorf("%w: book %d: %v", ErrBadSnapshot, sym, err)
		}
		if err := s.books.Add(b); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadSnapshot, err)
		}
	}
	for range rd.u64() {
		if rd.err != nil {
			break
		}
		k := string(section())
		s.refs[k] = rd.u64()
	}
	for range rd.u64() {
		if rd.err != nil {
			break
		}
		k := string(section())
		s.holds[k] = hold{slot: risk.Slot(rd.u64()), account: risk.Kind(rd.u64()), coin: risk.Coin(rd.u64()), amount: int64(rd.u64())}
	}
	if version >= '2' {
		for range rd.u64() {
			if rd.err != nil {
				break
			}
			k := string(section())
			s.coids[k] = clientOrder{order: rd.u64(), digest: rd.u64(), at: int64(rd.u64())}
		}
		s.sortClientIDs()
	}
	if version >= '3' {
		for i := range rd.u64() {
			if rd.err != nil {
				break
			}
			var c Command
			if err := DecodeCommand(section(), &c); err != nil || c.Kind != KindAddContract {
				return nil, fmt.Errorf("%w: contract %d", ErrBadSnapshot, i)
			}
			cfg := c.Contract.Book
			cfg.Symbol = c.Contract.Symbol
			b := matching.NewBook(cfg, s.out)
			if err := b.Restore(bytes.NewReader(section())); err != nil {
				return nil, fmt.Errorf("%w: contract book %d: %v", ErrBadSnapshot, cfg.Symbol, err)
			}
			if err := s.books.Add(b); err != nil {
				return nil, fmt.Errorf("%w: %v", ErrBadSnapshot, err)
			}
			s.contracts[c.Contract.Symbol] = c.Contract
		}
		fut, err := risk.RestoreFutures(bytes.NewReader(section()), s.acct)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadSnapshot, err)
		}
		s.fut = fut
	} else {
		s.fut = risk.NewFutures(s.acct)
	}
	if version >= '4' {
		for i := range rd.u64() {
			if rd.err != nil {
				break
			}
			var c Command
			if err := DecodeCommand(section(), &c); err != nil || !s.restoreTrigger(&c, rd.u8()) {
				return nil, fmt.Errorf("%w: trigger %d", ErrBadSnapshot, i)
			}
		}
	}
	if rd.err != nil || len(rd.b) != 0 {
		return nil, fmt.Errorf("%w: layout", ErrBadSnapshot)
	}
	return s, nil
}
