package matching

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// fmtEvent renders an event compactly for table tests.
func fmtEvent(e Event) string {
	switch e.Kind {
	case EvAccepted:
		return fmt.Sprintf("acc #%d", e.OrderID)
	case EvRejected:
		return fmt.Sprintf("rej #%d %s", e.OrderID, e.Reason)
	case EvTrade:
		return fmt.Sprintf("trade #%d<-#%d %dx%d", e.OrderID, e.MakerOrderID, e.Qty, e.Price)
	case EvDone:
		return fmt.Sprintf("done #%d %s rem=%d filled=%d quote=%d", e.OrderID, e.Reason, e.Qty, e.Filled, e.Quote)
	case EvAmended:
		s := fmt.Sprintf("amend #%d %dx%d", e.OrderID, e.Qty, e.Price)
		if e.Reason != ReasonNone {
			s += " " + e.Reason.String()
		}
		return s
	case EvTriggered:
		return fmt.Sprintf("trig #%d", e.OrderID)
	}
	return "?"
}

// Command builders. Users are small numbers; u is the user.
func lim(id, u uint64, side Side, qty, price int64) Command {
	return Command{Kind: CmdPlace, OrderID: id, UserID: u, Side: side, Type: Limit, TIF: GTC, Price: price, Qty: qty}
}

func withTIF(c Command, tif TimeInForce) Command { c.TIF = tif; return c }

func withSTP(c Command, m STPMode) Command { c.STP = m; return c }

func withStop(c Command, stop int64) Command { c.StopPrice = stop; return c }

func mkt(id, u uint64, side Side, qty int64) Command {
	return Command{Kind: CmdPlace, OrderID: id, UserID: u, Side: side, Type: Market, TIF: IOC, Qty: qty}
}

func mktQuote(id, u uint64, quote int64) Command {
	return Command{Kind: CmdPlace, OrderID: id, UserID: u, Side: Buy, Type: Market, TIF: IOC, Quote: quote}
}

// mktCapped is a market buy of qty lots spending at most quote.
func mktCapped(id, u uint64, qty, quote int64) Command {
	return Command{Kind: CmdPlace, OrderID: id, UserID: u, Side: Buy, Type: Market, TIF: IOC, Qty: qty, Quote: quote}
}

func cancel(id, u uint64) Command { return Command{Kind: CmdCancel, OrderID: id, UserID: u} }

func cancelAll(u uint64) Command { return Command{Kind: CmdCancelAll, UserID: u} }

func cancelAllBefore(u, before uint64) Command {
	return Command{Kind: CmdCancelAll, UserID: u, OrderID: before}
}

func amend(id, u uint64, qty, price int64) Command {
	return Command{Kind: CmdAmend, OrderID: id, UserID: u, Qty: qty, Price: price}
}

type step struct {
	cmd  Command
	want []string // nil: don't check (set-up step)
}

