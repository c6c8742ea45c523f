package risk

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"tenger/internal/idmap"
	"tenger/internal/matching"
)

// Rate is a fee rate in parts per 10^8 (0.1% is 100_000).
type Rate uint32

// RateScale is what a Rate counts in.
const RateScale = 100_000_000

// FeeDecimals is the number of decimals a fee is rounded up to, in the
// exchange's favour, whatever the coin's engine unit.
const FeeDecimals = 8

// Symbol is a pair as the risk engine sees it: its coins and how the
// matching core's lots and quote units convert into their engine units.
type Symbol struct {
	ID    uint32 // the matching core's symbol id
	Base  Coin
	Quote Coin
	// LotUnits is one lot in base engine units.
	LotUnits int64
	// QuoteUnitUnits is one quote unit (tick × lot) in quote engine units.
	QuoteUnitUnits int64
}

// Result is R1's answer to a command.
type Result uint8

// R1 results.
const (
	OK Result = iota
	// Insufficient: the user's available balance cannot cover the hold
	// (the API's CodeTradeInsufficient).
	Insufficient
	// UnknownSymbol: the risk engine has no such pair.
	UnknownSymbol
	// TooLarge: the hold is beyond the engine's int64 units.
	TooLarge
	// UnknownOrder: an amendment of an order that holds nothing here (the
	// book would refuse it too).
	UnknownOrder
)

func (r Result) String() string {
	switch r {
	case OK:
		return "ok"
	case Insufficient:
		return "insufficient"
	case UnknownSymbol:
		return "unknown_symbol"
	case TooLarge:
		return "too_large"
	case UnknownOrder:
		return "unknown_order"
	case LeverageTooHigh:
		return "leverage_too_high"
	case PositionLimit:
		return "position_limit"
	case ModeLocked:
		return "mode_locked"
	case WouldLiquidate:
		return "would_liquidate"
	case NoPosition:
		return "no_position"
	case ReduceOnly:
		return "reduce_only"
	}
	return "invalid_result"
}

// OrderSpec is what the risk engine needs of a new order beyond its
// matching command: the account it trades from and its fee rates, fixed
// when it is placed.
type OrderSpec struct {
	Kind  Kind
	Maker Rate
	Taker Rate
	// UpToAvailable makes a market buy by quantity hold what the account
	// can spend, at most its Quote (the band the order entry set): its
	// budget is set here, to the quote units held.
	UpToAvailable bool
	// ReduceOnly makes a futures order one that may only reduce its
	// position (FuturesSpec.ReduceOnly).
	ReduceOnly bool
	// PosSide names the position of a futures order (FuturesSpec.PosSide).
	PosSide PosSide
}

// TradeFee is what a trade's buyer and seller paid in fees, in the engine
// units of what each received (the buyer in base, the seller in quote); of
// a futures trade, in the margin coin, with the PnL each side realized by
// what the trade closed of its position (a liquidation's fee is the one
// paid to the insurance fund).
type TradeFee struct {
	Buy     int64
	Sell    int64
	BuyPnL  int64
	SellPnL int64
}

// orderHold is what an open order holds, and how it pays fees. An order's
// record is found by the tag its command carries into the book
// (matching.Command.Tag, reported in every event of the order): the pool
// index plus one.
type orderHold struct {
	id    uint64
	left  int64 // held units not yet spent or released
	price int64 // limit price in ticks (0 for market orders)
	slot  Slot
	sym   int32 // index into Spot.syms
	next  int32 // free list
	maker Rate
	taker Rate
	side  matching.Side
	kind  Kind
}

// Spot is the risk engine of spot trading: R1 holds what a new order can
// spend before it reaches the book (Place), R2 settles what the book did
// (it is the book's matching.Sink) — trades pay each side and the fee
// account, an order's end releases what its hold has left, an amendment
// releases what the smaller order no longer needs. It is deterministic and
// single-threaded, like the books: the same commands give the same state.
type Spot struct {
	acct   *Accounts
	syms   []Symbol
	symIdx idmap.Map // symbol id → index into syms
	// lastSym and lastIdx remember the last symbol looked up.
	lastSym uint32
	lastIdx int32
	fees    Slot // the exchange's fee account

	pool []orderHold
	free int32 // the first free record (-1: none)
	open int   // records in use

	// tradeFees are the fees of the trades settled since the last
	// TakeFees, in the order of their events.
	tradeFees []TradeFee
}

