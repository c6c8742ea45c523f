package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"

	"tenger/internal/matching"
	"tenger/internal/risk"
)

// Kind is what a command asks the engine for.
type Kind uint8

// Command kinds. Orders go through R1, a book and R2; money commands change
// one engine-owned balance and are idempotent by their Ref.
const (
	KindPlace     Kind = 1
	KindCancel    Kind = 2
	KindAmend     Kind = 3
	KindCancelAll Kind = 4
	// KindCredit adds Amount to what the account can spend: a deposit, a
	// transfer in from an account the store ledger keeps.
	KindCredit Kind = 5
	// KindDebit takes Amount from what the account can spend: a transfer
	// out to an account the store ledger keeps.
	KindDebit Kind = 6
	// KindHold holds Amount for a withdrawal (Ref names the hold).
	KindHold Kind = 7
	// KindSettle pays out the hold Ref names (the withdrawal was sent).
	KindSettle Kind = 8
	// KindRelease gives the hold Ref names back (the withdrawal failed).
	KindRelease Kind = 9
	// KindAddCoin lists a coin (Code, Decimals); KindAddPair a pair.
	KindAddCoin Kind = 10
	KindAddPair Kind = 11
	// Perpetual futures (futures.go). KindAddContract lists a contract
	// (Contract). The others name their contract by Order.Symbol:
	// KindFutTransfer moves Amount of Coin into the futures account
	// (Account KindFutures) or out of it to spot (Account KindSpot), once
	// per Ref; KindFutLeverage sets the user's leverage (Amount);
	// KindFutMarginMode its margin mode (Amount 1 isolated, 0 cross);
	// KindFutMargin adds (Amount > 0) or removes an isolated position's
	// margin; KindMark sets the mark price (Amount, ticks) and answers the
	// positions it makes liquidatable (State.Liquidatable); KindLiquidate
	// liquidates one (Amount 1: cancel the user's orders in the contract;
	// 2: the liquidation order, then the take-over or auto-deleveraging of
	// what is left: one book command per engine command); KindFunding pays
	// a funding round at rate Amount (10^-8, signed) once per Ref.
	KindAddContract   Kind = 12
	KindFutTransfer   Kind = 13
	KindFutLeverage   Kind = 14
	KindFutMarginMode Kind = 15
	KindFutMargin     Kind = 16
	KindMark          Kind = 17
	KindLiquidate     Kind = 18
	KindFunding       Kind = 19
	// Trigger orders (triggers.go): KindTrigger arms one (Order is the
	// order it places, Order.OrderID its id; Trigger its condition);
	// KindTriggerCancel disarms the user's trigger Order.OrderID;
	// KindTriggerFire places the order of a trigger its price reached.
	KindTrigger       Kind = 20
	KindTriggerCancel Kind = 21
	KindTriggerFire   Kind = 22
	// KindPositionMode sets the user's position mode in every contract:
	// Amount 1 hedge (a long and a short position per contract, orders
	// naming theirs by Spec.PosSide), 0 one-way.
	KindPositionMode Kind = 23
	kindEnd          Kind = 24
)

var kindNames = [...]string{KindPlace: "place", KindCancel: "cancel", KindAmend: "amend", KindCancelAll: "cancel_all",
	KindCredit: "credit", KindDebit: "debit", KindHold: "hold", KindSettle: "settle", KindRelease: "release",
	KindAddCoin: "add_coin", KindAddPair: "add_pair", KindAddContract: "add_contract", KindFutTransfer: "futures_transfer",
	KindFutLeverage: "futures_leverage", KindFutMarginMode: "futures_margin_mode", KindFutMargin: "futures_margin",
	KindMark: "mark", KindLiquidate: "liquidate", KindFunding: "funding", KindTrigger: "trigger", KindTriggerCancel: "trigger_cancel",
	KindTriggerFire: "trigger_fire", KindPositionMode: "position_mode"}

func (k Kind) String() string {
	if k > 0 && k < kindEnd {
		return kindNames[k]
	}
	return "invalid_kind"
}

// isMoney says the kind changes one balance and is idempotent by Ref.
func (k Kind) isMoney() bool { return k >= KindCredit && k <= KindRelease }

// Command is one instruction to the engine. Everything that changes an
// engine-owned balance is one: orders, deposits, withdrawals, transfers.
type Command struct {
	Kind Kind
	// Ref is the caller's idempotency id of a money command
	// ("deposit:TRC20:<tx>:0", "wd:<id>"): applied once, a retry with the
	// same fields answers Exists, one with other fields Conflict.
	Ref string
	// User is the user's number (the books' UserID) and UserID its id in
	// the store; a user is known to the engine from its first command.
	User    uint64
	UserID  string
	Account risk.Kind
	// Coin names a coin by its code (money commands, KindAddCoin).
	Coin string
	// Amount is in the coin's engine units.
	Amount int64
	// Order is the book command of an order kind (Seq and Tag are the
	// engine's to set).
	Order matching.Command
	// Spec is a new order's account and fee rates; its PosSide also names
	// the position of KindFutMargin and KindLiquidate.
	Spec risk.OrderSpec
	// Decimals is a listed coin's engine unit (KindAddCoin).
	Decimals int32
	// Pair is a listed pair (KindAddPair).
	Pair PairSpec
	// Contract is a listed perpetual contract (KindAddContract).
	Contract ContractSpec
	// Trigger is a trigger order's condition (KindTrigger).
	Trigger TriggerSpec
	// At is when the engine received the command (Unix ms), set by the
	// engine and journaled, so a replay sees the same times.
	At int64
	// Note is the caller's, journaled and handed on with the command but
	// never read by the engine: what the store projection needs beyond the
	// engine's fields (an order's type and client id, a deposit's chain
	// account, a withdrawal's fee split).
	Note []byte
}

