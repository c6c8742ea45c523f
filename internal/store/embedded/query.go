package embedded

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"

	"github.com/cockroachdb/pebble"

	"tenger/internal/store"
)

const (
	defaultQueryLimit = 100
	cursorVersion     = 1
)

// Query reads one partition of the table or an index in sort-key order.
func (s *Store) Query(ctx context.Context, q store.Query) (store.Page, error) {
	var ns byte
	switch q.Index {
	case store.IndexMain:
		ns = nsItem
	case store.IndexGSI1:
		ns = nsGSI1
	case store.IndexGSI2:
		ns = nsGSI2
	default:
		return store.Page{}, fmt.Errorf("%w: unknown index %q", store.ErrInvalid, q.Index)
	}
	if q.PK == "" {
		return store.Page{}, fmt.Errorf("%w: query needs a partition key", store.ErrInvalid)
	}
	if q.Limit < 0 {
		return store.Page{}, fmt.Errorf("%w: negative limit", store.ErrInvalid)
	}
	limit := q.Limit
	if limit == 0 {
		limit = defaultQueryLimit
	}
	prefix := partitionPrefix(ns, q.PK)
	lo, hi, err := skBounds(prefix, ns != nsItem, q.SK)
	if err != nil {
		return store.Page{}, err
	}
	if q.Cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(q.Cursor)
		if err != nil || len(raw) < 1 || raw[0] != cursorVersion {
			return store.Page{}, fmt.Errorf("%w: bad cursor", store.ErrInvalid)
		}
		last := concat(prefix, raw[1:])
		// Continue strictly after (or, descending, before) the last key.
		if q.Desc {
			if bytes.Compare(last, hi) < 0 {
				hi = last
			}
		} else if next := append(last, 0); bytes.Compare(next, lo) > 0 {
			lo = next
		}
	}
	if err := s.enter(ctx); err != nil {
		return store.Page{}, err
	}
	defer s.closeMu.RUnlock()
	if bytes.Compare(lo, hi) >= 0 {
		return store.Page{}, nil
	}

	// Index entries point at items: read both from one snapshot so a page
	// is consistent.
	var r interface {
		NewIter(*pebble.IterOptions) (*pebble.Iterator, error)
		reader
	} = s.db
	if ns != nsItem {
		snap := s.db.NewSnapshot()
		defer snap.Close()
		r = snap
	}
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		return store.Page{}, err
	}
	defer it.Close()

	var page store.Page
	step := it.Next
	ok := false
	if q.Desc {
		step = it.Prev
		ok = it.Last()
	} else {
		ok = it.First()
	}
	var lastKey []byte
	for ; ok; ok = step() {
		if len(page.Items) == limit {
			// More follow: hand out a cursor positioned at the last item.
			page.Cursor = base64.RawURLEncoding.EncodeToString(append([]byte{cursorVersion}, lastKey[len(prefix):]...))
			break
		}
		var item store.Item
		if ns == nsItem {
			k, valid := parseTailKey(it.Key()[1:])
			if !valid {
				return store.Page{}, fmt.Errorf("embedded: corrupt item key %x", it.Key())
			}
			if item, err = decodeItem(it.Value(), k); err != nil {
				return store.Page{}, err
			}
		} else {
			k, valid := indexTailKey(it.Key(), len(prefix))
			if !valid {
				return store.Page{}, fmt.Errorf("embedded: corrupt index key %x", it.Key())
			}
			if item, _, err = s.read(r, itemKey(nil, k), k); err != nil {
				return store.Page{}, err
			}
			if item == nil {
				continue // cannot happen: entries and items change in one batch
			}
		}
		page.Items = append(page.Items, item)
		lastKey = append(lastKey[:0], it.Key()...)
	}
	if err := it.Error(); err != nil {
		return store.Page{}, err
	}
	return page, nil
}

// skBounds turns a sort-key condition into Pebble key bounds [lo, hi) within
// a partition. In the table the sort key is the raw key suffix; in an index
// it is escaped and terminated, followed by the item's key.
func skBounds(prefix []byte, index bool, c store.SKCond) ([]byte, []byte, error) {
	end := prefixEnd(prefix)
	enc := func(s string) []byte {
		if index {
			return appendEscaped(bytes.Clone(prefix), s)
		}
		return concat(prefix, []byte(s))
	}
	// exact: the first key whose sort key equals s.
	exact := func(s string) []byte {
		if index {
			return appendTerminator(enc(s))
		}
		return enc(s)
	}
	// after: the first key past every key whose sort key equals s.
	after := func(s string) []byte {
		if index {
			return prefixEnd(exact(s))
		}
		return append(enc(s), 0)
	}
	lo, hi, err := skRange(prefix, end, enc, exact, after, c)
	if err != nil {
		return nil, nil, err
	}
	// Keep the bounds inside the partition (a prefix of 0xFF bytes can
	// carry its successor past the partition's end).
	if bytes.Compare(lo, prefix) < 0 {
		lo = bytes.Clone(prefix)
	}
	if bytes.Compare(hi, end) > 0 {
		hi = end
	}
	return lo, hi, nil
}

func skRange(prefix, end []byte, enc, exact, after func(string) []byte, c store.SKCond) ([]byte, []byte, error) {
	switch c.Kind {
	case store.SKAll:
		return bytes.Clone(prefix), end, nil
	case store.SKEq:
		return exact(c.A), after(c.A), nil
	case store.SKPrefix:
		p := enc(c.A)
		pe := prefixEnd(p)
		if pe == nil {
			pe = end
		}
		return p, pe, nil
	case store.SKBetween:
		if c.A > c.B {
			return nil, nil, fmt.Errorf("%w: between %q and %q: lower bound above upper", store.ErrInvalid, c.A, c.B)
		}
		return exact(c.A), after(c.B), nil
	case store.SKLt:
		return bytes.Clone(prefix), exact(c.A), nil
	case store.SKLe:
		return bytes.Clone(prefix), after(c.A), nil
	case store.SKGt:
		return after(c.A), end, nil
	case store.SKGe:
		return exact(c.A), end, nil
	}
	return nil, nil, fmt.Errorf("%w: unknown sort-key condition %d", store.ErrInvalid, c.Kind)
}
