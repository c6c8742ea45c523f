package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/combine"
	"tenger/internal/engine/journal"
	"tenger/internal/matching"
	"tenger/internal/risk"
)

// Options configure an Engine.
type Options struct {
	// Dir holds the journal (Dir/journal) and the snapshots
	// (Dir/snapshots/<seq>.snap).
	Dir    string
	Policy journal.Policy
	// MaxBatch is the most commands one group commit takes (default 1024).
	MaxBatch int
	// Checkpoint reads the last sequence number the store projection holds.
	// Recovery restores the newest snapshot at or below it and hands every
	// command after it to Deliver again, so a crash between the journal and
	// the projection loses nothing. nil: none is kept (tests).
	Checkpoint func(ctx context.Context) (uint64, error)
	// Resume reads the last sequence number of the batch the projection
	// had begun to write after its checkpoint (0: none). Recovery cuts the
	// first batch it hands on there, so that batch is the one the
	// projection began, with the same commands. nil: none.
	Resume func(ctx context.Context) (uint64, error)
	// Deliver receives every durable batch in sequence order (after
	// recovery, first the journaled commands the projection lacks). It is
	// called from the goroutine that committed the batch: hand the batch on
	// (to the projector's queue) and return.
	Deliver func(b *Batch)
	// Replayed receives, during recovery, the commands the projection
	// already has (after the snapshot, at or below the checkpoint) with
	// their results and events, in batches without balances: market data
	// that applies trades behind the projection may lack some of them
	// (it skips what it has). nil: none.
	Replayed func(b *Batch)
	Now      func() time.Time
	Log      zerolog.Logger
}

// Batch is one group commit: its commands with their results and the book
// events of each (Events[Ends[i-1]:Ends[i]] are command i's), and the
// value after it of every balance it changed, once each (the projection
// writes these, netted, instead of replaying the changes).
type Batch struct {
	Commands []Command
	Results  []Result
	Events   []matching.Event
	Ends     []int
	// Fees are the fees of the batch's trade events, in their order.
	Fees     []risk.TradeFee
	Balances []BalanceState
	// Liquidatable are the positions the batch's marks made liquidatable
	// (State.Liquidatable): the runtime sends their liquidation steps.
	Liquidatable []risk.PositionRef
	// Positions are the futures positions the batch changed, as it left
	// them, once each.
	Positions []risk.PositionState
	// Funding are the payments of the batch's funding rounds.
	Funding []FundingPaid
	// Triggered are the trigger orders the batch's prices reached: the
	// runtime sends their KindTriggerFire.
	Triggered []TriggerRef
	// Dropped are the trigger orders cancelled because the order they
	// waited for ended unfilled (TriggerSpec.Parent).
	Dropped []TriggerRef
	// Closed are the futures positions the batch closed.
	Closed []ClosedPosition
	// Users maps the user numbers the batch's events name to the users'
	// ids in the store.
	Users map[uint64]string
}

// BalanceState is a balance's value before and after a batch, in engine
// units (10^-Decimals of the coin).
type BalanceState struct {
	User      uint64
	UserID    string
	Account   risk.Kind
	Coin      string
	Decimals  int32
	Avail     int64
	Held      int64
	PrevAvail int64
	PrevHeld  int64
	// System is set on the futures stage's own balances, which belong to
	// no user (User 0, Account KindFutures, Held 0): SystemSettlement, a
	// margin coin's settlement balance (it may be negative: the open
	// positions' losses back it), or SystemInsurance, the insurance fund
	// of the contract named by Contract.
	System   string
	Contract string
}

// The system balances of BalanceState.System.
const (
	SystemSettlement = "settlement"
	SystemInsurance  = "insurance"
)

// nameUsers fills b.Users for the users b's events name.
func nameUsers(st *State, b *Batch) {
	if b.Users == nil {
		b.Users = map[uint64]string{}
	}
	users := st.acct.Users()
	name := func(num uint64) {
		if _, ok := b.Users[num]; ok || num == 0 {
			return
		}
		if s := st.acct.Slot(num); s != risk.NoSlot {
			b.Users[num] = users[s].ID
		}
	}
	for i := range b.Events {
		name(b.Events[i].UserID)
		name(b.Events[i].MakerUserID)
	}
}