// do applies a step list and checks events and invariants.
func runSteps(t *testing.T, b *Book, buf *EventBuffer, steps []step) {
	t.Helper()
	for i, s := range steps {
		buf.Reset()
		c := s.cmd
		c.Seq = b.LastSeq() + 1
		if !b.Apply(&c) {
			t.Fatalf("step %d: not applied", i)
		}
		if err := b.Check(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if s.want == nil {
			for _, e := range buf.Events {
				if e.Kind == EvRejected {
					t.Fatalf("set-up step %d rejected: %s", i, fmtEvent(e))
				}
			}
			continue
		}
		var got []string
		for _, e := range buf.Events {
			if e.Seq != c.Seq || e.Symbol != b.cfg.Symbol {
				t.Fatalf("step %d: event %s carries seq %d symbol %d", i, fmtEvent(e), e.Seq, e.Symbol)
			}
			got = append(got, fmtEvent(e))
		}
		if !slices.Equal(got, s.want) {
			t.Fatalf("step %d (%+v):\n got  %s\n want %s", i, c, strings.Join(got, " | "), strings.Join(s.want, " | "))
		}
	}
}

// bookString renders the book: bids best first, then asks best first, each
// order as id:qty@price.
func bookString(b *Book) string {
	var parts []string
	b.ForEachOrder(func(o OrderInfo) {
		tag := "B"
		if o.Side == Sell {
			tag = "S"
		}
		if o.StopPrice != 0 {
			tag += fmt.Sprintf("stop%d", o.StopPrice)
		}
		parts = append(parts, fmt.Sprintf("%s#%d:%d@%d", tag, o.ID, o.Qty, o.Price))
	})
	return strings.Join(parts, " ")
}

func TestBookTable(t *testing.T) {
	none := []string{}
	cases := []struct {
		name  string
		cfg   BookConfig
		steps []step
		book  string // the book afterwards
	}{
		{name: "empty book: limit rests", steps: []step{
			{lim(1, 1, Buy, 5, 100), []string{"acc #1"}},
		}, book: "B#1:5@100"},
		{name: "empty book: market ends unfilled", steps: []step{
			{mkt(1, 1, Buy, 5), []string{"acc #1", "done #1 ioc_remainder rem=5 filled=0 quote=0"}},
		}},
		{name: "exact fill", steps: []step{
			{lim(1, 1, Sell, 5, 100), nil},
			{lim(2, 2, Buy, 5, 100), []string{"acc #2", "trade #2<-#1 5x100", "done #1 filled rem=0 filled=5 quote=500", "done #2 filled rem=0 filled=5 quote=500"}},
		}},
		{name: "partial fill: taker rests remainder at its limit", steps: []step{
			{lim(1, 1, Sell, 3, 100), nil},
			{lim(2, 2, Buy, 5, 101), []string{"acc #2", "trade #2<-#1 3x100", "done #1 filled rem=0 filled=3 quote=300"}},
		}, book: "B#2:2@101"},
		{name: "partial fill: maker keeps remainder", steps: []step{
			{lim(1, 1, Sell, 10, 100), nil},
			{lim(2, 2, Buy, 4, 100), []string{"acc #2", "trade #2<-#1 4x100", "done #2 filled rem=0 filled=4 quote=400"}},
		}, book: "S#1:6@100"},
		{name: "no cross: both rest", steps: []step{
			{lim(1, 1, Sell, 5, 101), nil},
			{lim(2, 2, Buy, 5, 100), []string{"acc #2"}},
		}, book: "B#2:5@100 S#1:5@101"},
		{name: "price-time priority across levels", steps: []step{
			{lim(1, 1, Sell, 2, 101), nil},
			{lim(2, 2, Sell, 2, 100), nil},
			{lim(3, 3, Sell, 2, 100), nil},
			{lim(4, 1, Sell, 2, 102), nil},
			{lim(5, 9, Buy, 7, 101), []string{"acc #5",
				"trade #5<-#2 2x100", "done #2 filled rem=0 filled=2 quote=200",
				"trade #5<-#3 2x100", "done #3 filled rem=0 filled=2 quote=200",
				"trade #5<-#1 2x101", "done #1 filled rem=0 filled=2 quote=202"}},
		}, book: "B#5:1@101 S#4:2@102"},
		{name: "sell taker walks bids from the highest", steps: []step{
			{lim(1, 1, Buy, 2, 99), nil},
			{lim(2, 2, Buy, 2, 100), nil},
			{mkt(3, 3, Sell, 3), []string{"acc #3",
				"trade #3<-#2 2x100", "done #2 filled rem=0 filled=2 quote=200",
				"trade #3<-#1 1x99", "done #3 filled rem=0 filled=3 quote=299"}},
		}, book: "B#1:1@99"},
		{name: "IOC remainder is cancelled", steps: []step{
			{lim(1, 1, Sell, 3, 100), nil},
			{withTIF(lim(2, 2, Buy, 5, 100), IOC), []string{"acc #2", "trade #2<-#1 3x100", "done #1 filled rem=0 filled=3 quote=300",
				"done #2 ioc_remainder rem=2 filled=3 quote=300"}},
		}, book: ""},
		{name: "IOC on empty book", steps: []step{
			{withTIF(lim(1, 1, Buy, 5, 100), IOC), []string{"acc #1", "done #1 ioc_remainder rem=5 filled=0 quote=0"}},
		}},
		{name: "FOK that cannot fill leaves the book untouched", steps: []step{
			{lim(1, 1, Sell, 3, 100), nil},
			{lim(2, 1, Sell, 3, 102), nil},
			{withTIF(lim(3, 2, Buy, 5, 101), FOK), []string{"acc #3", "done #3 fok_not_filled rem=5 filled=0 quote=0"}},
		}, book: "S#1:3@100 S#2:3@102"},
		{name: "FOK that exactly can fill", steps: []step{
			{lim(1, 1, Sell, 3, 100), nil},
			{lim(2, 1, Sell, 2, 101), nil},
			{withTIF(lim(3, 2, Buy, 5, 101), FOK), []string{"acc #3",
				"trade #3<-#1 3x100", "done #1 filled rem=0 filled=3 quote=300",
				"trade #3<-#2 2x101", "done #2 filled rem=0 filled=2 quote=202",
				"done #3 filled rem=0 filled=5 quote=502"}},
		}},
		{name: "FOK blocked by own order (cancel taker)", steps: []step{
			{lim(1, 2, Sell, 3, 100), nil},
			{lim(2, 1, Sell, 5, 100), nil},
			{withTIF(lim(3, 2, Buy, 4, 100), FOK), []string{"acc #3", "done #3 fok_not_filled rem=4 filled=0 quote=0"}},
		}, book: "S#1:3@100 S#2:5@100"},
		{name: "FOK skips own orders under cancel maker", steps: []step{
			{lim(1, 2, Sell, 3, 100), nil},
			{lim(2, 1, Sell, 5, 100), nil},
			{withSTP(withTIF(lim(3, 2, Buy, 4, 100), FOK), STPCancelMaker), []string{"acc #3",
				"done #1 stp rem=3 filled=0 quote=0", "trade #3<-#2 4x100", "done #3 filled rem=0 filled=4 quote=400"}},
		}, book: "S#2:1@100"},
		{name: "FOK on empty book", steps: []step{
			{withTIF(lim(1, 1, Sell, 1, 100), FOK), []string{"acc #1", "done #1 fok_not_filled rem=1 filled=0 quote=0"}},
		}},
		{name: "post-only that would take is rejected; passive one rests", steps: []step{
			{lim(1, 1, Sell, 5, 100), nil},
			{withTIF(lim(2, 2, Buy, 5, 100), PostOnly), []string{"rej #2 post_only_would_take"}},
			{withTIF(lim(3, 2, Buy, 5, 99), PostOnly), []string{"acc #3"}},
		}, book: "B#3:5@99 S#1:5@100"},
		{name: "market buy by quote: budget rounding to whole lots", steps: []step{
			{lim(1, 1, Sell, 3, 100), nil},
			{lim(2, 1, Sell, 5, 101), nil},
			{mktQuote(3, 2, 550), []string{"acc #3",
				"trade #3<-#1 3x100", "done #1 filled rem=0 filled=3 quote=300",
				"trade #3<-#2 2x101", // 250 left buys 2 lots at 101 (202), 48 cannot buy another
				"done #3 filled rem=0 filled=5 quote=502"}},
		}, book: "S#2:3@101"},
		{name: "market buy by quote: exact spend", steps: []step{
			{lim(1, 1, Sell, 5, 100), nil},
			{mktQuote(2, 2, 300), []string{"acc #2", "trade #2<-#1 3x100", "done #2 filled rem=0 filled=3 quote=300"}},
		}, book: "S#1:2@100"},
		{name: "market buy by quote: budget below one lot is dust", steps: []step{
			{lim(1, 1, Sell, 5, 100), nil},
			{mktQuote(2, 2, 99), []string{"acc #2", "done #2 dust rem=0 filled=0 quote=0"}},
		}, book: "S#1:5@100"},
		{name: "market buy by quote: liquidity runs out", steps: []step{
			{lim(1, 1, Sell, 2, 100), nil},
			{mktQuote(2, 2, 1000), []string{"acc #2", "trade #2<-#1 2x100", "done #1 filled rem=0 filled=2 quote=200",
				"done #2 ioc_remainder rem=0 filled=2 quote=200"}},
		}},
		{name: "market sell by quote is invalid", steps: []step{
			{Command{Kind: CmdPlace, OrderID: 1, UserID: 1, Side: Sell, Type: Market, TIF: IOC, Quote: 100}, []string{"rej #1 invalid_command"}},
			{Command{Kind: CmdPlace, OrderID: 2, UserID: 1, Side: Sell, Type: Market, TIF: IOC, Quote: 100, Qty: 1}, []string{"rej #2 invalid_command"}},
			{Command{Kind: CmdPlace, OrderID: 3, UserID: 1, Side: Buy, Type: Market, TIF: GTC, Qty: 1}, []string{"rej #3 invalid_command"}},
		}},
		{name: "market buy by quantity with a budget: the quantity is bought within it", steps: []step{
			{lim(1, 1, Sell, 3, 100), nil},
			{lim(2, 1, Sell, 5, 101), nil},
			{mktCapped(3, 2, 4, 1000), []string{"acc #3",
				"trade #3<-#1 3x100", "done #1 filled rem=0 filled=3 quote=300",
				"trade #3<-#2 1x101", "done #3 filled rem=0 filled=4 quote=401"}},
		}, book: "S#2:4@101"},
		{name: "market buy by quantity with a budget: the budget runs out first", steps: []step{
			{lim(1, 1, Sell, 3, 100), nil},
			{lim(2, 1, Sell, 5, 101), nil},
			{mktCapped(3, 2, 6, 550), []string{"acc #3",
				"trade #3<-#1 3x100", "done #1 filled rem=0 filled=3 quote=300",
				"trade #3<-#2 2x101", // 250 left buys 2 lots at 101, 48 cannot buy a third
				"done #3 ioc_remainder rem=1 filled=5 quote=502"}},
		}, book: "S#2:3@101"},
		{name: "market buy by quantity with a budget below one lot is dust", steps: []step{
			{lim(1, 1, Sell, 5, 100), nil},
			{mktCapped(2, 2, 2, 99), []string{"acc #2", "done #2 dust rem=2 filled=0 quote=0"}},
		}, book: "S#1:5@100"},
		{name: "market buy by quantity worth less than the minimum at the best ask is rejected", cfg: BookConfig{MinNotional: 500}, steps: []step{
			{lim(1, 1, Sell, 9, 100), nil},
			{mktCapped(2, 2, 4, 10000), []string{"rej #2 below_min_notional"}},
			{mkt(3, 2, Buy, 4), []string{"rej #3 below_min_notional"}},
			{mktCapped(4, 2, 5, 10000), []string{"acc #4", "trade #4<-#1 5x100", "done #4 filled rem=0 filled=5 quote=500"}},
		}, book: "S#1:4@100"},
		{name: "dust: maker remainder below min qty is cancelled", cfg: BookConfig{MinQty: 3}, steps: []step{
			{lim(1, 1, Sell, 10, 100), nil},
			{lim(2, 2, Buy, 8, 100), []string{"acc #2", "trade #2<-#1 8x100", "done #1 dust rem=2 filled=8 quote=800",
				"done #2 filled rem=0 filled=8 quote=800"}},
		}, book: ""},
		{name: "dust: taker remainder below min qty does not rest", cfg: BookConfig{MinQty: 3}, steps: []step{
			{lim(1, 1, Sell, 4, 100), nil},
			{lim(2, 2, Buy, 5, 100), []string{"acc #2", "trade #2<-#1 4x100", "done #1 filled rem=0 filled=4 quote=400",
				"done #2 dust rem=1 filled=4 quote=400"}},
		}, book: ""},
		{name: "validation rejects", cfg: BookConfig{MinQty: 2, MinNotional: 500, MaxPrice: 1000, MaxQty: 1000}, steps: []step{
			{lim(1, 1, Buy, 1, 400), []string{"rej #1 below_min_qty"}},
			{lim(2, 1, Buy, 2, 200), []string{"rej #2 below_min_notional"}},
			{lim(3, 1, Buy, 2, 0), []string{"rej #3 invalid_price"}},
			{lim(4, 1, Buy, 2, 1001), []string{"rej #4 invalid_price"}},
			{lim(5, 1, Buy, 1001, 1), []string{"rej #5 invalid_qty"}},
			{lim(0, 1, Buy, 2, 300), []string{"rej #0 invalid_command"}},
			{mktQuote(6, 1, 499), []string{"rej #6 below_min_notional"}},
			{mkt(7, 1, Sell, 1), []string{"rej #7 below_min_qty"}},
			{lim(8, 1, Buy, 2, 300), []string{"acc #8"}},
			{lim(8, 2, Sell, 2, 300), []string{"rej #8 duplicate_order_id"}},
			{withTIF(withStop(lim(9, 1, Buy, 2, 300), 310), PostOnly), []string{"rej #9 invalid_command"}},
		}, book: "B#8:2@300"},
		{name: "market sell worth less than the minimum at the best bid", cfg: BookConfig{MinNotional: 500}, steps: []step{
			{lim(1, 1, Buy, 10, 100), nil},
			{mkt(2, 2, Sell, 4), []string{"rej #2 below_min_notional"}},
			{mkt(3, 2, Sell, 5), []string{"acc #3", "trade #3<-#1 5x100", "done #3 filled rem=0 filled=5 quote=500"}},
			{cancel(1, 1), nil},
			{mkt(4, 2, Sell, 1), []string{"acc #4", "done #4 ioc_remainder rem=1 filled=0 quote=0"}},
		}, book: ""},
		{name: "cancel: unknown, wrong user, filled, twice", steps: []step{
			{cancel(1, 1), []string{"rej #1 unknown_order"}},
			{lim(1, 1, Sell, 5, 100), nil},
			{cancel(1, 2), []string{"rej #1 unknown_order"}},
			{lim(2, 2, Buy, 5, 100), nil},
			{cancel(1, 1), []string{"rej #1 unknown_order"}},
			{lim(3, 1, Sell, 5, 100), nil},
			{cancel(3, 1), []string{"done #3 cancelled rem=5 filled=0 quote=0"}},
			{cancel(3, 1), []string{"rej #3 unknown_order"}},
		}, book: ""},
		{name: "cancel of a partially filled order reports what filled", steps: []step{
			{lim(1, 1, Sell, 5, 100), nil},
			{lim(2, 2, Buy, 2, 100), nil},
			{cancel(1, 1), []string{"done #1 cancelled rem=3 filled=2 quote=200"}},
		}, book: ""},
		{name: "STP cancel taker (default) after trading with others", steps: []step{
			{lim(1, 2, Sell, 2, 100), nil},
			{lim(2, 1, Sell, 5, 100), nil},
			{lim(3, 1, Buy, 4, 100), []string{"acc #3", "trade #3<-#1 2x100", "done #1 filled rem=0 filled=2 quote=200",
				"done #3 stp rem=2 filled=2 quote=200"}},
		}, book: "S#2:5@100"},
		{name: "STP cancel maker", steps: []step{
			{lim(1, 1, Sell, 5, 100), nil},
			{lim(2, 2, Sell, 3, 100), nil},
			{withSTP(lim(3, 1, Buy, 4, 100), STPCancelMaker), []string{"acc #3", "done #1 stp rem=5 filled=0 quote=0",
				"trade #3<-#2 3x100", "done #2 filled rem=0 filled=3 quote=300"}},
		}, book: "B#3:1@100"},
		{name: "STP cancel both", steps: []step{
			{lim(1, 1, Sell, 5, 100), nil},
			{withSTP(lim(2, 1, Buy, 4, 100), STPCancelBoth), []string{"acc #2", "done #1 stp rem=5 filled=0 quote=0",
				"done #2 stp rem=4 filled=0 quote=0"}},
		}, book: ""},
		{name: "STP decrement: maker larger", steps: []step{
			{lim(1, 1, Sell, 5, 100), nil},
			{withSTP(lim(2, 1, Buy, 3, 100), STPDecrement), []string{"acc #2", "amend #1 2x100 stp", "done #2 stp rem=3 filled=0 quote=0"}},
		}, book: "S#1:2@100"},
		{name: "STP decrement: taker larger goes on", steps: []step{
			{lim(1, 1, Sell, 2, 100), nil},
			{lim(2, 2, Sell, 5, 100), nil},
			{withSTP(lim(3, 1, Buy, 3, 100), STPDecrement), []string{"acc #3", "done #1 stp rem=2 filled=0 quote=0",
				"trade #3<-#2 1x100", "done #3 filled rem=0 filled=1 quote=100"}},
		}, book: "S#2:4@100"},
		{name: "STP decrement: equal cancels both", steps: []step{
			{lim(1, 1, Sell, 3, 100), nil},
			{withSTP(lim(2, 1, Buy, 3, 100), STPDecrement), []string{"acc #2", "done #1 stp rem=3 filled=0 quote=0", "done #2 stp rem=3 filled=0 quote=0"}},
		}, book: ""},
		{name: "STP book default applies to orders without a mode", cfg: BookConfig{DefaultSTP: STPCancelMaker}, steps: []step{
			{lim(1, 1, Sell, 5, 100), nil},
			{lim(2, 1, Buy, 4, 100), []string{"acc #2", "done #1 stp rem=5 filled=0 quote=0"}},
		}, book: "B#2:4@100"},
		{name: "reduce quantity keeps time priority", steps: []step{
			{lim(1, 1, Sell, 5, 100), nil},
			{lim(2, 2, Sell, 5, 100), nil},
			{amend(1, 1, 3, 0), []string{"amend #1 3x100"}},
			{lim(3, 3, Buy, 4, 100), []string{"acc #3", "trade #3<-#1 3x100", "done #1 filled rem=0 filled=3 quote=300",
				"trade #3<-#2 1x100", "done #3 filled rem=0 filled=4 quote=400"}},
		}, book: "S#2:4@100"},
		{name: "amend up loses time priority", steps: []step{
			{lim(1, 1, Sell, 5, 100), nil},
			{lim(2, 2, Sell, 5, 100), nil},
			{amend(1, 1, 6, 0), []string{"amend #1 6x100"}},
			{lim(3, 3, Buy, 4, 100), []string{"acc #3", "trade #3<-#2 4x100", "done #3 filled rem=0 filled=4 quote=400"}},
		}, book: "S#2:1@100 S#1:6@100"},
		{name: "amend to a crossing price takes", steps: []step{
			{lim(1, 2, Buy, 5, 99), nil},
			{lim(2, 1, Sell, 5, 101), nil},
			{amend(2, 1, 5, 99), []string{"amend #2 5x99", "trade #2<-#1 5x99", "done #1 filled rem=0 filled=5 quote=495",
				"done #2 filled rem=0 filled=5 quote=495"}},
		}, book: ""},
		{name: "amend of a post-only to a crossing price is rejected", steps: []step{
			{lim(1, 2, Buy, 5, 99), nil},
			{withTIF(lim(2, 1, Sell, 5, 101), PostOnly), nil},
			{amend(2, 1, 5, 99), []string{"rej #2 post_only_would_take"}},
			{amend(2, 1, 5, 100), []string{"amend #2 5x100"}},
		}, book: "B#1:5@99 S#2:5@100"},
		{name: "amend: unknown, wrong user, below minimum", cfg: BookConfig{MinQty: 2}, steps: []step{
			{amend(1, 1, 5, 0), []string{"rej #1 unknown_order"}},
			{lim(1, 1, Sell, 5, 100), nil},
			{amend(1, 2, 4, 0), []string{"rej #1 unknown_order"}},
			{amend(1, 1, 1, 0), []string{"rej #1 below_min_qty"}},
			{amend(1, 1, 0, 0), []string{"rej #1 invalid_qty"}},
		}, book: "S#1:5@100"},
		{name: "cancel all of one user in canonical order", steps: []step{
			{lim(1, 1, Buy, 1, 98), nil},
			{lim(2, 1, Buy, 1, 99), nil},
			{lim(3, 2, Buy, 1, 99), nil},
			{lim(4, 1, Sell, 1, 102), nil},
			{lim(5, 1, Sell, 1, 101), nil},
			{withStop(lim(6, 1, Buy, 1, 110), 109), nil},
			{cancelAll(1), []string{"done #2 cancelled rem=1 filled=0 quote=0", "done #1 cancelled rem=1 filled=0 quote=0",
				"done #5 cancelled rem=1 filled=0 quote=0", "done #4 cancelled rem=1 filled=0 quote=0",
				"done #6 cancelled rem=1 filled=0 quote=0"}},
			{cancelAll(1), none},
		}, book: "B#3:1@99"},
		{name: "cancel all bounded by an order id spares newer orders, also when delivered again", steps: []step{
			{lim(1, 1, Buy, 1, 98), nil},
			{lim(2, 1, Buy, 1, 99), nil},
			{lim(5, 1, Sell, 1, 101), nil},
			{cancelAllBefore(1, 5), []string{"done #2 cancelled rem=1 filled=0 quote=0", "done #1 cancelled rem=1 filled=0 quote=0"}},
			{lim(7, 1, Buy, 1, 97), nil},
			{cancelAllBefore(1, 5), none},
		}, book: "B#7:1@97 S#5:1@101"},
		{name: "stop-limit: waits, triggers on the last price, then takes", steps: []step{
			{lim(1, 1, Sell, 1, 100), nil},
			{lim(2, 2, Buy, 1, 100), nil}, // last price 100
			{withStop(lim(3, 3, Buy, 2, 106), 100), []string{"rej #3 stop_would_trigger"}},
			{withStop(lim(3, 3, Buy, 2, 106), 105), []string{"acc #3"}},
			{lim(4, 1, Sell, 3, 105), nil},
			{lim(5, 2, Buy, 1, 105), []string{"acc #5", "trade #5<-#4 1x105", "done #5 filled rem=0 filled=1 quote=105",
				"trig #3", "trade #3<-#4 2x105", "done #4 filled rem=0 filled=3 quote=315", "done #3 filled rem=0 filled=2 quote=210"}},
		}, book: ""},
		{name: "stop-limit: sell stop triggers and rests its remainder", steps: []step{
			{lim(1, 1, Sell, 1, 100), nil},
			{lim(2, 2, Buy, 1, 100), nil},
			{withStop(lim(3, 3, Sell, 4, 95), 96), []string{"acc #3"}},
			{lim(4, 1, Buy, 1, 96), nil},
			{lim(5, 2, Sell, 1, 96), []string{"acc #5", "trade #5<-#4 1x96", "done #4 filled rem=0 filled=1 quote=96",
				"done #5 filled rem=0 filled=1 quote=96", "trig #3"}},
			{amend(3, 3, 2, 0), []string{"amend #3 2x95"}},
		}, book: "S#3:2@95"},
		{name: "stop-limit: amend and cancel while waiting", steps: []step{
			{withStop(lim(1, 1, Sell, 4, 95), 96), []string{"acc #1"}}, // no last price yet: waits
			{amend(1, 1, 3, 94), []string{"amend #1 3x94"}},
			{cancel(1, 1), []string{"done #1 cancelled rem=3 filled=0 quote=0"}},
		}, book: ""},
		{name: "wrong symbol and bad kind", cfg: BookConfig{Symbol: 4}, steps: []step{
			{Command{Kind: CmdPlace, Symbol: 5, OrderID: 1, UserID: 1, Side: Buy, Type: Limit, TIF: GTC, Price: 1, Qty: 1}, []string{"rej #1 wrong_symbol"}},
			{Command{Kind: 9, OrderID: 2}, []string{"rej #2 invalid_command"}},
			{Command{Kind: CmdPlace, Symbol: 4, OrderID: 3, UserID: 1, Side: Buy, Type: Limit, TIF: GTC, Price: 1, Qty: 1}, []string{"acc #3"}},
		}, book: "B#3:1@1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			buf := NewEventBuffer(16)
			b := NewBook(tc.cfg, buf)
			runSteps(t, b, buf, tc.steps)
			if got := bookString(b); got != tc.book {
				t.Fatalf("book %q, want %q", got, tc.book)
			}
		})
	}
}