// FeeUser is the user number of the exchange's fee account in the engine.
const FeeUser = math.MaxUint64 - 1

// FeeUserID is the fee account's id in the store.
const FeeUserID = "fees"

// NewSpot builds the spot risk engine on a set of accounts.
func NewSpot(acct *Accounts, capacity int) *Spot {
	r := &Spot{acct: acct, symIdx: idmap.New(64), pool: make([]orderHold, 0, capacity), free: -1}
	r.fees = acct.Register(FeeUser, FeeUserID)
	return r
}

// feeStep is a coin's fee rounding step in its engine units: fees are
// rounded up to FeeDecimals whatever the unit.
func (r *Spot) feeStep(c Coin) int64 {
	step := int64(1)
	for range r.acct.coins[c].Decimals - FeeDecimals {
		step *= 10
	}
	return step
}

// AddSymbol adds (or replaces the conversions of) a pair.
func (r *Spot) AddSymbol(s Symbol) error {
	if s.ID == 0 || s.LotUnits <= 0 || s.QuoteUnitUnits <= 0 || int(s.Base) >= len(r.acct.coins) || int(s.Quote) >= len(r.acct.coins) {
		return fmt.Errorf("risk: bad symbol %+v", s)
	}
	if i, ok := r.symIdx.Get(uint64(s.ID)); ok {
		r.syms[i] = s
		return nil
	}
	r.syms = append(r.syms, s)
	r.symIdx.Put(uint64(s.ID), int32(len(r.syms)-1))
	return nil
}

// symbol finds a pair's index, remembering the last one asked for (a
// burst of orders is mostly for one pair).
func (r *Spot) symbol(id uint32) (int32, bool) {
	if r.lastSym == id && id != 0 {
		return r.lastIdx, true
	}
	i, ok := r.symIdx.Get(uint64(id))
	if ok {
		r.lastSym, r.lastIdx = id, i
	}
	return i, ok
}