// takeChanged moves the balances changed since the last call into b.
func takeChanged(st *State, b *Batch) {
	coins := st.acct.Coins()
	st.acct.Changed(func(u *risk.User, k risk.Kind, c risk.Coin, was, v risk.Balance) {
		b.Balances = append(b.Balances, BalanceState{User: u.Num, UserID: u.ID, Account: k, Coin: coins[c].Code,
			Decimals: coins[c].Decimals, Avail: v.Avail, Held: v.Held, PrevAvail: was.Avail, PrevHeld: was.Held})
	})
	for _, v := range st.fut.SystemChanged() {
		bs := BalanceState{Account: risk.KindFutures, Coin: coins[v.Coin].Code, Decimals: coins[v.Coin].Decimals,
			Avail: v.Now, PrevAvail: v.Before, System: SystemSettlement}
		if v.Contract != 0 {
			bs.System, bs.Contract = SystemInsurance, st.contracts[v.Contract].Name
		}
		b.Balances = append(b.Balances, bs)
	}
	st.fut.PositionsChanged(func(p risk.PositionState) { b.Positions = append(b.Positions, p) })
	st.clearChanged()
}

// clearChanged forgets the changed balances (those of commands the store
// has already).
func (st *State) clearChanged() {
	st.acct.ClearChanged()
	st.fut.ClearChanged()
}

// EventsOf returns command i's events.
func (b *Batch) EventsOf(i int) []matching.Event {
	from := 0
	if i > 0 {
		from = b.Ends[i-1]
	}
	return b.Events[from:b.Ends[i]]
}

// Last is the sequence number of the batch's last command (0 when empty).
func (b *Batch) Last() uint64 {
	if len(b.Results) == 0 {
		return 0
	}
	return b.Results[len(b.Results)-1].Seq
}

// ErrStopped is what Submit answers (as Code Unavailable) once the engine
// stopped or its journal failed.
var ErrStopped = errors.New("engine: stopped")

// Unavailable is the answer to a command the engine could not make
// durable: the journal failed or the engine stopped. It is not a Code of
// the state machine: nothing about the command is known.
const Unavailable = codeEnd + 1

// Engine runs the state machine behind its journal: commands submitted
// concurrently are applied in groups (group commit), each group journaled
// with one fsync, and every command answered only once its group is
// durable. While one group waits for the disk, the next is applied.
type Engine struct {
	o    Options
	jrnl *journal.Log
	comb *combine.Combiner[Command, Result]

	mu  sync.Mutex // the apply stage: State and the journal's order
	st  *State
	enc []byte
	// handed is closed once the last group applied has been handed on:
	// each group waits for its predecessor's, so batches are delivered in
	// the order they were applied whichever fsync returns first, and only
	// the next group wakes.
	handed chan struct{}
	// undelivered is set once a group was not handed on (its sync
	// failed); no later group is. Read and written only by the hand-over,
	// which the handed chain orders.
	undelivered bool
	broken      error // set when the journal failed: nothing is answered OK any more
}