func TestApplyIgnoresReplayedSeq(t *testing.T) {
	buf := NewEventBuffer(4)
	b := NewBook(BookConfig{}, buf)
	c := lim(1, 1, Buy, 1, 10)
	c.Seq = 5
	if !b.Apply(&c) {
		t.Fatal("first apply refused")
	}
	buf.Reset()
	for _, seq := range []uint64{5, 4, 0} {
		c.Seq = seq
		if b.Apply(&c) || len(buf.Events) != 0 {
			t.Fatalf("seq %d applied again: %v", seq, buf.Events)
		}
	}
	if b.LastSeq() != 5 || b.Len() != 1 {
		t.Fatalf("last seq %d len %d", b.LastSeq(), b.Len())
	}
}

func TestTradeIDsAndQueries(t *testing.T) {
	buf := NewEventBuffer(16)
	b := NewBook(BookConfig{Symbol: 3}, buf)
	runSteps(t, b, buf, []step{
		{lim(1, 1, Sell, 2, 101), nil},
		{lim(2, 1, Sell, 3, 101), nil},
		{lim(3, 1, Sell, 4, 103), nil},
		{lim(4, 2, Buy, 6, 99), nil},
		{lim(5, 2, Buy, 1, 100), nil},
		{lim(6, 3, Buy, 3, 101), nil},
	})
	var ids []uint64
	for _, e := range buf.Events {
		if e.Kind == EvTrade {
			ids = append(ids, e.TradeID)
		}
	}
	if !slices.Equal(ids, []uint64{1, 2}) || b.LastTradeID() != 2 || b.LastPrice() != 101 {
		t.Fatalf("trade ids %v last %d price %d", ids, b.LastTradeID(), b.LastPrice())
	}
	if p, q, ok := b.BestAsk(); !ok || p != 101 || q != 2 {
		t.Fatalf("best ask %d %d %v", p, q, ok)
	}
	if p, q, ok := b.BestBid(); !ok || p != 100 || q != 1 {
		t.Fatalf("best bid %d %d %v", p, q, ok)
	}
	depth := b.AppendDepth(nil, Buy, 5)
	if !slices.Equal(depth, []DepthLevel{{100, 1, 1}, {99, 6, 1}}) {
		t.Fatalf("bid depth %v", depth)
	}
	depth = b.AppendDepth(depth[:0], Sell, 1)
	if !slices.Equal(depth, []DepthLevel{{101, 2, 1}}) {
		t.Fatalf("ask depth %v", depth)
	}
	o, ok := b.Order(2)
	if !ok || o.Qty != 2 || o.Filled != 1 || o.FilledQuote != 101 || o.UserID != 1 || o.STP != STPCancelTaker {
		t.Fatalf("order 2: %+v %v", o, ok)
	}
	if _, ok := b.Order(6); ok {
		t.Fatal("filled order still visible")
	}
}

