package matching

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// withTag attaches a tag to a new order.
func withTag(c Command, tag int32) Command { c.Tag = tag; return c }

// TestTagsFollowTheirOrders: every event of an order carries the tag its
// Place attached (a trade the taker's and the maker's), through resting,
// amending, re-queueing, stop triggering, a snapshot and a rebuild; a
// rejected Place carries its command's.
func TestTagsFollowTheirOrders(t *testing.T) {
	buf := NewEventBuffer(64)
	b := NewBook(BookConfig{Symbol: 1}, buf)
	var seq uint64
	apply := func(c Command) []string {
		t.Helper()
		buf.Reset()
		seq++
		c.Seq = seq
		b.Apply(&c)
		var out []string
		for _, e := range buf.Events {
			s := fmt.Sprintf("%s #%d t%d", e.Kind, e.OrderID, e.Tag)
			if e.Kind == EvTrade {
				s += fmt.Sprintf(" m%d", e.MakerTag)
			}
			out = append(out, s)
		}
		return out
	}
	check := func(got []string, want ...string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	}
	check(apply(withTag(lim(1, 1, Sell, 10, 100), 11)), "accepted #1 t11")
	check(apply(withTag(withStop(lim(2, 2, Buy, 5, 120), 101), 22)), "accepted #2 t22")
	// A taker trades with #1, the last price 100 does not trigger #2.
	check(apply(withTag(lim(3, 3, Buy, 4, 100), 33)), "accepted #3 t33", "trade #3 t33 m11", "done #3 t33")
	check(apply(amend(1, 1, 5, 0)), "amended #1 t11")
	check(apply(withTag(withTIF(lim(4, 4, Buy, 1, 100), PostOnly), 44)), "rejected #4 t44")
	check(apply(withTag(lim(1, 9, Buy, 1, 1), 99)), "rejected #1 t99")

	// The tags survive a snapshot and a rebuild.
	var snap bytes.Buffer
	if err := b.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	r := NewBook(BookConfig{Symbol: 1}, buf)
	if err := r.Restore(&snap); err != nil {
		t.Fatal(err)
	}
	if o, _ := r.Order(1); o.Tag != 11 {
		t.Fatalf("restored #1 tag %d", o.Tag)
	}
	lb := NewBook(BookConfig{Symbol: 1}, buf)
	b.ForEachOrder(func(o OrderInfo) {
		if err := lb.LoadOrder(o); err != nil {
			t.Fatal(err)
		}
	})
	if o, _ := lb.Order(2); o.Tag != 22 {
		t.Fatalf("reloaded stop #2 tag %d", o.Tag)
	}

	// A trade at 102 triggers #2, which takes from #5 under its own tag.
	check(apply(withTag(lim(5, 5, Sell, 10, 102), 55)), "accepted #5 t55")
	check(apply(withTag(lim(6, 6, Buy, 10, 102), 66)), "accepted #6 t66", "trade #6 t66 m11", "done #1 t11",
		"trade #6 t66 m55", "done #6 t66", "triggered #2 t22", "trade #2 t22 m55", "done #5 t55", "done #2 t22")
	// An amend to a crossing price re-queues under the order's tag.
	check(apply(withTag(lim(7, 7, Sell, 3, 110), 77)), "accepted #7 t77")
	check(apply(withTag(lim(8, 8, Buy, 3, 105), 88)), "accepted #8 t88")
	check(apply(amend(8, 8, 3, 110)), "amended #8 t88", "trade #8 t88 m77", "done #7 t77", "done #8 t88")
}
