package engine

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"

	"tenger/internal/matching"
	"tenger/internal/risk"
)

// Code is the engine's answer to a command.
type Code uint8

// Answers.
const (
	OK Code = iota
	// Exists: the Ref was applied before with the same fields; nothing
	// changed now (a retry).
	Exists
	// Conflict: the Ref was applied before with other fields.
	Conflict
	// Insufficient: the available balance cannot cover it.
	Insufficient
	// Rejected: the book refused the order command (Result.Reason says why).
	Rejected
	// UnknownCoin, UnknownPair, UnknownHold, UnknownOrder: nothing of that
	// name is listed, or holds anything.
	UnknownCoin
	UnknownPair
	UnknownHold
	UnknownOrder
	// Invalid: a malformed command (a negative amount, a missing field, a
	// value beyond the engine's units).
	Invalid
	// Futures: LeverageTooHigh (above the position's tier or the
	// contract's), PositionLimit (past the last tier), ModeLocked (margin
	// mode or leverage with open orders or a position), WouldLiquidate (a
	// margin removal too large), NoPosition (no isolated position),
	// ReduceOnly (a reduce-only order larger than what it can close).
	LeverageTooHigh
	PositionLimit
	ModeLocked
	WouldLiquidate
	NoPosition
	ReduceOnly
	// WouldTrigger: a trigger order whose price is already reached.
	WouldTrigger
	// PositionSide: an order or command names no position of the user's
	// position mode (a side in one-way mode, none in hedge mode).
	PositionSide
	codeEnd
)

var codeNames = [...]string{OK: "ok", Exists: "exists", Conflict: "conflict", Insufficient: "insufficient",
	Rejected: "rejected", UnknownCoin: "unknown_coin", UnknownPair: "unknown_pair", UnknownHold: "unknown_hold",
	UnknownOrder: "unknown_order", Invalid: "invalid", LeverageTooHigh: "leverage_too_high", PositionLimit: "position_limit",
	ModeLocked: "mode_locked", WouldLiquidate: "would_liquidate", NoPosition: "no_position", ReduceOnly: "reduce_only",
	WouldTrigger: "would_trigger", PositionSide: "position_side"}

func (c Code) String() string {
	if c < codeEnd {
		return codeNames[c]
	}
	return "invalid_code"
}

// Result is what a command did.
type Result struct {
	Code Code
	// Reason is the book's reason for a Rejected order command.
	Reason matching.Reason
	// Seq is the command's place in the engine's sequence.
	Seq uint64
	// OrderID is, for a place answered Exists, the order its client order
	// id placed first.
	OrderID uint64
}

// hold is a withdrawal's hold, named by its Ref.
type hold struct {
	slot    risk.Slot
	account risk.Kind
	coin    risk.Coin
	amount  int64
}

// State is the engine's deterministic state: the balances (risk), the
// books, the listed coins and pairs, the refs of the money commands
// applied and the open withdrawal holds. Apply is its only way to change;
// the same commands from the same state give the same state (StateHash).
type State struct {
	acct  *risk.Accounts
	spot  *risk.Spot
	fut   *risk.Futures
	books *matching.Books
	out   *matching.EventBuffer
	coins map[string]risk.Coin
	pairs map[uint32]PairSpec
	// contracts are the listed perpetual contracts by book symbol;
	// liquidatable the positions the marks since ResetEvents answered.
	contracts    map[uint32]ContractSpec
	liquidatable []risk.PositionRef
	trims        []risk.OrderRef
	funding      []FundingPaid
	// The trigger orders (triggers.go): by id, each contract's indexes,
	// the indexes' dense ids, each user's count; triggered the ones the
	// commands since ResetEvents reached.
	triggers  map[uint64]*trigger
	trigBooks map[uint32]*triggerBook
	trigIDs   []uint64
	trigFree  []int32
	trigCount map[uint64]int
	trigDue   []int32
	triggered []TriggerRef
	// trigChildren lists the triggers waiting for each parent order's
	// fill; dropped those cancelled with their unfilled order since
	// ResetEvents.
	trigChildren map[uint64][]uint64
	dropped      []TriggerRef
	closed       []ClosedPosition
	// refs maps a money command's kind and Ref to a digest of its fields.
	refs  map[string]uint64
	holds map[string]hold
	// coids are the client order ids of the last ClientIDWindow, in time
	// order in coidOrder (clientids.go); existing is the order a place
	// answered Exists names.
	coids     map[string]clientOrder
	coidOrder []string
	existing  uint64
	seq       uint64
	fees      []risk.TradeFee
}