func TestBooksRouting(t *testing.T) {
	buf := NewEventBuffer(16)
	x := NewBooks(buf)
	b1 := NewBook(BookConfig{Symbol: 1}, buf)
	b2 := NewBook(BookConfig{Symbol: 2}, buf)
	if err := x.Add(b2); err != nil {
		t.Fatal(err)
	}
	if err := x.Add(b1); err != nil {
		t.Fatal(err)
	}
	if x.Add(NewBook(BookConfig{Symbol: 1}, buf)) == nil || x.Add(NewBook(BookConfig{}, buf)) == nil {
		t.Fatal("duplicate or zero symbol accepted")
	}
	seq := uint64(0)
	send := func(c Command) {
		seq++
		c.Seq = seq
		x.Apply(&c)
	}
	c := lim(1, 7, Buy, 1, 10)
	c.Symbol = 1
	send(c)
	c = lim(2, 7, Buy, 1, 10)
	c.Symbol = 2
	send(c)
	c = lim(3, 7, Buy, 1, 10)
	c.Symbol = 9
	send(c)
	buf.Reset()
	send(cancelAll(7))
	var got []string
	for _, e := range buf.Events {
		got = append(got, fmt.Sprintf("%d:%s", e.Symbol, fmtEvent(e)))
	}
	want := []string{"1:done #1 cancelled rem=1 filled=0 quote=0", "2:done #2 cancelled rem=1 filled=0 quote=0"}
	if !slices.Equal(got, want) || b1.Len() != 0 || b2.Len() != 0 {
		t.Fatalf("cancel all across books: %v", got)
	}
	if !slices.Equal(x.Symbols(), []uint32{1, 2}) || x.Book(2) != b2 || x.Book(3) != nil {
		t.Fatal("symbol registry")
	}
}

