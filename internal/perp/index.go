package perp

// Index holds one contract's liquidation candidates: each position, by a
// dense id the engine gives it (a user's slot for one-way positions), with
// its side and liquidation price. Longs are liquidated when the mark falls
// to their price or below, shorts when it rises to theirs or above; each
// side is a binary heap with the nearest price on top, so a mark tick
// costs O(1) when nothing is due and O(k log n) for k due of n.
//
// Ties are broken by id, so the order in which Due returns positions is a
// function of the set alone, not of the order they were added in: an
// engine restored from a snapshot liquidates in the same order as one that
// never stopped.
type Index struct {
	long, short heap
	// at[id] is the id's place in its side's heap, −1 when absent; side[id]
	// which heap.
	at   []int32
	side []Side
}

type entry struct {
	key int64
	id  int32
}

type heap struct {
	e []entry
	// max orders the heap highest key first (longs), else lowest first.
	max bool
}

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{long: heap{max: true}}
}

// Len is the number of positions held.
func (x *Index) Len() int { return len(x.long.e) + len(x.short.e) }

// Set adds a position or moves it to a new side or price.
func (x *Index) Set(id int32, side Side, price int64) {
	x.grow(id)
	if x.at[id] >= 0 {
		if x.side[id] == side {
			h := x.heapOf(side)
			i := x.at[id]
			old := h.e[i].key
			h.e[i].key = price
			if h.before(entry{price, id}, entry{old, id}) {
				x.up(h, int(i))
			} else {
				x.down(h, int(i))
			}
			return
		}
		x.Remove(id)
	}
	h := x.heapOf(side)
	x.side[id] = side
	h.e = append(h.e, entry{price, id})
	x.at[id] = int32(len(h.e) - 1)
	x.up(h, len(h.e)-1)
}

// Remove takes a position out (a no-op when it is not held).
func (x *Index) Remove(id int32) {
	if int(id) >= len(x.at) || x.at[id] < 0 {
		return
	}
	h := x.heapOf(x.side[id])
	i := int(x.at[id])
	last := len(h.e) - 1
	x.swap(h, i, last)
	h.e = h.e[:last]
	x.at[id] = -1
	if i < last {
		x.down(h, i)
		x.up(h, i)
	}
}

// Price is a held position's liquidation price.
func (x *Index) Price(id int32) (int64, bool) {
	if int(id) >= len(x.at) || x.at[id] < 0 {
		return 0, false
	}
	return x.heapOf(x.side[id]).e[x.at[id]].key, true
}

// Due removes and appends to out every position liquidatable at mark:
// longs priced at mark or above, then shorts priced at mark or below, each
// nearest first.
func (x *Index) Due(mark int64, out []int32) []int32 {
	for len(x.long.e) > 0 && x.long.e[0].key >= mark {
		out = append(out, x.pop(&x.long))
	}
	for len(x.short.e) > 0 && x.short.e[0].key <= mark {
		out = append(out, x.pop(&x.short))
	}
	return out
}

func (x *Index) pop(h *heap) int32 {
	id := h.e[0].id
	x.Remove(id)
	return id
}

func (x *Index) grow(id int32) {
	for int(id) >= len(x.at) {
		x.at = append(x.at, -1)
		x.side = append(x.side, 0)
	}
}

func (x *Index) heapOf(s Side) *heap {
	if s == Long {
		return &x.long
	}
	return &x.short
}

// before reports whether a belongs above b.
func (h *heap) before(a, b entry) bool {
	if a.key != b.key {
		return (a.key > b.key) == h.max
	}
	return a.id < b.id
}

func (x *Index) swap(h *heap, i, j int) {
	h.e[i], h.e[j] = h.e[j], h.e[i]
	x.at[h.e[i].id] = int32(i)
	x.at[h.e[j].id] = int32(j)
}

func (x *Index) up(h *heap, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.before(h.e[i], h.e[p]) {
			return
		}
		x.swap(h, i, p)
		i = p
	}
}

func (x *Index) down(h *heap, i int) {
	n := len(h.e)
	for {
		l, best := 2*i+1, i
		if l < n && h.before(h.e[l], h.e[best]) {
			best = l
		}
		if r := l + 1; r < n && h.before(h.e[r], h.e[best]) {
			best = r
		}
		if best == i {
			return
		}
		x.swap(h, i, best)
		i = best
	}
}
