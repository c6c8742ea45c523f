package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"sort"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// Value tags of the binary item encoding. The encoding is deterministic
// (attributes and map entries in sorted order) so that equal items encode to
// equal bytes, which lets a write that changes nothing be skipped.
const (
	tagNull   byte = 0
	tagFalse  byte = 1
	tagTrue   byte = 2
	tagString byte = 3
	tagSmall  byte = 4 // decimal with an int64 coefficient: zigzag coefficient, zigzag exponent
	tagBig    byte = 5 // decimal with a big coefficient: sign, length-prefixed magnitude, zigzag exponent
	tagBytes  byte = 6
	tagList   byte = 7
	tagMap    byte = 8
)

var errCorrupt = errors.New("embedded: corrupt item encoding")

// encodeItem appends the encoding of a normalized item to dst. The key
// attributes are left out: every encoded item is stored or sent with its
// key (the Pebble key, a change record's key), and decodeItem puts them
// back. Items written before this rule carry them and decode as they are.
func encodeItem(dst []byte, it store.Item) []byte {
	return encodeAttrs(dst, it, true)
}

func encodeMap(dst []byte, m map[string]any) []byte { return encodeAttrs(dst, m, false) }

func encodeAttrs(dst []byte, m map[string]any, skipKey bool) []byte {
	n := len(m)
	if skipKey {
		if _, ok := m[store.AttrPK]; ok {
			n--
		}
		if _, ok := m[store.AttrSK]; ok {
			n--
		}
	}
	dst = binary.AppendUvarint(dst, uint64(n))
	if n == 0 {
		return dst
	}
	// Sort names without allocating for small items (the common case).
	var buf [16]string
	names := buf[:0]
	for k := range m {
		if skipKey && (k == store.AttrPK || k == store.AttrSK) {
			continue
		}
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		dst = binary.AppendUvarint(dst, uint64(len(k)))
		dst = append(dst, k...)
		dst = encodeValue(dst, m[k])
	}
	return dst
}

func encodeValue(dst []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, tagNull)
	case bool:
		if x {
			return append(dst, tagTrue)
		}
		return append(dst, tagFalse)
	case string:
		dst = append(dst, tagString)
		dst = binary.AppendUvarint(dst, uint64(len(x)))
		return append(dst, x...)
	case decimal.Decimal:
		// Up to 18 digits always fits an int64: no big.Int allocation.
		if x.NumDigits() <= 18 {
			dst = append(dst, tagSmall)
			dst = binary.AppendVarint(dst, x.CoefficientInt64())
			return binary.AppendVarint(dst, int64(x.Exponent()))
		}
		c := x.Coefficient()
		dst = append(dst, tagBig)
		if c.Sign() < 0 {
			dst = append(dst, 1)
		} else {
			dst = append(dst, 0)
		}
		mag := c.Abs(c).Bytes()
		dst = binary.AppendUvarint(dst, uint64(len(mag)))
		dst = append(dst, mag...)
		return binary.AppendVarint(dst, int64(x.Exponent()))
	case []byte:
		dst = append(dst, tagBytes)
		dst = binary.AppendUvarint(dst, uint64(len(x)))
		return append(dst, x...)
	case []any:
		dst = append(dst, tagList)
		dst = binary.AppendUvarint(dst, uint64(len(x)))
		for _, e := range x {
			dst = encodeValue(dst, e)
		}
		return dst
	case map[string]any:
		dst = append(dst, tagMap)
		return encodeMap(dst, x)
	case store.Item:
		dst = append(dst, tagMap)
		return encodeMap(dst, x)
	}
	// Items are normalized before encoding; reaching here is a bug.
	panic(fmt.Sprintf("embedded: cannot encode %T", v))
}

// decoder reads an encoded item.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) byte1() byte {
	if len(d.b) == 0 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.b = nil
}

// decodeItem decodes the item stored under k; the result shares no memory
// with b.
func decodeItem(b []byte, k store.Key) (store.Item, error) {
	d := decoder{b: b}
	m := d.decodeMapExtra(2)
	if d.err != nil {
		return nil, d.err
	}
	if len(d.b) != 0 {
		return nil, errCorrupt
	}
	if _, ok := m[store.AttrPK]; !ok {
		m[store.AttrPK] = k.PK
	}
	if _, ok := m[store.AttrSK]; !ok {
		m[store.AttrSK] = k.SK
	}
	return store.Item(m), nil
}

func (d *decoder) decodeMap() map[string]any { return d.decodeMapExtra(0) }

// decodeMapExtra decodes a map with room for extra more entries.
func (d *decoder) decodeMapExtra(extra int) map[string]any {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	m := make(map[string]any, int(n)+extra)
	for i := uint64(0); i < n && d.err == nil; i++ {
		k := string(d.bytes())
		m[k] = d.decodeValue()
	}
	return m
}

func (d *decoder) decodeValue() any {
	switch d.byte1() {
	case tagNull:
		return nil
	case tagFalse:
		return false
	case tagTrue:
		return true
	case tagString:
		return string(d.bytes())
	case tagSmall:
		c := d.varint()
		e := d.varint()
		return decimal.New(c, int32(e))
	case tagBig:
		neg := d.byte1() == 1
		mag := d.bytes()
		e := d.varint()
		c := new(big.Int).SetBytes(mag)
		if neg {
			c.Neg(c)
		}
		return decimal.NewFromBigInt(c, int32(e))
	case tagBytes:
		return append([]byte{}, d.bytes()...)
	case tagList:
		n := d.uvarint()
		if d.err != nil || n > uint64(len(d.b)) {
			d.fail()
			return nil
		}
		l := make([]any, n)
		for i := range l {
			l[i] = d.decodeValue()
		}
		return l
	case tagMap:
		return d.decodeMap()
	}
	d.fail()
	return nil
}
