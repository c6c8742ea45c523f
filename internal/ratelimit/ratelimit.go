// Package ratelimit limits how often something may happen, with its state in
// the storage port so the limit holds across every process that shares the
// table (one `tenger serve`, or many Lambda instances on DynamoDB).
//
// Two kinds of limit:
//
//   - Allow: a fixed-window counter. Each window of a key is one item whose
//     counter is raised by an atomic Update(Add) under the condition that it
//     is still below the limit, so concurrent callers can never exceed it.
//   - Failures: a lock-out counter for failed attempts (sign-in). Failures
//     within a window count up; the one that reaches the limit locks the key
//     for a whole window from that moment. It is kept with optimistic
//     concurrency (version check) so concurrent failures are all counted.
//
// Items (all with a ttl so the store expires them):
//
//	pk "RL#<key>"  sk "W#<window start, unix seconds>"  attrs n
//	pk "RLF#<key>" sk "F"                               attrs n, first (ms), lockedUntil (ms), ver
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"tenger/internal/store"
)

// Decision is the answer of a limiter.
type Decision struct {
	Allowed bool
	// RetryAfter is how long the caller must wait when not allowed.
	RetryAfter time.Duration
	// Count is the number of events counted in the current window after this
	// call (attempts for Allow, failures for Fail).
	Count int
}

// RetryAfterSeconds rounds RetryAfter up to whole seconds (at least 1 when
// not allowed), the unit clients are told.
func (d Decision) RetryAfterSeconds() int {
	if d.Allowed {
		return 0
	}
	s := int((d.RetryAfter + time.Second - 1) / time.Second)
	if s < 1 {
		s = 1
	}
	return s
}

// Limiter keeps rate-limit state in a store.
type Limiter struct {
	st  store.Store
	now func() time.Time
}

// New returns a limiter on st; now is the clock (nil means time.Now).
func New(st store.Store, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{st: st, now: now}
}

// Allow counts one event for key in the current fixed window of length
// window and reports whether it is within limit. A refused event is not
// counted.
func (l *Limiter) Allow(ctx context.Context, key string, limit int, window time.Duration) (Decision, error) {
	if limit <= 0 || window < time.Second {
		return Decision{}, fmt.Errorf("ratelimit: bad limit %d/%s", limit, window)
	}
	now := l.now()
	w := int64(window / time.Second)
	start := now.Unix() / w * w
	end := time.Unix(start+w, 0)
	k := store.Key{PK: "RL#" + key, SK: "W#" + strconv.FormatInt(start, 10)}
	upd := store.NewUpdate().AddInt("n", 1).SetIfMissing(store.AttrTTL, start+w+60)
	cond := store.Or(store.NotExists("n"), store.Compare("n", store.CmpLt, limit))
	it, err := l.st.Update(ctx, k, upd, cond)
	if errors.Is(err, store.ErrConditionFailed) {
		return Decision{Allowed: false, RetryAfter: end.Sub(now), Count: limit}, nil
	}
	if err != nil {
		return Decision{}, err
	}
	return Decision{Allowed: true, Count: int(it.Int("n"))}, nil
}

// Check reports whether key is locked out by Fail, without counting anything.
func (l *Limiter) Check(ctx context.Context, key string) (Decision, error) {
	it, err := l.st.Get(ctx, failKey(key))
	if errors.Is(err, store.ErrNotFound) {
		return Decision{Allowed: true}, nil
	}
	if err != nil {
		return Decision{}, err
	}
	now := l.now()
	if until := time.UnixMilli(it.Int("lockedUntil")); until.After(now) {
		return Decision{Allowed: false, RetryAfter: until.Sub(now), Count: int(it.Int("n"))}, nil
	}
	return Decision{Allowed: true, Count: int(it.Int("n"))}, nil
}

// Fail records one failure for key. Failures count within window from the
// first one; the failure that reaches limit locks the key for window from
// now, and the returned decision is then not allowed.
func (l *Limiter) Fail(ctx context.Context, key string, limit int, window time.Duration) (Decision, error) {
	if limit <= 0 || window <= 0 {
		return Decision{}, fmt.Errorf("ratelimit: bad limit %d/%s", limit, window)
	}
	k := failKey(key)
	for attempt := 0; attempt < 50; attempt++ {
		now := l.now()
		cur, err := l.st.Get(ctx, k)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return Decision{}, err
		}
		ver := cur.Int(store.AttrVersion)
		n, first, locked := cur.Int("n"), cur.Int("first"), cur.Int("lockedUntil")
		if cur == nil || now.UnixMilli() >= first+window.Milliseconds() && now.UnixMilli() >= locked {
			n, first, locked = 0, now.UnixMilli(), 0
		}
		n++
		if n >= int64(limit) && locked <= now.UnixMilli() {
			locked = now.Add(window).UnixMilli()
		}
		expire := max(first+window.Milliseconds(), locked)/1000 + 60
		item := store.Item{
			store.AttrPK: k.PK, store.AttrSK: k.SK,
			"n": n, "first": first, "lockedUntil": locked,
			store.AttrTTL: expire, store.AttrVersion: ver + 1,
		}
		err = l.st.Put(ctx, item, store.VersionIs(ver))
		if errors.Is(err, store.ErrConditionFailed) {
			continue // a concurrent failure won; count again on top of it
		}
		if err != nil {
			return Decision{}, err
		}
		if locked > now.UnixMilli() {
			return Decision{Allowed: false, RetryAfter: time.UnixMilli(locked).Sub(now), Count: int(n)}, nil
		}
		return Decision{Allowed: true, Count: int(n)}, nil
	}
	return Decision{}, errors.New("ratelimit: too much contention on " + key)
}

// Reset clears the failures of key (after a success).
func (l *Limiter) Reset(ctx context.Context, key string) error {
	return l.st.Delete(ctx, failKey(key), nil)
}

func failKey(key string) store.Key { return store.Key{PK: "RLF#" + key, SK: "F"} }