// Open restores the engine from its snapshots and journal.
func Open(ctx context.Context, o Options) (*Engine, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 1024
	}
	if o.Deliver == nil {
		o.Deliver = func(*Batch) {}
	}
	e := &Engine{o: o}
	e.handed = make(chan struct{})
	close(e.handed)
	checkpoint := ^uint64(0)
	if o.Checkpoint != nil {
		var err error
		if checkpoint, err = o.Checkpoint(ctx); err != nil {
			return nil, fmt.Errorf("engine: projection checkpoint: %w", err)
		}
	}
	var resume uint64
	if o.Resume != nil {
		var err error
		if resume, err = o.Resume(ctx); err != nil {
			return nil, fmt.Errorf("engine: projection resume point: %w", err)
		}
	}
	started := time.Now()
	st, snapSeq, err := e.loadSnapshot(checkpoint)
	if err != nil {
		return nil, err
	}
	e.st = st
	if e.jrnl, err = journal.Open(filepath.Join(o.Dir, "journal"), o.Policy); err != nil {
		return nil, err
	}
	// Replay what the journal holds after the snapshot, handing on what
	// the projection lacks.
	b, seen := &Batch{}, &Batch{}
	replayed := 0
	err = e.jrnl.Replay(st.Seq(), func(seq uint64, payload []byte) error {
		var c Command
		if err := DecodeCommand(payload, &c); err != nil {
			return fmt.Errorf("engine: journal record %d: %w", seq, err)
		}
		res := st.Apply(&c)
		if res.Seq != seq {
			return fmt.Errorf("engine: journal record %d replayed as %d: a gap in the journal", seq, res.Seq)
		}
		replayed++
		if seq <= checkpoint {
			// The store has it: its balance changes are no batch's.
			st.clearChanged()
			if o.Replayed != nil {
				seen.Commands = append(seen.Commands, c)
				seen.Results = append(seen.Results, res)
				seen.Events = append(seen.Events, st.Events()...)
				seen.Ends = append(seen.Ends, len(seen.Events))
				if len(seen.Commands) >= o.MaxBatch || seq == checkpoint {
					o.Replayed(seen)
					seen = &Batch{}
				}
			}
		}
		if seq > checkpoint {
			b.Commands = append(b.Commands, c)
			b.Results = append(b.Results, res)
			b.Events = append(b.Events, st.Events()...)
			b.Ends = append(b.Ends, len(b.Events))
			b.Fees = append(b.Fees, st.Fees()...)
			b.Liquidatable = append(b.Liquidatable, st.Liquidatable()...)
			b.Funding = append(b.Funding, st.Funding()...)
			b.Triggered = append(b.Triggered, st.Triggered()...)
			b.Dropped = append(b.Dropped, st.Dropped()...)
			b.Closed = append(b.Closed, st.Closed()...)
			// The batch the projection began ends where it ended; the
			// others at MaxBatch.
			if (len(b.Commands) >= o.MaxBatch && seq > resume) || seq == resume {
				takeChanged(st, b)
				nameUsers(st, b)
				o.Deliver(b)
				b = &Batch{}
			}
		}
		st.ResetEvents()
		return nil
	})
	if err != nil {
		_ = e.jrnl.Close()
		return nil, err
	}
	if len(seen.Commands) > 0 {
		o.Replayed(seen)
	}
	if len(b.Commands) > 0 {
		takeChanged(st, b)
		nameUsers(st, b)
		o.Deliver(b)
	}
	st.clearChanged()
	if err := st.Check(); err != nil {
		_ = e.jrnl.Close()
		return nil, fmt.Errorf("engine: recovered state: %w", err)
	}
	o.Log.Info().Uint64("snapshot", snapSeq).Int("replayed", replayed).Uint64("seq", st.Seq()).
		Uint64("hash", st.StateHash()).Dur("took", time.Since(started)).Msg("engine: recovered")
	e.comb = &combine.Combiner[Command, Result]{Max: 2, Take: func(p []Command) int { return min(len(p), o.MaxBatch) },
		Commit: e.commit}
	return e, nil
}

// Submit applies one command and answers once it is durable.
func (e *Engine) Submit(ctx context.Context, c Command) Result {
	return e.comb.Do(ctx, c)
}

