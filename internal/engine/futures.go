package engine

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"tenger/internal/matching"
	"tenger/internal/perp"
	"tenger/internal/risk"
)

// ContractSpec is a perpetual contract in engine terms (KindAddContract):
// its book's symbol id (never one of a pair's), its margin coin, what a
// contract is worth per tick in the coin's units, the highest price, the
// maintenance tiers (caps in the coin's units, rates in 10^-8; Cum is
// computed), fees and the insurance fund's floor for auto-deleveraging.
type ContractSpec struct {
	Symbol    uint32
	Name      string // "BTCUSDT"
	Quote     string
	TickValue int64
	MaxPrice  int64
	Maker     risk.Rate
	Taker     risk.Rate
	LiqFee    risk.Rate
	ADLFloor  int64
	Tiers     []perp.Tier
	Book      matching.BookConfig
}

// maxTiers bounds a contract's tier table on the wire.
const maxTiers = 64

func appendContract(dst []byte, k *ContractSpec) []byte {
	le := binary.LittleEndian
	dst = le.AppendUint32(dst, k.Symbol)
	dst = appendString(dst, k.Name)
	dst = appendString(dst, k.Quote)
	for _, v := range []int64{k.TickValue, k.MaxPrice, int64(k.Maker), int64(k.Taker), int64(k.LiqFee), k.ADLFloor, int64(len(k.Tiers))} {
		dst = le.AppendUint64(dst, uint64(v))
	}
	for _, t := range k.Tiers {
		dst = le.AppendUint64(dst, uint64(t.Cap))
		dst = le.AppendUint64(dst, uint64(t.MMR))
		dst = le.AppendUint64(dst, uint64(t.MaxLeverage))
	}
	return appendBookConfig(dst, &k.Book)
}

func (r *reader) contract(k *ContractSpec) {
	k.Symbol = r.u32()
	k.Name, k.Quote = r.str(), r.str()
	k.TickValue, k.MaxPrice = int64(r.u64()), int64(r.u64())
	k.Maker, k.Taker, k.LiqFee = risk.Rate(r.u64()), risk.Rate(r.u64()), risk.Rate(r.u64())
	k.ADLFloor = int64(r.u64())
	n := r.u64()
	if n > maxTiers {
		if r.err == nil {
			r.err = fmt.Errorf("%w: %d tiers", ErrCodec, n)
		}
		return
	}
	for range n {
		k.Tiers = append(k.Tiers, perp.Tier{Cap: int64(r.u64()), MMR: int64(r.u64()), MaxLeverage: int64(r.u64())})
	}
	r.bookConfig(&k.Book, k.Symbol)
}

// futuresCode is the engine's answer for a futures risk result.
func futuresCode(r risk.Result) Code {
	switch r {
	case risk.OK:
		return OK
	case risk.Insufficient:
		return Insufficient
	case risk.UnknownSymbol:
		return UnknownPair
	case risk.LeverageTooHigh:
		return LeverageTooHigh
	case risk.PositionLimit:
		return PositionLimit
	case risk.ModeLocked:
		return ModeLocked
	case risk.WouldLiquidate:
		return WouldLiquidate
	case risk.NoPosition:
		return NoPosition
	case risk.ReduceOnly:
		return ReduceOnly
	case risk.BadPositionSide:
		return PositionSide
	}
	return Invalid
}

// addContract lists a contract and opens its book.
func (s *State) addContract(k *ContractSpec) Code {
	if _, ok := s.contracts[k.Symbol]; ok {
		return Exists
	}
	if _, ok := s.pairs[k.Symbol]; ok || k.Symbol == 0 || s.books.Book(k.Symbol) != nil || len(k.Tiers) > maxTiers {
		return Invalid
	}
	quote, ok := s.coins[k.Quote]
	if !ok {
		return UnknownCoin
	}
	tiers, err := perp.NewTiers(k.Tiers)
	if err != nil {
		return Invalid
	}
	cfg := k.Book
	cfg.Symbol = k.Symbol
	book := matching.NewBook(cfg, s.out)
	if s.fut.AddContract(risk.FuturesContract{ID: k.Symbol, Quote: quote, TickValue: k.TickValue, MaxPrice: k.MaxPrice, Tiers: tiers,
		Maker: k.Maker, Taker: k.Taker, LiqFee: k.LiqFee, ADLFloor: k.ADLFloor}) != nil {
		return Invalid
	}
	if s.books.Add(book) != nil {
		panic("engine: a contract's book could not be added after its checks")
	}
	s.contracts[k.Symbol] = *k
	return OK
}

