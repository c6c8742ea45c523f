package matching

import (
	"bytes"
	"errors"
	"testing"
)

// randomBook builds a book with resting orders on both sides, stops and
// partial fills from the model test's generator.
func randomBook(t *testing.T, seed uint64, n int) (*Book, []Command) {
	t.Helper()
	cfg := BookConfig{Symbol: 7}
	b := NewBook(cfg, discard{})
	gen := newCmdGen(seed)
	gen.symbol = 7
	var cmds []Command
	for i := 0; i < n; i++ {
		c := gen.next()
		cmds = append(cmds, c)
		b.Apply(&c)
	}
	return b, cmds
}

func TestSnapshotRoundTrip(t *testing.T) {
	b, _ := randomBook(t, 11, 5000)
	if b.Len() == 0 || len(b.buyStops)+len(b.sellStops) == 0 {
		t.Fatalf("book too simple for the test: %d orders, %d stops", b.Len(), len(b.buyStops)+len(b.sellStops))
	}
	var buf bytes.Buffer
	if err := b.Snapshot(&buf); err != nil {
		t.Fatal(err)
	}
	snap := buf.Bytes()
	r := NewBook(BookConfig{Symbol: 7}, discard{})
	if err := r.Restore(bytes.NewReader(snap)); err != nil {
		t.Fatal(err)
	}
	if r.StateHash() != b.StateHash() || r.LastSeq() != b.LastSeq() || r.LastPrice() != b.LastPrice() || r.LastTradeID() != b.LastTradeID() {
		t.Fatal("restored book differs")
	}
	if !infosEqual(bookInfos(r), bookInfos(b)) {
		t.Fatal("restored orders differ")
	}
	// A second snapshot of the restored book is byte-identical.
	var again bytes.Buffer
	if err := r.Snapshot(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), snap) {
		t.Fatal("snapshot of restored book differs")
	}
	// The same commands applied to both afterwards keep them equal.
	gen := newCmdGen(99)
	gen.seq = b.LastSeq()
	gen.nextID = 1 << 20
	for i := 0; i < 2000; i++ {
		c := gen.next()
		b.Apply(&c)
		r.Apply(&c)
	}
	if r.StateHash() != b.StateHash() {
		t.Fatal("books diverge after restore")
	}
}

func TestStateHashSeesEveryField(t *testing.T) {
	b, _ := randomBook(t, 12, 3000)
	h := b.StateHash()
	for oi := range b.orders {
		o := &b.orders[oi]
		if o.state != stateResting {
			continue
		}
		o.filledQuote++
		if b.StateHash() == h {
			t.Fatal("hash ignores filled quote")
		}
		o.filledQuote--
		o.user++
		if b.StateHash() == h {
			t.Fatal("hash ignores user")
		}
		o.user--
		break
	}
	if b.StateHash() != h {
		t.Fatal("hash not restored")
	}
}

func TestRestoreRejectsBadSnapshots(t *testing.T) {
	b, _ := randomBook(t, 13, 3000)
	var buf bytes.Buffer
	if err := b.Snapshot(&buf); err != nil {
		t.Fatal(err)
	}
	snap := buf.Bytes()
	target, _ := randomBook(t, 14, 500)
	hash := target.StateHash()
	mutate := func(f func(s []byte) []byte) []byte {
		return f(append([]byte(nil), snap...))
	}
	bad := map[string][]byte{
		"empty":     nil,
		"magic":     mutate(func(s []byte) []byte { s[0] = 'X'; return s }),
		"truncated": snap[:len(snap)-20],
		"flipped":   mutate(func(s []byte) []byte { s[len(s)/2] ^= 0x10; return s }),
		"checksum":  mutate(func(s []byte) []byte { s[len(s)-1] ^= 1; return s }),
	}
	for name, data := range bad {
		if err := target.Restore(bytes.NewReader(data)); !errors.Is(err, ErrBadSnapshot) {
			t.Errorf("%s: err %v", name, err)
		}
		if target.StateHash() != hash {
			t.Fatalf("%s: failed restore changed the book", name)
		}
	}
	other := NewBook(BookConfig{Symbol: 8}, discard{})
	if err := other.Restore(bytes.NewReader(snap)); !errors.Is(err, ErrBadSnapshot) {
		t.Errorf("wrong symbol: %v", err)
	}
}
