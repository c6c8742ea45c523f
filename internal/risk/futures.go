package risk

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"tenger/internal/idmap"
	"tenger/internal/matching"
	"tenger/internal/perp"
)

// Futures is the risk stage of perpetual futures, as Spot is of spot
// trading: R1 holds an order's initial margin and taker fee in the futures
// account before the order reaches its contract's book (Place); R2, the
// books' matching.Sink, turns fills into positions (Emit). It keeps the
// contracts' mark prices and each contract's liquidation index
// (perp.Index), and pays funding. Deterministic and single-threaded, like
// Spot; it shares Spot's accounts and fee account.
//
// Money, per user and margin coin, in the futures account (KindFutures):
//
//   - the wallet balance W = Avail + Held changes only by transfers,
//     realized PnL, fees and funding;
//   - Held is what open orders hold (initial margin and taker fee at the
//     order's price) plus each position's margin: an isolated position's
//     margin, or a cross position's initial margin at its cost;
//   - what a new order or a transfer out may use is Avail plus the cross
//     positions' unrealized loss (a loss counts at once, a profit only
//     when realized).
//
// Realized PnL moves between the user and the settlement balance of the
// margin coin (Settlement): only what is actually paid or received, so it
// nets to zero once every position is closed, less whatever loss nobody
// covered, and may be negative meanwhile (the open positions' losses back
// it). A loss beyond what a user has is taken from the contract's
// insurance fund; what the fund cannot cover stays out of the settlement
// balance and is counted in Uncovered (for auto-deleveraging and reports).
// Conservation: Σ W + fees + Σ settlement + Σ insurance = what was
// transferred in, net (Total): the ledger's view, where settlement is an
// internal account that may be negative and the funds are accounts.
//
// Liquidation price keys: an isolated position's is exact; a cross
// position's takes the account's other cross positions as they are when it
// is computed (after each of the user's changes). Due checks each candidate
// exactly before answering it, and re-keys the stale ones.
type Futures struct {
	acct *Accounts
	fees Slot
	// fund holds the positions the insurance funds took over.
	fund Slot

	cons   []futContract
	conIdx idmap.Map // book symbol id → index into cons

	pos    []position
	posIdx idmap.Map // posKey(slot, contract, side) → index into pos
	// byUser lists each slot's positions (for cross margin and transfers).
	byUser map[Slot][]int32
	// hedge lists the slots in hedge position mode: a long and a short
	// position per contract (PosLong, PosShort) instead of one (PosBoth).
	hedge map[Slot]bool
	// trim lists the positions whose reduce-only orders may no longer fit
	// them (TakeTrims).
	trim []int32

	orders []futOrder
	free   int32
	open   int

	// Settlement and Uncovered are per margin coin.
	settle    map[Coin]int64
	uncovered map[Coin]int64
	// sysChanged lists the settlement balances and insurance funds changed
	// since the last ClearChanged, each once with its value before: the
	// engine hands their values to the store projection as it hands the
	// accounts' changed balances (Accounts.Changed).
	sysChanged []SystemChange
	// tradeFees are the fees and PnL of the trades settled since the last
	// TakeFees.
	tradeFees []TradeFee
	// funding are the payments of the funding rounds since the last
	// TakeFunding.
	funding []FundingPayment
	// closed are the positions closed since the last TakeClosed; now is
	// the time of the command being applied (set by the engine from its
	// journaled time).
	closed []PositionClosed
	now    int64
	// liqFill: the fill being moved is a liquidation's.
	liqFill bool
	// posChanged lists the positions changed since the last ClearChanged,
	// once each (posStamp[i] == posGen when i is listed): the engine hands
	// their state to the store projection.
	posChanged []int32
	posStamp   []uint32
	posGen     uint32
}

// PosSide names which of a user's positions in a contract an order or a
// command is for: the one position of one-way mode (PosBoth), or the long
// or the short one of hedge mode.
type PosSide uint8

// Position sides.
const (
	PosBoth PosSide = iota
	PosLong
	PosShort
)

// Closes says an order of side closes a hedge-mode position of this side
// (a sell its long, a buy its short); never in one-way mode.
func (ps PosSide) Closes(side matching.Side) bool {
	return (ps == PosLong && side == matching.Sell) || (ps == PosShort && side == matching.Buy)
}

// PositionState is a position as a batch leaves it, for the projection.
type PositionState struct {
	User     uint64
	UserID   string
	Contract uint32
	Side     PosSide
	Qty      int64 // contracts, long positive
	Cost     int64 // entry notional, margin coin units
	Margin   int64
	Leverage int64
	Isolated bool
	// Liquidation is the liquidation price in ticks (0: none, or flat).
	Liquidation int64
}

// touchPos notes a position about to change.
func (f *Futures) touchPos(p *position) {
	i := f.indexOf(p)
	if f.posStamp[i] != f.posGen {
		f.posStamp[i] = f.posGen
		f.posChanged = append(f.posChanged, i)
	}
}

// PositionsChanged calls fn for each position changed since the last
// ClearChanged, in the order they first changed.
func (f *Futures) PositionsChanged(fn func(PositionState)) {
	users := f.acct.Users()
	for _, i := range f.posChanged {
		p := &f.pos[i]
		u := users[p.slot]
		ps := PositionState{User: u.Num, UserID: u.ID, Contract: f.cons[p.con].ID, Side: p.side, Qty: p.qty, Cost: p.cost, Margin: p.margin,
			Leverage: p.lev, Isolated: p.isolated}
		if p.qty != 0 {
			ps.Liquidation, _ = f.cons[p.con].index.Price(i)
		}
		fn(ps)
	}
}

// SystemBalance names an exchange balance of the futures stage: the
// settlement balance of a margin coin (Contract 0) or a contract's
// insurance fund.
type SystemBalance struct {
	Contract uint32
	Coin     Coin
}

// SystemChange is a system balance's value before and after the changes
// since the last ClearChanged.
type SystemChange struct {
	SystemBalance
	Before, Now int64
}

// touch notes a system balance about to change.
func (f *Futures) touch(b SystemBalance, before int64) {
	for i := range f.sysChanged {
		if f.sysChanged[i].SystemBalance == b {
			return
		}
	}
	f.sysChanged = append(f.sysChanged, SystemChange{SystemBalance: b, Before: before})
}

// addSettle changes a margin coin's settlement balance.
func (f *Futures) addSettle(c Coin, v int64) {
	if v != 0 {
		f.touch(SystemBalance{Coin: c}, f.settle[c])
		f.settle[c] += v
	}
}

// addFund changes a contract's insurance fund.
func (f *Futures) addFund(con *futContract, v int64) {
	if v != 0 {
		f.touch(SystemBalance{Contract: con.ID, Coin: con.Quote}, con.insurance)
		con.insurance += v
	}
}

// SystemChanged lists the system balances changed since the last
// ClearChanged, in the order they first changed, with their values
// before and now (a balance back at its value is listed too).
func (f *Futures) SystemChanged() []SystemChange {
	for i := range f.sysChanged {
		c := &f.sysChanged[i]
		if c.Contract == 0 {
			c.Now = f.settle[c.Coin]
		} else if ci, ok := f.contract(c.Contract); ok {
			c.Now = f.cons[ci].insurance
		}
	}
	return f.sysChanged
}

// ClearChanged starts a new set of changed system balances and positions.
func (f *Futures) ClearChanged() {
	f.sysChanged = f.sysChanged[:0]
	f.posChanged = f.posChanged[:0]
	f.posGen++
	if f.posGen == 0 { // wrapped: no stamp may equal it by accident
		clear(f.posStamp)
		f.posGen = 1
	}
}

