// Package projector writes the engine's batches into the store behind it:
// the balances the engine owns (their values after each batch, one write
// per changed balance), one ledger posting per batch that explains them,
// whatever domain items the batch's commands carry (Options.Extras: spot's
// orders and trades), and last a checkpoint of the batch's sequence
// number. It is idempotent by batch: a batch written twice (after a crash
// between its writes and the checkpoint) writes the same items, and a
// batch at or below the checkpoint is skipped.
//
// The posting moves every change of an engine-owned balance through the
// ledger's clearing account, and the money commands' other sides (a
// deposit's chain account, a transfer's store account) into or out of it,
// so that per batch and coin the clearing account nets to zero: Apply
// refuses a batch that does not (a command whose other side is unknown),
// and ledger.Audit's replay of the postings proves the projected balances.
package projector

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/engine"
	"tenger/internal/ledger"
	"tenger/internal/risk"
	"tenger/internal/store"
)

// Extra builds a batch's domain items (written with its balances, before
// the checkpoint). It must be idempotent: the same batch gives the same
// items.
type Extra func(ctx context.Context, b *engine.Batch) ([]store.Op, error)

// Counter names the account on the other side of a money command that
// crosses the engine's boundary (a credit from a chain, a debit to an
// account the store ledger keeps, a settled withdrawal's chain and fee
// accounts): the legs of that side, each an amount in the command's coin
// (engine units). Holds and releases cross nothing: nil.
type Counter func(c *engine.Command) ([]Side, error)

// Side is one other side of a money command.
type Side struct {
	Account ledger.Account
	// Units is the amount, in the coin's engine units.
	Units int64
}

// Options configure a Projector.
type Options struct {
	Store   store.Store
	Counter Counter
	Extras  []Extra
	// Fence, when set, is a condition check that every write of the
	// projection carries in its transaction: the engine lease's term
	// (lease.Lease.Fence). An engine that lost its lease to a standby, and
	// has not noticed yet, then writes nothing more: the store refuses it
	// (ErrFenced) instead of taking balances older than the new holder's.
	Fence *store.Op
}

// Projector writes batches.
type Projector struct {
	o    Options
	last uint64 // the checkpoint, once read
	read bool
}

// New returns a projector.
func New(o Options) *Projector { return &Projector{o: o} }

// ErrFenced reports a write the store refused because the fence (the
// engine lease) no longer holds: another engine is active. Nothing of the
// transaction was written; the writer must stop.
var ErrFenced = errors.New("projector: fenced off (the engine lease has another holder)")

// fenceName names the fence's condition in a transaction.
const fenceName = "fence"

// room is how many writes one transaction of the projection takes: the
// fence takes one place.
func (p *Projector) room() int {
	if p.o.Fence != nil {
		return store.MaxTransactItems - 1
	}
	return store.MaxTransactItems
}

// transact runs ops in one transaction with the fence, if any. A failed
// fence is ErrFenced; any other failed condition is the store's error.
func (p *Projector) transact(ctx context.Context, ops []store.Op) error {
	if p.o.Fence == nil {
		return p.o.Store.Transact(ctx, ops)
	}
	all := append(append(make([]store.Op, 0, len(ops)+1), ops...), p.o.Fence.Named(fenceName))
	err := p.o.Store.Transact(ctx, all)
	if name, ok := store.FailedCondition(err, all); ok && name == fenceName {
		return fmt.Errorf("%w: %v", ErrFenced, err)
	}
	return err
}

var (
	checkpointKey = store.Key{PK: "ENGPROJ", SK: "CHECKPOINT"}
	// pendingKey names the batch being written when it takes more than
	// one transaction: a crash can leave part of it in the store, and only
	// that same batch, cut at the same commands, writes the rest right
	// (its posting ids and its orders' conditions are the batch's).
	pendingKey = store.Key{PK: "ENGPROJ", SK: "PENDING"}
)

// Resume is the last sequence number of the batch the projection had
// begun to write after its checkpoint (0 when none): the engine's recovery
// hands the commands after the checkpoint on cut at it
// (engine.Options.Resume).
func (p *Projector) Resume(ctx context.Context) (uint64, error) {
	cp, err := p.Checkpoint(ctx)
	if err != nil {
		return 0, err
	}
	it, err := p.o.Store.Get(ctx, pendingKey)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if last := uint64(it.Int("last")); last > cp {
		return last, nil
	}
	return 0, nil
}

// Checkpoint is the sequence number of the last batch written (0 when
// none): the engine's recovery hands on every command after it.
func (p *Projector) Checkpoint(ctx context.Context) (uint64, error) {
	if p.read {
		return p.last, nil
	}
	it, err := p.o.Store.Get(ctx, checkpointKey)
	switch {
	case errors.Is(err, store.ErrNotFound):
		p.last = 0
	case err != nil:
		return 0, err
	default:
		p.last = uint64(it.Int("seq"))
	}
	p.read = true
	return p.last, nil
}