// mulUnits multiplies two non-negative int64s, ok false on overflow.
func mulUnits(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

// holdOf is what a new order must hold, in its coin's engine units.
func holdOf(s *Symbol, c *matching.Command) (Coin, int64, bool) {
	if c.Side == matching.Sell {
		v, ok := mulUnits(c.Qty, s.LotUnits)
		return s.Base, v, ok
	}
	if c.Type == matching.Market {
		// A market buy holds its budget (by quote amount, or the budget a
		// buy by quantity was given at entry).
		v, ok := mulUnits(c.Quote, s.QuoteUnitUnits)
		return s.Quote, v, ok
	}
	q, ok := mulUnits(c.Price, c.Qty)
	if !ok {
		return s.Quote, 0, false
	}
	v, ok := mulUnits(q, s.QuoteUnitUnits)
	return s.Quote, v, ok
}

// Place is R1 for a new order: it holds what the order can spend, or
// answers why not; nothing changes unless it answers OK. It sets the
// command's Tag to the order's record; the caller then applies the command
// to the book with the Spot as its sink (a duplicate order id is refused
// by the book, and R2 gives its hold back).
func (r *Spot) Place(c *matching.Command, spec OrderSpec) Result {
	si, ok := r.symbol(c.Symbol)
	if !ok {
		return UnknownSymbol
	}
	s := &r.syms[si]
	coin, amount, ok := holdOf(s, c)
	if !ok {
		return TooLarge
	}
	slot := r.acct.Slot(c.UserID)
	if slot == NoSlot {
		return Insufficient
	}
	avail := r.acct.At(slot, spec.Kind, coin).Avail
	if spec.UpToAvailable && c.Type == matching.Market && c.Side == matching.Buy && c.Qty > 0 && avail < amount {
		// Whole quote units of what can be spent.
		c.Quote = avail / s.QuoteUnitUnits
		amount = c.Quote * s.QuoteUnitUnits
		if c.Quote == 0 {
			return Insufficient
		}
	}
	if avail < amount {
		return Insufficient
	}
	b := r.acct.mut(slot, spec.Kind, coin)
	b.Avail -= amount
	b.Held += amount
	i := r.free
	if i >= 0 {
		r.free = r.pool[i].next
	} else {
		i = int32(len(r.pool))
		r.pool = append(r.pool, orderHold{})
	}
	r.pool[i] = orderHold{id: c.OrderID, left: amount, price: c.Price, slot: slot, sym: si, next: -1,
		maker: spec.Maker, taker: spec.Taker, side: c.Side, kind: spec.Kind}
	r.open++
	c.Tag = i + 1
	return OK
}

// Settle is R2 for one command's events, read where the book wrote them
// (a matching.EventBuffer the book fills in place); it is Emit for each.
func (r *Spot) Settle(events []matching.Event) {
	for i := range events {
		r.Emit(&events[i])
	}
}

// Emit implements matching.Sink: R2.
func (r *Spot) Emit(e *matching.Event) {
	switch e.Kind {
	case matching.EvTrade:
		r.trade(e)
	case matching.EvDone:
		r.end(e.Tag, e.OrderID)
	case matching.EvRejected:
		// A place refused by the book held its funds in R1 (its command
		// carries the tag R1 gave it): give them back. A refused cancel or
		// amend carries no tag; the order it names keeps its hold.
		if e.Tag != 0 {
			r.end(e.Tag, e.OrderID)
		}
	case matching.EvAmended:
		r.amended(e)
	}
}

// hold is the record a tag names, which must be the order's: anything else
// is an engine bug (a command that reached a book without R1).
func (r *Spot) hold(tag int32, id uint64) *orderHold {
	i := int(tag) - 1
	if i < 0 || i >= len(r.pool) || r.pool[i].id != id {
		panic(fmt.Sprintf("risk: order %d's tag %d names no record of it", id, tag))
	}
	return &r.pool[i]
}

// end releases what an order's hold has left and frees its record.
func (r *Spot) end(tag int32, id uint64) {
	o := r.hold(tag, id)
	s := &r.syms[o.sym]
	coin := s.Quote
	if o.side == matching.Sell {
		coin = s.Base
	}
	if o.left > 0 {
		r.acct.Release(o.slot, o.kind, coin, o.left)
	}
	*o = orderHold{next: r.free}
	r.free = tag - 1
	r.open--
}

// Amend is R1 for an amendment: an order that would need more than it
// holds (a larger quantity, a buy at a higher price) holds the difference
// first, or is refused; what it holds beyond its need after the book has
// applied it is released by R2 (Emit on Amended).
//
// tag is the order's tag as its book holds it (matching.OrderInfo.Tag; 0
// when the book has no such order).
func (r *Spot) Amend(c *matching.Command, tag int32) Result {
	i := int(tag) - 1
	if i < 0 || i >= len(r.pool) || r.pool[i].id != c.OrderID {
		return UnknownOrder
	}
	o := &r.pool[i]
	if o.slot != r.acct.Slot(c.UserID) {
		return UnknownOrder
	}
	s := &r.syms[o.sym]
	price := c.Price
	if price == 0 {
		price = o.price
	}
	coin, need, ok := s.Base, int64(0), true
	if o.side == matching.Sell {
		need, ok = mulUnits(c.Qty, s.LotUnits)
	} else {
		coin = s.Quote
		var q int64
		if q, ok = mulUnits(price, c.Qty); ok {
			need, ok = mulUnits(q, s.QuoteUnitUnits)
		}
	}
	if !ok {
		return TooLarge
	}
	if need > o.left {
		if r.acct.Hold(o.slot, o.kind, coin, need-o.left) != nil {
			return Insufficient
		}
		o.left = need
	}
	return OK
}

// amended releases what an order no longer needs after its remaining
// quantity went down (an amendment, or a self-trade decrement).
func (r *Spot) amended(e *matching.Event) {
	o := r.hold(e.Tag, e.OrderID)
	o.price = e.Price
	s := &r.syms[o.sym]
	var need int64
	coin := s.Quote
	if o.side == matching.Sell {
		coin, need = s.Base, e.Qty*s.LotUnits
	} else {
		need = e.Price * e.Qty * s.QuoteUnitUnits
	}
	if need > o.left {
		// A larger order or a higher buy price would need more funds: the
		// API never asks for it, and the engine refuses it before the book.
		panic(fmt.Sprintf("risk: order %d amended to need %d of %d held", e.OrderID, need, o.left))
	}
	r.acct.Release(o.slot, o.kind, coin, o.left-need)
	o.left = need
}

// fee is amount × rate rounded up to FeeDecimals in engine units of step,
// never more than amount.
func fee(amount int64, rate Rate, step int64) int64 {
	if rate == 0 || amount <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(amount), uint64(rate))
	den := uint64(RateScale) * uint64(step)
	if hi >= den {
		return amount // a rate far above 100%: the fee is capped at the amount
	}
	q, rem := bits.Div64(hi, lo, den)
	if rem != 0 {
		q++
	}
	f := int64(q) * step
	return min(f, amount)
}

