// Package combine commits concurrent requests together, in the manner of
// TigerBeetle's batching: requests that arrive while a commit is in flight
// wait, and the next commit takes them as one group. There is no
// background goroutine: a waiting caller leads the next group. Up to Max
// groups may be committing at once, so one group can be applied while
// another waits for its fsync. A Commit that hands back a wait (a store
// transaction applied but not yet durable, store.Pipelined) frees its slot
// before waiting: the groups applied meanwhile then share the fsync.
//
// The ledger groups postings into one store transaction with it, and spot
// settlement its plain transactions.
package combine

import (
	"context"
	"sync"
)

// Combiner groups the requests of concurrent Do calls. Its zero value is
// not usable: Take and Commit are required.
type Combiner[Req, Res any] struct {
	// Max is how many groups may be committing at once (0 means 1).
	Max int
	// Take returns how many of the pending requests, a prefix and at least
	// one, form the next group. It is called with the combiner locked.
	Take func(pending []Req) int
	// Commit commits one group and returns each request's result, in
	// order. When it also returns a wait, the group's slot is freed first
	// and wait is called after: it finishes the commit (waits for its
	// durability) and may change the results before they are handed out.
	Commit func(ctx context.Context, group []Req) (res []Res, wait func())

	mu       sync.Mutex
	pending  []*waiter[Req, Res]
	inflight int
}

type waiter[Req, Res any] struct {
	req  Req
	res  Res
	done bool          // guarded by Combiner.mu
	poke chan struct{} // capacity 1: "done, or a commit slot may be free"
}

// Do commits req, possibly in a group with other callers' requests, and
// returns its result. The commit runs without ctx's cancellation: once a
// request is in a group, the group is committed for everyone in it.
func (c *Combiner[Req, Res]) Do(ctx context.Context, req Req) Res {
	max := c.Max
	if max < 1 {
		max = 1
	}
	w := &waiter[Req, Res]{req: req, poke: make(chan struct{}, 1)}
	c.mu.Lock()
	c.pending = append(c.pending, w)
	for !w.done {
		if c.inflight < max && len(c.pending) > 0 {
			c.inflight++
			group := c.take()
			c.mu.Unlock()
			reqs := make([]Req, len(group))
			for i, g := range group {
				reqs[i] = g.req
			}
			res, wait := c.Commit(context.WithoutCancel(ctx), reqs)
			c.mu.Lock()
			c.inflight--
			if wait != nil {
				// The slot is free: the oldest waiter leads the next group
				// while this one waits.
				if len(c.pending) > 0 {
					poke(c.pending[0])
				}
				c.mu.Unlock()
				wait()
				c.mu.Lock()
			}
			for i, g := range group {
				g.res, g.done = res[i], true
				if g != w {
					poke(g)
				}
			}
			continue
		}
		c.mu.Unlock()
		<-w.poke
		c.mu.Lock()
	}
	// Hand a free slot to the oldest waiter, so no caller serves others
	// indefinitely and nobody waits for a leader that left.
	if len(c.pending) > 0 && c.inflight < max {
		poke(c.pending[0])
	}
	c.mu.Unlock()
	return w.res
}

// State reports how many requests wait and how many groups are committing
// (tests and diagnostics).
func (c *Combiner[Req, Res]) State() (pending, inflight int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending), c.inflight
}

// take removes the next group from pending. Called with mu held and
// pending not empty.
func (c *Combiner[Req, Res]) take() []*waiter[Req, Res] {
	reqs := make([]Req, len(c.pending))
	for i, w := range c.pending {
		reqs[i] = w.req
	}
	n := c.Take(reqs)
	if n < 1 {
		n = 1
	}
	if n > len(c.pending) {
		n = len(c.pending)
	}
	group := append([]*waiter[Req, Res](nil), c.pending[:n]...)
	c.pending = append(c.pending[:0], c.pending[n:]...)
	return group
}

func poke[Req, Res any](w *waiter[Req, Res]) {
	select {
	case w.poke <- struct{}{}:
	default:
	}
}

// Prefix is a Take for groups that become one transaction: it returns how
// many of the pending requests, a prefix and at least one, fit together
// with their costs summing to at most max and no key claimed twice (a
// transaction may write an item only once).
func Prefix[Req any, K comparable](pending []Req, max int, cost func(Req) int, keys func(Req) []K) int {
	taken := make(map[K]bool, 16)
	n, total := 0, 0
	for _, r := range pending {
		c := cost(r)
		if n > 0 && total+c > max {
			break
		}
		ks := keys(r)
		clash := false
		for _, k := range ks {
			clash = clash || taken[k]
		}
		if n > 0 && clash {
			break
		}
		for _, k := range ks {
			taken[k] = true
		}
		total += c
		n++
	}
	return n
}
