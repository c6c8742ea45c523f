package embedded

import (
	"bytes"
	"encoding/binary"

	"tenger/internal/store"
)

// Key namespaces: the first byte of every Pebble key says what it holds.
//
//	'i' len32(pk) pk sk                                  → encoded item
//	'x' len32(gsi1pk) gsi1pk esc(gsi1sk) len32(pk) pk sk  → empty (gsi1 entry)
//	'y' ... the same for gsi2
//	't' be64(ttl seconds) len32(pk) pk sk                → empty (TTL index)
//	'f' be64(sequence)                                   → encoded change
//	'm' "pruned"                                         → be64(highest pruned sequence)
//
// The partition key is length-prefixed, so a partition's keys form one
// contiguous range whatever bytes pk holds ("P" never sees "P#1"), and within
// it the sort key follows as raw bytes, so keys sort exactly as sort keys
// compare. In the indexes the index sort key is followed by the item's key,
// so it is escaped (0x00 → 0x00 0xFF, terminated by 0x00 0x01), which keeps
// byte order while marking where it ends.
const (
	nsItem byte = 'i'
	nsGSI1 byte = 'x'
	nsGSI2 byte = 'y'
	nsTTL  byte = 't'
	nsFeed byte = 'f'
	nsMeta byte = 'm'
)

var metaPruned = []byte{nsMeta, 'p', 'r', 'u', 'n', 'e', 'd'}

func appendLenPrefixed(dst []byte, s string) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(s)))
	return append(dst, s...)
}

// itemKey is the Pebble key of the item under k.
func itemKey(dst []byte, k store.Key) []byte {
	dst = append(dst, nsItem)
	dst = appendLenPrefixed(dst, k.PK)
	return append(dst, k.SK...)
}

// partitionPrefix is the common prefix of every key of one partition of the
// table (ns nsItem) or of an index (nsGSI1, nsGSI2).
func partitionPrefix(ns byte, pk string) []byte {
	dst := make([]byte, 0, 5+len(pk))
	dst = append(dst, ns)
	return appendLenPrefixed(dst, pk)
}

// appendEscaped appends an order-preserving, self-terminating encoding of s.
func appendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			dst = append(dst, 0, 0xFF)
		} else {
			dst = append(dst, s[i])
		}
	}
	return dst
}

func appendTerminator(dst []byte) []byte { return append(dst, 0, 1) }

// indexKey is the Pebble key of an item's entry in an index.
func indexKey(ns byte, ipk, isk string, k store.Key) []byte {
	dst := make([]byte, 0, 1+4+len(ipk)+len(isk)+2+4+len(k.PK)+len(k.SK)+4)
	dst = append(dst, ns)
	dst = appendLenPrefixed(dst, ipk)
	dst = appendEscaped(dst, isk)
	dst = appendTerminator(dst)
	dst = appendLenPrefixed(dst, k.PK)
	return append(dst, k.SK...)
}

// ttlKey is the Pebble key of an item's entry in the TTL index.
func ttlKey(secs uint64, k store.Key) []byte {
	dst := make([]byte, 0, 1+8+4+len(k.PK)+len(k.SK))
	dst = append(dst, nsTTL)
	dst = binary.BigEndian.AppendUint64(dst, secs)
	dst = appendLenPrefixed(dst, k.PK)
	return append(dst, k.SK...)
}

// parseTailKey reads "len32(pk) pk sk" back into a key.
func parseTailKey(b []byte) (store.Key, bool) {
	if len(b) < 4 {
		return store.Key{}, false
	}
	n := binary.BigEndian.Uint32(b)
	b = b[4:]
	if uint64(n) > uint64(len(b)) {
		return store.Key{}, false
	}
	return store.Key{PK: string(b[:n]), SK: string(b[n:])}, true
}

// indexTailKey extracts the item key from an index entry key, given the
// length of the partition prefix.
func indexTailKey(key []byte, prefixLen int) (store.Key, bool) {
	b := key[prefixLen:]
	// Skip the escaped sort key up to its terminator 0x00 0x01.
	for i := 0; i+1 < len(b); i++ {
		if b[i] == 0 {
			if b[i+1] == 1 {
				return parseTailKey(b[i+2:])
			}
			i++ // 0x00 0xFF: an escaped zero byte
		}
	}
	return store.Key{}, false
}

func feedKey(seq uint64) []byte { return appendFeedKey(make([]byte, 0, 9), seq) }

// appendFeedKey appends the feed key of seq to dst.
func appendFeedKey(dst []byte, seq uint64) []byte {
	dst = append(dst, nsFeed)
	return binary.BigEndian.AppendUint64(dst, seq)
}

// prefixEnd returns the smallest key greater than every key starting with
// p, or nil when there is none (p is all 0xFF).
func prefixEnd(p []byte) []byte {
	end := bytes.Clone(p)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xFF {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

func concat(a []byte, parts ...[]byte) []byte {
	n := len(a)
	for _, p := range parts {
		n += len(p)
	}
	out := make([]byte, 0, n)
	out = append(out, a...)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