// commit applies a group, journals it and hands back the wait for its
// fsync (the combiner frees the group's slot first, so the next group is
// applied meanwhile).
func (e *Engine) commit(_ context.Context, group []Command) ([]Result, func()) {
	res := make([]Result, len(group))
	b := &Batch{Commands: group, Results: res, Ends: make([]int, 0, len(group))}
	e.mu.Lock()
	if e.broken != nil {
		e.mu.Unlock()
		for i := range res {
			res[i] = Result{Code: Unavailable}
		}
		return res, nil
	}
	now := e.o.Now().UnixMilli()
	for i := range group {
		c := &group[i]
		c.At = now
		// The journal holds the command as it was submitted: Apply
		// rewrites some of it in place (an amendment's new total becomes
		// the book's remaining quantity against the live order), and a
		// replay must apply what the caller sent, not that result again.
		e.enc = AppendCommand(e.enc[:0], c)
		res[i] = e.st.Apply(c)
		if err := e.jrnl.Append(res[i].Seq, e.enc); err != nil {
			// The state is ahead of the journal: stop answering, and let
			// a restart recover from what the disk holds.
			e.broken = err
			e.o.Log.Error().Err(err).Msg("engine: journal append failed; the engine stops")
			for j := range res {
				res[j] = Result{Code: Unavailable}
			}
			e.mu.Unlock()
			return res, nil
		}
		b.Events = append(b.Events, e.st.Events()...)
		b.Ends = append(b.Ends, len(b.Events))
		b.Fees = append(b.Fees, e.st.Fees()...)
		b.Liquidatable = append(b.Liquidatable, e.st.Liquidatable()...)
		b.Funding = append(b.Funding, e.st.Funding()...)
		b.Triggered = append(b.Triggered, e.st.Triggered()...)
		b.Dropped = append(b.Dropped, e.st.Dropped()...)
		b.Closed = append(b.Closed, e.st.Closed()...)
		e.st.ResetEvents()
	}
	takeChanged(e.st, b)
	nameUsers(e.st, b)
	prev, handed := e.handed, make(chan struct{})
	e.handed = handed
	e.mu.Unlock()
	return res, func() {
		if err := e.jrnl.Sync(); err != nil {
			e.mu.Lock()
			if e.broken == nil {
				e.broken = err
				e.o.Log.Error().Err(err).Msg("engine: journal sync failed; the engine stops")
			}
			e.mu.Unlock()
			for j := range res {
				res[j] = Result{Code: Unavailable}
			}
		}
		// Hand batches on in the order they were applied, whichever
		// fsync returned first. Once a batch is not handed on (its sync
		// failed), no later one is: the projection would write the later
		// batch's balances and checkpoint and never the skipped one's. The
		// engine is stopped by then; recovery hands on both.
		<-prev
		if res[0].Code != Unavailable && !e.undelivered {
			e.o.Deliver(b)
		} else {
			e.undelivered = true
		}
		close(handed)
	}
}

// Read runs fn on the state between groups (queries, audits, tests).
func (e *Engine) Read(fn func(s *State)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	fn(e.st)
}

// snapshotName is a snapshot's file name.
func snapshotName(seq uint64) string { return fmt.Sprintf("%020d.snap", seq) }