// PairSpec is a trading pair in engine terms.
type PairSpec struct {
	Symbol uint32
	Name   string // "btcusdt"
	Base   string
	Quote  string
	// LotUnits is one lot in base engine units, QuoteUnitUnits one quote
	// unit (tick × lot) in quote engine units.
	LotUnits       int64
	QuoteUnitUnits int64
	Book           matching.BookConfig
}

// bookKind is the book command of an order kind.
func bookKind(k Kind) matching.CommandKind {
	switch k {
	case KindPlace:
		return matching.CmdPlace
	case KindCancel:
		return matching.CmdCancel
	case KindAmend:
		return matching.CmdAmend
	case KindCancelAll:
		return matching.CmdCancelAll
	case KindTrigger:
		return matching.CmdPlace // the order it places
	}
	return 0
}

// reduceOnlyBit marks a reduce-only futures order in its spec's byte;
// the two bits under it carry its position side (risk.PosSide).
const (
	reduceOnlyBit = 0x80
	posSideShift  = 5
	posSideMask   = 3 << posSideShift
)

// codecVersion is the first byte of every encoded command; a journal
// written by another version is refused rather than misread.
const codecVersion = 1

// ErrCodec reports a command that cannot be encoded or decoded.
var ErrCodec = errors.New("engine: bad command encoding")

// AppendCommand appends c's encoding to dst.
func AppendCommand(dst []byte, c *Command) []byte {
	le := binary.LittleEndian
	dst = append(dst, codecVersion, byte(c.Kind), byte(c.Account))
	dst = le.AppendUint64(dst, c.User)
	dst = le.AppendUint64(dst, uint64(c.Amount))
	dst = le.AppendUint64(dst, uint64(c.At))
	dst = appendString(dst, c.Ref)
	dst = appendString(dst, c.UserID)
	dst = appendString(dst, c.Coin)
	dst = le.AppendUint32(dst, uint32(len(c.Note)))
	dst = append(dst, c.Note...)
	switch c.Kind {
	case KindPlace, KindCancel, KindAmend, KindCancelAll, KindTrigger:
		var b [matching.CommandSize]byte
		o := c.Order
		o.Kind = bookKind(c.Kind)
		matching.EncodeCommand(b[:], &o)
		dst = append(dst, b[:]...)
		dst = le.AppendUint32(dst, uint32(c.Spec.Maker))
		dst = le.AppendUint32(dst, uint32(c.Spec.Taker))
		// The account kind's byte carries the reduce-only flag in its top
		// bit (journals written before it have it clear).
		flags := byte(c.Spec.Kind) | byte(c.Spec.PosSide)<<posSideShift&posSideMask
		if c.Spec.ReduceOnly {
			flags |= reduceOnlyBit
		}
		dst = append(dst, flags)
		if c.Kind == KindTrigger {
			t := &c.Trigger
			dst = le.AppendUint64(dst, uint64(t.Price))
			bits := byte(0)
			for i, on := range []bool{t.Above, t.ByLast, t.Close, t.Parent != 0} {
				if on {
					bits |= 1 << i
				}
			}
			dst = append(dst, bits)
			if t.Parent != 0 {
				dst = le.AppendUint64(dst, t.Parent)
			}
		}
	case KindTriggerCancel, KindTriggerFire:
		dst = le.AppendUint64(dst, c.Order.OrderID)
		dst = le.AppendUint32(dst, c.Order.Symbol)
	case KindAddCoin:
		dst = le.AppendUint32(dst, uint32(c.Decimals))
	case KindAddPair:
		p := &c.Pair
		dst = le.AppendUint32(dst, p.Symbol)
		dst = appendString(dst, p.Name)
		dst = appendString(dst, p.Base)
		dst = appendString(dst, p.Quote)
		dst = le.AppendUint64(dst, uint64(p.LotUnits))
		dst = le.AppendUint64(dst, uint64(p.QuoteUnitUnits))
		dst = appendBookConfig(dst, &p.Book)
	case KindAddContract:
		dst = appendContract(dst, &c.Contract)
	case KindFutLeverage, KindFutMarginMode, KindFutMargin, KindMark, KindLiquidate, KindFunding:
		dst = le.AppendUint32(dst, c.Order.Symbol)
		if c.Spec.PosSide != risk.PosBoth && (c.Kind == KindFutMargin || c.Kind == KindLiquidate) {
			dst = append(dst, byte(c.Spec.PosSide)) // journals before hedge mode have none
		}
	}
	return dst
}