// ErrUnbalanced reports a batch whose posting would not net to zero in the
// clearing account: a money command's other side is unknown, or the
// engine's balance changes do not add up. Nothing of it is written.
var ErrUnbalanced = errors.New("projector: the batch does not net to zero")

// BalanceAccount is the ledger account of a batch's balance: a user's
// (Account), or one of the futures stage's own.
func BalanceAccount(v *engine.BalanceState) ledger.Account {
	switch v.System {
	case engine.SystemSettlement:
		return ledger.SettlementAccount()
	case engine.SystemInsurance:
		return ledger.InsuranceAccount(v.Contract)
	}
	return Account(v.UserID, v.Account)
}

// Account is the ledger account of a user's engine-owned balance.
func Account(userID string, k risk.Kind) ledger.Account {
	if userID == risk.FeeUserID {
		if k == risk.KindFutures {
			return ledger.FuturesFeeAccount()
		}
		return ledger.EngineFeeAccount()
	}
	if k == risk.KindFutures {
		return ledger.UserAccount(userID, ledger.Futures)
	}
	return ledger.UserAccount(userID, ledger.Spot)
}

// Apply writes one durable batch. Batches are written in order; one at or
// below the checkpoint is skipped.
func (p *Projector) Apply(ctx context.Context, b *engine.Batch) error {
	last := b.Last()
	cp, err := p.Checkpoint(ctx)
	if err != nil {
		return err
	}
	if last == 0 || last <= cp {
		return nil
	}
	postings, ops, err := p.ops(ctx, b)
	if err != nil {
		return err
	}
	ops = append(ops, store.PutOp(store.Item{store.AttrPK: checkpointKey.PK, store.AttrSK: checkpointKey.SK,
		"seq": int64(last)}, nil))
	room := p.room()
	if len(postings)+(len(ops)+room-1)/room > 1 {
		// More than one transaction: name the batch first.
		if err := p.transact(ctx, []store.Op{store.PutOp(store.Item{store.AttrPK: pendingKey.PK, store.AttrSK: pendingKey.SK,
			"first": int64(b.Results[0].Seq), "last": int64(last)}, nil)}); err != nil {
			return fmt.Errorf("projector: batch %d: %w", last, err)
		}
	}
	// The postings first, each a transaction with the other sides'
	// balances it moves: one written before (a crash after it, before the
	// checkpoint) fails its condition and moves nothing again.
	for _, tx := range postings {
		err := p.transact(ctx, tx)
		if err != nil && (errors.Is(err, ErrFenced) || !errors.Is(err, store.ErrConditionFailed)) {
			return fmt.Errorf("projector: batch %d: %w", last, err)
		}
	}
	for len(ops) > 0 {
		n := min(len(ops), room)
		err := p.transact(ctx, ops[:n])
		if errors.Is(err, store.ErrConditionFailed) && !errors.Is(err, ErrFenced) {
			// A batch written before (a crash before its checkpoint): the
			// extras it already applied refuse by their conditions; write
			// the rest one by one.
			err = p.oneByOne(ctx, ops[:n])
		}
		if err != nil {
			return fmt.Errorf("projector: batch %d: %w", last, err)
		}
		ops = ops[n:]
	}
	p.last = last
	return nil
}

// oneByOne writes ops each on its own, skipping those whose condition
// fails (already written).
func (p *Projector) oneByOne(ctx context.Context, ops []store.Op) error {
	for _, op := range ops {
		if err := p.transact(ctx, []store.Op{op}); err != nil && (errors.Is(err, ErrFenced) || !errors.Is(err, store.ErrConditionFailed)) {
			return err
		}
	}
	return nil
}

// units turns engine units into a decimal amount of the coin.
func units(v int64, decimals int32) decimal.Decimal { return decimal.New(v, -decimals) }

// legKey nets legs of one batch.
type legKey struct {
	from, to       ledger.Account
	fromBkt, toBkt ledger.Bucket
	coin           string
}

