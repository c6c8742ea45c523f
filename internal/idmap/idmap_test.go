package idmap

import (
	"math/rand/v2"
	"testing"
)

// TestIDMapAgainstGoMap checks the table against a Go map under a random
// mix of inserts, overwrites and deletes, with clustered (sequential),
// strided and random keys, including growth from a tiny table.
func TestIDMapAgainstGoMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, pattern := range []string{"sequential", "strided", "random"} {
		m := New(4)
		ref := map[uint64]int32{}
		next := uint64(1)
		key := func() uint64 {
			switch pattern {
			case "sequential":
				next++
				return next
			case "strided":
				next++
				return next << 12
			}
			return rng.Uint64() | 1
		}
		var keys []uint64
		for i := 0; i < 50_000; i++ {
			switch op := rng.IntN(10); {
			case op < 5 || len(keys) == 0:
				k := key()
				v := int32(rng.IntN(1 << 30))
				m.Put(k, v)
				ref[k] = v
				keys = append(keys, k)
			case op < 6:
				k := keys[rng.IntN(len(keys))]
				v := int32(rng.IntN(1 << 30))
				m.Put(k, v)
				ref[k] = v
			default:
				j := rng.IntN(len(keys))
				k := keys[j]
				keys[j] = keys[len(keys)-1]
				keys = keys[:len(keys)-1]
				if j%2 == 0 {
					m.Del(k)
				} else if v, ok := m.Take(k); !ok || v != ref[k] {
					t.Fatalf("%s: take %d = %d %v, want %d", pattern, k, v, ok, ref[k])
				}
				delete(ref, k)
			}
			if i%997 == 0 {
				if m.count != len(ref) {
					t.Fatalf("%s: count %d, want %d", pattern, m.count, len(ref))
				}
				for k, v := range ref {
					if got, ok := m.Get(k); !ok || got != v {
						t.Fatalf("%s: key %d = %d %v, want %d", pattern, k, got, ok, v)
					}
				}
				for j := 0; j < 50; j++ {
					k := key() + 1<<40
					if _, ok := m.Get(k); ok {
						t.Fatalf("%s: absent key %d found", pattern, k)
					}
				}
				// Robin Hood invariant: every entry's dist is its real
				// distance from home, and a run never has a gap.
				for i, s := range m.slots {
					if s.key == 0 {
						continue
					}
					if want := int32((uint64(i) - m.home(s.key)) & m.mask); s.dist != want {
						t.Fatalf("%s: slot %d dist %d, want %d", pattern, i, s.dist, want)
					}
				}
			}
		}
	}
}

// BenchmarkIDMapAbsentInRun is the case that made plain linear probing
// slow: looking up keys of other id blocks while a long run of sequential
// ids is live.
func BenchmarkIDMapAbsentInRun(b *testing.B) {
	m := New(4096)
	for k := uint64(1); k <= 1000; k++ {
		m.Put(k, int32(k))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := uint64(10_000_000 + i)
		m.Put(k, 1)
		m.Del(k)
	}
}
