package engine

import (
	"encoding/binary"
	"maps"
	"slices"

	"tenger/internal/matching"
	"tenger/internal/perp"
	"tenger/internal/risk"
)

// Trigger orders (stop and take-profit) of perpetual contracts. A trigger
// holds an order (Command.Order, Spec) and a condition (Command.Trigger):
// when the contract's mark (or last trade) price reaches its price, the
// order is placed. Triggers hold no margin while they wait; the order
// they place is checked as any order is when it is placed.
//
// A trigger is armed by KindTrigger (Order.OrderID is its id, and the id
// of the order it places), cancelled by KindTriggerCancel, and fired by
// KindTriggerFire: the marks and trades that reach a trigger's price only
// answer it (State.Triggered, Batch.Triggered), and the runtime sends its
// fire command, as with liquidations (a book takes one command per engine
// sequence number). A trigger answered and not yet fired is answered
// again by the next mark of its contract, so a restart loses none.
//
// Each contract keeps its armed triggers in two indexes (by mark and by
// last price) of perp.Index, whose two sides are exactly the two
// directions: a trigger that fires when the price falls to its price sits
// on the long side (due at or below), one that fires when it rises on the
// short side; so a price move costs O(1) when nothing is due.

// TriggerSpec is a trigger order's condition.
type TriggerSpec struct {
	// Price is the trigger price in ticks.
	Price int64
	// Above: the trigger fires when the price rises to Price or above;
	// otherwise when it falls to Price or below.
	Above bool
	// ByLast: the last trade price triggers it; otherwise the mark.
	ByLast bool
	// Close: the order closes the whole position when it fires (its side
	// and quantity are the position's then; a flat position fires
	// nothing).
	Close bool
	// Parent ties the trigger to an order of the user's in the contract
	// (a TP/SL placed with it): it waits, unarmed, until that order fills
	// (any part of it), and is cancelled with it if it ends unfilled. An
	// order no longer live when the trigger comes is taken as filled.
	Parent uint64
}

// MarketBandPercent is how far from the mark a futures market order may
// fill: it goes to the book as IOC at the band's edge (the order entry's
// market orders, and the market orders triggers place).
const MarketBandPercent = 10

// MaxTriggersPerUser bounds a user's armed triggers (all contracts).
const MaxTriggersPerUser = 50

// TriggerRef names a trigger a price reached.
type TriggerRef struct {
	User     uint64
	ID       uint64
	Contract uint32
}

// trigger is an armed trigger: the command that armed it.
type trigger struct {
	cmd     Command
	slot    int32 // its id in the contract's index
	due     bool  // reached, not fired yet
	pending bool  // waiting for its parent order to fill (not indexed)
}

func (s *State) initTriggers() {
	s.triggers, s.trigBooks, s.trigCount = map[uint64]*trigger{}, map[uint32]*triggerBook{}, map[uint64]int{}
	s.trigChildren = map[uint64][]uint64{}
}

// triggerBook is one contract's triggers.
type triggerBook struct {
	mark, last *perp.Index
}

func (s *State) triggerBook(sym uint32) *triggerBook {
	tb := s.trigBooks[sym]
	if tb == nil {
		tb = &triggerBook{mark: perp.NewIndex(), last: perp.NewIndex()}
		s.trigBooks[sym] = tb
	}
	return tb
}

func (t *trigger) index(tb *triggerBook) *perp.Index {
	if t.cmd.Trigger.ByLast {
		return tb.last
	}
	return tb.mark
}

// indexSide is the index side of a direction: falling triggers sit with
// the longs (due at or below), rising ones with the shorts.
func indexSide(above bool) perp.Side {
	if above {
		return perp.Short
	}
	return perp.Long
}

// price is a contract's current mark or last price (0: none yet).
func (s *State) triggerPrice(sym uint32, byLast bool) int64 {
	if byLast {
		if b := s.books.Book(sym); b != nil {
			return b.LastPrice()
		}
		return 0
	}
	return s.fut.MarkOf(sym)
}