// ops returns the batch's postings (each one transaction) and its other
// writes: the engine-owned balances, the extras.
func (p *Projector) ops(ctx context.Context, b *engine.Batch) ([][]store.Op, []store.Op, error) {
	decimals := map[string]int32{}
	net := map[legKey]int64{}
	clearing := ledger.ClearingAccount()
	move := func(from ledger.Account, fb ledger.Bucket, to ledger.Account, tb ledger.Bucket, coin string, v int64) {
		if v < 0 {
			from, fb, to, tb, v = to, tb, from, fb, -v
		}
		if v != 0 {
			net[legKey{from: from, to: to, fromBkt: fb, toBkt: tb, coin: coin}] += v
		}
	}
	sum := map[string]int64{} // per coin, into clearing minus out of it
	var ops []store.Op
	for i := range b.Balances {
		v := &b.Balances[i]
		decimals[v.Coin] = v.Decimals
		if v.Avail == v.PrevAvail && v.Held == v.PrevHeld {
			continue
		}
		a := BalanceAccount(v)
		ops = append(ops, ledger.SetBalanceOp(a, v.Coin, units(v.Avail, v.Decimals), units(v.Held, v.Decimals)))
		move(clearing, ledger.Available, a, ledger.Available, v.Coin, v.Avail-v.PrevAvail)
		move(clearing, ledger.Available, a, ledger.Frozen, v.Coin, v.Held-v.PrevHeld)
		sum[v.Coin] -= v.Avail - v.PrevAvail + v.Held - v.PrevHeld
	}
	for i := range b.Commands {
		c := &b.Commands[i]
		if b.Results[i].Code != engine.OK || !crosses(c.Kind) || p.o.Counter == nil {
			continue
		}
		sides, err := p.o.Counter(c)
		if err != nil {
			return nil, nil, fmt.Errorf("projector: command %d (%s %s): %w", b.Results[i].Seq, c.Kind, c.Ref, err)
		}
		for _, s := range sides {
			if c.Kind == engine.KindCredit {
				move(s.Account, ledger.Available, clearing, ledger.Available, c.Coin, s.Units)
				sum[c.Coin] += s.Units
			} else {
				move(clearing, ledger.Available, s.Account, ledger.Available, c.Coin, s.Units)
				sum[c.Coin] -= s.Units
			}
		}
	}
	for coin, v := range sum {
		if v != 0 {
			return nil, nil, fmt.Errorf("%w: %s is off by %d units in batch %d", ErrUnbalanced, coin, v, b.Last())
		}
	}
	var postings [][]store.Op
	if len(net) > 0 {
		keys := make([]legKey, 0, len(net))
		for k := range net {
			keys = append(keys, k)
		}
		// A canonical order: the same batch gives the same posting.
		sort.Slice(keys, func(i, j int) bool { return lessLeg(keys[i], keys[j]) })
		legs := make([]ledger.Leg, 0, len(keys))
		for _, k := range keys {
			d, ok := decimals[k.coin]
			if !ok {
				return nil, nil, fmt.Errorf("projector: no decimals for %s in batch %d", k.coin, b.Last())
			}
			legs = append(legs, ledger.Leg{From: k.from, FromBucket: k.fromBkt, To: k.to, ToBucket: k.toBkt, Coin: k.coin,
				Amount: units(net[k], d)})
		}
		at := time.UnixMilli(b.Commands[len(b.Commands)-1].At)
		meta := map[string]string{"first": strconv.FormatUint(b.Results[0].Seq, 10), "last": strconv.FormatUint(b.Last(), 10)}
		var err error
		if postings, err = postingTxs(b.Last(), legs, meta, at, p.room()); err != nil {
			return nil, nil, err
		}
	}
	for _, x := range p.o.Extras {
		more, err := x(ctx, b)
		if err != nil {
			return nil, nil, err
		}
		ops = append(ops, more...)
	}
	return postings, ops, nil
}

// engineWritten says the projector writes an account's balances
// absolutely (the engine-owned ones), or never (the clearing account,
// which nets to zero): the ledger moves every other side of a posting.
func engineWritten(a ledger.Account) bool {
	if a.Owner == ledger.SystemOwner {
		return a == ledger.ClearingAccount() || a == ledger.EngineFeeAccount() || a == ledger.FuturesFeeAccount() ||
			a.Kind == ledger.Settlement || a.Kind == ledger.Insurance
	}
	return a.Kind == ledger.Spot || a.Kind == ledger.Futures
}

// postingTxs splits a batch's legs into postings ("engine:<last seq>",
// then ":1", ":2" ...), each one transaction with the other sides'
// balances it moves. Only the batch as a whole nets to zero in the
// clearing account.
func postingTxs(last uint64, legs []ledger.Leg, meta map[string]string, at time.Time, room int) ([][]store.Op, error) {
	var out [][]store.Op
	var split func(legs []ledger.Leg) error
	split = func(legs []ledger.Leg) error {
		id := "engine:" + strconv.FormatUint(last, 10)
		if n := len(out); n > 0 {
			id += ":" + strconv.Itoa(n)
		}
		if len(legs) <= ledger.MaxProjectionLegs {
			ops, err := ledger.PostingOps(id, "engine_batch", legs, meta, at, engineWritten)
			if err != nil {
				return err
			}
			if len(ops) <= room || len(legs) == 1 {
				out = append(out, ops)
				return nil
			}
		}
		half := len(legs) / 2
		if err := split(legs[:half]); err != nil {
			return err
		}
		return split(legs[half:])
	}
	return out, split(legs)
}

// crosses says a money command moves value across the engine's boundary.
func crosses(k engine.Kind) bool {
	return k == engine.KindCredit || k == engine.KindDebit || k == engine.KindSettle
}

func lessLeg(a, b legKey) bool {
	as, bs := a.from.String()+string(a.fromBkt)+a.to.String()+string(a.toBkt)+a.coin,
		b.from.String()+string(b.fromBkt)+b.to.String()+string(b.toBkt)+b.coin
	return as < bs
}