// trade settles one fill: the buyer pays the quote amount from its hold
// and receives the base less its fee, the seller pays the base from its
// hold and receives the quote amount less its fee, the fee account gets
// both fees.
func (r *Spot) trade(e *matching.Event) {
	taker, maker := r.hold(e.Tag, e.OrderID), r.hold(e.MakerTag, e.MakerOrderID)
	buyer, seller := taker, maker
	buyRate, sellRate := taker.taker, maker.maker
	if e.Side == matching.Sell {
		buyer, seller = maker, taker
		buyRate, sellRate = maker.maker, taker.taker
	}
	s := &r.syms[taker.sym]
	money := e.Quote * s.QuoteUnitUnits
	base := e.Qty * s.LotUnits
	if buyer.left < money || seller.left < base {
		panic(fmt.Sprintf("risk: trade %d needs %d and %d, orders hold %d and %d", e.TradeID, money, base, buyer.left, seller.left))
	}
	buyer.left -= money
	seller.left -= base
	buyFee := fee(base, buyRate, r.feeStep(s.Base))
	sellFee := fee(money, sellRate, r.feeStep(s.Quote))
	a := r.acct
	a.SpendHeld(buyer.slot, buyer.kind, s.Quote, money)
	a.SpendHeld(seller.slot, seller.kind, s.Base, base)
	a.receive(buyer.slot, buyer.kind, s.Base, base-buyFee)
	a.receive(seller.slot, seller.kind, s.Quote, money-sellFee)
	if buyFee > 0 {
		a.receive(r.fees, KindSpot, s.Base, buyFee)
	}
	if sellFee > 0 {
		a.receive(r.fees, KindSpot, s.Quote, sellFee)
	}
	r.tradeFees = append(r.tradeFees, TradeFee{Buy: buyFee, Sell: sellFee})
}

// TakeFees returns the fees of the trades settled since the last call, in
// the order of their trade events, and starts over (the slice is reused:
// copy what you keep).
func (r *Spot) TakeFees() []TradeFee {
	f := r.tradeFees
	r.tradeFees = r.tradeFees[:0]
	return f
}

// Orders is the number of open orders holding funds.
func (r *Spot) Orders() int { return r.open }

// ErrHeldMismatch is returned by Check when the orders' holds and the
// balances' held amounts disagree.
var ErrHeldMismatch = errors.New("risk: held balances differ from what open orders hold")

// Check verifies the invariants: no negative balance, and per user,
// account and coin, what is held equals what its open orders hold plus
// extra (other holds, such as pending withdrawals: nil means none).
func (r *Spot) Check(extra func(s Slot, k Kind, c Coin) int64) error {
	if err := r.acct.Check(); err != nil {
		return err
	}
	n := len(r.acct.coins)
	want := make([]int64, len(r.acct.bal))
	for _, o := range r.pool {
		if o.id == 0 {
			continue
		}
		s := &r.syms[o.sym]
		coin := s.Quote
		if o.side == matching.Sell {
			coin = s.Base
		}
		want[(int(o.slot)*int(kindCount)+int(o.kind))*n+int(coin)] += o.left
	}
	for i, b := range r.acct.bal {
		w := want[i]
		if extra != nil {
			slot, rest := i/(int(kindCount)*n), i%(int(kindCount)*n)
			w += extra(Slot(slot), Kind(rest/n), Coin(rest%n))
		}
		if b.Held != w {
			return fmt.Errorf("%w: user %s coin %s: held %d, orders %d", ErrHeldMismatch, r.acct.users[i/(int(kindCount)*n)].ID,
				r.acct.coins[i%n].Code, b.Held, w)
		}
	}
	return nil
}
