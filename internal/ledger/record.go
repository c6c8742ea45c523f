package ledger

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// The posting record's legs are stored as compact text, one leg after
// another separated by "|":
//
//	<owner>/<kind>[/<sub>]/<bucket>><owner>/<kind>[/<sub>]/<bucket>:<coin>:<amount>
//
// for example "1001/spot/avail>1001/futures/avail:USDT:1". Owners, subs and
// coins are written with the bytes "%", "/", ">", ":" and "|" as %XX, so the
// text is unambiguous; kinds and buckets are fixed words, amounts decimal
// strings. The encoding is canonical (equal legs give equal text), which is
// what a replay compares: a replayed id is the same posting when its reason
// and legs text are the ones stored.
//
// Records written before this format hold the legs as JSON (they start with
// "[") and a "hash" of reason and legs; both are still read (parseLegs,
// sameAsRecord). The compact form is about a quarter of the JSON's size and
// needs no hash, which makes every posting's record, and its change-feed
// copy, less than half as large.

const legSpecial = "%/>:|"

// appendField appends s with the separators escaped.
func appendField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, legSpecial) {
		return append(b, s...)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if strings.IndexByte(legSpecial, c) >= 0 {
			b = append(b, '%', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
		} else {
			b = append(b, c)
		}
	}
	return b
}

func appendLegAccount(b []byte, a Account, bucket Bucket) []byte {
	b = appendField(b, a.Owner)
	b = append(b, '/')
	b = append(b, a.Kind...)
	if a.Sub != "" {
		b = append(b, '/')
		b = appendField(b, a.Sub)
	}
	b = append(b, '/')
	return append(b, bucket...)
}

// legsText is the compact, canonical text of legs.
func legsText(legs []Leg) string {
	b := make([]byte, 0, 48*len(legs))
	for i, lg := range legs {
		if i > 0 {
			b = append(b, '|')
		}
		b = appendLegAccount(b, lg.From, lg.FromBucket)
		b = append(b, '>')
		b = appendLegAccount(b, lg.To, lg.ToBucket)
		b = append(b, ':')
		b = appendField(b, lg.Coin)
		b = append(b, ':')
		b = append(b, lg.Amount.String()...)
	}
	return string(b)
}

// unescapeField reverses appendField.
func unescapeField(s string) (string, error) {
	if strings.IndexByte(s, '%') < 0 {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", fmt.Errorf("bad escape in %q", s)
		}
		hi, lo := unhex(s[i+1]), unhex(s[i+2])
		if hi < 0 || lo < 0 {
			return "", fmt.Errorf("bad escape in %q", s)
		}
		b.WriteByte(byte(hi<<4 | lo))
		i += 2
	}
	return b.String(), nil
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

// parseLegAccount reads "<owner>/<kind>[/<sub>]/<bucket>".
func parseLegAccount(s string) (Account, Bucket, error) {
	f := strings.Split(s, "/")
	if len(f) != 3 && len(f) != 4 {
		return Account{}, "", fmt.Errorf("bad account %q", s)
	}
	owner, err := unescapeField(f[0])
	if err != nil {
		return Account{}, "", err
	}
	a := Account{Owner: owner, Kind: Kind(f[1])}
	if len(f) == 4 {
		if a.Sub, err = unescapeField(f[2]); err != nil {
			return Account{}, "", err
		}
	}
	return a, Bucket(f[len(f)-1]), nil
}

// parseLegs reads a record's legs: the compact text, or the JSON of
// records written before it.
func parseLegs(s string) ([]Leg, error) {
	if strings.HasPrefix(s, "[") {
		var legs []Leg
		err := json.Unmarshal([]byte(s), &legs)
		return legs, err
	}
	if s == "" {
		return nil, fmt.Errorf("no legs")
	}
	parts := strings.Split(s, "|")
	legs := make([]Leg, 0, len(parts))
	for _, p := range parts {
		from, rest, ok := strings.Cut(p, ">")
		if !ok {
			return nil, fmt.Errorf("bad leg %q", p)
		}
		f := strings.Split(rest, ":")
		if len(f) != 3 {
			return nil, fmt.Errorf("bad leg %q", p)
		}
		var lg Leg
		var err error
		if lg.From, lg.FromBucket, err = parseLegAccount(from); err != nil {
			return nil, err
		}
		if lg.To, lg.ToBucket, err = parseLegAccount(f[0]); err != nil {
			return nil, err
		}
		if lg.Coin, err = unescapeField(f[1]); err != nil {
			return nil, err
		}
		if lg.Amount, err = decimal.NewFromString(f[2]); err != nil {
			return nil, fmt.Errorf("bad amount in leg %q", p)
		}
		legs = append(legs, lg)
	}
	return legs, nil
}

// sameAsRecord reports whether the stored posting record describes p: the
// same reason and legs (the meta is not compared).
func sameAsRecord(rec store.Item, p Posting) bool {
	if h := rec.Str("hash"); h != "" {
		return h == postingHash(p) // a record of the JSON format
	}
	return rec.Str("reason") == p.Reason && rec.Str("legs") == legsText(p.Legs)
}