func TestEventRing(t *testing.T) {
	r := NewEventRing(3) // rounds up to 4
	for i := 1; i <= 6; i++ {
		r.Emit(&Event{Seq: uint64(i)})
	}
	if r.Len() != 4 || r.Dropped != 2 {
		t.Fatalf("len %d dropped %d", r.Len(), r.Dropped)
	}
	for want := uint64(3); want <= 6; want++ {
		e, ok := r.Pop()
		if !ok || e.Seq != want {
			t.Fatalf("pop %d: %v %v", want, e.Seq, ok)
		}
	}
	if _, ok := r.Pop(); ok {
		t.Fatal("pop from empty ring")
	}
}

func TestStringers(t *testing.T) {
	for r := ReasonNone; r < reasonCount; r++ {
		if r.String() == "" || r.String() == "invalid_reason" {
			t.Errorf("reason %d has no name", r)
		}
	}
	if Reason(200).String() != "invalid_reason" || Side(0).String() != "invalid_side" || Buy.String() != "buy" ||
		Market.String() != "market" || FOK.String() != "fok" || STPDecrement.String() != "decrement" ||
		CmdAmend.String() != "amend" || EvTriggered.String() != "triggered" {
		t.Error("stringers")
	}
}

// Depth by buckets: the levels of the first n buckets of span ticks, bids
// grouped down and asks up, and a bucket the level cap would cut is left
// out whole.
func TestAppendDepthBuckets(t *testing.T) {
	buf := NewEventBuffer(16)
	b := NewBook(BookConfig{Symbol: 3}, buf)
	if got := b.AppendDepthBuckets(nil, Buy, 10, 2, 100); len(got) != 0 {
		t.Fatalf("empty book: %v", got)
	}
	// Bids 199, 195, 190 | 189, 181 | 170 | 50; asks 201, 210 | 211, 219, 220 | 221 | 500.
	// The last of each side is far away: many empty buckets lie between.
	id := uint64(0)
	for _, p := range []int64{199, 195, 190, 189, 181, 170, 50} {
		id++
		runSteps(t, b, buf, []step{{lim(id, 1, Buy, 1, p), nil}})
	}
	for _, p := range []int64{201, 210, 211, 219, 220, 221, 500} {
		id++
		runSteps(t, b, buf, []step{{lim(id, 2, Sell, 1, p), nil}})
	}
	prices := func(ls []DepthLevel) []int64 {
		var out []int64
		for _, l := range ls {
			out = append(out, l.Price)
		}
		return out
	}
	for _, c := range []struct {
		side   Side
		n, max int
		want   []int64
	}{
		{Buy, 1, 100, []int64{199, 195, 190}},           // bucket 19
		{Buy, 2, 100, []int64{199, 195, 190, 189, 181}}, // buckets 19, 18
		{Buy, 3, 100, []int64{199, 195, 190, 189, 181, 170}},
		{Buy, 4, 100, []int64{199, 195, 190, 189, 181, 170, 50}}, // n counts buckets that hold levels
		{Buy, 9, 100, []int64{199, 195, 190, 189, 181, 170, 50}},
		{Buy, 2, 4, []int64{199, 195, 190}}, // bucket 18 would be cut: left out
		{Buy, 1, 2, []int64{199, 195}},      // the first bucket alone is kept, cut
		{Sell, 1, 100, []int64{201, 210}},   // bucket 21 (up: 201..210)
		{Sell, 2, 100, []int64{201, 210, 211, 219, 220}},
		{Sell, 3, 100, []int64{201, 210, 211, 219, 220, 221}},
		{Sell, 4, 100, []int64{201, 210, 211, 219, 220, 221, 500}},
		{Sell, 3, 4, []int64{201, 210}},
	} {
		if got := prices(b.AppendDepthBuckets(nil, c.side, 10, c.n, c.max)); !slices.Equal(got, c.want) {
			t.Errorf("%v n=%d max=%d: %v, want %v", c.side, c.n, c.max, got, c.want)
		}
	}
}
