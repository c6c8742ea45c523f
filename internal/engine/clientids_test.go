package engine

import (
	"bytes"
	"testing"

	"tenger/internal/matching"
)

// withClientID is a place under a client order id, at ms.
func withClientID(c Command, coid, note string, ms int64) Command {
	c.Ref, c.Note, c.At = coid, []byte(note), ms
	return c
}

// A client order id places one order within the window, whichever process
// sends it: the same order again is answered Exists with the first order's
// id, another order Conflict, another user's same id is theirs; after the
// window the id is free. A snapshot and a replay keep exactly that.
func TestClientOrderIDsPlaceOnce(t *testing.T) {
	s := NewState()
	run(t, s, setup()...)
	run(t, s, credit("d1", 1, "USDT", 10_000_000_000_000), credit("d2", 2, "USDT", 10_000_000_000_000))
	const t0 = 1_000_000
	first := withClientID(place(11, 1, matching.Buy, 3_000_000, 100), "bot-1", `{"f":"a"}`, t0)
	rs := run(t, s,
		first,
		withClientID(place(12, 1, matching.Buy, 3_000_000, 100), "bot-1", `{"f":"a"}`, t0+10), // a retry: another id, same order
		withClientID(place(13, 1, matching.Buy, 3_000_000, 200), "bot-1", `{"f":"b"}`, t0+20), // another order, same id
		withClientID(place(14, 2, matching.Buy, 3_000_000, 100), "bot-1", `{"f":"a"}`, t0+30), // another user's
	)
	if got := codes(rs); got[0] != OK || got[1] != Exists || got[2] != Conflict || got[3] != OK {
		t.Fatalf("codes %v", got)
	}
	if rs[1].OrderID != 11 || rs[0].OrderID != 0 {
		t.Fatalf("the retry names order %d, want 11", rs[1].OrderID)
	}
	for _, id := range []uint64{12, 13} {
		if _, ok := s.Book(btcusdt).Order(id); ok {
			t.Fatalf("order %d rests: the client order id placed twice", id)
		}
	}

	// A snapshot keeps the ids; the restored state answers the same.
	var b bytes.Buffer
	if err := s.Snapshot(&b); err != nil {
		t.Fatal(err)
	}
	r, err := RestoreState(&b)
	if err != nil {
		t.Fatal(err)
	}
	if r.StateHash() != s.StateHash() {
		t.Fatal("the restored state differs")
	}
	retry := withClientID(place(15, 1, matching.Buy, 3_000_000, 100), "bot-1", `{"f":"a"}`, t0+1000)
	if rr := run(t, r, retry); rr[0].Code != Exists || rr[0].OrderID != 11 {
		t.Fatalf("after the snapshot %+v", rr[0])
	}

	// Past the window the id places again (the store's client id item
	// answers such retries before they reach the engine).
	late := withClientID(place(16, 1, matching.Buy, 3_000_000, 100), "bot-1", `{"f":"a"}`, t0+ClientIDWindow.Milliseconds()+1)
	if rr := run(t, s, late); rr[0].Code != OK {
		t.Fatalf("after the window %+v", rr[0])
	}
	if len(s.coids) != 2 || s.coids[uid(1)+"\x00bot-1"].order != 16 || s.coids[uid(2)+"\x00bot-1"].order != 14 {
		t.Fatalf("remembered %+v", s.coids)
	}
	// One more window on, the other user's id is forgotten too.
	run(t, s, withClientID(place(17, 1, matching.Buy, 3_000_000, 100), "bot-3", `{"f":"c"}`, t0+2*ClientIDWindow.Milliseconds()+100))
	if _, ok := s.coids[uid(2)+"\x00bot-1"]; ok || len(s.coidOrder) != len(s.coids) {
		t.Fatalf("remembered %+v (order %v)", s.coids, s.coidOrder)
	}
}

// An order the book refused for its order id leaves the client order id
// free for the retry with another order id.
func TestClientOrderIDFreeAfterADuplicateOrderID(t *testing.T) {
	s := NewState()
	run(t, s, setup()...)
	run(t, s, credit("d1", 1, "USDT", 10_000_000_000_000))
	rs := run(t, s,
		place(21, 1, matching.Buy, 3_000_000, 100),
		withClientID(place(21, 1, matching.Buy, 3_000_000, 100), "bot-2", `{"f":"a"}`, 5),
		withClientID(place(22, 1, matching.Buy, 3_000_000, 100), "bot-2", `{"f":"a"}`, 6),
	)
	if got := codes(rs); got[0] != OK || got[1] != Rejected || rs[1].Reason != matching.ReasonDuplicateOrderID || got[2] != OK {
		t.Fatalf("codes %v (reason %v)", got, rs[1].Reason)
	}
}
