package engine

import (
	"hash/fnv"
	"slices"
	"time"
)

// ClientIDWindow is how long the engine remembers a client order id (a
// place command's Ref): a second place with the user's id within it is
// answered Exists with the first order's id (or Conflict when its order
// differs), in every process that submits, whichever reached the engine
// first. Later the store's client id item (written by the projection within
// milliseconds) answers retries; the window only has to outlast that.
const ClientIDWindow = time.Minute

// clientOrder is a remembered client order id: the order it placed, a
// digest of the order's note (its parameters) and when (the command's
// journaled time, so replay forgets exactly what the first run forgot).
type clientOrder struct {
	order  uint64
	digest uint64
	at     int64
}

// clientKey scopes a client order id by its user.
func clientKey(c *Command) string { return c.UserID + "\x00" + c.Ref }

func noteDigest(note []byte) uint64 {
	h := fnv.New64a()
	h.Write(note)
	return h.Sum64()
}

// forgetClientIDs drops the client order ids older than the window at the
// time of command c (ids are remembered in time order).
func (s *State) forgetClientIDs(at int64) {
	limit := at - ClientIDWindow.Milliseconds()
	n := 0
	for n < len(s.coidOrder) {
		k := s.coidOrder[n]
		if e, ok := s.coids[k]; ok && e.at > limit {
			break
		}
		delete(s.coids, k)
		n++
	}
	s.coidOrder = s.coidOrder[n:]
}

// knownClientID answers a place whose client order id the engine
// remembers: Exists (the first order's id in s.existing) for the same
// order, Conflict for another; ok is false for an id it does not know.
func (s *State) knownClientID(c *Command) (Code, bool) {
	if c.Ref == "" {
		return 0, false
	}
	s.forgetClientIDs(c.At)
	e, ok := s.coids[clientKey(c)]
	if !ok {
		return 0, false
	}
	if e.digest != noteDigest(c.Note) {
		return Conflict, true
	}
	s.existing = e.order
	return Exists, true
}

// rememberClientID records the client order id of a place the book took
// (or refused for a reason other than its order id).
func (s *State) rememberClientID(c *Command) {
	if c.Ref == "" {
		return
	}
	k := clientKey(c)
	if _, ok := s.coids[k]; ok {
		// Refreshed: it moves to the end of the time order.
		i := slices.Index(s.coidOrder, k)
		s.coidOrder = slices.Delete(s.coidOrder, i, i+1)
	}
	s.coids[k] = clientOrder{order: c.Order.OrderID, digest: noteDigest(c.Note), at: c.At}
	s.coidOrder = append(s.coidOrder, k)
}

// sortClientIDs rebuilds the time order of restored client order ids.
func (s *State) sortClientIDs() {
	s.coidOrder = s.coidOrder[:0]
	for k := range s.coids {
		s.coidOrder = append(s.coidOrder, k)
	}
	slices.SortFunc(s.coidOrder, func(a, b string) int {
		if d := s.coids[a].at - s.coids[b].at; d != 0 {
			if d < 0 {
				return -1
			}
			return 1
		}
		if a < b {
			return -1
		}
		if a > b {
			return 1
		}
		return 0
	})
}