// armTrigger is KindTrigger.
func (s *State) armTrigger(c *Command) Code {
	sym := c.Order.Symbol
	k, ok := s.contracts[sym]
	if !ok {
		return UnknownPair
	}
	t := c.Trigger
	id := c.Order.OrderID
	if c.User == 0 || id == 0 || t.Price <= 0 || t.Price > k.MaxPrice || (!t.Close && c.Order.Qty <= 0) ||
		(c.Order.Side != matching.Buy && c.Order.Side != matching.Sell && !t.Close) {
		return Invalid
	}
	if _, ok := s.triggers[id]; ok {
		return Exists
	}
	if s.trigCount[c.User] >= MaxTriggersPerUser {
		return PositionLimit
	}
	if c.Spec.PosSide > risk.PosShort || s.fut.Hedge(s.acct.Slot(c.User)) != (c.Spec.PosSide != risk.PosBoth) {
		return PositionSide
	}
	// One waiting for its order to fill if that order is live and has not
	// filled yet (it is armed, or cancelled, with the order's events).
	pending := false
	if t.Parent != 0 {
		if o, ok := s.books.Book(sym).Order(t.Parent); ok && o.UserID == c.User && o.Filled == 0 {
			pending = true
		}
	}
	// One that its price has already reached would fire at once: refused.
	if p := s.triggerPrice(sym, t.ByLast); !pending && p > 0 && ((t.Above && p >= t.Price) || (!t.Above && p <= t.Price)) {
		return WouldTrigger
	}
	s.acct.Register(c.User, c.UserID)
	tr := &trigger{cmd: *c, slot: s.trigSlot(id), pending: pending}
	tr.cmd.Note = nil
	s.triggers[id] = tr
	s.trigCount[c.User]++
	if pending {
		s.trigChildren[t.Parent] = append(s.trigChildren[t.Parent], id)
	} else {
		tr.index(s.triggerBook(sym)).Set(tr.slot, indexSide(t.Above), t.Price)
	}
	return OK
}

// parentEvents arms the triggers waiting for an order that filled, and
// cancels those of an order that ended unfilled (State.Dropped).
func (s *State) parentEvents(evs []matching.Event) {
	for i := range evs {
		e := &evs[i]
		switch e.Kind {
		case matching.EvTrade:
			s.armChildren(e.OrderID)
			s.armChildren(e.MakerOrderID)
		case matching.EvDone, matching.EvRejected:
			for _, id := range s.trigChildren[e.OrderID] {
				if tr := s.triggers[id]; tr != nil {
					s.dropped = append(s.dropped, TriggerRef{User: tr.cmd.User, ID: id, Contract: tr.cmd.Order.Symbol})
					s.dropTrigger(id)
				}
			}
			delete(s.trigChildren, e.OrderID)
		}
	}
}

// armChildren arms the triggers waiting for an order's fill.
func (s *State) armChildren(parent uint64) {
	ids, ok := s.trigChildren[parent]
	if !ok {
		return
	}
	delete(s.trigChildren, parent)
	for _, id := range ids {
		if tr := s.triggers[id]; tr != nil && tr.pending {
			tr.pending = false
			tr.index(s.triggerBook(tr.cmd.Order.Symbol)).Set(tr.slot, indexSide(tr.cmd.Trigger.Above), tr.cmd.Trigger.Price)
		}
	}
}

// Dropped are the triggers cancelled since the last ResetEvents because
// the order they waited for ended unfilled.
func (s *State) Dropped() []TriggerRef { return s.dropped }

// trigSlot gives a trigger a dense id for the indexes.
func (s *State) trigSlot(id uint64) int32 {
	if n := len(s.trigFree); n > 0 {
		slot := s.trigFree[n-1]
		s.trigFree = s.trigFree[:n-1]
		s.trigIDs[slot] = id
		return slot
	}
	s.trigIDs = append(s.trigIDs, id)
	return int32(len(s.trigIDs) - 1)
}

// dropTrigger disarms a trigger.
func (s *State) dropTrigger(id uint64) {
	tr := s.triggers[id]
	if tr == nil {
		return
	}
	tr.index(s.triggerBook(tr.cmd.Order.Symbol)).Remove(tr.slot)
	if tr.pending {
		p := tr.cmd.Trigger.Parent
		if kids := slices.DeleteFunc(s.trigChildren[p], func(k uint64) bool { return k == id }); len(kids) > 0 {
			s.trigChildren[p] = kids
		} else {
			delete(s.trigChildren, p)
		}
	}
	s.trigIDs[tr.slot] = 0
	s.trigFree = append(s.trigFree, tr.slot)
	delete(s.triggers, id)
	if s.trigCount[tr.cmd.User]--; s.trigCount[tr.cmd.User] <= 0 {
		delete(s.trigCount, tr.cmd.User)
	}
}

// cancelTrigger is KindTriggerCancel: the user's own, armed or due.
func (s *State) cancelTrigger(c *Command) Code {
	tr := s.triggers[c.Order.OrderID]
	if tr == nil || tr.cmd.User != c.User {
		return UnknownOrder
	}
	c.Order, c.Spec, c.Trigger, c.UserID = tr.cmd.Order, tr.cmd.Spec, tr.cmd.Trigger, tr.cmd.UserID
	s.dropTrigger(c.Order.OrderID)
	return OK
}