// futures applies the futures commands other than orders.
func (s *State) futures(c *Command) Code {
	sym := c.Order.Symbol
	if c.Kind != KindAddContract && c.Kind != KindFutTransfer && c.Kind != KindPositionMode {
		if _, ok := s.contracts[sym]; !ok {
			return UnknownPair
		}
	}
	switch c.Kind {
	case KindAddContract:
		return s.addContract(&c.Contract)
	case KindFutTransfer, KindFunding:
		return s.once(c, func() Code {
			if c.Kind == KindFunding {
				if s.fut.Fund(sym, c.Amount) != nil {
					return Invalid
				}
				users := s.acct.Users()
				for _, p := range s.fut.TakeFunding() {
					s.funding = append(s.funding, FundingPaid{User: users[p.Slot].Num, UserID: users[p.Slot].ID, Contract: p.Contract,
						Qty: p.Qty, Amount: p.Amount})
				}
				return OK
			}
			return s.futTransfer(c)
		})
	case KindMark:
		if c.Amount <= 0 {
			return Invalid
		}
		s.liquidatable = s.fut.Mark(sym, c.Amount, s.liquidatable)
		s.reached(sym, false, c.Amount)
		return OK
	case KindLiquidate:
		return s.liquidate(c)
	}
	if c.User == 0 {
		return Invalid
	}
	slot := s.acct.Register(c.User, c.UserID)
	switch c.Kind {
	case KindFutLeverage:
		return futuresCode(s.fut.SetLeverage(slot, sym, c.Amount))
	case KindFutMarginMode:
		if c.Amount != 0 && c.Amount != 1 {
			return Invalid
		}
		return futuresCode(s.fut.SetMarginMode(slot, sym, c.Amount == 1))
	case KindFutMargin:
		return futuresCode(s.fut.AdjustMargin(slot, sym, c.Spec.PosSide, c.Amount))
	case KindPositionMode:
		if c.Amount != 0 && c.Amount != 1 {
			return Invalid
		}
		if s.trigCount[c.User] > 0 {
			return ModeLocked // armed triggers name a position of the mode
		}
		return futuresCode(s.fut.SetPositionMode(slot, c.Amount == 1))
	}
	return Invalid
}

// once applies a command idempotent by its Ref (as the money commands
// are): a retry with the same fields answers Exists, other fields
// Conflict.
func (s *State) once(c *Command, apply func() Code) Code {
	if c.Ref == "" {
		return Invalid
	}
	key, d := refKey(c.Kind, c.Ref), digest(c)
	if prev, ok := s.refs[key]; ok {
		if prev == d {
			return Exists
		}
		return Conflict
	}
	code := apply()
	if code == OK {
		s.refs[key] = d
	}
	return code
}

// futTransfer moves a margin coin between the spot and futures accounts.
func (s *State) futTransfer(c *Command) Code {
	coin, ok := s.coins[c.Coin]
	if !ok {
		return UnknownCoin
	}
	if c.Amount <= 0 || (c.Account != risk.KindFutures && c.Account != risk.KindSpot) {
		return Invalid
	}
	slot := s.acct.Slot(c.User)
	if slot == risk.NoSlot {
		return Insufficient
	}
	amount := c.Amount
	if c.Account == risk.KindSpot {
		amount = -amount
	}
	return futuresCode(s.fut.Transfer(slot, coin, amount))
}

// liqOrderID is the book order id of the liquidation order of the engine
// command at seq: a range no user order id reaches.
func liqOrderID(seq uint64) uint64 { return 1<<62 | seq }

