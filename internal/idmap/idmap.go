// Package idmap is a hash table from non-zero uint64 keys to int32 values
// (indices into a caller's pool) that never allocates in steady state and
// holds no pointers: the order-id tables of the matching books and of the
// risk engine's order holds.
package idmap

// Map maps live order ids to pool indices (and, in the matching books,
// keyed by price and side, prices to levels). It is an open-addressing hash table with Robin Hood
// linear probing and backward-shift deletion: no tombstones, so a long run
// of inserts and deletes never degrades it or forces a rehash, and the
// slots hold no pointers, so the garbage collector never scans them. Robin
// Hood ordering matters here because the hash keeps runs of sequential ids
// together (see home): a lookup of an absent key that lands inside such a
// run stops as soon as it meets an entry closer to its home than the probe
// is, instead of walking to the end of the run. Key 0 marks an empty slot
// (order ids and level keys are non-zero). The table keeps its load at or
// below one half; it only grows (allocating) when the number of entries
// exceeds every earlier peak.
type Map struct {
	slots []idSlot
	mask  uint64
	shift uint8 // 64 - log2(size) + idGroupBits
	count int
}

type idSlot struct {
	key  uint64
	val  int32
	dist int32 // distance from the key's home slot
}

// New returns a table with room for capacity keys before it grows.
func New(capacity int) Map {
	size := 16
	for size < capacity*2 {
		size <<= 1
	}
	m := Map{}
	m.init(size)
	return m
}

func (m *Map) init(size int) {
	m.slots = make([]idSlot, size)
	m.mask = uint64(size - 1)
	bits := uint8(0)
	for 1<<bits < size {
		bits++
	}
	m.shift = 64 - bits + idGroupBits
	m.count = 0
}

// idGroupBits keeps 2^idGroupBits consecutive keys in consecutive slots
// (16 keys in four 64-byte cache lines), so a burst of sequential order ids,
// and the recent ids that cancels mostly target, share cache lines; the
// groups themselves are spread by Fibonacci hashing, so sequential keys
// never form runs longer than a group plus chance neighbours, which other
// keys would have to probe or shift through. (Keeping whole 4096-id blocks
// together was faster on the benchmark but made a foreign key landing in a
// long run of live sequential ids cost hundreds of probes.)
const idGroupBits = 4

// home is the key's preferred slot.
func (m *Map) home(key uint64) uint64 {
	return ((key>>idGroupBits)*0x9E3779B97F4A7C15>>m.shift)<<idGroupBits | key&(1<<idGroupBits-1)
}

// Get returns the value of key.
func (m *Map) Get(key uint64) (int32, bool) {
	i := m.home(key)
	for d := int32(0); ; d++ {
		s := &m.slots[i]
		if s.key == key {
			return s.val, true
		}
		if s.key == 0 || s.dist < d {
			return 0, false
		}
		i = (i + 1) & m.mask
	}
}

// Put inserts or overwrites key (non-zero).
func (m *Map) Put(key uint64, val int32) {
	if (m.count+1)*2 > len(m.slots) {
		m.grow()
	}
	cur := idSlot{key: key, val: val}
	i := m.home(key)
	for {
		s := &m.slots[i]
		if s.key == 0 {
			*s = cur
			m.count++
			return
		}
		if s.key == cur.key {
			s.val = cur.val
			return
		}
		if s.dist < cur.dist {
			// Take the slot from the richer entry and carry it on.
			*s, cur = cur, *s
		}
		i = (i + 1) & m.mask
		cur.dist++
	}
}

// Del removes key if present.
func (m *Map) Del(key uint64) { m.Take(key) }

// Take removes key and returns its value, in one probe.
func (m *Map) Take(key uint64) (int32, bool) {
	i := m.home(key)
	for d := int32(0); ; d++ {
		s := &m.slots[i]
		if s.key == key {
			break
		}
		if s.key == 0 || s.dist < d {
			return 0, false
		}
		i = (i + 1) & m.mask
	}
	val := m.slots[i].val
	// Backward shift: pull the following displaced entries one slot closer
	// to their homes.
	for {
		j := (i + 1) & m.mask
		n := &m.slots[j]
		if n.key == 0 || n.dist == 0 {
			break
		}
		m.slots[i] = *n
		m.slots[i].dist--
		i = j
	}
	m.slots[i] = idSlot{}
	m.count--
	return val, true
}

// Len is the number of keys.
func (m *Map) Len() int { return m.count }

func (m *Map) grow() {
	old := m.slots
	m.init(len(old) * 2)
	for _, s := range old {
		if s.key != 0 {
			m.Put(s.key, s.val)
		}
	}
}

// Clear empties the table, keeping its size.
func (m *Map) Clear() {
	clear(m.slots)
	m.count = 0
}