// reached answers the triggers of a contract its price reached (and those
// reached before and not fired yet, on a mark).
func (s *State) reached(sym uint32, byLast bool, price int64) {
	tb := s.trigBooks[sym]
	if tb == nil || price <= 0 {
		return
	}
	ix := tb.mark
	if byLast {
		ix = tb.last
	}
	if !byLast {
		// Answered before and not fired: answered again (the runtime's
		// fire may have been lost with a restart).
		for _, id := range slices.Sorted(maps.Keys(s.triggers)) {
			if tr := s.triggers[id]; tr.due && tr.cmd.Order.Symbol == sym {
				s.triggered = append(s.triggered, TriggerRef{User: tr.cmd.User, ID: id, Contract: sym})
			}
		}
	}
	if ix.Len() == 0 {
		return
	}
	s.trigDue = ix.Due(price, s.trigDue[:0])
	for _, slot := range s.trigDue {
		id := s.trigIDs[slot]
		tr := s.triggers[id]
		tr.due = true
		s.triggered = append(s.triggered, TriggerRef{User: tr.cmd.User, ID: id, Contract: sym})
	}
}

// fireTrigger is KindTriggerFire: a reached trigger places its order (the
// command carries it from here on, for the projection).
func (s *State) fireTrigger(c *Command) (Code, matching.Reason) {
	tr := s.triggers[c.Order.OrderID]
	if tr == nil || !tr.due {
		return UnknownOrder, 0
	}
	armed := tr.cmd
	s.dropTrigger(c.Order.OrderID)
	c.User, c.UserID, c.Order, c.Spec, c.Trigger = armed.User, armed.UserID, armed.Order, armed.Spec, armed.Trigger
	if armed.Trigger.Close {
		// The position's reduce-only orders go (it is closing whole);
		// the order closes what its other closing orders leave of it.
		ref := risk.PositionRef{User: armed.User, Contract: armed.Order.Symbol, Side: armed.Spec.PosSide}
		side, qty, cancel := s.fut.Closing(ref)
		for _, o := range cancel {
			s.cancelWithin(o)
		}
		if qty == 0 {
			return NoPosition, 0
		}
		c.Order.Side, c.Order.Qty = side, qty
		c.Spec.ReduceOnly = true
	}
	market := c.Order.Type == matching.Market
	if market {
		// A market order goes as IOC at the band's edge from the mark.
		mark := s.fut.MarkOf(c.Order.Symbol)
		edge := mark * (100 + MarketBandPercent) / 100
		if c.Order.Side == matching.Sell {
			edge = (mark*(100-MarketBandPercent) + 99) / 100
		}
		c.Order.Type, c.Order.TIF, c.Order.Price = matching.Limit, matching.IOC, min(max(edge, 1), s.contracts[c.Order.Symbol].MaxPrice)
	}
	// Placed as KindPlace would place it (R1, the book, R2).
	place := *c
	place.Kind = KindPlace
	place.Ref = ""
	code, reason := s.order(&place)
	c.Order = place.Order
	if market {
		c.Order.Type = matching.Market // as the projection shows it
	}
	return code, reason
}

// Triggered are the triggers the commands since the last ResetEvents
// reached: the runtime sends their KindTriggerFire.
func (s *State) Triggered() []TriggerRef { return s.triggered }

// appendTriggers writes the armed triggers (their arming commands, and
// whether each was reached) for the snapshot.
func (s *State) appendTriggers(dst []byte, section func([]byte) []byte) []byte {
	ids := slices.Sorted(maps.Keys(s.triggers))
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(ids)))
	for _, id := range ids {
		tr := s.triggers[id]
		dst = append(dst, section(AppendCommand(nil, &tr.cmd))...)
		state := byte(0) // armed; 1 reached; 2 waiting for its order
		if tr.due {
			state = 1
		} else if tr.pending {
			state = 2
		}
		dst = append(dst, state)
	}
	return dst
}

// restoreTrigger arms a trigger of a snapshot again (state as
// appendTriggers wrote it).
func (s *State) restoreTrigger(c *Command, state byte) bool {
	if _, ok := s.contracts[c.Order.Symbol]; !ok || c.Kind != KindTrigger || state > 2 || (state == 2 && c.Trigger.Parent == 0) {
		return false
	}
	tr := &trigger{cmd: *c, slot: s.trigSlot(c.Order.OrderID), due: state == 1, pending: state == 2}
	s.triggers[c.Order.OrderID] = tr
	s.trigCount[c.User]++
	switch state {
	case 0:
		tr.index(s.triggerBook(c.Order.Symbol)).Set(tr.slot, indexSide(c.Trigger.Above), c.Trigger.Price)
	case 2:
		s.trigChildren[c.Trigger.Parent] = append(s.trigChildren[c.Trigger.Parent], c.Order.OrderID)
	}
	return true
}

// triggerSlots lists the users' trigger counts for the invariants.
func (s *State) checkTriggers() bool {
	n := map[uint64]int{}
	for _, tr := range s.triggers {
		n[tr.cmd.User]++
	}
	return maps.Equal(n, s.trigCount)
}