func appendBookConfig(dst []byte, b *matching.BookConfig) []byte {
	for _, v := range []int64{b.MinQty, b.MinNotional, b.MaxPrice, b.MaxQty, int64(b.DefaultSTP), int64(b.InitialOrders), int64(b.InitialLevels)} {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(v))
	}
	return dst
}

// readBookConfig reads what appendBookConfig wrote.
func (r *reader) bookConfig(b *matching.BookConfig, symbol uint32) {
	b.MinQty, b.MinNotional, b.MaxPrice, b.MaxQty = int64(r.u64()), int64(r.u64()), int64(r.u64()), int64(r.u64())
	stp, orders, levels := r.u64(), r.u64(), r.u64()
	if stp > uint64(matching.STPDecrement) || orders > math.MaxInt32 || levels > math.MaxInt32 {
		if r.err == nil {
			r.err = fmt.Errorf("%w: book configuration", ErrCodec)
		}
		return
	}
	b.DefaultSTP, b.InitialOrders, b.InitialLevels = matching.STPMode(stp), int(orders), int(levels)
	b.Symbol = symbol
}

func appendString(dst []byte, s string) []byte {
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(s)))
	return append(dst, s...)
}

// reader decodes what AppendCommand wrote.
type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.b) < n {
		r.err = ErrCodec
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) u8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *reader) str() string {
	n := 0
	if b := r.take(2); b != nil {
		n = int(binary.LittleEndian.Uint16(b))
	}
	return string(r.take(n))
}

// DecodeCommand reads one encoded command.
func DecodeCommand(b []byte, c *Command) error {
	r := &reader{b: b}
	if v := r.u8(); v != codecVersion {
		return fmt.Errorf("%w: version %d", ErrCodec, v)
	}
	*c = Command{Kind: Kind(r.u8()), Account: risk.Kind(r.u8())}
	c.User = r.u64()
	c.Amount = int64(r.u64())
	c.At = int64(r.u64())
	c.Ref, c.UserID, c.Coin = r.str(), r.str(), r.str()
	if n := r.u32(); n > 0 {
		if n > uint32(len(r.b)) {
			return ErrCodec
		}
		c.Note = append([]byte(nil), r.take(int(n))...)
	}
	switch c.Kind {
	case KindPlace, KindCancel, KindAmend, KindCancelAll, KindTrigger:
		if b := r.take(matching.CommandSize); b != nil {
			if err := matching.DecodeCommand(b, &c.Order); err != nil || c.Order.Kind != bookKind(c.Kind) {
				return fmt.Errorf("%w: the order command", ErrCodec)
			}
		}
		c.Spec.Maker, c.Spec.Taker = risk.Rate(r.u32()), risk.Rate(r.u32())
		flags := r.u8()
		c.Spec.Kind, c.Spec.ReduceOnly = risk.Kind(flags&^(reduceOnlyBit|posSideMask)), flags&reduceOnlyBit != 0
		c.Spec.PosSide = risk.PosSide(flags & posSideMask >> posSideShift)
		if c.Kind == KindTrigger {
			c.Trigger.Price = int64(r.u64())
			bits := r.u8()
			c.Trigger.Above, c.Trigger.ByLast, c.Trigger.Close = bits&1 != 0, bits&2 != 0, bits&4 != 0
			if bits&8 != 0 {
				c.Trigger.Parent = r.u64()
			}
		}
	case KindTriggerCancel, KindTriggerFire:
		c.Order.OrderID, c.Order.Symbol = r.u64(), r.u32()
	case KindAddCoin:
		c.Decimals = int32(r.u32())
	case KindAddPair:
		p := &c.Pair
		p.Symbol = r.u32()
		p.Name, p.Base, p.Quote = r.str(), r.str(), r.str()
		p.LotUnits, p.QuoteUnitUnits = int64(r.u64()), int64(r.u64())
		r.bookConfig(&p.Book, p.Symbol)
	case KindAddContract:
		r.contract(&c.Contract)
	case KindFutLeverage, KindFutMarginMode, KindFutMargin, KindMark, KindLiquidate, KindFunding:
		c.Order.Symbol = r.u32()
		if (c.Kind == KindFutMargin || c.Kind == KindLiquidate) && len(r.b) > 0 {
			c.Spec.PosSide = risk.PosSide(r.u8())
		}
	case KindCredit, KindDebit, KindHold, KindSettle, KindRelease, KindFutTransfer, KindPositionMode:
	default:
		return fmt.Errorf("%w: kind %d", ErrCodec, c.Kind)
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = ErrCodec
	}
	return r.err
}

// UserNumber maps a user id to the engine's number for it (Command.User,
// the books' UserID): numeric ids (the auth service issues 8-digit ones)
// map to themselves, anything else to a hash with the top bit set so the
// two ranges never meet.
func UserNumber(uid string) uint64 {
	if n, err := strconv.ParseUint(uid, 10, 63); err == nil && n > 0 {
		return n
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(uid))
	return h.Sum64() | 1<<63
}