// FuturesContract is a contract as the risk stage sees it (from
// contracts.Contract.Grid).
type FuturesContract struct {
	ID        uint32 // the book's symbol id
	Quote     Coin   // the margin coin
	TickValue int64  // margin coin units per contract per tick
	MaxPrice  int64
	Tiers     perp.Tiers
	Maker     Rate
	Taker     Rate
	// LiqFee is the rate a liquidation's fills pay to the insurance fund.
	LiqFee Rate
	// ADLFloor: at or below this insurance fund, a liquidated position's
	// rest is auto-deleveraged instead of taken over (money units).
	ADLFloor int64
}

type futContract struct {
	FuturesContract
	mark      int64
	index     *perp.Index
	insurance int64
	// holders are the positions with a size, for funding.
	holders []int32
}

// position is one user's position in one contract (one of two in hedge
// mode: side), with the user's leverage and margin mode for it (kept while
// flat; the same on both sides).
type position struct {
	slot     Slot
	con      int32
	side     PosSide
	qty      int64 // signed: long positive
	cost     int64 // notional at entry, margin coin units
	margin   int64 // held for the position
	lev      int64
	isolated bool
	// openBuy and openSell are the contracts of the user's open orders,
	// roBuy and roSell those of them that are reduce-only.
	openBuy, openSell int64
	roBuy, roSell     int64
	holder            bool // listed in the contract's holders
	// Since the position last opened (for its history, PositionClosed):
	// when, the contracts and notional opened and closed, the largest
	// size, the PnL realized and the fees paid.
	opened                   int64
	openQty, openValue       int64
	closeQty, closeValue     int64
	maxQty, realized, feesPd int64
}

// PositionClosed is a position that went back to flat (or turned to the
// other side): its history record.
type PositionClosed struct {
	Slot     Slot
	Contract uint32
	Side     PosSide
	Long     bool
	MaxQty   int64
	// OpenValue ÷ OpenQty and CloseValue ÷ CloseQty are the average entry
	// and exit prices (notional per contract).
	OpenQty, OpenValue   int64
	CloseQty, CloseValue int64
	Realized, Fees       int64
	Opened, Closed       int64 // Unix ms
	Liquidated           bool
}

type futOrder struct {
	id    uint64
	left  int64 // held, not yet used or released
	qty   int64 // contracts not yet filled
	price int64
	pos   int32
	next  int32
	maker Rate
	taker Rate
	side  matching.Side
	liq   bool // a liquidation's order: no hold, the liquidation fee
	ro    bool // reduce-only
}

// DefaultLeverage is a new position's leverage (at most the first tier's).
const DefaultLeverage = 20

// FuturesSpec is what R1 needs of a futures order beyond its command.
type FuturesSpec struct {
	Maker Rate
	Taker Rate
	// MarginPrice prices a market order's margin (the entry sets it from
	// the mark and its price band); a limit order uses its price.
	MarginPrice int64
	// ReduceOnly: the order may only close what the position has that the
	// user's other closing orders leave (ReduceOnly otherwise); it holds
	// no margin, only its fee.
	ReduceOnly bool
	// PosSide is the position the order trades: PosBoth in one-way mode;
	// in hedge mode PosLong (a buy opens it, a sell closes it: reduce-only)
	// or PosShort (the other way round).
	PosSide PosSide
}

// Results of futures commands beyond Spot's.
const (
	// LeverageTooHigh: the position the order could make needs a lower
	// leverage (its tier's), or leverage out of range.
	LeverageTooHigh Result = iota + 16
	// PositionLimit: beyond the contract's last tier.
	PositionLimit
	// ModeLocked: margin mode or leverage cannot change with open orders
	// (or, for the mode, a position).
	ModeLocked
	// WouldLiquidate: a margin removal would leave the position
	// liquidatable or below its initial margin.
	WouldLiquidate
)

// ReduceOnly: a reduce-only order larger than what its position has to
// close.
const ReduceOnly Result = LeverageTooHigh + 5

// BadPositionSide: an order or command names no position of the user's
// position mode (PosBoth in hedge mode, a side in one-way mode).
const BadPositionSide Result = LeverageTooHigh + 6

// FundUser and FundUserID name the engine's holder of the positions the
// contracts' insurance funds take over (its money is the funds', kept by
// Futures, not a balance).
const (
	FundUser   = FeeUser - 1
	FundUserID = "insurance"
)

// NewFutures builds the futures stage on the accounts Spot uses.
func NewFutures(acct *Accounts) *Futures {
	return &Futures{acct: acct, fees: acct.Register(FeeUser, FeeUserID), fund: NoSlot, conIdx: idmap.New(16), posIdx: idmap.New(1 << 10),
		byUser: map[Slot][]int32{}, hedge: map[Slot]bool{}, free: -1, settle: map[Coin]int64{}, uncovered: map[Coin]int64{}, posGen: 1}
}

// AddContract lists a contract (or replaces its tiers and fees).
func (f *Futures) AddContract(c FuturesContract) error {
	if c.ID == 0 || c.TickValue <= 0 || c.MaxPrice <= 0 || len(c.Tiers) == 0 || int(c.Quote) >= len(f.acct.coins) {
		return fmt.Errorf("risk: bad contract %+v", c)
	}
	if i, ok := f.conIdx.Get(uint64(c.ID)); ok {
		f.cons[i].FuturesContract = c
		return nil
	}
	f.cons = append(f.cons, futContract{FuturesContract: c, index: perp.NewIndex()})
	f.conIdx.Put(uint64(c.ID), int32(len(f.cons)-1))
	return nil
}

func (f *Futures) contract(id uint32) (int32, bool) { return f.conIdx.Get(uint64(id)) }

// posKey is a position record's key in posIdx.
func posKey(s Slot, ci int32, side PosSide) uint64 {
	return uint64(s)<<22 | uint64(side)<<20 | uint64(ci)
}

// position finds or creates a slot's position record in contract ci on a
// side; a new one takes the leverage and margin mode of the slot's other
// records in the contract (they are the same on every side).
func (f *Futures) position(s Slot, ci int32, side PosSide) int32 {
	k := posKey(s, ci, side)
	if i, ok := f.posIdx.Get(k); ok {
		return i
	}
	p := position{slot: s, con: ci, side: side, lev: min(int64(DefaultLeverage), f.cons[ci].Tiers[0].MaxLeverage)}
	for _, j := range f.byUser[s] {
		if q := &f.pos[j]; q.con == ci {
			p.lev, p.isolated = q.lev, q.isolated
			break
		}
	}
	f.pos = append(f.pos, p)
	f.posStamp = append(f.posStamp, 0)
	i := int32(len(f.pos) - 1)
	f.posIdx.Put(k, i)
	f.byUser[s] = append(f.byUser[s], i)
	return i
}

