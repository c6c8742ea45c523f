// Package lease keeps one engine active at a time: the active engine holds
// a lease item in the store (a DynamoDB item in AWS) and renews it well
// before it expires; a standby waits, replaying the journal, until the
// lease has lapsed, then takes it with a higher term. An engine that
// cannot renew stops taking commands before its lease can lapse (Keep),
// so two engines never write the journal at once.
package lease

import (
	"context"
	"errors"
	"fmt"
	"time"

	"tenger/internal/store"
)

// leasePK is the partition of lease items.
const leasePK = "ENGLEASE"

// ErrLost reports that the lease is held by another owner, or lapsed.
var ErrLost = errors.New("lease: lost")

// Lease is one owner's claim on a named lease.
type Lease struct {
	st    store.Store
	key   store.Key
	owner string
	ttl   time.Duration
	now   func() time.Time

	term    int64
	expires time.Time
	// addr is where the holder serves (Advertise), written with the lease.
	addr string
}

// Advertise sets the address written into the lease item with every
// acquisition ("10.0.1.23:8082"): the item is the service-discovery
// record of the active engine, so callers reach the holder (Lookup) and
// never a standby or a stopped engine.
func (l *Lease) Advertise(addr string) { l.addr = addr }

// Holder is what a lease item says.
type Holder struct {
	Owner     string
	Addr      string
	Term      int64
	ExpiresAt time.Time
}

// Lookup reads the lease name's holder; ok is false when nobody holds it
// (never taken, released or lapsed at now).
func Lookup(ctx context.Context, st store.Store, name string, now time.Time) (h Holder, ok bool, err error) {
	it, err := st.Get(ctx, store.Key{PK: leasePK, SK: name})
	if errors.Is(err, store.ErrNotFound) {
		return Holder{}, false, nil
	}
	if err != nil {
		return Holder{}, false, err
	}
	h = Holder{Owner: it.Str("owner"), Addr: it.Str("addr"), Term: it.Int("term"), ExpiresAt: time.UnixMilli(it.Int("expiresAt"))}
	return h, !h.ExpiresAt.Before(now), nil
}

// New returns owner's claim (not yet held) on the lease name.
func New(st store.Store, name, owner string, ttl time.Duration, now func() time.Time) *Lease {
	if now == nil {
		now = time.Now
	}
	return &Lease{st: st, key: store.Key{PK: leasePK, SK: name}, owner: owner, ttl: ttl, now: now}
}

// Term is the term of the held lease (0 when not held): it grows with
// every new holder, for fencing.
func (l *Lease) Term() int64 { return l.term }

// Fence is a condition check on the lease item that holds while this
// owner's term is the lease's: a write that carries it in its transaction
// (projector.Options.Fence) is refused once another engine has taken the
// lease, even when this one has not noticed yet (a long pause, a
// partition). ok is false when the lease is not held.
func (l *Lease) Fence() (op store.Op, ok bool) {
	if l.term == 0 {
		return store.Op{}, false
	}
	return store.CheckOp(l.key, store.And(store.Compare("term", store.CmpEq, l.term),
		store.Compare("owner", store.CmpEq, l.owner))), true
}

// TryAcquire takes the lease when it is free, lapsed or already ours.
func (l *Lease) TryAcquire(ctx context.Context) (bool, error) {
	now := l.now()
	it, err := l.st.Get(ctx, l.key)
	var prevTerm int64
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return false, err
	default:
		prevTerm = it.Int("term")
		if it.Str("owner") != l.owner && it.Int("expiresAt") >= now.UnixMilli() {
			return false, nil // held by another, not lapsed
		}
	}
	term := prevTerm
	if it == nil || it.Str("owner") != l.owner || l.term != prevTerm {
		term = prevTerm + 1
	}
	exp := now.Add(l.ttl)
	// Only if nobody took it since the read: the term is what was read.
	cond := store.ItemNotExists()
	if it != nil {
		cond = store.Compare("term", store.CmpEq, prevTerm)
	}
	err = l.st.Put(ctx, store.Item{store.AttrPK: l.key.PK, store.AttrSK: l.key.SK, "owner": l.owner,
		"term": term, "expiresAt": exp.UnixMilli(), "addr": l.addr}, cond)
	if errors.Is(err, store.ErrConditionFailed) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	l.term, l.expires = term, exp
	return true, nil
}

// Renew extends the held lease; ErrLost when another took it.
func (l *Lease) Renew(ctx context.Context) error {
	if l.term == 0 {
		return ErrLost
	}
	exp := l.now().Add(l.ttl)
	_, err := l.st.Update(ctx, l.key, store.NewUpdate().Set("expiresAt", exp.UnixMilli()),
		store.And(store.Compare("term", store.CmpEq, l.term), store.Compare("owner", store.CmpEq, l.owner)))
	if errors.Is(err, store.ErrConditionFailed) {
		l.term = 0
		return ErrLost
	}
	if err != nil {
		return err
	}
	l.expires = exp
	return nil
}

// Release gives the lease up (a clean stop), so a standby need not wait
// for it to lapse.
func (l *Lease) Release(ctx context.Context) error {
	if l.term == 0 {
		return nil
	}
	// Lapsed at once, not deleted: the next holder's term still grows.
	_, err := l.st.Update(ctx, l.key, store.NewUpdate().Set("expiresAt", int64(0)),
		store.And(store.Compare("term", store.CmpEq, l.term), store.Compare("owner", store.CmpEq, l.owner)))
	l.term = 0
	if errors.Is(err, store.ErrConditionFailed) {
		return nil
	}
	return err
}

// Acquire waits until the lease is taken (polling every ttl/4) or ctx ends.
func (l *Lease) Acquire(ctx context.Context) error {
	for {
		ok, err := l.TryAcquire(ctx)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(l.ttl / 4):
		}
	}
}

// Keep renews the lease every ttl/3 until ctx ends; it calls lost and
// returns when the lease is lost, or when it could not be renewed for so
// long that it may lapse within a third of its term (the holder must stop
// writing before another can take it).
func (l *Lease) Keep(ctx context.Context, lost func(error)) {
	t := time.NewTicker(l.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		err := l.Renew(ctx)
		if err == nil {
			continue
		}
		if errors.Is(err, ErrLost) || l.now().After(l.expires.Add(-l.ttl/3)) {
			lost(fmt.Errorf("%w: %v", ErrLost, err))
			return
		}
	}
}
