package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"tenger/internal/queue"
)

// Key layout inside the Pebble database. Every queue owns the key range
// that starts with "q" + name + 0x00; inside it one byte says what follows:
//
//	m + seq(8, big endian)  → the message (encodeMessage)
//	c + seq(8, big endian)  → its receive count (uvarint), absent until received
//	d + dedup id            → the dedup expiry in Unix nanoseconds (8 bytes)
//
// The key "s" holds the highest sequence number ever assigned, so ids are
// never reused after the messages that had them were deleted.
const (
	kindMessage = 'm'
	kindCount   = 'c'
	kindDedup   = 'd'
)

var seqKey = []byte("s")

func queuePrefix(name string) []byte {
	b := make([]byte, 0, len(name)+2)
	b = append(b, 'q')
	b = append(b, name...)
	return append(b, 0)
}

func seqKeyOf(prefix []byte, kind byte, seq uint64) []byte {
	k := make([]byte, 0, len(prefix)+9)
	k = append(k, prefix...)
	k = append(k, kind)
	return binary.BigEndian.AppendUint64(k, seq)
}

func dedupKey(prefix []byte, id string) []byte {
	k := make([]byte, 0, len(prefix)+1+len(id))
	k = append(k, prefix...)
	k = append(k, kindDedup)
	return append(k, id...)
}

// upperBound returns the smallest key greater than every key with prefix p.
func upperBound(p []byte) []byte {
	b := append([]byte(nil), p...)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return b[:i+1]
		}
	}
	return nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// encodeMessage lays a message out as: sentAt, group, dedup id, attribute
// count, attribute pairs (sorted, for a deterministic encoding), body.
func encodeMessage(m queue.Message, sentAt time.Time) []byte {
	size := 32 + len(m.Group) + len(m.DedupID) + len(m.Body)
	for k, v := range m.Attributes {
		size += len(k) + len(v) + 4
	}
	b := make([]byte, 0, size)
	b = binary.AppendUvarint(b, uint64(sentAt.UnixNano()))
	b = appendString(b, m.Group)
	b = appendString(b, m.DedupID)
	b = binary.AppendUvarint(b, uint64(len(m.Attributes)))
	names := make([]string, 0, len(m.Attributes))
	for k := range m.Attributes {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		b = appendString(b, k)
		b = appendString(b, m.Attributes[k])
	}
	return append(b, m.Body...)
}

var errCorrupt = errors.New("queue/embedded: corrupt message record")

func decodeMessage(b []byte) (queue.Message, time.Time, error) {
	var m queue.Message
	sent, n := binary.Uvarint(b)
	if n <= 0 {
		return m, time.Time{}, errCorrupt
	}
	b = b[n:]
	readString := func() (string, bool) {
		l, n := binary.Uvarint(b)
		if n <= 0 || uint64(len(b)-n) < l {
			return "", false
		}
		s := string(b[n : n+int(l)])
		b = b[n+int(l):]
		return s, true
	}
	var ok bool
	if m.Group, ok = readString(); !ok {
		return m, time.Time{}, errCorrupt
	}
	if m.DedupID, ok = readString(); !ok {
		return m, time.Time{}, errCorrupt
	}
	na, n := binary.Uvarint(b)
	if n <= 0 || na > uint64(len(b)) {
		return m, time.Time{}, errCorrupt
	}
	b = b[n:]
	if na > 0 {
		m.Attributes = make(map[string]string, na)
		for i := uint64(0); i < na; i++ {
			k, ok1 := readString()
			v, ok2 := readString()
			if !ok1 || !ok2 {
				return m, time.Time{}, errCorrupt
			}
			m.Attributes[k] = v
		}
	}
	m.Body = append([]byte(nil), b...)
	return m, time.Unix(0, int64(sent)), nil
}

// receipt names one receive of one message: the epoch of the open queue (so
// handles from before a restart are recognisably stale), the sequence number
// and the receive generation.
type receipt struct {
	epoch string
	seq   uint64
	gen   uint64
}

func (r receipt) String() string {
	return r.epoch + "." + strconv.FormatUint(r.seq, 36) + "." + strconv.FormatUint(r.gen, 36)
}

func parseReceipt(s string) (receipt, error) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return receipt{}, fmt.Errorf("%w: malformed receipt", queue.ErrInvalidReceipt)
	}
	seq, err1 := strconv.ParseUint(parts[1], 36, 64)
	gen, err2 := strconv.ParseUint(parts[2], 36, 64)
	if err1 != nil || err2 != nil {
		return receipt{}, fmt.Errorf("%w: malformed receipt", queue.ErrInvalidReceipt)
	}
	return receipt{epoch: parts[0], seq: seq, gen: gen}, nil
}