// NewState returns an empty state.
func NewState() *State {
	s := &State{acct: risk.NewAccounts(1024), out: matching.NewEventBuffer(4096), coins: map[string]risk.Coin{},
		pairs: map[uint32]PairSpec{}, refs: map[string]uint64{}, holds: map[string]hold{}, coids: map[string]clientOrder{},
		contracts: map[uint32]ContractSpec{}}
	s.initTriggers()
	s.spot = risk.NewSpot(s.acct, 1<<14)
	s.fut = risk.NewFutures(s.acct)
	s.books = matching.NewBooks(s.out)
	return s
}

// Seq is the sequence number of the last command applied.
func (s *State) Seq() uint64 { return s.seq }

// Events are the book events of the commands applied since the last
// ResetEvents, in order (money commands have none).
func (s *State) Events() []matching.Event { return s.out.Events }

// Fees are the fees of the trade events since the last ResetEvents, in
// their order.
func (s *State) Fees() []risk.TradeFee { return s.fees }

// ResetEvents empties the event and fee buffers once they are consumed.
func (s *State) ResetEvents() {
	s.out.Reset()
	s.fees = s.fees[:0]
	s.liquidatable = s.liquidatable[:0]
	s.funding = s.funding[:0]
	s.triggered = s.triggered[:0]
	s.dropped = s.dropped[:0]
	s.closed = s.closed[:0]
}

// Accounts are the engine-owned balances.
func (s *State) Accounts() *risk.Accounts { return s.acct }

// Futures is the futures risk stage, to read.
func (s *State) Futures() *risk.Futures { return s.fut }

// Coin returns a listed coin's index.
func (s *State) Coin(code string) (risk.Coin, bool) {
	c, ok := s.coins[code]
	return c, ok
}

// Book returns a pair's book (nil when not listed).
func (s *State) Book(symbol uint32) *matching.Book { return s.books.Book(symbol) }

// digest is a hash of the fields a money command's Ref stands for.
func digest(c *Command) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%d|%s|%d|%s|%d|%x", c.Kind, c.User, c.UserID, c.Account, c.Coin, c.Amount, c.Note)
	return h.Sum64()
}

func refKey(k Kind, ref string) string { return string(rune('a'+k)) + ref }

// Apply applies one command; c.At must be set. Order commands get their
// Seq (and a new order its Tag) here.
func (s *State) Apply(c *Command) Result {
	s.seq++
	res := Result{Seq: s.seq}
	s.existing = 0
	if len(s.contracts) > 0 {
		s.fut.SetNow(c.At)
	}
	res.Code, res.Reason = s.apply(c)
	if len(s.contracts) > 0 {
		// The reduce-only orders the command's position changes left
		// without a position to reduce are cancelled with it.
		s.trims = s.fut.TakeTrims(s.trims[:0])
		for _, o := range s.trims {
			s.cancelWithin(o)
		}
		if closed := s.fut.TakeClosed(); len(closed) > 0 {
			users := s.acct.Users()
			for _, p := range closed {
				s.closed = append(s.closed, ClosedPosition{User: users[p.Slot].Num, UserID: users[p.Slot].ID, PositionClosed: p})
			}
		}
	}
	if res.Code == Exists && c.Kind == KindPlace {
		res.OrderID = s.existing
	}
	return res
}

func (s *State) apply(c *Command) (Code, matching.Reason) {
	switch c.Kind {
	case KindPlace, KindCancel, KindAmend, KindCancelAll:
		return s.order(c)
	case KindAddCoin:
		if _, ok := s.coins[c.Coin]; ok {
			return Exists, 0
		}
		id, err := s.acct.AddCoin(risk.CoinInfo{Code: c.Coin, Decimals: c.Decimals})
		if err != nil {
			return Invalid, 0
		}
		s.coins[c.Coin] = id
		return OK, 0
	case KindAddPair:
		return s.addPair(&c.Pair), 0
	case KindAddContract, KindFutTransfer, KindFutLeverage, KindFutMarginMode, KindFutMargin, KindMark, KindLiquidate, KindFunding,
		KindPositionMode:
		return s.futures(c), 0
	case KindTrigger:
		return s.armTrigger(c), 0
	case KindTriggerCancel:
		return s.cancelTrigger(c), 0
	case KindTriggerFire:
		return s.fireTrigger(c)
	}
	if !c.Kind.isMoney() {
		return Invalid, 0
	}
	return s.money(c), 0
}