func sign(x int64) int64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func absQty(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// notional is qty contracts at price in ticks, in margin coin units.
func (c *futContract) notional(qty, price int64) (int64, bool) {
	v, err := perp.Position{Qty: qty}.Value(price, c.TickValue)
	return v, err == nil
}

// crossPnL is the unrealized PnL at mark of a slot's cross positions in a
// margin coin.
func (f *Futures) crossPnL(s Slot, coin Coin) int64 {
	var sum int64
	for _, i := range f.byUser[s] {
		p := &f.pos[i]
		c := &f.cons[p.con]
		if p.isolated || p.qty == 0 || c.Quote != coin || c.mark == 0 {
			continue
		}
		sum += f.pnl(p)
	}
	return sum
}

func (f *Futures) pnl(p *position) int64 {
	c := &f.cons[p.con]
	v, err := p.perp().PnL(c.mark, c.TickValue)
	if err != nil {
		panic(fmt.Sprintf("risk: PnL of a position beyond int64: %v", err))
	}
	return v
}

// holdAvailable holds amount of what Available answers, or nothing.
func (f *Futures) holdAvailable(s Slot, coin Coin, amount int64) bool {
	return amount <= f.Available(s, coin) && f.acct.Hold(s, KindFutures, coin, amount) == nil
}

// Available is what a slot may use for new orders or take out of its
// futures account in a margin coin.
func (f *Futures) Available(s Slot, coin Coin) int64 {
	return max(f.acct.At(s, KindFutures, coin).Avail+min(0, f.crossPnL(s, coin)), 0)
}

// Place is R1 for a futures order: it holds the order's initial margin and
// its taker fee, or answers why not; nothing changes unless it answers OK.
func (f *Futures) Place(c *matching.Command, spec FuturesSpec) Result {
	ci, ok := f.contract(c.Symbol)
	if !ok {
		return UnknownSymbol
	}
	con := &f.cons[ci]
	slot := f.acct.Slot(c.UserID)
	if slot == NoSlot {
		return Insufficient
	}
	price := c.Price
	if c.Type == matching.Market {
		price = spec.MarginPrice
	}
	if price <= 0 || price > con.MaxPrice || c.Qty <= 0 {
		return TooLarge
	}
	if spec.PosSide > PosShort || f.hedge[slot] != (spec.PosSide != PosBoth) {
		return BadPositionSide
	}
	if spec.PosSide.Closes(c.Side) {
		spec.ReduceOnly = true // hedge mode: it closes its side's position
	}
	pi := f.position(slot, ci, spec.PosSide)
	p := &f.pos[pi]
	notional, ok := con.notional(c.Qty, price)
	if !ok {
		return TooLarge
	}
	// The largest position the order could make, with the user's other
	// orders on the same side filled too.
	exposure := p.qty + p.openBuy + c.Qty
	if c.Side == matching.Sell {
		exposure = p.qty - p.openSell - c.Qty
	}
	ex, ok := con.notional(absQty(exposure), price)
	if !ok || ex > con.Tiers.Limit() {
		return PositionLimit
	}
	if con.Tiers.MaxLeverage(ex) < p.lev {
		return LeverageTooHigh
	}
	// The part of the order that can only close the position (what the
	// user's other closing orders leave of it) needs no margin; the rest
	// opens and needs its initial margin. Every contract pays the fee.
	closable := int64(0)
	if c.Side == matching.Sell && p.qty > 0 {
		closable = max(p.qty-p.openSell, 0)
	} else if c.Side == matching.Buy && p.qty < 0 {
		closable = max(-p.qty-p.openBuy, 0)
	}
	if spec.ReduceOnly && c.Qty > closable {
		return ReduceOnly
	}
	opening, ok := con.notional(c.Qty-min(c.Qty, closable), price)
	if !ok {
		return TooLarge
	}
	im, err := perp.Initial(opening, p.lev)
	if err != nil {
		return TooLarge
	}
	need := im + fee(notional, spec.Taker, 1)
	if !f.holdAvailable(slot, con.Quote, need) {
		return Insufficient
	}
	c.Tag = f.addOrder(futOrder{id: c.OrderID, left: need, qty: c.Qty, price: price, pos: pi,
		maker: spec.Maker, taker: spec.Taker, side: c.Side, ro: spec.ReduceOnly})
	f.rekey(slot, con.Quote) // a cross position's margin balance is less by the hold
	f.checkTrim(pi)          // a closing order leaves less for the reduce-only ones
	return OK
}

// addOrder records an open order (counted on its position) and answers
// its tag: its record's index plus one.
func (f *Futures) addOrder(o futOrder) int32 {
	i := f.free
	if i >= 0 {
		f.free = f.orders[i].next
	} else {
		i = int32(len(f.orders))
		f.orders = append(f.orders, futOrder{})
	}
	o.next = -1
	f.orders[i] = o
	f.count(&o, o.qty)
	f.open++
	return i + 1
}

// count adds n contracts of an order to its position's open counts.
func (f *Futures) count(o *futOrder, n int64) {
	p := &f.pos[o.pos]
	ro := int64(0)
	if o.ro {
		ro = n
	}
	if o.side == matching.Buy {
		p.openBuy += n
		p.roBuy += ro
	} else {
		p.openSell += n
		p.roSell += ro
	}
}

// Settle is R2 for one command's events.
func (f *Futures) Settle(events []matching.Event) {
	for i := range events {
		f.Emit(&events[i])
	}
}

// Emit implements matching.Sink: R2.
func (f *Futures) Emit(e *matching.Event) {
	switch e.Kind {
	case matching.EvTrade:
		f.trade(e)
	case matching.EvDone:
		f.end(e.Tag, e.OrderID)
	case matching.EvRejected:
		if e.Tag != 0 {
			f.end(e.Tag, e.OrderID)
		}
	case matching.EvAmended:
		f.amended(e)
	}
}

func (f *Futures) order(tag int32, id uint64) *futOrder {
	i := int(tag) - 1
	if i < 0 || i >= len(f.orders) || f.orders[i].id != id {
		panic(fmt.Sprintf("risk: futures order %d's tag %d names no record of it", id, tag))
	}
	return &f.orders[i]
}

// end releases what an order still holds and frees its record.
func (f *Futures) end(tag int32, id uint64) {
	o := f.order(tag, id)
	p := &f.pos[o.pos]
	if o.left > 0 {
		f.acct.Release(p.slot, KindFutures, f.cons[p.con].Quote, o.left)
	}
	f.count(o, -o.qty)
	*o = futOrder{next: f.free}
	f.free = tag - 1
	f.open--
	f.rekey(p.slot, f.cons[p.con].Quote)
}

// amended releases what an order no longer needs after its quantity went
// down (a self-trade decrement; the futures entry sends no amendments).
func (f *Futures) amended(e *matching.Event) {
	o := f.order(e.Tag, e.OrderID)
	if e.Qty > o.qty {
		panic(fmt.Sprintf("risk: futures order %d amended up from %d to %d", o.id, o.qty, e.Qty))
	}
	f.shrink(o, o.qty-e.Qty)
	p := &f.pos[o.pos]
	f.rekey(p.slot, f.cons[p.con].Quote)
}

// shrink takes n contracts off an order: its hold's share of them (all of
// it for the last) goes back to the available balance, and the share is
// answered.
func (f *Futures) shrink(o *futOrder, n int64) int64 {
	p := &f.pos[o.pos]
	share := o.left
	if n < o.qty {
		share = mulShare(o.left, n, o.qty)
	}
	o.left -= share
	o.qty -= n
	f.count(o, -n)
	f.acct.Release(p.slot, KindFutures, f.cons[p.con].Quote, share)
	return share
}

// trade settles one fill for both orders.
func (f *Futures) trade(e *matching.Event) {
	taker, maker := f.order(e.Tag, e.OrderID), f.order(e.MakerTag, e.MakerOrderID)
	tFee, tPnL := f.fill(taker, e.Qty, e.Price, taker.taker)
	mFee, mPnL := f.fill(maker, e.Qty, e.Price, maker.maker)
	if taker.side == matching.Buy {
		f.tradeFees = append(f.tradeFees, TradeFee{Buy: tFee, Sell: mFee, BuyPnL: tPnL, SellPnL: mPnL})
	} else {
		f.tradeFees = append(f.tradeFees, TradeFee{Buy: mFee, Sell: tFee, BuyPnL: mPnL, SellPnL: tPnL})
	}
}

// FundingPayment is what one position paid (Amount < 0) or received in a
// funding round.
type FundingPayment struct {
	Slot     Slot
	Contract uint32
	Qty      int64 // the position's contracts, long positive
	Amount   int64
}

// SetNow sets the time of the command being applied (Unix ms).
func (f *Futures) SetNow(ms int64) { f.now = ms }

// TakeClosed returns the positions closed since the last call.
func (f *Futures) TakeClosed() []PositionClosed {
	c := f.closed
	f.closed = f.closed[:0]
	return c
}

// TakeFunding returns the payments of the funding rounds since the last
// call, in the order they were paid.
func (f *Futures) TakeFunding() []FundingPayment {
	p := f.funding
	f.funding = f.funding[:0]
	return p
}

// TakeFees returns the fees and realized PnL of the futures trades settled
// since the last call, in the order of their events.
func (f *Futures) TakeFees() []TradeFee {
	t := f.tradeFees
	f.tradeFees = f.tradeFees[:0]
	return t
}

// fill moves qty contracts at price from an order into its position: the
// order's hold for them is released, the fee paid, the position opened,
// added to, reduced or turned, realized PnL settled. It answers the fee
// taken and the PnL realized.
func (f *Futures) fill(o *futOrder, qty, price int64, rate Rate) (paid, pnl int64) {
	p := &f.pos[o.pos]
	con := &f.cons[p.con]
	f.shrink(o, qty)
	notional, ok := con.notional(qty, price)
	if !ok {
		panic("risk: a fill's notional beyond int64")
	}
	if o.liq {
		// A liquidation's fill pays the liquidation fee to the fund, an
		// isolated position's from its own margin only.
		liqFee := fee(notional, con.LiqFee, 1)
		if p.isolated {
			liqFee = min(liqFee, p.margin)
			f.acct.SpendHeld(p.slot, KindFutures, con.Quote, liqFee)
			p.margin -= liqFee
			paid = liqFee
		} else {
			paid = f.take(p, liqFee)
		}
		f.addFund(con, paid)
	} else {
		paid = f.take(p, fee(notional, rate, 1))
		f.acct.receive(f.fees, KindFutures, con.Quote, paid)
	}
	side := int64(1)
	if o.side == matching.Sell {
		side = -1
	}
	p.feesPd += paid
	f.liqFill = o.liq
	pnl = f.move(p, side, qty, price)
	f.liqFill = false
	return paid, pnl
}

// move trades qty contracts into a position at price (side +1 buys, −1
// sells): it opens, adds to, reduces or turns it, settling the PnL of what
// it closes (answered) and holding the initial margin of what it opens (as
// far as the available balance goes: an order's released hold covers it).
func (f *Futures) move(p *position, side, qty, price int64) (pnl int64) {
	f.touchPos(p)
	con := &f.cons[p.con]
	closing := int64(0)
	if p.qty != 0 && sign(p.qty) != side {
		closing = min(absQty(p.qty), qty)
	}
	if closing > 0 {
		held := absQty(p.qty)
		costShare, marginShare := p.cost, p.margin
		if closing < held {
			costShare = mulShare(p.cost, closing, held)
			marginShare = mulShare(p.margin, closing, held)
		}
		value, _ := con.notional(closing, price)
		pnl = sign(p.qty) * (value - costShare)
		p.closeQty += closing
		p.closeValue += value
		p.realized += pnl
		wasLong := p.qty > 0
		p.qty += side * closing
		p.cost -= costShare
		p.margin -= marginShare
		f.acct.Release(p.slot, KindFutures, con.Quote, marginShare)
		limit := int64(-1) // a cross loss may take the whole available balance
		if p.isolated {
			limit = marginShare // an isolated one no more than the margin it had
		}
		f.realize(p, pnl, limit)
		if p.qty == 0 {
			if p.slot != f.fund {
				f.closed = append(f.closed, PositionClosed{Slot: p.slot, Contract: con.ID, Side: p.side, Long: wasLong, MaxQty: p.maxQty,
					OpenQty: p.openQty, OpenValue: p.openValue, CloseQty: p.closeQty, CloseValue: p.closeValue, Realized: p.realized,
					Fees: p.feesPd, Opened: p.opened, Closed: f.now, Liquidated: f.liqFill})
			}
			p.openQty, p.openValue, p.closeQty, p.closeValue, p.maxQty, p.realized, p.feesPd = 0, 0, 0, 0, 0, 0, 0
		}
	}
	if rest := qty - closing; rest > 0 {
		v, ok := con.notional(rest, price)
		if !ok {
			panic("risk: a position's notional beyond int64")
		}
		if p.qty == 0 {
			p.opened = f.now
		}
		p.qty += side * rest
		p.cost += v
		p.openQty += rest
		p.openValue += v
		p.maxQty = max(p.maxQty, absQty(p.qty))
		im, err := perp.Initial(v, p.lev)
		if err != nil {
			panic("risk: initial margin beyond int64")
		}
		b := f.acct.mut(p.slot, KindFutures, con.Quote)
		im = min(im, b.Avail)
		b.Avail -= im
		b.Held += im
		p.margin += im
	}
	f.holding(p)
	f.rekey(p.slot, con.Quote)
	f.checkTrim(f.indexOf(p))
	return pnl
}

// checkTrim notes a position whose reduce-only orders no longer fit it:
// those on its opening side (it turned or went flat), or more on its
// closing side than what its other closing orders leave of it. Kept so,
// no fill of a reduce-only order can open or add to a position.
func (f *Futures) checkTrim(i int32) {
	p := &f.pos[i]
	if p.roBuy+p.roSell == 0 {
		return
	}
	if roOpen, roClose, allowed := p.reduceOnly(); roOpen == 0 && roClose <= allowed {
		return
	}
	if !slices.Contains(f.trim, i) {
		f.trim = append(f.trim, i)
	}
}

// reduceOnly answers a position's reduce-only contracts on its opening
// side (all of them when flat) and on its closing side, and how many its
// closing side may have.
func (p *position) reduceOnly() (roOpen, roClose, allowed int64) {
	switch {
	case p.qty > 0:
		return p.roBuy, p.roSell, max(p.qty-(p.openSell-p.roSell), 0)
	case p.qty < 0:
		return p.roSell, p.roBuy, max(-p.qty-(p.openBuy-p.roBuy), 0)
	}
	return p.roBuy + p.roSell, 0, 0
}

// Closing answers what closes the position ref names (Qty aside): the
// side, the contracts its non-reduce-only closing orders leave of it once
// its reduce-only orders (listed, to cancel first) are gone; zero when
// flat.
func (f *Futures) Closing(ref PositionRef) (side matching.Side, qty int64, cancel []OrderRef) {
	pi, ok := f.record(ref)
	if !ok || f.pos[pi].qty == 0 {
		return matching.Buy, 0, nil
	}
	p := &f.pos[pi]
	side, qty = matching.Sell, p.qty-(p.openSell-p.roSell)
	if p.qty < 0 {
		side, qty = matching.Buy, -p.qty-(p.openBuy-p.roBuy)
	}
	for k := range f.orders {
		if o := &f.orders[k]; o.id != 0 && o.ro && o.pos == pi {
			cancel = append(cancel, OrderRef{User: ref.User, Symbol: ref.Contract, OrderID: o.id})
		}
	}
	return side, max(qty, 0), cancel
}

// OrderRef names an open order of a book.
type OrderRef struct {
	User    uint64
	Symbol  uint32
	OrderID uint64
}

// TakeTrims appends to out the reduce-only orders to cancel so that each
// position noted since the last call has none that could open or add to
// it: those on its opening side, and on its closing side the newest ones
// beyond what it allows. The engine cancels them in its book after the
// command that changed the position.
func (f *Futures) TakeTrims(out []OrderRef) []OrderRef {
	if len(f.trim) == 0 {
		return out
	}
	var ro []int
	for _, i := range f.trim {
		p := &f.pos[i]
		_, _, allowed := p.reduceOnly()
		ro = ro[:0]
		for k := range f.orders {
			if o := &f.orders[k]; o.id != 0 && o.ro && o.pos == i {
				ro = append(ro, k)
			}
		}
		slices.SortFunc(ro, func(a, b int) int { return cmp.Compare(f.orders[a].id, f.orders[b].id) })
		closing := matching.Sell
		if p.qty < 0 {
			closing = matching.Buy
		}
		for _, k := range ro {
			o := &f.orders[k]
			if p.qty != 0 && o.side == closing && o.qty <= allowed {
				allowed -= o.qty
				continue
			}
			allowed = 0 // newer ones go too: the oldest keep their place
			out = append(out, OrderRef{User: f.acct.users[p.slot].Num, Symbol: f.cons[p.con].ID, OrderID: o.id})
		}
	}
	f.trim = f.trim[:0]
	return out
}

// mulShare is x × n ÷ d rounded down, for 0 ≤ n ≤ d.
func mulShare(x, n, d int64) int64 {
	v, err := perp.MulDiv(x, n, d, false)
	if err != nil {
		panic("risk: share beyond int64")
	}
	return v
}

// realize settles a PnL against the margin coin's settlement balance: a
// profit is paid to the available balance, a loss taken from it (at most
// limit, when limit ≥ 0), then from the contract's insurance fund, then
// counted as uncovered.
func (f *Futures) realize(p *position, pnl, limit int64) {
	con := &f.cons[p.con]
	coin := con.Quote
	if p.slot == f.fund {
		// The fund's positions (taken over from liquidations) win and lose
		// for it, as far as it has.
		f.addSettle(coin, -pnl)
		f.addFund(con, pnl)
		f.deficit(con)
		return
	}
	if pnl >= 0 {
		f.addSettle(coin, -pnl)
		f.acct.receive(p.slot, KindFutures, coin, pnl)
		return
	}
	loss := -pnl
	b := f.acct.mut(p.slot, KindFutures, coin)
	paid := min(loss, b.Avail)
	if limit >= 0 {
		paid = min(paid, limit)
	}
	b.Avail -= paid
	short := loss - paid
	fund := min(short, con.insurance)
	f.addFund(con, -fund)
	f.addSettle(coin, paid+fund)
	f.uncovered[coin] += short - fund
}

// deficit ends a negative insurance fund: what it lacks was never
// collected, so the settlement balance does not get it, and it is counted
// as uncovered.
func (f *Futures) deficit(con *futContract) {
	if lack := con.insurance; lack < 0 {
		f.addSettle(con.Quote, lack)
		f.uncovered[con.Quote] -= lack
		f.addFund(con, -lack)
	}
}

// take takes amount from a position's user (a fee) and answers what it
// took: from the available balance, what is missing from the position's
// margin; what neither has is not taken.
func (f *Futures) take(p *position, amount int64) int64 {
	if amount <= 0 {
		return 0
	}
	f.touchPos(p)
	b := f.acct.mut(p.slot, KindFutures, f.cons[p.con].Quote)
	fromAvail := min(amount, b.Avail)
	b.Avail -= fromAvail
	fromMargin := min(amount-fromAvail, p.margin, b.Held)
	b.Held -= fromMargin
	p.margin -= fromMargin
	return fromAvail + fromMargin
}

// holding keeps the contract's list of positions with a size.
func (f *Futures) holding(p *position) {
	if (p.qty != 0) == p.holder {
		return
	}
	con := &f.cons[p.con]
	i := f.indexOf(p)
	if p.qty != 0 {
		con.holders = append(con.holders, i)
		p.holder = true
		return
	}
	for j, h := range con.holders {
		if h == i {
			con.holders = append(con.holders[:j], con.holders[j+1:]...)
			break
		}
	}
	p.holder = false
	con.index.Remove(i)
}

// perp is the position as internal/perp computes with it.
func (p *position) perp() perp.Position {
	side := perp.Long
	if p.qty < 0 {
		side = perp.Short
	}
	return perp.Position{Side: side, Qty: absQty(p.qty), Cost: p.cost}
}

// indexOf is a position record's index.
func (f *Futures) indexOf(p *position) int32 {
	i, _ := f.posIdx.Get(posKey(p.slot, p.con, p.side))
	return i
}

// sides calls fn for each of a slot's position records in contract ci
// (creating the one of its mode when it has none).
func (f *Futures) sides(s Slot, ci int32, fn func(p *position)) {
	found := false
	for _, i := range f.byUser[s] {
		if f.pos[i].con == ci {
			found = true
			fn(&f.pos[i])
		}
	}
	if !found {
		side := PosBoth
		if f.hedge[s] {
			side = PosLong
		}
		fn(&f.pos[f.position(s, ci, side)])
	}
}

// walletFor is the wallet balance a position's liquidation price is
// computed with: an isolated position's margin; for a cross position the
// account's available balance and cross margins, less the other cross
// positions' maintenance, plus their unrealized PnL.
func (f *Futures) walletFor(p *position) int64 {
	if p.isolated {
		return p.margin
	}
	con := &f.cons[p.con]
	wb := f.acct.At(p.slot, KindFutures, con.Quote).Avail
	for _, i := range f.byUser[p.slot] {
		q := &f.pos[i]
		qc := &f.cons[q.con]
		if q.isolated || qc.Quote != con.Quote || q.qty == 0 {
			continue
		}
		wb += q.margin
		if q == p {
			continue
		}
		wb += f.pnl(q)
		v, _ := qc.notional(absQty(q.qty), qc.mark)
		mm, _ := qc.Tiers.Maintenance(v)
		wb -= mm
	}
	return wb
}

// key is a position's liquidation price.
func (f *Futures) key(p *position) (perp.Side, int64) {
	con := &f.cons[p.con]
	pp := p.perp()
	lp, err := pp.LiquidationPrice(f.walletFor(p), con.TickValue, con.MaxPrice, con.Tiers)
	if err != nil {
		panic(fmt.Sprintf("risk: liquidation price: %v", err))
	}
	return pp.Side, lp
}

// rekey recomputes the liquidation prices of a slot's positions in a
// margin coin (a cross position's depends on the whole account).
func (f *Futures) rekey(s Slot, coin Coin) {
	for _, i := range f.byUser[s] {
		p := &f.pos[i]
		con := &f.cons[p.con]
		if p.qty == 0 || con.Quote != coin || p.slot == f.fund {
			continue
		}
		side, lp := f.key(p)
		if old, ok := con.index.Price(i); !ok || old != lp {
			f.touchPos(p) // its liquidation price moved
		}
		con.index.Set(i, side, lp)
	}
}

// PositionRef names a position liquidatable at a mark.
type PositionRef struct {
	User     uint64
	Contract uint32
	Side     PosSide
	Qty      int64
}

// Mark sets a contract's mark price and appends to out the positions
// liquidatable at it (each checked exactly; a stale key is recomputed).
// They stay in the index at their price until they change (the engine
// liquidates them), so a tick after a restart finds them again.
func (f *Futures) Mark(contract uint32, mark int64, out []PositionRef) []PositionRef {
	ci, ok := f.contract(contract)
	if !ok || mark <= 0 {
		return out
	}
	con := &f.cons[ci]
	con.mark = mark
	var due [16]int32
	var keep []int32
	for {
		ids := con.index.Due(mark, due[:0])
		if len(ids) == 0 {
			break
		}
		for _, i := range ids {
			p := &f.pos[i]
			side, lp := f.key(p)
			if (side == perp.Long && lp >= mark) || (side == perp.Short && lp <= mark) {
				out = append(out, PositionRef{User: f.acct.users[p.slot].Num, Contract: contract, Side: p.side, Qty: p.qty})
				keep = append(keep, i)
				continue
			}
			con.index.Set(i, side, lp) // stale (a cross account changed): back with its price
		}
	}
	for _, i := range keep {
		side, lp := f.key(&f.pos[i])
		con.index.Set(i, side, lp)
	}
	return out
}

// ErrFuturesState reports a futures command that does not fit the state.
var ErrFuturesState = errors.New("risk: futures command does not fit the state")

// Transfer moves amount of a margin coin between a slot's spot account and
// its futures account (in when amount > 0, out when < 0); out is limited
// to what Available answers.
func (f *Futures) Transfer(s Slot, coin Coin, amount int64) Result {
	if amount == 0 {
		return OK
	}
	if amount > 0 {
		if f.acct.Debit(s, KindSpot, coin, amount) != nil {
			return Insufficient
		}
		if f.acct.Credit(s, KindFutures, coin, amount) != nil {
			panic("risk: futures balance beyond int64")
		}
	} else {
		if -amount > f.Available(s, coin) || f.acct.Debit(s, KindFutures, coin, -amount) != nil {
			return Insufficient
		}
		if f.acct.Credit(s, KindSpot, coin, -amount) != nil {
			panic("risk: spot balance beyond int64")
		}
	}
	f.rekey(s, coin)
	return OK
}

// NoPosition: a margin change for a contract without an isolated position.
const NoPosition Result = LeverageTooHigh + 4

// Fund pays one funding round of a contract at rate (perp.RateScale) and
// its current mark: every position pays or receives perp.Funding, an
// isolated one from and into its margin, a cross one from its available
// balance (then its margin) and into it. The round's net (the rounding,
// and any payer's shortfall) goes to or comes from the insurance fund.
func (f *Futures) Fund(contract uint32, rate int64) error {
	ci, ok := f.contract(contract)
	if !ok || f.cons[ci].mark == 0 {
		return ErrFuturesState
	}
	con := &f.cons[ci]
	var collected, paidOut int64
	for _, i := range con.holders {
		p := &f.pos[i]
		amt, err := perp.Funding(p.perp(), con.mark, con.TickValue, rate)
		if err != nil {
			return err
		}
		f.touchPos(p)
		if p.slot == f.fund { // the fund's own positions pay and receive from the fund
			if amt >= 0 {
				paidOut += amt
			} else {
				collected -= amt
			}
			f.addFund(con, amt)
			continue
		}
		b := f.acct.mut(p.slot, KindFutures, con.Quote)
		if amt >= 0 {
			paidOut += amt
			if p.isolated {
				b.Held += amt
				p.margin += amt
			} else {
				b.Avail += amt
			}
			f.funding = append(f.funding, FundingPayment{Slot: p.slot, Contract: con.ID, Qty: p.qty, Amount: amt})
			continue
		}
		owed := -amt
		var fromAvail int64
		if !p.isolated {
			fromAvail = min(owed, b.Avail)
			b.Avail -= fromAvail
		}
		fromMargin := min(owed-fromAvail, p.margin)
		b.Held -= fromMargin
		p.margin -= fromMargin
		collected += fromAvail + fromMargin
		f.funding = append(f.funding, FundingPayment{Slot: p.slot, Contract: con.ID, Qty: p.qty, Amount: -(fromAvail + fromMargin)})
	}
	f.addFund(con, collected-paidOut)
	f.deficit(con)
	seen := map[Slot]bool{}
	for _, i := range con.holders {
		if s := f.pos[i].slot; !seen[s] {
			seen[s] = true
			f.rekey(s, con.Quote)
		}
	}
	return nil
}

// SetLeverage changes a slot's leverage in a contract: at most the tier
// of its position's notional, with no open orders; a position's margin
// follows (more held for a lower leverage, released for a higher one in
// cross mode).
func (f *Futures) SetLeverage(s Slot, contract uint32, lev int64) Result {
	ci, ok := f.contract(contract)
	if !ok {
		return UnknownSymbol
	}
	con := &f.cons[ci]
	if lev < 1 || lev > con.Tiers[0].MaxLeverage {
		return LeverageTooHigh
	}
	// Every side's position: its tier allows the leverage, it has no open
	// orders; the margin more a lower leverage needs is held at once.
	res, more := OK, int64(0)
	f.sides(s, ci, func(p *position) {
		if res != OK {
			return // the first side's answer
		}
		switch {
		case p.qty != 0 && con.Tiers.MaxLeverage(p.cost) < lev:
			res = LeverageTooHigh
		case p.openBuy+p.openSell > 0:
			res = ModeLocked
		case p.qty != 0:
			im, err := perp.Initial(p.cost, lev)
			if err != nil {
				res = TooLarge
			}
			more += max(im-p.margin, 0)
		}
	})
	if res != OK {
		return res
	}
	if more > 0 && !f.holdAvailable(s, con.Quote, more) {
		return Insufficient
	}
	f.sides(s, ci, func(p *position) {
		if p.qty != 0 {
			im, _ := perp.Initial(p.cost, lev)
			if d := im - p.margin; d > 0 || !p.isolated {
				if d < 0 {
					f.acct.Release(s, KindFutures, con.Quote, -d)
				}
				p.margin = im
			}
		}
		f.touchPos(p)
		p.lev = lev
	})
	f.rekey(s, con.Quote)
	return OK
}

// SetMarginMode switches a contract between cross and isolated margin for
// a slot, with no position and no open orders in it.
func (f *Futures) SetMarginMode(s Slot, contract uint32, isolated bool) Result {
	ci, ok := f.contract(contract)
	if !ok {
		return UnknownSymbol
	}
	res := OK
	f.sides(s, ci, func(p *position) {
		if p.qty != 0 || p.openBuy+p.openSell > 0 {
			res = ModeLocked
		}
	})
	if res != OK {
		return res
	}
	f.sides(s, ci, func(p *position) {
		f.touchPos(p)
		p.isolated = isolated
	})
	return OK
}

// SetPositionMode switches a slot between one-way and hedge position
// mode, with no position and no open order in any contract.
func (f *Futures) SetPositionMode(s Slot, hedge bool) Result {
	if s == NoSlot || s == f.fund {
		return ModeLocked
	}
	for _, i := range f.byUser[s] {
		if p := &f.pos[i]; p.qty != 0 || p.openBuy+p.openSell > 0 {
			return ModeLocked
		}
	}
	if hedge {
		f.hedge[s] = true
	} else {
		delete(f.hedge, s)
	}
	return OK
}

// Hedge says a slot is in hedge position mode.
func (f *Futures) Hedge(s Slot) bool { return f.hedge[s] }

// AdjustMargin adds margin to an isolated position (delta > 0, from the
// available balance) or removes it (delta < 0), never below the initial
// margin at the mark nor to where it would be liquidatable.
func (f *Futures) AdjustMargin(s Slot, contract uint32, side PosSide, delta int64) Result {
	ci, ok := f.contract(contract)
	if !ok {
		return UnknownSymbol
	}
	con := &f.cons[ci]
	if side > PosShort || f.hedge[s] != (side != PosBoth) {
		return BadPositionSide
	}
	p := &f.pos[f.position(s, ci, side)]
	if !p.isolated || p.qty == 0 || delta == 0 {
		return NoPosition
	}
	f.touchPos(p)
	if delta > 0 {
		if !f.holdAvailable(s, con.Quote, delta) {
			return Insufficient
		}
		p.margin += delta
	} else {
		left := p.margin + delta
		v, _ := con.notional(absQty(p.qty), max(con.mark, 1))
		im, err := perp.Initial(v, p.lev)
		liq, lerr := p.perp().Liquidatable(max(con.mark, 1), left, con.TickValue, con.Tiers)
		if err != nil || lerr != nil || left < im || liq {
			return WouldLiquidate
		}
		f.acct.Release(s, KindFutures, con.Quote, -delta)
		p.margin = left
	}
	f.rekey(s, con.Quote)
	return OK
}

// AddInsurance moves amount from a slot's available futures balance into
// a contract's insurance fund (the exchange seeding it).
func (f *Futures) AddInsurance(s Slot, contract uint32, amount int64) Result {
	ci, ok := f.contract(contract)
	if !ok {
		return UnknownSymbol
	}
	if f.acct.Debit(s, KindFutures, f.cons[ci].Quote, amount) != nil {
		return Insufficient
	}
	f.addFund(&f.cons[ci], amount)
	return OK
}

// PositionView is a position as the API shows it.
type PositionView struct {
	Qty         int64 // contracts, long positive
	Cost        int64
	Margin      int64
	Leverage    int64
	Isolated    bool
	Mark        int64
	PnL         int64 // unrealized, at mark
	Liquidation int64 // price in ticks (0: none for a long)
}

// Position answers a user's position in a contract on a side.
func (f *Futures) Position(user uint64, contract uint32, side PosSide) (PositionView, bool) {
	ci, ok := f.contract(contract)
	s := f.acct.Slot(user)
	if !ok || s == NoSlot {
		return PositionView{}, false
	}
	i, ok := f.posIdx.Get(posKey(s, ci, side))
	if !ok {
		return PositionView{}, false
	}
	p := &f.pos[i]
	v := PositionView{Qty: p.qty, Cost: p.cost, Margin: p.margin, Leverage: p.lev, Isolated: p.isolated, Mark: f.cons[ci].mark}
	if p.qty != 0 {
		v.PnL = f.pnl(p)
		_, v.Liquidation = f.key(p)
	}
	return v, true
}

// MarkOf is a contract's mark price in ticks (0 before the first).
func (f *Futures) MarkOf(contract uint32) int64 {
	if ci, ok := f.contract(contract); ok {
		return f.cons[ci].mark
	}
	return 0
}

// OpenInterest is the contracts held long in a contract (as many are held
// short).
func (f *Futures) OpenInterest(contract uint32) int64 {
	ci, ok := f.contract(contract)
	if !ok {
		return 0
	}
	var n int64
	for _, i := range f.cons[ci].holders {
		if q := f.pos[i].qty; q > 0 {
			n += q
		}
	}
	return n
}

// Insurance is a contract's insurance fund.
func (f *Futures) Insurance(contract uint32) int64 {
	if ci, ok := f.contract(contract); ok {
		return f.cons[ci].insurance
	}
	return 0
}

// Settlement and Uncovered are a margin coin's settlement balance and the
// losses nobody covered.
func (f *Futures) Settlement(c Coin) int64 { return f.settle[c] }

// Uncovered: see Settlement.
func (f *Futures) Uncovered(c Coin) int64 { return f.uncovered[c] }

// HeldFor is what futures orders and positions hold of a slot's margin coin.
func (f *Futures) HeldFor(s Slot, c Coin) int64 { return f.Holds()[SlotCoin{s, c}] }

// SlotCoin names a user's balance of a coin.
type SlotCoin struct {
	Slot Slot
	Coin Coin
}

// Holds is what futures orders and positions hold, per user and margin
// coin (one pass over them, for the checks).
func (f *Futures) Holds() map[SlotCoin]int64 {
	out := map[SlotCoin]int64{}
	for i := range f.pos {
		p := &f.pos[i]
		if p.margin != 0 {
			out[SlotCoin{p.slot, f.cons[p.con].Quote}] += p.margin
		}
	}
	for i := range f.orders {
		if o := &f.orders[i]; o.id != 0 && o.left != 0 {
			p := &f.pos[o.pos]
			out[SlotCoin{p.slot, f.cons[p.con].Quote}] += o.left
		}
	}
	return out
}

// CheckFutures verifies the futures invariants: no negative balance or
// margin; each futures balance's held amount is what its orders and
// positions hold; each open order's contracts are counted on its
// position; every position in a liquidation index has its current price.
func (f *Futures) CheckFutures() error {
	if err := f.acct.Check(); err != nil {
		return err
	}
	holds := f.Holds()
	for s := range f.acct.users {
		for c := range f.acct.coins {
			if h, want := f.acct.At(Slot(s), KindFutures, Coin(c)).Held, holds[SlotCoin{Slot(s), Coin(c)}]; h != want {
				return fmt.Errorf("risk: futures held %d, orders and positions %d (slot %d)", h, want, s)
			}
		}
	}
	type counts struct{ buy, sell, roBuy, roSell int64 }
	open := make([]counts, len(f.pos))
	for i := range f.orders {
		if o := &f.orders[i]; o.id != 0 {
			c := &open[o.pos]
			switch {
			case o.side == matching.Buy && o.ro:
				c.buy, c.roBuy = c.buy+o.qty, c.roBuy+o.qty
			case o.side == matching.Buy:
				c.buy += o.qty
			case o.ro:
				c.sell, c.roSell = c.sell+o.qty, c.roSell+o.qty
			default:
				c.sell += o.qty
			}
		}
	}
	for i := range f.pos {
		p := &f.pos[i]
		if p.margin < 0 || (counts{p.openBuy, p.openSell, p.roBuy, p.roSell}) != open[i] || (p.qty == 0) != (p.cost == 0) {
			return fmt.Errorf("risk: position %d: %+v (orders %+v)", i, *p, open[i])
		}
		// A hedge side's position never turns: its closing orders are
		// reduce-only, kept within it.
		if (p.side == PosLong && p.qty < 0) || (p.side == PosShort && p.qty > 0) {
			return fmt.Errorf("risk: position %d on side %d holds %d", i, p.side, p.qty)
		}
		if roOpen, roClose, allowed := p.reduceOnly(); len(f.trim) == 0 && (roOpen > 0 || roClose > allowed) {
			return fmt.Errorf("risk: position %d has reduce-only orders that could open it: %+v", i, *p)
		}
		// A cross position's key takes the account's other cross positions
		// as they were when it was computed (Mark checks each due one
		// exactly): exact only when it has none.
		if got, ok := f.cons[p.con].index.Price(int32(i)); ok && (p.isolated || f.soleCross(p)) {
			if _, want := f.key(p); got != want {
				return fmt.Errorf("risk: position %d keyed at %d, its liquidation price is %d", i, got, want)
			}
		}
	}
	return nil
}

// soleCross says a cross position is its account's only one with a size
// in its margin coin.
func (f *Futures) soleCross(p *position) bool {
	coin := f.cons[p.con].Quote
	for _, i := range f.byUser[p.slot] {
		if q := &f.pos[i]; q != p && !q.isolated && q.qty != 0 && f.cons[q.con].Quote == coin {
			return false
		}
	}
	return true
}

// Total is Σ wallet balances (fee account included) + settlement +
// insurance of a margin coin's futures money: what was transferred in,
// net, when the books balance.
func (f *Futures) Total(c Coin) int64 {
	sum := f.settle[c]
	for s := range f.acct.users {
		b := f.acct.At(Slot(s), KindFutures, c)
		sum += b.Avail + b.Held
	}
	for i := range f.cons {
		if f.cons[i].Quote == c {
			sum += f.cons[i].insurance
		}
	}
	return sum
}

// LiquidationOrder is the order that liquidates a position its contract's
// mark made liquidatable, tier by tier: a position beyond the first
// maintenance tier is reduced to the cap of the tier below its own (keep
// contracts stay: at a lower tier's rate it may no longer be due; a later
// mark finds it again if it is), one within the first tier is closed
// whole. IOC at its bankruptcy price (a long sells no lower, a short buys
// no higher), holding nothing; its fills pay the liquidation fee to the
// insurance fund, an isolated position's from its margin. The engine
// first cancels the user's other orders in the contract (their holds go
// back to the margin balance), then sends it to the book, then calls
// TakeOver with keep. ok is false when the position is no longer
// liquidatable at the mark.
func (f *Futures) LiquidationOrder(ref PositionRef, orderID uint64) (c matching.Command, keep int64, ok bool) {
	pi, ok := f.due(ref)
	if !ok || orderID == 0 {
		return matching.Command{}, 0, false
	}
	p := &f.pos[pi]
	bp := f.bankruptcy(p)
	keep = f.tierKeep(p)
	c = matching.Command{Kind: matching.CmdPlace, OrderID: orderID, UserID: ref.User, Symbol: ref.Contract, Type: matching.Limit,
		TIF: matching.IOC, Price: bp, Qty: absQty(p.qty) - keep, Side: matching.Sell}
	if p.qty < 0 {
		c.Side = matching.Buy
	}
	c.Tag = f.addOrder(futOrder{id: orderID, qty: c.Qty, price: bp, pos: pi, side: c.Side, liq: true})
	return c, keep, true
}

// tierKeep is what a partial liquidation leaves of a position: the most
// contracts, worth at the mark at most the cap of a tier below the
// position's, that would no longer be liquidatable once the rest is sold
// at the mark (an isolated position keeps its margin's share, a cross one
// the account's equity); 0 when none would be: it closes whole.
func (f *Futures) tierKeep(p *position) int64 {
	con := &f.cons[p.con]
	q := absQty(p.qty)
	value, ok := con.notional(q, con.mark)
	one, ok1 := con.notional(1, con.mark)
	if !ok || !ok1 || one <= 0 {
		return 0
	}
	tier, err := con.Tiers.For(value)
	if err != nil {
		return 0
	}
	pnl, wb := f.pnl(p), f.walletFor(p)
	for t := tier; t > 0; t-- {
		k := min(con.Tiers[t-1].Cap/one, q-1)
		if k <= 0 {
			break
		}
		rest := p.perp()
		rest.Qty, rest.Cost = k, mulShare(p.cost, k, q)
		sold, _ := con.notional(q-k, con.mark)
		liqFee := fee(sold, con.LiqFee, 1)
		left := wb - liqFee
		switch {
		case p.isolated: // the fee comes out of the margin, then the part sold takes its share
			left = mulShare(max(p.margin-liqFee, 0), k, q)
		case pnl < 0:
			left -= mulShare(-pnl, q-k, q) // the part sold realizes its loss
		default:
			left += mulShare(pnl, q-k, q)
		}
		if liq, err := rest.Liquidatable(con.mark, left, con.TickValue, con.Tiers); err == nil && !liq {
			return k
		}
	}
	return 0
}

// Due says a user's position (ref's Qty aside) is liquidatable at its
// contract's mark.
func (f *Futures) Due(ref PositionRef) bool {
	_, ok := f.due(ref)
	return ok
}

// record finds the position record ref names (Qty aside).
func (f *Futures) record(ref PositionRef) (int32, bool) {
	ci, ok := f.contract(ref.Contract)
	s := f.acct.Slot(ref.User)
	if !ok || s == NoSlot || s == f.fund {
		return 0, false
	}
	return f.posIdx.Get(posKey(s, ci, ref.Side))
}

func (f *Futures) due(ref PositionRef) (int32, bool) {
	pi, ok := f.record(ref)
	if !ok || f.pos[pi].qty == 0 {
		return 0, false
	}
	side, lp := f.key(&f.pos[pi])
	if mark := f.cons[f.pos[pi].con].mark; (side == perp.Long && lp < mark) || (side == perp.Short && lp > mark) {
		return 0, false
	}
	return pi, true
}

// bankruptcy is a position's bankruptcy price on the grid (within 1 and
// the contract's highest price).
func (f *Futures) bankruptcy(p *position) int64 {
	con := &f.cons[p.con]
	bp, err := p.perp().BankruptcyPrice(f.walletFor(p), con.TickValue)
	if err != nil {
		panic(fmt.Sprintf("risk: bankruptcy price: %v", err))
	}
	return min(max(bp, 1), con.MaxPrice)
}

// TakeOver ends what is left of a liquidated position beyond keep (after
// its liquidation order, which left keep contracts to the user) at its
// bankruptcy price. While the contract's
// insurance fund is above its ADL floor, the fund takes it over: the
// user's position closes there, losing its margin, and the fund's opens
// (the fund's positions win and lose for the fund and are never
// liquidated). At or below the floor, the opposite positions are
// auto-deleveraged instead, the highest perp.ADLScore first (ties by
// record), each closing as much as is left at that price, with no fee;
// what they cannot take goes to the fund. It answers the contracts the
// fund took, those deleveraged, and the price (zeros when nothing was
// left).
func (f *Futures) TakeOver(ref PositionRef, keep int64) (taken, deleveraged, price int64) {
	pi, ok := f.record(ref)
	if !ok || absQty(f.pos[pi].qty) <= keep {
		return 0, 0, 0
	}
	ci, s := f.pos[pi].con, f.pos[pi].slot
	qty, side := f.pos[pi].qty, -sign(f.pos[pi].qty)
	price = f.bankruptcy(&f.pos[pi])
	left := absQty(qty) - keep
	if con := &f.cons[ci]; con.insurance <= con.ADLFloor {
		for _, j := range f.adlQueue(ci, -sign(qty), s) {
			n := min(left, absQty(f.pos[j].qty))
			f.liqFill = true
			f.move(&f.pos[pi], side, n, price)
			f.liqFill = false
			f.move(&f.pos[j], -side, n, price)
			left -= n
			deleveraged += n
			if left == 0 {
				return 0, deleveraged, price
			}
		}
	}
	f.ensureFund()
	fund := f.position(f.fund, ci, PosBoth)
	f.liqFill = true
	f.move(&f.pos[pi], side, left, price)
	f.liqFill = false
	f.move(&f.pos[fund], -side, left, price)
	return left, deleveraged, price
}

// adlQueue lists the positions of a contract on one side (sign of qty),
// other than the fund's and the liquidated user's, highest ADL score first.
func (f *Futures) adlQueue(ci int32, want int64, except Slot) []int32 {
	con := &f.cons[ci]
	type ranked struct {
		i     int32
		score int64
	}
	var q []ranked
	for _, i := range con.holders {
		p := &f.pos[i]
		if sign(p.qty) != want || p.slot == f.fund || p.slot == except {
			continue
		}
		q = append(q, ranked{i, f.adlScore(p)})
	}
	slices.SortFunc(q, func(a, b ranked) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(a.i, b.i)
	})
	out := make([]int32, len(q))
	for k, r := range q {
		out[k] = r.i
	}
	return out
}

