package spot

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"tenger/internal/matching"
	"tenger/internal/store"
)

// The batch being settled, kept in the store.
//
// A batch is settled as many store writes that run concurrently, so a crash
// can leave it half settled: a taker's trade stored but not its Accepted
// event (the order's seq), a maker's fill stored but not its open-order
// record. With the journal, the restart replays the batch and settles it
// again, idempotently. Without it (a lost engine volume, or snapshots that
// the journal does not continue) the books are rebuilt from the store,
// which would start from that half-settled state: the batch's queue
// messages are delivered again, and a place whose Accepted was not stored
// is sequenced anew and trades a second time.
//
// So before settling a batch the engine stores its commands and events as
// one record (overwriting the previous batch's), and a rebuild first
// settles that record again, which completes the batch (settlement is
// idempotent) and leaves the store as the books were after it. The record
// is written before any of the batch's settlement, so a crash while writing
// it leaves the previous batch's record, which was settled in full. It is
// split into items of at most pendingChunk bytes (DynamoDB's item limit is
// 400 KB); every item carries the batch's first seq, and a record whose
// items do not agree (a crash while a multi-transaction record was being
// written) is one whose settlement never began, so it is ignored.
const (
	pkPending    = "SPOTBATCH"
	pendingChunk = 300 << 10
	// eventSize is an encoded matching.Event.
	eventSize = 88
)

func pendingKey(i int) store.Key { return store.Key{PK: pkPending, SK: fmt.Sprintf("%04d", i)} }

// encodePending lays out the batch: the command count, then per command its
// encoding, its event count and its events.
func encodePending(cmds []matching.Command, starts []int, evs []matching.Event) []byte {
	le := binary.LittleEndian
	out := make([]byte, 0, 4+len(cmds)*(matching.CommandSize+4)+len(evs)*eventSize)
	out = le.AppendUint32(out, uint32(len(cmds)))
	var cb [matching.CommandSize]byte
	for i := range cmds {
		end := len(evs)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		matching.EncodeCommand(cb[:], &cmds[i])
		out = append(out, cb[:]...)
		out = le.AppendUint32(out, uint32(end-starts[i]))
		for k := starts[i]; k < end; k++ {
			out = appendEvent(out, &evs[k])
		}
	}
	return out
}

func appendEvent(out []byte, ev *matching.Event) []byte {
	le := binary.LittleEndian
	for _, v := range [...]uint64{ev.Seq, ev.TradeID, ev.OrderID, ev.UserID, ev.MakerOrderID, ev.MakerUserID,
		uint64(ev.Price), uint64(ev.Qty), uint64(ev.Quote), uint64(ev.Filled)} {
		out = le.AppendUint64(out, v)
	}
	out = le.AppendUint32(out, ev.Symbol)
	return append(out, byte(ev.Kind), byte(ev.Reason), byte(ev.Side), 0)
}

var errBadPending = errors.New("spot: bad pending batch record")

// decodePending reverses encodePending.
func decodePending(b []byte) (cmds []matching.Command, starts []int, evs []matching.Event, err error) {
	le := binary.LittleEndian
	if len(b) < 4 {
		return nil, nil, nil, errBadPending
	}
	n := int(le.Uint32(b))
	b = b[4:]
	for i := 0; i < n; i++ {
		if len(b) < matching.CommandSize+4 {
			return nil, nil, nil, errBadPending
		}
		var c matching.Command
		if err := matching.DecodeCommand(b[:matching.CommandSize], &c); err != nil {
			return nil, nil, nil, err
		}
		m := int(le.Uint32(b[matching.CommandSize:]))
		b = b[matching.CommandSize+4:]
		if len(b) < m*eventSize {
			return nil, nil, nil, errBadPending
		}
		cmds = append(cmds, c)
		starts = append(starts, len(evs))
		for k := 0; k < m; k++ {
			e := b[k*eventSize:]
			evs = append(evs, matching.Event{
				Seq: le.Uint64(e), TradeID: le.Uint64(e[8:]), OrderID: le.Uint64(e[16:]), UserID: le.Uint64(e[24:]),
				MakerOrderID: le.Uint64(e[32:]), MakerUserID: le.Uint64(e[40:]),
				Price: int64(le.Uint64(e[48:])), Qty: int64(le.Uint64(e[56:])), Quote: int64(le.Uint64(e[64:])),
				Filled: int64(le.Uint64(e[72:])), Symbol: le.Uint32(e[80:]),
				Kind: matching.EventKind(e[84]), Reason: matching.Reason(e[85]), Side: matching.Side(e[86]),
			})
		}
		b = b[m*eventSize:]
	}
	if len(b) != 0 {
		return nil, nil, nil, errBadPending
	}
	return cmds, starts, evs, nil
}