func (s *State) addPair(p *PairSpec) Code {
	if _, ok := s.pairs[p.Symbol]; ok {
		return Exists
	}
	if _, ok := s.contracts[p.Symbol]; ok {
		return Invalid
	}
	base, ok1 := s.coins[p.Base]
	quote, ok2 := s.coins[p.Quote]
	if !ok1 || !ok2 {
		return UnknownCoin
	}
	sym := risk.Symbol{ID: p.Symbol, Base: base, Quote: quote, LotUnits: p.LotUnits, QuoteUnitUnits: p.QuoteUnitUnits}
	if s.spot.AddSymbol(sym) != nil {
		return Invalid
	}
	cfg := p.Book
	cfg.Symbol = p.Symbol
	if s.books.Add(matching.NewBook(cfg, s.out)) != nil {
		return Invalid
	}
	s.pairs[p.Symbol] = *p
	return OK
}

// order runs an order command through R1, the book(s) and R2.
func (s *State) order(c *Command) (Code, matching.Reason) {
	o := &c.Order
	o.Seq, o.Tag = s.seq, 0
	switch c.Kind {
	case KindPlace:
		o.Kind = matching.CmdPlace
		_, pair := s.pairs[o.Symbol]
		_, contract := s.contracts[o.Symbol]
		if !pair && !contract {
			return UnknownPair, 0
		}
		// A client order id placed within the window answers for the
		// order it placed (clientids.go).
		if code, known := s.knownClientID(c); known {
			return code, 0
		}
		if contract {
			// A futures order: its margin price is Order.Quote for a market one.
			if code := futuresCode(s.fut.Place(o, risk.FuturesSpec{Maker: c.Spec.Maker, Taker: c.Spec.Taker, MarginPrice: o.Quote,
				ReduceOnly: c.Spec.ReduceOnly, PosSide: c.Spec.PosSide})); code != OK {
				return code, 0
			}
			break
		}
		switch s.spot.Place(o, c.Spec) {
		case risk.OK:
		case risk.Insufficient:
			return Insufficient, 0
		case risk.UnknownSymbol:
			return UnknownPair, 0
		default:
			return Invalid, 0
		}
	case KindAmend:
		o.Kind = matching.CmdAmend
		b := s.books.Book(o.Symbol)
		if b == nil {
			return UnknownPair, 0
		}
		if _, ok := s.contracts[o.Symbol]; ok {
			return Invalid, 0 // futures orders are cancelled and placed again
		}
		info, _ := b.Order(o.OrderID)
		if amendToRest(o, info, b.Config()) {
			break // the fills overtook the amendment: it cancels the rest
		}
		switch s.spot.Amend(o, info.Tag) {
		case risk.OK:
		case risk.Insufficient:
			return Insufficient, 0
		case risk.UnknownOrder:
			return UnknownOrder, 0
		default:
			return Invalid, 0
		}
	case KindCancel:
		o.Kind = matching.CmdCancel
	case KindCancelAll:
		o.Kind = matching.CmdCancelAll
	}
	evs := s.applyBook(o)
	for i := range evs {
		if e := &evs[i]; e.Kind == matching.EvRejected {
			if c.Kind == KindPlace && e.Reason != matching.ReasonDuplicateOrderID {
				s.rememberClientID(c) // stored REJECTED under its client order id
			}
			return Rejected, e.Reason
		}
	}
	if c.Kind == KindPlace {
		s.rememberClientID(c)
	}
	return OK, 0
}

// amendToRest turns an amendment's new total quantity (Order.Qty, the
// filled part included: what the user asked for) into the book's new
// remaining quantity against the live order, and reports whether it became
// a cancel of the rest: when the order filled, since the caller looked,
// up to the new total or so close to it that the rest is below the pair's
// minimum quantity or notional (the user asked for at most that total, so
// the order must not go on filling its old volume). An amendment that
// would not reduce the order gets quantity 0, which the book refuses with
// no change. An order that is not live (or not the user's) is left for the
// risk stage and the book to refuse.
func amendToRest(o *matching.Command, info matching.OrderInfo, cfg matching.BookConfig) bool {
	o.Price, o.Quote, o.StopPrice = 0, 0, 0
	if info.ID != o.OrderID || info.UserID != o.UserID {
		return false
	}
	total, before := o.Qty, info.Filled+info.Qty
	if total >= before {
		o.Qty = 0
		return false
	}
	rest := total - info.Filled
	if info.Filled > 0 && (rest < 1 || rest < cfg.MinQty || info.Price*rest < cfg.MinNotional) {
		o.Kind, o.Qty = matching.CmdCancel, 0
		return true
	}
	o.Qty = rest
	return false
}

