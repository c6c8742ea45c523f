package matching

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLevelIndexAgainstSlice checks the chunked index against a plain
// sorted slice under random inserts and removals, near the best end and
// deep in the book.
func TestLevelIndexAgainstSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var x levelIndex
	var ref []int64
	present := map[int64]bool{}
	for i := 0; i < 40_000; i++ {
		var key int64
		if rng.IntN(2) == 0 && len(ref) > 0 {
			key = ref[len(ref)-1] + int64(rng.IntN(20)-10) // near the best
		} else {
			key = int64(rng.IntN(5000))
		}
		if present[key] {
			if best, _ := x.best(); best.key == key && rng.IntN(2) == 0 {
				x.popBest()
			} else {
				x.remove(key)
			}
			pos, _ := slices.BinarySearch(ref, key)
			ref = slices.Delete(ref, pos, pos+1)
			delete(present, key)
		} else {
			x.insert(levelRef{key: key, idx: int32(key)})
			pos, _ := slices.BinarySearch(ref, key)
			ref = slices.Insert(ref, pos, key)
			present[key] = true
		}
		if i%500 == 0 || i > 39_900 {
			var got []int64
			x.forEach(func(r levelRef) bool { got = append(got, r.key); return true })
			slices.Reverse(got)
			if !slices.Equal(got, ref) || x.len() != len(ref) {
				t.Fatalf("step %d: index %v, want %v", i, got, ref)
			}
			for ci, c := range x.chunks {
				if len(c) == 0 || cap(c) != chunkMax {
					t.Fatalf("step %d: bad chunk len %d cap %d", i, len(c), cap(c))
				}
				if ci > 0 && len(c)+len(x.chunks[ci-1]) <= chunkMax/2 {
					t.Fatalf("step %d: chunks %d and %d not merged (%d+%d)", i, ci-1, ci, len(x.chunks[ci-1]), len(c))
				}
			}
			if len(x.chunks) > 4*len(ref)/chunkMax+1 {
				t.Fatalf("step %d: %d chunks for %d entries", i, len(x.chunks), len(ref))
			}
			// below walks the whole index from the best down.
			var walk []int64
			r, ok := x.best()
			for ok {
				walk = append(walk, r.key)
				r, ok = x.below(r.key)
			}
			slices.Reverse(walk)
			if !slices.Equal(walk, ref) {
				t.Fatalf("step %d: below walk differs", i)
			}
		}
	}
	if len(x.chunks) < 10 {
		t.Fatalf("only %d chunks: splits not exercised", len(x.chunks))
	}
}
