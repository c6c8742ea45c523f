package matching

import (
	"bytes"
	"errors"
	"testing"
)

func TestCommandCodecRoundTrip(t *testing.T) {
	gen := newCmdGen(31)
	buf := make([]byte, CommandSize)
	for i := 0; i < 2000; i++ {
		c := gen.next()
		if c.Kind < CmdPlace || c.Kind > CmdAmend || c.Side > Sell || c.Type > Market || c.TIF > PostOnly {
			continue // not representable: the decoder refuses unknown enums
		}
		EncodeCommand(buf, &c)
		var d Command
		if err := DecodeCommand(buf, &d); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if d != c {
			t.Fatalf("round trip: %+v != %+v", d, c)
		}
	}
	var d Command
	if !errors.Is(DecodeCommand(buf[:CommandSize-1], &d), ErrBadCommand) {
		t.Fatal("short input accepted")
	}
}

// fuzzBook is a small book with resting orders on both sides and a stop,
// against which fuzzed commands are applied.
func fuzzBook() *Book {
	b := NewBook(BookConfig{Symbol: 1, MinQty: 2, MinNotional: 100}, discard{})
	seq := uint64(0)
	for i, c := range []Command{
		lim(1, 1, Buy, 5, 98), lim(2, 2, Buy, 5, 99), lim(3, 1, Sell, 5, 101), lim(4, 2, Sell, 5, 102),
		withStop(lim(5, 3, Sell, 5, 90), 95),
	} {
		seq = uint64(i + 1)
		c.Seq = seq
		b.Apply(&c)
	}
	return b
}

// FuzzDecodeCommand feeds arbitrary bytes to the decoder and, when they
// decode, to the validator and a book: nothing may panic, a decoded command
// re-encodes to the same bytes, a rejected command changes nothing, and the
// book stays consistent.
func FuzzDecodeCommand(f *testing.F) {
	buf := make([]byte, CommandSize)
	for _, c := range []Command{
		lim(10, 3, Buy, 5, 101), mkt(11, 3, Sell, 3), mktQuote(12, 3, 500), cancel(1, 1), cancelAll(2),
		amend(2, 2, 3, 0), withStop(lim(13, 4, Buy, 2, 120), 110), withTIF(lim(14, 4, Sell, 9, 98), FOK),
	} {
		c.Seq = 100
		EncodeCommand(buf, &c)
		f.Add(bytes.Clone(buf))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Command
		if err := DecodeCommand(data, &c); err != nil {
			return
		}
		out := make([]byte, CommandSize)
		EncodeCommand(out, &c)
		if !bytes.Equal(out, data) {
			t.Fatalf("re-encoding differs")
		}
		b := fuzzBook()
		cfg := b.Config()
		reason := c.Validate(&cfg)
		if c.Symbol != 0 && c.Symbol != cfg.Symbol {
			reason = ReasonWrongSymbol
		}
		before := b.StateHash()
		sink := NewEventBuffer(8)
		b.SetSink(sink)
		c.Seq = b.LastSeq() + 1 + c.Seq%4
		b.Apply(&c)
		if err := b.Check(); err != nil {
			t.Fatalf("%+v broke the book: %v", c, err)
		}
		if reason != ReasonNone {
			if len(sink.Events) != 1 || sink.Events[0].Kind != EvRejected || sink.Events[0].Reason != reason {
				t.Fatalf("%+v invalid (%s) but got %v", c, reason, sink.Events)
			}
		}
		if len(sink.Events) == 1 && sink.Events[0].Kind == EvRejected {
			if h := b.StateHash(); h == before {
				t.Fatal("seq not recorded")
			}
			b2 := fuzzBook()
			b2.lastSeq = b.LastSeq()
			if b2.StateHash() != b.StateHash() {
				t.Fatalf("rejected %+v changed the book", c)
			}
		}
	})
}