// savePending stores the batch about to be settled (see above).
func savePending(ctx context.Context, st store.Store, cmds []matching.Command, starts []int, evs []matching.Event) error {
	if len(cmds) == 0 {
		return nil
	}
	data := encodePending(cmds, starts, evs)
	parts := (len(data) + pendingChunk - 1) / pendingChunk
	first := int64(cmds[0].Seq)
	ops := make([]store.Op, 0, min(parts, store.MaxTransactItems))
	for i := 0; i < parts; i++ {
		k := pendingKey(i)
		chunk := data[i*pendingChunk : min(len(data), (i+1)*pendingChunk)]
		ops = append(ops, store.PutOp(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK,
			"seq": first, "parts": int64(parts), "data": chunk}, nil))
		if len(ops) == store.MaxTransactItems || i == parts-1 {
			if err := st.Transact(ctx, ops); err != nil {
				return fmt.Errorf("spot: store the batch being settled: %w", err)
			}
			ops = ops[:0]
		}
	}
	return nil
}

// loadPending reads the stored batch; ok is false when there is none or
// its items do not make one record.
func loadPending(ctx context.Context, st store.Store) (cmds []matching.Command, starts []int, evs []matching.Event, ok bool, err error) {
	head, err := st.Get(ctx, pendingKey(0))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, nil, false, err
	}
	seq, parts := head.Int("seq"), int(head.Int("parts"))
	data := append([]byte(nil), head.Bytes("data")...)
	for i := 1; i < parts; i++ {
		it, err := st.Get(ctx, pendingKey(i))
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil, nil, false, nil
		}
		if err != nil {
			return nil, nil, nil, false, err
		}
		if it.Int("seq") != seq || int(it.Int("parts")) != parts {
			return nil, nil, nil, false, nil
		}
		data = append(data, it.Bytes("data")...)
	}
	cmds, starts, evs, err = decodePending(data)
	if err != nil {
		return nil, nil, nil, false, nil // torn across transactions: never settled
	}
	return cmds, starts, evs, true, nil
}

// settlePending settles the stored batch again before a rebuild from the
// store, so the rebuild starts from the state after it (see above).
func (e *Engine) settlePending(ctx context.Context) error {
	cmds, starts, evs, ok, err := loadPending(ctx, e.o.Store)
	if err != nil || !ok {
		return err
	}
	e.buf.Reset()
	e.buf.Events = append(e.buf.Events, evs...)
	e.batchAt = e.o.Now()
	if err := e.settleAll(ctx, cmds, starts); err != nil {
		return fmt.Errorf("spot: settle the stored batch again: %w", err)
	}
	// Market data gets these trades, if it lost them, with the others
	// after the rebuild (feedgap.go): sending them now would put them
	// ahead of earlier ones it lacks, which it would then skip.
	e.buf.Reset()
	e.o.Log.Info().Int("commands", len(cmds)).Uint64("from", cmds[0].Seq).
		Msg("spot: the last batch was settled again before the rebuild")
	return nil
}