// liquidate is one step of a position's liquidation (KindLiquidate).
func (s *State) liquidate(c *Command) Code {
	sym := c.Order.Symbol
	ref := risk.PositionRef{User: c.User, Contract: sym, Side: c.Spec.PosSide}
	switch c.Amount {
	case 1: // the user's orders in the contract go, while the position is due
		if !s.fut.Due(ref) {
			return OK
		}
		o := matching.Command{Kind: matching.CmdCancelAll, UserID: c.User, Symbol: sym, Seq: s.seq}
		s.applyBook(&o)
		return OK
	case 2: // the liquidation order; then what is left goes to the fund or is deleveraged
		o, keep, ok := s.fut.LiquidationOrder(ref, liqOrderID(s.seq))
		if ok {
			o.Seq = s.seq
			s.applyBook(&o)
			s.fut.TakeOver(ref, keep)
		}
		return OK
	}
	return Invalid
}

// Contracts lists the listed contracts by symbol id.
func (s *State) Contracts() []ContractSpec {
	out := make([]ContractSpec, 0, len(s.contracts))
	for _, k := range s.contracts {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b ContractSpec) int { return cmp.Compare(a.Symbol, b.Symbol) })
	return out
}

// ClosedPosition is a position that went back to flat, for its history.
type ClosedPosition struct {
	User   uint64
	UserID string
	risk.PositionClosed
}

// Closed are the positions closed since the last ResetEvents.
func (s *State) Closed() []ClosedPosition { return s.closed }

// FundingPaid is what one position paid (Amount < 0) or received in a
// funding round (Batch.Funding).
type FundingPaid struct {
	User     uint64
	UserID   string
	Contract uint32
	Qty      int64
	Amount   int64
}

// Funding are the payments of the funding rounds applied since the last
// ResetEvents.
func (s *State) Funding() []FundingPaid { return s.funding }

// follow applies a command to a book that took one at its sequence
// number already (Book.Follow), and says so.
func (s *State) follow(o *matching.Command) bool {
	b := s.books.Book(o.Symbol)
	return b != nil && b.LastSeq() == o.Seq && b.Follow(o)
}

// cancelWithin cancels a contract's order as a part of the command being
// applied (its events are the command's).
func (s *State) cancelWithin(o risk.OrderRef) {
	s.applyBook(&matching.Command{Kind: matching.CmdCancel, OrderID: o.OrderID, UserID: o.User, Symbol: o.Symbol, Seq: s.seq})
}

// Liquidatable are the positions the marks applied since the last
// ResetEvents made liquidatable: the runtime sends their KindLiquidate
// steps. A restart finds them again at the next mark.
func (s *State) Liquidatable() []risk.PositionRef { return s.liquidatable }

// applyBook runs one book command and settles its events with the risk
// stage of each event's book.
//
// A contract's book may take several commands within one engine command
// (the follow-ups the risk stage asks for: cancelling the reduce-only
// orders a fill left without a position, those a closing trigger
// replaces): the book's Follow adds them to the command it took.
func (s *State) applyBook(o *matching.Command) []matching.Event {
	from := len(s.out.Events)
	if len(s.contracts) == 0 || !s.follow(o) {
		s.books.Apply(o)
	}
	evs := s.out.Events[from:]
	if len(s.contracts) == 0 {
		// Spot alone: no event needs routing (the hot path stays as it was).
		s.spot.Settle(evs)
		s.fees = append(s.fees, s.spot.TakeFees()...)
		return evs
	}
	traded := false
	for i := range evs {
		e := &evs[i]
		if _, ok := s.contracts[e.Symbol]; ok {
			s.fut.Emit(e)
			if e.Kind == matching.EvTrade {
				s.fees = append(s.fees, s.fut.TakeFees()...)
				traded = true
			}
			continue
		}
		s.spot.Emit(e)
		if e.Kind == matching.EvTrade {
			s.fees = append(s.fees, s.spot.TakeFees()...)
		}
	}
	if len(s.trigChildren) > 0 {
		s.parentEvents(evs)
	}
	if traded {
		// The contract's last price moved: its last-price triggers.
		s.reached(o.Symbol, true, s.books.Book(o.Symbol).LastPrice())
	}
	return evs
}
