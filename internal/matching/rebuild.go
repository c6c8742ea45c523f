package matching

import "fmt"

// LoadOrder adds a live order without matching it, to rebuild a book from
// stored open orders when no snapshot is usable. Load orders in their
// original priority (ForEachOrder order, or acceptance order per level):
// each resting order joins the back of its level, each stop the back of its
// trigger queue among equal stops. It refuses anything the book could not
// have produced: unknown enums, out-of-range values, a duplicate id, a
// remainder below the minimum quantity, or a resting order that crosses
// the other side. It emits no events. Call SetMarks when done, then Check.
func (b *Book) LoadOrder(o OrderInfo) error {
	switch {
	case o.ID == 0 || (o.Side != Buy && o.Side != Sell) || o.TIF < GTC || o.TIF > PostOnly || o.STP > STPDecrement:
		return fmt.Errorf("matching: load order %d: invalid fields", o.ID)
	case o.Price < 1 || o.Price > b.cfg.MaxPrice || o.StopPrice < 0 || o.StopPrice > b.cfg.MaxPrice:
		return fmt.Errorf("matching: load order %d: price out of range", o.ID)
	case o.Qty < b.cfg.MinQty || o.Qty > b.cfg.MaxQty || o.Filled < 0 || o.FilledQuote < 0:
		return fmt.Errorf("matching: load order %d: quantity out of range", o.ID)
	}
	if _, dup := b.ids.Get(o.ID); dup {
		return fmt.Errorf("matching: load order %d: duplicate id", o.ID)
	}
	stp := b.resolveSTP(o.STP)
	if o.StopPrice != 0 {
		if o.TIF == PostOnly {
			return fmt.Errorf("matching: load order %d: post-only stop", o.ID)
		}
		oi := b.allocOrder()
		b.orders[oi] = order{id: o.ID, user: o.UserID, price: o.Price, qty: o.Qty, filled: o.Filled,
			filledQuote: o.FilledQuote, stop: o.StopPrice, tag: o.Tag, side: o.Side, tif: o.TIF, stp: stp, state: stateStop,
			next: nilIdx, prev: nilIdx, level: nilIdx}
		b.ids.Put(o.ID, oi)
		b.insertStop(oi)
		return nil
	}
	if o.TIF != GTC && o.TIF != PostOnly {
		return fmt.Errorf("matching: load order %d: only GTC and post-only orders rest", o.ID)
	}
	if b.crosses(o.Side, o.Price) {
		return fmt.Errorf("matching: load order %d: crosses the book", o.ID)
	}
	oi := b.allocOrder()
	li := b.levelFor(o.Side, o.Price)
	b.orders[oi] = order{id: o.ID, user: o.UserID, price: o.Price, qty: o.Qty, filled: o.Filled,
		filledQuote: o.FilledQuote, tag: o.Tag, side: o.Side, tif: o.TIF, stp: stp, state: stateResting}
	b.pushBack(li, oi)
	b.ids.Put(o.ID, oi)
	return nil
}

// SetMarks sets the last applied sequence, last trade price and last trade
// id of a rebuilt book (from the stored engine state), so that replayed
// commands are skipped and trade ids continue.
func (b *Book) SetMarks(lastSeq uint64, lastPrice int64, lastTradeID uint64) {
	b.lastSeq, b.lastPrice, b.tradeID = lastSeq, lastPrice, lastTradeID
}