// snapshots lists the sequence numbers of the snapshot files, ascending.
func (e *Engine) snapshots() ([]uint64, error) {
	entries, err := os.ReadDir(filepath.Join(e.o.Dir, "snapshots"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []uint64
	for _, de := range entries {
		if seq, err := strconv.ParseUint(strings.TrimSuffix(de.Name(), ".snap"), 10, 64); err == nil &&
			strings.HasSuffix(de.Name(), ".snap") {
			out = append(out, seq)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

// loadSnapshot restores the newest snapshot at or below the projection's
// checkpoint (an empty state when there is none).
func (e *Engine) loadSnapshot(checkpoint uint64) (*State, uint64, error) {
	seqs, err := e.snapshots()
	if err != nil {
		return nil, 0, err
	}
	for i := len(seqs) - 1; i >= 0; i-- {
		if seqs[i] > checkpoint {
			continue
		}
		f, err := os.Open(filepath.Join(e.o.Dir, "snapshots", snapshotName(seqs[i])))
		if err != nil {
			return nil, 0, err
		}
		st, err := RestoreState(f)
		f.Close()
		if err != nil {
			e.o.Log.Warn().Err(err).Uint64("seq", seqs[i]).Msg("engine: snapshot unusable; trying an older one")
			continue
		}
		return st, seqs[i], nil
	}
	return NewState(), 0, nil
}

// Snapshot writes the state as it is between groups to a new snapshot
// file, starts a new journal segment, and deletes what the projection no
// longer needs: snapshots older than the newest one at or below
// checkpoint, and the journal segments that one covers.
func (e *Engine) Snapshot(checkpoint uint64) error {
	dir := filepath.Join(e.o.Dir, "snapshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".snap-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	e.mu.Lock()
	seq := e.st.Seq()
	err = e.st.Snapshot(tmp)
	if err == nil {
		err = e.jrnl.Rotate()
	}
	e.mu.Unlock()
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, snapshotName(seq))); err != nil {
		return err
	}
	seqs, err := e.snapshots()
	if err != nil {
		return err
	}
	// Keep the newest usable snapshot (at or below the checkpoint) and
	// every newer one; drop the journal that snapshot covers.
	keep := -1
	for i, s := range seqs {
		if s <= checkpoint {
			keep = i
		}
	}
	if keep < 0 {
		return nil
	}
	for _, s := range seqs[:keep] {
		if err := os.Remove(filepath.Join(dir, snapshotName(s))); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return e.jrnl.DropThrough(seqs[keep])
}

// Crash stops the engine as kill -9 would (crash tests): the journal's
// unwritten tail is lost, commands waiting for their fsync are answered
// Unavailable, nothing more is delivered, and nothing is snapshotted.
func (e *Engine) Crash() {
	e.mu.Lock()
	if e.broken == nil {
		e.broken = ErrStopped
	}
	e.mu.Unlock()
	e.jrnl.Abandon()
}

// Close stops the engine: it waits for nothing in flight (callers stop
// submitting first) and closes the journal.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.broken == nil {
		e.broken = ErrStopped
	}
	e.mu.Unlock()
	return e.jrnl.Close()
}

// Merge joins consecutive batches into one, as if they had been one group
// commit: commands, results and events in order, each balance once with
// its value before the first and after the last. The projection writes
// batches that queued behind a slow store as one (recovery then cuts the
// journal where the merged batch ended: Options.Resume).
func Merge(bs []*Batch) *Batch {
	if len(bs) == 1 {
		return bs[0]
	}
	out := &Batch{Users: map[uint64]string{}}
	type key struct {
		user             uint64
		account          risk.Kind
		coin             string
		system, contract string
	}
	at := map[key]int{}
	type posKey struct {
		user     uint64
		contract uint32
	}
	atPos := map[posKey]int{}
	for _, b := range bs {
		base := len(out.Events)
		out.Commands = append(out.Commands, b.Commands...)
		out.Results = append(out.Results, b.Results...)
		out.Events = append(out.Events, b.Events...)
		for _, e := range b.Ends {
			out.Ends = append(out.Ends, base+e)
		}
		out.Fees = append(out.Fees, b.Fees...)
		out.Liquidatable = append(out.Liquidatable, b.Liquidatable...)
		out.Funding = append(out.Funding, b.Funding...)
		out.Triggered = append(out.Triggered, b.Triggered...)
		out.Dropped = append(out.Dropped, b.Dropped...)
		out.Closed = append(out.Closed, b.Closed...)
		for _, v := range b.Balances {
			k := key{v.User, v.Account, v.Coin, v.System, v.Contract}
			if i, ok := at[k]; ok {
				out.Balances[i].Avail, out.Balances[i].Held = v.Avail, v.Held
				continue
			}
			at[k] = len(out.Balances)
			out.Balances = append(out.Balances, v)
		}
		for _, p := range b.Positions {
			k := posKey{p.User, p.Contract}
			if i, ok := atPos[k]; ok {
				out.Positions[i] = p
				continue
			}
			atPos[k] = len(out.Positions)
			out.Positions = append(out.Positions, p)
		}
		for n, id := range b.Users {
			out.Users[n] = id
		}
	}
	return out
}
