package matching

import (
	"fmt"
	"slices"
)

// Books routes commands to the books of many symbols, as one engine process
// does. Like Book, it is driven from a single goroutine.
type Books struct {
	sink    Sink
	books   map[uint32]*Book
	symbols []uint32 // ascending, for a deterministic CancelAll fan-out
	ev      Event
}

// NewBooks returns an empty router; sink receives its own rejections
// (unknown symbol). Each book has its own sink (usually the same one).
func NewBooks(sink Sink) *Books {
	return &Books{sink: sink, books: make(map[uint32]*Book)}
}

// Add registers a book under its configured symbol id. Symbols can be added
// at any time between commands.
func (x *Books) Add(b *Book) error {
	id := b.cfg.Symbol
	if id == 0 {
		return fmt.Errorf("matching: symbol id 0 is reserved")
	}
	if _, ok := x.books[id]; ok {
		return fmt.Errorf("matching: symbol %d already has a book", id)
	}
	x.books[id] = b
	pos, _ := slices.BinarySearch(x.symbols, id)
	x.symbols = slices.Insert(x.symbols, pos, id)
	return nil
}

// Book returns the book of a symbol, or nil.
func (x *Books) Book(symbol uint32) *Book { return x.books[symbol] }

// Symbols returns the registered symbol ids in ascending order.
func (x *Books) Symbols() []uint32 { return slices.Clone(x.symbols) }

// Apply routes a command. CancelAll with Symbol 0 goes to every book in
// ascending symbol order; any other command must name a registered symbol.
func (x *Books) Apply(c *Command) {
	if c.Symbol == 0 && c.Kind == CmdCancelAll {
		for _, id := range x.symbols {
			x.books[id].Apply(c)
		}
		return
	}
	if b := x.books[c.Symbol]; b != nil {
		b.Apply(c)
		return
	}
	x.ev = Event{Seq: c.Seq, Symbol: c.Symbol, Kind: EvRejected, Reason: ReasonWrongSymbol, OrderID: c.OrderID, UserID: c.UserID, Tag: c.Tag}
	x.sink.Emit(&x.ev)
}
