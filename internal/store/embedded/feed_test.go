package embedded

import (
	"bytes"
	"strings"
	"testing"

	"tenger/internal/store"
)

// feedChanges builds n changes like a ledger batch's: modified items of
// about size bytes, old and new.
func feedChanges(n, size int) []change {
	cs := make([]change, n)
	for i := range cs {
		old := bytes.Repeat([]byte{byte('a' + i%26)}, size+i)
		cs[i] = change{kind: store.ChangeModify, key: store.Key{PK: "bal#" + strings.Repeat("u", i%200), SK: "spot#USDT"},
			oldRaw: old, newRaw: append(bytes.Clone(old), 'z')}
	}
	cs[0].kind, cs[0].oldRaw = store.ChangeInsert, nil
	return cs
}

func TestFeedValueSizedOnce(t *testing.T) {
	for _, at := range []int64{0, -1, 1 << 40} {
		for _, n := range []int{1, 2, 60, 130} {
			cs := feedChanges(n, 250)
			for i := range cs {
				if got, want := changeLen(&cs[i], at), len(appendChange(nil, &cs[i], at)); got != want {
					t.Fatalf("at %d: changeLen %d, record %d bytes", at, got, want)
				}
			}
			v := appendFeedValue(nil, cs, at)
			var recs [][]byte
			if err := forEachRecord(7, v, func(seq uint64, rec []byte) error {
				if seq != 7+uint64(len(recs)) {
					t.Errorf("record %d has sequence %d", len(recs), seq)
				}
				recs = append(recs, rec)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if len(recs) != n {
				t.Fatalf("%d changes read back as %d records", n, len(recs))
			}
			for i := range cs {
				if !bytes.Equal(recs[i], appendChange(nil, &cs[i], at)) {
					t.Fatalf("record %d of %d differs", i, n)
				}
			}
			if a := testing.AllocsPerRun(20, func() { appendFeedValue(nil, cs, at) }); a != 1 && !raceOn {
				t.Errorf("%d changes: %.0f allocations, want 1", n, a)
			}
		}
	}
}

// BenchmarkAppendFeedValue encodes the feed value of a settlement batch:
// 60 changed items of about 250 bytes.
func BenchmarkAppendFeedValue(b *testing.B) {
	cs := feedChanges(60, 250)
	b.ReportAllocs()
	for b.Loop() {
		appendFeedValue(nil, cs, 1700000000000)
	}
}