// money applies a credit, debit, hold, settle or release once per Ref.
func (s *State) money(c *Command) Code {
	if c.Ref == "" || c.Amount <= 0 || (c.Kind <= KindHold && c.UserID == "") {
		return Invalid
	}
	return s.once(c, func() Code {
		if c.Kind == KindSettle || c.Kind == KindRelease {
			return s.endHold(c)
		}
		return s.change(c)
	})
}

// change is a credit, a debit or a hold.
func (s *State) change(c *Command) Code {
	coin, ok := s.coins[c.Coin]
	if !ok {
		return UnknownCoin
	}
	if c.Amount == 0 {
		return Invalid
	}
	slot := s.acct.Slot(c.User)
	switch c.Kind {
	case KindCredit:
		if slot == risk.NoSlot {
			slot = s.acct.Register(c.User, c.UserID)
		}
		if s.acct.Credit(slot, c.Account, coin, c.Amount) != nil {
			return Invalid
		}
	case KindDebit, KindHold:
		if slot == risk.NoSlot {
			return Insufficient
		}
		var err error
		if c.Kind == KindDebit {
			err = s.acct.Debit(slot, c.Account, coin, c.Amount)
		} else {
			err = s.acct.Hold(slot, c.Account, coin, c.Amount)
		}
		if err != nil {
			return Insufficient
		}
		if c.Kind == KindHold {
			s.holds[c.Ref] = hold{slot: slot, account: c.Account, coin: coin, amount: c.Amount}
		}
	}
	return OK
}

// endHold settles or releases a withdrawal's hold; Amount must be the
// hold's (the store projection accounts for it). A hold already ended the
// other way, or of another amount, is a Conflict.
func (s *State) endHold(c *Command) Code {
	h, ok := s.holds[c.Ref]
	if !ok {
		other := KindRelease
		if c.Kind == KindRelease {
			other = KindSettle
		}
		if _, done := s.refs[refKey(other, c.Ref)]; done {
			return Conflict
		}
		return UnknownHold
	}
	if c.Amount != h.amount {
		return Conflict // the caller names a hold of another amount
	}
	if c.Kind == KindSettle {
		s.acct.SpendHeld(h.slot, h.account, h.coin, h.amount)
	} else {
		s.acct.Release(h.slot, h.account, h.coin, h.amount)
	}
	delete(s.holds, c.Ref)
	return OK
}

// Check verifies the invariants: no negative balance, and what every
// balance holds equals what its open orders and withdrawals hold.
func (s *State) Check() error {
	extra := map[[3]int]int64{}
	for _, h := range s.holds {
		extra[[3]int{int(h.slot), int(h.account), int(h.coin)}] += h.amount
	}
	futures := s.fut.Holds()
	if err := s.spot.Check(func(sl risk.Slot, k risk.Kind, c risk.Coin) int64 {
		if k == risk.KindFutures {
			return futures[risk.SlotCoin{Slot: sl, Coin: c}]
		}
		return extra[[3]int{int(sl), int(k), int(c)}]
	}); err != nil {
		return err
	}
	if !s.checkTriggers() {
		return fmt.Errorf("engine: the users' trigger counts disagree with their triggers")
	}
	return s.fut.CheckFutures()
}

// StateHash hashes the whole state: balances and order holds, every book,
// the refs applied and the open holds, and the sequence.
func (s *State) StateHash() uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%d|%d|", s.seq, s.spot.StateHash(), s.fut.StateHash())
	for _, k := range slices.Sorted(maps.Keys(s.contracts)) {
		fmt.Fprintf(h, "c%d=%+v|", k, s.contracts[k])
	}
	for _, sym := range s.books.Symbols() {
		fmt.Fprintf(h, "%d:%d|", sym, s.books.Book(sym).StateHash())
	}
	for _, id := range slices.Sorted(maps.Keys(s.triggers)) {
		tr := s.triggers[id]
		o := &tr.cmd.Order
		fmt.Fprintf(h, "t%d=%d/%d/%d/%d/%d/%d/%d/%+v/%+v/%v|", id, tr.cmd.User, o.Symbol, o.Side, o.Type, o.TIF, o.Price, o.Qty,
			tr.cmd.Spec, tr.cmd.Trigger, tr.due)
	}
	for _, k := range slices.Sorted(maps.Keys(s.refs)) {
		fmt.Fprintf(h, "%q=%d|", k, s.refs[k])
	}
	for _, k := range slices.Sorted(maps.Keys(s.holds)) {
		fmt.Fprintf(h, "%q=%+v|", k, s.holds[k])
	}
	for _, k := range slices.Sorted(maps.Keys(s.coids)) {
		fmt.Fprintf(h, "%q=%+v|", k, s.coids[k])
	}
	return h.Sum64()
}