// adlScore is a position's rank in its side's auto-deleveraging queue at
// the mark (perp.ADLScore).
func (f *Futures) adlScore(p *position) int64 {
	con := &f.cons[p.con]
	pnl := f.pnl(p)
	value, _ := con.notional(absQty(p.qty), con.mark)
	score, err := perp.ADLScore(pnl, p.cost, value, f.walletFor(p)+pnl)
	if err != nil {
		panic(fmt.Sprintf("risk: ADL score: %v", err))
	}
	return score
}

// ADLScores appends the auto-deleveraging scores of a contract's long and
// short positions (the users', not the fund's) at its mark: what the
// indicator of each position's place in its queue is computed from.
func (f *Futures) ADLScores(contract uint32, longs, shorts []int64) ([]int64, []int64) {
	ci, ok := f.contract(contract)
	if !ok || f.cons[ci].mark == 0 {
		return longs, shorts
	}
	for _, i := range f.cons[ci].holders {
		p := &f.pos[i]
		switch {
		case p.slot == f.fund:
		case p.qty > 0:
			longs = append(longs, f.adlScore(p))
		default:
			shorts = append(shorts, f.adlScore(p))
		}
	}
	return longs, shorts
}

// ensureFund registers the fund's account the first time it takes a
// position (so an engine without futures keeps its accounts as they were).
func (f *Futures) ensureFund() {
	if f.fund == NoSlot {
		f.fund = f.acct.Register(FundUser, FundUserID)
	}
}
