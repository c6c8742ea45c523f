package matching

// chunkMax is the capacity of one chunk of a level index.
const chunkMax = 64

// levelIndex is one side's ordered set of price levels, best last: a sorted
// sequence of levelRefs (ascending key; bids use key = price and asks
// key = -price) cut into chunks of at most chunkMax entries. Nearly all
// activity is at the best end, where inserts, removals and lookups touch
// only the last chunk; an insert or removal deep in the book moves at most
// one chunk's entries plus the chunk headers, instead of every level above
// it as one flat sorted array would (10,000 levels: a few hundred bytes
// moved instead of 160 kB). Exact price lookups go through the book's px
// map, so the index is only searched to insert or remove a level. Chunk
// buffers of emptied chunks are kept for reuse, so steady state does not
// allocate.
type levelIndex struct {
	chunks [][]levelRef // each non-empty; keys ascend within and across chunks
	spare  [][]levelRef // empty buffers of cap chunkMax
	n      int
}

func (x *levelIndex) len() int { return x.n }

// reserve preallocates room for about levels entries (see compact for the
// bound on the number of chunks), from one backing array in one allocation.
func (x *levelIndex) reserve(levels int) {
	k := 4*levels/chunkMax + 2
	backing := make([]levelRef, k*chunkMax)
	x.chunks = make([][]levelRef, 0, k)
	x.spare = make([][]levelRef, 0, k)
	for i := k - 1; i >= 0; i-- {
		x.spare = append(x.spare, backing[i*chunkMax:i*chunkMax:(i+1)*chunkMax])
	}
}

func (x *levelIndex) newChunk() []levelRef {
	if k := len(x.spare); k > 0 {
		c := x.spare[k-1]
		x.spare = x.spare[:k-1]
		return c[:0]
	}
	return make([]levelRef, 0, chunkMax)
}

// best returns the last (best) entry.
func (x *levelIndex) best() (levelRef, bool) {
	k := len(x.chunks)
	if k == 0 {
		return levelRef{}, false
	}
	c := x.chunks[k-1]
	return c[len(c)-1], true
}

// popBest removes the best entry.
func (x *levelIndex) popBest() {
	k := len(x.chunks) - 1
	c := x.chunks[k][:len(x.chunks[k])-1]
	x.chunks[k] = c
	x.n--
	if len(c) <= chunkMax/2 {
		x.compact(k)
	}
}

// compact merges chunk ci with a neighbour while together they hold at
// most half a chunk (and drops it when empty), so that every two adjacent
// chunks hold more than chunkMax/2 entries and the number of chunks stays
// at most 4·n/chunkMax + 1 whatever the pattern of removals. Callers call it
// after a removal leaves chunk ci at most half full.
func (x *levelIndex) compact(ci int) {
	const half = chunkMax / 2
	for len(x.chunks) > 0 {
		c := x.chunks[ci]
		drop := ci
		switch {
		case len(c) == 0:
		case ci+1 < len(x.chunks) && len(c)+len(x.chunks[ci+1]) <= half:
			x.chunks[ci] = append(c, x.chunks[ci+1]...)
			drop = ci + 1
		case ci > 0 && len(x.chunks[ci-1])+len(c) <= half:
			x.chunks[ci-1] = append(x.chunks[ci-1], c...)
		default:
			return
		}
		x.spare = append(x.spare, x.chunks[drop][:0])
		copy(x.chunks[drop:], x.chunks[drop+1:])
		x.chunks[len(x.chunks)-1] = nil
		x.chunks = x.chunks[:len(x.chunks)-1]
		// The merged (or now adjacent) chunks may merge further.
		if ci > 0 && drop == ci {
			ci--
		}
		if ci >= len(x.chunks) {
			return
		}
	}
}

// chunkFor returns the chunk that holds key or should receive it: the first
// chunk whose last key is >= key, or the last chunk. It checks the last
// chunk first, where nearly every key falls.
func (x *levelIndex) chunkFor(key int64) int {
	k := len(x.chunks)
	if k == 1 || x.chunks[k-1][0].key <= key {
		return k - 1
	}
	l, h := 0, k-1
	for l < h {
		m := int(uint(l+h) >> 1)
		c := x.chunks[m]
		if c[len(c)-1].key < key {
			l = m + 1
		} else {
			h = m
		}
	}
	return l
}

// lowerBound returns the first index in c whose key is >= key.
func lowerBound(c []levelRef, key int64) int {
	l, h := 0, len(c)
	// Most lookups land near the end (the best price).
	if h > 0 && c[h-1].key < key {
		return h
	}
	for l < h {
		m := int(uint(l+h) >> 1)
		if c[m].key < key {
			l = m + 1
		} else {
			h = m
		}
	}
	return l
}

// insert adds an entry whose key is not present.
func (x *levelIndex) insert(ref levelRef) {
	x.n++
	if len(x.chunks) == 0 {
		x.chunks = append(x.chunks, append(x.newChunk(), ref))
		return
	}
	ci := x.chunkFor(ref.key)
	c := x.chunks[ci]
	pos := lowerBound(c, ref.key)
	if len(c) == chunkMax {
		// Split: the upper half moves to a new chunk after this one.
		const half = chunkMax / 2
		upper := append(x.newChunk(), c[half:]...)
		c = c[:half]
		x.chunks = append(x.chunks, nil)
		copy(x.chunks[ci+2:], x.chunks[ci+1:])
		x.chunks[ci+1] = upper
		x.chunks[ci] = c
		if pos > half {
			ci++
			c = upper
			pos -= half
		}
	}
	c = append(c, levelRef{})
	copy(c[pos+1:], c[pos:])
	c[pos] = ref
	x.chunks[ci] = c
}

// remove deletes the entry with key, which must be present.
func (x *levelIndex) remove(key int64) {
	ci := x.chunkFor(key)
	c := x.chunks[ci]
	pos := lowerBound(c, key)
	copy(c[pos:], c[pos+1:])
	c = c[:len(c)-1]
	x.chunks[ci] = c
	x.n--
	if len(c) <= chunkMax/2 {
		x.compact(ci)
	}
}

// below returns the best entry with a key below key (the next level
// further from the best price).
func (x *levelIndex) below(key int64) (levelRef, bool) {
	if len(x.chunks) == 0 {
		return levelRef{}, false
	}
	ci := x.chunkFor(key)
	c := x.chunks[ci]
	pos := lowerBound(c, key)
	if pos > 0 {
		return c[pos-1], true
	}
	if ci > 0 {
		p := x.chunks[ci-1]
		return p[len(p)-1], true
	}
	return levelRef{}, false
}

// forEach calls fn for each entry from the best down until fn returns
// false. fn must not change the index.
func (x *levelIndex) forEach(fn func(levelRef) bool) {
	for ci := len(x.chunks) - 1; ci >= 0; ci-- {
		c := x.chunks[ci]
		for j := len(c) - 1; j >= 0; j-- {
			if !fn(c[j]) {
				return
			}
		}
	}
}
